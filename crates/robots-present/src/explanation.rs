//! `explain`'s text: the groups chosen and why, every rule that matched with its length,
//! the one that decided and the reason, as `robots explain` prints it and Python returns it.

use robots::{escaped, Agent, EmbargoAllowUse, Explanation, Profile, Robots, RuleKind, Selection};
use unicode_width::UnicodeWidthStr;

use crate::preferences::PreferencesJson;
use crate::reasons::blanket_sentence;
use crate::style::Style;
use crate::text::printable;
use crate::written::Patterns;

/// The URL, its path and the file's patterns as output shows them, octets that are not
/// UTF-8 as `\xE9`.
pub struct Shown<'a> {
    /// The URL as given, shown.
    pub url: &'a str,
    /// The URL's octets, as the engine checks them.
    pub bytes: &'a [u8],
    /// The path as the rules see it.
    pub path: String,
    /// The file's patterns as written.
    pub patterns: Patterns,
}

impl<'a> Shown<'a> {
    /// `url` (shown as `text`, checked as `bytes`) against `robots`, read from `body`.
    pub fn new(robots: &Robots, text: &'a str, bytes: &'a [u8], body: &[u8]) -> Shown<'a> {
        Shown {
            url: text,
            bytes,
            // The engine's path is text; the Google profile matches a URL's octets as given.
            path: escaped(&robots.rule_path(bytes)).into_owned(),
            patterns: Patterns::new(body, robots.options()),
        }
    }
}

/// The lines of the `*` groups that a group naming the agent sets aside: the most
/// common surprise for a site owner, who wrote rules for everyone and a group for one
/// crawler, which then follows only its own group (RFC 9309 §2.2.1).
pub fn global_set_aside(robots: &Robots, e: &Explanation<'_>) -> Vec<u32> {
    match e.selection {
        Selection::Named { .. } => robots
            .groups()
            .filter(|g| g.is_global())
            .map(|g| g.line())
            .collect(),
        _ => Vec::new(),
    }
}

/// What the `*` groups a group naming the agent sets aside ([`global_set_aside`]) mean
/// for it, in a sentence: `the `*` group (line 1) does not apply: a group naming the
/// agent replaces it (RFC 9309 §2.2.1)`; `None` when none is set aside.
pub fn set_aside_text(lines: &[u32]) -> Option<String> {
    let (first, rest) = lines.split_first()?;
    let (groups, verb) = if rest.is_empty() {
        (format!("the `*` group (line {first})"), "does")
    } else {
        let all = lines.iter().map(u32::to_string).collect::<Vec<_>>();
        (format!("the `*` groups (lines {})", all.join(", ")), "do")
    };
    Some(format!(
        "{groups} {verb} not apply: a group naming the agent replaces it (RFC 9309 §2.2.1)"
    ))
}

