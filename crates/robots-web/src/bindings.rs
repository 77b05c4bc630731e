//! The WebAssembly interface the page and the npm package call: `parse` gives a
//! `RobotsFile`, whose `check`, `explain`, `lint` and `summary` answer in JSON; the npm
//! package adds a parse limit, `from_response`, and a `Crawler` named once whose checks
//! answer as a packed number. Each only forwards to `Tester`.

use robots::Profile;
use robots_present::NamedAgent;
use wasm_bindgen::prelude::*;

use crate::packed;
use crate::tester::Tester;
use crate::WebError;

/// A parsed robots.txt held by the page. Call `free()` when done with it.
#[wasm_bindgen]
pub struct RobotsFile {
    tester: Tester,
}

/// A crawler named once for a profile, as `RobotsFile::check` names it, so that the npm
/// package's checks cost no parsing of the name.
#[wasm_bindgen]
pub struct Crawler {
    named: NamedAgent,
    profile: Profile,
}

/// Parses the robots.txt `bytes` (the file's exact bytes, any encoding) under
/// `profile`, `rfc9309` or `google`.
#[wasm_bindgen]
pub fn parse(bytes: &[u8], profile: &str) -> Result<RobotsFile, JsError> {
    Ok(RobotsFile {
        tester: Tester::parse(bytes, profile)?,
    })
}

/// Parses as `parse` does, reading at most `max_bytes` (absent: the default limit).
#[wasm_bindgen]
pub fn parse_with(
    bytes: &[u8],
    profile: &str,
    max_bytes: Option<f64>,
) -> Result<RobotsFile, JsError> {
    Ok(RobotsFile {
        tester: Tester::parse_with(bytes, profile, limit(max_bytes)?)?,
    })
}

/// The rules a robots.txt response with HTTP `status` and `body` gives (RFC 9309
/// §2.3.1); status 0 stands for no answer at all.
#[wasm_bindgen]
pub fn from_response(
    status: f64,
    body: &[u8],
    profile: &str,
    max_bytes: Option<f64>,
) -> Result<RobotsFile, JsError> {
    // A JavaScript number is not checked on its way into a u16: check it here.
    if !(status.fract() == 0.0 && (0.0..=999.0).contains(&status)) {
        return Err(WebError::BadStatus(status.to_string()).into());
    }
    Ok(RobotsFile {
        tester: Tester::from_response(status as u16, body, profile, limit(max_bytes)?)?,
    })
}

/// The crawler called `name` under `profile`, honouring Archive-Embargo if `embargo`.
#[wasm_bindgen]
pub fn crawler(name: &str, profile: &str, embargo: bool) -> Result<Crawler, JsError> {
    let profile: Profile = profile.parse().map_err(WebError::from)?;
    Ok(Crawler {
        named: NamedAgent::new(name, profile, embargo).map_err(WebError::from)?,
        profile,
    })
}

/// The buffer JavaScript writes a URL's UTF-8 into for `RobotsFile::packed_at`, made
/// once: a check then passes no string through wasm-bindgen, which would allocate and
/// free one per call.
struct UrlBuffer(std::cell::UnsafeCell<[u8; URL_BUFFER]>);

/// The longest URL, in UTF-8 bytes, that `packed_at` takes; longer ones go by `packed`.
pub const URL_BUFFER: usize = 64 * 1024;

// SAFETY: WebAssembly runs this module on one thread; the buffer is only read by
// `packed_at`, never while JavaScript writes it.
unsafe impl Sync for UrlBuffer {}

static URL: UrlBuffer = UrlBuffer(std::cell::UnsafeCell::new([0; URL_BUFFER]));

/// Where JavaScript writes the URL for `packed_at` in `engine_memory()`, and how much fits.
#[wasm_bindgen]
pub fn url_buffer() -> Vec<u32> {
    // A wasm32 address fits a u32.
    vec![URL.0.get() as usize as u32, URL_BUFFER as u32]
}

/// The module's memory, for JavaScript to write into `url_buffer()`.
#[wasm_bindgen]
pub fn engine_memory() -> JsValue {
    wasm_bindgen::memory()
}

