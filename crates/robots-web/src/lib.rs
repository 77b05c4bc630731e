//! The browser tester: the robots.txt engine compiled to WebAssembly for a static page,
//! and (natively) that page embedded at build time with the server `robots serve` runs.
//!
//! The page asks the engine through [`Tester`], which answers in JSON; in the browser
//! the same calls arrive through `wasm-bindgen` (`parse(bytes, profile).check(…)`).
//!
//! ```
//! let tester = robots_web::Tester::parse(b"User-agent: *\nDisallow: /private\n", "rfc9309").unwrap();
//! let json = tester.check("ExampleBot", false, &["/private/x".to_owned()]).unwrap();
//! assert!(json.contains(r#""allowed":false,"line":2"#));
//! ```
//!
//! Build the page's WebAssembly with `scripts/build-web`; `cargo build` then embeds it.
//! Without it the embedded page says how to build it (see [`assets::page_built`]).

mod agent;
mod bindings;
mod diagnostics;
mod error;
mod explanation;
#[cfg(all(target_arch = "wasm32", feature = "node"))]
mod heap;
mod packed;
mod preferences;
mod response;
mod summary;
mod tester;
mod verdicts;

#[cfg(not(target_arch = "wasm32"))]
pub mod assets;
#[cfg(not(target_arch = "wasm32"))]
pub mod serve;

pub use error::WebError;
pub use preferences::{Pairs, PreferencesJson};
pub use response::Availability;
pub use tester::Tester;
pub use verdicts::VerdictJson;
