//! Arguments several subcommands share: the robots.txt file, the agent, the profile,
//! the parse limit, and the URLs (arguments or standard input).

use std::ffi::OsString;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use robots::{Agent, Code, Options, Profile, Robots, Severity, Unread};
use robots_present::Patterns;
use robots_present::{NamedAgent, NamingError};

use crate::style::printable;

/// The help of `--robots FILE`, shared by [`EngineArgs`] and `check`, which declares
/// its own arguments to take several agents.
pub const ROBOTS_HELP: &str = "The robots.txt file to read (`-` for standard input).";

/// The help of `--agent` after its first words, which say whether one crawler is taken
/// ([`EngineArgs`]) or several ([`AgentsArgs`]). A macro rather than a constant so that
/// `concat!` can put the two together where clap wants the help.
macro_rules! agent_help {
    () => {
        "its product token (e.g. `ExampleBot`) or a full User-Agent header. With \
         `--profile google` it is used exactly as given, as Google's matcher does, so give \
         the token alone there (`Googlebot`, not `Googlebot/2.1`)."
    };
}

/// The help of `--max-bytes` as every command has it, before a sentence on how the
/// command reads past the limit (a file, or with `fetch` an HTTP body). A macro for
/// `concat!`, as [`agent_help`] is.
macro_rules! max_bytes_help {
    () => {
        "Parse at most this many bytes (at least 512000, RFC 9309 §2.5; more than \
         16777216, the most ever parsed, is taken as that)."
    };
}
pub(crate) use max_bytes_help;

/// `--agent` given once or more: the crawlers `check` and `fetch` give verdicts for.
#[derive(clap::Args, Debug, Clone)]
pub struct AgentsArgs {
    #[arg(
        long,
        value_name = "AGENT",
        required = true,
        allow_hyphen_values = true,
        help = concat!("A crawler to check for (repeat for several): ", agent_help!())
    )]
    pub agent: Vec<String>,
}

/// The options that say how to read a robots.txt and for which one crawler.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    #[arg(long = "robots", value_name = "FILE", help = ROBOTS_HELP)]
    pub robots: PathBuf,

    #[arg(long, value_name = "AGENT", allow_hyphen_values = true, help = concat!("The crawler: ", agent_help!()))]
    pub agent: String,

    #[command(flatten)]
    pub reading: ReadingArgs,
}

/// How to read a robots.txt for a crawler: how to parse it, and whether the crawler
/// honours Archive-Embargo.
#[derive(clap::Args, Debug, Clone)]
pub struct ReadingArgs {
    #[command(flatten)]
    pub parsing: ParsingArgs,

    /// The crawler honours Archive-Embargo: Embargo-Allow applies and verdicts carry the
    /// embargo (rfc9309 profile only).
    #[arg(long)]
    pub embargo: bool,
}

/// How to parse a robots.txt: profile and parse limit. Alone, for commands that ask
/// about the file rather than a crawler's verdicts (`lint`), where embargo honour, a
/// crawler's trait, would change nothing.
#[derive(clap::Args, Debug, Clone)]
pub struct ParsingArgs {
    /// Which reading of robots.txt to apply.
    #[arg(long, value_enum, default_value_t = ProfileArg::Rfc9309)]
    pub profile: ProfileArg,

    // The help: the limit as every command has it, then how a file is read past it;
    // `fetch`, which reads a body instead, says how it does (see `max_bytes_help`).
    #[arg(
        long,
        value_name = "N",
        default_value_t = robots::MIN_PARSE_LIMIT,
        allow_negative_numbers = true,
        help = concat!(
            max_bytes_help!(),
            " Only this much of a file, and 64 KiB more, is kept in memory; the rest is \
             counted, to say how much is ignored, up to 1 GiB in all: a longer file or \
             stream (`/dev/zero`) is \"more than 1073741824 bytes\"."
        )
    )]
    pub max_bytes: usize,
}

