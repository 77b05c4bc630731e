//! The integration tests of this crate, one module per file, built into one binary
//! so that CI links once per crate rather than once per file.

mod cdx;
mod common;
mod export;
mod ingest;
mod release;
mod revisit;
mod safety;
mod serve;
mod unreachable;
mod wget;
