//! `robots fetch`: fetch a site's robots.txt over HTTP as RFC 9309 §2.3–2.5 says, report
//! what happened (status chain, outcome, freshness, size, sitemaps) and the verdicts.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use anyhow::{Context, Result};
use robots::{Agent, Availability, Severity};
use robots_fetch::{
    origin_of, robots_url, Answer, Config, Decision, Fetcher, Origin, Rules, TooManyRequests,
};
use robots_present::reasons::blanket_phrase;
use robots_present::Patterns;
use url::Url;

use crate::cmd::check::{AgentColumn, Format, Line, VerdictJson};
use crate::input::{self, AgentsArgs, ReadingArgs};
use crate::style::{printable, ColorChoice, Style};

/// Fetch the robots.txt of a URL's site and print what happened and the verdicts; for
/// each crawler in turn when `--agent` is given several times.
#[derive(clap::Args, Debug)]
#[command(
    mut_arg("max_bytes", |arg| arg.help(concat!(
        input::max_bytes_help!(),
        " A body is read to one byte past this and no further."
    ))),
    after_long_help = "\
Examples:
  robots fetch https://example.com/ --agent ExampleBot
  robots fetch https://example.com/news/a --agent ExampleBot --embargo /private/x /news/b
  robots fetch https://example.com/ --agent ExampleBot --format json https://other.example/a
  robots fetch https://example.com/ --agent GPTBot --agent CCBot --agent Googlebot / /private/

