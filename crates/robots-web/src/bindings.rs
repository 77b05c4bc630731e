//! The WebAssembly interface the page calls: `parse` gives a `RobotsFile`, whose
//! `check`, `explain`, `lint` and `summary` answer in JSON. Each only forwards to `Tester`.

use wasm_bindgen::prelude::*;

use crate::tester::Tester;

/// A parsed robots.txt held by the page. Call `free()` when done with it.
#[wasm_bindgen]
pub struct RobotsFile {
    tester: Tester,
}

/// Parses the robots.txt `bytes` (the file's exact bytes, any encoding) under
/// `profile`, `rfc9309` or `google`.
#[wasm_bindgen]
pub fn parse(bytes: &[u8], profile: &str) -> Result<RobotsFile, JsError> {
    Ok(RobotsFile {
        tester: Tester::parse(bytes, profile)?,
    })
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
}
