//! Deciding a URL: with the agent's groups ([`crate::select`]), find the longest matching
//! rule among them (RFC 9309 §2.2.2), and attach the embargo. No allocation on the way.

use crate::across_query::matches_across_query;
use crate::normalize::PathBufs;
use crate::pattern::{matches, PairSet};
use crate::robots::{GroupData, RuleLine};
use crate::select::{Chosen, Selection};
use crate::simd::octet_mask::byte_mask;
use crate::url::match_path;
use crate::{Agent, Embargo, Reason, Robots, Rule, RuleKind, Verdict};

impl Robots {
    /// Decides whether `agent` may fetch `url`, an absolute URL or a path (`/a?b`).
    ///
    /// The rules matched are those of the groups naming the agent, else of the `*`
    /// groups (RFC 9309 §2.2.1); the longest matching pattern decides, an allow wins a
    /// tie, and no match allows (§2.2.2). The path is the URL's path and query without
    /// the fragment; an empty URL or path is `/`, and a URL with neither a scheme nor a
    /// leading `/` is read, as Google's matcher reads it, as a host and then a path
    /// (`example.com/a` is `/a`; `private` is `/`). `/robots.txt` is always allowed in
    /// the RFC 9309 profile (§2.2.2). A URL that is not UTF-8 goes to
    /// [`Robots::check_bytes`].
    ///
    /// The Google profile ignores embargo support: it describes Googlebot, which knows no
    /// embargo, so its embargo lines are unknown records and an agent that
    /// [honours embargoes](Agent::honouring_embargo) gets the verdicts any agent gets,
    /// with no [`Verdict::embargo`]. docs/design.md calls asking for both an error; `check`
    /// is infallible and on every request's path, so it does not refuse, but the
    /// fallible entry points that meet both do: `robots-fetch`'s `Fetcher::decide`, the
    /// browser tester and the command line's `--embargo`.
    ///
    /// ```
    /// use robots::{Agent, Reason, Robots, RuleKind};
    ///
    /// let robots = Robots::parse(b"User-agent: *\nDisallow: /shop\nAllow: /shop/help\n");
    /// let bot = Agent::new("ExampleBot").unwrap();
    ///
    /// // A whole URL or just its path (and query); the fragment is ignored.
    /// let v = robots.check(&bot, "https://example.com/shop/cart?id=1#top");
    /// assert!(!v.allowed());
    /// assert_eq!(robots.check(&bot, "/shop/cart?id=1"), v);
    ///
    /// // The longest matching pattern decides.
    /// let v = robots.check(&bot, "/shop/help/returns");
    /// assert!(v.allowed());
    /// let rule = v.decided_by().unwrap();
    /// assert_eq!((rule.kind(), rule.pattern(), rule.line()), (RuleKind::Allow, "/shop/help", 3));
    /// assert_eq!(v.reason(), Reason::Longest);
    ///
    /// // No rule matches: allowed, and no line decided.
    /// let v = robots.check(&bot, "/about");
    /// assert_eq!((v.allowed(), v.decided_by(), v.reason()), (true, None, Reason::NoMatch));
    ///
    /// // A URL with no scheme and no leading `/` starts with a host.
    /// assert!(!robots.check(&bot, "example.com/shop").allowed());
    /// assert!(robots.check(&bot, "shop").allowed()); // the path is `/`
    /// ```
    pub fn check(&self, agent: &Agent, url: &str) -> Verdict<'_> {
        self.check_bytes(agent, url.as_bytes())
    }

    /// [`Robots::check`] for a URL given as bytes, which need not be UTF-8. In the RFC
    /// 9309 profile its octets ≥ 0x80 are percent-encoded before matching (§2.2.2), as a
    /// pattern's are; the Google profile matches them as given.
    ///
    /// ```
    /// use robots::{Agent, Robots};
    /// // A Latin-1 file and a Latin-1 URL, or the pattern escaped by hand: all one path.
    /// let robots = Robots::parse(b"User-agent: *\nDisallow: /caf\xE9\n");
    /// let bot = Agent::new("ExampleBot").unwrap();
    /// assert!(!robots.check_bytes(&bot, b"/caf\xE9/menu").allowed());
    /// assert!(!robots.check(&bot, "/caf%e9/menu").allowed());
    /// // The UTF-8 spelling is other octets (`/caf%C3%A9`): not matched.
    /// assert!(robots.check(&bot, "/café/menu").allowed());
    /// ```
    pub fn check_bytes(&self, agent: &Agent, url: &[u8]) -> Verdict<'_> {
        let mut bufs = PathBufs::default();
        let path = match_path(&self.behaviour, url, &mut bufs);
        self.decide(agent, path)
    }

    fn decide(&self, agent: &Agent, path: &[u8]) -> Verdict<'_> {
        self.decide_with(agent, path, |chosen, embargo_active| {
            self.decider(chosen, agent, path, embargo_active)
        })
    }

    /// [`Robots::decide`] with the deciding rule found by `decider` (given the chosen
    /// groups and whether an embargo is in force): the scan of [`Robots::decider`], or
    /// an index's ([`crate::many`]). Always inlined, so that `check` pays nothing for
    /// the choice.
    #[inline(always)]
    pub(crate) fn decide_with<'s>(
        &'s self,
        agent: &Agent,
        path: &[u8],
        decider: impl FnOnce(&Chosen, bool) -> Option<(&'s RuleLine, bool)>,
    ) -> Verdict<'s> {
        let chosen = self.select(agent);
        let embargo = self.embargo_of(agent, &chosen);
        let allowed = |reason, decided_by| Verdict {
            allowed: true,
            decided_by,
            reason,
            embargo,
        };
        if self.behaviour.always_allowed(path) {
            return allowed(Reason::RobotsTxt, None);
        }
        if chosen.selection == Selection::None {
            return allowed(Reason::NoGroup, None);
        }
        match decider(&chosen, embargo.is_some()) {
            None => allowed(Reason::NoMatch, None),
            Some((rule, tie)) if rule.kind().allows() => {
                let reason = if tie {
                    Reason::TieWonByAllow
                } else {
                    Reason::Longest
                };
                allowed(reason, Some(self.rule_view(rule)))
            }
            Some((rule, _)) => self.denied(rule),
        }
    }

    fn denied(&self, rule: &RuleLine) -> Verdict<'_> {
        // Google's empty disallow matches with length 0 and names its line, but a
        // length-0 match never disallows.
        let allowed = rule.specificity() == 0;
        Verdict {
            allowed,
            decided_by: Some(self.rule_view(rule)),
            reason: if allowed {
                Reason::EmptyDisallow
            } else {
                Reason::Longest
            },
            embargo: None,
        }
    }

    pub(crate) fn rule_view(&self, rule: &RuleLine) -> Rule<'_> {
        Rule {
            kind: rule.kind(),
            pattern: self.text(rule.written),
            line: rule.line,
            specificity: rule.specificity(),
        }
    }

    /// The merged groups' embargo, for an agent that honours embargoes: the longest
    /// valid period among them (docs/design.md, Archive-Embargo).
    fn embargo_of(&self, agent: &Agent, chosen: &Chosen) -> Option<Embargo> {
        if !agent.honours_embargo() || self.behaviour.no_embargo {
            return None;
        }
        let mut longest = None;
        self.for_each_chosen(chosen, agent, |_, g| longest = longest.max(g.embargo));
        longest.map(Embargo::new)
    }

    pub(crate) fn group_rules<'s>(&'s self, group: &GroupData) -> &'s [RuleLine] {
        &self.rules[group.rules.start as usize..group.rules.end as usize]
    }

    /// The deciding rule of the chosen groups, and whether a disallow as long as it also
    /// matched (so that an allow won a tie).
    ///
    /// Each group's rules are kept sorted by rank (longest first, allow before disallow,
    /// then file order), so the first match in a group is that group's decider and the
    /// scan stops there; across merged groups the higher rank wins.
    fn decider<'s>(
        &'s self,
        chosen: &Chosen,
        agent: &Agent,
        path: &[u8],
        embargo_active: bool,
    ) -> Option<(&'s RuleLine, bool)> {
        let mut path = Candidate::new(path);
        // One group, as for most checks: its decider, with nothing to merge. Scanned
        // apart, its loop over rules holds the path in registers and tests no floor:
        // 11 instructions per rule ruled out, against 17 in the loop for every case.
        if let Some(group) = chosen.only() {
            let rules = self.group_rules(&self.groups[group]);
            return self.group_decider(rules, &mut path, 0, embargo_active);
        }
        self.merged_decider(chosen, agent, &mut path, embargo_active)
    }

    /// [`Robots::decider`] of several groups, merged: each group's decider, then the
    /// better of them ([`merge`]). Inlined too: called, it cost a check of two groups
    /// (11550.txt) 919 instructions against 889.
    #[inline(always)]
    fn merged_decider<'s>(
        &'s self,
        chosen: &Chosen,
        agent: &Agent,
        path: &mut Candidate<'_>,
        embargo_active: bool,
    ) -> Option<(&'s RuleLine, bool)> {
        let mut best: Option<(&'s RuleLine, bool)> = None;
        self.for_each_chosen(chosen, agent, |_, group| {
            // A rule less specific than the best so far cannot decide.
            let floor = best.map_or(0, |(b, _)| b.specificity());
            let rules = self.group_rules(group);
            if let Some(found) = self.group_decider(rules, path, floor, embargo_active) {
                best = Some(best.map_or(found, |b| merge(b, found)));
            }
        });
        best
    }

    /// The decider of one group's `rules`, if one at least `floor` specific matches, and
    /// whether a disallow as long as it also matched (so that an allow won a tie).
    #[inline(always)]
    fn group_decider<'s>(
        &self,
        rules: &'s [RuleLine],
        path: &mut Candidate<'_>,
        floor: u32,
        embargo_active: bool,
    ) -> Option<(&'s RuleLine, bool)> {
        let at = self.first_match(rules, path, floor, embargo_active)?;
        let rule = &rules[at];
        if !rule.kind().allows() {
            return Some((rule, false));
        }
        // Only a disallow as long as an allow can still matter: it ties. A loop, not
        // `take_while` and `any`, which were left out of line.
        for other in &rules[at + 1..] {
            if other.specificity() < rule.specificity() {
                break;
            }
            if !other.kind().allows() && path.may_match(self, other) {
                return Some((rule, true));
            }
        }
        Some((rule, false))
    }

    /// Where the first of `rules` (one group's, in rank order) that matches the path is,
    /// among those at least `floor` specific. Embargo-allow lines count only under an
    /// embargo; they are rare, so the match is tried first. Inlined: with a floor of 0,
    /// as for a lone group, the test of each rule's specificity is compiled away.
    #[inline(always)]
    fn first_match(
        &self,
        rules: &[RuleLine],
        path: &mut Candidate<'_>,
        floor: u32,
        embargo_active: bool,
    ) -> Option<usize> {
        // `Candidate::may_match` split here, so that literal rules read the path from
        // `text`, a local, not from the candidate a wildcard rule's calls may change.
        let text = path.path();
        for (at, rule) in rules.iter().enumerate() {
            if floor > 0 && rule.specificity() < floor {
                return None;
            }
            let hit = if rule.wildcard() {
                path.wildcard_may_match(self, rule)
            } else {
                literal_may_match(self, rule, text)
            };
            if hit && (embargo_active || rule.kind() != RuleKind::EmbargoAllow) {
                return Some(at);
            }
        }
        None
    }

    pub(crate) fn rule_matches(&self, rule: &RuleLine, path: &[u8]) -> bool {
        let pattern = self.text(rule.pattern());
        let wildcard = rule.wildcard();
        !rule.inert()
            && if wildcard && rule.filter.across_query() {
                matches_across_query(pattern, rule.anchored(), path)
            } else {
                matches(pattern, wildcard, rule.anchored(), path)
            }
    }
}

