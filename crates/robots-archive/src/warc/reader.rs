//! Streaming WARC reader: one record at a time, its block handed to the caller as a
//! reader, so memory stays constant whatever the size of the file or of a record.

use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::bufread::GzDecoder;

use super::fields::{read_line, split_field, Fields, Location};
use crate::error::{Error, WarcProblem};

/// Longest header line accepted: real headers are far shorter, so a longer one means
/// the reader is not looking at a WARC header.
const MAX_LINE: usize = 64 * 1024;
/// Most header lines accepted in one record, for the same reason.
const MAX_FIELDS: usize = 1024;

/// A record's header fields and where it sits in its file; its block was given to the
/// visitor passed to [`Reader::next`].
#[derive(Debug, Clone)]
pub struct Record<T> {
    pub location: Location,
    pub fields: Fields,
    /// What the visitor made of the block.
    pub value: T,
}

/// Reads records from a WARC file, plain or gzipped per record (detected per record).
pub struct Reader<R> {
    input: Counting<R>,
    path: PathBuf,
}

impl<R: BufRead> Reader<R> {
    /// A reader over `input`, which starts at byte `offset` of the file at `path`
    /// (the path and offsets go into error messages and record locations).
    pub fn new(input: R, path: &Path, offset: u64) -> Reader<R> {
        Reader {
            input: Counting {
                inner: input,
                pos: offset,
            },
            path: path.to_owned(),
        }
    }

    /// The byte position reached in the file.
    pub fn position(&self) -> u64 {
        self.input.pos
    }

    /// Reads the next record, handing its block (exactly Content-Length bytes, or fewer
    /// if the visitor stops early) to `visit`. `Ok(None)` at the end of the file.
    pub fn next<T>(
        &mut self,
        visit: impl FnOnce(&Fields, &mut dyn BufRead) -> io::Result<T>,
    ) -> Result<Option<Record<T>>, Error> {
        let start = self
            .skip_blank_lines()
            .map_err(|e| self.error(e, self.input.pos))?;
        let Some(gzipped) = start else {
            return Ok(None);
        };
        let offset = self.input.pos;
        let read = if gzipped {
            let mut member = BufReader::new(GzDecoder::new(&mut self.input));
            read_record(&mut member, visit).and_then(|(fields, value)| {
                // A member must end with its record: several records in one member
                // cannot be located by offset, so they cannot be served one by one.
                let mut probe = [0u8; 1];
                match member.read(&mut probe)? {
                    0 => Ok((fields, value)),
                    _ => Err(problem(WarcProblem::SeveralRecordsPerMember)),
                }
            })
        } else {
            read_record(&mut self.input, visit)
        };
        let (fields, value) = read.map_err(|e| self.error(e, offset))?;
        let location = Location {
            offset,
            length: self.input.pos - offset,
        };
        Ok(Some(Record {
            location,
            fields,
            value,
        }))
    }

    /// Skips the stray line ends some writers leave between plain records, and tells
    /// whether the next record is gzipped (`None` at the end of the file).
    fn skip_blank_lines(&mut self) -> io::Result<Option<bool>> {
        loop {
            let buf = self.input.fill_buf()?;
            match buf.first() {
                None => return Ok(None),
                Some(b'\r' | b'\n') => self.input.consume(1),
                Some(0x1f) => return Ok(Some(buf.get(1).is_none_or(|&b| b == 0x8b))),
                Some(_) => return Ok(Some(false)),
            }
        }
    }

    fn error(&self, e: io::Error, offset: u64) -> Error {
        let problem = match e.kind() {
            io::ErrorKind::UnexpectedEof => WarcProblem::Truncated,
            io::ErrorKind::Other => match e.get_ref().and_then(|i| i.downcast_ref::<WarcProblem>())
            {
                Some(p) => p.clone(),
                None => {
                    return Error::Io {
                        path: self.path.clone(),
                        error: e,
                    }
                }
            },
            io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput => {
                WarcProblem::BadGzip(e.to_string())
            }
            _ => {
                return Error::Io {
                    path: self.path.clone(),
                    error: e,
                }
            }
        };
        Error::Warc {
            path: self.path.clone(),
            offset,
            problem,
        }
    }
}

fn problem(p: WarcProblem) -> io::Error {
    io::Error::other(p)
}

/// Reads one record: version line, fields, block (through `visit`), and the CRLFCRLF.
fn read_record<B: BufRead, T>(
    input: &mut B,
    visit: impl FnOnce(&Fields, &mut dyn BufRead) -> io::Result<T>,
) -> io::Result<(Fields, T)> {
    let (fields, mut block) = open_block(&mut *input)?;
    let value = visit(&fields, &mut block)?;
    io::copy(&mut block, &mut io::sink())?;
    if block.limit() > 0 {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    let mut end = [0u8; 4];
    input.read_exact(&mut end)?;
    if &end != b"\r\n\r\n" {
        return Err(problem(WarcProblem::BadRecordEnd));
    }
    Ok((fields, value))
}

/// Reads a record's version line and fields, and hands back its block as a reader of
/// exactly Content-Length bytes, for a caller that streams the block on its own (replay
/// sends a payload of any size through bounded buffers). Errors as [`Reader::next`]'s.
pub(crate) fn open_block<B: BufRead>(input: B) -> io::Result<(Fields, io::Take<B>)> {
    let mut input = input;
    // Checked before reading a line, so that a file that is not WARC at all is called
    // that, not "truncated", when it has no line end.
    let peek = input.fill_buf()?;
    let n = peek.len().min(5);
    if let Some((format, command)) = whole_file_compression(peek) {
        return Err(problem(WarcProblem::CompressedWhole { format, command }));
    }
    if peek[..n] != b"WARC/"[..n] {
        let line = peek.split(|&b| b == b'\n').next().unwrap_or_default();
        let found = String::from_utf8_lossy(&line[..line.len().min(40)]).into_owned();
        return Err(problem(WarcProblem::NotAWarcRecord { found }));
    }
    let version = match read_line(&mut input, MAX_LINE)? {
        None => return Err(io::ErrorKind::UnexpectedEof.into()),
        Some(Err(limit)) => return Err(problem(WarcProblem::HeaderTooLong { limit })),
        Some(Ok(line)) => line,
    };
    if version != b"WARC/1.0" && version != b"WARC/1.1" {
        let found = String::from_utf8_lossy(&version[..version.len().min(40)]).into_owned();
        return Err(problem(WarcProblem::NotAWarcRecord { found }));
    }
    let fields = read_fields(&mut input)?;
    let length: u64 = fields
        .get("Content-Length")
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| problem(WarcProblem::NoContentLength))?;
    Ok((fields, input.take(length)))
}