/// The explanation as lines of `label  value`, the values in one column; the file's
/// lines around the deciding rule are the caller's to add (`robots explain` does).
///
/// ```
/// use robots::{Agent, Robots};
/// use robots_present::{explanation, Style};
/// let body = b"User-agent: *\nDisallow: /private\n\nUser-agent: ExampleBot\nAllow: /\n";
/// let robots = Robots::parse(body);
/// let agent = Agent::new("ExampleBot").unwrap();
/// let shown = explanation::Shown::new(&robots, "/private/x", b"/private/x", body);
/// let text = explanation::text(&robots, &agent, &shown, &robots.explain(&agent, "/private/x"), Style::plain());
/// assert!(text.contains("the `*` group (line 1) does not apply"));
/// assert!(text.contains("verdict  ALLOWED by line 5"));
/// ```
pub fn text(
    robots: &Robots,
    agent: &Agent,
    shown: &Shown<'_>,
    e: &Explanation<'_>,
    style: Style,
) -> String {
    let v = &e.verdict;
    let patterns = &shown.patterns;
    let honour = if agent.honours_embargo() {
        " (honours Archive-Embargo)"
    } else {
        ""
    };
    // Each row a label and its value; a continuation row has no label.
    let mut rows: Vec<(&str, String)> = vec![
        ("url", printable(shown.url).into_owned()),
        ("path", printable(&shown.path).into_owned()),
        ("agent", format!("{}{honour}", printable(agent.name()))),
        (
            "groups",
            printable(&e.selection_summary(agent)).into_owned(),
        ),
    ];
    if let Some(aside) = set_aside_text(&global_set_aside(robots, e)) {
        rows.push(("", aside));
    }
    if e.matches.is_empty() {
        rows.push(("matched", "none".to_owned()));
    }
    // The matches as a table: line numbers, rules and lengths each in a column, rules
    // padded by the columns a terminal gives them.
    let rules: Vec<String> = e
        .matches
        .iter()
        .map(|m| {
            format!(
                "{}: {}",
                m.rule.kind().directive(),
                printable(patterns.text(m.rule))
            )
        })
        .collect();
    let rule_width = rules.iter().map(|r| r.width()).max().unwrap_or(0);
    let line_width = e
        .matches
        .iter()
        .map(|m| m.rule.line().to_string().len())
        .max()
        .unwrap_or(0)
        .max(4);
    for (i, (m, rule)) in e.matches.iter().zip(&rules).enumerate() {
        let decides = v.decided_by() == Some(m.rule);
        let mark = match (decides, m.counted) {
            (true, _) => style.yellow("  <- decides"),
            (false, false) => style.dim("  (ignored)"),
            (false, true) => String::new(),
        };
        let pad = " ".repeat(rule_width - rule.width());
        rows.push((
            if i == 0 { "matched" } else { "" },
            format!(
                "line {:<line_width$} {rule}{pad}  {}{mark}",
                m.rule.line(),
                style.dim(&format!("length {}", m.rule.specificity())),
            ),
        ));
        if let Some(note) =
            index_html_note(robots.profile(), &shown.path, m.rule, patterns.text(m.rule))
        {
            rows.push(("", style.dim(&note)));
        }
    }
    if let Some(text) = e.embargo_allow.describe() {
        let hint = if e.embargo_allow == EmbargoAllowUse::IgnoredNotHonoured {
            " (use --embargo)"
        } else {
            ""
        };
        rows.push(("embargo-allow", format!("{text}{hint}")));
    }
    let word = if v.allowed() {
        style.green("ALLOWED")
    } else {
        style.red("DISALLOWED")
    };
    let by = v
        .decided_by()
        .map(|r| format!(" by line {}", r.line()))
        .unwrap_or_default();
    let embargo = v
        .embargo()
        .map(|e| style.yellow(&format!(" [embargo {} days]", e.period().days())))
        .unwrap_or_default();
    rows.push((
        "verdict",
        format!("{word}{by}: {}{embargo}", v.reason().describe()),
    ));
    let preferences = PreferencesJson::of(robots, agent, shown.bytes);
    if let Some(text) = preferences.usage_text() {
        rows.push(("content-usage", text));
    } else if robots
        .records()
        .any(|r| r.directive() == robots::Directive::ContentUsage)
    {
        // Said only of a file with Content-Usage rules, where the reader looks for one.
        let why = if v.allowed() {
            "none (no Content-Usage rule matched)"
        } else {
            "none (a disallowed URL has no preferences, attach-05 §3.1)"
        };
        rows.push(("content-usage", why.to_owned()));
    }
    if let Some(text) = preferences.signal_text() {
        rows.push(("content-signal", text));
    }
    // Values in one column, after the longest label shown.
    let label_width = rows.iter().map(|(label, _)| label.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (label, value) in &rows {
        out += &format!("{}  {value}\n", style.dim(&format!("{label:label_width$}")));
    }
    out
}

/// The explanation of a verdict no file decided (a site whose robots.txt is unavailable
/// or unreachable): the URL and the verdict with its sentence ([`blanket_sentence`]).
pub fn blanket_text(url: &str, state: robots::Availability, allowed: bool, style: Style) -> String {
    let word = if allowed {
        style.green("ALLOWED")
    } else {
        style.red("DISALLOWED")
    };
    let why = blanket_sentence(state, allowed).unwrap_or("a robots.txt was read");
    format!(
        "{}  {}\n{}  {word}: {why}\n",
        style.dim("url    "),
        printable(url),
        style.dim("verdict"),
    )
}

/// Why an `Allow: …/index.html` rule matched a path without `index.htm` in it, in the
/// Google profile: Google's matcher reads it as also allowing its directory exactly
/// (`…/$`), with that pattern's length, which the matched line shows with the rule as
/// written (`pattern`, as shown) and would otherwise look like a wrong length on a rule
/// that cannot match.
fn index_html_note(
    profile: Profile,
    path: &str,
    rule: robots::Rule<'_>,
    pattern: &str,
) -> Option<String> {
    let dir = &pattern[..=pattern.rfind('/')?];
    let index = pattern[dir.len()..].starts_with("index.htm");
    (profile == Profile::Google
        && rule.kind() == RuleKind::Allow
        && index
        && !path.contains("index.htm"))
    .then(|| {
        format!(
            "(Google reads `Allow: {}` as also allowing `{}` exactly, as `{}$`)",
            printable(pattern),
            printable(dir),
            printable(dir)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_aside_groups_are_named_one_or_several() {
        assert_eq!(set_aside_text(&[]), None);
        assert_eq!(
            set_aside_text(&[1]).unwrap(),
            "the `*` group (line 1) does not apply: a group naming the agent replaces it (RFC 9309 §2.2.1)"
        );
        assert!(set_aside_text(&[1, 9])
            .unwrap()
            .starts_with("the `*` groups (lines 1, 9) do not apply"));
        let robots = Robots::parse(b"User-agent: *\nDisallow: /\n\nUser-agent: A\nAllow: /\n\nUser-agent: *\nDisallow: /x\n");
        let named = robots.explain(&Agent::new("A").unwrap(), "/x");
        assert_eq!(global_set_aside(&robots, &named), [1, 7]);
        let other = robots.explain(&Agent::new("B").unwrap(), "/x");
        assert!(global_set_aside(&robots, &other).is_empty());
    }
}
