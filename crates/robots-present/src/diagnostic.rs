//! Lint findings as JSON: the fields of `robots lint --format json` (with the file's
//! name first), and as the page shows them beside their lines (with the span to mark).

use robots::Diagnostic;
use serde::Serialize;

/// A finding in this field order: `file` (the command line's), `line`, `column`,
/// `length` and `span_column` (the page's), `code`, `severity`, `message`,
/// `suggestion` (`null` when there is none). Fields only one of them gives are left
/// out, not `null`, for the other.
#[derive(Debug, Serialize)]
pub struct DiagnosticJson<'a> {
    /// The file's name, as given on the command line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<&'a str>,
    /// The 1-based line.
    pub line: u32,
    /// 1-based, in bytes of the line's UTF-8.
    pub column: u32,
    /// The length of the span in bytes (at least 1, so there is always a mark).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<usize>,
    /// Where on the line the span starts, 1-based in bytes: what the page underlines,
    /// as `robots lint` does. Not always `column`, which may point inside the span (at
    /// the `$` of a pattern, for dollar-inside).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span_column: Option<u32>,
    /// The stable kebab-case code.
    pub code: &'static str,
    /// `error`, `warning` or `info`.
    pub severity: &'static str,
    /// What is wrong.
    pub message: &'a str,
    /// What to do about it.
    pub suggestion: Option<&'a str>,
}

impl<'a> DiagnosticJson<'a> {
    /// The finding `d` in the file named `file`: a line of `robots lint --format json`.
    pub fn in_file(file: &'a str, d: &'a Diagnostic) -> DiagnosticJson<'a> {
        DiagnosticJson {
            file: Some(file),
            ..DiagnosticJson::bare(d)
        }
    }

    /// The finding `d` in the file `source`, with its span, as the page marks it.
    pub fn spanned(d: &'a Diagnostic, source: &[u8]) -> DiagnosticJson<'a> {
        let start = d.span.start.min(source.len());
        let line_start = source[..start]
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(0, |at| at + 1);
        DiagnosticJson {
            length: Some(d.span.len().max(1)),
            span_column: Some(u32::try_from(start - line_start + 1).unwrap_or(u32::MAX)),
            ..DiagnosticJson::bare(d)
        }
    }

    fn bare(d: &'a Diagnostic) -> DiagnosticJson<'a> {
        DiagnosticJson {
            file: None,
            line: d.line,
            column: d.column,
            length: None,
            span_column: None,
            code: d.code.as_str(),
            severity: d.severity().name(),
            message: &d.message,
            suggestion: d.suggestion.as_deref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use robots::Robots;

    #[test]
    fn the_command_line_and_the_page_each_get_their_fields_in_order() {
        let source = b"User-agent: *\nDisalow: /x\n";
        let robots = Robots::parse(source);
        let found = robots.lint(source);
        let d = found
            .iter()
            .find(|d| d.line == 2)
            .expect("a finding on line 2");
        let cli = serde_json::to_value(DiagnosticJson::in_file("robots.txt", d)).unwrap();
        let keys = |v: &serde_json::Value| -> Vec<String> {
            v.as_object().unwrap().keys().cloned().collect()
        };
        let cli_text = serde_json::to_string(&DiagnosticJson::in_file("robots.txt", d)).unwrap();
        assert!(
            cli_text.starts_with(r#"{"file":"robots.txt","line":2,"column":1,"code":""#),
            "{cli_text}"
        );
        assert!(!cli_text.contains("span_column"));
        assert_eq!(cli["file"], "robots.txt");
        let page_text = serde_json::to_string(&DiagnosticJson::spanned(d, source)).unwrap();
        assert!(
            page_text.starts_with(r#"{"line":2,"column":1,"length":"#),
            "{page_text}"
        );
        assert!(
            page_text.contains(r#""span_column":1,"code":""#),
            "{page_text}"
        );
        assert!(
            !keys(&serde_json::to_value(DiagnosticJson::spanned(d, source)).unwrap())
                .contains(&"file".to_owned())
        );
    }
}
