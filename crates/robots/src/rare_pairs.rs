//! Choosing the octet pairs a wildcard pattern's filter keeps: the rarest in URLs, read
//! off bit masks of the pattern's octet classes, which are found sixteen octets at a time.

use crate::pattern::{pair_hash, NO_PAIR, PAIRS};

/// Pairs are chosen among a pattern's last this many octets, one bit each in a `u64`.
/// Patterns that differ at all tend to differ towards their end, and 1.8% of the
/// corpus's wildcard patterns are longer.
const WINDOW: usize = 64;

/// Which octets of a pattern's window are in each class of rarity, bit `i` standing for
/// octet `i`; an octet in none of them (and not `*`) is of the rarest class.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Classes {
    /// `/`, in nearly every path: rarity 1.
    slash: u64,
    /// `a` to `z`: rarity 2.
    lower: u64,
    /// `0` to `9` and `A` to `Z`: rarity 3.
    digit_upper: u64,
    /// `*`, which no pair may hold: the pattern's literal segments are what a path holds.
    star: u64,
}

/// The [`PAIRS`] rarest octet pairs inside the literal segments of a wildcard pattern's
/// last [`WINDOW`] octets, hashed, for [`PairSet::contains_all`](crate::pattern::PairSet::contains_all):
/// a long path saturates the byte mask, and pairs still tell. A pair's rarity is the sum
/// of its octets' (1 to 4, see [`Classes`]). Of equally rare pairs the later come first,
/// since patterns that differ at all tend to differ towards their end; a pair whose hash
/// is already kept is passed over; unused slots hold [`NO_PAIR`].
///
/// Each sum from 8 down is a mask of the pairs that have it, made with a few operations
/// on the class masks, so that most pairs are never looked at one by one. Choosing
/// among them one pair at a time, with a branch per pair on whether it beat the kept
/// ones, cost the corpus parse twice the time (6.5 ms against 3.5 ms of about 65,
/// measured by leaving the pairs out).
pub(crate) fn rarest_pairs(pattern: &[u8]) -> [u16; PAIRS] {
    let window = &pattern[pattern.len().saturating_sub(WINDOW)..];
    let classes = classes(window);
    let octets = u64::MAX
        .checked_shr((WINDOW - window.len()) as u32)
        .unwrap_or(0);
    let other = octets & !(classes.slash | classes.lower | classes.digit_upper | classes.star);
    // The pairs of each sum from 8 down to 2: bit `i` stands for the pair of octets `i`
    // and `i + 1`, so `x & y1` is an `x` octet followed by a `y` one (rarities 1 to 4:
    // `/`, lower-case, digit or capital, other).
    let [s, l, d, o] = [classes.slash, classes.lower, classes.digit_upper, other];
    let [s1, l1, d1, o1] = [s >> 1, l >> 1, d >> 1, o >> 1];
    let by_sum = [
        o & o1,
        o & d1 | d & o1,
        o & l1 | l & o1 | d & d1,
        o & s1 | s & o1 | d & l1 | l & d1,
        l & l1 | d & s1 | s & d1,
        l & s1 | s & l1,
        s & s1,
    ];
    let mut kept = [NO_PAIR; PAIRS];
    let mut count = 0;
    for mut pairs in by_sum {
        while pairs != 0 {
            let at = (u64::BITS - 1 - pairs.leading_zeros()) as usize;
            pairs &= !(1 << at);
            let hash = pair_hash(window[at], window[at + 1]);
            if kept[..count].contains(&hash) {
                continue;
            }
            kept[count] = hash;
            count += 1;
            if count == PAIRS {
                return kept;
            }
        }
    }
    kept
}

/// The classes of the octets of `window` (at most [`WINDOW`] of them), one at a time:
/// for windows under four octets, elsewhere than x86-64, and as the reference the vector
/// version is tested against.
fn one_at_a_time(window: &[u8]) -> Classes {
    window
        .iter()
        .enumerate()
        .fold(Classes::default(), |mut classes, (i, &b)| {
            let class = match b {
                b'/' => &mut classes.slash,
                b'a'..=b'z' => &mut classes.lower,
                b'0'..=b'9' | b'A'..=b'Z' => &mut classes.digit_upper,
                b'*' => &mut classes.star,
                _ => return classes,
            };
            *class |= 1 << i;
            classes
        })
}

#[cfg(not(target_arch = "x86_64"))]
fn classes(window: &[u8]) -> Classes {
    one_at_a_time(window)
}

