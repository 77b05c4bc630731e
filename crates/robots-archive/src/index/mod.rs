//! The archive's index in SQLite: one row per captured response with its verdict and
//! embargo end, the robots.txt captures, files and releases.
//!
//! Every SQL statement of the crate is in this module and its submodules, one for each
//! step that reads or writes the index (`captures` for ingest's rows, `revisits`,
//! `assessment`, `releases`, `published` for recovery, `status`, `listing` for `/cdx`,
//! `files` for the sealed store): the other modules call typed functions and hold no
//! SQL, so a change of schema is a change here.

use std::path::Path;

use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::capture::RevisitProfile;
use crate::digest::Digest;
use crate::time::Timestamp;
use crate::url::surt;
use crate::Error;

pub(crate) mod assessment;
pub(crate) mod captures;
pub(crate) mod files;
pub(crate) mod listing;
pub(crate) mod published;
pub(crate) mod releases;
pub(crate) mod revisits;
pub(crate) mod status;

/// A write transaction on the index: the steps of the pipeline that change several rows
/// together (a batch of records, a batch of assessments, a release plan) run in one, and
/// hand it to this module's functions, which hold every statement.
pub(crate) type Tx<'a> = rusqlite::Transaction<'a>;

/// The index file inside an archive directory.
pub const INDEX_FILE: &str = "index.sqlite3";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    sha1 TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,
    size INTEGER NOT NULL,
    complete INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id),
    offset INTEGER NOT NULL,
    length INTEGER NOT NULL,
    warc_record_id TEXT,
    url TEXT NOT NULL,
    urlkey TEXT NOT NULL,
    origin TEXT NOT NULL,
    captured INTEGER NOT NULL,
    status INTEGER NOT NULL,
    mime TEXT,
    digest TEXT NOT NULL,
    last_modified TEXT,
    robots_record INTEGER REFERENCES records(id),
    verdict TEXT,
    embargo_days INTEGER,
    embargo_until INTEGER,
    pending INTEGER NOT NULL DEFAULT 1,
    release_batch INTEGER,
    tombstone_batch INTEGER,
    held INTEGER,
    UNIQUE (file_id, offset)
);
-- The same record in another file (a recompressed copy, say) is indexed once.
CREATE UNIQUE INDEX IF NOT EXISTS records_by_record_id ON records(warc_record_id)
    WHERE warc_record_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_by_url ON records(url, captured);
CREATE INDEX IF NOT EXISTS records_by_urlkey ON records(urlkey, captured);
-- A representation's first observation: the earliest capture of its URL and payload.
CREATE INDEX IF NOT EXISTS records_by_content ON records(url, digest, captured);
CREATE INDEX IF NOT EXISTS records_unreleased_by_origin ON records(origin)
    WHERE release_batch IS NULL;
CREATE INDEX IF NOT EXISTS records_pending ON records(id) WHERE pending = 1;
-- Held revisits stay in it: a release reads it only for ends still to come, which a held
-- revisit (past its end when held) lacks, and one put under embargo again needs a tombstone.
CREATE INDEX IF NOT EXISTS records_untombstoned ON records(embargo_until, id)
    WHERE tombstone_batch IS NULL AND release_batch IS NULL AND embargo_until IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_by_release ON records(release_batch)
    WHERE release_batch IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_by_tombstone ON records(tombstone_batch)
    WHERE tombstone_batch IS NOT NULL;
