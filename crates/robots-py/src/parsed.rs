//! `robots.Robots`: one site's rules, a parsed robots.txt or the blanket answer a fetch
//! status gives (RFC 9309 §2.3.1), and the questions a crawler asks of them.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};
use robots::{Availability, Options, Profile, Robots};
use robots_present::PreferencesJson;

use crate::agent::agent_arg;
use crate::errors::value_error;
use crate::finding::PyFinding;
use crate::verdict::PyVerdict;

/// What decides a site's verdicts.
pub enum Rules {
    /// A robots.txt body, parsed (boxed: the other answer is a word).
    Parsed(Box<Robots>),
    /// No file to read: everything allowed (unavailable) or disallowed (unreachable).
    Blanket(Availability),
}

/// A parsed robots.txt. Parsing never fails: any bytes give rules, and what is wrong
/// with them is in `lint()`. Immutable, so one parse can be shared by threads.
///
/// >>> import robots
/// >>> r = robots.Robots(b"User-agent: *\nDisallow: /private\n")
/// >>> r.check("ExampleBot", "https://example.com/private/x").allowed
/// False
/// >>> r.check("ExampleBot", "https://example.com/private/x").line
/// 2
#[pyclass(frozen, module = "robots", name = "Robots")]
pub struct PyRobots {
    pub(crate) rules: Rules,
    pub(crate) options: Options,
    /// The body as given, which `lint()` reads again for places and non-UTF-8 patterns
    /// are quoted from (the parsed file keeps neither).
    pub(crate) source: Box<[u8]>,
    /// Whether the file has Content-Usage or Content-Signal lines: most have none, and
    /// then a check does not look for AI usage preferences at all.
    pub(crate) states_preferences: bool,
}

/// `Request-rate: n/t`: at most `requests` every `seconds`.
#[pyclass(frozen, module = "robots", name = "RequestRate", get_all)]
pub struct PyRequestRate {
    /// How many requests.
    requests: u32,
    /// In how many seconds.
    seconds: f64,
}

#[pymethods]
impl PyRequestRate {
    fn __repr__(&self) -> String {
        format!(
            "RequestRate(requests={}, seconds={})",
            self.requests, self.seconds
        )
    }
}

/// The parse options for a profile name and a limit, as the Python API takes them.
pub fn options(profile: &str, max_bytes: Option<&Bound<'_, PyAny>>) -> PyResult<Options> {
    let profile: Profile = profile.parse().map_err(value_error)?;
    let options = Options::new().profile(profile);
    let Some(limit) = max_bytes.filter(|m| !m.is_none()) else {
        return Ok(options);
    };
    let limit: i64 = limit.extract().map_err(|_| {
        PyTypeError::new_err("max_bytes must be an int (bytes to parse, at least 512000) or None")
    })?;
    let limit = usize::try_from(limit).map_err(|_| {
        PyValueError::new_err(format!(
            "max_bytes {limit} is negative; give at least 512000 (RFC 9309's 500 KiB), or None"
        ))
    })?;
    options.max_bytes(limit).map_err(value_error)
}

/// The bytes of a body given as `bytes`, `bytearray` or `str` (UTF-8 encoded).
pub fn body_bytes(body: &Bound<'_, PyAny>) -> PyResult<Box<[u8]>> {
    if let Ok(b) = body.downcast::<PyBytes>() {
        Ok(b.as_bytes().into())
    } else if let Ok(b) = body.downcast::<PyByteArray>() {
        Ok(b.to_vec().into())
    } else if let Ok(s) = body.downcast::<PyString>() {
        Ok(utf8(s)?.as_bytes().into())
    } else {
        Err(PyTypeError::new_err(format!(
            "the robots.txt body must be bytes or str, not {}",
            body.get_type().name()?
        )))
    }
}

impl PyRobots {
    /// `source` parsed under `options`, without the GIL.
    pub fn parse(py: Python<'_>, source: Box<[u8]>, options: Options) -> PyRobots {
        let robots = py.allow_threads(|| Robots::parse_with(&source, options));
        let states_preferences = robots.states_preferences();
        PyRobots {
            rules: Rules::Parsed(Box::new(robots)),
            options,
            source,
            states_preferences,
        }
    }

    /// The rules of a site whose robots.txt could not be read (RFC 9309 §2.3.1).
    pub fn blanket(state: Availability, options: Options) -> PyRobots {
        PyRobots {
            rules: Rules::Blanket(state),
            options,
            source: Box::default(),
            states_preferences: false,
        }
    }

    /// The verdict for one URL.
    pub fn verdict(&self, agent: &robots::Agent, url: &Url<'_>) -> PyVerdict {
        let text = url.text.clone().unbind();
        match &self.rules {
            Rules::Parsed(robots) => PyVerdict::of(
                text,
                &robots.check_bytes(agent, url.bytes()),
                &self.source,
                self.options,
                if self.states_preferences {
                    PreferencesJson::of(robots, agent, url.bytes())
                } else {
                    PreferencesJson::NONE
                },
            ),
            Rules::Blanket(state) => PyVerdict::blanket(text, url.bytes(), *state, self.options),
        }
    }

