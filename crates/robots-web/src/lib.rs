//! The browser tester: the robots.txt engine compiled to WebAssembly for a static page,
//! and (natively) that page embedded at build time with the server `robots serve` runs.
//!
//! The page asks the engine through [`Tester`], which answers in JSON; in the browser
//! the same calls arrive through `wasm-bindgen` (`parse(bytes, profile).check(…)`). The
//! agent a typed name stands for, with its notes, and the verdict and lint JSON are
//! [`robots_present`]'s, which `robots check` and `robots lint` use too.
//!
//! ```
//! let tester = robots_web::Tester::parse(b"User-agent: *\nDisallow: /private\n", "rfc9309").unwrap();
//! let json = tester.check("ExampleBot", false, &["/private/x".to_owned()]).unwrap();
//! assert!(json.contains(r#""allowed":false,"line":2"#));
//! ```
//!
//! # The page in every build
//!
//! `cargo build` (and `cargo install --path crates/robots-cli`) builds the page's
//! WebAssembly itself: with the default feature `embed-wasm`, the build script runs a
//! nested `cargo build --target wasm32-unknown-unknown --profile web` of this crate, in
//! a target directory of its own (`<target>/robots-web-wasm/`, so the cargo running the
//! build script, which holds the lock on its own, is not waited on), and writes the
//! JavaScript glue with `wasm-bindgen-cli-support`, the wasm-bindgen CLI's library at
//! the version the `wasm-bindgen` pin names, so no CLI need be installed. The result is
//! kept with a hash of its inputs (this crate's and the engine's sources, the workspace
//! manifest and lock file, the compiler's version): `cargo build`, `clippy`, `test` and
//! `doc` build it once between them, and again only when those change. A missing wasm32
//! target is added with `rustup target add` when rustup is there; when the WebAssembly
//! cannot be built, a `cargo:warning` says why and what to run, and the page embedded
//! says how to build it (see [`assets::page_built`]). `scripts/build-web` runs the same
//! build and prints the bundle's sizes. A dependent that wants no WebAssembly built (the
//! npm package's build, the nested build itself) turns `embed-wasm` off
//! (`--no-default-features`).

mod bindings;
mod error;
mod explanation;
#[cfg(all(target_arch = "wasm32", feature = "node"))]
mod heap;
mod packed;
mod response;
mod summary;
mod tester;

#[cfg(not(target_arch = "wasm32"))]
pub mod assets;
#[cfg(not(target_arch = "wasm32"))]
pub mod serve;

pub use error::WebError;
pub use response::Availability;
/// The verdict JSON the page reads, `robots check --format json` prints and the
/// bindings give: [`robots_present`]'s, shared by them all.
pub use robots_present::VerdictJson;
pub use robots_present::{Pairs, PreferencesJson};
pub use tester::Tester;