CREATE TABLE IF NOT EXISTS robots_txt (
    record INTEGER PRIMARY KEY REFERENCES records(id),
    origin TEXT NOT NULL,
    captured INTEGER NOT NULL,
    status INTEGER NOT NULL,
    body BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS robots_by_origin ON robots_txt(origin, captured);
-- A robots.txt capture answering a redirect (RFC 9309 §2.3.1.2; its row in robots_txt
-- keeps the target URL as its body): the target's SURT key, so that a capture of the
-- target ingested after it has the origin's captures assessed again.
CREATE TABLE IF NOT EXISTS robots_redirects (
    record INTEGER PRIMARY KEY REFERENCES robots_txt(record),
    target_key TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS robots_redirects_by_target ON robots_redirects(target_key);
-- Revisit records (WARC 1.1 §6.7): what they name as their original, and the response
-- whose payload they repeat once it is found.
CREATE TABLE IF NOT EXISTS revisits (
    record INTEGER PRIMARY KEY REFERENCES records(id),
    profile TEXT NOT NULL,
    refers_to TEXT,
    refers_to_url TEXT,
    refers_to_date INTEGER,
    declared TEXT,
    has_head INTEGER NOT NULL,
    original INTEGER REFERENCES records(id)
);
CREATE INDEX IF NOT EXISTS revisits_unresolved ON revisits(record) WHERE original IS NULL;
-- The revisits of an original a release has just taken up: held ones go out with it.
CREATE INDEX IF NOT EXISTS revisits_by_original ON revisits(original)
    WHERE original IS NOT NULL;
-- A response's declared digest in another algorithm than SHA-1, checked against its
-- payload, so that a revisit naming its original by that digest finds it.
CREATE TABLE IF NOT EXISTS declared_digests (
    record INTEGER PRIMARY KEY REFERENCES records(id),
    digest TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS declared_digests_by_digest ON declared_digests(digest);
CREATE TABLE IF NOT EXISTS releases (
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    file TEXT NOT NULL,
    state TEXT NOT NULL
);
-- What release files the index did not know published (see `recovery`), until the
-- captures they name are indexed and marked.
CREATE TABLE IF NOT EXISTS published (
    id INTEGER PRIMARY KEY,
    batch INTEGER NOT NULL,
    tombstone INTEGER NOT NULL,
    url TEXT NOT NULL,
    captured INTEGER NOT NULL,
    record_id TEXT,
    digest TEXT
);
";

/// What a release walks: the unpublished records with an embargo end, less the revisits
/// held (`held = 1`) because their original is not released, which would otherwise be
/// walked and put back at every release for as long as they wait (for ever when the
/// original is flagged or not in the archive). Created by [`upgrade`], once an older
/// index has the `held` column it names.
const DUE_INDEX: &str = "
CREATE INDEX IF NOT EXISTS records_due ON records(embargo_until, id)
    WHERE release_batch IS NULL AND embargo_until IS NOT NULL AND held IS NULL;
";

/// How long after a capture a robots.txt capture may come and still govern it: wget,
/// for one, fetches the start page before robots.txt.
pub(crate) const LOOK_AHEAD_SECS: i64 = 24 * 3600;

/// What an indexed revisit record is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Revisit {
    pub profile: RevisitProfile,
    /// The index row of the response whose payload it repeats; `None` while that
    /// response is not in the archive.
    pub original: Option<i64>,
}

/// The first observation of a representation: the earliest capture of URL `?1` with
/// payload digest `?2`. docs/design.md: an embargo runs from when the content was first
/// observed, so a page whose content changes is observed anew.
const FIRST_OBSERVED: &str = "SELECT min(captured) FROM records WHERE url = ?1 AND digest = ?2";

/// When the content with payload `digest` was first observed at `url` ([`FIRST_OBSERVED`]);
/// `None` if no capture holds it.
pub(crate) fn first_observed(
    conn: &Connection,
    url: &str,
    digest: &str,
) -> Result<Option<Timestamp>, Error> {
    let at: Option<i64> = conn
        .prepare_cached(FIRST_OBSERVED)?
        .query_row(params![url, digest], |r| r.get(0))?;
    Ok(at.map(Timestamp::from_unix))
}

/// What the `digest` column holds for a revisit whose content is not known (it declares
/// no digest and its original is not in the archive): a key of its own, so that it is
/// the first observation of its content, shared with no other capture.
pub(crate) fn unknown_content(file_id: i64, offset: u64) -> String {
    format!("{UNKNOWN_CONTENT}{file_id}:{offset}")
}

const UNKNOWN_CONTENT: &str = "unknown:";

/// The `meta` key naming the layout an index is in, and the layout this version writes.
const LAYOUT_KEY: &str = "layout";
const LAYOUT: &str = "5";

/// What opening an index found to bring up to date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Upgrade {
    /// Captures were marked for assessing again.
    reassess: bool,
    /// The stored files must be read again (see [`Index::upgrading`]).
    rescan: bool,
    /// The robots.txt redirects must be read from the store (see
    /// [`Index::redirects_unread`]).
    redirects: bool,
}

/// Brings an index written by an older version up to date as far as SQL alone can; the
/// layout is written once the rescan it may ask for is done, so that a rescan cut short
/// runs again.
///
/// - Older indexes kept the first observation of each URL in a `first_seen` table and
///   ran embargoes from it, so a page that changed after its URL was first seen was
///   released a period after that, not after the new content appeared. First
///   observations are now per representation and read from `records` itself: the table
///   goes, and every unreleased capture is assessed again (what is public stays so).
/// - Their SURT keys left raw the octets that keys now percent-encode: those are redone.
/// - Layouts before 3 kept each response's `WARC-Payload-Digest` as the record spelt it
///   (so one content had as many identities as tools spelling it), and skipped revisit
///   records: the stored files are read again (see [`Index::upgrading`]).
/// - Layouts before 4 had no `held` column, and their `records_due` index held the
///   revisits waiting for an original: the column is added and the index made anew
///   without them. The next release holds the revisits still waiting.
/// - Layouts before 5 kept no robots.txt capture answering 3xx, which now governs
///   through its target (RFC 9309 §2.3.1.2): their `Location` is read from the store
///   (see [`Index::redirects_unread`]), and the layout written after that.
fn upgrade(conn: &mut Connection) -> rusqlite::Result<Upgrade> {
    let tx = conn.transaction()?;
    let layout: Option<String> = tx
        .query_row("SELECT value FROM meta WHERE key = ?1", [LAYOUT_KEY], |r| {
            r.get(0)
        })
        .optional()?;
    if layout.as_deref() == Some(LAYOUT) {
        return Ok(Upgrade {
            reassess: false,
            rescan: false,
            redirects: false,
        });
    }
    let has_held: bool = tx.query_row(
        "SELECT count(*) > 0 FROM pragma_table_info('records') WHERE name = 'held'",
        [],
        |r| r.get(0),
    )?;
    if !has_held {
        tx.execute_batch(
            "ALTER TABLE records ADD COLUMN held INTEGER;
             DROP INDEX IF EXISTS records_due;",
        )?;
    }
    tx.execute_batch(DUE_INDEX)?;
    // Only URLs holding a space, control or non-ASCII octet have keys that changed.
    let raw: Vec<(i64, String)> = tx
        .prepare("SELECT id, url FROM records WHERE urlkey GLOB '*[^!-~]*'")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (id, url) in raw {
        tx.execute(
            "UPDATE records SET urlkey = ?2 WHERE id = ?1",
            params![id, surt(&url)],
        )?;
    }
    let by_url: bool = tx.query_row(
        "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'first_seen'",
        [],
        |r| r.get(0),
    )?;
    if by_url {
        tx.execute_batch(
            "DROP TABLE first_seen;
             UPDATE records SET pending = 1 WHERE release_batch IS NULL;",
        )?;
    }
    let rescan = !matches!(layout.as_deref(), Some("3" | "4"));
    tx.commit()?;
    Ok(Upgrade {
        reassess: by_url,
        rescan,
        redirects: true,
    })
}

/// What the robots.txt in force at capture time said about a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptureVerdict {
    /// Allowed for the archive's agent: published once its embargo (if any) ends.
    Allowed,
    /// Captured although disallowed: never published, never replayed.
    Disallowed,
    /// No robots.txt capture of its origin near enough in time: no known embargo, so
    /// held back until a robots.txt is ingested for it.
    NoRobots,
}