    fn allows(&self, agent: &robots::Agent, url: &[u8]) -> bool {
        match &self.rules {
            Rules::Parsed(robots) => robots.check_bytes(agent, url).allowed(),
            Rules::Blanket(state) => blanket_allows(*state, self.options, url),
        }
    }

    fn robots(&self) -> Option<&Robots> {
        match &self.rules {
            Rules::Parsed(robots) => Some(robots),
            Rules::Blanket(_) => None,
        }
    }
}

/// Whether a site without a file to read allows `url`: all when unavailable; when
/// unreachable only what the profile always allows (RFC 9309 §2.3.1.4).
pub fn blanket_allows(state: Availability, options: Options, url: &[u8]) -> bool {
    state.allows_all() != Some(false)
        || std::str::from_utf8(url).is_ok_and(|url| options.chosen_profile().always_allows(url))
}

/// A URL argument: the `str` given, kept for the verdict, and its UTF-8 octets, which
/// the engine reads without a further copy.
pub struct Url<'py> {
    text: Bound<'py, PyString>,
    utf8: Bound<'py, PyBytes>,
}

impl Url<'_> {
    /// The URL's UTF-8 octets.
    pub fn bytes(&self) -> &[u8] {
        self.utf8.as_bytes()
    }
}

/// The UTF-8 octets of `text`. A `str` may hold lone surrogates, which UTF-8 cannot
/// encode: those from `surrogateescape` decoding are the octets they stood for, any
/// other is written as its three octets (`surrogatepass`), so that no text raises.
fn utf8<'py>(text: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyBytes>> {
    text.encode_utf8().or_else(|_| {
        ["surrogateescape", "surrogatepass"]
            .iter()
            .find_map(|errors| {
                text.call_method1("encode", ("utf-8", *errors))
                    .ok()
                    .and_then(|b| b.downcast_into::<PyBytes>().ok())
            })
            .map_or_else(|| text.encode_utf8(), Ok)
    })
}

/// `url` as a `str`, or a `TypeError` naming what it was.
fn url_arg<'py>(url: &Bound<'py, PyAny>) -> PyResult<Url<'py>> {
    match url.downcast::<PyString>() {
        Ok(text) => Ok(Url {
            utf8: utf8(text)?,
            text: text.clone(),
        }),
        Err(_) => Err(PyTypeError::new_err(format!(
            "the URL must be a str (`https://example.com/a` or `/a`), not {}",
            url.get_type().name()?
        ))),
    }
}

#[pymethods]
impl PyRobots {
    /// Parses `body` (`bytes` or `str`) as robots.txt under `profile` (`"rfc9309"`, the
    /// default, or `"google"`), reading at most `max_bytes` (default and minimum
    /// 512,000). Never raises on the content; `ValueError` for an unknown profile or
    /// a limit below 512,000, `TypeError` for a body that is neither bytes nor str.
    #[new]
    #[pyo3(signature = (body, profile = "rfc9309", max_bytes = None))]
    fn new(
        py: Python<'_>,
        body: &Bound<'_, PyAny>,
        profile: &str,
        max_bytes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let options = options(profile, max_bytes)?;
        Ok(PyRobots::parse(py, body_bytes(body)?, options))
    }

    /// The verdict for `agent` (a product token or an `Agent`) on `url` (a URL or a
    /// path): `allowed`, the deciding rule's `line`, `rule` and `pattern`, `reason`,
    /// `embargo_days` and the AI usage preferences (`content_usage`, `content_signal`
    /// and their lines), as `robots check --format json` writes them.
    fn check(&self, agent: &Bound<'_, PyAny>, url: &Bound<'_, PyAny>) -> PyResult<PyVerdict> {
        let agent = agent_arg(agent, self.options.chosen_profile())?;
        Ok(self.verdict(&agent, &url_arg(url)?))
    }

    /// Whether `agent` may fetch `url`: `check(agent, url).allowed` without building
    /// the verdict (Protego's `can_fetch(url, agent)`).
    fn allowed(&self, agent: &Bound<'_, PyAny>, url: &Bound<'_, PyAny>) -> PyResult<bool> {
        let agent = agent_arg(agent, self.options.chosen_profile())?;
        Ok(PyRobots::allows(self, &agent, url_arg(url)?.bytes()))
    }

