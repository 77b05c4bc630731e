//! The integration tests of this crate, one module per file, built into one binary
//! so that CI links once per crate rather than once per file.

mod archive;
mod check;
mod common;
mod fetch;
mod large_input;
mod preferences;
mod readme;
mod serve;
mod site_owner;