/// The classes with SSE2, which every x86-64 processor has: sixteen octets are compared
/// at once and each class's lanes gathered into bits. The last block overlaps the one
/// before, and a window under sixteen octets is loaded as two overlapping halves; the
/// bits of an overlap are set twice, which changes nothing.
#[cfg(target_arch = "x86_64")]
fn classes(window: &[u8]) -> Classes {
    use crate::halves::overlapping_halves;
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8,
    };
    let n = window.len();
    if n < 4 {
        return one_at_a_time(window);
    }
    // SAFETY: SSE2 is part of the x86-64 baseline, so the intrinsics exist on every
    // processor this runs on. Each load reads the 16 octets of a `&[u8; 16]`, and allows
    // any alignment.
    unsafe {
        // Whether each octet lies in `low..=high`: subtracting `low` and flipping the top
        // bit turns the unsigned comparison into the signed one SSE2 has.
        let within = |v: __m128i, low: u8, high: u8| {
            let shifted = _mm_add_epi8(v, _mm_set1_epi8(0x80u8.wrapping_sub(low) as i8));
            let span = (high - low + 1) ^ 0x80;
            _mm_cmplt_epi8(shifted, _mm_set1_epi8(span as i8))
        };
        let bits = |m: __m128i| u64::from(_mm_movemask_epi8(m) as u16);
        let classify = |v: __m128i| Classes {
            slash: bits(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'/' as i8))),
            lower: bits(within(v, b'a', b'z')),
            digit_upper: bits(_mm_or_si128(within(v, b'0', b'9'), within(v, b'A', b'Z'))),
            star: bits(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'*' as i8))),
        };
        // Of each class's lanes, `0..half` stand for octets from 0 and `half..2 * half`
        // for the last `half` octets; lanes past those repeat them.
        let placed = |c: Classes, half: u32| {
            let low = (1 << half) - 1;
            let place = |m: u64| m & low | (m >> half & low) << (n - half as usize);
            Classes {
                slash: place(c.slash),
                lower: place(c.lower),
                digit_upper: place(c.digit_upper),
                star: place(c.star),
            }
        };
        if n >= 16 {
            let mut all = Classes::default();
            for block in 0..n.div_ceil(16) {
                let at = (16 * block).min(n - 16);
                let Some(octets) = window[at..].first_chunk::<16>() else {
                    break;
                };
                let c = classify(_mm_loadu_si128(octets.as_ptr().cast()));
                all.slash |= c.slash << at;
                all.lower |= c.lower << at;
                all.digit_upper |= c.digit_upper << at;
                all.star |= c.star << at;
            }
            all
        } else {
            let (lanes, half) = overlapping_halves(window);
            placed(classify(lanes), half)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rarity of an octet, as [`Classes`] gives it; `None` for `*`.
    fn rarity(b: u8) -> Option<u8> {
        match b {
            b'*' => None,
            b'/' => Some(1),
            b'a'..=b'z' => Some(2),
            b'0'..=b'9' | b'A'..=b'Z' => Some(3),
            _ => Some(4),
        }
    }

    /// Every pair of the window outside `*`, rarest and then latest first, each hash once.
    fn by_sorting(pattern: &[u8]) -> [u16; PAIRS] {
        let window = &pattern[pattern.len().saturating_sub(WINDOW)..];
        let mut pairs: Vec<(u8, usize, u16)> = window
            .windows(2)
            .enumerate()
            .filter_map(|(at, w)| {
                let sum = rarity(w[0])? + rarity(w[1])?;
                Some((sum, at, pair_hash(w[0], w[1])))
            })
            .collect();
        pairs.sort_by_key(|&(sum, at, _)| std::cmp::Reverse((sum, at)));
        let mut kept = Vec::new();
        for (_, _, hash) in pairs {
            if !kept.contains(&hash) && kept.len() < PAIRS {
                kept.push(hash);
            }
        }
        kept.resize(PAIRS, NO_PAIR);
        kept.try_into().unwrap()
    }

    /// Octets on both sides of every class border.
    const EDGES: &[u8] = b"*/.0189@AZ[`az{\x00\x7F\x80\xFF%?=-";

    proptest::proptest! {
        /// Sixteen at a time, in whole and overlapping blocks and in halves, finds the
        /// classes one at a time finds.
        #[test]
        fn vector_and_one_at_a_time_agree(
            window in proptest::collection::vec(proptest::sample::select(EDGES.to_vec()), 0..=WINDOW),
        ) {
            proptest::prop_assert_eq!(classes(&window), one_at_a_time(&window));
        }

        /// The pairs kept are those a full sort of the window's pairs puts first.
        #[test]
        fn the_rarest_and_latest_pairs_are_kept(
            pattern in proptest::collection::vec(proptest::sample::select(EDGES.to_vec()), 0..90),
        ) {
            proptest::prop_assert_eq!(rarest_pairs(&pattern), by_sorting(&pattern));
        }
    }

    #[test]
    fn rare_octets_win_and_pairs_never_straddle_a_wildcard() {
        let hash = |pair: &[u8; 2]| pair_hash(pair[0], pair[1]);
        // `?=` (sum 8) beats `f?` and `.p` (6, the later first), which beat `pd` (4).
        assert_eq!(
            rarest_pairs(b"/*.pdf?=*"),
            [hash(b"?="), hash(b"f?"), hash(b".p")]
        );
        assert_eq!(rarest_pairs(b"/*a*b"), [NO_PAIR; PAIRS]);
        assert_eq!(rarest_pairs(b""), [NO_PAIR; PAIRS]);
    }
}
