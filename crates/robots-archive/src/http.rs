//! The HTTP response a WARC `response` record holds: status line and fields, then the
//! payload, with chunked transfer coding (and for robots.txt, content coding) undone.
//!
//! A head is read with httparse (allowing obsolete line folding, whose lines are joined
//! by one space). The hand-written reader stays for the heads httparse refuses, since
//! crawlers keep what servers sent and the archive has always indexed these captures
//! (tests `status_lines_split_on_http_white_space_only`,
//! `malformed_fields_are_dropped_and_the_rest_read`, and the property
//! `a_head_read_and_written_out_reads_back_the_same`, whose heads hold bare CRs and
//! stray colons): a status line whose words are split by other white space than one SP
//! (RFC 9112 §4 lets a recipient read HTAB, VT, FF and bare CR as SP) or start after
//! some, a version other than `HTTP/1.x`, and a malformed field line (no colon, an
//! empty name or one with white space or separators in it, a value with a control
//! octet), which is dropped while the fields after it are read, where httparse fails
//! the whole head. httparse's own option for that
//! (`ignore_invalid_headers_in_responses`) was not used: it drops other lines than this
//! reader did (`Name : value`, which this reader keeps as `Name`), a change of what
//! archives already hold. The property `httparse_and_the_lenient_reader_agree` checks
//! that on every head httparse reads, the two agree. Both read the same lines, with the
//! same limits ([`MAX_LINE`], [`MAX_FIELDS`]).

use std::borrow::Cow;
use std::io::{self, BufRead, Read};

use flate2::read::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

use crate::warc::{read_line, split_field};

/// Longest status or field line accepted in a captured response head.
const MAX_LINE: usize = 64 * 1024;
/// Most fields accepted in a captured response head.
const MAX_FIELDS: usize = 512;

/// A captured response's status and header fields, as [`ResponseHead::read`] reads them
/// from the block of a WARC `response` record (see [`crate::warc::Reader`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResponseHead {
    /// The status code, from 100 to 599.
    pub status: u16,
    /// The status line as captured (`HTTP/1.1 200 OK`), its reason phrase in whatever
    /// octets the server sent.
    pub status_line: Vec<u8>,
    pub fields: HeaderFields,
}

/// The fields of a captured HTTP head, in order. Names are ASCII tokens and compare
/// case-insensitively. Values are the octets captured, never decoded: HTTP lets a value
/// hold any octet from 0x80 up (`obs-text`, RFC 9110 §5.5), often Latin-1 as in
/// `filename="caf\xE9.pdf"`, and a replay must send back what was captured, not U+FFFD.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeaderFields(Vec<(String, Vec<u8>)>);

impl HeaderFields {
    /// No fields.
    pub fn new() -> HeaderFields {
        HeaderFields(Vec::new())
    }

    /// The first value of `name`, as captured.
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.0
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }

    /// The first value of `name` as text, octets that are not UTF-8 read as U+FFFD: for
    /// the fields whose values are ASCII (codings, media types, dates), where any other
    /// octet leaves the value unusable either way.
    pub fn text(&self, name: &str) -> Option<Cow<'_, str>> {
        self.get(name).map(String::from_utf8_lossy)
    }

    /// All fields in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_slice()))
    }

    /// Appends a continuation line (obsolete line folding) to the last value, joined by
    /// one space, as WARC fields are (see `warc::Fields`): no white space starts or
    /// ends a value, so the value reads the same once written on one line.
    fn continue_last(&mut self, more: &[u8]) -> bool {
        match self.0.last_mut() {
            Some((_, v)) => {
                let more = more.trim_ascii();
                if !v.is_empty() && !more.is_empty() {
                    v.push(b' ');
                }
                v.extend_from_slice(more);
                true
            }
            None => false,
        }
    }
}

impl ResponseHead {
    /// Reads a response head from the start of a record block. `Ok(None)` when the block
    /// is not an HTTP response (some crawlers store other protocols): such records are
    /// not indexed.
    pub fn read(input: &mut dyn BufRead) -> io::Result<Option<ResponseHead>> {
        let Some((status, lines)) = head_lines(input)? else {
            return Ok(None);
        };
        Ok(match parse_with_httparse(&lines) {
            Ok(head) => head,
            Err(Refused) => parse_leniently(status, lines),
        })
    }

