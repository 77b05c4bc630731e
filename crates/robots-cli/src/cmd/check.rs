//! `robots check`: the verdict for each URL, as text or JSON lines.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use robots::{Agent, Verdict};
pub use robots_present::VerdictJson;
use robots_present::{reasons, Patterns, PreferencesJson};
use unicode_width::UnicodeWidthStr;

use crate::input::{self, AgentsArgs, ReadingArgs};
use crate::style::{counted, printable, ColorChoice, Style};

/// Print the verdict for each URL: allowed or not, and the line that decided; for each
/// crawler in turn when `--agent` is given several times.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Examples:
  robots check --robots examples/robots.txt --agent ExampleBot /news/today /private/x
  robots check --robots robots.txt --agent ExampleBot --embargo --format json < urls.txt
  robots check --robots robots.txt --agent Googlebot --profile google https://example.com/a
  robots check --robots robots.txt --agent Googlebot --expect disallowed /private/ /cart
  robots check --robots robots.txt --agent GPTBot --agent CCBot --agent Googlebot /

With several --agent, each URL gets one verdict per agent, in the order the agents
are given, and each line names its agent: after the verdict in text, the names padded
to line up the URLs after them. A crawler given twice (`ExampleBot` and `examplebot`,
or its token and its User-Agent header) is checked once, and a note on standard
error says so. With one --agent, lines name no agent.

A URL that is not UTF-8 (an argument, or a line of standard input) is checked as the
bytes it is, and shown with those octets as `\\xE9` (`/caf\\xE9`).
A URL with neither `scheme://` nor a leading `/` is read as Google's matcher reads it,
as a host and then a path (`example.com/a` is `/a`; `private` and `index.html` are `/`),
and a note on standard error says which path was checked.

With --format json, each URL gives one line with \"url\", \"allowed\", \"line\", \"rule\",
\"pattern\", \"embargo_days\", \"reason\", \"content_usage\", \"content_usage_line\",
\"content_signal\" and \"content_signal_line\", in that order; with several --agent, one
line per URL and agent, with \"agent\" (the name given, or a User-Agent header's
product token in the rfc9309 profile) first, before \"url\". \"line\", \"rule\" (allow,
disallow, embargo-allow) and \"pattern\" name the rule that decided, and \"embargo_days\"
the embargo; each is null when there is none. A pattern's octets that are not UTF-8
are written `\\xE9` (the JSON string \"/caf\\\\xE9\"), as a URL's are, in text and
JSON. \"reason\" says why, as the browser tester does: robots-txt (/robots.txt is
always allowed), no-group (no group for this agent), no-match (no rule matched),
longest (the longest matching rule decided) or tie-won-by-allow (an allow and a
disallow of the same length matched; the allow won), and with --profile google
empty-disallow: there an empty `Disallow:` matches every path with length 0 and never
disallows, so when nothing else matches it is named as the deciding rule, \"allowed\"
is true, and text output says \"empty Disallow: disallows nothing\".

The AI usage preferences follow (RFC 9309 profile; draft-ietf-aipref-attach-05 §3):
\"content_usage\" is the agent's Content-Usage rule for the URL, an object of category
to \"y\" or \"n\" holding only the categories stated (`{}` when a rule applies but
states nothing, as one that is not a valid Dictionary), null when no rule applies or
the URL is disallowed; \"content_usage_line\" the deciding line (for rules of the same
length combined, the first of them); \"content_signal\" the Content-Signal of the
agent's groups, key to \"yes\" or \"no\", null when there is none; and
\"content_signal_line\" its line. Text output adds them after the verdict:
`[content-usage: train-ai=n (line 4)]  [content-signal: search=yes (line 2)]`.

With --expect allowed (or disallowed), every verdict is printed as without it, and
the command fails when a URL's verdict is not the one expected: a test a site can run
before it ships its robots.txt. Standard error then names each such URL, in input
order, after its agent when there are several: each agent must get the verdict for
each URL.

Exit status: 0 when every URL was checked (whatever the verdicts, unless --expect
says which they must be), 1 when --expect was given and some verdict is not the one
expected, 2 on a usage error or an unreadable file.")]
pub struct Args {
    // The arguments `explain` takes (`EngineArgs`) but for `--agent`, which here is a
    // list; the help is theirs.
    #[arg(long = "robots", value_name = "FILE", help = input::ROBOTS_HELP)]
    pub robots: PathBuf,

    #[command(flatten)]
    pub agents: AgentsArgs,

    #[command(flatten)]
    pub reading: ReadingArgs,

