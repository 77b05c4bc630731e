//! An embargo-aware web archive over WARC files, per the appendix of the Archive-Embargo
//! draft: every capture keeps an embargo end; until then only a tombstone (URL, capture
//! time, response headers, payload digest, embargo end) is shown; once it passes, the
//! capture is replayed and released in bulk as public WARC files.
//!
//! ```no_run
//! use robots_archive::{Archive, Timestamp};
//! use std::path::Path;
//!
//! let mut archive = Archive::create(Path::new("my-archive"), "ExampleBot")?;
//! archive.ingest(Path::new("crawl.warc.gz"), &mut |_bytes| {})?;
//! let at = Timestamp::parse_rfc3339("2026-06-01T00:00:00Z")?;
//! println!("{:?}", archive.status(at)?);
//! let report = archive.release(at)?; // due records into my-archive/public/*.warc.gz
//! println!("released {} records", report.released);
//! # Ok::<(), robots_archive::Error>(())
//! ```
//!
//! # An archive directory
//! - `store/`: the sealed store, each ingested WARC file copied in under its SHA-1
//!   (`<sha1>.warc.gz`), read-only, never modified and never served whole. A file is
//!   first copied to `.incoming-<pid>-<start>-<pidns>-<n>` (named after the process
//!   copying it) and renamed when whole, so a name without the prefix is always a whole
//!   file. An ingest killed mid-copy leaves its partial copy behind: the next ingest
//!   removes it, on Linux, when `/proc` shows its writer is certainly gone (that pid
//!   does not run, or runs a process started at another time), and keeps any copy it
//!   cannot judge (another pid namespace or user, or a system without `/proc`: nothing
//!   is removed elsewhere than on Linux). [`Status::leftover_incoming`] counts those that
//!   remain; they can be deleted while no ingest runs. The details and why are in the
//!   `incoming` module.
//! - `index.sqlite3`: one row per capture (an HTTP `response` record, or a `revisit`
//!   record): URL, capture time, status, MIME type, payload digest, file, offset and
//!   length, the robots.txt capture that governed it, the verdict, the embargo period,
//!   Last-Modified, and the embargo end; for a revisit, the response it repeats.
//! - `public/`: the release files, `release-<n>-<time>.warc.gz`, gzipped per record.
//!
//! # Semantics
//! - The archive has one agent (the crawler's product token), which honours embargoes;
//!   it is fixed when the archive is created.
//! - The robots.txt that governs a capture is the capture of `/robots.txt` of the same
//!   origin (scheme, host, port) nearest in time: the latest at or before it, else the
//!   earliest within 24 hours after it. 2xx: its rules apply; 4xx: no rules (RFC 9309
//!   §2.3.1.3), released at once; 5xx (unreachable): the copy the crawler had read
//!   before, which a fetcher keeps through the first 30 days of an outage (§2.3.1.4,
//!   §2.4; `robots-fetch` does), that is the latest 2xx or 4xx capture before the 5xx
//!   and at most 30 days older than the capture; with no such copy, complete disallow
//!   (but never of the 5xx capture of `/robots.txt` itself, which is released at once:
//!   a crawler always asks for robots.txt). 1xx captures are skipped. **3xx**: the
//!   redirect is followed, as RFC 9309 §2.3.1.2 asks, through the archive's own captures
//!   (a crawler that follows redirects records each hop): each hop's `Location` to the
//!   capture of that URL nearest in time (within 24 hours), up to five hops, to another
//!   origin too; the capture it ends at (2xx, 4xx or 5xx, as above) governs the origin
//!   whose robots.txt redirected. More than five hops, a loop, or a redirect without a
//!   usable `Location` is robots.txt unavailable (no rules), as `robots-fetch` takes it;
//!   a target the archive holds no capture of leaves the rules unknown (`no-robots`,
//!   counted in the ingest report) until an ingest brings it. Indexes of layout 4 and
//!   older, which kept no 3xx robots.txt capture, are upgraded when opened: each one's
//!   `Location` is read from the store and the captures it governs assessed again.
//! - **Allowed**, with an embargo: the end is [`robots::Embargo::end`] of the group's
//!   period, the response's Last-Modified, the first time the archive observed the
//!   content (the same URL with the same payload digest, across every ingest) and the
//!   capture time. A page whose content changes starts a new embargo with the new
//!   content, however long ago its URL was first seen.
//! - **Content** is identified by the SHA-1 of the payload (after the HTTP head, as
//!   stored), which the archive computes for every record, in base32 as CDX shows it:
//!   the same content is one content whether a tool wrote `sha1:<base32>` (wget, warcio,
//!   Heritrix), `sha256:<hex>` (Browsertrix, warcprox) or SHA-1 in hex. A declared
//!   `WARC-Payload-Digest` in SHA-1 or SHA-256 (hex or base32) is checked, never used in
//!   its place: a response whose declared digest does not match (or is malformed) is
//!   indexed under the computed one and counted in the ingest report, since the stored
//!   payload, which is what replay and release send, is what the embargo protects; a
//!   wrong declared digest would otherwise tie it to other content's first observation.
//!   Digests in other algorithms are neither checked nor used. Allowed without an embargo: released
//!   at once (the end is the capture time).
//! - **Disallowed** at capture (the crawler did not obey): flagged, never replayed or
//!   released; `serve` answers 403 with a tombstone, releases never include it.
//! - **No robots.txt** capture near enough: flagged `no-robots`, withheld (403) until an
//!   ingest brings a robots.txt that governs it; then it is assessed again.
//! - Re-ingesting a file is a no-op, and a record already indexed from another file
//!   (same WARC-Record-ID, URL, date and payload, e.g. a recompressed copy) is not
//!   indexed twice; a capture whose ID another capture already has is indexed without
//!   it, and the ingest report counts it. A WARC-Date may have any W3C-DTF granularity
//!   (WARC 1.1 §5.4): to the minute, to the second with any fraction (dropped), or a
//!   date alone, which is its first instant in UTC (`--at` on the command line reads
//!   the same forms). A response without a valid WARC-Date has no capture time, so no
//!   embargo end: it is counted, not indexed. A robots.txt sent gzipped or deflated is
//!   decoded; one in another coding governs nothing.
//! - Of a damaged file (truncated, bad gzip, wrong Content-Length), the captures before
//!   the damage are indexed and assessed, and ingest fails naming the byte where reading
//!   stopped; the file stays incomplete, so ingesting it again reports the damage again. A
//!   failed ingest that indexed nothing from its file (not a WARC file, or damaged before
//!   its first new capture) leaves the store as it was: the file it copied in is taken
//!   out again, while a file that was in the store before is never removed. Only
//!   `response` records holding an HTTP response and `revisit` records are indexed;
//!   `request`, `metadata` and other records are skipped. An ingest that observes content earlier than before
//!   moves its first observation and recomputes the end of its unreleased captures (an
//!   earlier observation can only bring the end forward). A newly ingested robots.txt
//!   re-assesses the unreleased captures it may govern; released ones stay released.
//! - **Revisits** (WARC 1.1 §6.7, profiles `identical-payload-digest` and
//!   `server-not-modified` of WARC 1.0 or 1.1; written by wget `--warc-dedup`, Heritrix,
//!   warcprox) are captures of their `WARC-Target-URI` at their own `WARC-Date`, whose
//!   payload is their original's: the record named by `WARC-Refers-To`, else the capture
//!   of `WARC-Refers-To-Target-URI` at `WARC-Refers-To-Date`, else the nearest capture of
//!   the same URL with the payload digest the revisit declares; a candidate whose payload
//!   is not the one declared is passed over. A `server-not-modified` revisit that names
//!   none of these (a bare 304) repeats the latest earlier 2xx capture of its URL, the
//!   copy whose validators a crawler sends in a conditional request. A revisit takes its original's content, so it
//!   is assessed like a response whose content was first observed when its original (or
//!   an earlier capture of it at that URL) was: unchanged content is not under a new
//!   embargo. A revisit of a robots.txt governs as that robots.txt captured at its time.
//!   A revisit whose original is not in the archive is indexed, counted in the ingest
//!   report, neither replayed nor released, and resolved when a later ingest brings its
//!   original. Revisits of other profiles (this archive's tombstones among them) are
//!   skipped. Indexes written before revisits and computed digests (layout 2 and older)
//!   are upgraded when opened: every stored file is read again, each response's digest
//!   computed, the revisits indexed, and unreleased captures assessed again.
//! - `serve`: `/web/<timestamp>/<url>` answers for the capture nearest that time, and
//!   `/web/<url>` (no timestamp, as on the Wayback Machine) for the latest capture. A
//!   capture under embargo answers **451** with a tombstone (HTML, or JSON
//!   when Accept prefers `application/json`), a flagged one **403**; the body is never
//!   sent. The headers `X-Archive-Access` and, under embargo, `X-Embargo-Until` say why.
//!   **What may leave the archive** is decided in one place, [`Entry::access`], and
//!   every path that sends a payload (replay by GET or HEAD, a Range request, which is
//!   answered whole, `id_` replay, release) reads it through the crate's `disclosure`
//!   module, which asks it first. A revisit's payload is its original's, so a revisit is
//!   released only when it and its original both are: a revisit under a site that allows
//!   everything, of a capture under embargo or captured while disallowed, answers 451 or
//!   403 like that capture, its tombstone says whose payload it withholds, and `/cdx`
//!   lists it with that access and the later of the two embargo ends.
//!   A released capture is replayed with its status and headers (hop-by-hop ones and
//!   chunked coding removed) plus `Memento-Datetime`. Replayed captures are served from
//!   the archive's own origin, so they must not act as the archive: only the fields
//!   that describe the payload go out live (`Content-Type`, `Content-Encoding`,
//!   `Content-Language`, `Content-Disposition`, `Last-Modified`, and `Location`
//!   rewritten); every other captured field (`Set-Cookie`, `Strict-Transport-Security`,
//!   `Clear-Site-Data`, `Content-Security-Policy`, `Refresh`, …) goes out as
//!   `X-Archive-Orig-<name>`, as pywb sends them; and every replay carries
//!   `Content-Security-Policy: sandbox allow-scripts allow-forms allow-downloads` (no
//!   `allow-same-origin`: captured scripts run in an opaque origin, so they cannot read
//!   the archive's cookies or storage or register a service worker for it) and
//!   `X-Content-Type-Options: nosniff`, which every answer of the archive's own carries
//!   too. Payloads are streamed from the store through a buffer of 64 KiB a chunk, so a
//!   client reading slowly holds a chunk or two of the server's memory, whatever the
//!   capture's size. Each request reads the index through a connection of its own, so a
//!   long listing does not hold up a replay. Each header value sent is the octets
//!   captured, UTF-8 or not (a Latin-1 `filename="caf\xE9.pdf"` is sent back as it
//!   came, never as U+FFFD); a redirect's `Location` points into the archive at the
//!   capture's time (a target that is not UTF-8 with its octets from 0x80 up
//!   percent-encoded), and an interim (1xx) capture, which no client can be given as
//!   an answer, is refused with 502. A captured field whose value holds a control
//!   octet other than tab (invalid in HTTP, RFC 9110 §5.5, and refused by the server
//!   library) is left out and the rest replayed with the captured status; the
//!   `Link: <url>; rel="original"` names the URL with such octets percent-encoded. A
//!   released revisit is replayed with its own status and headers and its original's
//!   payload (a 304 of `server-not-modified` updates its original's head as a cache
//!   would, RFC 9111 §3.2; a revisit without an HTTP head replays its original's); one
//!   whose original is not in the archive answers 404 saying so. A tombstone page (HTML
//!   or JSON) shows header values as text, octets that are not UTF-8 as U+FFFD. `/cdx?url=…&output=json` lists
//!   captures with pywb's fields (`urlkey timestamp url mime status digest length offset
//!   filename`) plus `embargo_until` and `access`, a revisit with mime `warc/revisit`
//!   and its own status, offset and length, as pywb lists them. Of pywb's CDX server
//!   parameters it takes `url`; `matchType`: `exact` (the default), `prefix`, `host` (every URL of the
//!   host and port) or `domain` (the host and its subdomains, on any port), with pywb's
//!   shorthands `url=…*` for prefix and `url=*.host` for domain; `from` and `to`, 4 to 14
//!   digits of a Wayback timestamp naming the first and the last second they include
//!   (`from=2021&to=2021` is the year 2021); `limit` (at most and by default 10,000); and
//!   `output`: `json`, or `text` (the default) for space-separated lines. Any other
//!   parameter (`filter`, `fl`, `collapse`, `sort`, `closest`, paging…), a repeated one
//!   or a value outside these answers 400 naming it, rather than a listing that ignores
//!   it. Every query reads one closed range of the key index per prefix, so a query that
//!   selects nothing costs as little as one that selects one capture.
//!   Captures are looked up by SURT key, so a URL is found however its host case,
//!   default port or `www.` were written, and whether the octets a URL may not hold raw
//!   (space, controls, non-ASCII) were percent-encoded or not; replay prefers captures
//!   of the URL exactly as requested. Other spellings keep keys of their own: an escaped
//!   unreserved character (`/%62.html` for `/b.html`) and an empty query (`/b.html?`)
//!   find only captures written that way, as the key is all the index holds.
//! - `release`: every allowed record whose end has passed and that is not yet published
//!   goes into a new public WARC file, copied byte for byte from the store; each
//!   record still under embargo appears once, in the first release after its ingest, as
//!   a `revisit` record with WARC-Profile [`TOMBSTONE_PROFILE`], its HTTP head, its
//!   payload digest, a `WARC-Embargo-Until` field and no payload. Flagged records never
//!   appear. A captured revisit record is copied as captured (its head, no payload) once
//!   its original is public too, in the same release or an earlier one, so that public
//!   files can always be replayed on their own; until then it waits (for ever if its
//!   original is flagged or not in the archive), and `status` counts it released but not
//!   published. A release walks an index of unpublished records sorted by embargo end, so
//!   it costs in proportion to what it publishes: a waiting revisit is held out of that
//!   index by the first release it is due in, and taken up again by the release that
//!   publishes its original (it goes out in the same file, after it) or, if its original
//!   turns out to be public already, by the ingest that finds it. Holding does not touch
//!   tombstones: a tombstone stands for a record under embargo, and a held revisit is past
//!   its own (it had its tombstone while under it, if a release ran then; should a new
//!   robots.txt put it under embargo again, it gets one). Records within a file are in
//!   order of embargo end, revisits after the other records. Indexes of layout 3 are
//!   upgraded when opened (no file is read again); their waiting revisits are held by the
//!   next release. A release killed at any point and run again publishes each record once.
//! - **Rebuilding the index** (a damaged index moved away and the stored files ingested
//!   again, or an index restored from a backup): the public files are the record of what
//!   was published, so opening an archive whose index lacks release files of `public/`
//!   reads them. Their batches become done releases (later ones are numbered after
//!   them), and the captures their records stand for (a released record is a copy of
//!   the stored one; a tombstone names its capture by `WARC-Refers-To`,
//!   `WARC-Refers-To-Target-URI` and `WARC-Refers-To-Date`) are marked released or
//!   tombstoned as each ingest indexes them: a released one once the new index
//!   assesses it as allowed (with a revisit's original found), as it did when it was
//!   published. So a rebuild followed by a release publishes nothing already published.
//!   A release log kept beside the index was rejected: it could be lost with the index,
//!   or disagree with what the public files show.
//! - **Export** ([`Archive::export`]) for the tools archivists replay and exchange with,
//!   keyed by pywb's SURT key ([`pywb_key`]: the `surt` package's canonicalization, IPv4
//!   hosts reversed like names, ports kept, query parts sorted), which differs from the
//!   `/cdx` key: [`ExportFormat::Cdxj`], every capture as pywb's CDXJ (`<key> <14-digit
//!   time> {"url", "mime", "status", "digest", "length", "offset", "filename"}` with
//!   `filename` the file's name in `store/`, plus `embargo_until` and `access` at the
//!   time given), sorted bytewise; [`ExportFormat::Aclj`], pywb's access-control rules
//!   at that time, one exact-match rule (`<key>###`) per URL with a capture withheld:
//!   `exclude` (pywb answers 404) when one was captured while disallowed, else `block`
//!   (451), reverse-sorted as pywb reads them; pywb's rules name URLs, not captures, so
//!   a URL is withheld whole while any of its captures is. [`ExportFormat::Wacz`], a
//!   WACZ [`WACZ_VERSION`] package of the records released at that time, each read
//!   through the `disclosure` gate as release reads them (so never an embargoed or
//!   disallowed body), with its CDXJ index, `pages/pages.jsonl` of its HTML pages
//!   answering 200, and `datapackage.json` with every file's SHA-256. The file is
//!   written under `<out>.part` and renamed when whole. pywb's rules hold as of their
//!   time: export them again after each release.

