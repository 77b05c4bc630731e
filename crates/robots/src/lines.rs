//! Splitting robots.txt bytes into numbered lines and `key: value` pairs.
//! Owns the line-level syntax of RFC 9309 §2.2 and the lenient forms real files use.

use crate::behaviour::Behaviour;
use crate::scan::{Marks, BLOCK};

/// Google keeps at most this many bytes of a line (its buffer is 2083 × 8 bytes,
/// one of which ends the C string); the rest of the line is dropped.
pub(crate) const GOOGLE_MAX_LINE: usize = 2083 * 8 - 1;

/// One physical line: its 1-based number, where it starts in the file, its bytes
/// without the line ending, and where in them the first `:` and the first `#` are.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line<'a> {
    pub number: u32,
    pub start: usize,
    pub bytes: &'a [u8],
    pub colon: Option<usize>,
    pub hash: Option<usize>,
}

/// Iterates the lines of a body. Lines end at LF, CR or CRLF (RFC 9309 §2.2); the text
/// after the last line ending is a line too, even when empty.
///
/// The body is read a block of [`BLOCK`] octets at a time, as bit masks ([`Marks`]): a
/// line's end, colon and `#` are the lowest bits at or after its start, so one pass over
/// the body finds them all.
pub(crate) struct Lines<'a> {
    data: &'a [u8],
    pos: usize,
    number: u32,
    done: bool,
    /// Where the block `marks` describes starts (a multiple of [`BLOCK`]).
    block: usize,
    marks: Marks,
}

impl<'a> Lines<'a> {
    /// `start` is where the first line begins (after a byte-order mark).
    pub fn new(data: &'a [u8], start: usize) -> Self {
        Lines {
            data,
            pos: start,
            number: 0,
            done: false,
            block: 0,
            marks: Marks::of(data, 0),
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    // Inlined into the parser's loop: called out of line, a line and its marks went
    // through memory, which cost more than the search (64 M instructions per corpus).
    #[inline(always)]
    fn next(&mut self) -> Option<Line<'a>> {
        if self.done {
            return None;
        }
        let start = self.pos;
        self.number += 1;
        let (mut colon, mut hash) = (None, None);
        let mut at = start;
        // The line's end, noting the first colon and `#` on the way, block by block.
        let end = loop {
            if at >= self.block + BLOCK {
                self.block = at - at % BLOCK;
                self.marks = Marks::of(self.data, self.block);
            }
            let from = !0u64 << (at - self.block);
            let ends = self.marks.ends & from;
            // The bits of this block that are still on the line.
            let on_line = if ends == 0 {
                from
            } else {
                from & ((ends & ends.wrapping_neg()) - 1)
            };
            let first = |mask: u64| {
                (mask != 0).then(|| self.block + mask.trailing_zeros() as usize - start)
            };
            colon = colon.or_else(|| first(self.marks.colons & on_line));
            hash = hash.or_else(|| first(self.marks.hashes & on_line));
            if ends != 0 {
                break Some(self.block + ends.trailing_zeros() as usize);
            }
            at = self.block + BLOCK;
            if at >= self.data.len() {
                break None;
            }
        };
        let end = match end {
            Some(end) => {
                let crlf = self.data[end] == b'\r' && self.data.get(end + 1) == Some(&b'\n');
                self.pos = end + 1 + usize::from(crlf);
                end
            }
            None => {
                self.done = true;
                self.data.len()
            }
        };
        Some(Line {
            number: self.number,
            start,
            bytes: &self.data[start..end],
            colon,
            hash,
        })
    }
}

/// The lines of a body as the parser numbers them: 1-based number and byte range
/// (without the line ending), so that tools can show the line a verdict names.
///
/// ```
/// let lines: Vec<_> = robots::source_lines(b"a\r\nb").collect();
/// assert_eq!(lines, [(1, 0..1), (2, 3..4)]);
/// ```
pub fn source_lines(body: &[u8]) -> impl Iterator<Item = (u32, std::ops::Range<usize>)> + '_ {
    Lines::new(body, bom_len(body)).map(|l| (l.number, l.start..l.start + l.bytes.len()))
}

/// How many bytes of a UTF-8 byte-order mark open the body. Like Google, any prefix
/// of the mark is skipped, so a damaged mark (`EF BB` alone) does not hide line 1.
pub(crate) fn bom_len(data: &[u8]) -> usize {
    const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
    data.iter().zip(BOM).take_while(|(a, b)| **a == *b).count()
}

/// A `key: value` pair split out of one line, with offsets relative to the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyValue<'a> {
    pub key: &'a [u8],
    pub key_at: usize,
    pub value: &'a [u8],
    pub value_at: usize,
    /// The key and value were separated by whitespace, not a colon.
    pub missing_colon: bool,
}

