//! Comparing and copying short byte strings a word at a time ("SIMD within a register"),
//! the last word overlapping the one before: for a rule's pattern or a run of a path, a
//! call into `memcmp` or `memcpy` costs more.

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
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 8 {
        let half =
            |s: &[u8], at: usize| s[at..at + 4].first_chunk().map(|w| u32::from_le_bytes(*w));
        return match n {
            0 => true,
            1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
            _ => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        };
    }
    let word = |s: &[u8], at: usize| s[at..at + 8].first_chunk().map(|w| u64::from_le_bytes(*w));
    let mut at = 0;
    while at + 8 < n {
        if word(a, at) != word(b, at) {
            return false;
        }
        at += 8;
    }
    word(a, n - 8) == word(b, n - 8)
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
