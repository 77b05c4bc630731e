//! Percent-encoding normalisation of patterns and paths before they are compared.
//! RFC 9309 §2.2.2 for the RFC profile; Google's `MaybeEscapePattern` for the Google one.

use crate::octets::{google_changes, is_special_literal, may_change, must_escape, Role};
use crate::simd::find::find_escaped_or_any;

/// Where normalised bytes go: a `Vec` at parse time, a stack buffer at check time.
pub(crate) trait Sink {
    fn push(&mut self, byte: u8);

    fn extend(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.push(b));
    }
}

impl Sink for Vec<u8> {
    fn push(&mut self, byte: u8) {
        Vec::push(self, byte);
    }

    fn extend(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn push_escaped(out: &mut impl Sink, byte: u8) {
    out.extend(&[
        b'%',
        HEX[usize::from(byte >> 4)],
        HEX[usize::from(byte & 0xF)],
    ]);
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The octet a `%xx` escape at `at` stands for, if there is a well-formed one.
fn escape_at(bytes: &[u8], at: usize) -> Option<u8> {
    let hi = hex_value(*bytes.get(at + 1)?)?;
    let lo = hex_value(*bytes.get(at + 2)?)?;
    Some(hi << 4 | lo)
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// In the query, these and their escapes compare equal. The literal is the canonical
/// form: a pattern like `/*/print/` whose wildcard runs into the query must still see
/// `/` there, so escapes are decoded rather than literals encoded.
fn is_query_delimiter(b: u8) -> bool {
    matches!(b, b':' | b'/' | b'?' | b'@')
}

/// The octet an escape opening `bytes` encodes, if it is one of `:` `/` `?` `@`, which
/// [`rfc_normalize`] decodes in a query.
pub(crate) fn query_delimiter_escape(bytes: &[u8]) -> Option<u8> {
    if bytes.first() != Some(&b'%') {
        return None;
    }
    escape_at(bytes, 0).filter(|&octet| is_query_delimiter(octet))
}

/// Google's escaping of allow/disallow values: octets ≥ 0x80 become `%XX` and existing
/// escapes get upper-case hex. Nothing else changes.
pub(crate) fn google_escape(input: &[u8], out: &mut impl Sink) {
    if google_is_escaped(input) {
        out.extend(input);
        return;
    }
    let mut i = 0;
    while i < input.len() {
        let b = input[i];
        if b == b'%' && escape_at(input, i).is_some() {
            out.push(b'%');
            out.push(input[i + 1].to_ascii_uppercase());
            out.push(input[i + 2].to_ascii_uppercase());
            i += 3;
            continue;
        }
        if b >= 0x80 {
            push_escaped(out, b);
        } else {
            out.push(b);
        }
        i += 1;
    }
}

/// Whether `google_escape` surely leaves a value as it is.
pub(crate) fn google_is_escaped(input: &[u8]) -> bool {
    none_of(input, google_changes)
}

/// RFC 9309 §2.2.2 normalisation of a path or pattern: see the crate docs for the rules.
/// A literal `*` or `$` in a path is encoded, so that a pattern can match it as `%2A` or
/// `%24` (RFC 9309 §2.2.3) while its own `*` stays a wildcard. Callers ask
/// [`rfc_is_normal`] first, so as not to copy what would not change; input that is
/// normal anyway passes through as one run.
pub(crate) fn rfc_normalize(input: &[u8], role: Role, out: &mut impl Sink) {
    let mut in_query = false;
    let mut i = 0;
    while i < input.len() {
        // A run of octets that stay as they are, passed on whole: it ends at an octet
        // normalising may change (`may_change`), or at the `?` that starts the query.
        let rest = &input[i..];
        let run = match role {
            Role::Pattern => find_escaped_or_any(rest, *b"%$?"),
            Role::Path => find_escaped_or_any(rest, *b"%$*?"),
        }
        .unwrap_or(rest.len());
        out.extend(&input[i..i + run]);
        i += run;
        let Some(&b) = input.get(i) else {
            break;
        };
        if b == b'%' {
            if let Some(octet) = escape_at(input, i) {
                if is_unreserved(octet) || (in_query && is_query_delimiter(octet)) {
                    out.push(octet);
                } else {
                    push_escaped(out, octet);
                }
                i += 3;
                continue;
            }
        }
        if must_escape(b) || is_special_literal(b, role) {
            push_escaped(out, b);
            // Octets from 0x80 up come in runs (a UTF-8 sequence, a Latin-1 word): the
            // rest of the run is escaped here, without a search for where it ends.
            while let Some(&next) = input.get(i + 1).filter(|&&next| next >= 0x80) {
                push_escaped(out, next);
                i += 1;
            }
        } else {
            if b == b'?' {
                in_query = true;
            }
            out.push(b);
        }
        i += 1;
    }
}

/// Whether `rfc_normalize` surely leaves a path or pattern as it is, so that it can be
/// used without copying. Any `%` answers no: checking escapes costs as much as
/// normalising.
pub(crate) fn rfc_is_normal(input: &[u8], role: Role) -> bool {
    none_of(input, |b| may_change(b, role))
}

/// Whether no octet of `input` is `flagged`, checked 32 octets at a time without an early
/// exit inside a block, so that the compiler can compare the block in one go (SIMD), but
/// with one between blocks. The last block overlaps the one before rather than being
/// copied into a padded one (a call to `memcpy` on every check); input under 32 octets
/// is read as two overlapping halves, and only under 8 one octet at a time.
pub(crate) fn none_of(input: &[u8], flagged: impl Fn(u8) -> bool) -> bool {
    let clean = |block: &[u8]| !block.iter().fold(false, |any, &b| any | flagged(b));
    if let Some(last) = input.last_chunk::<32>() {
        let whole = |block: &[u8]| block.first_chunk::<32>().is_some_and(|b| clean(b));
        return input.chunks_exact(32).all(whole) && clean(last);
    }
    match (input.first_chunk::<16>(), input.first_chunk::<8>()) {
        (Some(first), _) => clean(first) && input.last_chunk::<16>().is_some_and(|b| clean(b)),
        (None, Some(first)) => clean(first) && input.last_chunk::<8>().is_some_and(|b| clean(b)),
        (None, None) => clean(input),
    }
}

/// A stack buffer for a normalised path that spills to the heap only for unusually long
/// paths, so that checks do not allocate. A check picks the size for the path at hand
/// ([`PathBufs`]): setting up 2 KiB for a 40-octet path would cost more than normalising
/// it.
pub(crate) struct PathBuf<const N: usize> {
    stack: [u8; N],
    len: usize,
    heap: Vec<u8>,
}

impl<const N: usize> PathBuf<N> {
    pub fn new() -> Self {
        PathBuf {
            stack: [0; N],
            len: 0,
            heap: Vec::new(),
        }
    }

    pub fn as_bytes(&self) -> &[u8] {
        if self.heap.is_empty() {
            &self.stack[..self.len]
        } else {
            &self.heap
        }
    }
}

impl<const N: usize> Sink for PathBuf<N> {
    fn push(&mut self, byte: u8) {
        // One octet at a time is how escapes are written: no copy call for it.
        match self.stack.get_mut(self.len) {
            Some(slot) if self.heap.is_empty() => {
                *slot = byte;
                self.len += 1;
            }
            _ => self.extend(&[byte]),
        }
    }

    fn extend(&mut self, bytes: &[u8]) {
        let (len, end) = (self.len, self.len + bytes.len());
        if !self.heap.is_empty() {
            self.heap.extend_from_slice(bytes);
        } else if let Some(room) = self.stack.get_mut(len..end) {
            room.copy_from_slice(bytes);
            self.len = end;
        } else {
            self.heap = self.stack[..len].to_vec();
            self.heap.extend_from_slice(bytes);
        }
    }
}

/// A stack buffer for a path whose normalised form surely fits: writing is one bounds
/// check and a store, with none of [`PathBuf`]'s tests for a spill.
pub(crate) struct Fixed<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Fixed<N> {
    fn new() -> Self {
        Fixed {
            bytes: [0; N],
            len: 0,
        }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl<const N: usize> Sink for Fixed<N> {
    fn push(&mut self, byte: u8) {
        self.bytes[self.len] = byte;
        self.len += 1;
    }

    fn extend(&mut self, bytes: &[u8]) {
        let end = self.len + bytes.len();
        crate::simd::swar::copy(&mut self.bytes[self.len..end], bytes);
        self.len = end;
    }
}

/// The three sizes of buffer a check may normalise its path into, none set up until one
/// is needed. Nine in ten paths that corpus queries normalise fit in the smallest, whose
/// 96 octets are zeroed inline; the 256 of the middle one took a call to `memset`.
#[derive(Default)]
pub(crate) struct PathBufs {
    small: Option<Fixed<96>>,
    middle: Option<Fixed<256>>,
    large: Option<PathBuf<2048>>,
}

impl PathBufs {
    /// The path as rules see it: `/` first if `slash`, then `path`, normalised as
    /// RFC 9309 says if `normalise`; in the smallest buffer with room for the longest
    /// outcome.
    pub fn path(&mut self, slash: bool, path: &[u8], normalise: bool) -> &[u8] {
        // Normalising at most triples a path; one more octet for the `/`.
        let longest = 3 * path.len() + 1;
        if longest <= 96 {
            let out = self.small.insert(Fixed::new());
            write_path(out, slash, path, normalise);
            out.as_bytes()
        } else if longest <= 256 {
            let out = self.middle.insert(Fixed::new());
            write_path(out, slash, path, normalise);
            out.as_bytes()
        } else {
            let out = self.large.insert(PathBuf::new());
            write_path(out, slash, path, normalise);
            out.as_bytes()
        }
    }
}

fn write_path(out: &mut impl Sink, slash: bool, path: &[u8], normalise: bool) {
    if slash {
        out.push(b'/');
    }
    if normalise {
        rfc_normalize(path, Role::Path, out);
    } else {
        out.extend(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rfc(s: &[u8]) -> String {
        let mut out = Vec::new();
        rfc_normalize(s, Role::Path, &mut out);
        if rfc_is_normal(s, Role::Path) {
            assert_eq!(out, s, "rfc_is_normal is wrong for {s:?}");
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn runs_of_octets_from_0x80_are_escaped_whole() {
        assert_eq!(rfc(b"/caf\xC3\xA9"), "/caf%C3%A9");
        assert_eq!(rfc(b"/\xE9t\xE9\xFF/x"), "/%E9t%E9%FF/x");
        // A run after an octet escaped for another reason, and one that ends at a `%`.
        assert_eq!(rfc(b"/a \xC3\xA9%41"), "/a%20%C3%A9A");
        assert_eq!(rfc(b"/*\x80"), "/%2A%80");
    }

    proptest::proptest! {
        /// What `rfc_is_normal` vouches for, normalising leaves alone: on paths and
        /// patterns made of the octets that matter (escapes, hex digits, `?`, `*`, `$`,
        /// space, non-ASCII).
        #[test]
        fn what_is_normal_stays_so(
            s in proptest::collection::vec(
                proptest::sample::select(b"%2fF7eE41a?/*$ \xC3\xA9:@".to_vec()),
                0..80,
            )
        ) {
            for role in [Role::Path, Role::Pattern] {
                let mut out = Vec::new();
                rfc_normalize(&s, role, &mut out);
                proptest::prop_assert!(!rfc_is_normal(&s, role) || out == s);
            }
        }
    }

    fn google(s: &[u8]) -> String {
        let mut out = Vec::new();
        google_escape(s, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rfc_encodes_non_ascii_controls_and_space() {
        assert_eq!(rfc("/ツ".as_bytes()), "/%E3%83%84");
        assert_eq!(rfc(b"/a b\t"), "/a%20b%09");
        assert_eq!(rfc(b"/\x7f"), "/%7F");
    }

    #[test]
    fn rfc_upper_cases_escapes_and_decodes_unreserved() {
        assert_eq!(rfc(b"/%e3%83%84"), "/%E3%83%84");
        assert_eq!(rfc(b"/%62%61%7A"), "/baz");
        assert_eq!(rfc(b"/%2f%7e"), "/%2F~");
    }

    #[test]
    fn rfc_query_delimiters_compare_equal_to_their_escapes() {
        assert_eq!(rfc(b"/p?u=https://h@x?y"), "/p?u=https://h@x?y");
        assert_eq!(rfc(b"/p?u=https%3a%2F%2Fh%40x%3Fy"), "/p?u=https://h@x?y");
        // Before the query they stay distinct.
        assert_eq!(rfc(b"/a:b/c"), "/a:b/c");
        assert_eq!(rfc(b"/a%3Ab"), "/a%3Ab");
    }

    #[test]
    fn rfc_leaves_stray_percent_alone() {
        assert_eq!(rfc(b"/100%"), "/100%");
        assert_eq!(rfc(b"/%zz"), "/%zz");
    }

    #[test]
    fn rfc_encodes_literal_star_and_dollar_in_paths_only() {
        assert_eq!(rfc(b"/a*b$"), "/a%2Ab%24");
        assert_eq!(rfc(b"/a%2ab%24"), "/a%2Ab%24");
        let mut pattern = Vec::new();
        rfc_normalize(b"/a*b$c", Role::Pattern, &mut pattern);
        assert_eq!(pattern, b"/a*b%24c");
    }

    #[test]
    fn google_escapes_only_high_octets_and_hex_case() {
        assert_eq!(google("/ツ".as_bytes()), "/%E3%83%84");
        assert_eq!(google(b"/%aa%62 x"), "/%AA%62 x");
    }

    #[test]
    fn path_buffer_spills_to_the_heap_past_its_stack() {
        let long: Vec<u8> = (0..5000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let mut buf = PathBuf::<256>::new();
        for &b in &long[..100] {
            buf.push(b);
        }
        buf.extend(&long[100..]);
        assert_eq!(buf.as_bytes(), &long[..]);
    }

    #[test]
    fn every_size_of_buffer_holds_the_longest_path_it_is_chosen_for() {
        // 31 octets fit the smallest, 85 the middle one; one more takes the next.
        for (n, tier) in [(0, 0), (31, 0), (32, 1), (85, 1), (86, 2), (700, 2)] {
            let input = vec![0xFF; n];
            let expected = format!("/{}", "%FF".repeat(n));
            let mut bufs = PathBufs::default();
            assert_eq!(bufs.path(true, &input, true), expected.as_bytes(), "{n}");
            let used = [
                bufs.small.is_some(),
                bufs.middle.is_some(),
                bufs.large.is_some(),
            ];
            assert_eq!(used, [0, 1, 2].map(|t| t == tier), "{n}");
            let mut bufs = PathBufs::default();
            assert_eq!(bufs.path(false, &input, false), &input[..], "{n}");
        }
    }
}