/// The compression, and the command that undoes it, of data starting with the magic
/// number of a format other than gzip: WARC files are gzipped per record or plain, but
/// crawls are often compressed whole for storage, and "not a WARC file" would not say
/// what to do.
fn whole_file_compression(start: &[u8]) -> Option<(&'static str, &'static str)> {
    const FORMATS: [(&[u8], &str, &str); 3] = [
        (b"BZh", "bzip2", "bunzip2 -k"),
        (&[0x28, 0xB5, 0x2F, 0xFD], "zstd", "unzstd"),
        (&[0xFD, b'7', b'z', b'X', b'Z', 0], "xz", "unxz -k"),
    ];
    FORMATS
        .iter()
        .find(|(magic, _, _)| start.starts_with(magic))
        .map(|&(_, format, command)| (format, command))
}

/// Reads `Name: value` lines up to the empty line that ends a header.
pub(crate) fn read_fields<B: BufRead + ?Sized>(input: &mut B) -> io::Result<Fields> {
    let mut fields = Fields::new();
    for _ in 0..MAX_FIELDS {
        let line = match read_line(input, MAX_LINE)? {
            None => return Err(io::ErrorKind::UnexpectedEof.into()),
            Some(Err(limit)) => return Err(problem(WarcProblem::HeaderTooLong { limit })),
            Some(Ok(line)) => line,
        };
        if line.is_empty() {
            return Ok(fields);
        }
        if matches!(line.first(), Some(b' ' | b'\t')) && fields.continue_last(&line) {
            continue;
        }
        match split_field(&line) {
            Some((name, value)) => fields.push(name, String::from_utf8_lossy(value)),
            None => {
                let line = String::from_utf8_lossy(&line).chars().take(80).collect();
                return Err(problem(WarcProblem::BadHeader { line }));
            }
        }
    }
    Err(problem(WarcProblem::HeaderTooLong { limit: MAX_LINE }))
}

/// Counts the bytes consumed from a buffered reader, so that records can be located
/// in a gzipped file by where each member starts and ends.
struct Counting<R> {
    inner: R,
    pos: u64,
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.inner.consume(amt);
        self.pos += amt as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn records(bytes: &[u8]) -> Result<Vec<(Location, Fields, Vec<u8>)>, Error> {
        let mut reader = Reader::new(bytes, Path::new("t.warc"), 0);
        let mut out = Vec::new();
        while let Some(r) = reader.next(|_, block| {
            let mut v = Vec::new();
            block.read_to_end(&mut v)?;
            Ok(v)
        })? {
            out.push((r.location, r.fields, r.value));
        }
        Ok(out)
    }

    const TWO: &[u8] = b"WARC/1.1\r\nWARC-Type: resource\r\nX-Long: a\r\n  b\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n\r\nWARC/1.0\nContent-Length: 0\n\n\r\n\r\n";

    #[test]
    fn plain_records_with_folding_and_stray_line_ends() {
        let r = records(TWO).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].1.get("x-long"), Some("a b"));
        assert_eq!(r[0].2, b"abc");
        assert_eq!(
            r[0].0,
            Location {
                offset: 0,
                length: 75
            }
        );
        assert_eq!(r[1].0.offset, 77, "the stray CRLF is skipped");
        assert!(r[1].2.is_empty());
    }

    #[test]
    fn bad_headers_are_named() {
        let e = records(b"WARC/1.0\r\nno colon here\r\n\r\n").unwrap_err();
        assert!(e.to_string().contains("no colon here"), "{e}");
        let e = records(b"WARC/1.0\r\nWARC-Type: x\r\n\r\n").unwrap_err();
        assert!(matches!(
            e,
            Error::Warc {
                problem: WarcProblem::NoContentLength,
                ..
            }
        ));
        let e = records(b"WARC/1.0\r\nContent-Length: 1\r\n\r\nxy\r\n\r\n").unwrap_err();
        assert!(matches!(
            e,
            Error::Warc {
                problem: WarcProblem::BadRecordEnd,
                offset: 0,
                ..
            }
        ));
    }

    proptest! {
        #[test]
        fn any_bytes_give_records_or_an_error_never_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            let _ = records(&bytes);
        }

        #[test]
        fn damaged_records_give_records_or_an_error(cut in 0usize..120, flip in 0usize..120, bit in 0u8..8) {
            let mut bytes = TWO.to_vec();
            let i = flip % bytes.len();
            bytes[i] ^= 1 << bit;
            bytes.truncate(cut.min(bytes.len()));
            let _ = records(&bytes);
        }
    }
}
