//! The AI usage preferences `check` and `explain` show beside a verdict: the agent's
//! Content-Usage rule for the URL (attach-05 §3) and its groups' Content-Signal.

use crate::style::Style;

use robots_present::Pairs;
/// The four JSON fields, as the page writes them too.
pub use robots_present::PreferencesJson;

/// How `check`, `explain` and `diff` show them as text.
pub trait PreferencesText {
    /// `train-ai=n (line 4)`; `None` when no rule applies.
    fn usage_text(&self) -> Option<String>;
    /// `search=yes, ai-train=no (line 2)`; `None` when the agent's groups have none.
    fn signal_text(&self) -> Option<String>;
    /// What a check's text line adds after the verdict: `  [content-usage: train-ai=n
    /// (line 4)]  [content-signal: …]`, or nothing.
    fn after_verdict(&self, style: Style) -> String;
}

impl PreferencesText for PreferencesJson {
    fn usage_text(&self) -> Option<String> {
        let pairs = self.content_usage.as_ref()?;
        Some(format!(
            "{} (line {})",
            joined(pairs, "="),
            self.content_usage_line.unwrap_or(0)
        ))
    }

    fn signal_text(&self) -> Option<String> {
        let pairs = self.content_signal.as_ref()?;
        Some(format!(
            "{} (line {})",
            joined(pairs, "="),
            self.content_signal_line.unwrap_or(0)
        ))
    }

    fn after_verdict(&self, style: Style) -> String {
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