mod assess;
mod capture;
mod cdx;
mod digest;
mod disclosure;
mod error;
mod export;
mod http;
mod incoming;
mod index;
mod ingest;
mod pywb;
mod recovery;
mod redirect;
mod release;
mod revisit;
mod serve;
mod status;
mod store;
mod time;
mod tombstone;
mod url;
pub mod warc;

use std::io;
use std::path::{Path, PathBuf};

use robots::Agent;

pub use capture::RevisitProfile;
pub use cdx::{CdxLine, CdxQuery, MatchType};
pub use digest::Digest;
pub use error::{CdxProblem, Error, WarcProblem};
pub use export::{ExportFormat, ExportReport, WACZ_VERSION};
pub use http::{HeaderFields, ResponseHead};
pub use incoming::Leftovers;
pub use index::{Access, CaptureVerdict, Entry, Revisit, INDEX_FILE};
pub use ingest::IngestReport;
pub use pywb::pywb_key;
pub use release::{ReleaseReport, ReleaseStep, PUBLIC_DIR};
pub use serve::{respond, Request, Response, Server};
pub use status::{Status, UpcomingRelease};
pub use store::STORE_DIR;
pub use time::Timestamp;
pub use tombstone::{Tombstone, TOMBSTONE_PROFILE};

use index::Index;
use store::Store;

