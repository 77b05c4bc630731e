//! The crate's one error type: what can go wrong outside parsing (naming the crawler,
//! choosing a profile, setting the parse limit), each message saying what to give instead.

/// What can go wrong outside parsing (which never fails): naming the crawler, choosing a
/// profile, setting the parse limit. Each message says what to give instead. More
/// variants may come, so matches need a `_` arm.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// [`Agent::new`](crate::Agent::new) was given an empty name.
    #[error("the crawler's name is empty; give its product token, e.g. `ExampleBot`")]
    EmptyAgent,
    /// [`Agent::new`](crate::Agent::new) was given a name with a character no HTTP token
    /// holds (white space, `/`, `(`…): a whole User-Agent header, say.
    #[error("the crawler's name `{agent}` contains {character:?}, which cannot appear in a product token; give just the token, e.g. `ExampleBot`, or use Agent::from_user_agent for a full User-Agent header")]
    InvalidAgent {
        /// The name as given.
        agent: String,
        /// The first character that cannot stand in a product token.
        character: char,
    },
    /// [`Agent::from_user_agent`](crate::Agent::from_user_agent) found no product in the
    /// header (it is blank, or holds only comments).
    #[error("found no product token in the User-Agent `{0}`; give the crawler's token, e.g. `ExampleBot`")]
    NoProductInUserAgent(String),
    /// A profile name other than `rfc9309` (or `rfc`) and `google`, when parsing a
    /// [`Profile`](crate::Profile) from a string.
    #[error("unknown profile `{0}`; use `rfc9309` or `google`")]
    UnknownProfile(String),
    /// [`Options::max_bytes`](crate::Options::max_bytes) was given less than
    /// [`MIN_PARSE_LIMIT`](crate::MIN_PARSE_LIMIT).
    #[error("a parse limit of {0} bytes is below RFC 9309's floor of 512,000 bytes (500 KiB); use 512000 or more")]
    LimitTooSmall(usize),
}
