//! Loading 4 to 15 octets into one SSE2 register without reading past them, as two
//! overlapping halves: how the vector scans of rule values read a short one.

use std::arch::x86_64::{__m128i, _mm_set_epi64x};

/// The octets of `bytes` (4 to 15 of them) in sixteen lanes, and how many lanes a half
/// takes (8, or 4 under eight octets): lanes `0..half` hold the first `half` octets and
/// lanes `half..2 * half` the last `half`, which overlap the first unless `bytes` is
/// `2 * half` long; lanes past those repeat them. So every octet is in a lane once or
/// twice, and no other is: an OR over the lanes is that over the octets.
pub(crate) fn overlapping_halves(bytes: &[u8]) -> (__m128i, u32) {
    let n = bytes.len();
    debug_assert!((4..16).contains(&n), "{n} octets");
    let eight = |at: usize| {
        bytes[at..]
            .first_chunk::<8>()
            .map_or(0, |w| i64::from_le_bytes(*w))
    };
    let four = |at: usize| {
        bytes[at..]
            .first_chunk::<4>()
            .map_or(0, |w| i64::from(u32::from_le_bytes(*w)))
    };
    // SAFETY: SSE2 is part of the x86-64 baseline, so the intrinsic exists on every
    // processor this runs on; it reads no memory.
    unsafe {
        if n >= 8 {
            (_mm_set_epi64x(eight(n - 8), eight(0)), 8)
        } else {
            let both = four(0) | four(n - 4) << 32;
            (_mm_set_epi64x(both, both), 4)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::arch::x86_64::_mm_storeu_si128;

    #[test]
    fn each_half_holds_its_end_of_the_octets() {
        let bytes: Vec<u8> = (1..=15).collect();
        for n in 4..16 {
            let (lanes, half) = overlapping_halves(&bytes[..n]);
            let mut out = [0u8; 16];
            // SAFETY: SSE2 is part of the x86-64 baseline; the store writes the 16
            // octets of `out`.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), lanes) };
            let half = half as usize;
            assert_eq!(half, if n >= 8 { 8 } else { 4 });
            assert_eq!(out[..half], bytes[..half], "{n}");
            assert_eq!(out[half..2 * half], bytes[n - half..n], "{n}");
            assert_eq!(out[2 * half..], out[..16 - 2 * half], "{n}");
        }
    }
}