Each URL is checked against the robots.txt of its own origin (scheme, host, port); a
path (`/a?b`) belongs to the first URL's origin. Redirects are followed up to 5 times and
the rules apply to the origin asked for; 4xx means everything is allowed, 5xx or a
network failure means everything is disallowed (RFC 9309 §2.3.1) but for /robots.txt
itself, which RFC 9309 always allows (with --profile google it is disallowed too, as
Google's matcher treats /robots.txt like any path).

With --format json, each origin gives one line with \"origin\", \"robots_url\", \"source\"
(fetched, unavailable or unreachable), \"detail\" (what happened, in words), \"chain\"
(each hop's \"url\" and \"status\"), \"rules\" (parsed, allow-all or disallow-all),
\"fresh_for_secs\", \"size\" (bytes read), \"truncated\", \"parsed\", \"sitemaps\",
\"crawl_delay_secs\", and \"lint_errors\" and \"lint_warnings\" (what parsing the body
found; text output names them too, so that a file that does not mean what it says, one
in UTF-16 say, does not pass unremarked), in that order, followed by one line per URL
in the shape of `robots check --format json`. When no robots.txt was parsed, a URL's
\"reason\" is unavailable (everything allowed), unreachable (everything disallowed) or
robots-txt (/robots.txt itself, allowed while the file is unreachable).

With several --agent, each robots.txt is still fetched once, its report printed once,
and then each URL gets one verdict per agent, in the order the agents are given, as
`robots check` gives them: in text each line names its agent after the verdict, padded
to line up the URLs, and in JSON each line has \"agent\" first, before \"url\". The one
request is sent with the User-Agent header of the first --agent's token (`GPTBot
(compatible; robots-cli/<version>)`) unless --user-agent sets another: a site that
serves a robots.txt per User-Agent answers as it answers that crawler, so to see the
file another is served, fetch again with that agent first or with --user-agent. The
Crawl-delay depends on the agent: text shows a `crawl-delay for AGENT` line for each
agent that has one, and the JSON report
has \"crawl_delays\" (each agent's \"agent\" and \"secs\", null when none) where one
agent's has \"crawl_delay_secs\". A crawler given twice (`ExampleBot` and `examplebot`)
is checked once, and a note on standard error says so. With one --agent, lines name
no agent.

Only the parse limit (--max-bytes, 512,000 bytes by default) of a body is read, plus one
byte to tell whether the limit cuts a line: a line the limit cuts is dropped, not read
half-written, so \"parsed\" is the bytes of whole lines within the limit and \"size\" is one
past the limit when \"truncated\" is true.

Exit status: 0 when every robots.txt was asked for (whatever came back), 2 on a usage
error such as a URL that is not http(s).")]
pub struct Args {
    /// A URL of the site whose robots.txt to fetch; it is checked too.
    #[arg(value_name = "URL")]
    pub url: String,

    /// More URLs or paths to check.
    #[arg(value_name = "MORE")]
    pub more: Vec<String>,

    #[command(flatten)]
    pub agents: AgentsArgs,

    #[command(flatten)]
    pub reading: ReadingArgs,

    /// The User-Agent header to send with the one request for each robots.txt [default:
    /// `<first AGENT's token> (compatible; robots-cli/<version>)`].
    #[arg(long, value_name = "HEADER")]
    pub user_agent: Option<String>,

    /// Seconds the lookup may take, redirects and body included, before the site counts as
    /// unreachable (at least 1).
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = timeout_secs, allow_negative_numbers = true)]
    pub timeout: u64,

    /// How to read 429 Too Many Requests: as RFC 9309 says (unavailable, allow all) or
    /// as "slow down" (unreachable, disallow all).
    #[arg(long = "on-429", value_enum, default_value_t = On429::Unavailable)]
    pub on_429: On429,

    /// Output format: readable text, or JSON lines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// When to colour text output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum On429 {
    Unavailable,
    Unreachable,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let options = args.reading.options()?;
    let agents = args.reading.agents(&args.agents.agent, "checked")?;
    let column = AgentColumn::for_agents(&agents);
    let targets = targets(&args.url, &args.more)?;
    // One request per origin whatever the agents: the first one's token names it.
    let user_agent = args.user_agent.clone().unwrap_or_else(|| {
        format!(
            "{} (compatible; robots-cli/{})",
            agents[0].token(),
            env!("CARGO_PKG_VERSION")
        )
    });
    let config = Config::new(user_agent)
        .options(options)
        .timeout(Duration::from_secs(args.timeout))
        .too_many_requests(match args.on_429 {
            On429::Unavailable => TooManyRequests::Unavailable,
            On429::Unreachable => TooManyRequests::Unreachable,
        });
    let fetcher = Fetcher::new(config)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let style = args.color.style();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // The body is not kept, so patterns show as the engine holds them.
    let no_patterns = Patterns::default();
    for (origin, urls) in targets {
        let answer = runtime.block_on(fetcher.lookup_origin(&origin));
        match args.format {
            Format::Json => writeln!(out, "{}", report_json(&answer, &agents))?,
            Format::Text => write!(
                out,
                "{}",
                report_text(&answer, &agents, column.as_ref(), style)
            )?,
        }
        for url in &urls {
            for agent in &agents {
                let line = match (answer.rules(), args.format) {
                    (Rules::Parsed(robots), format) => {
                        Line::of(format, url, &robots.check(agent, url), &no_patterns, style)
                    }
                    (rules, Format::Json) => {
                        Line::Json(blanket_json(url, rules, &answer.decide(agent, url)))
                    }
                    (rules, Format::Text) => {
                        blanket_text(url, rules, &answer.decide(agent, url), style)
                    }
                };
                writeln!(out, "{}", line.naming(column.as_ref(), agent))?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `--timeout`: whole seconds, at least one, since no request can finish in none.
fn timeout_secs(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("0 seconds would give up on every request; give at least 1".to_owned()),
        Ok(secs) => Ok(secs),
        Err(_) => Err(format!(
            "`{text}` is not a whole number of seconds, e.g. 30"
        )),
    }
}

/// The URLs to check, grouped by origin in order of first appearance; paths belong to
/// the first URL's origin.
fn targets(first: &str, more: &[String]) -> Result<Vec<(Origin, Vec<String>)>> {
    let base = Url::parse(first).map_err(|err| match err {
        url::ParseError::RelativeUrlWithoutBase if !first.starts_with('/') && !first.is_empty() => {
            anyhow::anyhow!(
                "`{first}` is not an absolute URL (it has no scheme); give one such as `https://{first}`"
            )
        }
        url::ParseError::RelativeUrlWithoutBase => anyhow::anyhow!(
            "`{first}` is not an absolute URL; give one such as https://example.com/ (paths may follow it)"
        ),
        // It has a scheme: what is wrong is elsewhere, and the parser says what.
        err => anyhow::anyhow!("`{first}` is not a valid URL: {err}"),
    })?;
    let mut groups: Vec<(Origin, Vec<String>)> = Vec::new();
    for raw in std::iter::once(first).chain(more.iter().map(String::as_str)) {
        let url = if raw.starts_with('/') {
            base.join(raw)
                .with_context(|| format!("cannot read `{raw}` as a path of {base}"))?
                .to_string()
        } else {
            raw.to_owned()
        };
        let origin = origin_of(&url)?;
        match groups.iter_mut().find(|(o, _)| *o == origin) {
            Some((_, urls)) => urls.push(url),
            None => groups.push((origin, vec![url])),
        }
    }
    Ok(groups)
}

fn rules_name(rules: &Rules) -> &'static str {
    match rules {
        Rules::Parsed(_) => "parsed",
        Rules::AllowAll => "allow-all",
        Rules::DisallowAll => "disallow-all",
    }
}

#[derive(serde::Serialize)]
struct HopJson<'a> {
    url: &'a str,
    status: u16,
}

