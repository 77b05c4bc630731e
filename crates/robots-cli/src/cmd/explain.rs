//! `robots explain`: which groups were chosen and why, every rule that matched with its
//! length, which one decided and why, and the robots.txt lines around it.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use robots::{escaped, Agent, EmbargoAllowUse, Explanation, Profile, Robots, RuleKind, Selection};

use crate::input::{self, EngineArgs};
use crate::preferences::{PreferencesJson, PreferencesText};
use crate::snippet::Source;
use crate::style::{printable, ColorChoice, Style};
use crate::written::Patterns;
use unicode_width::UnicodeWidthStr;

/// Explain the verdict for one URL: the groups chosen, the rules that matched, the rule
/// that decided and why, and its line with two lines of the file either side.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Examples:
  robots explain --robots examples/robots.txt --agent ExampleBot /search/help
  robots explain --robots examples/robots.txt --agent ExampleArchiver --embargo /news/today
  robots explain --robots robots.txt --agent Googlebot --profile google --format json https://example.com/a

With --format json, one line holding one object: \"url\", \"path\" (as rules see it),
\"agent\", \"profile\", \"honours_embargo\", \"selection\" (\"kind\": named, global or
none; \"groups\", \"lines\", \"explanation\", \"global_set_aside\": the lines of the `*`
groups a group naming the agent sets aside), \"matches\" (each matching rule's \"line\",
\"rule\", \"pattern\", \"length\" and \"counted\"), \"embargo_allow\", \"allowed\",
\"decided_by\" (a rule, or null), \"reason\" and \"reason_text\" (as `robots check`
says why), \"embargo_days\", and the AI usage preferences as `robots check` gives
them (\"content_usage\", \"content_usage_line\", \"content_signal\",
\"content_signal_line\"), in that order. Text output shows them after the verdict. A pattern's octets that are not UTF-8
are written `\\xE9`, in text and JSON, as a URL's are.

A URL that is not UTF-8 is explained as the bytes it is, as `robots check` checks it,
and shown with those octets as `\\xE9` (`/caf\\xE9`), as is its path in the Google
profile, which matches the octets as given.

Exit status: 0 when the URL was explained (whatever the verdict), 2 on a usage error
or an unreadable file.")]
pub struct Args {
    #[command(flatten)]
    pub engine: EngineArgs,

    /// Output format.
    #[arg(long, value_enum, default_value_t = crate::cmd::check::Format::Text)]
    pub format: crate::cmd::check::Format,

    /// When to colour text output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// The URL (`https://example.com/a?b`) or path (`/a?b`) to explain.
    #[arg(value_name = "URL")]
    pub url: OsString,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let options = args.engine.reading.options()?;
    let file = input::read_file(&args.engine.robots, options)?;
    let robots = input::parse(&args.engine.robots, &file, options);
    let agent = args.engine.reading.agent(&args.engine.agent)?;
    let url = input::Url::new(args.url.as_encoded_bytes().to_vec());
    let explanation = robots.explain_bytes(&agent, &url.bytes);
    let shown = Shown {
        url: &url.text,
        bytes: &url.bytes,
        // The engine's path is text; the Google profile matches a URL's octets as given.
        path: escaped(&robots.rule_path(&url.bytes)).into_owned(),
        patterns: Patterns::new(&file.bytes, robots.options()),
    };
    // Written, not printed: a reader that stops early (`| head`) is an error to report,
    // not a panic.
    let mut out = std::io::stdout().lock();
    match args.format {
        crate::cmd::check::Format::Json => writeln!(
            out,
            "{}",
            serde_json::to_string(&as_json(&robots, &agent, &shown, &explanation))?
        )?,
        crate::cmd::check::Format::Text => {
            let name = args.engine.robots.display().to_string();
            let source = Source::new(&name, &file.bytes);
            write!(
                out,
                "{}",
                as_text(
                    &robots,
                    &agent,
                    &shown,
                    &explanation,
                    &source,
                    Style::new(args.color)
                )
            )?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The URL, its path and the file's patterns as output shows them, octets that are not
/// UTF-8 as `\xE9`.
struct Shown<'a> {
    url: &'a str,
    bytes: &'a [u8],
    path: String,
    patterns: Patterns,
}

/// The lines of the `*` groups that a group naming the agent sets aside: the most
/// common surprise for a site owner, who wrote rules for everyone and a group for one
/// crawler, which then follows only its own group (RFC 9309 §2.2.1).
fn global_set_aside(robots: &Robots, e: &Explanation<'_>) -> Vec<u32> {
    match e.selection {
        Selection::Named { .. } => robots
            .groups()
            .filter(|g| g.is_global())
            .map(|g| g.line())
            .collect(),
        _ => Vec::new(),
    }
}

fn as_text(
    robots: &Robots,
    agent: &Agent,
    shown: &Shown<'_>,
    e: &Explanation<'_>,
    source: &Source<'_>,
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
    let aside = global_set_aside(robots, e);
    if !aside.is_empty() {
        let lines = aside
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let (groups, verb) = if aside.len() == 1 {
            (format!("the `*` group (line {lines})"), "does")
        } else {
            (format!("the `*` groups (lines {lines})"), "do")
        };
        rows.push((
            "",
            format!(
                "{groups} {verb} not apply: a group naming the agent replaces it (RFC 9309 §2.2.1)"
            ),
        ));
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
    if let Some(rule) = v.decided_by() {
        out += "\n";
        out += &source.render(rule.line(), None, 2, style);
    }
    out
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

/// A rule as explain's JSON names it.
#[derive(serde::Serialize)]
struct RuleJson<'a> {
    line: u32,
    rule: &'static str,
    pattern: &'a str,
    length: u32,
    /// Matches only: whether the rule took part in the decision (an Embargo-Allow that
    /// does not apply is listed but not counted).
    #[serde(skip_serializing_if = "Option::is_none")]
    counted: Option<bool>,
}

impl<'a> RuleJson<'a> {
    fn new(r: robots::Rule<'a>, patterns: &'a Patterns, counted: Option<bool>) -> RuleJson<'a> {
        RuleJson {
            line: r.line(),
            rule: r.kind().name(),
            pattern: patterns.text(r),
            length: r.specificity(),
            counted,
        }
    }
}

#[derive(serde::Serialize)]
struct SelectionJson {
    kind: &'static str,
    groups: usize,
    lines: Vec<u32>,
    explanation: String,
    /// The lines of the `*` groups a group naming the agent sets aside.
    global_set_aside: Vec<u32>,
}

/// The explanation as one line of JSON, its fields in this order.
#[derive(serde::Serialize)]
struct ExplanationJson<'a> {
    url: &'a str,
    path: &'a str,
    agent: &'a str,
    profile: &'static str,
    honours_embargo: bool,
    selection: SelectionJson,
    matches: Vec<RuleJson<'a>>,
    embargo_allow: &'static str,
    allowed: bool,
    decided_by: Option<RuleJson<'a>>,
    reason: &'static str,
    reason_text: &'static str,
    embargo_days: Option<u32>,
    #[serde(flatten)]
    preferences: PreferencesJson,
}

fn as_json<'a>(
    robots: &Robots,
    agent: &'a Agent,
    shown: &'a Shown<'a>,
    e: &'a Explanation<'a>,
) -> ExplanationJson<'a> {
    let patterns = &shown.patterns;
    let groups = match e.selection {
        Selection::Named { groups } | Selection::Global { groups } => groups,
        Selection::None => 0,
    };
    let v = &e.verdict;
    ExplanationJson {
        url: shown.url,
        path: &shown.path,
        agent: agent.name(),
        profile: robots.profile().name(),
        honours_embargo: agent.honours_embargo(),
        selection: SelectionJson {
            kind: e.selection.name(),
            groups,
            lines: e.groups.iter().map(|g| g.line()).collect(),
            explanation: e.selection_summary(agent),
            global_set_aside: global_set_aside(robots, e),
        },
        matches: e
            .matches
            .iter()
            .map(|m| RuleJson::new(m.rule, patterns, Some(m.counted)))
            .collect(),
        embargo_allow: e.embargo_allow.name(),
        allowed: v.allowed(),
        decided_by: v.decided_by().map(|r| RuleJson::new(r, patterns, None)),
        reason: v.reason().name(),
        reason_text: v.reason().describe(),
        embargo_days: v.embargo().map(|e| e.period().days()),
        preferences: PreferencesJson::of(robots, agent, shown.bytes),
    }
}
