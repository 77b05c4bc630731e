//! `robots explain`: which groups were chosen and why, every rule that matched with its
//! length, which one decided and why, and the robots.txt lines around it.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use robots::{Agent, Explanation, Robots, Selection};
use robots_present::explanation::{global_set_aside, Shown};
use robots_present::{Patterns, PreferencesJson};

use crate::input::{self, EngineArgs};
use crate::snippet::Source;
use crate::style::ColorChoice;

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
    let shown = Shown::new(&robots, &url.text, &url.bytes, &file.bytes);
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
            let style = args.color.style();
            write!(
                out,
                "{}",
                robots_present::explanation::text(&robots, &agent, &shown, &explanation, style)
            )?;
            // The deciding rule's line, with two lines of the file either side.
            if let Some(rule) = explanation.verdict.decided_by() {
                let name = args.engine.robots.display().to_string();
                let source = Source::new(&name, &file.bytes);
                write!(out, "\n{}", source.render(rule.line(), None, 2, style))?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
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