    /// Output format: readable text, or one JSON object per URL (and agent) per line.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// When to colour text output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// The verdict every URL must get, for every agent: exit 1, naming the URLs (and
    /// agents) that get the other, when one does not.
    #[arg(long, value_enum, value_name = "VERDICT")]
    pub expect: Option<Expect>,

    /// URLs (`https://example.com/a?b`) or paths (`/a?b`); read from standard input, one
    /// per line, each answered as it is read, when none are given (then the robots.txt
    /// must be a file, not `-`).
    #[arg(value_name = "URL")]
    pub urls: Vec<OsString>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// The verdict `--expect` asks of every URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Expect {
    Allowed,
    Disallowed,
}

impl Expect {
    fn holds(self, verdict: &Verdict<'_>) -> bool {
        verdict.allowed() == (self == Expect::Allowed)
    }

    /// The verdict that fails the expectation.
    fn other(self) -> Expect {
        match self {
            Expect::Allowed => Expect::Disallowed,
            Expect::Disallowed => Expect::Allowed,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Expect::Allowed => "allowed",
            Expect::Disallowed => "disallowed",
        }
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    input::refuse_stdin_twice(&args.urls, &args.robots)?;
    let options = args.reading.options()?;
    let (robots, patterns) = input::read_parsed(&args.robots, options)?;
    let agents = args.reading.agents(&args.agents.agent, "checked")?;
    let column = AgentColumn::for_agents(&agents);
    let style = args.color.style();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut notes = input::ReadingNotes::default();
    // The (agent, URL) pairs whose verdict is not the one `--expect` asks for, as shown.
    let mut unexpected: Vec<(&Agent, String)> = Vec::new();
    let mut write = |url: &input::Url, out: &mut dyn Write| -> Result<()> {
        // How a URL is read does not depend on the agent: one note for all of them.
        notes.note(&robots, &agents[0], url);
        for agent in &agents {
            let verdict = robots.check_bytes(agent, &url.bytes);
            if args.expect.is_some_and(|e| !e.holds(&verdict)) {
                unexpected.push((agent, printable(&url.text).into_owned()));
            }
            let line = Line::of(args.format, &url.text, &verdict, &patterns, style);
            let preferences = PreferencesJson::of(&robots, agent, &url.bytes);
            writeln!(
                out,
                "{}",
                line.with_preferences(preferences, column.as_ref(), agent, style)
            )?;
        }
        Ok(())
    };
    if args.urls.is_empty() {
        // Each answer as its URL is read: a pipeline fed slowly (`tail -f`) gets its
        // answers as they come, and a long list is never held whole.
        input::each_stdin_url(|input| match input {
            input::Input::Url(url) => write(&url, &mut out),
            input::Input::Waiting => Ok(out.flush()?),
        })?;
    } else {
        for url in &input::arg_urls(&args.urls) {
            write(url, &mut out)?;
        }
    }
    out.flush()?;
    match args.expect {
        Some(expect) if !unexpected.is_empty() => {
            let n = unexpected.len() as u64;
            let failed = match column {
                None => counted(n, "URL"),
                Some(_) => counted(n, "(agent, URL) pair"),
            };
            eprintln!(
                "robots check: {failed} {} {}, not {} as --expect asks:",
                if n == 1 { "is" } else { "are" },
                expect.other().word(),
                expect.word()
            );
            for (agent, url) in &unexpected {
                match &column {
                    None => eprintln!("  {url}"),
                    Some(column) => eprintln!("  {}  {url}", column.name(agent)),
                }
            }
            Ok(ExitCode::from(1))
        }
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// The column that names the agent on each line when there are several, each name
/// shown with control characters escaped and padded to the widest, so that the URLs
/// after it line up as the verdict words' padding lines them up. `fetch` names its
/// agents with it too.
pub struct AgentColumn {
    width: usize,
}

impl AgentColumn {
    /// The column for `agents`; none for one agent, whose lines are as they were before
    /// check took several (and its JSON as the browser tester writes it).
    pub fn for_agents(agents: &[Agent]) -> Option<AgentColumn> {
        (agents.len() > 1).then(|| AgentColumn {
            width: agents
                .iter()
                .map(|a| printable(a.name()).width())
                .max()
                .unwrap_or(0),
        })
    }

    /// `agent`'s name, padded to the column's width.
    pub fn name(&self, agent: &Agent) -> String {
        let name = printable(agent.name());
        let pad = self.width.saturating_sub(name.width());
        format!("{name}{}", " ".repeat(pad))
    }
}

/// One verdict line before it names its agent, as `check` and `fetch` write them: the
/// verdict for JSON, or for text the verdict word and what follows it.
pub enum Line<'a> {
    Json(VerdictJson<'a>),
    Text { word: String, rest: String },
}

impl<'a> Line<'a> {
    /// `verdict` for `url` as a line of `format`, its pattern shown as `patterns` has it.
    pub fn of(
        format: Format,
        url: &'a str,
        verdict: &Verdict<'a>,
        patterns: &'a Patterns,
        style: Style,
    ) -> Line<'a> {
        match format {
            Format::Json => Line::Json(verdict_as_json(url, verdict, patterns)),
            Format::Text => Line::Text {
                word: verdict_word(verdict, style),
                rest: verdict_text_after_word(url, verdict, patterns, style),
            },
        }
    }

    /// The line, naming `agent` when there is a column of agents (several of them): in
    /// text after the verdict word, padded; in JSON as a first field, "agent". Without
    /// one, the line one agent has always had.
    pub fn naming(self, column: Option<&AgentColumn>, agent: &Agent) -> String {
        match (self, column) {
            (Line::Json(verdict), None) => {
                serde_json::to_string(&verdict).expect("a verdict always serialises")
            }
            (Line::Json(verdict), Some(_)) => serde_json::to_string(&AgentVerdictJson {
                agent: agent.name(),
                verdict,
            })
            .expect("a verdict always serialises"),
            (Line::Text { word, rest }, None) => format!("{word}  {rest}"),
            (Line::Text { word, rest }, Some(column)) => {
                format!("{word}  {}  {rest}", column.name(agent))
            }
        }
    }
}

impl Line<'_> {
    /// [`Line::naming`] with the AI usage preferences after the verdict: four JSON fields
    /// after the verdict's, or text after the rest of the line.
    pub fn with_preferences(
        self,
        preferences: PreferencesJson,
        column: Option<&AgentColumn>,
        agent: &Agent,
        style: Style,
    ) -> String {
        match self {
            Line::Json(verdict) => serde_json::to_string(&CheckJson {
                agent: column.map(|_| agent.name()),
                verdict,
                preferences,
            })
            .expect("a verdict always serialises"),
            Line::Text { word, rest } => Line::Text {
                word,
                rest: rest + &preferences.after_verdict(style),
            }
            .naming(column, agent),
        }
    }
}

/// A check's line of JSON: the agent first when there are several, the verdict's fields,
/// then the preferences'.
#[derive(serde::Serialize)]
struct CheckJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    agent: Option<&'a str>,
    #[serde(flatten)]
    verdict: VerdictJson<'a>,
    #[serde(flatten)]
    preferences: PreferencesJson,
}

