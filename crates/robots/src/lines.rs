//! Splitting robots.txt bytes into numbered lines and `key: value` pairs.
//! Owns the line-level syntax of RFC 9309 §2.2 and the lenient forms real files use.

use crate::behaviour::Behaviour;
use crate::simd::scan::{mark_body, Marks, BLOCK};

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
/// The whole body is first read into bit masks ([`Marks`]), a block of [`BLOCK`] octets
/// at a time; a line's end, colon and `#` are then the lowest bits at or after its start.
/// A line is looked for in the two blocks from the one it starts in, so a line of up to
/// [`BLOCK`] octets is found the same way wherever it sits, without a branch on whether
/// it crosses into the next block (which lines of 36 octets on average often do, and
/// which kept being mispredicted when blocks were read as lines reached them).
pub(crate) struct Lines<'a> {
    data: &'a [u8],
    pos: usize,
    number: u32,
    done: bool,
    /// The marks of every block of `data`, then two empty blocks, so that the window
    /// of the block a line starts in (at most `data.len() / BLOCK`) and the next is
    /// always there.
    marks: Vec<Marks>,
    /// Every octet of `data` is ASCII.
    ascii: bool,
}

impl<'a> Lines<'a> {
    /// `start` is where the first line begins (after a byte-order mark).
    pub fn new(data: &'a [u8], start: usize) -> Self {
        Self::with_room(data, start, Vec::new())
    }

    /// As [`Lines::new`], building the marks in `room` (emptied first), which
    /// [`Lines::into_room`] gives back.
    pub fn with_room(data: &'a [u8], start: usize, mut room: Vec<Marks>) -> Self {
        room.clear();
        let ascii = mark_body(data, &mut room);
        room.extend([Marks::default(); 2]);
        Lines {
            data,
            pos: start,
            number: 0,
            done: false,
            marks: room,
            ascii,
        }
    }

    /// Whether every octet of the body is ASCII, and so surely UTF-8, as reading its
    /// marks found.
    pub fn ascii(&self) -> bool {
        self.ascii
    }

    /// The vector the marks were built in, for the next body.
    pub fn into_room(self) -> Vec<Marks> {
        self.marks
    }

    /// A line's end, colon and `#` past the two blocks from `block`: the line is longer
    /// than [`BLOCK`] octets, or ends the body. `colon` and `hash` are those found so
    /// far; positions are in `data`.
    #[cold]
    #[inline(never)]
    fn long_line(
        &self,
        block: usize,
        mut colon: Option<usize>,
        mut hash: Option<usize>,
    ) -> (Option<usize>, Option<usize>, Option<usize>) {
        for (b, marks) in self.marks.iter().enumerate().skip(block + 2) {
            let at = |mask: u64| (mask != 0).then(|| b * BLOCK + mask.trailing_zeros() as usize);
            let end = at(marks.ends);
            let before = end.map_or(!0, |e| (1u64 << (e % BLOCK)) - 1);
            colon = colon.or_else(|| at(marks.colons & before));
            hash = hash.or_else(|| at(marks.hashes & before));
            if end.is_some() {
                return (end, colon, hash);
            }
        }
        (None, colon, hash)
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
        let block = start / BLOCK;
        let (here, next) = (self.marks[block], self.marks[block + 1]);
        let from = !0u64 << (start % BLOCK);
        // The first mark at or after `start` in the window of two blocks, as an offset
        // from the window's start; 128 if there is none. Read as one 128-bit number, so
        // that which block holds it is a select, not a branch.
        let first =
            |here: u64, next: u64| (u128::from(next) << 64 | u128::from(here)).trailing_zeros();
        let ends = first(here.ends & from, next.ends);
        let colons = first(here.colons & from, next.colons);
        let hashes = first(here.hashes & from, next.hashes);
        let window = block * BLOCK;
        let (end, colon, hash) = if ends < 2 * BLOCK as u32 {
            let before_end = |at: u32| (at < ends).then(|| window + at as usize);
            (
                Some(window + ends as usize),
                before_end(colons),
                before_end(hashes),
            )
        } else {
            let found = |at: u32| (at < 2 * BLOCK as u32).then(|| window + at as usize);
            self.long_line(block, found(colons), found(hashes))
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
            colon: colon.map(|at| at - start),
            hash: hash.map(|at| at - start),
        })
    }
}

/// The lines of a body as the parser numbers them: 1-based number and byte range
/// (without the line ending), so that tools can show the line a verdict names. A body
/// that ends with a line ending has one more, empty line after it.
///
/// ```
/// let lines: Vec<_> = robots::source_lines(b"a\r\nb").collect();
/// assert_eq!(lines, [(1, 0..1), (2, 3..4)]);
/// let lines: Vec<_> = robots::source_lines(b"a\n").collect();
/// assert_eq!(lines, [(1, 0..1), (2, 2..2)]);
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