/// The `meta` key holding the archive's agent.
const AGENT_KEY: &str = "agent";

/// An archive directory, open.
pub struct Archive {
    dir: PathBuf,
    index: Index,
    store: Store,
    agent: Agent,
}

impl Archive {
    /// Opens the archive in `dir` for `agent` (a product token such as `ExampleBot`),
    /// creating the directory and its index when missing.
    pub fn create(dir: &Path, agent: &str) -> Result<Archive, Error> {
        let parsed = Agent::new(agent)?.honouring_embargo();
        std::fs::create_dir_all(dir).map_err(|e| store::io_error(dir, e))?;
        let mut index = Index::open(dir, true)?;
        match index.meta(AGENT_KEY)? {
            Some(stored) if !stored.eq_ignore_ascii_case(parsed.token()) => {
                return Err(Error::AgentMismatch {
                    stored,
                    given: agent.to_owned(),
                })
            }
            Some(_) => {}
            None => index.set_meta(AGENT_KEY, parsed.token())?,
        }
        let store = Store::new(dir)?;
        upgrade(&mut index, &store, &parsed)?;
        recovery::recover(&mut index, dir)?;
        Ok(Archive {
            store,
            dir: dir.to_owned(),
            index,
            agent: parsed,
        })
    }

    /// Opens an existing archive.
    pub fn open(dir: &Path) -> Result<Archive, Error> {
        let mut archive = Archive::open_reader(dir)?;
        upgrade(&mut archive.index, &archive.store, &archive.agent)?;
        recovery::recover(&mut archive.index, dir)?;
        Ok(archive)
    }

