//! The AI usage preferences beside a verdict, in the fields `robots check --format json`
//! and the page both write: the agent's Content-Usage rule for the URL
//! (draft-ietf-aipref-attach-05 §3) and its groups' Content-Signal (contentsignals.org).

use robots::{Agent, Robots};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// Key and value pairs, written as a JSON object in their order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairs(
    /// The pairs, in the order they are written.
    pub Vec<(&'static str, &'static str)>,
);

impl Serialize for Pairs {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The four fields after a verdict's: `content_usage` (category to `y` or `n`, the
/// categories stated only; `{}` when a rule applies and states nothing; `null` when none
/// applies or the URL is disallowed), `content_usage_line` (the deciding line, the first
/// of rules combined), `content_signal` (key to `yes` or `no`; `null` when the agent's
/// groups have none) and `content_signal_line`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, Default)]
pub struct PreferencesJson {
    /// The categories the deciding Content-Usage rule states, with `y` or `n`.
    pub content_usage: Option<Pairs>,
    /// The deciding Content-Usage line; the first, when rules of one length combine.
    pub content_usage_line: Option<u32>,
    /// The Content-Signal keys the agent's groups state, with `yes` or `no`.
    pub content_signal: Option<Pairs>,
    /// The Content-Signal line.
    pub content_signal_line: Option<u32>,
}

impl PreferencesJson {
    /// None of them: what a URL gets when no file was read.
    pub const NONE: PreferencesJson = PreferencesJson {
        content_usage: None,
        content_usage_line: None,
        content_signal: None,
        content_signal_line: None,
    };

    /// What `robots` tells `agent` of the content of `url` (octets, as
    /// [`Robots::check_bytes`] reads them).
    pub fn of(robots: &Robots, agent: &Agent, url: &[u8]) -> PreferencesJson {
        let usage = robots.content_usage_bytes(agent, url);
        let signal = robots.content_signal(agent);
        PreferencesJson {
            content_usage: usage.map(|u| {
                Pairs(
                    u.preferences()
                        .stated()
                        .map(|(c, v)| (c.label(), v.token()))
                        .collect(),
                )
            }),
            content_usage_line: usage.map(|u| u.line()),
            content_signal: signal.map(|s| {
                Pairs(
                    s.signals()
                        .stated()
                        .map(|(k, v)| (k.label(), v.word()))
                        .collect(),
                )
            }),
            content_signal_line: signal.map(|s| s.line()),
        }
    }
}
