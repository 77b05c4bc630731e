//! User-agent lines: opening groups, reading the product token each line names (per
//! profile), and the diagnostics about agent names (RFC 9309 §2.2.1).

use super::{Parser, Place};
use crate::agent::{name_mix, product_token_len};
use crate::diagnostic::Code;
use crate::robots::{AgentLine, GroupData, Quote};

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
            self.texts.next_group();
            self.closed = false;
        }
        self.robots.groups.len() - 1
    }

    /// Whether every user-agent line of `group` so far names the crawler `agent` names:
    /// then a line joining the group (`User-agent: *`, a blank line, `User-agent: *`)
    /// gives no crawler rules it would not have had. Read only after a blank line.
    fn names_only(&self, group: usize, agent: &AgentLine) -> bool {
        let r = &self.robots;
        r.agents_of(&r.groups[group])
            .iter()
            .all(|a| r.same_crawler(a, agent))
    }

    pub(super) fn user_agent(&mut self, at: &Place<'_>) {
        let joins = !self.closed && self.blank_after_agent;
        self.blank_after_agent = false;
        let group = self.group_for_agent();
        let value = at.kv.value;
        let alpha = self.robots.behaviour.alpha_agent_tokens;
        // `*` alone, as a word (Google) or as a product token, which `/` also ends: read
        // off its first two octets (finding the token's end cost the corpus parse 10 M
        // more instructions).
        let global = value.first() == Some(&b'*')
            && value
                .get(1)
                .is_none_or(|&b| crate::lines::is_space(b) || (!alpha && b == b'/'));
        let value_span = self.push_text(value);
        let token_len = product_token_len(self.robots.text(value_span), alpha) as u32;
        let agent = AgentLine::new(value_span, token_len, global, at.line);
        let token = agent.token();
        if joins && !self.names_only(group, &agent) {
            self.report(
                Code::BlankLineBetweenGroups,
                at.line,
                at.kv.key_at,
                at.key_span(),
                Quote::NONE,
            );
        }
        self.robots.agents.push(agent);
        let mix = name_mix(self.robots.text(token));
        if !global {
            self.robots.globals.name(mix);
        }
        let names = 1 << (mix % 16);
        let data = &mut self.robots.groups[group];
        data.agents.end += 1;
        data.global |= global;
        data.names |= names;

        if global {
            return;
        }
        let (token_text, written) = (self.robots.text(token), self.robots.text(value_span));
        if token_text.is_empty() {
            // `User-agent:` alone, or a value whose product token is empty: a group
            // meant for everyone (or for one crawler) that reaches nobody.
            let quote = self.quote_stored(value, value_span, 0);
            self.report(
                Code::AgentNamesNone,
                at.line,
                at.kv.value_at,
                at.value_span(),
                quote,
            );
            return;
        }
        // A version or more words follow the name (`ExampleBot/2.1`, `Sogou web spider`).
        // Google's matcher reads fewer letters still (`MJ` of `MJ12bot`), but the crawler
        // it compares with is read the same way, so a name cut short is no mistake to report.
        let name_len = if alpha {
            product_token_len(written, false)
        } else {
            token_text.len()
        };
        let with_version = name_len < written.len();
        let outside_rfc = !token_text
            .iter()
            .all(|&b| b.is_ascii_alphabetic() || b == b'-' || b == b'_');
        // RFC 9309 compares the whole token, so a `*` in it (`Mediapartners-Google*`,
        // written as if it were a pattern) leaves the crawler to the `*` groups; Google's
        // matcher reads only the letters before it.
        let wildcard = outside_rfc && !alpha && token_text.contains(&b'*');
        if with_version {
            let quote = self.quote_stored(value, value_span, name_len as u32);
            self.report(
                Code::AgentWithVersion,
                at.line,
                at.kv.value_at,
                at.value_span(),
                quote,
            );
        }
        if outside_rfc {
            let quote = self.quote_stored(value, value_span, token.len);
            self.report(
                if wildcard {
                    Code::AgentWithWildcard
                } else {
                    Code::AgentNotRfc9309
                },
                at.line,
                at.kv.value_at,
                at.value_span(),
                quote,
            );
        }
    }
}
