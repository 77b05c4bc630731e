//! The 64-bit summary of which octets a wildcard pattern or a path holds (each sets bit
//! `octet % 64`), which rules out most wildcard patterns for a path before any search.

/// Which octets occur in `bytes` (each sets bit `octet % 64`), wildcards left out. A
/// pattern can only match a path whose mask covers its own, so one AND rules out most
/// wildcard patterns before any search. Always inlined: left to the compiler, it was once
/// called out of line from the parse, at 10 M more instructions.
///
/// With AVX2, where the processor has it, eight octets take one variable shift: over the
/// corpus the parse took 2% less time than with [`eight_lookups`] (one table lookup per
/// octet), and the question costs a load of the cached answer. With AVX-512 (BW and VL),
/// 32 octets take four, and the parse took 2% less time again ([`wide_shifts`]).
#[inline(always)]
pub(crate) fn byte_mask(bytes: &[u8]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512bw") && std::is_x86_feature_detected!("avx512vl") {
        // SAFETY: the processor has AVX-512 BW and VL, as just checked.
        return unsafe { wide_shifts(bytes) };
    }
    #[cfg(target_arch = "x86_64")]
    if bytes.len() >= 8 && std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, as just checked, and there are eight octets.
        return unsafe { eight_shifts(bytes) };
    }
    eight_lookups(bytes)
}

/// [`byte_mask`] by table lookups, eight a step.
#[inline(always)]
fn eight_lookups(bytes: &[u8]) -> u64 {
    let bit = |b: &u8| OCTET_BIT[usize::from(*b)];
    let eight = |mask: u64, word: &[u8]| word.iter().fold(mask, |m, b| m | bit(b));
    // Always eight lookups a step, since an OR does not mind an octet read twice: the
    // last step reads the last eight octets again, and a short value its last octet.
    // A loop over a remainder of 0 to 7 octets branched on lengths, which vary from
    // value to value and so kept being mispredicted.
    match bytes.last_chunk::<8>() {
        Some(last) => eight(bytes.chunks_exact(8).fold(0, eight), last),
        None => match bytes.len().checked_sub(1) {
            Some(end) => eight(0, &std::array::from_fn::<u8, 8, _>(|i| bytes[i.min(end)])),
            None => 0,
        },
    }
}

/// [`byte_mask`] eight octets a step: each widened to a 32-bit lane, where shifting a one
/// left by the octet's low six bits sets its bit in the mask's low half, and by six bits
/// less 32 in its high half (a shift by 32 or more, or by a negative amount read
/// unsigned, leaves nothing). The last step overlaps the one before.
///
/// # Safety
///
/// The processor must have AVX2, and `bytes` must hold at least eight octets.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn eight_shifts(bytes: &[u8]) -> u64 {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi32,
        _mm256_cvtepu8_epi32, _mm256_extracti128_si256, _mm256_or_si256, _mm256_set1_epi32,
        _mm256_setzero_si256, _mm256_sllv_epi32, _mm256_sub_epi32, _mm_cvtsi128_si32,
        _mm_loadl_epi64, _mm_or_si128, _mm_shuffle_epi32,
    };
    let one = _mm256_set1_epi32(1);
    let (mut low, mut high) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    let mut add = |word: &[u8; 8]| {
        // SAFETY: the load reads the eight octets of `word`, and allows any alignment.
        let octets = _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(word.as_ptr().cast()) });
        // A `*` sets no bit: its shift gains 64, which shifts the one out of both halves.
        let star = _mm256_cmpeq_epi32(octets, _mm256_set1_epi32(i32::from(b'*')));
        let shift = _mm256_or_si256(
            _mm256_and_si256(octets, _mm256_set1_epi32(63)),
            _mm256_and_si256(star, _mm256_set1_epi32(64)),
        );
        low = _mm256_or_si256(low, _mm256_sllv_epi32(one, shift));
        let less_32 = _mm256_sub_epi32(shift, _mm256_set1_epi32(32));
        high = _mm256_or_si256(high, _mm256_sllv_epi32(one, less_32));
    };
    for word in bytes.chunks_exact(8).filter_map(<[u8]>::first_chunk::<8>) {
        add(word);
    }
    if let Some(last) = bytes.last_chunk::<8>() {
        add(last);
    }
    // The OR of a half's eight lanes.
    let fold = |v: __m256i| {
        let x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        let x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0b01_00_11_10));
        let x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0b10_11_00_01));
        _mm_cvtsi128_si32(x) as u32
    };
    u64::from(fold(low)) | u64::from(fold(high)) << 32
}