impl CaptureVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            CaptureVerdict::Allowed => "allowed",
            CaptureVerdict::Disallowed => "disallowed",
            CaptureVerdict::NoRobots => "no-robots",
        }
    }

    fn parse(text: &str) -> Option<CaptureVerdict> {
        match text {
            "allowed" => Some(CaptureVerdict::Allowed),
            "disallowed" => Some(CaptureVerdict::Disallowed),
            "no-robots" => Some(CaptureVerdict::NoRobots),
            _ => None,
        }
    }
}

/// Whether a record may be shown at a given time, as `serve`, CDX and `status` say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Access {
    /// Its embargo has ended (or it had none): replayed and released.
    Released,
    /// Allowed, but its embargo has not ended: a tombstone only.
    Embargoed,
    /// Captured while disallowed: a tombstone only, forever.
    Disallowed,
    /// No robots.txt governs it: a tombstone only, until one is ingested.
    NoRobots,
}

impl Access {
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Released => "released",
            Access::Embargoed => "embargoed",
            Access::Disallowed => "disallowed",
            Access::NoRobots => "no-robots",
        }
    }
}

/// What the index says of the capture whose payload a revisit repeats: its verdict and
/// embargo end govern that payload wherever a revisit of it is replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// The index row of the capture holding the payload.
    pub id: i64,
    pub url: String,
    pub captured: Timestamp,
    pub verdict: Option<CaptureVerdict>,
    pub embargo_until: Option<Timestamp>,
}

