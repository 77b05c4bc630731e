//! A crawler name as someone typed it, read the way its profile reads names, with the
//! notes to give them about it: the same agent and the same advice on the command line
//! (`--agent`), in the browser tester and in the npm package's `crawler()`.

use robots::{Agent, Profile};
use serde::Serialize;

/// Why a typed name gives no agent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NamingError {
    /// The name is no product token and no User-Agent header (RFC 9309 profile).
    #[error(transparent)]
    Engine(#[from] robots::Error),
    /// An agent honouring Archive-Embargo was asked for under Google's profile.
    #[error("Google's matcher knows no Archive-Embargo; choose the rfc9309 profile to honour it")]
    EmbargoNeedsRfc9309,
}

/// Something to tell whoever typed a name about how it was read, in the order
/// [`NamedAgent::new`] finds them. Each has the page's words ([`AgentNote::page_text`])
/// and the command line's ([`AgentNote::command_text`]), which names `--agent` and
/// escapes control characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentNote {
    /// `*` names no crawler: the verdicts are those of a crawler no group names.
    Star,
    /// Google's matcher takes an empty name as given.
    GoogleEmpty,
    /// Google's matcher compares `name` as given, and it has characters outside
    /// `[A-Za-z_-]`, so it can match no group but `*`; `lead` is its leading run of
    /// those characters, the token the user likely meant (empty when there is none).
    GoogleUnmatchable {
        /// The name as typed.
        name: String,
        /// Its leading `[A-Za-z_-]` characters.
        lead: String,
    },
    /// A name with `/` or a space read as a User-Agent header (RFC 9309 profile).
    UserAgentHeader {
        /// The name as typed.
        header: String,
        /// The product token read from it.
        token: String,
    },
    /// A token outside RFC 9309's `[A-Za-z_-]`, which still matches groups naming it
    /// exactly.
    OutsideRfc9309 {
        /// The product token.
        token: String,
    },
}

impl AgentNote {
    /// Whether the command line calls it a warning (the name may not do what was
    /// meant) rather than a note (how it was read).
    pub fn is_warning(&self) -> bool {
        matches!(
            self,
            AgentNote::GoogleEmpty
                | AgentNote::GoogleUnmatchable { .. }
                | AgentNote::OutsideRfc9309 { .. }
        )
    }

    /// The note as the browser tester and the npm package give it.
    pub fn page_text(&self) -> String {
        self.text(false)
    }

    /// The note as `robots` writes it on standard error after `robots: note: ` or
    /// `robots: warning: `, the names in it [`printable`](crate::text::printable).
    pub fn command_text(&self) -> String {
        self.text(true)
    }

    fn text(&self, command: bool) -> String {
        let shown = |text: &str| {
            if command {
                crate::text::printable(text).into_owned()
            } else {
                text.to_owned()
            }
        };
        match self {
            AgentNote::Star => "`*` names no crawler; the verdicts are those a crawler gets that no group names: the `*` groups', if any".to_owned(),
            AgentNote::GoogleEmpty => format!(
                "{}, so only user-agent lines that name no product match it, and otherwise the `*` group applies; give the crawler's product token, e.g. `ExampleBot`",
                if command {
                    "--agent is empty; Google's matcher takes it as given"
                } else {
                    "Google's matcher takes an empty name as given"
                }
            ),
            AgentNote::GoogleUnmatchable { name, lead } => {
                let hint = if lead.is_empty() {
                    String::new()
                } else {
                    let lead = shown(lead);
                    format!("; for the crawler a line `User-agent: {lead}` names, give `{lead}`")
                };
                format!(
                    "Google's matcher compares `{}` as given with the leading [A-Za-z_-] of each user-agent line, so it can match no group but `*`{hint}",
                    shown(name)
                )
            }
            AgentNote::UserAgentHeader { header, token } if command => format!(
                "reading `{}` as a User-Agent header, whose product token is `{}`",
                shown(header),
                shown(token)
            ),
            AgentNote::UserAgentHeader { token, .. } => {
                format!("read as a User-Agent header, whose product token is `{token}`")
            }
            AgentNote::OutsideRfc9309 { token } => format!(
                "`{}` has characters outside RFC 9309's [A-Za-z_-]; it still matches groups that name it exactly",
                shown(token)
            ),
        }
    }
}

/// The agent a typed name stands for, and what to tell whoever typed it.
#[derive(Debug, Clone)]
pub struct NamedAgent {
    /// The agent the engine checks for.
    pub agent: Agent,
    /// How the name was read, in order.
    pub notes: Vec<AgentNote>,
}

/// The agent as the page and the npm package report it back: `{name, token,
/// honours_embargo, notes}`, the notes in the page's words.
#[derive(Debug, Serialize)]
pub struct AgentJson<'a> {
    /// The name as the engine holds it.
    pub name: &'a str,
    /// The product token compared with user-agent lines.
    pub token: &'a str,
    /// Whether it honours Archive-Embargo.
    pub honours_embargo: bool,
    /// The notes, in the page's words.
    pub notes: Vec<String>,
}

