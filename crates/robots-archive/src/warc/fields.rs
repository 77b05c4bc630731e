//! A WARC record's header fields and the line reading they share with HTTP heads, and
//! where a record sits in its file.

/// Where a record sits in its file: the byte range of its gzip member, or of the record
/// itself in a plain file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    pub offset: u64,
    pub length: u64,
}

/// The named fields of a WARC record header, in order. Names compare ASCII
/// case-insensitively, as the format requires. Values are text (WARC header values are
/// UTF-8), octets that are not UTF-8 read as U+FFFD; the fields of a captured HTTP head,
/// whose values are octets to be replayed as captured, are kept apart, as bytes.
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
    pub(crate) fn continue_last(&mut self, more: &[u8]) -> bool {
        match self.0.last_mut() {
            Some((_, v)) => {
                let more = String::from_utf8_lossy(more.trim_ascii());
                if !v.is_empty() && !more.is_empty() {
                    v.push(' ');
                }
                v.push_str(&more);
                true
            }
            None => false,
        }
    }
}

/// Splits a `Name: value` line into the name, an ASCII token, and the octets of the value,
/// both without the white space around them; `None` when there is no colon or no name.
/// The value is not decoded: WARC and HTTP each read it as they must.
pub(crate) fn split_field(line: &[u8]) -> Option<(&str, &[u8])> {
    let colon = line.iter().position(|&b| b == b':')?;
    let name = line[..colon].trim_ascii();
    let token = |b: &u8| b.is_ascii_graphic() && !b"()<>@,;:\\\"/[]?={}".contains(b);
    if name.is_empty() || !name.iter().all(token) {
        return None;
    }
    let name = std::str::from_utf8(name).ok()?;
    Some((name, line[colon + 1..].trim_ascii()))
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