    /// Whether `agent` may fetch each of `urls` (any iterable of str), in order: one
    /// call for many URLs, checked without the GIL.
    fn check_many(
        &self,
        py: Python<'_>,
        agent: &Bound<'_, PyAny>,
        urls: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<bool>> {
        let agent = agent_arg(agent, self.options.chosen_profile())?;
        let urls = urls
            .try_iter()?
            .map(|url| url_arg(&url?))
            .collect::<PyResult<Vec<Url<'_>>>>()?;
        // Python bytes are immutable and held by `urls`: read without the GIL.
        let octets: Vec<&[u8]> = urls.iter().map(Url::bytes).collect();
        let agent: &robots::Agent = &agent;
        Ok(py.allow_threads(|| {
            octets
                .iter()
                .map(|url| PyRobots::allows(self, agent, url))
                .collect()
        }))
    }

    /// The Crawl-delay, in seconds, of the groups `agent` follows; the largest when
    /// several give one; `None` when none does or there is no file.
    fn crawl_delay(&self, agent: &Bound<'_, PyAny>) -> PyResult<Option<f64>> {
        let agent = agent_arg(agent, self.options.chosen_profile())?;
        Ok(self
            .robots()
            .and_then(|r| r.group_for(&agent).crawl_delay())
            .map(|d| d.as_secs_f64()))
    }

    /// The Request-rate of the groups `agent` follows, as `RequestRate(requests,
    /// seconds)`, or `None`.
    fn request_rate(&self, agent: &Bound<'_, PyAny>) -> PyResult<Option<PyRequestRate>> {
        let agent = agent_arg(agent, self.options.chosen_profile())?;
        Ok(self
            .robots()
            .and_then(|r| r.group_for(&agent).request_rate())
            .map(|rate| PyRequestRate {
                requests: rate.requests,
                seconds: rate.per.as_secs_f64(),
            }))
    }

    /// The Sitemap URLs, in file order.
    #[getter]
    fn sitemaps(&self) -> Vec<String> {
        self.robots()
            .map(|r| r.sitemaps().map(str::to_owned).collect())
            .unwrap_or_default()
    }

    /// The Host line's value, if any.
    #[getter]
    fn host(&self) -> Option<String> {
        self.robots().and_then(|r| r.host()).map(str::to_owned)
    }

    /// The profile the file was read under: `"rfc9309"` or `"google"`.
    #[getter]
    fn profile(&self) -> &'static str {
        self.options.chosen_profile().name()
    }

    /// Where the rules come from: `"parsed"` (a body), `"unavailable"` (a 4xx: all
    /// allowed) or `"unreachable"` (a 5xx or no answer: all disallowed but
    /// `/robots.txt`), as `from_response` decided.
    #[getter]
    fn state(&self) -> &'static str {
        match self.rules {
            Rules::Parsed(_) => "parsed",
            Rules::Blanket(state) => state.name(),
        }
    }

    /// Everything wrong with the file, sorted by line: each `Finding` has `code`
    /// (stable, e.g. `"shadowed-rule"`), `severity`, `line`, `column` (1-based,
    /// bytes), `message` and `suggestion`.
    fn lint(&self, py: Python<'_>) -> Vec<PyFinding> {
        match self.robots() {
            Some(robots) => py
                .allow_threads(|| robots.lint(&self.source))
                .into_iter()
                .map(PyFinding::from)
                .collect(),
            None => Vec::new(),
        }
    }

    /// Why `agent` gets its verdict on `url`, for people: the groups chosen, the
    /// path as rules see it, the rules that matched and the one that decided.
    fn explain(&self, agent: &Bound<'_, PyAny>, url: &Bound<'_, PyAny>) -> PyResult<String> {
        let agent = agent_arg(agent, self.options.chosen_profile())?;
        let url = url_arg(url)?;
        let bytes = url.bytes();
        let text = String::from_utf8_lossy(bytes);
        Ok(match &self.rules {
            Rules::Parsed(robots) => {
                crate::explain::text(robots, &agent, &text, bytes, &self.source)
            }
            Rules::Blanket(state) => crate::explain::blanket(*state, self.options, &text, bytes),
        })
    }

    /// Pickling (for Spark broadcasts, multiprocessing): the body, profile, limit and
    /// state; unpickling parses the body again.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Pickled<'py>)> {
        let rebuild = py.import("robots._robots")?.getattr("_rebuild")?;
        Ok((
            rebuild,
            (
                self.state(),
                PyBytes::new(py, &self.source),
                self.profile(),
                self.options.limit(),
            ),
        ))
    }

    fn __repr__(&self) -> String {
        match &self.rules {
            Rules::Parsed(robots) => format!(
                "<robots.Robots {}: {} lines, {} bytes parsed>",
                self.profile(),
                robots.line_count(),
                robots.parsed_bytes()
            ),
            Rules::Blanket(state) => {
                format!("<robots.Robots {}: {}>", self.profile(), state.name())
            }
        }
    }
}

/// What a pickled `Robots` holds: state, body, profile, parse limit.
type Pickled<'py> = (&'static str, Bound<'py, PyBytes>, &'static str, usize);

/// Rebuilds a pickled `Robots` (its `__reduce__`).
#[pyfunction]
pub fn _rebuild(
    py: Python<'_>,
    state: &str,
    source: Vec<u8>,
    profile: &str,
    max_bytes: usize,
) -> PyResult<PyRobots> {
    let profile: Profile = profile.parse().map_err(value_error)?;
    let options = Options::new()
        .profile(profile)
        .max_bytes(max_bytes)
        .map_err(value_error)?;
    let rules = match state {
        "parsed" => return Ok(PyRobots::parse(py, source.into(), options)),
        "unavailable" => Availability::Unavailable,
        "unreachable" => Availability::Unreachable,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown robots state `{other}`; a pickled Robots holds parsed, unavailable or unreachable"
            )))
        }
    };
    Ok(PyRobots::blanket(rules, options))
}
