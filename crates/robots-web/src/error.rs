//! What the page can get wrong when it asks the engine something: an unknown profile,
//! an agent name that is no product token, or an embargo with Google's profile.

/// A request from the page that the engine cannot answer as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebError {
    #[error(transparent)]
    Engine(#[from] robots::Error),
    #[error("Google's matcher knows no Archive-Embargo; choose the rfc9309 profile to honour it")]
    EmbargoNeedsRfc9309,
    #[error("status {0} is a redirect: follow it (RFC 9309 §2.3.1.2 asks for at least five hops) and pass the final response's status and body")]
    Redirect(u16),
    #[error("the status must be a whole number from 0 (no answer) to 999; got {0}")]
    BadStatus(String),
    #[error("maxBytes must be a whole number of bytes, 512000 or more; got {0}")]
    BadLimit(String),
    #[error("this agent was made for the {made} profile but the file was parsed under {file}; make the agent for the file's profile")]
    ProfileMismatch {
        made: &'static str,
        file: &'static str,
    },
}

impl From<robots_present::NamingError> for WebError {
    fn from(err: robots_present::NamingError) -> WebError {
        match err {
            robots_present::NamingError::Engine(err) => WebError::Engine(err),
            robots_present::NamingError::EmbargoNeedsRfc9309 => WebError::EmbargoNeedsRfc9309,
        }
    }
}
