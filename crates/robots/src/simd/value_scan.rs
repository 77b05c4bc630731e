//! One pass over a rule's value, sixteen octets at a time: whether the profile's
//! normalising may change it, and whether it holds `$` and `*` ([`PatternScan`]); and
//! the same pass over a checked path, for octets to normalise and a `#`.

use crate::octets::{google_changes, may_change, Role};

/// What one pass over a rule's value tells (less its final `$` in RFC 9309, which reads
/// that off first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PatternScan {
    /// The profile's normalising surely leaves it as it is:
    /// [`rfc_is_normal`](crate::normalize::rfc_is_normal) or
    /// [`google_is_escaped`](crate::normalize::google_is_escaped).
    pub unchanged: bool,
    /// It may hold a `$`: false only where it surely holds none.
    pub dollar: bool,
    /// It holds a `*`.
    pub wildcard: bool,
}

/// Which octets a scan flags: the profile's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flagging {
    /// [`may_change`] for a pattern, which covers `$`, and `*`.
    Rfc,
    /// [`google_changes`], `$` and `*`.
    Google,
    /// [`may_change`] for a path, which covers `$` and `*`, and `#`.
    RfcPath,
    /// `#` alone: Google's matcher takes a path as given, up to its fragment.
    GooglePath,
}

/// Whether the octets of a value hold what [`Flagging`] flags: one that may change, a
/// [`Flagging::marker`], a `*` (in RFC 9309, `$` is one that may change).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Found {
    changes: bool,
    marker: bool,
    star: bool,
}

impl Flagging {
    /// The octet a scan looks for besides: a value's `$`, a path's `#`.
    const fn marker(self) -> u8 {
        match self {
            Flagging::Rfc | Flagging::Google => b'$',
            Flagging::RfcPath | Flagging::GooglePath => b'#',
        }
    }
}

/// What one pass over a checked path tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PathScan {
    /// A check may match the path as it is: it holds no `#` and, where the profile
    /// normalises paths, no octet [`may_change`].
    pub plain: bool,
    /// It holds a `#`, which starts its fragment.
    pub fragment: bool,
}

/// [`rfc_is_normal`](crate::normalize::rfc_is_normal) for a rule's value, and whether it
/// holds a `*`, in one pass. The check flags `$`, so a value it passes holds none.
pub(crate) fn rfc_scan_pattern(input: &[u8]) -> PatternScan {
    let found = scan(input, Flagging::Rfc);
    PatternScan {
        unchanged: !found.changes,
        dollar: found.changes,
        wildcard: found.star,
    }
}

/// Whether a check may match `path` (a URL from its path on) as it is, and whether it
/// holds a fragment, where the profile `normalise`s paths or not. In one pass, as a
/// rule's value is scanned: against one octet at a time, that takes 1.5% off the
/// corpus's check instructions, and 3% off a typical check's; and a path to normalise
/// without a fragment is not searched again for one (a check near the corpus's median
/// took 638 instructions that way, against 620).
pub(crate) fn scan_path(path: &[u8], normalise: bool) -> PathScan {
    // Each call's flagging is a constant, so that its classes are compiled apart.
    let found = if normalise {
        scan(path, Flagging::RfcPath)
    } else {
        scan(path, Flagging::GooglePath)
    };
    PathScan {
        plain: !found.changes,
        fragment: found.marker,
    }
}

/// [`google_is_escaped`](crate::normalize::google_is_escaped) for a rule's value, and
/// whether it holds a `$` and a `*`, in one pass. Not inlined: in the parser's loop it made the RFC 9309 profile's code
/// slower.
#[inline(never)]
pub(crate) fn google_scan_pattern(input: &[u8]) -> PatternScan {
    let found = scan(input, Flagging::Google);
    PatternScan {
        unchanged: !found.changes,
        dollar: found.marker,
        wildcard: found.star,
    }
}

/// The scan one octet at a time: for values under four octets (`/` alone is the
/// commonest), elsewhere than x86-64, and as the reference the vector scan is tested
/// against.
fn one_at_a_time(input: &[u8], flagging: Flagging) -> Found {
    let changes = |b: u8| match flagging {
        Flagging::Rfc => may_change(b, Role::Pattern),
        Flagging::Google => google_changes(b),
        Flagging::RfcPath => may_change(b, Role::Path) | (b == b'#'),
        Flagging::GooglePath => b == b'#',
    };
    input.iter().fold(Found::default(), |found, &b| Found {
        changes: found.changes | changes(b),
        marker: found.marker | (b == flagging.marker()),
        star: found.star | (b == b'*'),
    })
}

#[cfg(not(target_arch = "x86_64"))]
fn scan(input: &[u8], flagging: Flagging) -> Found {
    one_at_a_time(input, flagging)
}

