//! The engine's errors as Python exceptions: every one is a bad argument, so a
//! `ValueError` carrying the engine's message (which says what to give instead).

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

/// `err` as a `ValueError` with the engine's message.
pub fn value_error(err: robots::Error) -> PyErr {
    // The engine names its Rust API; Python spells the same method with a dot.
    PyValueError::new_err(err.to_string().replace("Agent::", "Agent."))
}