/// A path as rules are tried on it: with its [`byte_mask`] and the octet pairs it holds,
/// each found once a wildcard rule asks for it. Most checks try no wildcard rule: the
/// mask found up front cost twenty checks near the corpus's median 908 instructions
/// each, against 828.
pub(crate) struct Candidate<'p> {
    path: &'p [u8],
    mask: Option<u64>,
    pairs: Option<PairSet>,
}

impl<'p> Candidate<'p> {
    pub(crate) fn new(path: &'p [u8]) -> Self {
        Candidate {
            path,
            mask: None,
            pairs: None,
        }
    }

    /// The path's octet mask, found on the first call.
    fn mask(&mut self) -> u64 {
        *self.mask.get_or_insert_with(|| byte_mask(self.path))
    }

    /// The path itself.
    pub(crate) fn path(&self) -> &'p [u8] {
        self.path
    }

    /// Whether `rule` matches the path, ruling most rules out first by their filter.
    /// Always inlined into the scan of a group's rules: left to the compiler, it was
    /// called out of line, and the corpus checks took 12% more time.
    #[inline(always)]
    pub(crate) fn may_match(&mut self, robots: &Robots, rule: &RuleLine) -> bool {
        if rule.wildcard() {
            self.wildcard_may_match(robots, rule)
        } else {
            literal_may_match(robots, rule, self.path)
        }
    }

    /// [`Candidate::may_match`] for a wildcard rule.
    #[inline(always)]
    fn wildcard_may_match(&mut self, robots: &Robots, rule: &RuleLine) -> bool {
        rule.filter.octets_in(self.mask())
            && self.has_pairs_of(rule)
            && robots.rule_matches(rule, self.path)
    }

    /// Whether the path holds the octet pairs a wildcard rule needs: in a long path, most
    /// wildcard patterns are ruled out by pairs the path lacks before they are searched for.
    #[inline(never)]
    fn has_pairs_of(&mut self, rule: &RuleLine) -> bool {
        self.path.len() < PairSet::WORTH_IT
            || self
                .pairs
                .get_or_insert_with(|| PairSet::of(self.path))
                .contains_all(&rule.filter.pairs())
    }
}

