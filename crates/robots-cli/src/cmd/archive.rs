//! `robots archive`: an embargo-aware web archive over WARC files (ingest, status, serve,
//! release), a thin layer over the `robots-archive` crate.

use std::io::{IsTerminal, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use robots_archive::{Archive, ExportFormat, Server, Timestamp};

use crate::limits::LimitArgs;
use crate::style::{counted, printable};

/// Keep captures under their Archive-Embargo, show tombstones, release WARC files.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Examples:
  robots archive ingest my-archive --agent ExampleBot crawl.warc.gz
  robots archive status my-archive --at 2026-06-01T00:00:00Z
  robots archive serve my-archive --addr 127.0.0.1:8090
  robots archive release my-archive
  robots archive export my-archive --format wacz -o released.wacz

An archive is a directory: store/ (the ingested WARC files, sealed), index.sqlite3 and
public/ (released WARC files). See the robots-archive crate docs for the semantics.")]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    Ingest(IngestArgs),
    Status(StatusArgs),
    Serve(ServeArgs),
    Release(ReleaseArgs),
    Export(ExportArgs),
}

/// Seal WARC files into the archive and index their responses with embargo ends.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Example:
  wget --recursive --level 2 --warc-file crawl https://example.com/
  robots archive ingest my-archive --agent ExampleBot crawl.warc.gz

WARC 1.0 and 1.1, plain or gzipped per record. The directory is created when missing.
Response and revisit records are indexed: a revisit (wget --warc-dedup, Heritrix,
warcprox) is a capture at its own time whose payload is that of the record it refers
to. Content is identified by the SHA-1 the archive computes from each payload, however
WARC-Payload-Digest is written. Re-ingesting a file is a no-op. Every path is checked
first: if any is missing or a directory, each such is named and none is ingested. An
empty file is refused as no WARC file. Exit status: 0 on success, 2 on an error (a
damaged WARC file is named with the byte offset of the bad record, and the files after
it are still ingested).")]
pub struct IngestArgs {
    /// The archive directory.
    pub dir: PathBuf,
    /// The crawler's product token; its robots.txt group decides verdicts and
    /// embargoes. Fixed when the archive is created.
    #[arg(long)]
    pub agent: String,
    /// WARC files to ingest.
    #[arg(required = true, value_name = "WARC")]
    pub warcs: Vec<PathBuf>,
}

/// Count released, embargoed and flagged records, list the next release dates, and
/// report partial copies an interrupted ingest left in store/.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Example:
  robots archive status my-archive --at 2026-06-01T00:00:00Z --format json