impl Standing {
    /// Its own access at `at`, as [`Entry::own_access`] says of a capture.
    pub fn access(&self, at: Timestamp) -> Access {
        own_access(self.verdict, self.embargo_until, at)
    }
}

/// A capture's access at `at` from its own verdict and embargo end alone. A record not yet
/// assessed (an ingest was interrupted) counts as having no robots.txt: withheld until the
/// next ingest assesses it.
fn own_access(
    verdict: Option<CaptureVerdict>,
    embargo_until: Option<Timestamp>,
    at: Timestamp,
) -> Access {
    match (verdict, embargo_until) {
        (Some(CaptureVerdict::Allowed), Some(end)) if end <= at => Access::Released,
        (Some(CaptureVerdict::Allowed), Some(_)) => Access::Embargoed,
        (Some(CaptureVerdict::Disallowed), _) => Access::Disallowed,
        _ => Access::NoRobots,
    }
}

/// One indexed capture, as read back for serving, CDX and release.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub id: i64,
    /// The file name in the sealed store.
    pub file: String,
    pub offset: u64,
    pub length: u64,
    pub url: String,
    pub urlkey: String,
    pub captured: Timestamp,
    pub status: u16,
    /// The response's media type; `warc/revisit` for a revisit record, as pywb's CDX.
    pub mime: Option<String>,
    /// The payload's SHA-1, computed by the archive (a revisit's is its original's, or the
    /// one it declares while its original is not in the archive); `None` for a revisit
    /// that declares none and whose original is not in the archive.
    pub digest: Option<Digest>,
    pub warc_record_id: Option<String>,
    pub verdict: Option<CaptureVerdict>,
    pub embargo_days: Option<u32>,
    /// When publication may start; `None` when it never may (flagged records).
    pub embargo_until: Option<Timestamp>,
    /// The index row of the robots.txt capture that governed it.
    pub robots_record: Option<i64>,
    /// The response's Last-Modified header as captured.
    pub last_modified: Option<String>,
    /// The first time the archive observed this representation (this URL with this
    /// payload digest), in any ingested file.
    pub first_observed: Option<Timestamp>,
    /// Set for a revisit record: a capture whose payload is that of an earlier one.
    pub revisit: Option<Revisit>,
    /// For a revisit whose original is in the archive: that original's standing, which
    /// [`Entry::access`] weighs with the revisit's own.
    pub original: Option<Standing>,
}

impl Entry {
    /// Its access at time `at`: the one rule for whether its payload may leave the
    /// archive, which replay, `/cdx`, tombstones and release all read (see the
    /// `disclosure` module). A revisit's payload is its original's, so a revisit is
    /// released only when it and its original both are; otherwise the stricter of the
    /// two withholds it (disallowed before no robots.txt before embargoed).
    pub fn access(&self, at: Timestamp) -> Access {
        let own = self.own_access(at);
        match (&self.original, own) {
            (Some(original), Access::Released) => original.access(at),
            (Some(original), Access::Embargoed) => match original.access(at) {
                Access::Released | Access::Embargoed => Access::Embargoed,
                stricter => stricter,
            },
            (Some(original), Access::NoRobots) if original.access(at) == Access::Disallowed => {
                Access::Disallowed
            }
            _ => own,
        }
    }

    /// Its access at `at` from its own verdict and embargo end alone, whatever the
    /// capture holding its payload says (for a response, the same as [`Entry::access`]).
    pub fn own_access(&self, at: Timestamp) -> Access {
        own_access(self.verdict, self.embargo_until, at)
    }

    /// When its payload may leave the archive: its own embargo end, or for a revisit the
    /// later of its own and its original's; `None` when it never may (as things stand).
    pub fn withheld_until(&self) -> Option<Timestamp> {
        match &self.original {
            None => self.embargo_until,
            Some(original) => match (self.embargo_until, original.embargo_until) {
                (Some(own), Some(theirs)) => Some(own.max(theirs)),
                _ => None,
            },
        }
    }