    /// Opens a further handle on an archive that is open already (and so brought up to
    /// date): its own connection to the index, for reading beside the others.
    pub(crate) fn open_reader(dir: &Path) -> Result<Archive, Error> {
        let index = Index::open(dir, false)?;
        let token = index.meta(AGENT_KEY)?.ok_or_else(|| Error::NotAnArchive {
            dir: dir.to_owned(),
        })?;
        let agent = Agent::new(&token)?.honouring_embargo();
        let store = Store::new(dir)?;
        Ok(Archive {
            store,
            dir: dir.to_owned(),
            index,
            agent,
        })
    }

    /// The archive's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The agent whose verdicts the archive keeps.
    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// Seals a WARC file into the store, indexes its responses and assesses them (of a
    /// damaged file, those before the damage, and the error says where it is);
    /// `progress` hears of each batch of bytes read (the file is read twice: once to
    /// copy it into the store, heard of as one batch, once to index it, while another
    /// thread inflates, parses and digests the records ahead of the index writes).
    pub fn ingest(
        &mut self,
        warc: &Path,
        progress: &mut dyn FnMut(u64),
    ) -> Result<IngestReport, Error> {
        ingest::ingest(
            &mut self.index,
            &self.store,
            &self.agent,
            &self.dir,
            warc,
            progress,
        )
    }