thread_local! {
    /// Where JavaScript encodes a robots.txt given as text for `parse_input`: straight
    /// into the module's memory, not through a buffer of its own that is then copied.
    static INPUT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Room for `len` bytes of input to `parse_input`, at the address returned (it may grow
/// the memory, which detaches JavaScript's views of it).
#[wasm_bindgen]
pub fn input_buffer(len: usize) -> u32 {
    INPUT.with_borrow_mut(|input| {
        input.clear();
        // Room, not bytes: JavaScript writes them, so they need no zeroing first.
        input.reserve(len);
        // A wasm32 address fits a u32.
        input.as_mut_ptr() as usize as u32
    })
}

/// Parses the first `len` bytes JavaScript wrote at `input_buffer()`, as `parse_with`.
#[wasm_bindgen]
pub fn parse_input(
    len: usize,
    profile: &str,
    max_bytes: Option<f64>,
) -> Result<RobotsFile, JsError> {
    INPUT.with_borrow_mut(|input| {
        // SAFETY: JavaScript wrote `len` bytes at the start of the room `input_buffer`
        // reserved (encodeInto writes no more than it is given); u8 has no invalid
        // values, and the length is bounded by the capacity.
        unsafe { input.set_len(len.min(input.capacity())) };
        let tester = Tester::parse_with(input, profile, limit(max_bytes)?);
        input.clear();
        // Kept for the next file, unless a large one left it large.
        if input.capacity() > 4 << 20 {
            *input = Vec::new();
        }
        Ok(RobotsFile { tester: tester? })
    })
}

/// JSON `{reasons, rules}`: the names a packed verdict's indices stand for.
#[wasm_bindgen]
pub fn packed_names() -> String {
    serde_json::json!({ "reasons": packed::reasons(), "rules": packed::rules() }).to_string()
}

/// JSON `{reason: phrase}`: why a verdict no rule decided came out so, in the words
/// `robots check` and `robots fetch` print on a verdict line
/// ([`robots_present::reasons::phrases`]), for the page's results table.
#[wasm_bindgen]
pub fn reason_phrases() -> String {
    // Written through `Pairs`, a map in order, rather than `serde_json::Value`, which
    // would add its code to the WebAssembly for one object.
    serde_json::to_string(&robots_present::Pairs(robots_present::reasons::phrases()))
        .unwrap_or_default()
}

/// A parse limit from JavaScript: a whole number of bytes (the engine checks the floor).
fn limit(max_bytes: Option<f64>) -> Result<Option<usize>, WebError> {
    match max_bytes {
        None => Ok(None),
        Some(n) if n.fract() == 0.0 && n >= 0.0 => Ok(Some(if n >= usize::MAX as f64 {
            usize::MAX
        } else {
            n as usize
        })),
        Some(n) => Err(WebError::BadLimit(n.to_string())),
    }
}

#[wasm_bindgen]
impl Crawler {
    /// JSON: `{name, token, honours_embargo, notes}`.
    pub fn json(&self) -> String {
        serde_json::to_string(&self.named.json()).unwrap_or_default()
    }
}

#[wasm_bindgen]
impl RobotsFile {
    /// JSON: `{profile, bytes, parsed_bytes, parse_limit, lines, groups: [{line,
    /// agents}], sitemaps}`.
    pub fn summary(&self) -> String {
        self.tester.summary()
    }

    /// JSON: `{agent: {name, token, honours_embargo, notes}, verdicts: [{url, allowed,
    /// line, rule, pattern, embargo_days, reason}]}`, a verdict per URL in order.
    pub fn check(&self, agent: &str, embargo: bool, urls: Vec<String>) -> Result<String, JsError> {
        Ok(self.tester.check(agent, embargo, &urls)?)
    }

    /// JSON: the verdict, the groups chosen and why, the matching rules, the reason.
    pub fn explain(&self, agent: &str, embargo: bool, url: &str) -> Result<String, JsError> {
        Ok(self.tester.explain(agent, embargo, url)?)
    }

    /// JSON: `[{line, column, length, span_column, code, severity, message, suggestion}]`.
    pub fn lint(&self) -> String {
        self.tester.lint()
    }

    /// The verdict for `url` packed into a number (see `packed_names`), for a crawler
    /// made for this file's profile.
    pub fn packed(&self, crawler: &Crawler, url: &str) -> Result<f64, JsError> {
        self.made_for_this_file(crawler)?;
        Ok(self.tester.packed(&crawler.named, url.as_bytes()))
    }

    /// `packed` for the URL whose first `len` UTF-8 bytes JavaScript wrote into
    /// `url_buffer()`; NaN for a crawler made for another profile (which the package's
    /// JavaScript never makes; it would then call `packed` to get the error).
    pub fn packed_at(&self, crawler: &Crawler, len: usize) -> f64 {
        if crawler.profile != self.tester.robots().profile() {
            return f64::NAN;
        }
        // SAFETY: single-threaded; JavaScript wrote the bytes before this call and does
        // not touch them during it, and `len` is bounded by the buffer's size.
        let bytes =
            unsafe { std::slice::from_raw_parts(URL.0.get().cast::<u8>(), len.min(URL_BUFFER)) };
        self.tester.packed(&crawler.named, bytes)
    }

    /// An error unless `crawler` was made for this file's profile (the names are read
    /// per profile).
    fn made_for_this_file(&self, crawler: &Crawler) -> Result<(), WebError> {
        let file = self.tester.robots().profile();
        if crawler.profile != file {
            return Err(WebError::ProfileMismatch {
                made: crawler.profile.name(),
                file: file.name(),
            });
        }
        Ok(())
    }

    /// Whether the file states AI usage preferences (Content-Usage or Content-Signal
    /// lines); `preferences` is worth asking only when it does.
    pub fn states_preferences(&self) -> bool {
        self.tester.states_preferences()
    }

    /// JSON: `{content_usage, content_usage_line, content_signal, content_signal_line}`
    /// for `url` and a crawler made for this file's profile, as `robots check` writes
    /// them after a verdict.
    pub fn preferences(&self, crawler: &Crawler, url: &str) -> Result<String, JsError> {
        self.made_for_this_file(crawler)?;
        Ok(self.tester.preferences(&crawler.named, url.as_bytes()))
    }

    /// The pattern of the rule on `line` (a packed verdict names its rule by line).
    pub fn pattern_at(&self, line: u32) -> Option<String> {
        self.tester.pattern_at(line).map(str::to_owned)
    }

    /// The crawler's Crawl-delay in seconds, if its groups give one.
    pub fn crawl_delay(&self, crawler: &Crawler) -> Option<f64> {
        self.tester
            .crawl_delay(&crawler.named)
            .map(|d| d.as_secs_f64())
    }

    /// The Sitemap URLs, in file order.
    pub fn sitemaps(&self) -> Vec<String> {
        self.tester.robots().sitemaps().map(str::to_owned).collect()
    }

    /// The first non-empty Host line's value, if any.
    pub fn host(&self) -> Option<String> {
        self.tester.robots().host().map(str::to_owned)
    }

    /// The profile the file was read under: `rfc9309` or `google`.
    pub fn profile(&self) -> String {
        self.tester.robots().profile().name().to_owned()
    }
}