/// [`byte_mask`] 32 octets a step, each step loading only the octets there are (a lane
/// past the end is not read): each octet is widened to a 64-bit lane, where a one is
/// shifted left by its low six bits, and a `*` or a lane past the end shifts by 64,
/// which leaves nothing. No length is a branch of its own, as the AVX2 steps' last one
/// is.
///
/// # Safety
///
/// The processor must have AVX-512 BW and VL.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn wide_shifts(bytes: &[u8]) -> u64 {
    use std::arch::x86_64::{
        _mm256_and_si256, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_mask_blend_epi8,
        _mm256_mask_cmpneq_epi8_mask, _mm256_maskz_loadu_epi8, _mm256_or_si256, _mm256_set1_epi8,
        _mm512_castsi512_si256, _mm512_cvtepu8_epi64, _mm512_extracti64x4_epi64, _mm512_or_si512,
        _mm512_set1_epi64, _mm512_setzero_si512, _mm512_sllv_epi64, _mm_cvtsi128_si64,
        _mm_or_si128, _mm_srli_si128, _mm_unpackhi_epi64,
    };
    let mut mask = _mm512_setzero_si512();
    for at in (0..bytes.len()).step_by(32) {
        let left = bytes.len() - at;
        let lanes = if left >= 32 {
            u32::MAX
        } else {
            (1 << left) - 1
        };
        // SAFETY: the load reads only the lanes `lanes` selects, which lie in `bytes`
        // (the others are not read, so cannot fault), and allows any alignment.
        let octets = unsafe { _mm256_maskz_loadu_epi8(lanes, bytes.as_ptr().add(at).cast()) };
        let kept = _mm256_mask_cmpneq_epi8_mask(lanes, octets, _mm256_set1_epi8(b'*' as i8));
        let shifts = _mm256_mask_blend_epi8(
            kept,
            _mm256_set1_epi8(64),
            _mm256_and_si256(octets, _mm256_set1_epi8(63)),
        );
        let low = _mm256_castsi256_si128(shifts);
        let high = _mm256_extracti128_si256(shifts, 1);
        for eight in [low, _mm_srli_si128(low, 8), high, _mm_srli_si128(high, 8)] {
            let bits = _mm512_sllv_epi64(_mm512_set1_epi64(1), _mm512_cvtepu8_epi64(eight));
            mask = _mm512_or_si512(mask, bits);
        }
    }
    // The OR of the eight lanes.
    let x = _mm256_or_si256(
        _mm512_castsi512_si256(mask),
        _mm512_extracti64x4_epi64(mask, 1),
    );
    let x = _mm_or_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
    _mm_cvtsi128_si64(_mm_or_si128(x, _mm_unpackhi_epi64(x, x))) as u64
}

/// Each octet's bit in a [`byte_mask`] (none for `*`), looked up rather than shifted:
/// variable shifts vectorise poorly without AVX2.
static OCTET_BIT: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        if b != b'*' as usize {
            table[b] = 1 << (b % 64);
        }
        b += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Lookups and shifts give each octet's bit at every length: short, whole steps,
        /// and steps and a remainder.
        #[test]
        fn a_mask_has_the_bit_of_every_octet(
            bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..100),
        ) {
            let want = bytes
                .iter()
                .filter(|&&b| b != b'*')
                .fold(0u64, |mask, &b| mask | 1 << (b % 64));
            proptest::prop_assert_eq!(byte_mask(&bytes), want);
            proptest::prop_assert_eq!(eight_lookups(&bytes), want);
            #[cfg(target_arch = "x86_64")]
            if bytes.len() >= 8 && std::is_x86_feature_detected!("avx2") {
                // SAFETY: the processor has AVX2, as just checked, and there are eight
                // octets.
                proptest::prop_assert_eq!(unsafe { eight_shifts(&bytes) }, want);
            }
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vl")
            {
                // SAFETY: the processor has AVX-512 BW and VL, as just checked.
                proptest::prop_assert_eq!(unsafe { wide_shifts(&bytes) }, want);
            }
        }
    }

    #[test]
    fn a_star_sets_no_bit_but_octets_sharing_it_do() {
        // `j` is `*` + 64: both would set bit 42.
        assert_eq!(byte_mask(b"/a/*/b/*"), byte_mask(b"/a//b/"));
        assert_eq!(byte_mask(b"/a/*/j/*") & 1 << 42, 1 << 42);
    }
}