    /// Whether the payload is in chunked transfer coding.
    pub fn is_chunked(&self) -> bool {
        self.fields
            .text("Transfer-Encoding")
            .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"))
    }

    /// The payload that follows this head (`rest`, the block after it), chunked
    /// transfer coding undone.
    pub fn payload(&self, rest: &[u8]) -> Vec<u8> {
        if self.is_chunked() {
            dechunk(rest)
        } else {
            rest.to_vec()
        }
    }

    /// This stored head updated by a 304 (Not Modified) answer, as a cache updates a
    /// stored response (RFC 9111 §3.2): each field the 304 carries replaces that field,
    /// or is added. The fields that describe the stored payload's framing and coding
    /// (Content-Length, Transfer-Encoding, Content-Encoding) stay, since the payload
    /// sent with the head is the stored one.
    pub fn updated_by(&self, not_modified: &ResponseHead) -> ResponseHead {
        const KEPT: [&str; 3] = ["content-length", "transfer-encoding", "content-encoding"];
        let kept = |name: &str| KEPT.iter().any(|k| k.eq_ignore_ascii_case(name));
        let replaced = |name: &str| {
            !kept(name)
                && not_modified
                    .fields
                    .iter()
                    .any(|(n, _)| n.eq_ignore_ascii_case(name))
        };
        let mut fields: Vec<(String, Vec<u8>)> = self
            .fields
            .iter()
            .filter(|(n, _)| !replaced(n))
            .map(|(n, v)| (n.to_owned(), v.to_vec()))
            .collect();
        fields.extend(
            not_modified
                .fields
                .iter()
                .filter(|(n, _)| !kept(n))
                .map(|(n, v)| (n.to_owned(), v.to_vec())),
        );
        ResponseHead {
            status: self.status,
            status_line: self.status_line.clone(),
            fields: HeaderFields(fields),
        }
    }

    /// The media type without parameters, lower-cased (`text/html`), if given.
    pub fn mime(&self) -> Option<String> {
        let v = self.fields.text("Content-Type")?;
        let mime = v.split(';').next()?.trim().to_ascii_lowercase();
        (!mime.is_empty()).then_some(mime)
    }

    /// The head as it was sent: status line, fields, empty line, each as the octets
    /// captured (but for folded lines, joined, and malformed fields, dropped).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.status_line.clone();
        out.extend_from_slice(b"\r\n");
        for (name, value) in self.fields.iter() {
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(b": ");
            out.extend_from_slice(value);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"\r\n");
        out
    }
}

/// The lines of a head (the status line, then each field or continuation line, CR LF
/// removed) up to the empty line that ends it, which is consumed, with the status code;
/// `None` when the first line is not an HTTP status line (nothing more is read), the
/// input ends first, a line is longer than [`MAX_LINE`], or more than [`MAX_FIELDS`]
/// lines follow the status line.
fn head_lines(input: &mut dyn BufRead) -> io::Result<Option<(u16, Vec<Vec<u8>>)>> {
    let Some(Ok(status_line)) = read_line(input, MAX_LINE).or_else(eof_is_none)? else {
        return Ok(None);
    };
    let Some(status) = status_of(&status_line) else {
        return Ok(None);
    };
    let mut lines = vec![status_line];
    for _ in 0..MAX_FIELDS {
        let Some(Ok(line)) = read_line(input, MAX_LINE).or_else(eof_is_none)? else {
            return Ok(None);
        };
        if line.is_empty() {
            return Ok(Some((status, lines)));
        }
        lines.push(line);
    }
    Ok(None)
}

/// Why httparse could not read a head, which [`parse_leniently`] then reads.
#[derive(Debug)]
struct Refused;

