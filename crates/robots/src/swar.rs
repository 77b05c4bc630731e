//! Comparing short byte strings eight octets at a time in a `u64` ("SIMD within a
//! register"): for a rule's pattern, a call into `memcmp` costs more.

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
}