impl ParsingArgs {
    /// Parse options, refusing a parse limit below RFC 9309's.
    pub fn options(&self) -> Result<Options> {
        Ok(Options::new()
            .profile(self.profile.into())
            .max_bytes(self.max_bytes)?)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProfileArg {
    /// RFC 9309 with Archive-Embargo.
    Rfc9309,
    /// What Google's open-source matcher does.
    Google,
}

impl From<ProfileArg> for Profile {
    fn from(p: ProfileArg) -> Profile {
        match p {
            ProfileArg::Rfc9309 => Profile::Rfc9309,
            ProfileArg::Google => Profile::Google,
        }
    }
}

impl ReadingArgs {
    /// Parse options, refusing combinations that make no sense.
    pub fn options(&self) -> Result<Options> {
        if self.embargo && self.parsing.profile == ProfileArg::Google {
            bail!("--embargo needs --profile rfc9309: Google's matcher knows no Archive-Embargo");
        }
        self.parsing.options()
    }

    /// The agent as the profile wants it, each note about how the name was read written
    /// on standard error ([`NamedAgent`], which the browser tester names agents with too).
    pub fn agent(&self, name: &str) -> Result<Agent> {
        let named = match NamedAgent::new(name, self.parsing.profile.into(), self.embargo) {
            Ok(named) => named,
            Err(NamingError::EmbargoNeedsRfc9309) => bail!(
                "--embargo needs --profile rfc9309: Google's matcher knows no Archive-Embargo"
            ),
            // The library's message speaks to programmers; this one to whoever typed
            // --agent.
            Err(NamingError::Engine(robots::Error::InvalidAgent { character, .. })) => bail!(
                "--agent `{}`: {} cannot appear in a product token, and it is no User-Agent header either; give the crawler's product token, e.g. `ExampleBot`, or its whole User-Agent header, e.g. `Mozilla/5.0 (compatible; ExampleBot/2.1)`",
                printable(name),
                printable(&format!("{character:?}"))
            ),
            Err(NamingError::Engine(err)) => return Err(err).context("--agent"),
        };
        for note in &named.notes {
            let kind = if note.is_warning() { "warning" } else { "note" };
            eprintln!("robots: {kind}: {}", note.command_text());
        }
        Ok(named.agent)
    }

    /// The agents of `given` (each `--agent`, in order) as the profile wants them, each
    /// crawler once: one given twice, as `ExampleBot` and `examplebot` or as its token and
    /// its User-Agent header, is noted and dropped, since its every verdict would
    /// otherwise be shown (and counted) twice. `done` says what is done once with it, for
    /// the note (`compared`, `checked`). Each given value is noted and warned about as
    /// [`ReadingArgs::agent`] does, once however often it is given.
    pub fn agents(&self, given: &[String], done: &str) -> Result<Vec<Agent>> {
        // Groups name crawlers without regard to case; Google's matcher compares the
        // whole name, RFC 9309 the product token.
        let crawler = |agent: &Agent| match self.parsing.profile {
            ProfileArg::Google => agent.name().to_ascii_lowercase(),
            ProfileArg::Rfc9309 => agent.token().to_ascii_lowercase(),
        };
        let mut agents: Vec<Agent> = Vec::new();
        // For each value given so far, which of `agents` it is.
        let mut kept_as: Vec<usize> = Vec::new();
        for (at, name) in given.iter().enumerate() {
            let earlier = match given[..at].iter().position(|g| g == name) {
                // The same text again: the notes about it were given the first time.
                Some(before) => Some(kept_as[before]),
                None => {
                    let agent = self.agent(name)?;
                    let earlier = agents.iter().position(|a| crawler(a) == crawler(&agent));
                    if earlier.is_none() {
                        agents.push(agent);
                    }
                    earlier
                }
            };
            if let Some(earlier) = earlier {
                eprintln!(
                    "robots: note: --agent `{}` is the crawler `{}` already given; it is {done} once",
                    printable(name),
                    printable(agents[earlier].name())
                );
            }
            kept_as.push(earlier.unwrap_or(agents.len() - 1));
        }
        Ok(agents)
    }
}

/// Reads and parses the file at `path` (see [`read_file`] and [`parse`]), and keeps its
/// rule values that are not UTF-8 to show as written.
pub fn read_parsed(path: &Path, options: Options) -> Result<(Robots, Patterns)> {
    let file = read_file(path, options)?;
    Ok((
        parse(path, &file, options),
        Patterns::new(&file.bytes, options),
    ))
}

/// Parses the file at `path`, warning on standard error when it goes past the parse
/// limit (the rest is ignored, as crawlers ignore it, and verdicts that depend on it
/// would otherwise look like the file's when they are not) and when linting it finds
/// errors, lines crawlers ignore or misread: an HTML page or a file in UTF-16 has no
/// groups, and its verdicts (everything allowed) would otherwise pass unremarked, as
/// `robots fetch` counts them for the same reason.
pub fn parse(path: &Path, file: &File, options: Options) -> Robots {
    let robots = file.parse(options);
    let errors = robots
        .diagnostics()
        .iter()
        .filter(|d| d.severity() == Severity::Error && d.code != Code::BeyondParseLimit)
        .count();
    if errors > 0 {
        let name = printable(&path.display().to_string()).into_owned();
        let profile = match options.chosen_profile() {
            Profile::Google => " --profile google",
            _ => "",
        };
        eprintln!(
            "robots: warning: {name} has {errors} error{}: lines crawlers ignore or misread; `robots lint --robots {name}{profile}` shows {}",
            if errors == 1 { "" } else { "s" },
            if errors == 1 { "it" } else { "them" }
        );
    }
    if robots.parsed_bytes() < robots.size() {
        // The start read holds the line after the parsed part (see `READ_PAST_LIMIT`).
        let first_ignored = robots::source_lines(&file.bytes)
            .find(|(_, range)| range.start >= robots.parsed_bytes())
            .map_or(1, |(line, _)| line);
        let name = printable(&path.display().to_string()).into_owned();
        let (size, limit) = (robots.size(), options.limit());
        let ignored = robots.size() - robots.parsed_bytes();
        if robots.size_exact() {
            eprintln!(
                "robots: warning: {name} is {size} bytes, past the parse limit of {limit}: its last {ignored} bytes, from line {first_ignored} on, are ignored, as crawlers ignore them (RFC 9309 §2.5); `robots lint` shows where it is cut, and --max-bytes raises the limit",
            );
        } else {
            eprintln!(
                "robots: warning: {name} is more than {size} bytes (counting stops there), past the parse limit of {limit}: all of it from line {first_ignored} on, more than {ignored} bytes, is ignored, as crawlers ignore it (RFC 9309 §2.5); `robots lint` shows where it is cut, and --max-bytes raises the limit",
            );
        }
    }
    robots
}

/// Whether `path` names standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path == Path::new("-")
}

/// How far past the parse limit a file's start is read and kept: the engine needs one
/// byte (it says whether the limit cuts a line) and the CLI two (the start of the line
/// after a CRLF that the limit falls on, for "from line M on"); the rest shows the line
/// that the limit cuts whole in `robots lint`, unless it goes on further than this.
const READ_PAST_LIMIT: usize = 64 << 10;

/// How much of a file goes uncounted: past this many bytes, a file or stream is said to
/// be "more than" it, so that `--robots /dev/zero` ends. A gibibyte, 64 times the largest
/// parse limit.
pub const COUNT_AT_MOST: u64 = 1 << 30;

/// A robots.txt as read: its start, a little past the parse limit, and what the reader
/// learnt of the rest, which it counted, a buffer at a time, without keeping it. Memory
/// stays bounded by the limit however long the file (RFC 9309 §2.5 lets crawlers ignore
/// what lies past it), and the parse is the whole file's ([`Robots::parse_start`]).
pub struct File {
    pub bytes: Vec<u8>,
    pub unread: Unread,
}

impl File {
    /// The file parsed as the whole of it would be.
    pub fn parse(&self, options: Options) -> Robots {
        Robots::parse_start(&self.bytes, self.unread, options)
    }
}

/// Reads a file, or standard input for `-`, up to a little past the parse limit of
/// `options` and counts the rest (see [`File`]), with an error that names the file.
pub fn read_file(path: &Path, options: Options) -> Result<File> {
    let keep = options.limit() + READ_PAST_LIMIT;
    if is_stdin(path) {
        return read_start(std::io::stdin().lock(), keep, stdin_size())
            .context("cannot read standard input");
    }
    let context = || {
        format!(
            "cannot read {}; check the path (use - for standard input)",
            path.display()
        )
    };
    let file = std::fs::File::open(path).with_context(context)?;
    // A regular file's size is known without reading it; a pipe's or a device's is not.
    let size = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    read_start(file, keep, size).with_context(context)
}

/// What is left to read of standard input when it is a regular file (`< robots.txt`):
/// its size less what was read of it before; `None` for a pipe or a terminal.
fn stdin_size() -> Option<u64> {
    #[cfg(unix)]
    {
        use std::io::Seek;
        use std::os::fd::AsFd;
        let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
        let mut file = std::fs::File::from(fd);
        let meta = file.metadata().ok().filter(|m| m.is_file())?;
        let at = file.stream_position().ok()?;
        Some(meta.len().saturating_sub(at))
    }
    #[cfg(not(unix))]
    None
}

/// Reads the first `keep` bytes of `input` and what follows them (see [`File`]); `size`
/// is the whole input's, when known.
fn read_start(input: impl std::io::Read, keep: usize, size: Option<u64>) -> std::io::Result<File> {
    let mut input = input;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(&mut input, keep as u64),
        &mut bytes,
    )?;
    if bytes.len() < keep {
        return Ok(File {
            bytes,
            unread: Unread::NONE,
        });
    }
    // Counted after the start, in a fixed buffer, until the end, or until a known size
    // needs only to learn whether the rest is blank, or COUNT_AT_MOST in all.
    let mut counted = 0u64;
    let mut text = false;
    let mut buffer = vec![0; 64 << 10];
    let most = COUNT_AT_MOST.saturating_sub(keep as u64);
    let more_than = loop {
        let n = match input.read(&mut buffer) {
            Ok(0) => break false,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        text = text || !buffer[..n].iter().all(u8::is_ascii_whitespace);
        counted += n as u64;
        if text && size.is_some() {
            break false;
        }
        if counted > most {
            break true;
        }
    };
    let at_least = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    let unread = match size {
        // The file may have grown since its size was read.
        Some(size) if !more_than || text => {
            let rest = at_least(size.saturating_sub(keep as u64).max(counted));
            if text {
                Unread::Text(rest)
            } else {
                Unread::Blank(rest)
            }
        }
        _ if more_than => Unread::MoreThan(at_least(most)),
        _ if text => Unread::Text(at_least(counted)),
        _ => Unread::Blank(at_least(counted)),
    };
    Ok(File { bytes, unread })
}

/// A URL or path to check, as given. The engine checks its bytes as they are
/// ([`Robots::check_bytes`]), so a URL that is not UTF-8 is checked, not refused: the RFC
/// 9309 profile percent-encodes octets of 0x80 and above before matching, and the Google
/// profile takes the URL as given, as Google's matcher does. Output shows it as
/// [`Url::text`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    pub bytes: Vec<u8>,
    /// The URL as text: UTF-8 as it is, and each octet that is not UTF-8 as `\xE9`
    /// ([`robots::escaped`]).
    pub text: String,
}

