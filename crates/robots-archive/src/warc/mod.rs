//! WARC (ISO 28500, versions 1.0 and 1.1): records as header fields plus a block, read
//! and written one record at a time, plain or gzipped one member per record.

mod reader;
mod writer;

pub use reader::{Reader, Record};
pub use writer::Writer;

/// Where a record sits in its file: the byte range of its gzip member, or of the record
/// itself in a plain file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    pub offset: u64,
    pub length: u64,
}

/// The named fields of a WARC record header (or of an HTTP message head), in order.
/// Names compare ASCII case-insensitively, as both formats require.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fields(Vec<(String, String)>);

impl Fields {
    /// No fields.
    pub fn new() -> Fields {
        Fields(Vec::new())
    }

    /// Appends a field.
    pub fn push(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.0.push((name.into(), value.into()));
    }

    /// The first value of `name`, if present.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// All fields in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Whether there are no fields.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Appends a continuation line (obsolete line folding) to the last value, joined by
    /// one space. White space never starts or ends a value (RFC 9112 §5.2 and §5.5), so
    /// a blank line or an empty value gains no space, and the value reads the same once
    /// written on one line.
    pub(crate) fn continue_last(&mut self, more: &str) -> bool {
        match self.0.last_mut() {
            Some((_, v)) => {
                let more = more.trim();
                if !v.is_empty() && !more.is_empty() {
                    v.push(' ');
                }
                v.push_str(more);
                true
            }
            None => false,
        }
    }
}

/// Splits `Name: value` into its trimmed parts; `None` when there is no colon or no name.
pub(crate) fn split_field(line: &str) -> Option<(&str, &str)> {
    let (name, value) = line.split_once(':')?;
    let name = name.trim();
    let token = |c: char| c.is_ascii_graphic() && !"()<>@,;:\\\"/[]?={}".contains(c);
    (!name.is_empty() && name.chars().all(token)).then(|| (name, value.trim()))
}

/// Reads one line ending in LF (CR before it is dropped), at most `limit` bytes long.
/// `Ok(None)` at end of input before any byte; `Err(too_long)` past the limit.
pub(crate) fn read_line<B: std::io::BufRead + ?Sized>(
    input: &mut B,
    limit: usize,
) -> std::io::Result<Option<Result<Vec<u8>, usize>>> {
    let mut line = Vec::new();
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return if line.is_empty() {
                Ok(None)
            } else {
                Err(std::io::ErrorKind::UnexpectedEof.into())
            };
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        line.extend_from_slice(&buf[..take]);
        input.consume(take);
        if line.len() > limit {
            return Ok(Some(Err(limit)));
        }
        if done {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Some(Ok(line)));
        }
    }
}