#[derive(serde::Serialize)]
struct ReportJson<'a> {
    origin: String,
    robots_url: String,
    source: &'static str,
    detail: String,
    chain: Vec<HopJson<'a>>,
    rules: &'static str,
    fresh_for_secs: Option<u64>,
    size: Option<usize>,
    truncated: Option<bool>,
    parsed: Option<usize>,
    sitemaps: Vec<&'a str>,
    /// One agent's Crawl-delay (null when none); with several agents, left out for
    /// `crawl_delays`, in the same place.
    #[serde(skip_serializing_if = "Option::is_none")]
    crawl_delay_secs: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    crawl_delays: Option<Vec<AgentDelayJson<'a>>>,
    lint_errors: Option<usize>,
    lint_warnings: Option<usize>,
}

/// The Crawl-delay for one of several agents.
#[derive(serde::Serialize)]
struct AgentDelayJson<'a> {
    agent: &'a str,
    secs: Option<f64>,
}

fn report_json<'a>(answer: &'a Answer, agents: &'a [Agent]) -> String {
    let delay = |agent| answer.crawl_delay(agent).map(|d| d.as_secs_f64());
    let json = ReportJson {
        origin: answer.origin().to_string(),
        robots_url: robots_url(answer.origin()).to_string(),
        source: answer.source().name(),
        detail: answer.source().to_string(),
        chain: answer
            .chain()
            .iter()
            .map(|hop| HopJson {
                url: hop.url().as_str(),
                status: hop.status(),
            })
            .collect(),
        rules: rules_name(answer.rules()),
        fresh_for_secs: answer
            .freshness()
            .map(|f| f.remaining(SystemTime::now()).as_secs()),
        size: answer.body().map(|b| b.read),
        truncated: answer.body().map(|b| b.truncated),
        parsed: answer
            .body()
            .and(answer.rules().robots())
            .map(|r| r.parsed_bytes()),
        sitemaps: answer.sitemaps(),
        crawl_delay_secs: match agents {
            [agent] => Some(delay(agent)),
            _ => None,
        },
        crawl_delays: (agents.len() > 1).then(|| {
            agents
                .iter()
                .map(|agent| AgentDelayJson {
                    agent: agent.name(),
                    secs: delay(agent),
                })
                .collect()
        }),
        lint_errors: findings(answer).map(|f| f.errors),
        lint_warnings: findings(answer).map(|f| f.warnings),
    };
    serde_json::to_string(&json).expect("a report always serialises")
}