impl Url {
    pub fn new(bytes: Vec<u8>) -> Url {
        let text = robots::escaped(&bytes).into_owned();
        Url { bytes, text }
    }
}

impl From<String> for Url {
    fn from(text: String) -> Url {
        Url {
            bytes: text.clone().into_bytes(),
            text,
        }
    }
}

/// Notes on standard error how a URL was read when it has no `scheme://` and does not
/// start with `/` (nor `?`, `;` or `#`). The engine reads such a URL as Google's
/// matcher does, as a host and a path (`example.com/a` is `/a`; `private` and
/// `index.html` are `/`), which is seldom what someone who left the `/` off a path
/// meant, and the verdict line shows the URL as given, so without the note the path
/// checked would not show. The first [`ReadingNotes::MAX`] are noted, then that more
/// are read the same way, so that a long list of such URLs does not bury the output.
#[derive(Default)]
pub struct ReadingNotes {
    noted: usize,
}

impl ReadingNotes {
    const MAX: usize = 5;

    pub fn note(&mut self, robots: &Robots, agent: &Agent, url: &Url) {
        let text = &url.text;
        let end = text.find(['/', '?', ';', '#']).unwrap_or(text.len());
        let scheme = text[..end].ends_with(':') && text[end..].starts_with("//");
        if !text.is_empty() && (end == 0 || scheme) {
            return;
        }
        self.noted += 1;
        if self.noted > Self::MAX {
            if self.noted == Self::MAX + 1 {
                eprintln!("robots: note: more URLs without `scheme://` or a leading `/` are read the same way");
            }
            return;
        }
        if text.is_empty() {
            eprintln!("robots: note: an empty URL is checked as `/`");
            return;
        }
        let path = robots.explain_bytes(agent, &url.bytes).path;
        // `https:/a` and `mailto:x` do have a scheme, only no `//` after it; saying they
        // have none would point at the wrong mistake.
        let lacks = if written_scheme(&text[..end]) {
            "has a scheme but no `//` after it"
        } else {
            "has no scheme"
        };
        eprintln!(
            "robots: note: `{}` {lacks} and does not start with `/`, so it is read as Google's matcher reads it, as a URL without its scheme (a host, then a path): the path checked is `{}`; write `/{}` to check that path",
            printable(text),
            printable(&path),
            printable(text)
        );
    }
}

