//! A WACZ package (1.1.1, the version `wacz validate` checks) of what is public at a
//! time: the released records only, each read through the disclosure gate.
//!
//! Inside: `archive/data.warc.gz` (the released records, copied byte for byte as a
//! release copies them), `indexes/index.cdx` (its CDXJ index), `pages/pages.jsonl` (its
//! HTML pages answering 200), `datapackage.json` (every file's SHA-256 and size) and
//! `datapackage-digest.json` (the hash of `datapackage.json`). Entries are stored
//! uncompressed, as the WACZ specification requires of the WARC files, so that a replay
//! tool can read a record by its offset.

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

use serde::Serialize;
use sha2::{Digest as _, Sha256};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use super::cdxj::cdxj_line;
use super::sorted::{self, SortedLines};
use crate::disclosure::publishable;
use crate::index::{Access, Entry};
use crate::store::io_error;
use crate::time::Timestamp;
use crate::warc::Writer;
use crate::{Archive, Error};

/// The WACZ version written.
pub const WACZ_VERSION: &str = "1.1.1";

const WARC_NAME: &str = "data.warc.gz";

#[derive(Serialize)]
struct Resource {
    name: String,
    path: String,
    hash: String,
    bytes: u64,
}

/// Scratch files beside the package, removed when it is written or when writing stops.
struct Scratch(Vec<std::path::PathBuf>);

impl Scratch {
    /// `out` with `suffix` appended, removed with the rest.
    fn file(&mut self, out: &Path, suffix: &str) -> std::path::PathBuf {
        let mut name = out.as_os_str().to_owned();
        name.push(suffix);
        let path = std::path::PathBuf::from(name);
        self.0.push(path.clone());
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        for path in &self.0 {
            let _ = fs::remove_file(path);
        }
    }
}