fn report_text(
    answer: &Answer,
    agents: &[Agent],
    column: Option<&AgentColumn>,
    style: Style,
) -> String {
    let mut text = format!(
        "{}  {}\n",
        style.yellow(&printable(robots_url(answer.origin()).as_str())),
        printable(&answer.source().to_string())
    );
    for hop in answer.chain() {
        text.push_str(&format!(
            "  {} {}\n",
            hop.status(),
            printable(hop.url().as_str())
        ));
    }
    if let Some(freshness) = answer.freshness() {
        let left = freshness.remaining(SystemTime::now());
        text.push_str(&format!(
            "  fresh for {} (until {})\n",
            human(left),
            httpdate::fmt_http_date(freshness.fresh_until())
        ));
    }
    if let Some(body) = answer.body() {
        match answer.rules().robots() {
            Some(robots) if body.truncated => text.push_str(&format!(
                "  size over {} bytes: cut at the parse limit, the first {} bytes (whole lines) parsed\n",
                robots.options().limit(),
                robots.parsed_bytes()
            )),
            _ => text.push_str(&format!("  size {} bytes\n", body.read)),
        }
    }
    if let Some(found) = findings(answer).filter(|f| f.errors + f.warnings > 0) {
        text.push_str(&format!(
            "  lint {} error{}, {} warning{}: save the body and run `robots lint` on it\n",
            found.errors,
            if found.errors == 1 { "" } else { "s" },
            found.warnings,
            if found.warnings == 1 { "" } else { "s" },
        ));
    }
    for sitemap in answer.sitemaps() {
        text.push_str(&format!("  sitemap {}\n", printable(sitemap)));
    }
    // Each agent's, named when there are several; none for an agent that has none.
    for agent in agents {
        if let Some(delay) = answer.crawl_delay(agent) {
            let secs = delay.as_secs_f64();
            match column {
                None => text.push_str(&format!("  crawl-delay {secs}s\n")),
                Some(column) => text.push_str(&format!(
                    "  crawl-delay for {}  {secs}s\n",
                    column.name(agent)
                )),
            }
        }
    }
    text
}

/// How many errors and warnings parsing the fetched body found: a file that does not
/// mean what it says (one in UTF-16, say, read as no rules) should not pass unremarked.
struct Findings {
    errors: usize,
    warnings: usize,
}

fn findings(answer: &Answer) -> Option<Findings> {
    let robots = answer.body().and(answer.rules().robots())?;
    let count = |severity| {
        robots
            .diagnostics()
            .iter()
            .filter(|d| d.severity() == severity)
            .count()
    };
    Some(Findings {
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
    })
}

fn human(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {}s", s / 60, s % 60),
        _ => format!("{}h {}m", s / 3600, (s % 3600) / 60),
    }
}

/// The state a site without a file to read is in: unavailable (a 4xx, allow all) or
/// unreachable (disallow all but for what the profile always allows, `/robots.txt` in
/// RFC 9309's, see [`Answer::decide`]).
fn blanket_state(rules: &Rules) -> Availability {
    match rules {
        Rules::AllowAll => Availability::Unavailable,
        _ => Availability::Unreachable,
    }
}

/// A verdict for a URL when there is no file. Its reason names the robots.txt's state
/// as RFC 9309 §2.3.1 does, having no rule to name.
fn blanket_json<'a>(url: &'a str, rules: &Rules, decision: &Decision) -> VerdictJson<'a> {
    VerdictJson::blanket(url, blanket_state(rules), decision.allowed())
        .expect("a state with no file to read gives a blanket verdict")
}

fn blanket_text(url: &str, rules: &Rules, decision: &Decision, style: Style) -> Line<'static> {
    let allowed = decision.allowed();
    let word = if allowed {
        style.green("ALLOWED   ")
    } else {
        style.red("DISALLOWED")
    };
    let why = blanket_phrase(blanket_state(rules), allowed)
        .expect("a state with no file to read has its phrase");
    Line::Text {
        word,
        rest: format!("{}  {}", printable(url), style.dim(&format!("({why})"))),
    }
}