impl NamedAgent {
    /// The crawler called `name` under `profile`, honouring Archive-Embargo if
    /// `embargo`. The RFC 9309 profile wants a product token, and reads a name with `/`
    /// or a space as a User-Agent header (§2.2.1 matches the product token); Google's
    /// matcher compares the name exactly as given. Embargoes need the RFC 9309 profile.
    pub fn new(name: &str, profile: Profile, embargo: bool) -> Result<NamedAgent, NamingError> {
        let mut notes = Vec::new();
        if name == "*" {
            notes.push(AgentNote::Star);
        }
        let agent = match profile {
            Profile::Google if embargo => return Err(NamingError::EmbargoNeedsRfc9309),
            Profile::Google => {
                notes.extend(google_note(name));
                Agent::verbatim(name)
            }
            Profile::Rfc9309 => match Agent::new(name) {
                Ok(agent) => agent,
                Err(err) => match Agent::from_user_agent(name) {
                    Ok(agent) if name.contains(['/', ' ']) => {
                        notes.push(AgentNote::UserAgentHeader {
                            header: name.to_owned(),
                            token: agent.token().to_owned(),
                        });
                        agent
                    }
                    _ => return Err(err.into()),
                },
            },
        };
        if profile == Profile::Rfc9309 && name != "*" && !agent.is_rfc9309_token() {
            notes.push(AgentNote::OutsideRfc9309 {
                token: agent.token().to_owned(),
            });
        }
        let agent = if embargo {
            agent.honouring_embargo()
        } else {
            agent
        };
        Ok(NamedAgent { agent, notes })
    }

    /// The agent as the page reports it back.
    pub fn json(&self) -> AgentJson<'_> {
        AgentJson {
            name: self.agent.name(),
            token: self.agent.token(),
            honours_embargo: self.agent.honours_embargo(),
            notes: self.notes.iter().map(AgentNote::page_text).collect(),
        }
    }
}

/// Whether `c` may appear in an RFC 9309 product token (`[A-Za-z_-]`).
fn rfc9309(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '-' || c == '_'
}

/// What to tell the user about a name Google's matcher compares as given: an empty
/// name, or one with characters outside `[A-Za-z_-]`, which no user-agent line's
/// leading `[A-Za-z_-]` can equal.
fn google_note(name: &str) -> Option<AgentNote> {
    if name.is_empty() {
        return Some(AgentNote::GoogleEmpty);
    }
    if name == "*" || name.chars().all(rfc9309) {
        return None;
    }
    Some(AgentNote::GoogleUnmatchable {
        name: name.to_owned(),
        lead: name.chars().take_while(|&c| rfc9309(c)).collect(),
    })
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
        assert!(named.notes[0].page_text().contains("ExampleBot"));
        assert!(!named.notes[0].is_warning());
        assert_eq!(
            named.notes[0].command_text(),
            "reading `Mozilla/5.0 (compatible; ExampleBot/2.1)` as a User-Agent header, whose product token is `ExampleBot`"
        );
    }

    #[test]
    fn google_takes_the_name_verbatim_and_refuses_embargoes() {
        let named = NamedAgent::new("FooBot/1.0", Profile::Google, false).unwrap();
        assert_eq!(named.agent.name(), "FooBot/1.0");
        // Compared as given, it can match no group but `*`: the user is told so.
        assert_eq!(named.notes.len(), 1);
        assert!(named.notes[0].page_text().contains("give `FooBot`"));
        assert!(named.notes[0].is_warning());
        assert!(NamedAgent::new("FooBot", Profile::Google, false)
            .unwrap()
            .notes
            .is_empty());
        assert_eq!(
            NamedAgent::new("FooBot", Profile::Google, true).unwrap_err(),
            NamingError::EmbargoNeedsRfc9309
        );
    }

    #[test]
    fn names_outside_the_rfc_alphabet_get_a_note_and_bad_names_an_error() {
        let named = NamedAgent::new("MJ12bot", Profile::Rfc9309, true).unwrap();
        assert!(named.agent.honours_embargo());
        assert!(named.notes[0].page_text().contains("MJ12bot"));
        assert!(matches!(
            NamedAgent::new("", Profile::Rfc9309, false),
            Err(NamingError::Engine(robots::Error::EmptyAgent))
        ));
    }

    #[test]
    fn the_command_line_escapes_controls_and_names_its_option() {
        let named = NamedAgent::new("Bot\u{1b}x", Profile::Google, false).unwrap();
        assert_eq!(
            named.notes[0].command_text(),
            "Google's matcher compares `Bot\\u{1b}x` as given with the leading [A-Za-z_-] of each user-agent line, so it can match no group but `*`; for the crawler a line `User-agent: Bot` names, give `Bot`"
        );
        let empty = NamedAgent::new("", Profile::Google, false).unwrap();
        assert!(empty.notes[0]
            .command_text()
            .starts_with("--agent is empty; "));
        assert!(empty.notes[0]
            .page_text()
            .starts_with("Google's matcher takes an empty name"));
        let star = NamedAgent::new("*", Profile::Rfc9309, false).unwrap();
        assert_eq!(star.notes, [AgentNote::Star]);
        assert_eq!(star.json().notes.len(), 1);
    }
}
