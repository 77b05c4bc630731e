//! AI usage preferences for a page: the `Content-Usage` header of its response
//! (draft-ietf-aipref-attach-05 §2) combined with its origin's robots.txt rules (§3).

use reqwest::header::HeaderMap;
use robots::{Agent, ContentSignal, Preferences};

use crate::Answer;

/// The `Content-Usage` field of a response, parsed (attach-05 §2): an RFC 9651
/// Dictionary read with vocab-07 §6.5. Several field lines are joined with commas first
/// (RFC 9651 §4.2), so the last duplicate key across lines wins and one line that does not
/// parse loses the whole field. No header, or one that fails: every category unknown.
///
/// ```
/// use robots_fetch::{content_usage_header, HeaderMap};
/// use robots_fetch::robots::{Category, Usage};
///
/// let mut headers = HeaderMap::new();
/// headers.append("content-usage", "train-ai=n".parse().unwrap());
/// headers.append("content-usage", "search=y".parse().unwrap());
/// let header = content_usage_header(&headers);
/// assert_eq!(header.get(Category::TrainAi), Some(Usage::Disallowed));
/// assert_eq!(header.get(Category::Search), Some(Usage::Allowed));
/// ```
pub fn content_usage_header(headers: &HeaderMap) -> Preferences {
    let lines = headers.get_all("content-usage");
    if lines.iter().next().is_none() {
        return Preferences::UNKNOWN;
    }
    Preferences::from_header_lines(lines.iter().map(|v| v.as_bytes()))
}

impl Answer {
    /// The preferences of the origin's robots.txt for `agent` and `url` (the agent's
    /// Content-Usage rule, [`robots::Robots::content_usage`]); unknown when no rule
    /// applies, the URL is disallowed, or no file was read (allow all, disallow all).
    pub fn content_usage(&self, agent: &Agent, url: &str) -> Preferences {
        self.rules()
            .robots()
            .and_then(|r| r.content_usage(agent, url))
            .map_or(Preferences::UNKNOWN, |u| u.preferences())
    }

    /// What `agent` may do with the content of `url`, fetched with `headers`: the
    /// robots.txt rule ([`Answer::content_usage`]) and the response's `Content-Usage`
    /// header ([`content_usage_header`]) combined per category, the most restrictive
    /// winning (vocab-07 §5.1; attach-05 does not say how the two combine).
    pub fn usage_for_response(&self, agent: &Agent, url: &str, headers: &HeaderMap) -> Preferences {
        self.content_usage(agent, url)
            .combine(content_usage_header(headers))
    }

    /// The Content-Signal of the agent's groups, as
    /// [`Robots::content_signal`](robots::Robots::content_signal) gives it; `None` when
    /// they have none or no file was read.
    pub fn content_signal(&self, agent: &Agent) -> Option<ContentSignal> {
        self.rules().robots()?.content_signal(agent)
    }
}