/// Trims white space from both ends; returns the offset of what is kept. Most keys
/// and values have none, or one space before them: an end above the space is taken as
/// it is, without a search.
#[inline(always)]
pub(crate) fn trim(bytes: &[u8]) -> (usize, &[u8]) {
    let start = match bytes {
        [first, ..] if *first > b' ' => 0,
        [_, second, ..] if *second > b' ' && is_space(bytes[0]) => 1,
        _ => bytes
            .iter()
            .position(|&b| !is_space(b))
            .unwrap_or(bytes.len()),
    };
    let end = match bytes.last() {
        Some(&last) if last > b' ' => bytes.len(),
        _ => bytes[start..]
            .iter()
            .rposition(|&b| !is_space(b))
            .map_or(start, |e| start + e + 1),
    };
    (start, &bytes[start..end])
}

/// How a profile reads the lines of one body: whether they are capped in length and cut
/// at a NUL, as Google reads a line as a C string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LineSyntax {
    capped: bool,
    cut_at_nul: bool,
}

impl LineSyntax {
    /// `behaviour`'s reading of the lines of `body`. Lines are searched for a NUL only
    /// when the body holds one: a search per line cost Google's parse of the corpus
    /// 8% of its instructions (1.39 G, against 1.29 G with one search per body).
    pub fn of(behaviour: &Behaviour, body: &[u8]) -> LineSyntax {
        let capped = behaviour.google_line_limits;
        LineSyntax {
            capped,
            cut_at_nul: capped && memchr::memchr(0, body).is_some(),
        }
    }
}

/// Splits a line into key and value: `#` starts a comment, the first `:` separates, and
/// a line with no colon but exactly two words is read as `key value`. Inlined into the
/// parser's loop over lines, the pair it returns is not written out and read back.
#[inline(always)]
pub(crate) fn split_line<'a>(line: &Line<'a>, syntax: LineSyntax) -> LineContent<'a> {
    let mut text = line.bytes;
    let (mut colon, mut hash) = (line.colon, line.hash);
    if syntax.capped {
        if syntax.cut_at_nul {
            if let Some(nul) = memchr::memchr(0, text) {
                text = &text[..nul];
            }
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
        split_line(&line, LineSyntax::of(behaviour, bytes))
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

    #[test]
    fn a_nul_cuts_its_own_line_in_google_only() {
        let body = b"allow: /a\nallow: /b\0c\nallow: /d\0";
        let values = |profile: Profile| -> Vec<&[u8]> {
            let syntax = LineSyntax::of(&profile.behaviour(), body);
            Lines::new(body, 0)
                .filter_map(|l| match split_line(&l, syntax) {
                    LineContent::Pair(kv) => Some(kv.value),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(values(Profile::Google), [&b"/a"[..], b"/b", b"/d"]);
        assert_eq!(values(Profile::Rfc9309), [&b"/a"[..], b"/b\0c", b"/d\0"]);
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
        /// time, wherever lines and blocks begin and end, and after a byte-order mark;
        /// in short lines, and in long ones, whose colons and `#`s may lie past the two
        /// blocks from the line's start.
        #[test]
        fn lines_and_marks_match_one_at_a_time(
            data in proptest::prop_oneof![
                proptest::collection::vec(
                    proptest::sample::select(b"\n\r:#ab  ".to_vec()),
                    0..300,
                ),
                proptest::collection::vec(
                    proptest::sample::select([&b"\n\r:#"[..], &[b'a'; 156]].concat()),
                    0..700,
                ),
            ],
            start in 0usize..4,
        ) {
            let start = start.min(data.len());
            let got: Vec<_> = Lines::new(&data, start)
                .map(|l| (l.start, l.bytes.len(), l.colon, l.hash))
                .collect();
            proptest::prop_assert_eq!(got, one_at_a_time(&data, start));
        }

        /// Trimming with its shortcuts keeps what trimming one octet at a time keeps:
        /// white space (and the controls and space-like octets that are not) at either
        /// end, one or more.
        #[test]
        fn trims_as_one_octet_at_a_time_does(
            bytes in proptest::collection::vec(
                proptest::sample::select(b" \t\r\x0B\x0C\x01\x1F!ab".to_vec()),
                0..12,
            )
        ) {
            let start = bytes.iter().take_while(|&&b| is_space(b)).count();
            let end = bytes.len() - bytes[start..].iter().rev().take_while(|&&b| is_space(b)).count();
            proptest::prop_assert_eq!(trim(&bytes), (start, &bytes[start..end]));
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
