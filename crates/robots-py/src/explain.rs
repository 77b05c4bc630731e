//! `Robots.explain()`'s text: the verdict for one URL and what went into it, in the
//! words and layout of `robots explain` (without the file excerpt), from the layer that writes them.

use robots::{Agent, Availability, Options, Robots};
use robots_present::explanation::{self, Shown};
use robots_present::Style;

/// Why `agent` gets its verdict on `url` (`text` shown, `bytes` checked) from `robots`.
pub fn text(robots: &Robots, agent: &Agent, text: &str, bytes: &[u8], source: &[u8]) -> String {
    let explained = robots.explain_bytes(agent, bytes);
    let shown = Shown::new(robots, text, bytes, source);
    explanation::text(robots, agent, &shown, &explained, Style::plain())
}

/// Why a site without a file to read gives its verdict on `url`.
pub fn blanket(state: Availability, options: Options, text: &str, bytes: &[u8]) -> String {
    let allowed = crate::parsed::blanket_allows(state, options, bytes);
    explanation::blanket_text(text, state, allowed, Style::plain())
}
