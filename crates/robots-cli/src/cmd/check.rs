//! `robots check`: the verdict for each URL, as text or JSON lines.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use robots::{Reason, Verdict};
pub use robots_web::VerdictJson;

use crate::input::{self, EngineArgs};
use crate::style::{printable, ColorChoice, Style};
use crate::written::Patterns;

/// Print the verdict for each URL: allowed or not, and the line that decided.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  robots check --robots examples/robots.txt --agent ExampleBot /news/today /private/x
  robots check --robots robots.txt --agent ExampleBot --embargo --format json < urls.txt
  robots check --robots robots.txt --agent Googlebot --profile google https://example.com/a
  robots check --robots robots.txt --agent Googlebot --expect disallowed /private/ /cart

A URL that is not UTF-8 (an argument, or a line of standard input) is checked as the
bytes it is, and shown with those octets as `\\xE9` (`/caf\\xE9`).
A URL with neither `scheme://` nor a leading `/` is read as Google's matcher reads it,
as a host and then a path (`example.com/a` is `/a`; `private` and `index.html` are `/`),
and a note on standard error says which path was checked.

With --format json, each URL gives one line with \"url\", \"allowed\", \"line\", \"rule\",
\"pattern\", \"embargo_days\" and \"reason\", in that order. \"line\", \"rule\" (allow,
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

With --expect allowed (or disallowed), every verdict is printed as without it, and
the command fails when a URL's verdict is not the one expected: a test a site can run
before it ships its robots.txt. Standard error then names each such URL, in input
order.

Exit status: 0 when every URL was checked (whatever the verdicts, unless --expect
says which they must be), 1 when --expect was given and some URL's verdict is not
the one expected, 2 on a usage error or an unreadable file.")]
pub struct Args {
    #[command(flatten)]
    pub engine: EngineArgs,

    /// Output format: readable text, or one JSON object per URL per line.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// When to colour text output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// The verdict every URL must get: exit 1, naming the URLs that get the other,
    /// when one does not.
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
    input::refuse_stdin_twice(&args.urls, &args.engine.robots)?;
    let (robots, agent, patterns) = args.engine.load()?;
    let style = Style::new(args.color);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut notes = input::ReadingNotes::default();
    // The URLs whose verdict is not the one `--expect` asks for, as shown.
    let mut unexpected = Vec::new();
    let mut write = |url: &input::Url, out: &mut dyn Write| -> Result<()> {
        notes.note(&robots, &agent, url);
        let verdict = robots.check_bytes(&agent, &url.bytes);
        if args.expect.is_some_and(|e| !e.holds(&verdict)) {
            unexpected.push(printable(&url.text).into_owned());
        }
        match args.format {
            Format::Json => writeln!(out, "{}", verdict_json(&url.text, &verdict, &patterns))?,
            Format::Text => writeln!(
                out,
                "{}",
                verdict_text(&url.text, &verdict, &patterns, style)
            )?,
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
            let (urls, are) = match unexpected.len() {
                1 => ("1 URL".to_owned(), "is"),
                n => (format!("{n} URLs"), "are"),
            };
            eprintln!(
                "robots check: {urls} {are} {}, not {} as --expect asks:",
                expect.other().word(),
                expect.word()
            );
            for url in &unexpected {
                eprintln!("  {url}");
            }
            Ok(ExitCode::from(1))
        }
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// One verdict as a line of JSON.
pub fn verdict_json(url: &str, verdict: &Verdict<'_>, patterns: &Patterns) -> String {
    serde_json::to_string(&verdict_as_json(url, verdict, patterns))
        .expect("a verdict always serialises")
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

/// The rule that decided, as verdict lines name it: `line 3: Allow: /a`, control
/// characters escaped. Google's empty Disallow names its line without disallowing
/// anything, and says so rather than look like a disallow.
pub fn rule_text(verdict: &Verdict<'_>, patterns: &Patterns) -> Option<String> {
    let rule = verdict.decided_by()?;
    Some(if verdict.reason() == Reason::EmptyDisallow {
        format!("line {}: empty Disallow: disallows nothing", rule.line())
    } else {
        format!(
            "line {}: {}: {}",
            rule.line(),
            rule.kind().directive(),
            printable(patterns.text(rule))
        )
    })
}

/// One readable line: `ALLOWED     /a  (line 3: Allow: /a)`, control characters escaped.
pub fn verdict_text(url: &str, verdict: &Verdict<'_>, patterns: &Patterns, style: Style) -> String {
    let word = if verdict.allowed() {
        style.green("ALLOWED   ")
    } else {
        style.red("DISALLOWED")
    };
    let why = match (rule_text(verdict, patterns), verdict.reason()) {
        (Some(rule), _) => rule,
        (None, Reason::RobotsTxt) => "/robots.txt is always allowed".to_owned(),
        (None, Reason::NoGroup) => "no group for this agent".to_owned(),
        (None, _) => "no rule matched".to_owned(),
    };
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
        "{word}  {}  {}{embargo}",
        printable(url),
        style.dim(&format!("({why})"))
    )
}