    /// The capture whose standing withholds this one at `at`, when it is not this one:
    /// the original of a revisit released in its own right.
    pub fn withheld_by_original(&self, at: Timestamp) -> Option<&Standing> {
        self.original.as_ref().filter(|o| {
            let theirs = o.access(at);
            theirs != Access::Released && self.own_access(at) != theirs
        })
    }

    /// The columns [`Entry::from_row`] reads, for `SELECT {ENTRY_COLUMNS} FROM …`.
    pub(crate) const COLUMNS: &'static str = "r.id, f.name, r.offset, r.length, r.url, \
        r.urlkey, r.captured, r.status, r.mime, r.digest, r.warc_record_id, r.verdict, \
        r.embargo_days, r.embargo_until, r.robots_record, r.last_modified, \
        (SELECT min(c.captured) FROM records c WHERE c.url = r.url AND c.digest = r.digest), \
        v.profile, v.original, o.url, o.captured, o.verdict, o.embargo_until";

    pub(crate) fn from_row(row: &Row<'_>) -> rusqlite::Result<Entry> {
        Ok(Entry {
            id: row.get(0)?,
            file: row.get(1)?,
            offset: row.get(2)?,
            length: row.get(3)?,
            url: row.get(4)?,
            urlkey: row.get(5)?,
            captured: Timestamp::from_unix(row.get(6)?),
            status: row.get(7)?,
            mime: row.get(8)?,
            digest: Some(row.get::<_, String>(9)?)
                .filter(|d| !d.starts_with(UNKNOWN_CONTENT))
                .map(Digest::stored),
            warc_record_id: row.get(10)?,
            verdict: row
                .get::<_, Option<String>>(11)?
                .and_then(|v| CaptureVerdict::parse(&v)),
            embargo_days: row.get(12)?,
            embargo_until: row.get::<_, Option<i64>>(13)?.map(Timestamp::from_unix),
            robots_record: row.get(14)?,
            last_modified: row.get(15)?,
            first_observed: row.get::<_, Option<i64>>(16)?.map(Timestamp::from_unix),
            revisit: row
                .get::<_, Option<String>>(17)?
                .and_then(|p| RevisitProfile::parse(&p))
                .map(|profile| {
                    Ok::<_, rusqlite::Error>(Revisit {
                        profile,
                        original: row.get(18)?,
                    })
                })
                .transpose()?,
            original: match row.get::<_, Option<i64>>(18)? {
                None => None,
                Some(id) => Some(Standing {
                    id,
                    url: row.get(19)?,
                    captured: Timestamp::from_unix(row.get(20)?),
                    verdict: row
                        .get::<_, Option<String>>(21)?
                        .and_then(|v| CaptureVerdict::parse(&v)),
                    embargo_until: row.get::<_, Option<i64>>(22)?.map(Timestamp::from_unix),
                }),
            },
        })
    }
}

/// The open index of one archive.
pub struct Index {
    pub(crate) conn: Connection,
    /// Opening it brought an older index up to date and marked captures whose embargo
    /// end may have changed for assessing again.
    pub(crate) upgraded: bool,
    /// The index is of a layout before 3: the stored files must be read again, each
    /// response's digest computed from its payload and the revisit records indexed,
    /// before [`Index::finish_upgrade`].
    pub(crate) upgrading: bool,
    /// The index is of a layout before 5: the robots.txt captures answering 3xx must be
    /// read from the store for their `Location` before [`Index::finish_upgrade`].
    pub(crate) redirects_unread: bool,
}

