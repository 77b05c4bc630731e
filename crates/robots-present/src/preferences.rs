//! The AI usage preferences beside a verdict, in the fields `robots check --format json`
//! and the page both write: the agent's Content-Usage rule for the URL
//! (draft-ietf-aipref-attach-05 §3) and its groups' Content-Signal (contentsignals.org).

use robots::{Agent, Robots};
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::style::Style;

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

/// How `robots check`, `explain` and `diff` show them as text.
impl PreferencesJson {
    /// `train-ai=n (line 4)`; `None` when no rule applies.
    pub fn usage_text(&self) -> Option<String> {
        let pairs = self.content_usage.as_ref()?;
        Some(format!(
            "{} (line {})",
            pairs.joined(),
            self.content_usage_line.unwrap_or(0)
        ))
    }

    /// `search=yes, ai-train=no (line 2)`; `None` when the agent's groups have none.
    pub fn signal_text(&self) -> Option<String> {
        let pairs = self.content_signal.as_ref()?;
        Some(format!(
            "{} (line {})",
            pairs.joined(),
            self.content_signal_line.unwrap_or(0)
        ))
    }

    /// What a verdict's text line adds after it: `  [content-usage: train-ai=n
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

impl Pairs {
    /// `a=b, c=d`, or `nothing stated` for no pairs (a rule that states no category).
    pub fn joined(&self) -> String {
        if self.0.is_empty() {
            return "nothing stated".to_owned();
        }
        self.0
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferences_read_as_text_after_a_verdict() {
        let robots = Robots::parse(
            b"User-agent: *\nContent-Usage: /blog train-ai=n\nContent-Usage: /open\nContent-Signal: search=yes, ai-train=no\n",
        );
        let agent = Agent::new("bot").unwrap();
        let blog = PreferencesJson::of(&robots, &agent, b"/blog/a");
        assert_eq!(blog.usage_text().as_deref(), Some("train-ai=n (line 2)"));
        assert_eq!(
            blog.after_verdict(Style::plain()),
            "  [content-usage: train-ai=n (line 2)]  [content-signal: search=yes, ai-train=no (line 4)]"
        );
        let open = PreferencesJson::of(&robots, &agent, b"/open/a");
        assert_eq!(
            open.usage_text().as_deref(),
            Some("nothing stated (line 3)")
        );
        assert_eq!(PreferencesJson::NONE.after_verdict(Style::plain()), "");
    }
}
