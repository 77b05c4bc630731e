//! Choosing the groups for an agent (RFC 9309 §2.2.1): those whose user-agent lines name
//! it, else the `*` groups, merged; found in one pass over the groups, without allocating.

use crate::robots::{AgentLine, GroupData, Span};
use crate::{Agent, Robots};

/// How many chosen groups a check remembers while it decides.
const FEW: usize = 8;

/// How the groups for an agent were chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Selection {
    /// One or more groups name the agent; `groups` of them are merged.
    Named {
        /// How many groups name the agent.
        groups: usize,
    },
    /// No group names the agent; the `*` groups (`groups` of them) are merged.
    Global {
        /// How many `*` groups there are.
        groups: usize,
    },
    /// Neither: everything is allowed.
    None,
}

impl Selection {
    /// The stable name used in JSON output: `named`, `global` or `none`.
    pub fn name(self) -> &'static str {
        match self {
            Selection::Named { .. } => "named",
            Selection::Global { .. } => "global",
            Selection::None => "none",
        }
    }
}

/// The groups chosen for an agent: how, and the first [`FEW`] of them by index.
pub(crate) struct Chosen {
    pub selection: Selection,
    few: [u32; FEW],
    /// The agent's name bit (its [`name_mix`](crate::agent::name_mix) % 16, as in
    /// [`GroupData::names`]), for finding named groups again past the first [`FEW`].
    bit: u16,
}

impl Chosen {
    /// The one chosen group, if exactly one was chosen.
    pub fn only(&self) -> Option<usize> {
        (self.count() == 1).then_some(self.few[0] as usize)
    }

    fn count(&self) -> usize {
        match self.selection {
            Selection::Named { groups } | Selection::Global { groups } => groups,
            Selection::None => 0,
        }
    }
}

impl Robots {
    /// How the groups for `agent` are chosen (RFC 9309 §2.2.1): those naming it, else
    /// the `*` groups, else none ([`Selection::None`], and everything is allowed).
    pub fn selection(&self, agent: &Agent) -> Selection {
        self.select(agent).selection
    }

    /// The groups for `agent` and how they were chosen, found in one pass over the groups;
    /// up to [`FEW`] of them are remembered, and more (rare) are found again on demand.
    /// The usual case, an agent no group can name and one `*` group or none, is inlined
    /// into the check: called, it cost checks near the corpus's median 2% more
    /// instructions.
    #[inline(always)]
    pub(crate) fn select(&self, agent: &Agent) -> Chosen {
        let mix = agent.mix(self.behaviour.alpha_agent_tokens);
        let bit = 1 << (mix % 16);
        let named_anywhere = self.globals.names & 1 << (mix % 64) != 0;
        if !named_anywhere && self.globals.count <= 1 {
            let mut few = [0; FEW];
            few[0] = self.globals.first;
            return Chosen {
                selection: match self.globals.count {
                    0 => Selection::None,
                    _ => Selection::Global { groups: 1 },
                },
                few,
                bit,
            };
        }
        self.select_by_names(agent, named_anywhere, bit)
    }

    /// [`Robots::select`] past its usual case: the groups are read.
    #[inline(never)]
    fn select_by_names(&self, agent: &Agent, named_anywhere: bool, bit: u16) -> Chosen {
        // One array for both kinds: the first named group overwrites the `*` groups
        // from the start, and only the first `named_count` are read after that.
        let mut few = [0u32; FEW];
        let (mut named_count, mut global_count) = (0, 0);
        for (i, group) in self.groups.iter().enumerate() {
            if named_anywhere && self.names_agent(group, bit, agent) {
                few[named_count.min(FEW - 1)] = i as u32;
                named_count += 1;
            } else if named_count == 0 && group.global {
                few[global_count.min(FEW - 1)] = i as u32;
                global_count += 1;
            }
        }
        let selection = match (named_count, global_count) {
            (0, 0) => Selection::None,
            (0, n) => Selection::Global { groups: n },
            (n, _) => Selection::Named { groups: n },
        };
        Chosen {
            selection,
            few,
            bit,
        }
    }

    /// Calls `each` with the chosen groups' indices and data, in file order. Past the
    /// first [`FEW`], groups are found again [`FEW`] at a time, so that `each` is called
    /// from one place and inlined there.
    pub(crate) fn for_each_chosen<'s>(
        &'s self,
        chosen: &Chosen,
        agent: &Agent,
        mut each: impl FnMut(usize, &'s GroupData),
    ) {
        let (mut batch, mut len, mut resume) = (chosen.few, chosen.count(), None);
        if len > FEW {
            (len, resume) = self.find_again(chosen, agent, 0, &mut batch);
        }
        loop {
            for &i in &batch[..len] {
                each(i as usize, &self.groups[i as usize]);
            }
            let Some(from) = resume else {
                return;
            };
            (len, resume) = self.find_again(chosen, agent, from, &mut batch);
        }
    }

    /// Up to [`FEW`] chosen groups from group `from` on, written into `batch`: how many,
    /// and where to resume if there may be more.
    #[cold]
    fn find_again(
        &self,
        chosen: &Chosen,
        agent: &Agent,
        from: usize,
        batch: &mut [u32; FEW],
    ) -> (usize, Option<usize>) {
        let named = matches!(chosen.selection, Selection::Named { .. });
        let mut len = 0;
        for (i, group) in self.groups.iter().enumerate().skip(from) {
            if len == FEW {
                return (len, Some(i));
            }
            let wanted = if named {
                self.names_agent(group, chosen.bit, agent)
            } else {
                group.global
            };
            if wanted {
                batch[len] = i as u32;
                len += 1;
            }
        }
        (len, None)
    }

    /// Whether one of the group's user-agent lines names the agent; `bit` is the agent's
    /// name bit, which rules out most groups without reading their names.
    #[inline]
    fn names_agent(&self, group: &GroupData, bit: u16, agent: &Agent) -> bool {
        group.names & bit != 0
            && self
                .group_agents(group)
                .any(|a| !a.global() && self.names(a.token(), agent))
    }

    /// A group's user-agent lines as an iterator: written as `agents_of(group).iter()`
    /// in `names_agent` itself, the corpus's checks took 90 M more instructions.
    fn group_agents<'s>(&'s self, group: &GroupData) -> impl Iterator<Item = &'s AgentLine> {
        self.agents_of(group).iter()
    }

    /// Whether a user-agent line's token names the agent. Google compares the name as
    /// given (so an empty name matches an empty token); RFC 9309 compares product
    /// tokens, and an empty token names nobody.
    fn names(&self, token: Span, agent: &Agent) -> bool {
        // Lengths first, from the line itself: most lines of a group that names the
        // agent's bit name another crawler, and are ruled out without reading a name.
        let name = self.compared_name(agent);
        token.len as usize == name.len()
            && (self.behaviour.alpha_agent_tokens || !name.is_empty())
            && crate::simd::swar::same_ignoring_case(self.text(token), name)
    }

    /// What user-agent lines are compared with: the name as given (Google) or the
    /// product token (RFC 9309).
    fn compared_name<'a>(&self, agent: &'a Agent) -> &'a [u8] {
        if self.behaviour.alpha_agent_tokens {
            agent.name().as_bytes()
        } else {
            agent.token().as_bytes()
        }
    }
}
