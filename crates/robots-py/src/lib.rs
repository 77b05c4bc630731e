//! The `robots` engine as the Python extension module `robots._robots`, which the
//! package `robots` (python/robots/) re-exports: parsed files, agents and verdicts.
//!
//! Semantics stay in the engine: this crate only converts between Python objects and
//! the engine's types, releases the GIL while parsing and checking in bulk, and words
//! results as `robots check --format json` does.

#![warn(missing_docs)]

mod agent;
mod errors;
mod explain;
mod finding;
mod origin;
mod parsed;
mod response;
mod verdict;

use pyo3::prelude::*;

/// The extension module: the classes, `from_response` and `origin_of`.
#[pymodule]
fn _robots(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<agent::PyAgent>()?;
    m.add_class::<parsed::PyRobots>()?;
    m.add_class::<verdict::PyVerdict>()?;
    m.add_class::<parsed::PyRequestRate>()?;
    m.add_class::<finding::PyFinding>()?;
    m.add_function(wrap_pyfunction!(response::from_response, m)?)?;
    m.add_function(wrap_pyfunction!(origin::origin_of, m)?)?;
    m.add_function(wrap_pyfunction!(parsed::_rebuild, m)?)?;
    m.add("MIN_PARSE_LIMIT", robots::MIN_PARSE_LIMIT)?;
    m.add("MAX_PARSE_LIMIT", robots::MAX_PARSE_LIMIT)?;
    Ok(())
}
