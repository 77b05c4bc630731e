//! The integration tests of this crate, one module per file, built into one binary
//! so that CI links once per crate rather than once per file.

mod caching;
mod common;
mod connections;
mod embargo;
mod limits;
mod pacing;
mod polite_crawler;
mod settings;
mod statuses;
mod usage;