/// What a line holds once comments and whitespace are set aside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineContent<'a> {
    /// Nothing, or only a comment.
    Empty,
    /// Text that is not `key: value` (no colon and not exactly two words).
    Junk,
    Pair(KeyValue<'a>),
}

/// ASCII white space as C's `isspace` sees it, which is what Google trims.
pub(crate) fn is_space(b: u8) -> bool {
    // All of it is at or below the space, and most octets of a line are above it: one
    // comparison rules them out.
    b <= b' ' && matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// Trims white space from both ends; returns the offset of what is kept.
pub(crate) fn trim(bytes: &[u8]) -> (usize, &[u8]) {
    let start = bytes
        .iter()
        .position(|&b| !is_space(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(start, |e| e + 1);
    (start, &bytes[start..end])
}

/// Splits a line into key and value: `#` starts a comment, the first `:` separates, and
/// a line with no colon but exactly two words is read as `key value`. Inlined into the
/// parser's loop over lines, the pair it returns is not written out and read back.
#[inline(always)]
pub(crate) fn split_line<'a>(line: &Line<'a>, behaviour: &Behaviour) -> LineContent<'a> {
    let mut text = line.bytes;
    let (mut colon, mut hash) = (line.colon, line.hash);
    if behaviour.google_line_limits {
        // Google reads a line as a C string: a NUL ends it, and it is capped in length.
        if let Some(nul) = memchr::memchr(0, text) {
            text = &text[..nul];
        }
        text = &text[..text.len().min(GOOGLE_MAX_LINE)];
        colon = colon.filter(|&at| at < text.len());
        hash = hash.filter(|&at| at < text.len());
    }
    // A comment cuts the line; a colon inside it separates nothing.
    if let Some(hash) = hash {
        text = &text[..hash];
        colon = colon.filter(|&at| at < hash);
    }
    let (offset, text, sep, missing_colon) = match colon {
        // A colon is not white space, so the line is not blank; key and value are
        // trimmed on their own.
        Some(colon) => (0, text, colon, false),
        None => {
            let (offset, text) = trim(text);
            if text.is_empty() {
                return LineContent::Empty;
            }
            match two_words(text) {
                Some(space) => (offset, text, space, true),
                None => return LineContent::Junk,
            }
        }
    };
    let (key_off, key) = trim(&text[..sep]);
    if key.is_empty() {
        return LineContent::Junk;
    }
    let (value_off, value) = trim(&text[sep + 1..]);
    // An empty value sits right after the separator, not after the blanks that follow.
    let value_off = if value.is_empty() { 0 } else { value_off };
    LineContent::Pair(KeyValue {
        key,
        key_at: offset + key_off,
        value,
        value_at: offset + sep + 1 + value_off,
        missing_colon,
    })
}

/// Where the white space between exactly two words starts, if the text is two words.
fn two_words(text: &[u8]) -> Option<usize> {
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let space = text.iter().position(blank)?;
    let second = &text[space..];
    let word = second.iter().position(|b| !blank(b))?;
    if second[word..].iter().any(blank) {
        None
    } else {
        Some(space)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Profile;

    /// The first line of `bytes`, split.
    fn split<'a>(bytes: &'a [u8], behaviour: &Behaviour) -> LineContent<'a> {
        let line = Lines::new(bytes, 0).next().expect("there is always a line");
        split_line(&line, behaviour)
    }

    fn lines(data: &[u8]) -> Vec<(u32, &[u8])> {
        Lines::new(data, bom_len(data))
            .map(|l| (l.number, l.bytes))
            .collect()
    }

    #[test]
    fn lf_cr_and_crlf_all_end_lines() {
        let got = lines(b"a\nb\rc\r\nd");
        let want: Vec<(u32, &[u8])> = vec![(1, b"a"), (2, b"b"), (3, b"c"), (4, b"d")];
        assert_eq!(got, want);
    }

    #[test]
    fn cr_cr_lf_is_two_line_endings() {
        let got = lines(b"a\r\r\nb");
        let want: Vec<(u32, &[u8])> = vec![(1, b"a"), (2, b""), (3, b"b")];
        assert_eq!(got, want);
    }

    #[test]
    fn trailing_newline_leaves_an_empty_last_line() {
        assert_eq!(lines(b"a\n").len(), 2);
        assert_eq!(lines(b"").len(), 1);
    }

    #[test]
    fn byte_order_mark_and_its_prefixes_are_skipped() {
        assert_eq!(bom_len(b"\xEF\xBB\xBFa"), 3);
        assert_eq!(bom_len(b"\xEF\xBBa"), 2);
        assert_eq!(bom_len(b"\xEFa"), 1);
        assert_eq!(bom_len(b"a"), 0);
    }

    fn pair(line: &str) -> Option<(String, String, bool)> {
        match split(line.as_bytes(), &Profile::Rfc9309.behaviour()) {
            LineContent::Pair(kv) => Some((
                String::from_utf8_lossy(kv.key).into_owned(),
                String::from_utf8_lossy(kv.value).into_owned(),
                kv.missing_colon,
            )),
            _ => None,
        }
    }

    #[test]
    fn key_and_value_are_trimmed_and_comments_dropped() {
        assert_eq!(
            pair("  Disallow :  /a b # why"),
            Some(("Disallow".into(), "/a b".into(), false))
        );
        assert_eq!(pair("# only a comment"), None);
        assert_eq!(pair("allow:"), Some(("allow".into(), "".into(), false)));
    }

    #[test]
    fn two_words_without_colon_are_a_pair_three_are_not() {
        assert_eq!(
            pair("disallow /x"),
            Some(("disallow".into(), "/x".into(), true))
        );
        assert_eq!(pair("disallow /x /y"), None);
        assert_eq!(pair("disallow"), None);
        assert_eq!(pair(": /x"), None);
    }

    #[test]
    fn offsets_point_into_the_line() {
        let line = b"  Allow:\t/p ";
        let LineContent::Pair(kv) = split(line, &Profile::Rfc9309.behaviour()) else {
            panic!("not a pair")
        };
        assert_eq!(&line[kv.key_at..kv.key_at + kv.key.len()], b"Allow");
        assert_eq!(&line[kv.value_at..kv.value_at + kv.value.len()], b"/p");
    }

    #[test]
    fn an_empty_value_sits_right_after_the_colon() {
        for line in [&b" Sitemap:"[..], b" Sitemap:  ", b" Sitemap: \t# none"] {
            let LineContent::Pair(kv) = split(line, &Profile::Rfc9309.behaviour()) else {
                panic!("not a pair")
            };
            assert_eq!((kv.key_at, kv.value_at, kv.value), (1, 9, &b""[..]));
        }
    }

    #[test]
    fn google_stops_a_line_at_nul_and_caps_its_length() {
        let google = Profile::Google.behaviour();
        assert_eq!(split(b"allow: /a\0b", &google), {
            let LineContent::Pair(kv) = split(b"allow: /a", &google) else {
                panic!()
            };
            LineContent::Pair(kv)
        });
        let long = [b"disallow: /".as_slice(), &[b'x'; 20_000]].concat();
        let LineContent::Pair(kv) = split(&long, &google) else {
            panic!()
        };
        assert_eq!(kv.value.len(), GOOGLE_MAX_LINE - b"disallow: ".len());
    }

    /// Lines, their colons and their `#`s found one octet at a time.
    fn one_at_a_time(
        data: &[u8],
        mut start: usize,
    ) -> Vec<(usize, usize, Option<usize>, Option<usize>)> {
        let mut found = Vec::new();
        loop {
            let end = data[start..]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
                .map(|i| start + i);
            let line = &data[start..end.unwrap_or(data.len())];
            let colon = line.iter().position(|&b| b == b':');
            let hash = line.iter().position(|&b| b == b'#');
            found.push((start, line.len(), colon, hash));
            let Some(end) = end else { return found };
            start = end + 1 + usize::from(data[end..].starts_with(b"\r\n"));
        }
    }

    proptest::proptest! {
        /// Block by block, the lines and their marks are those found one octet at a
        /// time, wherever lines and blocks begin and end, and after a byte-order mark.
        #[test]
        fn lines_and_marks_match_one_at_a_time(
            data in proptest::collection::vec(
                proptest::sample::select(b"\n\r:#ab  ".to_vec()),
                0..300,
            ),
            start in 0usize..4,
        ) {
            let start = start.min(data.len());
            let got: Vec<_> = Lines::new(&data, start)
                .map(|l| (l.start, l.bytes.len(), l.colon, l.hash))
                .collect();
            proptest::prop_assert_eq!(got, one_at_a_time(&data, start));
        }
    }

    #[test]
    fn marks_are_found_past_the_first_block() {
        let mut data = vec![b'x'; 150];
        data[100] = b':';
        data[140] = b'#';
        data.extend_from_slice(b"\r\nnext:line");
        let all: Vec<_> = Lines::new(&data, 0).collect();
        assert_eq!(
            (all[0].colon, all[0].hash, all[0].bytes.len()),
            (Some(100), Some(140), 150)
        );
        assert_eq!(
            (all[1].start, all[1].colon, all[1].hash),
            (152, Some(4), None)
        );
    }
}