/// Writes the WACZ of what is public at `at` to `out`; returns the records and pages in it.
/// The captures are read from the index one at a time and the index lines sorted in
/// bounded memory ([`SortedLines`]), so an archive of any size fits.
pub(crate) fn write(archive: &Archive, at: Timestamp, out: &Path) -> Result<(u64, u64), Error> {
    let mut scratch = Scratch(Vec::new());
    // The WARC first, beside the package, to know each record's place in it; the pages
    // as they come; the index lines sorted, then written out.
    let warc_path = scratch.file(out, ".warc");
    let pages_path = scratch.file(out, ".pages");
    let index_path = scratch.file(out, ".cdx");
    let mut index = SortedLines::new(&index_path, sorted::BUDGET, false);
    let (mut records, mut page_count) = (0u64, 0u64);
    {
        let wio = |e| io_error(&warc_path, e);
        let pio = |e| io_error(&pages_path, e);
        let mut w = Writer::new(BufWriter::new(File::create(&warc_path).map_err(wio)?));
        let mut pages = BufWriter::new(File::create(&pages_path).map_err(pio)?);
        pages
            .write_all(
                b"{\"format\":\"json-pages-1.0\",\"id\":\"pages\",\"title\":\"Released pages\"}\n",
            )
            .map_err(pio)?;
        let mut stored_records = archive.store().reader();
        archive.index().each_entry(|e| {
            if e.access(at) != Access::Released {
                return Ok(());
            }
            // The gate: refused unless the record is released at `at`.
            let stored = publishable(&mut stored_records, &e, at)?;
            let place = if stored.gzipped {
                w.write_member(&stored.raw).map_err(wio)?
            } else {
                w.write_plain_record(&stored.raw).map_err(wio)?
            };
            index.push(cdxj_line(&e, WARC_NAME, place.offset, place.length, None))?;
            records += 1;
            if is_page(&e) {
                let id = hex(&Sha256::digest(format!("{} {}", e.captured.unix(), e.url)))[..32]
                    .to_owned();
                let line = serde_json::json!({"id": id, "url": e.url, "ts": e.captured.rfc3339()});
                pages.write_all(line.to_string().as_bytes()).map_err(pio)?;
                pages.write_all(b"\n").map_err(pio)?;
                page_count += 1;
            }
            Ok(())
        })?;
        w.finish().map_err(wio)?.flush().map_err(wio)?;
        pages.flush().map_err(pio)?;
    }
    {
        let iio = |e| io_error(&index_path, e);
        let mut w = BufWriter::new(File::create(&index_path).map_err(iio)?);
        index.write_to(&mut w)?;
        w.flush().map_err(iio)?;
    }

    let zio = |e: zip::result::ZipError| io_error(out, io::Error::other(e));
    let oio = |e| io_error(out, e);
    let mut zip = ZipWriter::new(BufWriter::new(File::create(out).map_err(oio)?));
    let created = Timestamp::now();
    let mut stored = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Stored)
        .large_file(true);
    if let Some(time) = zip_time(created) {
        stored = stored.last_modified_time(time);
    }
    // Each file copied in whole, hashed as it goes.
    let mut resources = Vec::new();
    for (name, path) in [
        (format!("archive/{WARC_NAME}"), &warc_path),
        ("indexes/index.cdx".to_owned(), &index_path),
        ("pages/pages.jsonl".to_owned(), &pages_path),
    ] {
        let io = |e| io_error(path, e);
        zip.start_file(&name, stored).map_err(zio)?;
        let mut hasher = Sha256::new();
        let mut bytes = 0u64;
        let mut reader = BufReader::new(File::open(path).map_err(io)?);
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = reader.read(&mut buf).map_err(io)?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
            zip.write_all(&buf[..n]).map_err(oio)?;
            bytes += n as u64;
        }
        resources.push(resource(&name, hex(&hasher.finalize()), bytes));
    }
    let package = serde_json::json!({
        "profile": "data-package",
        "title": "Released captures",
        "description": format!("What this archive had released at {}", at.rfc3339()),
        "created": created.rfc3339(),
        "wacz_version": WACZ_VERSION,
        "software": format!("robots-archive {}", env!("CARGO_PKG_VERSION")),
        "resources": resources,
    });
    let package = serde_json::to_vec_pretty(&package).unwrap_or_default();
    zip.start_file("datapackage.json", stored).map_err(zio)?;
    zip.write_all(&package).map_err(oio)?;
    let digest = serde_json::json!({
        "path": "datapackage.json",
        "hash": format!("sha256:{}", hex(&Sha256::digest(&package))),
    });
    zip.start_file("datapackage-digest.json", stored)
        .map_err(zio)?;
    zip.write_all(&serde_json::to_vec_pretty(&digest).unwrap_or_default())
        .map_err(oio)?;
    zip.finish()
        .map_err(zio)?
        .into_inner()
        .map_err(|e| oio(e.into_error()))?
        .sync_all()
        .map_err(oio)?;
    drop(scratch);
    Ok((records, page_count))
}

fn resource(path: &str, hash: String, bytes: u64) -> Resource {
    Resource {
        name: path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase(),
        path: path.to_owned(),
        hash: format!("sha256:{hash}"),
        bytes,
    }
}

/// An HTML page answering 200, as a visitor would open it (not a revisit's record).
fn is_page(e: &Entry) -> bool {
    e.status == 200
        && e.revisit.is_none()
        && e.mime
            .as_deref()
            .is_some_and(|m| m.eq_ignore_ascii_case("text/html") || m.starts_with("text/html;"))
}

/// `t` as a ZIP entry's time (UTC; ZIP keeps no zone), when ZIP can hold it (1980–2107).
fn zip_time(t: Timestamp) -> Option<zip::DateTime> {
    let text = t.rfc3339();
    let n = |r: std::ops::Range<usize>| text.get(r)?.parse::<u16>().ok();
    zip::DateTime::from_date_and_time(
        n(0..4)?,
        n(5..7)? as u8,
        n(8..10)? as u8,
        n(11..13)? as u8,
        n(14..16)? as u8,
        n(17..19)? as u8,
    )
    .ok()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