/// Reads a head with httparse, strict but for obsolete line folding: `Err` for any head
/// it refuses (see the module docs for what [`parse_leniently`] reads instead).
fn parse_with_httparse(lines: &[Vec<u8>]) -> Result<Option<ResponseHead>, Refused> {
    let mut bytes = Vec::with_capacity(lines.iter().map(|l| l.len() + 2).sum::<usize>() + 2);
    for line in lines {
        bytes.extend_from_slice(line);
        bytes.extend_from_slice(b"\r\n");
    }
    bytes.extend_from_slice(b"\r\n");
    let mut headers = [httparse::EMPTY_HEADER; MAX_FIELDS];
    let mut response = httparse::Response::new(&mut headers);
    let parsed = httparse::ParserConfig::default()
        .allow_obsolete_multiline_headers_in_responses(true)
        .parse_response(&mut response, &bytes);
    if !matches!(parsed, Ok(httparse::Status::Complete(n)) if n == bytes.len()) {
        return Err(Refused);
    }
    let status = response.code.ok_or(Refused)?;
    if !(100..=599).contains(&status) {
        return Ok(None);
    }
    let mut fields = HeaderFields::new();
    for header in response.headers.iter() {
        // A folded value holds its line breaks: its lines are joined by one space, as
        // [`HeaderFields::continue_last`] joins them.
        let mut value = Vec::with_capacity(header.value.len());
        for part in header.value.split(|&b| b == b'\n') {
            let part = part.trim_ascii();
            if !value.is_empty() && !part.is_empty() {
                value.push(b' ');
            }
            value.extend_from_slice(part);
        }
        // Joined, the field is one line when the head is written out (replay, release);
        // longer than a line may be, it would not read back.
        if header.name.len() + value.len() + 4 > MAX_LINE && header.value.contains(&b'\n') {
            return Ok(None);
        }
        fields.0.push((header.name.to_owned(), value));
    }
    Ok(Some(ResponseHead {
        status,
        status_line: lines[0].clone(),
        fields,
    }))
}

/// Reads a head httparse refuses, as servers send them and crawlers keep them: words of
/// the status line split on any white space RFC 9112 §4 allows, a version other than
/// 1.x, and a malformed field line dropped while the rest are read.
fn parse_leniently(status: u16, mut lines: Vec<Vec<u8>>) -> Option<ResponseHead> {
    let status_line = std::mem::take(&mut lines[0]);
    let mut fields = HeaderFields::new();
    for line in &lines[1..] {
        if matches!(line.first(), Some(b' ' | b'\t')) && fields.continue_last(line) {
            // Joined, the field is one line (`name: value` and CRLF) when the head
            // is written out (replay, release); longer than a line may be, it would
            // not read back.
            if fields
                .0
                .last()
                .is_some_and(|(n, v)| n.len() + v.len() + 4 > MAX_LINE)
            {
                return None;
            }
            continue;
        }
        // A malformed field is dropped, not fatal: servers send odd headers, and
        // the payload after them is still the capture.
        if let Some((name, value)) = split_field(line) {
            fields.0.push((name.to_owned(), value.to_vec()));
        }
    }
    Some(ResponseHead {
        status,
        status_line,
        fields,
    })
}

/// The status code of an HTTP/x status line, if it is one, with a code from 100 to 599.
/// Its words are split on the white space RFC 9112 §4 lets a recipient read as SP, white
/// space before the version ignored, as it also allows; no other octet separates them
/// (a UTF-8 no-break space is not white space in HTTP).
fn status_of(line: &[u8]) -> Option<u16> {
    let mut words = line.split(|&b| is_http_space(b)).filter(|w| !w.is_empty());
    words.next().filter(|v| v.starts_with(b"HTTP/"))?;
    let code = words
        .next()
        .filter(|c| c.len() == 3 && c.iter().all(u8::is_ascii_digit))?;
    let code = code.iter().fold(0, |n, d| n * 10 + u16::from(d - b'0'));
    (100..=599).contains(&code).then_some(code)
}

/// SP, HTAB, VT, FF and bare CR: the white space of a status line (RFC 9112 §4).
fn is_http_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0B | 0x0C | b'\r')
}

fn eof_is_none<T>(e: io::Error) -> io::Result<Option<T>> {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        Ok(None)
    } else {
        Err(e)
    }
}

/// Undoes chunked transfer coding (RFC 9112 §7.1). A body cut short or malformed yields
/// what could be decoded: replay shows what was captured, no more.
pub fn dechunk(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    // Reading from a slice fails on nothing, and a malformed body ends the output.
    let _ = Dechunked::new(body).read_to_end(&mut out);
    out
}

/// Chunked transfer coding undone as a stream (RFC 9112 §7.1), so that a payload of any
/// size is replayed through a bounded buffer; [`dechunk`] is this over a slice. Chunk
/// extensions and trailers are dropped; a size line that is not hexadecimal, or input
/// that ends, ends the payload.
pub(crate) struct Dechunked<R> {
    input: R,
    /// Octets left in the current chunk; `None` between chunks.
    left: Option<u64>,
    done: bool,
}

