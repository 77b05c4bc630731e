//! `robots.Verdict`: one URL's answer, with the fields and words of
//! `robots check --format json` (and `robots fetch`'s for a site with no file to read).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use robots::{Availability, Options, Verdict};
use robots_present::{blanket_reason, Pairs, Patterns, PreferencesJson, VerdictJson};

use crate::parsed::blanket_allows;

/// Whether a URL may be fetched, and why.
///
/// `line`, `rule` (`"allow"`, `"disallow"`, `"embargo-allow"`) and `pattern` name the
/// rule that decided, `embargo_days` the embargo (7, 31 or 90); each is `None` when
/// there is none. `reason` is one of `robots-txt` (/robots.txt is always allowed),
/// `no-group`, `no-match`, `longest`, `tie-won-by-allow`, `empty-disallow` (Google
/// profile), and for a site without a file `unavailable` or `unreachable`.
///
/// The AI usage preferences follow: `content_usage` (the deciding Content-Usage rule's
/// categories, each `"y"` or `"n"`, draft-ietf-aipref-attach-05 §3; `{}` for a rule
/// stating none; `None` when no rule applies or the URL is disallowed) with its
/// `content_usage_line`, and `content_signal` (the agent's groups' Content-Signal keys,
/// each `"yes"` or `"no"`) with its `content_signal_line`.
#[pyclass(frozen, module = "robots", name = "Verdict")]
pub struct PyVerdict {
    /// The URL as given.
    #[pyo3(get)]
    url: Py<PyString>,
    /// Whether the URL may be fetched.
    #[pyo3(get)]
    allowed: bool,
    /// The deciding rule's 1-based line.
    #[pyo3(get)]
    line: Option<u32>,
    /// The deciding rule's kind.
    #[pyo3(get)]
    rule: Option<&'static str>,
    /// The deciding rule's pattern as written; octets that are not UTF-8 as `\xE9`.
    #[pyo3(get)]
    pattern: Option<String>,
    /// The embargo, in days, for an agent that honours it.
    #[pyo3(get)]
    embargo_days: Option<u32>,
    /// Why, in a word.
    #[pyo3(get)]
    reason: &'static str,
    /// The AI usage preferences, in the fields of `robots check --format json`.
    preferences: PreferencesJson,
}

impl PyVerdict {
    /// The engine's verdict on `url`, its pattern quoted from `source` when the engine's
    /// text had to replace octets that are not UTF-8 (as `robots check` shows them).
    pub fn of(
        url: Py<PyString>,
        verdict: &Verdict<'_>,
        source: &[u8],
        options: Options,
        preferences: PreferencesJson,
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
            preferences,
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
            preferences: PreferencesJson::NONE,
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
        d.set_item("content_usage", self.content_usage(py)?)?;
        d.set_item("content_usage_line", self.preferences.content_usage_line)?;
        d.set_item("content_signal", self.content_signal(py)?)?;
        d.set_item("content_signal_line", self.preferences.content_signal_line)?;
        Ok(d)
    }

    /// The deciding Content-Usage rule's categories (`{"train-ai": "n"}`), `{}` for a
    /// rule that states none, `None` when no rule applies or the URL is disallowed.
    #[getter]
    fn content_usage<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        pairs(py, self.preferences.content_usage.as_ref())
    }

    /// The deciding Content-Usage line (the first, when rules of one length combine).
    #[getter]
    fn content_usage_line(&self) -> Option<u32> {
        self.preferences.content_usage_line
    }

    /// The Content-Signal keys of the agent's groups (`{"ai-train": "no"}`), or `None`.
    #[getter]
    fn content_signal<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        pairs(py, self.preferences.content_signal.as_ref())
    }

    /// The Content-Signal line.
    #[getter]
    fn content_signal_line(&self) -> Option<u32> {
        self.preferences.content_signal_line
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

/// Key and value pairs as a dict in their order; `None` for none.
fn pairs<'py>(py: Python<'py>, pairs: Option<&Pairs>) -> PyResult<Option<Bound<'py, PyDict>>> {
    pairs
        .map(|pairs| {
            let d = PyDict::new(py);
            for (k, v) in &pairs.0 {
                d.set_item(k, v)?;
            }
            Ok(d)
        })
        .transpose()
}