    /// Ingests each file in turn as [`Archive::ingest`] does, handing each one's outcome
    /// to `each` as it is known; `each` says whether to go on. The index is written in the
    /// order given, as by one call per file, but while a file is indexed and assessed the
    /// next is sealed and read ahead on another thread, so that several files keep two
    /// cores busy. The reading thread holds at most 32 MiB of parsed headers ahead of the
    /// index, never a payload: memory stays bounded whatever the files hold. Errors other
    /// than a file's own (the index, the store) are handed to `each` too.
    pub fn ingest_all(
        &mut self,
        warcs: &[&Path],
        progress: &mut dyn FnMut(u64),
        each: &mut dyn FnMut(&Path, Result<IngestReport, Error>) -> bool,
    ) -> Result<(), Error> {
        ingest::ingest_all(
            &mut self.index,
            &self.store,
            &self.agent,
            &self.dir,
            warcs,
            progress,
            each,
        )
    }

    /// Counts and upcoming release dates at time `at`.
    pub fn status(&self, at: Timestamp) -> Result<Status, Error> {
        status::status(&self.index, &self.store, at)
    }

    /// Publishes what is due at `at` into `public/` (see the crate docs).
    pub fn release(&mut self, at: Timestamp) -> Result<ReleaseReport, Error> {
        self.release_observed(at, &mut |_| Ok(()))
    }

