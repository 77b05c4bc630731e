//! User-agent lines: opening groups, reading the product token each line names (per
//! profile), and the diagnostics about agent names (RFC 9309 §2.2.1).

use super::{Parser, Place};
use crate::agent::product_token;
use crate::diagnostic::Code;
use crate::robots::{AgentLine, GroupData, Span};

impl Parser {
    /// Opens a group unless the current one is still collecting user-agent lines; returns
    /// the group's index.
    fn group_for_agent(&mut self) -> usize {
        if self.closed {
            let (agents, rules) = (
                self.robots.agents.len() as u32,
                self.robots.rules.len() as u32,
            );
            self.robots.groups.push(GroupData {
                agents: agents..agents,
                rules: rules..rules,
                ..GroupData::default()
            });
            self.closed = false;
        }
        self.robots.groups.len() - 1
    }

    pub(super) fn user_agent(&mut self, at: &Place<'_>) {
        if !self.closed && self.blank_after_agent {
            self.report(Code::BlankLineBetweenGroups, at.line, at.kv.key_at, at.key_span(),
                "a blank line does not end a group: this user-agent line joins the group above, whose crawlers get the rules below too".into(),
                Some("remove the blank line if both crawlers share the rules, or give the group above its own rules (e.g. `Allow: /`)".into()));
        }
        self.blank_after_agent = false;
        let group = self.group_for_agent();
        let value = at.kv.value;
        let alpha = self.robots.behaviour.alpha_agent_tokens;
        let global = if alpha {
            value.first() == Some(&b'*') && value.get(1).is_none_or(|b| crate::lines::is_space(*b))
        } else {
            product_token(value, false) == "*"
        };
        let value_span = self.push_text(value);
        let token_len = product_token(self.robots.text(value_span), alpha).len() as u32;
        let token = Span {
            start: value_span.start,
            len: token_len,
        };
        self.robots.agents.push(AgentLine {
            global,
            token,
            value: value_span,
            line: at.line,
        });
        self.robots.groups[group].agents.end += 1;
        self.robots.groups[group].global |= global;

        if global {
            return;
        }
        // Diagnostics are rare; their text is only built when one is due.
        let (token_text, written) = (self.robots.str(token), self.robots.str(value_span));
        let with_version = token_text.len() < written.len();
        let outside_rfc = !token_text.is_empty()
            && !token_text
                .bytes()
                .all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'_');
        if !with_version && !outside_rfc {
            return;
        }
        let (token_text, written) = (token_text.to_owned(), written.to_owned());
        if with_version {
            self.report(
                Code::AgentWithVersion,
                at.line,
                at.kv.value_at,
                at.value_span(),
                format!("only `{token_text}` of `{written}` names the crawler"),
                Some(format!("write `User-agent: {token_text}`")),
            );
        }
        if outside_rfc {
            self.report(Code::AgentNotRfc9309, at.line, at.kv.value_at, at.value_span(), format!("`{token_text}` has characters outside RFC 9309's [A-Za-z_-]; Google's matcher reads it as `{}`", product_token(token_text.as_bytes(), true)), None);
        }
    }
}
