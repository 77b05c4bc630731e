//! One CDXJ line of a capture as pywb writes it: pywb's SURT key, the 14-digit time, and
//! JSON with pywb's fields (numbers as strings), plus embargo end and access if asked.

use serde::Serialize;

use crate::index::Entry;
use crate::pywb::pywb_key;
use crate::time::Timestamp;

/// The JSON of one CDXJ line, in pywb's field order (numbers as strings, as pywb writes
/// them), plus this archive's embargo end and access at the export's time.
#[derive(Serialize)]
struct CdxjFields<'a> {
    pub url: &'a str,
    pub mime: &'a str,
    pub status: String,
    pub digest: String,
    pub length: String,
    pub offset: String,
    pub filename: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embargo_until: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access: Option<&'static str>,
}

/// One CDXJ line for `e`, located at `offset`/`length` in `filename`, with its embargo
/// end and access at `at` when `standing` is set.
pub(crate) fn cdxj_line(
    e: &Entry,
    filename: &str,
    offset: u64,
    length: u64,
    standing: Option<Timestamp>,
) -> String {
    let fields = CdxjFields {
        url: &e.url,
        mime: e.mime.as_deref().unwrap_or("unk"),
        status: e.status.to_string(),
        digest: e
            .digest
            .as_ref()
            .map_or("-".to_owned(), |d| d.as_header().to_owned()),
        length: length.to_string(),
        offset: offset.to_string(),
        filename,
        embargo_until: standing.and_then(|_| e.withheld_until().map(|t| t.rfc3339())),
        access: standing.map(|at| e.access(at).as_str()),
    };
    format!(
        "{} {} {}",
        pywb_key(&e.url),
        e.captured.fourteen_digits(),
        serde_json::to_string(&fields).unwrap_or_default()
    )
}
