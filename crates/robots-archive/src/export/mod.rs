//! Export for the tools archivists replay and exchange with: a CDXJ index of every
//! capture, pywb's access-control rules (`.aclj`) as of a time, and a WACZ of what is public.
//!
//! pywb and ReplayWeb.page look captures up by pywb's own SURT key ([`crate::pywb_key`]), so the
//! exported files carry that key, not the `/cdx` one. pywb's embargoes are per
//! collection; per-URL withholding is its access-control list, where `block` answers
//! 451 and `exclude` 404 (pywb's `AccessChecker`). A rule names a URL, not a capture, so
//! a URL with any capture withheld at the export's time is withheld whole: pywb never
//! shows more than this archive would, and may show less.

mod cdxj;
mod sorted;
mod wacz;

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use serde::Serialize;

use self::cdxj::cdxj_line;
use self::sorted::SortedLines;

pub use wacz::WACZ_VERSION;

use crate::index::Access;
use crate::pywb::pywb_key;
use crate::store::io_error;
use crate::time::Timestamp;
use crate::{Archive, Error};

/// What `export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// Every capture, as pywb's CDXJ: `<key> <timestamp> <json>`, sorted bytewise.
    Cdxj,
    /// What is public at the time given, as a WACZ package.
    Wacz,
    /// pywb's access-control rules for what is withheld at the time given.
    Aclj,
}

/// What an export wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportReport {
    /// The file written.
    pub file: PathBuf,
    /// CDXJ lines, access rules, or records packed in the WACZ.
    pub lines: u64,
    /// For a WACZ, the HTML pages it lists in `pages/pages.jsonl`.
    pub pages: u64,
}

/// Every capture's CDXJ line, to be written sorted bytewise (the order pywb's binary
/// search needs); runs past `budget` bytes spill to files named after `scratch`.
pub(crate) fn cdxj(
    archive: &Archive,
    at: Timestamp,
    scratch: &Path,
    budget: usize,
) -> Result<SortedLines, Error> {
    let mut lines = SortedLines::new(scratch, budget, false);
    archive
        .index()
        .each_entry(|e| lines.push(cdxj_line(&e, &e.file, e.offset, e.length, Some(at))))?;
    Ok(lines)
}

/// pywb's access rule for the URLs whose captures are withheld at `at`: `exclude` (404)
/// where a capture was taken while disallowed, else `block` (451) where one is under
/// embargo or governed by no robots.txt yet. Exact-match keys (pywb's `###` suffix), so
/// that a rule for `/a` says nothing of `/ab`; reverse-sorted, as pywb reads them, the
/// longest key first.
pub(crate) fn aclj(archive: &Archive, at: Timestamp, scratch: &Path) -> Result<SortedLines, Error> {
    // One rule a URL: held by key until every capture is seen (an `exclude` wins), so
    // this keeps the withheld URLs in memory, not every capture.
    let mut rules: BTreeMap<String, (&'static str, String)> = BTreeMap::new();
    archive.index().each_entry(|e| {
        let access = match e.access(at) {
            Access::Released => return Ok(()),
            Access::Disallowed => "exclude",
            Access::Embargoed | Access::NoRobots => "block",
        };
        let key = format!("{}###", pywb_key(&e.url));
        let rule = rules.entry(key).or_insert((access, e.url));
        if access == "exclude" {
            rule.0 = access;
        }
        Ok(())
    })?;
    #[derive(Serialize)]
    struct Rule<'a> {
        access: &'a str,
        url: &'a str,
    }
    let mut lines = SortedLines::new(scratch, sorted::BUDGET, true);
    for (key, (access, url)) in rules {
        let rule = serde_json::to_string(&Rule { access, url: &url }).unwrap_or_default();
        lines.push(format!("{key} - {rule}"))?;
    }
    Ok(lines)
}