/// Whether `head`, a URL up to its first `/`, `?`, `;` or `#`, starts with a scheme
/// (RFC 3986: a letter, then letters, digits, `+`, `-` or `.`, then `:`), and not a host
/// and port such as `localhost:8080`.
fn written_scheme(head: &str) -> bool {
    let Some((scheme, rest)) = head.split_once(':') else {
        return false;
    };
    let port = !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit());
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        && !port
}

/// URLs given as arguments, taken as the bytes they are (see [`Url`]).
pub fn arg_urls(args: &[OsString]) -> Vec<Url> {
    args.iter()
        .map(|a| Url::new(a.as_encoded_bytes().to_vec()))
        .collect()
}

/// Refuses to read both the robots.txt and the URLs from standard input: when
/// `robots` is `-` and no URLs are given as `args`, URLs read from standard input after
/// the file would silently be none, so they must be arguments.
pub fn refuse_stdin_twice(args: &[OsString], robots: &Path) -> Result<()> {
    if args.is_empty() && is_stdin(robots) {
        bail!(
            "--robots - reads the robots.txt from standard input, so the URLs cannot come from there too; give the URLs as arguments, or the robots.txt as a file"
        );
    }
    Ok(())
}

/// What standard input gives, one URL per line: a URL, or word that it has none ready
/// and the next line will be waited for (the moment to flush what was written for the
/// URLs so far, so that a consumer at the end of a pipe gets each answer as its URL is
/// read rather than at the end of the input).
pub enum Input {
    Url(Url),
    Waiting,
}

