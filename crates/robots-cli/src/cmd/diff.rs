//! `robots diff`: before deploying a new robots.txt, which URLs change verdict (or
//! embargo) for which agents, with the deciding line in each version.

use std::collections::HashSet;
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use robots::{Robots, Verdict};
use robots_present::reasons::rule_text;
use robots_present::Patterns;
use robots_present::PreferencesJson;

use crate::cmd::check::{verdict_as_json, Format, VerdictJson};
use crate::input::{self, ReadingArgs};
use crate::style::{counted, printable, ColorChoice, Style};

/// Show the URLs whose verdict changes between two versions of a robots.txt.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
URLs come from the arguments, else from standard input when it is neither a terminal
nor one of the files (`-`), else from the paths in either file's rules and simple
variants of them (/a/ -> /a/, /a/x, /a, /a/?q=1). Standard input holds at most one of
OLD and NEW. A URL that is not UTF-8 is compared as the bytes it is, and shown with
those octets as `\\xE9` (`/caf\\xE9`). A URL with neither `scheme://` nor a leading
`/` is read as a host and then a path (`private` is `/`), as `robots check` says.

Examples:
  robots diff --agent Googlebot --agent ExampleBot old/robots.txt new/robots.txt
  robots diff --agent ExampleBot old.txt new.txt /news/today /private/x
  robots diff --agent ExampleArchiver --embargo --format json old.txt new.txt < urls.txt

A URL also counts as changed when its AI usage preferences do (its Content-Usage
preferences or the agent's Content-Signal, draft-ietf-aipref-attach-05 §3): text output
then shows them after each verdict, `[no preferences]` for none.

With --format json, each change gives one line with \"agent\", \"url\", \"old\" and
\"new\", in that order; \"old\" and \"new\" are verdicts as `robots check --format json`
writes them, preferences included, fields in the same order (a pattern's octets that are not UTF-8 as
`\\xE9`). Paths taken from rules keep such octets, so they are paths the rules match.

Exit status: 1 when any verdict (or preference) changed, 0 when none did, 2 on a\nusage error.")]
pub struct Args {
    /// A crawler to compare for (repeat for several).
    #[arg(
        long,
        value_name = "AGENT",
        required = true,
        allow_hyphen_values = true
    )]
    pub agent: Vec<String>,

    #[command(flatten)]
    pub reading: ReadingArgs,

    /// Output format: readable lines, or one JSON object per change.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// When to colour text output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// The robots.txt in force now.
    #[arg(value_name = "OLD")]
    pub old: PathBuf,

    /// The robots.txt about to replace it.
    #[arg(value_name = "NEW")]
    pub new: PathBuf,

    /// URLs or paths to compare.
    #[arg(value_name = "URL")]
    pub urls: Vec<OsString>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let stdin_file = input::is_stdin(&args.old) || input::is_stdin(&args.new);
    if input::is_stdin(&args.old) && input::is_stdin(&args.new) {
        bail!(
            "OLD and NEW are both `-`, but standard input holds one file only; give at least one of them as a file"
        );
    }
    let options = args.reading.options()?;
    let (old, old_patterns) = input::read_parsed(&args.old, options)?;
    let (new, new_patterns) = input::read_parsed(&args.new, options)?;
    let agents = args.reading.agents(&args.agent, "compared")?;
    let urls = if !args.urls.is_empty() {
        input::arg_urls(&args.urls)
    } else if !stdin_file && !std::io::stdin().is_terminal() {
        input::stdin_urls()?
    } else {
        Vec::new()
    };
    let urls = if urls.is_empty() {
        rule_paths(&[(&old, &old_patterns), (&new, &new_patterns)])
    } else {
        urls
    };
    if let Some(agent) = agents.first() {
        let mut notes = input::ReadingNotes::default();
        for url in &urls {
            notes.note(&new, agent, url);
        }
    }
    let style = args.color.style();
    // Written, not printed: a reader that stops early (`| head`) is an error to report,
    // not a panic.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut changed = 0;
    // Every path the rules name is checked against both files: through an index, each
    // check tries the rules that path can match, where `Robots::check` scans them all,
    // which made a diff quadratic in the rules (11.7 s at the 500 KiB parse limit).
    let (old_index, new_index) = (old.index(), new.index());
    // Most files state no preferences: then none are compared, and the diff costs what
    // the verdicts cost.
    let with_preferences = [&old, &new].iter().any(|r| states_preferences(r));
    for agent in &agents {
        for input::Url { bytes, text: url } in &urls {
            let (before, after) = (
                old_index.check_bytes(agent, bytes),
                new_index.check_bytes(agent, bytes),
            );
            let preferences_changed = with_preferences
                && preferences(&old, agent, bytes) != preferences(&new, agent, bytes);
            if same(&before, &after) && !preferences_changed {
                continue;
            }
            changed += 1;
            let (old_prefs, new_prefs) = if with_preferences {
                (
                    PreferencesJson::of(&old, agent, bytes),
                    PreferencesJson::of(&new, agent, bytes),
                )
            } else {
                (PreferencesJson::NONE, PreferencesJson::NONE)
            };
            match args.format {
                Format::Json => writeln!(
                    out,
                    "{}",
                    serde_json::to_string(&ChangeJson {
                        agent: agent.name(),
                        url,
                        old: SideJson {
                            verdict: verdict_as_json(url, &before, &old_patterns),
                            preferences: old_prefs,
                        },
                        new: SideJson {
                            verdict: verdict_as_json(url, &after, &new_patterns),
                            preferences: new_prefs,
                        },
                    })?
                )?,
                Format::Text => {
                    // Preferences are shown when they changed, beside each verdict.
                    let shown = |p: &PreferencesJson| {
                        if !preferences_changed {
                            String::new()
                        } else {
                            let text = p.after_verdict(style);
                            if text.is_empty() {
                                "  [no preferences]".to_owned()
                            } else {
                                text
                            }
                        }
                    };
                    writeln!(
                        out,
                        "{}  {}  {}  {}{} -> {}{}",
                        style.yellow("CHANGED"),
                        printable(agent.name()),
                        printable(url),
                        describe(&before, &old_patterns, style),
                        shown(&old_prefs),
                        describe(&after, &new_patterns, style),
                        shown(&new_prefs)
                    )?
                }
            }
        }
    }
    if args.format == Format::Text {
        let (urls, agents) = (urls.len() as u64, agents.len() as u64);
        writeln!(
            out,
            "{changed} of {} changed ({} x {})",
            counted(urls * agents, "verdict"),
            counted(urls, "URL"),
            counted(agents, "agent")
        )?;
    }
    out.flush()?;
    Ok(if changed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Whether a file has any Content-Usage or Content-Signal line the engine reads.
fn states_preferences(robots: &Robots) -> bool {
    robots.records().any(|r| {
        matches!(
            r.directive(),
            robots::Directive::ContentUsage | robots::Directive::ContentSignal
        )
    })
}

/// What a file tells `agent` of a URL's content: its Content-Usage preferences and its
/// groups' Content-Signal, lines aside (moving a line changes nothing a crawler reads).
fn preferences(
    robots: &Robots,
    agent: &robots::Agent,
    url: &[u8],
) -> (Option<robots::Preferences>, Option<robots::Signals>) {
    (
        robots
            .content_usage_bytes(agent, url)
            .map(|u| u.preferences()),
        robots.content_signal(agent).map(|s| s.signals()),
    )
}

/// Whether two verdicts say the same: allowed, and the same embargo.
fn same(a: &Verdict<'_>, b: &Verdict<'_>) -> bool {
    a.allowed() == b.allowed() && a.embargo() == b.embargo()
}

/// One change as a line of JSON, its fields in this order; `old` and `new` in the shape
/// of `robots check --format json`.
#[derive(serde::Serialize)]
struct ChangeJson<'a> {
    agent: &'a str,
    url: &'a str,
    old: SideJson<'a>,
    new: SideJson<'a>,
}

