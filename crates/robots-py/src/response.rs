//! `robots.from_response`: the rules one robots.txt fetch outcome gives, by its status
//! as RFC 9309 §2.3.1 classes them (the engine's `Availability`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use robots::Availability;

use crate::parsed::{body_bytes, options, PyRobots};

/// The rules for one fetch of robots.txt (after redirects): a 2xx parses `body`; a
/// 4xx, 429 included (RFC 9309 §2.3.1.3; a crawler that reads 429 as "slow down"
/// passes `None` instead), or a 3xx (a redirect not followed) allows everything; a 5xx,
/// any other status, or `None` for no answer (a network failure) disallows everything
/// but `/robots.txt` (§2.3.1.4).
///
/// >>> import robots
/// >>> robots.from_response(503, b"<html>down</html>").check("Bot", "/a").reason
/// 'unreachable'
/// >>> robots.from_response(404, None).check("Bot", "/a").allowed
/// True
#[pyfunction]
#[pyo3(signature = (status, body, *, profile = "rfc9309", max_bytes = None))]
pub fn from_response(
    py: Python<'_>,
    status: Option<i64>,
    body: Option<&Bound<'_, PyAny>>,
    profile: &str,
    max_bytes: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyRobots> {
    let options = options(profile, max_bytes)?;
    let state = match status {
        None => Availability::unreachable(),
        Some(code) => match u16::try_from(code) {
            Ok(code @ 100..=999) => Availability::of_status(code),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "status {code} is no HTTP status; give the response's three-digit status, or None when no response came"
                )))
            }
        },
    };
    let source = match body.filter(|b| !b.is_none()) {
        Some(body) => body_bytes(body)?,
        None => Box::default(),
    };
    Ok(match state {
        Availability::Available => PyRobots::parse(py, source, options),
        state => PyRobots::blanket(state, options),
    })
}