/// [`Candidate::may_match`] for a literal rule, which needs none of what a candidate
/// finds out about its path: given the path itself, which a scan of rules then holds
/// in a register rather than reading it again after every call a wildcard rule makes.
///
/// A short literal prefix ([`RuleLine::short_prefix`]) is matched by its filter alone:
/// the call that compared it again cost twenty checks near the corpus's median 666
/// instructions each, against 650. An empty pattern that never matches (RFC 9309's
/// `Disallow:`, the commonest file's one rule), whose filter passes every path, is
/// ruled out without the call too.
#[inline(always)]
fn literal_may_match(robots: &Robots, rule: &RuleLine, path: &[u8]) -> bool {
    rule.filter.may_start(path, rule.pattern().len as usize)
        && (rule.short_prefix() || (!rule.inert() && robots.rule_matches(rule, path)))
}

/// The better of two groups' deciders: the longer; at equal length an allow (which then
/// won a tie if the other is a disallow), else the earlier line.
pub(crate) fn merge<'s>(a: (&'s RuleLine, bool), b: (&'s RuleLine, bool)) -> (&'s RuleLine, bool) {
    let ((ra, ta), (rb, tb)) = (a, b);
    match ra.specificity().cmp(&rb.specificity()) {
        std::cmp::Ordering::Greater => a,
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Equal => match (ra.kind().allows(), rb.kind().allows()) {
            (true, false) => (ra, true),
            (false, true) => (rb, true),
            (true, true) => (if ra.line <= rb.line { ra } else { rb }, ta || tb),
            (false, false) => (if ra.line <= rb.line { ra } else { rb }, false),
        },
    }
}

#[cfg(test)]
mod tests {
    use crate::{Agent, Robots};

    #[test]
    fn a_filter_decides_alone_only_for_short_literal_prefixes() {
        let robots =
            Robots::parse(b"User-agent: *\nDisallow: abcdefghi\nDisallow: /x$\nDisallow:\n");
        let bot = Agent::new("ExampleBot").unwrap();
        let refused = |path: &str| !robots.check(&bot, path).allowed();
        // Nine octets: the filter holds the last eight, which `/bcdefghi` has where the
        // pattern would end; the first is compared apart.
        assert!(!refused("/bcdefghi"));
        // Anchored: as long as the path, and no longer.
        assert!(refused("/x"));
        assert!(!refused("/xy"));
        // Empty, in RFC 9309: its filter passes every path, and it matches none.
        assert_eq!(robots.check(&bot, "/").decided_by(), None);
    }
}
