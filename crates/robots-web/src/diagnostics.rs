//! Lint findings as the page shows them beside their lines: the fields of `robots lint
//! --format json`, plus the span's length so the page can underline it.

use robots::Diagnostic;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct DiagnosticJson<'a> {
    pub line: u32,
    /// 1-based, in bytes of the line's UTF-8.
    pub column: u32,
    /// The length of the span in bytes (at least 1, so there is always a mark).
    pub length: usize,
    /// Where on the line the span starts, 1-based in bytes: what the page underlines,
    /// as `robots lint` does. Not always `column`, which may point inside the span (at
    /// the `$` of a pattern, for dollar-inside).
    pub span_column: u32,
    pub code: &'static str,
    pub severity: &'static str,
    pub message: &'a str,
    pub suggestion: Option<&'a str>,
}

impl<'a> DiagnosticJson<'a> {
    /// The finding `d` in the file `source`.
    pub fn new(d: &'a Diagnostic, source: &[u8]) -> DiagnosticJson<'a> {
        let start = d.span.start.min(source.len());
        let line_start = source[..start]
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(0, |at| at + 1);
        DiagnosticJson {
            line: d.line,
            column: d.column,
            length: d.span.len().max(1),
            span_column: u32::try_from(start - line_start + 1).unwrap_or(u32::MAX),
            code: d.code.as_str(),
            severity: d.severity().name(),
            message: &d.message,
            suggestion: d.suggestion.as_deref(),
        }
    }
}
