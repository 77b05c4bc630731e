//! Comparing (exactly, or but for ASCII case) and copying short byte strings a word at a
//! time, the last word overlapping the one before: cheaper than a call to `memcmp`.

/// Whether `text` starts with `prefix`, compared a word at a time: a pattern is short,
/// and a call into `memcmp` costs more than the comparison itself.
#[inline]
pub(crate) fn starts_with(text: &[u8], prefix: &[u8]) -> bool {
    text.get(..prefix.len())
        .is_some_and(|head| same(head, prefix))
}

/// Whether two strings are equal: eight octets at a time, the last step reading the
/// last eight again, and strings under eight octets as two overlapping halves (or their
/// first, middle and last octets), so that no length takes a loop over single octets.
#[inline]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    same_by(a, b, |word| word)
}

/// Whether two strings are equal but for ASCII case, as `eq_ignore_ascii_case` says,
/// compared as [`same`] compares: a crawler's name against a user-agent line's, where
/// one octet at a time took 15 instructions an octet.
pub(crate) fn same_ignoring_case(a: &[u8], b: &[u8]) -> bool {
    same_by(a, b, lower_case)
}

/// [`same`] of the words of `a` and `b` as `fold` maps them (octet by octet: a word read
/// twice, or only in part, folds as it would whole).
#[inline(always)]
fn same_by(a: &[u8], b: &[u8], fold: impl Fn(u64) -> u64) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let eq = |x: u64, y: u64| fold(x) == fold(y);
    if n < 8 {
        let half = |s: &[u8], at: usize| {
            s[at..at + 4]
                .first_chunk()
                .map_or(0, |w| u64::from(u32::from_le_bytes(*w)))
        };
        let octet = |s: &[u8], at: usize| u64::from(s[at]);
        return match n {
            0 => true,
            1..=3 => {
                eq(octet(a, 0), octet(b, 0))
                    && eq(octet(a, n / 2), octet(b, n / 2))
                    && eq(octet(a, n - 1), octet(b, n - 1))
            }
            _ => eq(half(a, 0), half(b, 0)) && eq(half(a, n - 4), half(b, n - 4)),
        };
    }
    let word = |s: &[u8], at: usize| {
        s[at..at + 8]
            .first_chunk()
            .map_or(0, |w| u64::from_le_bytes(*w))
    };
    let mut at = 0;
    while at + 8 < n {
        if !eq(word(a, at), word(b, at)) {
            return false;
        }
        at += 8;
    }
    eq(word(a, n - 8), word(b, n - 8))
}

/// The octets of `word` with ASCII capitals made small, all eight at once: an octet is
/// a capital if its low seven bits reach `A` and not past `Z` (additions that carry into
/// its top bit, and never out of the octet) and its top bit is clear; `0x20` is then set.
fn lower_case(word: u64) -> u64 {
    const EACH: u64 = 0x0101_0101_0101_0101;
    let low = word & (0x7F * EACH);
    let from_a = low + (0x80 - u64::from(b'A')) * EACH;
    let past_z = low + (0x80 - u64::from(b'Z') - 1) * EACH;
    let capital = from_a & !past_z & !word & (0x80 * EACH);
    word | capital >> 2
}

/// `from` into `to`, which is as long: under 33 octets as two overlapping copies of a
/// fixed size (or the first, middle and last octets), so that the short runs of a path
/// take no call to `memcpy`. Always inlined into the path buffer's writes: a check near
/// the corpus's median took 730 instructions against 746, and 749 with the copy left to
/// the compiler, which called it.
#[inline(always)]
pub(crate) fn copy(to: &mut [u8], from: &[u8]) {
    let n = from.len();
    match n {
        0 => {}
        1..=3 => {
            to[0] = from[0];
            to[n / 2] = from[n / 2];
            to[n - 1] = from[n - 1];
        }
        4..=7 => {
            to[..4].copy_from_slice(&from[..4]);
            to[n - 4..].copy_from_slice(&from[n - 4..]);
        }
        8..=15 => {
            to[..8].copy_from_slice(&from[..8]);
            to[n - 8..].copy_from_slice(&from[n - 8..]);
        }
        16..=32 => {
            to[..16].copy_from_slice(&from[..16]);
            to[n - 16..].copy_from_slice(&from[n - 16..]);
        }
        _ => to.copy_from_slice(from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Word-wise comparison agrees with the slice's own at every length, wherever
        /// two strings first differ.
        #[test]
        fn compares_as_slices_do(
            a in proptest::collection::vec(proptest::sample::select(b"ab".to_vec()), 0..40),
            b in proptest::collection::vec(proptest::sample::select(b"ab".to_vec()), 0..40),
        ) {
            proptest::prop_assert_eq!(same(&a, &b), a == b);
            proptest::prop_assert_eq!(starts_with(&a, &b), a.starts_with(&b));
            proptest::prop_assert!(same(&a, &a.clone()));
            proptest::prop_assert!(starts_with(&a, &a[..a.len() / 2]));
        }
    }

    proptest::proptest! {
        /// Case-blind comparison a word at a time agrees with `eq_ignore_ascii_case` at
        /// every length, for the octets on either side of the capitals and small
        /// letters, and for octets past ASCII.
        #[test]
        fn compares_case_blind_as_slices_do(
            a in proptest::collection::vec(proptest::sample::select(b"@AZ[`az{\x7F\xC1\xE1".to_vec()), 0..30),
            flips in proptest::collection::vec(proptest::bool::ANY, 30),
            other in proptest::collection::vec(proptest::sample::select(b"aZ\xC1".to_vec()), 0..30),
        ) {
            // `a` with some letters' case changed: equal but for case.
            let b: Vec<u8> = a
                .iter()
                .zip(&flips)
                .map(|(&c, &flip)| if flip && c.is_ascii_alphabetic() { c ^ 0x20 } else { c })
                .collect();
            proptest::prop_assert!(same_ignoring_case(&a, &b));
            proptest::prop_assert_eq!(same_ignoring_case(&a, &other), a.eq_ignore_ascii_case(&other));
            let mut c = b.clone();
            if let Some(last) = c.last_mut() {
                *last = last.wrapping_add(1);
                proptest::prop_assert_eq!(same_ignoring_case(&a, &c), a.eq_ignore_ascii_case(&c));
            }
        }
    }

    #[test]
    fn short_copies_copy_every_length() {
        let from: Vec<u8> = (1..=70).collect();
        for n in 0..=70 {
            let mut to = vec![0; n];
            copy(&mut to, &from[..n]);
            assert_eq!(to, &from[..n], "{n} octets");
        }
    }
}
