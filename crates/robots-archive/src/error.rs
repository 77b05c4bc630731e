//! Everything that can go wrong in the archive, each with what was wrong and what to do.
//! WARC format problems carry the file and byte offset so a damaged file can be found.

use std::path::PathBuf;

/// What went wrong while reading, indexing, serving or releasing an archive.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    // The I/O error is shown in the message and not also given as `source()`: a
    // caller printing the chain (anyhow's `{:#}`) would otherwise show it twice.
    #[error("{path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path}, byte {offset}: {problem}")]
    Warc {
        path: PathBuf,
        offset: u64,
        problem: WarcProblem,
    },
    // Not `#[from]`, which would also make the database error the `source()` and so
    // have it printed twice by whoever prints the chain; `From` is implemented below.
    #[error("the archive index failed: {0}; if the index is damaged, move it away and ingest the stored WARC files (store/*) again with the archive's --agent; keep public/ as it is: the new index reads from its release files what earlier releases published, so nothing is published twice")]
    Index(rusqlite::Error),
    #[error("`{value}` is not a valid time: give {expected}")]
    BadTime {
        value: String,
        expected: &'static str,
    },
    #[error(transparent)]
    Agent(#[from] robots::Error),
    #[error("{dir} is not an archive (no index.sqlite3 in it); run `robots archive ingest {dir} …` first to create one")]
    NotAnArchive { dir: PathBuf },
    #[error("the archive's agent is `{stored}` but `{given}` was given; an archive keeps one agent so that every verdict in it means the same thing; use a new archive directory for another agent")]
    AgentMismatch { stored: String, given: String },
    #[error("the stored WARC file {file} is missing; the sealed store was changed: restore it from a backup, or ingest again the WARC file it was copied from (the same content is stored under the same name)")]
    StoreMissing { file: PathBuf },
    #[error("the stored WARC file {file} does not hold the record the index expects at byte {offset}; the sealed store was changed: restore it from a backup")]
    StoreMismatch { file: String, offset: u64 },
    #[error("the capture of {url} at {captured} is {access}: its payload may not leave the archive, yet a release planned to publish it; nothing was published; report this fault of the archive's index")]
    Withheld {
        url: String,
        captured: String,
        access: &'static str,
    },
}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Error {
        Error::Index(e)
    }
}

/// How a WARC file breaks the format (ISO 28500, WARC 1.0 and 1.1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WarcProblem {
    #[error("the file is empty, and a WARC file holds at least one record; was the crawl stopped before it wrote any? Crawl again, or leave this file out")]
    Empty,
    #[error("expected a record starting with `WARC/1.0` or `WARC/1.1`, found {found:?}; is this a WARC file?")]
    NotAWarcRecord { found: String },
    #[error("the file is compressed with {format}, but WARC files are read plain or gzipped per record: decompress it (e.g. `{command}`) and ingest the .warc file")]
    CompressedWhole {
        format: &'static str,
        command: &'static str,
    },
    #[error("the file ends in the middle of a record; the crawl was probably interrupted: re-run it or cut the file before this record")]
    Truncated,
    #[error("a record header line is longer than {limit} bytes; the file is damaged here: re-run the crawl, or cut the file before this record")]
    HeaderTooLong { limit: usize },
    #[error("malformed header line {line:?} (expected `Name: value`); the file is damaged here: re-run the crawl, or cut the file before this record")]
    BadHeader { line: String },
    #[error("the record has no valid Content-Length header; the file is damaged here: re-run the crawl, or cut the file before this record")]
    NoContentLength,
    #[error("the record block is not followed by the two CRLFs that end a record (a wrong Content-Length, or damage); re-run the crawl, or cut the file before this record")]
    BadRecordEnd,
    #[error("one gzip member holds more than one record; the file was compressed whole: recompress it per record (e.g. `warcio recompress in.warc.gz out.warc.gz`)")]
    SeveralRecordsPerMember,
    #[error("the gzip data is corrupt ({0}); the file is damaged here: re-run the crawl, or cut the file before this record")]
    BadGzip(String),
}

/// The query parameters `/cdx` supports.
pub(crate) const CDX_PARAMETERS: [&str; 6] = ["url", "matchType", "from", "to", "limit", "output"];

/// Why a `/cdx` query is refused: a parameter or value the listing does not support is
/// named rather than ignored, since ignoring it would answer another question.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CdxProblem {
    #[error("give the URL to list: /cdx?url=<url>&output=json")]
    NoUrl,
    #[error("the parameter `{name}` is not supported; this CDX server takes {}", CDX_PARAMETERS.join(", "))]
    Unsupported { name: String },
    #[error("the parameter `{name}` is given more than once; give it once")]
    Repeated { name: String },
    #[error("`{name}={value}` is not supported: give {expected}")]
    BadValue {
        name: &'static str,
        value: String,
        expected: &'static str,
    },
    #[error("the URL `{url}` asks for matchType={implied} by its `*`, but matchType={given} was given; give one of them")]
    Conflict {
        url: String,
        implied: &'static str,
        given: &'static str,
    },
}
