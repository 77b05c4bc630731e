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
mod wacz;

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use self::cdxj::cdxj_line;

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

/// Every capture's CDXJ line, sorted bytewise (the order pywb's binary search needs).
pub(crate) fn cdxj(archive: &Archive, at: Timestamp) -> Result<Vec<String>, Error> {
    let mut lines: Vec<String> = archive
        .index()
        .all_entries()?
        .iter()
        .map(|e| cdxj_line(e, &e.file, e.offset, e.length, Some(at)))
        .collect();
    lines.sort_unstable();
    Ok(lines)
}

/// pywb's access rule for the URLs whose captures are withheld at `at`: `exclude` (404)
/// where a capture was taken while disallowed, else `block` (451) where one is under
/// embargo or governed by no robots.txt yet. Exact-match keys (pywb's `###` suffix), so
/// that a rule for `/a` says nothing of `/ab`; reverse-sorted, as pywb reads them, the
/// longest key first.
pub(crate) fn aclj(archive: &Archive, at: Timestamp) -> Result<Vec<String>, Error> {
    let mut rules: BTreeMap<String, (&'static str, String)> = BTreeMap::new();
    for e in archive.index().all_entries()? {
        let access = match e.access(at) {
            Access::Released => continue,
            Access::Disallowed => "exclude",
            Access::Embargoed | Access::NoRobots => "block",
        };
        let key = format!("{}###", pywb_key(&e.url));
        let rule = rules.entry(key).or_insert((access, e.url.clone()));
        if access == "exclude" {
            rule.0 = access;
        }
    }
    #[derive(Serialize)]
    struct Rule<'a> {
        access: &'a str,
        url: &'a str,
    }
    let mut lines: Vec<String> = rules
        .iter()
        .map(|(key, (access, url))| {
            let rule = serde_json::to_string(&Rule { access, url }).unwrap_or_default();
            format!("{key} - {rule}")
        })
        .collect();
    lines.sort_unstable_by(|a, b| b.cmp(a));
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
            let lines = if format == ExportFormat::Cdxj {
                cdxj(archive, at)?
            } else {
                aclj(archive, at)?
            };
            let mut w = BufWriter::new(File::create(&part).map_err(io)?);
            for line in &lines {
                w.write_all(line.as_bytes()).map_err(io)?;
                w.write_all(b"\n").map_err(io)?;
            }
            w.into_inner()
                .map_err(|e| io(e.into_error()))?
                .sync_all()
                .map_err(io)?;
            (lines.len() as u64, 0)
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
