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
    pub code: &'static str,
    pub severity: &'static str,
    pub message: &'a str,
    pub suggestion: Option<&'a str>,
}

impl<'a> DiagnosticJson<'a> {
    pub fn new(d: &'a Diagnostic) -> DiagnosticJson<'a> {
        DiagnosticJson {
            line: d.line,
            column: d.column,
            length: d.span.len().max(1),
            code: d.code.as_str(),
            severity: d.severity().name(),
            message: &d.message,
            suggestion: d.suggestion.as_deref(),
        }
    }
}