/// Longest chunk-size line read (size and extensions); a longer one ends the payload.
const MAX_CHUNK_LINE: usize = 64 * 1024;

impl<R: BufRead> Dechunked<R> {
    pub(crate) fn new(input: R) -> Dechunked<R> {
        Dechunked {
            input,
            left: None,
            done: false,
        }
    }

    /// Reads the next chunk-size line: the chunk's size, or `None` at the end.
    fn next_size(&mut self) -> io::Result<Option<u64>> {
        let Some(Ok(line)) = read_line(&mut self.input, MAX_CHUNK_LINE).or_else(eof_is_none)?
        else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&line);
        let size = text.split(';').next().unwrap_or("").trim();
        Ok(u64::from_str_radix(size, 16).ok().filter(|&n| n > 0))
    }
}

impl<R: BufRead> Read for Dechunked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.done || buf.is_empty() {
            return Ok(0);
        }
        let left = match self.left {
            Some(left) => left,
            None => match self.next_size()? {
                Some(size) => size,
                None => {
                    self.done = true;
                    return Ok(0);
                }
            },
        };
        let available = self.input.fill_buf()?;
        if available.is_empty() {
            self.done = true;
            return Ok(0);
        }
        let n = available.len().min(buf.len()).min(left as usize);
        buf[..n].copy_from_slice(&available[..n]);
        self.input.consume(n);
        let left = left - n as u64;
        if left > 0 {
            self.left = Some(left);
            return Ok(n);
        }
        // The CRLF after a chunk's data. A lone CR is consumed too, which the next size
        // line's trimming would drop anyway; a lone LF is left, to end the payload as the
        // empty size line it starts.
        self.left = None;
        if self.input.fill_buf()?.first() == Some(&b'\r') {
            self.input.consume(1);
            if self.input.fill_buf()?.first() == Some(&b'\n') {
                self.input.consume(1);
            }
        }
        Ok(n)
    }
}

