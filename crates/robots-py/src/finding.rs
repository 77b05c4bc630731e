//! `robots.Finding`: one thing `Robots.lint()` found wrong with a file, with the
//! engine's stable code and its wording.

use pyo3::prelude::*;
use robots::Diagnostic;

/// A finding: `code` (stable, e.g. `"shadowed-rule"`), `severity` (`"error"`,
/// `"warning"`, `"info"`), 1-based `line` and `column` (bytes), `message` and
/// `suggestion` (or `None`).
#[pyclass(frozen, module = "robots", name = "Finding", get_all)]
pub struct PyFinding {
    /// The stable kebab-case code.
    code: &'static str,
    /// How bad it is.
    severity: &'static str,
    /// The 1-based line.
    line: u32,
    /// The 1-based column, in bytes.
    column: u32,
    /// What is wrong.
    message: String,
    /// What to do about it.
    suggestion: Option<String>,
}

impl From<Diagnostic> for PyFinding {
    fn from(d: Diagnostic) -> PyFinding {
        PyFinding {
            code: d.code.as_str(),
            severity: d.severity().name(),
            line: d.line,
            column: d.column,
            message: d.message.into_owned(),
            suggestion: d.suggestion.map(|s| s.into_owned()),
        }
    }
}

#[pymethods]
impl PyFinding {
    fn __repr__(&self) -> String {
        format!(
            "Finding(code={:?}, severity={:?}, line={}, column={}, message={:?})",
            self.code, self.severity, self.line, self.column, self.message
        )
    }
}