/// Writes `format` of `archive` at `at` to `out`: first to `<out>.part`, renamed into
/// place when whole, so that a tool reading `out` never sees half a file.
pub(crate) fn export(
    archive: &Archive,
    format: ExportFormat,
    at: Timestamp,
    out: &Path,
) -> Result<ExportReport, Error> {
    let mut part = out.as_os_str().to_owned();
    part.push(".part");
    let part = PathBuf::from(part);
    let io = |e| io_error(&part, e);
    let (lines, pages) = match format {
        ExportFormat::Cdxj | ExportFormat::Aclj => {
            // CDXJ ascending; access rules descending, as pywb reads them (the longest
            // key first).
            let lines = if format == ExportFormat::Cdxj {
                cdxj(archive, at, &part, sorted::BUDGET)?
            } else {
                aclj(archive, at, &part)?
            };
            let mut w = BufWriter::new(File::create(&part).map_err(io)?);
            let count = lines.write_to(&mut w)?;
            w.into_inner()
                .map_err(|e| io(e.into_error()))?
                .sync_all()
                .map_err(io)?;
            (count, 0)
        }
        ExportFormat::Wacz => wacz::write(archive, at, &part)?,
    };
    fs::rename(&part, out).map_err(|e| io_error(out, e))?;
    Ok(ExportReport {
        file: out.to_owned(),
        lines,
        pages,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::warc::{Fields, Writer};

    /// An archive of a robots.txt and `pages` pages, some disallowed, captured in 2026.
    fn archive(dir: &Path, pages: usize) -> Archive {
        let warc = dir.join("crawl.warc.gz");
        let mut w = Writer::new(BufWriter::new(File::create(&warc).unwrap()));
        let mut write = |i: usize, url: &str, body: &[u8]| {
            let mut f = Fields::new();
            f.push("WARC-Type", "response");
            f.push(
                "WARC-Record-ID",
                format!("<urn:uuid:00000000-0000-4000-8000-{i:012}>"),
            );
            f.push(
                "WARC-Date",
                Timestamp::from_unix(1_767_225_600 + i as i64).rfc3339(),
            );
            f.push("WARC-Target-URI", url);
            f.push("Content-Type", "application/http; msgtype=response");
            let mut block = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
                body.len()
            )
            .into_bytes();
            block.extend_from_slice(body);
            w.write_record(&f, &block).unwrap();
        };
        write(
            0,
            "http://example.test/robots.txt",
            b"User-agent: *\nArchive-Embargo: w\nDisallow: /private\n",
        );
        for i in 1..=pages {
            let dir = if i % 5 == 0 { "private" } else { "page" };
            // Numbered backwards, so that index order is not key order.
            write(
                i,
                &format!("http://example.test/{dir}/{}", pages - i),
                b"<p>x</p>",
            );
        }
        w.finish().unwrap();
        let mut archive = Archive::create(&dir.join("a"), "ExampleArchiver").unwrap();
        archive.ingest(&warc, &mut |_| {}).unwrap();
        archive
    }

    /// An export that spills its lines to run files writes what one sorted in memory
    /// writes, and leaves no run file behind.
    #[test]
    fn a_cdxj_export_past_its_budget_is_the_same_export() {
        let dir = tempfile::tempdir().unwrap();
        let archive = archive(dir.path(), 300);
        let at = Timestamp::from_unix(1_767_225_600 + 86_400);
        let written = |budget: usize| {
            let scratch = dir.path().join(format!("out-{budget}"));
            let lines = cdxj(&archive, at, &scratch, budget).unwrap();
            let mut out = Vec::new();
            let count = lines.write_to(&mut out).unwrap();
            (count, String::from_utf8(out).unwrap())
        };
        let (small_count, small) = written(2_000);
        let (count, whole) = written(sorted::BUDGET);
        assert_eq!((small_count, count), (301, 301));
        assert_eq!(small, whole);
        let keys: Vec<&str> = whole
            .lines()
            .map(|l| l.split(' ').next().unwrap())
            .collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "sorted by key");
        let left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.contains(".run"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}
