//! The words and JSON shapes that `robots` (the command line), the browser tester and
//! the npm and Python bindings show for the engine's answers, written once here.
//!
//! - [`NamedAgent`]: a crawler name as typed, read as its profile reads it (a product
//!   token, or a whole User-Agent header in RFC 9309's), with the [`AgentNote`]s to tell
//!   whoever typed it.
//! - [`VerdictJson`]: one URL's verdict in the fields `robots check --format json`
//!   prints and the page's results table reads.
//! - [`DiagnosticJson`]: a lint finding in the fields of `robots lint --format json`,
//!   with the page's span.
//! - [`reasons`]: why a verdict came out so, in the words verdict lines and
//!   explanations use (`no rule matched`, `robots.txt unreachable: everything disallowed`).
//! - [`explanation`]: `explain`'s text, for the command line and the Python package.
//! - [`Patterns`]: rule patterns as their file wrote them, octets that are not UTF-8 as `\xE9`.
//! - [`text`] and [`style`]: how names and patterns are shown on a terminal line, colour
//!   and counts in words.
//!
//! ```
//! use robots::{Profile, Robots};
//! use robots_present::{NamedAgent, VerdictJson};
//!
//! let robots = Robots::parse(b"User-agent: *\nDisallow: /private\n");
//! let named = NamedAgent::new("Mozilla/5.0 (compatible; ExampleBot/2.1)", Profile::Rfc9309, false).unwrap();
//! assert_eq!(named.agent.token(), "ExampleBot");
//! let verdict = robots.check(&named.agent, "/private/x");
//! let json = serde_json::to_string(&VerdictJson::new("/private/x", &verdict)).unwrap();
//! assert_eq!(json, r#"{"url":"/private/x","allowed":false,"line":2,"rule":"disallow","pattern":"/private","embargo_days":null,"reason":"longest"}"#);
//! ```

#![warn(missing_docs)]

mod agent;
mod diagnostic;
pub mod explanation;
mod preferences;
pub mod reasons;
pub mod style;
pub mod text;
mod verdict;
mod written;

pub use agent::{AgentJson, AgentNote, NamedAgent, NamingError};
pub use diagnostic::DiagnosticJson;
pub use preferences::{Pairs, PreferencesJson};
pub use style::Style;
pub use verdict::{blanket_reason, VerdictJson};
pub use written::Patterns;
