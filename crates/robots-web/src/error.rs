//! What the page can get wrong when it asks the engine something: an unknown profile,
//! an agent name that is no product token, or an embargo with Google's profile.

/// A request from the page that the engine cannot answer as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebError {
    #[error(transparent)]
    Engine(#[from] robots::Error),
    #[error("Google's matcher knows no Archive-Embargo; choose the rfc9309 profile to honour it")]
    EmbargoNeedsRfc9309,
}