/// The scan with SSE2, which every x86-64 processor has: blocks of sixteen octets are
/// compared at once and the answers OR-ed across blocks, read out once at the end. The
/// last block overlaps the one before, and a value under sixteen octets is loaded as two
/// overlapping halves, since an octet read twice changes no OR; the compiler's own
/// vectorising of the loop, which copied the last block into a padded one, took twice
/// as long over the corpus (the copy's stores could not be forwarded to the loads).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn scan(input: &[u8], flagging: Flagging) -> Found {
    use crate::simd::halves::overlapping_halves;
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_setzero_si128,
    };
    let n = input.len();
    if n < 4 {
        return one_at_a_time(input, flagging);
    }
    // SAFETY: SSE2 is part of the x86-64 baseline, so the intrinsics exist on every
    // processor this runs on. Each load reads the 16 octets of a `&[u8; 16]`, and allows
    // any alignment.
    unsafe {
        let load = |block: &[u8; 16]| _mm_loadu_si128(block.as_ptr().cast());
        let eq = |v: __m128i, octet: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(octet as i8));
        // Per lane, all ones where the octet may change, is `$`, is `*`.
        let classify = |v: __m128i| {
            let changes = match flagging {
                // Signed, below 0x21 is 0x00–0x20 and 0x80–0xFF; with 0x7F, `%` and `$`,
                // that is `may_change` for a pattern.
                Flagging::Rfc => _mm_or_si128(
                    _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x21)), eq(v, 0x7F)),
                    _mm_or_si128(eq(v, b'%'), eq(v, b'$')),
                ),
                // Signed, below 0 is 0x80–0xFF.
                Flagging::Google => {
                    _mm_or_si128(_mm_cmplt_epi8(v, _mm_setzero_si128()), eq(v, b'%'))
                }
                // As for a pattern, with `*` (a literal in a path, to be escaped) and `#`.
                Flagging::RfcPath => _mm_or_si128(
                    _mm_or_si128(
                        _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x21)), eq(v, 0x7F)),
                        _mm_or_si128(eq(v, b'%'), eq(v, b'$')),
                    ),
                    _mm_or_si128(eq(v, b'*'), eq(v, b'#')),
                ),
                Flagging::GooglePath => eq(v, b'#'),
            };
            [changes, eq(v, flagging.marker()), eq(v, b'*')]
        };
        let or = |a: [__m128i; 3], b: [__m128i; 3]| {
            [
                _mm_or_si128(a[0], b[0]),
                _mm_or_si128(a[1], b[1]),
                _mm_or_si128(a[2], b[2]),
            ]
        };
        let found = match input.last_chunk::<16>() {
            Some(last) => {
                let blocks = input.chunks_exact(16).filter_map(<[u8]>::first_chunk::<16>);
                blocks.fold(classify(load(last)), |found, block| {
                    or(found, classify(load(block)))
                })
            }
            None => classify(overlapping_halves(input).0),
        };
        let any = |v: __m128i| _mm_movemask_epi8(v) != 0;
        Found {
            changes: any(found[0]),
            marker: any(found[1]),
            star: any(found[2]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::{google_is_escaped, rfc_is_normal};

    /// Octets on both sides of every border the scans draw.
    const EDGES: &[u8] = b"%2a/*$# !\x00\x1F\x20\x21\x7E\x7F\x80\xC3\xFF";

    proptest::proptest! {
        /// The vector scan finds what one octet at a time finds, at every length and
        /// wherever the flagged octets fall (whole blocks, the overlapping last one, the
        /// halves of short values).
        #[test]
        fn vector_and_one_at_a_time_agree(
            s in proptest::collection::vec(proptest::sample::select(EDGES.to_vec()), 0..70),
            plain in proptest::collection::vec(proptest::sample::select(b"ab/".to_vec()), 0..40),
        ) {
            for value in [s.clone(), [plain.clone(), s.clone()].concat(), [s, plain].concat()] {
                for flagging in [Flagging::Rfc, Flagging::Google, Flagging::RfcPath, Flagging::GooglePath] {
                    proptest::prop_assert_eq!(scan(&value, flagging), one_at_a_time(&value, flagging));
                }
            }
        }

        /// A path is plain, as a check reads it, where no octet is `#` nor, where the
        /// profile normalises paths, one that normalising may change; it has a fragment
        /// where an octet is `#`.
        #[test]
        fn a_plain_path_holds_no_fragment_and_nothing_to_normalise(
            s in proptest::collection::vec(proptest::sample::select(EDGES.to_vec()), 0..70),
            plain in proptest::collection::vec(proptest::sample::select(b"ab/".to_vec()), 0..40),
        ) {
            for path in [s.clone(), [plain.clone(), s.clone()].concat(), [s, plain].concat()] {
                for normalise in [true, false] {
                    let flagged = |b: u8| (b == b'#') | (normalise & may_change(b, Role::Path));
                    let plain = !path.iter().any(|&b| flagged(b));
                    let fragment = path.contains(&b'#');
                    proptest::prop_assert_eq!(
                        scan_path(&path, normalise),
                        PathScan { plain, fragment }
                    );
                }
            }
        }

        /// One pass over a value tells what the profile's check for normal form and
        /// searches for `$` and `*` do.
        #[test]
        fn a_pattern_scan_is_the_check_and_the_searches(
            s in proptest::collection::vec(proptest::sample::select(EDGES.to_vec()), 0..100)
        ) {
            let (dollar, wildcard) = (s.contains(&b'$'), s.contains(&b'*'));
            let rfc = rfc_scan_pattern(&s);
            proptest::prop_assert_eq!(rfc.unchanged, rfc_is_normal(&s, Role::Pattern));
            proptest::prop_assert!(rfc.dollar || !dollar);
            proptest::prop_assert_eq!(rfc.wildcard, wildcard);
            let google = PatternScan {
                unchanged: google_is_escaped(&s),
                dollar,
                wildcard,
            };
            proptest::prop_assert_eq!(google_scan_pattern(&s), google);
        }
    }
}