    /// [`Archive::release`], calling `observe` at each [`ReleaseStep`]; an error from it
    /// stops the release there, as a crash would (crash-safety tests use this).
    pub fn release_observed(
        &mut self,
        at: Timestamp,
        observe: &mut dyn FnMut(ReleaseStep) -> io::Result<()>,
    ) -> Result<ReleaseReport, Error> {
        release::release(&mut self.index, &self.store, &self.dir, at, observe)
    }

    /// Every capture of `url`, oldest first.
    pub fn captures_of(&self, url: &str) -> Result<Vec<Entry>, Error> {
        self.index.captures_of(url)
    }

    /// The CDX listing for `query` at time `at`.
    pub fn cdx(&self, query: &CdxQuery, at: Timestamp) -> Result<String, Error> {
        cdx::listing(&self.index, query, at)
    }

    /// Answers one HTTP request as `serve` does, as of time `now`.
    pub fn respond(&self, request: &Request, now: Timestamp) -> Response {
        serve::respond(self, request, now)
    }

    /// Writes `format` to `out` (through `<out>.part`, renamed when whole): a CDXJ index
    /// of every capture with its access at `at`, pywb's access rules for what is withheld
    /// at `at`, or a WACZ of what is released at `at` (see the crate's `export` module).
    pub fn export(
        &self,
        format: ExportFormat,
        at: Timestamp,
        out: &Path,
    ) -> Result<ExportReport, Error> {
        export::export(self, format, at, out)
    }

    pub(crate) fn index(&self) -> &Index {
        &self.index
    }

    pub(crate) fn store(&self) -> &Store {
        &self.store
    }
}

/// Finishes bringing an index from an older version up to date: reads the stored files
/// again when its layout asks for it, and assesses what the upgrade marked.
fn upgrade(index: &mut Index, store: &Store, agent: &Agent) -> Result<(), Error> {
    let mut reassess = index.upgraded;
    if index.upgrading || index.redirects_unread {
        if index.upgrading {
            ingest::upgrade_files(index, store)?;
        }
        redirect::index_captured(index, store)?;
        index.finish_upgrade()?;
        reassess = true;
    }
    if reassess {
        assess::assess_pending(index, store, agent)?;
    }
    Ok(())
}
