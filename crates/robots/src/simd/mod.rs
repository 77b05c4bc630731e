//! The SIMD and word-at-a-time kernels the engine's hot loops stand on, and all of the
//! crate's `unsafe`: nothing outside this module may hold an `unsafe` block.

pub(crate) mod find;
#[cfg(target_arch = "x86_64")]
pub(crate) mod halves;
pub(crate) mod octet_mask;
pub(crate) mod scan;
pub(crate) mod swar;
pub(crate) mod value_scan;
