//! The integration tests of this crate, one module per file, built into one binary
//! so that CI links once per crate rather than once per file.

mod aipref;
mod api;
#[path = "../common/mod.rs"]
mod common;
mod diagnostics;
mod embargo;
mod google_conformance;
mod google_corpus;
mod profiles;
mod properties;
mod rfc9309;
mod rfc9309_vectors;
