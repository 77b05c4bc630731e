//! `robots.Verdict`: one URL's answer, with the fields and words of
//! `robots check --format json` (and `robots fetch`'s for a site with no file to read).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use robots::{Availability, Options, Verdict};
use robots_present::{blanket_reason, Patterns, VerdictJson};

use crate::parsed::blanket_allows;

/// Whether a URL may be fetched, and why.
///
/// `line`, `rule` (`"allow"`, `"disallow"`, `"embargo-allow"`) and `pattern` name the
/// rule that decided, `embargo_days` the embargo (7, 31 or 90); each is `None` when
/// there is none. `reason` is one of `robots-txt` (/robots.txt is always allowed),
/// `no-group`, `no-match`, `longest`, `tie-won-by-allow`, `empty-disallow` (Google
/// profile), and for a site without a file `unavailable` or `unreachable`.
#[pyclass(frozen, module = "robots", name = "Verdict", get_all)]
pub struct PyVerdict {
    /// The URL as given.
    url: Py<PyString>,
    /// Whether the URL may be fetched.
    allowed: bool,
    /// The deciding rule's 1-based line.
    line: Option<u32>,
    /// The deciding rule's kind.
    rule: Option<&'static str>,
    /// The deciding rule's pattern as written; octets that are not UTF-8 as `\xE9`.
    pattern: Option<String>,
    /// The embargo, in days, for an agent that honours it.
    embargo_days: Option<u32>,
    /// Why, in a word.
    reason: &'static str,
}

impl PyVerdict {
    /// The engine's verdict on `url`, its pattern quoted from `source` when the engine's
    /// text had to replace octets that are not UTF-8 (as `robots check` shows them).
    pub fn of(
        url: Py<PyString>,
        verdict: &Verdict<'_>,
        source: &[u8],
        options: Options,
    ) -> PyVerdict {
        // The words of `robots check --format json`, from the layer that writes them.
        let words = VerdictJson::new("", verdict);
        PyVerdict {
            url,
            allowed: words.allowed,
            line: words.line,
            rule: words.rule,
            pattern: verdict
                .decided_by()
                .map(|r| Patterns::one(r, source, options).into_owned()),
            embargo_days: words.embargo_days,
            reason: words.reason,
        }
    }

    /// The verdict on `url` of a site whose robots.txt could not be read; its reason
    /// names the state, as `robots fetch --format json` does.
    pub fn blanket(
        url: Py<PyString>,
        octets: &[u8],
        state: Availability,
        options: Options,
    ) -> PyVerdict {
        let allowed = blanket_allows(state, options, octets);
        PyVerdict {
            url,
            allowed,
            line: None,
            rule: None,
            pattern: None,
            embargo_days: None,
            reason: blanket_reason(state, allowed).unwrap_or_else(|| state.name()),
        }
    }
}

#[pymethods]
impl PyVerdict {
    /// The verdict as a dict with the keys and order of `robots check --format json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("url", self.url.bind(py))?;
        d.set_item("allowed", self.allowed)?;
        d.set_item("line", self.line)?;
        d.set_item("rule", self.rule)?;
        d.set_item("pattern", &self.pattern)?;
        d.set_item("embargo_days", self.embargo_days)?;
        d.set_item("reason", self.reason)?;
        Ok(d)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let py_opt = |o: Option<String>| o.unwrap_or_else(|| "None".into());
        Ok(format!(
            "Verdict(url={:?}, allowed={}, line={}, rule={}, pattern={}, embargo_days={}, reason={:?})",
            self.url.bind(py).to_cow()?,
            if self.allowed { "True" } else { "False" },
            py_opt(self.line.map(|l| l.to_string())),
            py_opt(self.rule.map(|r| format!("{r:?}"))),
            py_opt(self.pattern.as_ref().map(|p| format!("{p:?}"))),
            py_opt(self.embargo_days.map(|d| d.to_string())),
            self.reason
        ))
    }
}