/// Undoes the content codings of a payload (RFC 9110 §8.4.1: listed in the order they
/// were applied), keeping at most `limit` decoded octets. `None` when a coding is not
/// one of `gzip`, `x-gzip`, `deflate` (zlib, or the raw deflate some servers send) and
/// `identity`, or its data is damaged: the payload cannot be read.
pub fn decode_content(head: &ResponseHead, payload: Vec<u8>, limit: usize) -> Option<Vec<u8>> {
    let Some(codings) = head.fields.text("Content-Encoding") else {
        return Some(payload);
    };
    let codings: Vec<String> = codings
        .split(',')
        .map(|c| c.trim().to_ascii_lowercase())
        .filter(|c| !c.is_empty() && c != "identity")
        .collect();
    let mut body = payload;
    for coding in codings.iter().rev() {
        let decoded = |reader: &mut dyn Read| {
            let mut out = Vec::new();
            reader.take(limit as u64).read_to_end(&mut out).ok()?;
            Some(out)
        };
        body = match coding.as_str() {
            "gzip" | "x-gzip" => decoded(&mut MultiGzDecoder::new(&body[..]))?,
            "deflate" => decoded(&mut ZlibDecoder::new(&body[..]))
                .or_else(|| decoded(&mut DeflateDecoder::new(&body[..])))?,
            _ => return None,
        };
    }
    Some(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_a_response_head_and_leaves_the_payload() {
        let mut input: &[u8] =
            b"HTTP/1.1 404 Not Found\r\nContent-Type: Text/HTML; charset=utf-8\r\nX: a\r\n b\r\n\r\nbody";
        let head = ResponseHead::read(&mut input).unwrap().unwrap();
        assert_eq!(head.status, 404);
        assert_eq!(head.mime().as_deref(), Some("text/html"));
        assert_eq!(head.fields.get("x"), Some(&b"a b"[..]));
        assert_eq!(input, b"body");
        // A blank continuation line adds nothing, not a trailing space.
        let mut input: &[u8] = b"HTTP/1.1 200 OK\r\nX: a\r\n\t\r\n \r\nY:\r\n b\r\n\r\n";
        let head = ResponseHead::read(&mut input).unwrap().unwrap();
        assert_eq!(head.fields.get("x"), Some(&b"a"[..]));
        assert_eq!(head.fields.get("y"), Some(&b"b"[..]), "nor a leading one");
    }

    #[test]
    fn values_and_reason_phrases_keep_the_octets_captured() {
        let captured: &[u8] = b"HTTP/1.1 200 Tr\xE8s bien\r\nContent-Disposition: attachment; \
            filename=\"caf\xE9.pdf\"\r\nX: \xFF\r\n \xC3\xA9\r\n\r\n";
        let head = ResponseHead::read(&mut &captured[..]).unwrap().unwrap();
        assert_eq!(
            head.fields.get("content-disposition"),
            Some(&b"attachment; filename=\"caf\xE9.pdf\""[..])
        );
        assert_eq!(head.fields.get("x"), Some(&b"\xFF \xC3\xA9"[..]));
        assert_eq!(
            head.to_bytes(),
            b"HTTP/1.1 200 Tr\xE8s bien\r\nContent-Disposition: attachment; \
            filename=\"caf\xE9.pdf\"\r\nX: \xFF \xC3\xA9\r\n\r\n"
        );
    }

    #[test]
    fn malformed_fields_are_dropped_and_the_rest_read() {
        let captured: &[u8] = b"HTTP/1.1 200 OK\r\nA: 1\r\nno colon here\r\n: no name\r\n\
            Bad Name: x\r\nX-Ctl: a\x01b\r\nB : 2\r\nC: 3\r\n\r\nbody";
        let mut input = captured;
        let head = ResponseHead::read(&mut input).unwrap().unwrap();
        assert_eq!(input, b"body");
        assert_eq!(
            head.to_bytes(),
            b"HTTP/1.1 200 OK\r\nA: 1\r\nX-Ctl: a\x01b\r\nB: 2\r\nC: 3\r\n\r\n"
        );
        // httparse refuses such a head whole, so the lenient reader read it.
        let (_, lines) = head_lines(&mut &captured[..]).unwrap().unwrap();
        assert!(parse_with_httparse(&lines).is_err());
        // An ordinary head, folded or not, is httparse's.
        let (_, lines) = head_lines(&mut &b"HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n"[..])
            .unwrap()
            .unwrap();
        let head = parse_with_httparse(&lines).unwrap().unwrap();
        assert_eq!(head.fields.get("x"), Some(&b"a b"[..]));
    }

    #[test]
    fn non_http_blocks_are_not_responses() {
        for block in [
            &b"GET / HTTP/1.1\r\n\r\n"[..],
            b"HTTP/1.1 20 OK\r\n\r\n",
            b"HTTP/1.1 200 OK\r\n",
        ] {
            let mut input = block;
            assert_eq!(ResponseHead::read(&mut input).unwrap(), None);
        }
    }

    #[test]
    fn a_folded_field_is_held_to_the_length_of_a_line() {
        let head = |half: usize| {
            let mut block = b"HTTP/1.1 200 OK\r\nX: ".to_vec();
            block.extend(std::iter::repeat_n(b'a', half));
            block.extend_from_slice(b"\r\n ");
            block.extend(std::iter::repeat_n(b'b', half));
            block.extend_from_slice(b"\r\n\r\n");
            ResponseHead::read(&mut &block[..]).unwrap()
        };
        // `X: `, the joining space and CRLF: 6 octets besides the value's halves.
        let longest = head((MAX_LINE - 6) / 2).expect("a field a line can hold");
        let written = longest.to_bytes();
        let back = ResponseHead::read(&mut &written[..]).unwrap();
        assert!(
            back.as_ref() == Some(&longest),
            "a head written out reads back"
        );
        // One more octet each side and the written line would be too long to read back.
        assert!(head((MAX_LINE - 6) / 2 + 1).is_none());
    }

    #[test]
    fn status_lines_split_on_http_white_space_only() {
        let status = |line: &[u8]| {
            let block = [line, b"\r\n\r\n"].concat();
            ResponseHead::read(&mut &block[..])
                .unwrap()
                .map(|h| h.status)
        };
        // RFC 9112 §4: SP, HTAB, VT, FF or bare CR between words, any before the version.
        assert_eq!(status(b"\x0c HTTP/1.1\x0b404\tNot Found"), Some(404));
        assert_eq!(status(b"HTTP/1.1\r200\rOK"), Some(200));
        // A no-break space (U+00A0 in UTF-8) or an ideographic space is not HTTP's.
        assert_eq!(status(b"HTTP/1.1\xC2\xA0200 OK"), None);
        assert_eq!(status("HTTP/1.1\u{3000}200 OK".as_bytes()), None);
        assert_eq!(status(b"HTTP/1.1 +20 OK"), None);
    }

    #[test]
    fn a_304_updates_the_stored_head_but_not_its_payload_framing() {
        let read = |text: &[u8]| ResponseHead::read(&mut &text[..]).unwrap().unwrap();
        let stored = read(
            b"HTTP/1.1 200 OK\r\nDate: old\r\nContent-Type: text/html\r\n\
              Transfer-Encoding: chunked\r\nSet-Cookie: a\r\nSet-Cookie: b\r\n\r\n",
        );
        let not_modified = read(
            b"HTTP/1.1 304 Not Modified\r\nDate: new\r\nSet-Cookie: c\r\n\
              Content-Length: 0\r\nX-New: 1\r\n\r\n",
        );
        let updated = stored.updated_by(&not_modified);
        assert_eq!(
            updated.to_bytes(),
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\
              Date: new\r\nSet-Cookie: c\r\nX-New: 1\r\n\r\n"
        );
        assert_eq!(updated.payload(b"3\r\nabc\r\n0\r\n\r\n"), b"abc");
    }

    #[test]
    fn dechunks_and_survives_garbage() {
        assert_eq!(
            dechunk(b"4\r\nWiki\r\n5;x=y\r\npedia\r\n0\r\n\r\n"),
            b"Wikipedia"
        );
        assert_eq!(dechunk(b"ff\r\nshort"), b"short");
        assert_eq!(dechunk(b"zz\r\n"), b"");
    }

    fn head_with(encoding: &str) -> ResponseHead {
        let text = format!("HTTP/1.1 200 OK\r\nContent-Encoding: {encoding}\r\n\r\n");
        ResponseHead::read(&mut text.as_bytes()).unwrap().unwrap()
    }

    fn encoded(coding: &str, body: &[u8]) -> Vec<u8> {
        use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};
        use flate2::Compression;
        use std::io::Write;
        let level = Compression::default();
        match coding {
            "gzip" => {
                let mut e = GzEncoder::new(Vec::new(), level);
                e.write_all(body).unwrap();
                e.finish().unwrap()
            }
            "zlib" => {
                let mut e = ZlibEncoder::new(Vec::new(), level);
                e.write_all(body).unwrap();
                e.finish().unwrap()
            }
            _ => {
                let mut e = DeflateEncoder::new(Vec::new(), level);
                e.write_all(body).unwrap();
                e.finish().unwrap()
            }
        }
    }

    #[test]
    fn content_codings_are_undone_in_reverse_order_up_to_the_limit() {
        let body = b"User-agent: *\nDisallow: /private\n";
        let plain = |h: &str, payload: Vec<u8>| decode_content(&head_with(h), payload, 1000);
        assert_eq!(plain("gzip", encoded("gzip", body)).unwrap(), body);
        assert_eq!(plain("X-Gzip", encoded("gzip", body)).unwrap(), body);
        assert_eq!(plain("deflate", encoded("zlib", body)).unwrap(), body);
        assert_eq!(plain("deflate", encoded("raw", body)).unwrap(), body);
        assert_eq!(plain("identity", body.to_vec()).unwrap(), body);
        let twice = encoded("gzip", &encoded("zlib", body));
        assert_eq!(plain("deflate, gzip", twice).unwrap(), body);
        let cut = decode_content(&head_with("gzip"), encoded("gzip", body), 10).unwrap();
        assert_eq!(cut, &body[..10]);
        // What cannot be decoded is not read as a body at all.
        assert_eq!(plain("br", body.to_vec()), None);
        assert_eq!(plain("gzip", body.to_vec()), None);
    }

    /// Short lines of octets that heads are made of, CR, LF and colons among them.
    fn head_bytes() -> impl Strategy<Value = Vec<u8>> {
        let octets = b"HTTP/1.1 200 OK\r\n:\t ab\xFF".to_vec();
        proptest::collection::vec(proptest::sample::select(octets), 0..200)
    }

    fn octets(set: &'static [u8], len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(proptest::sample::select(set.to_vec()), len)
    }

    /// A field line, mostly well formed (some folded), sometimes not.
    fn field_line() -> impl Strategy<Value = Vec<u8>> {
        let name = octets(b"Xa-1!~", 1..6);
        let value = || octets(b"ab :\t\xFF\xC3\xA9\"=;", 0..12);
        prop_oneof![
            6 => (name, value(), octets(b" \t", 0..3)).prop_map(|(n, v, sp)| {
                [n, b":".to_vec(), sp, v].concat()
            }),
            2 => (octets(b" \t", 1..3), value()).prop_map(|(sp, v)| [sp, v].concat()),
            1 => head_bytes(),
        ]
    }

    proptest! {
        /// A captured head is replayed by writing it out again (`to_bytes`): read back,
        /// it must be the head that was read, whatever odd bytes it held.
        #[test]
        fn a_head_read_and_written_out_reads_back_the_same(
            status in 100u16..600,
            rest in head_bytes(),
            payload in proptest::collection::vec(any::<u8>(), 0..20),
        ) {
            let mut bytes = format!("HTTP/1.1 {status} ").into_bytes();
            bytes.extend_from_slice(&rest);
            bytes.extend_from_slice(b"\r\n\r\n");
            bytes.extend_from_slice(&payload);
            let mut input = &bytes[..];
            let Some(head) = ResponseHead::read(&mut input).unwrap() else {
                return Err(TestCaseError::fail("a head with a status line and an end"));
            };
            prop_assert_eq!(head.status, status);
            let written = head.to_bytes();
            let mut again = &written[..];
            prop_assert_eq!(ResponseHead::read(&mut again).unwrap(), Some(head));
            prop_assert!(again.is_empty());
        }

        /// On every head httparse reads, it reads what the lenient reader would: the
        /// lenient reader is the archive's behaviour of record, httparse its fast path.
        #[test]
        fn httparse_and_the_lenient_reader_agree(
            status in 100u16..600,
            reason in octets(b"OK ab\t\xFF", 0..8),
            lines in proptest::collection::vec(field_line(), 0..8),
        ) {
            let mut bytes = format!("HTTP/1.1 {status} ").into_bytes();
            bytes.extend_from_slice(&reason);
            for line in &lines {
                bytes.extend_from_slice(b"\r\n");
                bytes.extend_from_slice(line);
            }
            bytes.extend_from_slice(b"\r\n\r\n");
            let Some((status, lines)) = head_lines(&mut &bytes[..]).unwrap() else {
                return Ok(());
            };
            if let Ok(head) = parse_with_httparse(&lines) {
                prop_assert_eq!(head, parse_leniently(status, lines));
            }
        }

        /// Any bytes: a head with a valid status, on a line whose first word (white space
        /// before it ignored, RFC 9112 §4) is an HTTP version, or none; never a panic.
        #[test]
        fn any_bytes_give_a_head_or_none(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let mut input = &bytes[..];
            if let Some(head) = ResponseHead::read(&mut input).unwrap() {
                prop_assert!((100..=599).contains(&head.status));
                let code = head.status.to_string();
                let mut words = head.status_line.split(|&b| is_http_space(b)).filter(|w| !w.is_empty());
                prop_assert!(words.next().is_some_and(|v| v.starts_with(b"HTTP/")));
                prop_assert_eq!(words.next(), Some(code.as_bytes()));
            }
        }

        /// Chunks written in chunked coding, with extensions and either case of hex
        /// digits, decode to their concatenation; cut anywhere, to a prefix of it.
        #[test]
        fn dechunk_undoes_chunked_coding(
            chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 1..40), 0..6),
            upper in any::<bool>(),
            cut in any::<proptest::sample::Index>(),
        ) {
            let mut coded = Vec::new();
            for chunk in &chunks {
                let size = if upper { format!("{:X}", chunk.len()) } else { format!("{:x}", chunk.len()) };
                coded.extend_from_slice(format!("{size};ext=1\r\n").as_bytes());
                coded.extend_from_slice(chunk);
                coded.extend_from_slice(b"\r\n");
            }
            coded.extend_from_slice(b"0\r\n\r\n");
            let whole = chunks.concat();
            prop_assert_eq!(dechunk(&coded), whole.clone());
            let part = dechunk(&coded[..cut.index(coded.len() + 1)]);
            prop_assert!(whole.starts_with(&part));
        }
    }
}