Exit status: 0 when the status was reported, 2 on an error (not an archive, a damaged
index) or a usage error.")]
pub struct StatusArgs {
    /// The archive directory.
    pub dir: PathBuf,
    /// The time to report for (RFC 3339, or a date such as 2026-06-01 for its first
    /// instant in UTC); default now.
    #[arg(long, value_parser = parse_time)]
    pub at: Option<Timestamp>,
    /// Readable text, or one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Serve single captures (released: replay; withheld: tombstone) and a CDX listing.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Example:
  robots archive serve my-archive --addr 127.0.0.1:8090
  curl http://127.0.0.1:8090/web/20260102000000/https://example.com/news/a
  curl http://127.0.0.1:8090/web/https://example.com/news/a   # the latest capture
  curl 'http://127.0.0.1:8090/cdx?url=https://example.com/news/a&output=json'
  curl 'http://127.0.0.1:8090/cdx?url=example.com&matchType=domain&from=2026&to=202603'

A capture under embargo answers 451 with its tombstone (URL, capture time, headers,
payload digest, embargo end; HTML, or JSON with Accept: application/json); a capture
flagged disallowed or without robots.txt answers 403; the body is never sent. A
released capture replays with its status and body; a revisit replays with the payload
of the capture it refers to, only once that capture is released too (404 when it is not
in the archive). Captured headers that describe the payload (Content-Type, -Encoding,
-Language, -Disposition, Last-Modified) go out as captured, Location rewritten into the
archive; every other one as X-Archive-Orig-<name>, so that no capture sets cookies or
policies on the archive; replays carry a sandbox Content-Security-Policy. A captured
header holding a control octet other than tab, which HTTP cannot carry, is left out.

/cdx takes pywb's url, matchType (exact, prefix, host, domain), from, to, limit and
output (json or text); any other parameter, such as filter or fl, answers 400.

A connection idle past --idle-timeout, or slower than --header-timeout to send a
request's head or --send-timeout to take a response, is closed; past --max-connections,
new clients wait until one ends.

Exit status: it serves until stopped (Ctrl-C); 2 when it cannot start (not an archive,
the address taken, --at in the future) or on a usage error.")]
pub struct ServeArgs {
    /// The archive directory.
    pub dir: PathBuf,
    /// The address to listen on: HOST:PORT, the host an IP address or a name
    /// (localhost:8090); port 0 takes any free port.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8090", value_parser = crate::limits::address)]
    pub addr: SocketAddr,
    /// Answer as if it were this time (RFC 3339, or a date such as 2026-06-01 for its
    /// first instant in UTC), now or earlier: a later time would send what is still
    /// under embargo (`robots archive status --at` previews a later date).
    #[arg(long, value_parser = parse_time)]
    pub at: Option<Timestamp>,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Publish every record whose embargo has ended into public/ as a WARC file.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Example:
  robots archive release my-archive --at 2026-06-01T00:00:00Z

Writes my-archive/public/release-<n>-<time>.warc.gz: released records copied from the
store, and a tombstone (revisit record, headers and digest only) for each record still
under embargo that no earlier release showed. A captured revisit record goes out once
the record holding its payload is public too (in the same release or an earlier one).
Safe to kill and run again: every due record is published exactly once.

Exit status: 0 when everything due was published (or nothing was due), 2 on an error
(--at in the future, not an archive, a store file missing) or a usage error.")]
pub struct ReleaseArgs {
    /// The archive directory.
    pub dir: PathBuf,
    /// Release what is due at this time (RFC 3339, or a date such as 2026-06-01 for its
    /// first instant in UTC), now or earlier: a later time would publish what is still
    /// under embargo. Default now.
    #[arg(long, value_parser = parse_time)]
    pub at: Option<Timestamp>,
}

/// Write what pywb, ReplayWeb.page and other web-archive tools read: a CDXJ index, a
/// WACZ of the released records, or pywb's access rules (.aclj).
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Examples:
  robots archive export my-archive --format cdxj -o my-archive.cdxj
  robots archive export my-archive --format wacz -o released.wacz
  robots archive export my-archive --format aclj -o pywb/collections/web/acl/embargo.aclj

cdxj: every capture (as pywb's CDXJ: its SURT key, the 14-digit time, then JSON with
  url, mime, status, digest, length, offset and filename, the file's name in
  my-archive/store/), with embargo_until and access at --at; sorted bytewise. It
  indexes withheld captures too: give pywb the aclj with it.
wacz: a WACZ 1.1.1 of what is released at --at: released records only (never an
  embargoed or disallowed body), their CDXJ index, pages/pages.jsonl of the HTML pages
  and datapackage.json with SHA-256 hashes. Open it in ReplayWeb.page, or check it
  with `wacz validate -f released.wacz`.
aclj: pywb's access rules at --at, one per URL with a capture withheld: `exclude` (pywb
  answers 404) where one was captured while robots.txt disallowed it, else `block`
  (451) where one is under embargo or no robots.txt governs it yet. Put it in
  collections/<name>/acl/ and export it again after each release (or daily), so that
  pywb opens what the archive has released since.

The file is written as <OUT>.part and renamed when whole. Exit status: 0 when written,
2 on an error (--at in the future for wacz or aclj, not an archive, a store file
missing, the output not writable) or a usage error.")]
pub struct ExportArgs {
    /// The archive directory.
    pub dir: PathBuf,
    /// What to write.
    #[arg(long, value_enum)]
    pub format: ExportChoice,
    /// The time whose access is exported (RFC 3339, or a date such as 2026-06-01 for
    /// its first instant in UTC). For wacz and aclj, now or earlier: a later time would
    /// let out what is still under embargo. Default now.
    #[arg(long, value_parser = parse_time)]
    pub at: Option<Timestamp>,
    /// The file to write.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportChoice {
    Cdxj,
    Wacz,
    Aclj,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

fn parse_time(text: &str) -> Result<Timestamp, String> {
    Timestamp::parse_rfc3339(text).map_err(|e| e.to_string())
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        Command::Ingest(a) => ingest(a),
        Command::Status(a) => status(a),
        Command::Serve(a) => serve(a),
        Command::Release(a) => release(a),
        Command::Export(a) => export(a),
    }
}

fn ingest(args: IngestArgs) -> Result<ExitCode> {
    // The library's message speaks to programmers; this one to whoever typed --agent.
    if let Err(err) = robots::Agent::new(&args.agent) {
        bail!(
            "--agent `{}`: {}; give the archive's crawler as its product token, e.g. \
             `ExampleBot` (not a whole User-Agent header)",
            args.agent,
            match err {
                robots::Error::InvalidAgent { character, .. } => {
                    format!("{character:?} cannot appear in a product token")
                }
                robots::Error::EmptyAgent => "it is empty".to_owned(),
                other => other.to_string(),
            }
        );
    }
    // Checked before the archive is created, so that a mistyped name leaves no empty
    // archive behind, and all of them before any is ingested: every path that cannot be
    // is named at once, and nothing is ingested, so that the corrected command is simply
    // run again. Each file is read twice: copied into the store, then indexed.
    let mut total = 0;
    let mut unusable = Vec::new();
    for warc in &args.warcs {
        match std::fs::metadata(warc) {
            Err(err) => unusable.push(format!("cannot read {}: {err}", shown(warc))),
            Ok(meta) if meta.is_dir() => unusable.push(format!(
                "{} is a directory; give the WARC files in it, e.g. `{}`",
                shown(warc),
                shown(&warc.join("*.warc.gz"))
            )),
            Ok(meta) => total += 2 * meta.len(),
        }
    }
    match &unusable[..] {
        [] => {}
        [one] if args.warcs.len() == 1 => bail!("{one}"),
        _ => bail!(
            "{} of {} WARC files cannot be ingested, so none was: {}; correct the paths \
             (or leave them out) and run the command again",
            unusable.len(),
            args.warcs.len(),
            unusable.join("; ")
        ),
    }
    // A first ingest that indexes nothing (every file damaged) leaves no archive behind:
    // otherwise it would fix the archive's agent, and the corrected command, with another
    // --agent, would be refused.
    let dir_existed = args.dir.exists();
    let archive_existed = args.dir.join(robots_archive::INDEX_FILE).exists();
    let mut archive = Archive::create(&args.dir, &args.agent)?;
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(total)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let mut damaged = Vec::new();
    let mut fatal = None;
    let warcs: Vec<&Path> = args.warcs.iter().map(PathBuf::as_path).collect();
    if let Some(first) = warcs.first() {
        bar.set_message(shown(first));
    }
    let mut done = 0;
    // Files are sealed and read ahead while the one before is indexed (see
    // `Archive::ingest_all`); each one's outcome is said as soon as it is known.
    archive.ingest_all(&warcs, &mut |n| bar.inc(n), &mut |warc, result| {
        done += 1;
        if let Some(next) = warcs.get(done) {
            bar.set_message(shown(next));
        }
        match said(&bar, warc, result, &mut damaged) {
            Ok(()) => true,
            Err(err) => {
                fatal = Some(err);
                false
            }
        }
    })?;
    if let Some(err) = fatal {
        return Err(err);
    }
    bar.finish_and_clear();
    if !damaged.is_empty() {
        let indexed = archive.status(Timestamp::now())?.records;
        let rest = match args.warcs.len() - damaged.len() {
            0 if !archive_existed && indexed == 0 => {
                drop(archive);
                remove_new_archive(&args.dir, dir_existed)?;
                format!(
                    "nothing was ingested, so no archive was created at {}: correct the \
                     files and run the command again (with any --agent)",
                    shown(&args.dir)
                )
            }
            0 => "no other file was given".to_owned(),
            1 => "the other file was ingested".to_owned(),
            _ => "the others were ingested".to_owned(),
        };
        bail!(
            "{} of {} WARC files could not be ingested whole ({}), as said above; {rest}",
            damaged.len(),
            args.warcs.len(),
            damaged.join(", ")
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Says what ingesting `warc` did, on the terminal's progress bar or standard output; a
/// damaged file joins `damaged`, any other error stops the run.
fn said(
    bar: &ProgressBar,
    warc: &Path,
    result: Result<robots_archive::IngestReport, robots_archive::Error>,
    damaged: &mut Vec<String>,
) -> Result<()> {
    let context = || format!("ingesting {}", warc.display());
    let report = match result {
        Ok(report) => report,
        // A damaged file (or one that is no WARC file) is a problem of that file
        // alone: said at once, and the files after it are still ingested, rather
        // than left out of a batch of hundreds for one bad file. The run still
        // ends with status 2. Other errors (the index, the store) stop it.
        Err(err @ robots_archive::Error::Warc { .. }) => {
            let err = anyhow::Error::new(err).context(context());
            bar.suspend(|| eprintln!("robots: error: {}", printable(&format!("{err:#}"))));
            damaged.push(shown(warc));
            return Ok(());
        }
        Err(err) => return Err(anyhow::Error::new(err).context(context())),
    };
    let line = if report.already_ingested {
        format!(
            "{}: already ingested (as {}), nothing to do",
            shown(warc),
            report.stored_as
        )
    } else {
        let r = &report;
        let mut line = format!(
            "{}: {} indexed ({} robots.txt), {} indexed, {} already indexed, {} skipped",
            shown(warc),
            counted(r.responses, "response"),
            r.robots_txt,
            counted(r.revisits, "revisit"),
            r.duplicates,
            counted(r.skipped, "other record"),
        );
        let mut warn = |n: u64, one: &str, many: &str, rest: &str| {
            if n > 0 {
                let said = if n == 1 { one } else { many };
                line += &format!("\n  warning: {n} {said} {rest}");
            }
        };
        warn(
            r.revisits_without_original,
            "revisit refers",
            "revisits refer",
            "to a capture that is not in the archive: indexed, but not replayed or \
                 released until the WARC file holding that capture is ingested",
        );
        warn(
            r.digest_mismatches,
            "response declares",
            "responses declare",
            "a WARC-Payload-Digest that does not match the payload (or is malformed): \
                 indexed under the SHA-1 of the payload stored, which the archive computes \
                 for every record; a sign of damage, or of a tool that digests something \
                 else",
        );
        warn(
            r.undated,
            "response has",
            "responses have",
            "no valid WARC-Date (W3C-DTF, e.g. 2026-01-31T12:00:00Z or 2026-01-31), so \
                 not indexed; fix the dates and ingest the file again",
        );
        warn(
            r.conflicting_ids,
            "response carries",
            "responses carry",
            "the WARC-Record-ID of another capture already indexed: indexed without it, \
                 so that none is lost",
        );
        warn(
            r.unreadable_robots_txt,
            "robots.txt capture is",
            "robots.txt captures are",
            "in a content coding this archive cannot undo (only gzip and deflate), so \
                 the rules are unknown; the site's captures are held back until a \
                 readable robots.txt of it is ingested",
        );
        warn(
            r.robots_redirects_not_captured,
            "robots.txt redirect leads",
            "robots.txt redirects lead",
            "to a URL this archive holds no capture of (RFC 9309 §2.3.1.2), so the \
                 rules are unknown; the site's captures are held back until a file \
                 holding the target is ingested (crawl with redirects followed)",
        );
        line
    };
    let removed = report.removed_leftovers;
    let line = if removed.files > 0 {
        format!(
            "removed {} ({} bytes) left in the store by an ingest that was interrupted\n{line}",
            copies(removed.files, "partial"),
            removed.bytes
        )
    } else {
        line
    };
    bar.println(&line);
    if bar.is_hidden() {
        writeln!(std::io::stdout(), "{line}")?;
    }
    Ok(())
}

fn status(args: StatusArgs) -> Result<ExitCode> {
    let archive = open(&args.dir, "status")?;
    let s = archive.status(args.at.unwrap_or_else(Timestamp::now))?;
    // Written, not printed: a reader that stops early (`| head`) is an error to report,
    // not a panic.
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&s)?)?,
        Format::Text => {
            writeln!(out, "at {}: {}", s.at, counted(s.records, "record"))?;
            writeln!(
                out,
                "  released    {} ({} published in public/)",
                s.released, s.published
            )?;
            writeln!(out, "  embargoed   {}", s.embargoed)?;
            writeln!(
                out,
                "  flagged     {} disallowed at capture, {} without robots.txt",
                s.disallowed, s.no_robots
            )?;
            let left = s.leftover_incoming;
            if left.files > 0 {
                // Not part of the archive, but they can hold as much disk as the WARC
                // files being copied: said, with what to do.
                writeln!(
                    out,
                    "  leftovers   {} in {} ({} bytes): partial copies left by an ingest \
                     that was interrupted, no part of the archive; the next ingest removes \
                     those whose ingest it can tell has stopped (on Linux); delete the rest \
                     (store/.incoming-*) while no ingest is running",
                    copies(left.files, "incoming"),
                    shown(&args.dir.join("store")),
                    left.bytes
                )?;
            }
            if s.next_releases.is_empty() {
                writeln!(out, "next releases: none scheduled")?;
            } else {
                writeln!(out, "next releases:")?;
                for day in &s.next_releases {
                    writeln!(out, "  {}  {}", day.first, counted(day.records, "record"))?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn serve(args: ServeArgs) -> Result<ExitCode> {
    if let Some(at) = args.at {
        up_to_now(at, &args.dir, "serving as of that time would send")?;
    }
    let archive = open(&args.dir, "serve")?;
    let server = Server::bind(archive, args.addr, args.at)?.with_limits(args.limits.limits());
    let addr = server.local_addr().unwrap_or(args.addr);
    eprintln!(
        "serving {} on http://{addr}/ (replay: /web/<timestamp>/<url>, listing: /cdx?url=<url>)",
        shown(&args.dir)
    );
    server.run()?;
    Ok(ExitCode::SUCCESS)
}

fn release(args: ReleaseArgs) -> Result<ExitCode> {
    let at = args.at.unwrap_or_else(Timestamp::now);
    // Publication cannot be undone.
    up_to_now(
        at,
        &args.dir,
        "a release publishes for good what is due at that time,",
    )?;
    let mut archive = open(&args.dir, "release")?;
    let report = archive.release(at)?;
    let mut out = std::io::stdout().lock();
    if report.resumed {
        writeln!(out, "finished an interrupted release first")?;
    }
    if report.files.is_empty() {
        writeln!(out, "nothing to release")?;
    }
    for file in &report.files {
        writeln!(out, "wrote {}", shown(file))?;
    }
    writeln!(
        out,
        "{} released, {}",
        counted(report.released, "record"),
        counted(report.tombstones, "tombstone")
    )?;
    Ok(ExitCode::SUCCESS)
}

fn export(args: ExportArgs) -> Result<ExitCode> {
    let at = args.at.unwrap_or_else(Timestamp::now);
    let format = match args.format {
        ExportChoice::Cdxj => ExportFormat::Cdxj,
        ExportChoice::Wacz => ExportFormat::Wacz,
        ExportChoice::Aclj => ExportFormat::Aclj,
    };
    match format {
        ExportFormat::Wacz => up_to_now(at, &args.dir, "a WACZ would hold the")?,
        ExportFormat::Aclj => up_to_now(at, &args.dir, "pywb would then open the")?,
        ExportFormat::Cdxj => {}
    }
    let archive = open(&args.dir, "export")?;
    let report = archive.export(format, at, &args.output)?;
    let what = match format {
        ExportFormat::Cdxj => counted(report.lines, "capture"),
        ExportFormat::Aclj => counted(report.lines, "access rule"),
        ExportFormat::Wacz => format!(
            "{}, {}",
            counted(report.lines, "released record"),
            counted(report.pages, "page")
        ),
    };
    writeln!(
        std::io::stdout().lock(),
        "wrote {}: {what}",
        shown(&report.file)
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Opens the archive `dir` for `robots archive <sub>`. A WARC file given where the archive
/// belongs (`robots archive serve crawl.warc.gz`) is told apart, with the ingest that
/// makes an archive of it, into a directory of its own.
fn open(dir: &Path, sub: &str) -> Result<Archive> {
    let is_file = dir.is_file();
    let name = dir.to_string_lossy();
    if is_file || name.ends_with(".warc") || name.ends_with(".warc.gz") {
        bail!(
            "{} is a WARC file, not an archive: an archive is a directory that `robots \
             archive ingest` makes; ingest the file into one first, e.g. `robots archive \
             ingest my-archive --agent ExampleBot {}`, then `robots archive {sub} my-archive`",
            shown(dir),
            shown(dir)
        );
    }
    Ok(Archive::open(dir)?)
}

/// Refuses an `--at` later than now: `what` would send out bodies still under embargo
/// today, which `status --at` can preview without sending anything.
fn up_to_now(at: Timestamp, dir: &Path, what: &str) -> Result<()> {
    if at > Timestamp::now() {
        bail!(
            "--at {} is in the future, and {what} bodies still under embargo now among \
             them; give a time up to now, or see what a later time would release with \
             `robots archive status {} --at {}`",
            at.rfc3339(),
            dir.display(),
            at.rfc3339()
        );
    }
    Ok(())
}

/// A path as text output shows it: file and directory names can hold control
/// characters (a crawl named after a URL), which the terminal must show, not obey.
/// Removes an archive this command created and left empty: the directory, if it made it,
/// else the index and store it put in a directory that was there before.
fn remove_new_archive(dir: &Path, dir_existed: bool) -> Result<()> {
    let what = || format!("removing the empty archive at {}", shown(dir));
    if !dir_existed {
        return std::fs::remove_dir_all(dir).with_context(what);
    }
    for name in [
        robots_archive::INDEX_FILE,
        "index.sqlite3-wal",
        "index.sqlite3-shm",
    ] {
        match std::fs::remove_file(dir.join(name)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(what);
            }
            _ => {}
        }
    }
    for sub in [robots_archive::STORE_DIR, robots_archive::PUBLIC_DIR] {
        // Only if empty: what another process put there is not this command's to remove.
        let _ = std::fs::remove_dir(dir.join(sub));
    }
    Ok(())
}

/// `n` copies, as `1 partial copy` or `2 partial copies`.
fn copies(n: u64, kind: &str) -> String {
    format!("{n} {kind} cop{}", if n == 1 { "y" } else { "ies" })
}

fn shown(path: &Path) -> String {
    printable(&path.display().to_string()).into_owned()
}