/// One side of a change: the verdict and the AI usage preferences, as `robots check
/// --format json` writes them.
#[derive(serde::Serialize)]
struct SideJson<'a> {
    #[serde(flatten)]
    verdict: VerdictJson<'a>,
    #[serde(flatten)]
    preferences: PreferencesJson,
}

fn describe(v: &Verdict<'_>, patterns: &Patterns, style: Style) -> String {
    let word = if v.allowed() {
        style.green("ALLOWED")
    } else {
        style.red("DISALLOWED")
    };
    let rule = rule_text(v, patterns)
        .map(|r| format!(" ({r})"))
        .unwrap_or_default();
    let embargo = v
        .embargo()
        .map(|e| format!(" [embargo {} days]", e.period().days()))
        .unwrap_or_default();
    format!("{word}{rule}{embargo}")
}

/// Paths worth comparing when none are given: every rule's pattern made into a path,
/// and a few neighbours of it, in first-seen order without repeats. A pattern's octets
/// that are not UTF-8 stay those octets, so that the path is one the rule matches.
fn rule_paths(files: &[(&Robots, &Patterns)]) -> Vec<input::Url> {
    let mut paths = vec![b"/".to_vec()];
    // Repeats are found by hash, not by scanning `paths`: a file of 15,000 rules gives
    // some 60,000 paths, and a scan per path took tens of seconds.
    let mut seen: HashSet<Vec<u8>> = paths.iter().cloned().collect();
    for (robots, patterns) in files {
        // Content-Usage paths (attach-05 §3), as written: a changed preference is found
        // where its rule applies.
        let usage_paths = robots
            .records()
            .filter(|r| r.directive() == robots::Directive::ContentUsage)
            .filter_map(|r| {
                let value = r.value();
                value.starts_with('/').then(|| {
                    let end = value.find([' ', '\t']).unwrap_or(value.len());
                    value[..end]
                        .trim_end_matches('$')
                        .replace('*', "")
                        .into_bytes()
                })
            });
        for path in usage_paths.collect::<Vec<_>>() {
            if seen.insert(path.clone()) {
                paths.push(path);
            }
        }
        for group in robots.groups() {
            for rule in group.rules() {
                let written = patterns.bytes(rule);
                let end = written
                    .iter()
                    .rposition(|&b| b != b'$')
                    .map_or(0, |p| p + 1);
                let mut base: Vec<u8> = written[..end]
                    .iter()
                    .copied()
                    .filter(|&b| b != b'*')
                    .collect();
                if !base.starts_with(b"/") {
                    base.insert(0, b'/');
                }
                let end = base.iter().rposition(|&b| b != b'/').map_or(0, |p| p + 1);
                let trimmed = base[..end].to_vec();
                for path in [
                    base.clone(),
                    [&base[..], b"x"].concat(),
                    [&trimmed[..], b"/x"].concat(),
                    trimmed,
                    [&base[..], b"?q=1"].concat(),
                ] {
                    if !path.is_empty() && seen.insert(path.clone()) {
                        paths.push(path);
                    }
                }
            }
        }
    }
    paths.into_iter().map(input::Url::new).collect()
}
