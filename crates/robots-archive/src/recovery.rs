//! Recovery of what earlier releases published, read back from the public WARC files,
//! so that an index rebuilt (or restored from a backup) never publishes anything twice.
//!
//! docs/design.md: the public files are the record of publication. They are what the world has
//! seen, they outlive any index, and each of their records names the capture it stands
//! for: a released record is a byte-for-byte copy of the stored one (its target URI,
//! WARC-Date, WARC-Record-ID and payload), a tombstone names its capture by
//! WARC-Refers-To, WARC-Refers-To-Target-URI and WARC-Refers-To-Date. A release log
//! kept beside the index would be one more file to lose with it, or to disagree with
//! what was in fact published. So when the index lacks a release file of `public/`,
//! the file's batch is added to `releases` (done; later batches are numbered after it)
//! and its records to `published`; every ingest, and every open, then marks the
//! captures they name as released or tombstoned by that batch, and forgets the rows
//! it matched.

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use crate::capture::{read_response, target_uri, uri_field};
use crate::index::published::{self, Published};
use crate::index::{Index, Tx};
use crate::release::PUBLIC_DIR;
use crate::store::io_error;
use crate::time::Timestamp;
use crate::tombstone::TOMBSTONE_PROFILE;
use crate::warc::{Fields, Reader};
use crate::Error;

/// Adds the release files of `public/` the index does not know, then marks what they
/// published. Cheap when there is nothing to do: one directory listing.
pub(crate) fn recover(index: &mut Index, archive_dir: &Path) -> Result<(), Error> {
    let public = archive_dir.join(PUBLIC_DIR);
    let mut names: Vec<String> = match fs::read_dir(&public) {
        Ok(entries) => entries
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|name| release_name(name).is_some())
            .collect(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_error(&public, e)),
    };
    names.sort();
    let mut unknown = Vec::new();
    for name in names {
        let known = published::release_named(index, &name)?;
        if known.is_none() {
            unknown.push(name);
        }
    }
    if !unknown.is_empty() {
        let tx = index.begin()?;
        for name in &unknown {
            import(&tx, &public, name)?;
        }
        tx.commit()?;
    }
    published::mark(index)
}

/// The batch number and time a release file's name (`release-<n>-<14 digits>.warc.gz`)
/// gives.
fn release_name(name: &str) -> Option<(i64, Timestamp)> {
    let rest = name.strip_prefix("release-")?.strip_suffix(".warc.gz")?;
    let (id, at) = rest.split_once('-')?;
    let id = id.parse().ok()?;
    Some((id, Timestamp::parse_14_digits(at).ok()?))
}

/// Adds release file `name` as a done batch and its records to `published`. A file
/// damaged part way is read up to the damage: what cannot be read cannot be matched,
/// and at worst is published again, never withheld.
fn import(tx: &Tx<'_>, public: &Path, name: &str) -> Result<(), Error> {
    let Some((id, at)) = release_name(name) else {
        return Ok(());
    };
    let batch = published::add_release(tx, id, at, name)?;
    let path = public.join(name);
    let file = File::open(&path).map_err(|e| io_error(&path, e))?;
    let mut reader = Reader::new(BufReader::new(file), &path, 0);
    while let Ok(Some(record)) = reader.next(read_published) {
        if let Some(p) = record.value {
            published::add(tx, batch, &p)?;
        }
    }
    Ok(())
}

/// The visitor reading a public file's record: a released capture (`response` or
/// `revisit`) or a tombstone; `None` for the warcinfo record and anything else.
fn read_published(fields: &Fields, block: &mut dyn BufRead) -> io::Result<Option<Published>> {
    let kind = fields.get("WARC-Type").unwrap_or_default();
    let time = |name| {
        fields
            .get(name)
            .and_then(|d| Timestamp::parse_rfc3339(d).ok())
            .map(Timestamp::unix)
    };
    let tombstone = kind.eq_ignore_ascii_case("revisit")
        && fields.get("WARC-Profile").map(str::trim) == Some(TOMBSTONE_PROFILE);
    if tombstone {
        let (Some(url), Some(captured)) = (
            uri_field(fields, "WARC-Refers-To-Target-URI"),
            time("WARC-Refers-To-Date"),
        ) else {
            return Ok(None);
        };
        return Ok(Some(Published {
            tombstone,
            url,
            captured,
            record_id: fields.get("WARC-Refers-To").map(str::to_owned),
            digest: fields.get("WARC-Payload-Digest").map(str::to_owned),
        }));
    }
    let (Some(url), Some(captured)) = (target_uri(fields), time("WARC-Date")) else {
        return Ok(None);
    };
    let digest = if kind.eq_ignore_ascii_case("response") {
        match read_response(fields, block)? {
            Some(response) => Some(response.digest.as_header().to_owned()),
            None => return Ok(None),
        }
    } else if kind.eq_ignore_ascii_case("revisit") {
        None
    } else {
        return Ok(None);
    };
    Ok(Some(Published {
        tombstone,
        url,
        captured,
        record_id: fields.get("WARC-Record-ID").map(str::to_owned),
        digest,
    }))
}
