//! The crawler the page names, built the way `robots check --agent` builds it, so the
//! page and the command line give the same verdicts for the same name.

use robots::{Agent, Profile};
use serde::Serialize;

use crate::WebError;

/// The agent to check for, and what the page should tell the user about its name.
#[derive(Debug, Clone)]
pub struct NamedAgent {
    pub agent: Agent,
    pub notes: Vec<String>,
}

/// The agent as the page reports it back.
#[derive(Debug, Serialize)]
pub struct AgentJson<'a> {
    pub name: &'a str,
    pub token: &'a str,
    pub honours_embargo: bool,
    pub notes: &'a [String],
}

impl NamedAgent {
    /// The crawler called `name` under `profile`. The RFC 9309 profile wants a product
    /// token, and reads a name with `/` or a space as a User-Agent header; Google's
    /// matcher compares the name exactly as given. Embargoes need the RFC 9309 profile.
    pub fn new(name: &str, profile: Profile, embargo: bool) -> Result<NamedAgent, WebError> {
        let mut notes = Vec::new();
        if name == "*" {
            notes.push(
                "`*` names no crawler; the verdicts are those a crawler gets that no group names: the `*` groups', if any"
                    .to_owned(),
            );
        }
        let agent = match profile {
            Profile::Google if embargo => return Err(WebError::EmbargoNeedsRfc9309),
            Profile::Google => {
                if let Some(note) = google_note(name) {
                    notes.push(note);
                }
                Agent::verbatim(name)
            }
            Profile::Rfc9309 => match Agent::new(name) {
                Ok(agent) => agent,
                Err(err) => match Agent::from_user_agent(name) {
                    Ok(agent) if name.contains(['/', ' ']) => {
                        notes.push(format!(
                            "read as a User-Agent header, whose product token is `{}`",
                            agent.token()
                        ));
                        agent
                    }
                    _ => return Err(err.into()),
                },
            },
        };
        if profile == Profile::Rfc9309 && name != "*" && !agent.is_rfc9309_token() {
            notes.push(format!(
                "`{}` has characters outside RFC 9309's [A-Za-z_-]; it still matches groups that name it exactly",
                agent.token()
            ));
        }
        let agent = if embargo {
            agent.honouring_embargo()
        } else {
            agent
        };
        Ok(NamedAgent { agent, notes })
    }

    pub fn json(&self) -> AgentJson<'_> {
        AgentJson {
            name: self.agent.name(),
            token: self.agent.token(),
            honours_embargo: self.agent.honours_embargo(),
            notes: &self.notes,
        }
    }
}

/// What to tell the user about a name Google's matcher compares as given, as `robots
/// check --profile google` warns: an empty name, or one with characters outside
/// `[A-Za-z_-]`, which no user-agent line's leading `[A-Za-z_-]` can equal.
fn google_note(name: &str) -> Option<String> {
    let rfc9309 = |c: char| c.is_ascii_alphabetic() || c == '-' || c == '_';
    if name.is_empty() {
        return Some(
            "Google's matcher takes an empty name as given, so only user-agent lines that name no product match it, and otherwise the `*` group applies; give the crawler's product token, e.g. `ExampleBot`"
                .to_owned(),
        );
    }
    if name == "*" || name.chars().all(rfc9309) {
        return None;
    }
    let lead: String = name.chars().take_while(|&c| rfc9309(c)).collect();
    let hint = if lead.is_empty() {
        String::new()
    } else {
        format!("; for the crawler a line `User-agent: {lead}` names, give `{lead}`")
    };
    Some(format!(
        "Google's matcher compares `{name}` as given with the leading [A-Za-z_-] of each user-agent line, so it can match no group but `*`{hint}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_agent_header_is_read_for_its_product_token_in_rfc9309() {
        let named = NamedAgent::new(
            "Mozilla/5.0 (compatible; ExampleBot/2.1)",
            Profile::Rfc9309,
            false,
        )
        .unwrap();
        assert_eq!(named.agent.token(), "ExampleBot");
        assert_eq!(named.notes.len(), 1);
        assert!(named.notes[0].contains("ExampleBot"));
    }

    #[test]
    fn google_takes_the_name_verbatim_and_refuses_embargoes() {
        let named = NamedAgent::new("FooBot/1.0", Profile::Google, false).unwrap();
        assert_eq!(named.agent.name(), "FooBot/1.0");
        // Compared as given, it can match no group but `*`: the user is told so.
        assert_eq!(named.notes.len(), 1);
        assert!(named.notes[0].contains("give `FooBot`"));
        assert!(NamedAgent::new("FooBot", Profile::Google, false)
            .unwrap()
            .notes
            .is_empty());
        assert_eq!(
            NamedAgent::new("FooBot", Profile::Google, true).unwrap_err(),
            WebError::EmbargoNeedsRfc9309
        );
    }

    #[test]
    fn names_outside_the_rfc_alphabet_get_a_note_and_bad_names_an_error() {
        let named = NamedAgent::new("MJ12bot", Profile::Rfc9309, true).unwrap();
        assert!(named.agent.honours_embargo());
        assert!(named.notes[0].contains("MJ12bot"));
        assert!(matches!(
            NamedAgent::new("", Profile::Rfc9309, false),
            Err(WebError::Engine(robots::Error::EmptyAgent))
        ));
    }
}