/// Calls `each` with every URL of standard input, one per line as it arrives (blank
/// lines skipped, white space around each trimmed), and with [`Input::Waiting`] before
/// each wait for more. Lines are bytes (see [`Url`]): one that is not UTF-8 is read like
/// the rest.
pub fn each_stdin_url(mut each: impl FnMut(Input) -> Result<()>) -> Result<()> {
    let mut input = std::io::BufReader::new(std::io::stdin().lock());
    let mut line = Vec::new();
    for n in 1.. {
        if input.buffer().is_empty() {
            each(Input::Waiting)?;
        }
        line.clear();
        let read = input
            .read_until(b'\n', &mut line)
            .with_context(|| format!("cannot read URLs from standard input (line {n})"))?;
        if read == 0 {
            break;
        }
        let url = line.trim_ascii();
        if !url.is_empty() {
            each(Input::Url(Url::new(url.to_vec())))?;
        }
    }
    Ok(())
}

/// Every URL of standard input (see [`each_stdin_url`]), read to its end.
pub fn stdin_urls() -> Result<Vec<Url>> {
    let mut urls = Vec::new();
    each_stdin_url(|input| {
        if let Input::Url(url) = input {
            urls.push(url);
        }
        Ok(())
    })?;
    Ok(urls)
}

/// Why parsing the command line failed on an argument that is not UTF-8, naming it:
/// clap says only that some argument is not. URLs to check are taken as bytes instead
/// (see [`Url`]); every other argument is text.
pub fn not_utf8_argument() -> String {
    let args: Vec<OsString> = std::env::args_os().collect();
    let Some(at) = (1..args.len()).find(|&i| args[i].to_str().is_none()) else {
        return "an argument is not UTF-8; write every argument in UTF-8".to_owned();
    };
    let option = (at > 1).then(|| args[at - 1].to_str()).flatten();
    let after = match option {
        Some(option) if option.starts_with('-') => format!(" (after `{option}`)"),
        _ => String::new(),
    };
    format!(
        "argument {at}, {:?}{after}, is not UTF-8; write it in UTF-8 (in a URL, percent-encode other octets, e.g. %E9)",
        args[at]
    )
}
