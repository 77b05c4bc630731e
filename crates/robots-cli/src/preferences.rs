//! The AI usage preferences `check` and `explain` show beside a verdict: the agent's
//! Content-Usage rule for the URL (attach-05 §3) and its groups' Content-Signal.

use robots::{Agent, Robots};
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::style::Style;

/// Key and value pairs written as a JSON object in their order.
pub struct Pairs(Vec<(&'static str, &'static str)>);

impl Serialize for Pairs {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The four fields JSON lines gain after the verdict's: `content_usage` (category to `y`
/// or `n`, the categories stated only; `{}` when a rule applies and states nothing;
/// `null` when none applies), `content_usage_line` (the deciding line, the first of rules
/// combined), `content_signal` (key to `yes` or `no`; `null` when the agent's groups have
/// none) and `content_signal_line`.
#[derive(serde::Serialize)]
pub struct PreferencesJson {
    pub content_usage: Option<Pairs>,
    pub content_usage_line: Option<u32>,
    pub content_signal: Option<Pairs>,
    pub content_signal_line: Option<u32>,
}

impl PreferencesJson {
    /// What `robots` tells `agent` of `url`'s content.
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

    /// `content-usage: train-ai=n (line 4)`, as text output shows it; `None` when no rule
    /// applies.
    pub fn usage_text(&self) -> Option<String> {
        let pairs = self.content_usage.as_ref()?;
        Some(format!(
            "{} (line {})",
            joined(pairs, "="),
            self.content_usage_line.unwrap_or(0)
        ))
    }

    /// `search=yes, ai-train=no (line 2)`; `None` when the agent's groups have none.
    pub fn signal_text(&self) -> Option<String> {
        let pairs = self.content_signal.as_ref()?;
        Some(format!(
            "{} (line {})",
            joined(pairs, "="),
            self.content_signal_line.unwrap_or(0)
        ))
    }

    /// What a check's text line adds after the verdict: `  [content-usage: train-ai=n
    /// (line 4)]  [content-signal: …]`, or nothing.
    pub fn after_verdict(&self, style: Style) -> String {
        let mut out = String::new();
        if let Some(text) = self.usage_text() {
            out += &format!("  {}", style.dim(&format!("[content-usage: {text}]")));
        }
        if let Some(text) = self.signal_text() {
            out += &format!("  {}", style.dim(&format!("[content-signal: {text}]")));
        }
        out
    }
}

/// `a=b, c=d`, or `nothing stated` for no pairs.
fn joined(pairs: &Pairs, eq: &str) -> String {
    if pairs.0.is_empty() {
        return "nothing stated".to_owned();
    }
    pairs
        .0
        .iter()
        .map(|(k, v)| format!("{k}{eq}{v}"))
        .collect::<Vec<_>>()
        .join(", ")
}