impl Index {
    /// Opens the index in `dir`, creating it (and its tables) when `create` is set.
    pub fn open(dir: &Path, create: bool) -> Result<Index, Error> {
        let path = dir.join(INDEX_FILE);
        if !create && !path.exists() {
            return Err(Error::NotAnArchive {
                dir: dir.to_owned(),
            });
        }
        let mut conn = Connection::open(&path)?;
        // WAL lets `serve` read while `ingest` or `release` write; FULL sync makes each
        // committed step of a release survive a crash, which exactly-once relies on.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        // Statement journals (one per write that may fail half way) in memory, not in
        // temporary files: no crash-safety role, as they die with the statement; and a
        // page cache of up to 32 MiB, so that ingest's index inserts seldom read back.
        conn.pragma_update(None, "temp_store", "MEMORY")?;
        conn.pragma_update(None, "cache_size", -32 * 1024)?;
        conn.busy_timeout(std::time::Duration::from_secs(30))?;
        conn.execute_batch(SCHEMA)?;
        let upgrade = upgrade(&mut conn)?;
        Ok(Index {
            conn,
            upgraded: upgrade.reassess,
            upgrading: upgrade.rescan,
            redirects_unread: upgrade.redirects,
        })
    }

    /// Begins a write transaction (see [`Tx`]).
    pub(crate) fn begin(&mut self) -> Result<Tx<'_>, Error> {
        Ok(self.conn.transaction()?)
    }

    /// Records that the index is in this version's layout, once the stored files have
    /// been read again.
    pub(crate) fn finish_upgrade(&mut self) -> Result<(), Error> {
        self.set_meta(LAYOUT_KEY, LAYOUT)?;
        self.upgrading = false;
        self.redirects_unread = false;
        Ok(())
    }

    /// A value from the `meta` table.
    pub fn meta(&self, key: &str) -> Result<Option<String>, Error> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    }

    /// Sets a value in the `meta` table.
    pub fn set_meta(&self, key: &str, value: &str) -> Result<(), Error> {
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES (?1, ?2)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            params![key, value],
        )?;
        Ok(())
    }

    /// The captures of `url`, oldest first: every capture whose URL has its SURT key
    /// (however case, default port or `www.` were written, and whether octets a URL may
    /// not hold raw were percent-encoded).
    pub fn captures_of(&self, url: &str) -> Result<Vec<Entry>, Error> {
        self.select(
            "WHERE r.urlkey = ?1 ORDER BY r.captured, r.id",
            params![surt(url)],
        )
    }

    /// The capture of `url` nearest in time to `at` (the earlier one on a tie), among
    /// those of the URL exactly as written if there are any, else among those with its
    /// SURT key.
    pub fn nearest_capture(&self, url: &str, at: Timestamp) -> Result<Option<Entry>, Error> {
        Ok(self
            .select(
                "WHERE r.urlkey = ?1
                 ORDER BY r.url = ?2 DESC, abs(r.captured - ?3), r.captured, r.id LIMIT 1",
                params![surt(url), url, at.unix()],
            )?
            .pop())
    }

    /// The capture in index row `id`.
    pub fn entry(&self, id: i64) -> Result<Option<Entry>, Error> {
        Ok(self.select("WHERE r.id = ?1", [id])?.pop())
    }

    /// Every capture in index order, handed to `each` one at a time as the rows are
    /// read, so that an export of millions of captures never holds them all.
    pub(crate) fn each_entry(
        &self,
        mut each: impl FnMut(Entry) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut stmt = self.conn.prepare(&select_sql("ORDER BY r.id"))?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            each(Entry::from_row(row)?)?;
        }
        Ok(())
    }

    pub(super) fn select(
        &self,
        clause: &str,
        params: impl rusqlite::Params,
    ) -> Result<Vec<Entry>, Error> {
        select(&self.conn, clause, params)
    }
}

/// The capture in index row `id`, read through `conn` (a transaction, too).
pub(crate) fn entry_in(conn: &Connection, id: i64) -> Result<Option<Entry>, Error> {
    Ok(select(conn, "WHERE r.id = ?1", [id])?.pop())
}

/// The query for the entries `clause` (`WHERE …`, `ORDER BY …` on `records r`) selects.
fn select_sql(clause: &str) -> String {
    format!(
        "SELECT {} FROM records r JOIN files f ON f.id = r.file_id
         LEFT JOIN revisits v ON v.record = r.id
         LEFT JOIN records o ON o.id = v.original {clause}",
        Entry::COLUMNS
    )
}

/// The entries `clause` (`WHERE …`, `ORDER BY …` on `records r`) selects, read through
/// `conn` (a transaction, too).
fn select(
    conn: &Connection,
    clause: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<Entry>, Error> {
    let mut stmt = conn.prepare_cached(&select_sql(clause))?;
    let rows = stmt.query_map(params, Entry::from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}