/// A verdict as a line of JSON with several agents: the agent first, then the verdict's
/// fields as one agent's lines have them, in their order.
#[derive(serde::Serialize)]
struct AgentVerdictJson<'a> {
    agent: &'a str,
    #[serde(flatten)]
    verdict: VerdictJson<'a>,
}

/// `verdict` in the shape the page reads too, its pattern as [`Patterns::text`] shows it
/// (`/caf\xE9`, which JSON writes `/caf\\xE9`), as the URL's octets are shown.
pub fn verdict_as_json<'a>(
    url: &'a str,
    verdict: &Verdict<'a>,
    patterns: &'a Patterns,
) -> VerdictJson<'a> {
    let mut json = VerdictJson::new(url, verdict);
    json.pattern = verdict.decided_by().map(|rule| patterns.text(rule));
    json
}

/// The verdict in a word, padded so that what follows it lines up: `ALLOWED   `.
fn verdict_word(verdict: &Verdict<'_>, style: Style) -> String {
    if verdict.allowed() {
        style.green("ALLOWED   ")
    } else {
        style.red("DISALLOWED")
    }
}

/// A readable line after the verdict word: `/a  (line 3: Allow: /a)`, control
/// characters escaped.
fn verdict_text_after_word(
    url: &str,
    verdict: &Verdict<'_>,
    patterns: &Patterns,
    style: Style,
) -> String {
    let why = reasons::why(verdict, patterns);
    let embargo = verdict
        .embargo()
        .map(|e| {
            format!(
                "  {}",
                style.yellow(&format!("[embargo {} days]", e.period().days()))
            )
        })
        .unwrap_or_default();
    format!(
        "{}  {}{embargo}",
        printable(url),
        style.dim(&format!("({why})"))
    )
}
