//! `robots.Agent`: a crawler's name, checked once, and how a Python argument that names
//! a crawler (an `Agent` or a `str`) becomes the engine's `Agent` for a profile.

use std::borrow::Cow;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use robots::{Agent, Profile};
use robots_present::{NamedAgent, NamingError};

use crate::errors::value_error;

/// A crawler: its product token, and whether it honours Archive-Embargo.
///
/// >>> import robots
/// >>> robots.Agent("ExampleBot").token
/// 'ExampleBot'
/// >>> robots.Agent.from_user_agent("Mozilla/5.0 (compatible; ExampleBot/2.1)").token
/// 'ExampleBot'
#[pyclass(frozen, module = "robots", name = "Agent")]
pub struct PyAgent {
    pub(crate) inner: Agent,
}

#[pymethods]
impl PyAgent {
    /// `token` is the crawler's product token (`ExampleBot`); `ValueError`, naming
    /// the bad character, for one that holds a character no token may (a space, `/`).
    #[new]
    #[pyo3(signature = (token, embargo = false))]
    fn new(token: &str, embargo: bool) -> PyResult<Self> {
        let agent = Agent::new(token).map_err(value_error)?;
        Ok(PyAgent::of(agent, embargo))
    }

    /// The crawler a whole User-Agent header names: its first product token that is
    /// not `Mozilla` or another browser's (`Mozilla/5.0 (compatible; ExampleBot/2.1)`
    /// names `ExampleBot`). `ValueError` when the header names none.
    #[staticmethod]
    #[pyo3(signature = (header, embargo = false))]
    fn from_user_agent(header: &str, embargo: bool) -> PyResult<Self> {
        let agent = Agent::from_user_agent(header).map_err(value_error)?;
        Ok(PyAgent::of(agent, embargo))
    }

    /// The product token compared with user-agent lines.
    #[getter]
    fn token(&self) -> &str {
        self.inner.token()
    }

    /// Whether the crawler honours Archive-Embargo (RFC 9309 profile only).
    #[getter]
    fn embargo(&self) -> bool {
        self.inner.honours_embargo()
    }

    fn __repr__(&self) -> String {
        if self.inner.honours_embargo() {
            format!("Agent({:?}, embargo=True)", self.inner.token())
        } else {
            format!("Agent({:?})", self.inner.token())
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<PyAgent>().is_ok_and(|o| {
            let o = &o.get().inner;
            o.token().eq_ignore_ascii_case(self.inner.token())
                && o.honours_embargo() == self.inner.honours_embargo()
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.token().to_ascii_lowercase().hash(&mut h);
        self.inner.honours_embargo().hash(&mut h);
        h.finish()
    }
}

impl PyAgent {
    fn of(agent: Agent, embargo: bool) -> PyAgent {
        PyAgent {
            inner: if embargo {
                agent.honouring_embargo()
            } else {
                agent
            },
        }
    }
}

/// The engine's agent for a Python argument: an `Agent` as it is; a `str` as the
/// profile reads a crawler's name, as `robots check --agent` does: Google's matcher
/// compares it as given, the RFC 9309 profile wants a product token (and reads a whole
/// User-Agent header, one with a space or `/`, for its token).
pub fn agent_arg<'a>(obj: &'a Bound<'_, PyAny>, profile: Profile) -> PyResult<Cow<'a, Agent>> {
    if let Ok(agent) = obj.downcast::<PyAgent>() {
        return Ok(Cow::Borrowed(&agent.get().inner));
    }
    let Ok(name) = obj.downcast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "the agent must be a str (the crawler's product token) or a robots.Agent, not {}",
            obj.get_type().name()?
        )));
    };
    let name = name.to_cow()?;
    Ok(Cow::Owned(named(&name, profile)?))
}

/// The agent `name` stands for in `profile`, as the command line and the browser tester
/// read it ([`NamedAgent`]; its notes are for people typing a name, not for programs).
pub fn named(name: &str, profile: Profile) -> PyResult<Agent> {
    match NamedAgent::new(name, profile, false) {
        Ok(named) => Ok(named.agent),
        Err(NamingError::Engine(err)) => Err(value_error(err)),
        // Not asked for here: an embargo is the Agent's own (`robots.Agent(…, embargo=True)`).
        Err(err @ NamingError::EmbargoNeedsRfc9309) => {
            Err(pyo3::exceptions::PyValueError::new_err(err.to_string()))
        }
    }
}
