//! Checking many URLs against one file: its rules sorted by the literal text each pattern
//! starts with, so that a check tries only the rules a path can match, not all of them.

use std::ops::Range;

use crate::check::{merge, Candidate};
use crate::normalize::PathBufs;
use crate::robots::{GroupData, RuleLine, Span};
use crate::url::match_path;
use crate::{Agent, Robots, Verdict};

/// A file's rules, indexed for checking many URLs: [`RuleIndex::check_bytes`] gives the
/// verdict [`Robots::check_bytes`] gives, but tries only the rules whose pattern, up to
/// its first `*`, begins the path. [`Robots::check`] reads a group's rules one by one,
/// which is the fastest way for one URL; asked of every path a file's rules name (as
/// `robots diff` asks), that scan is quadratic in the rules: 11.5 s for a file at the
/// 500 KiB parse limit.
///
/// A check walks the path once down the sorted patterns, each step a binary search, so
/// its cost grows with the path's length and the logarithm of the rule count, plus the
/// rules it then tries. Those are the rules that match, and the wildcard rules whose
/// text before the `*` begins the path: a file of many patterns such as `/*.php` still
/// has them all tried on every path, and there a group whose rules are mostly such is
/// scanned as [`Robots::check`] scans it, which is faster. Unlike [`Robots::check`], a
/// check allocates.
///
/// ```
/// use robots::{Agent, Robots};
///
/// let robots = Robots::parse(b"User-agent: *\nDisallow: /shop\nAllow: /shop/help\n");
/// let index = robots.index();
/// let bot = Agent::new("ExampleBot").unwrap();
/// for url in ["/shop/cart", "/shop/help/returns", "/about"] {
///     assert_eq!(index.check(&bot, url), robots.check(&bot, url));
/// }
/// ```
#[derive(Debug, Clone)]
pub struct RuleIndex<'r> {
    robots: &'r Robots,
    /// Every rule that can match, sorted by its key.
    sorted: Vec<Keyed>,
    /// A group the path may match most of is scanned rather than merged (off in tests,
    /// to try the merge on small files).
    scan_dense: bool,
}

/// A rule and its key: the text its pattern starts with, up to its first `*`. A path the
/// rule matches starts with it (`crate::pattern::matches` and
/// `crate::across_query::matches_across_query` both compare it first).
#[derive(Debug, Clone, Copy)]
struct Keyed {
    /// Where the key sits in the arena.
    key: Span,
    /// The rule's place in `Robots::rules`: the file's order of groups, and each group's
    /// rules in rank order.
    rule: u32,
}

impl Robots {
    /// This file's rules indexed for checking many URLs (see [`RuleIndex`]).
    pub fn index(&self) -> RuleIndex<'_> {
        let mut sorted: Vec<Keyed> = (0..self.rules.len() as u32)
            .filter(|&i| !self.rules[i as usize].inert())
            .map(|rule| {
                let pattern = self.rules[rule as usize].pattern();
                let text = self.text(pattern);
                let len = memchr::memchr(b'*', text).map_or(pattern.len, |star| star as u32);
                Keyed {
                    key: Span {
                        start: pattern.start,
                        len,
                    },
                    rule,
                }
            })
            .collect();
        // By key, and one key's rules in the file's order.
        sorted.sort_unstable_by(|a, b| (self.text(a.key), a.rule).cmp(&(self.text(b.key), b.rule)));
        RuleIndex {
            robots: self,
            sorted,
            scan_dense: true,
        }
    }
}

impl<'r> RuleIndex<'r> {
    /// [`Robots::check`], with the index.
    pub fn check(&self, agent: &Agent, url: &str) -> Verdict<'r> {
        self.check_bytes(agent, url.as_bytes())
    }

    /// [`Robots::check_bytes`], with the index: the same verdict.
    pub fn check_bytes(&self, agent: &Agent, url: &[u8]) -> Verdict<'r> {
        let robots = self.robots;
        let mut bufs = PathBufs::default();
        let path = match_path(&robots.behaviour, url, &mut bufs);
        let mut runs = Vec::new();
        self.candidates(path, &mut runs);
        if self.scan_dense {
            // Where the path may match most of the rules (patterns such as `/*.php`,
            // whose key is `/`), the scan of `Robots::check` tries them faster than a
            // merge: it decides then.
            let (mut rules, mut candidates) = (0, 0);
            robots.for_each_chosen(&robots.select(agent), agent, |_, group| {
                rules += group.rules.len();
                candidates += self
                    .of_group(&runs, group)
                    .map(<[Keyed]>::len)
                    .sum::<usize>();
            });
            if 2 * candidates >= rules {
                return robots.check_bytes(agent, url);
            }
        }
        robots.decide_with(agent, path, |chosen, embargo_active| {
            let mut path = Candidate::new(path);
            let mut best: Option<(&'r RuleLine, bool)> = None;
            robots.for_each_chosen(chosen, agent, |_, group| {
                // Merged, the runs give the group's rules in the file's order, which is
                // its rank order, as `Robots::decider` reads them.
                let mut heads: Vec<&[Keyed]> = self.of_group(&runs, group).collect();
                let in_rank_order = std::iter::from_fn(|| {
                    let (at, _) = heads
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, run)| run[0].rule)?;
                    let rule = heads[at][0].rule;
                    heads[at] = &heads[at][1..];
                    if heads[at].is_empty() {
                        heads.swap_remove(at);
                    }
                    Some(rule)
                });
                let floor = best.map_or(0, |(b, _)| b.specificity());
                if let Some(at) = self.decider(in_rank_order, &mut path, floor, embargo_active) {
                    best = Some(best.map_or(at, |b| merge(b, at)));
                }
            });
            best
        })
    }

    /// Each of `runs` cut to the rules of `group`, those that hold any.
    fn of_group<'a>(
        &'a self,
        runs: &'a [Range<usize>],
        group: &GroupData,
    ) -> impl Iterator<Item = &'a [Keyed]> + 'a {
        let rules = group.rules.clone();
        runs.iter().filter_map(move |run| {
            let run = &self.sorted[run.clone()];
            let start = run.partition_point(|k| k.rule < rules.start);
            let end = run.partition_point(|k| k.rule < rules.end);
            (start < end).then(|| &run[start..end])
        })
    }

    /// The key of the `at`th rule in key order.
    fn key(&self, at: usize) -> &'r [u8] {
        self.robots.text(self.sorted[at].key)
    }

    /// Adds to `runs` the rules whose key starts `path`, as ranges of `sorted`: each run
    /// is the rules of one key, in the file's order. Returns the steps taken (for the
    /// tests: they grow with the path, not with the rules).
    ///
    /// The keys in `lo..hi` all start with `path[..k]`, and those as long as that sort
    /// first. Where the range's keys share more than `k` octets, the first and the last
    /// of them share it too (they are sorted), so the path is compared with that much at
    /// once rather than octet by octet.
    fn candidates(&self, path: &[u8], runs: &mut Vec<Range<usize>>) -> usize {
        let (mut lo, mut hi, mut k) = (0, self.sorted.len(), 0);
        let mut steps = 0;
        loop {
            steps += 1;
            let run = self.sorted[lo..hi].partition_point(|e| e.key.len as usize == k);
            if run > 0 {
                runs.push(lo..lo + run);
                lo += run;
            }
            if lo == hi {
                return steps;
            }
            let (first, last) = (self.key(lo), self.key(hi - 1));
            let shared = first
                .iter()
                .zip(last)
                .skip(k)
                .take_while(|(a, b)| a == b)
                .count();
            if shared > 0 {
                // Every key in the range is at least `k + shared` long.
                if path.get(k..k + shared) != Some(&first[k..k + shared]) {
                    return steps;
                }
                k += shared;
                continue;
            }
            let Some(&octet) = path.get(k) else {
                return steps;
            };
            let range = &self.sorted[lo..hi];
            let octet_of = |keyed: &Keyed| self.robots.text(keyed.key)[k];
            let start = range.partition_point(|keyed| octet_of(keyed) < octet);
            let end = range.partition_point(|keyed| octet_of(keyed) <= octet);
            (lo, hi, k) = (lo + start, lo + end, k + 1);
        }
    }

    /// The decider among one group's `rules` that may match (in rank order), as
    /// `Robots::group_decider` finds it among all the group's rules: the first that
    /// matches, at least `floor` specific, and whether a disallow as long as an allow
    /// also matched (so that the allow won a tie).
    fn decider(
        &self,
        rules: impl Iterator<Item = u32>,
        path: &mut Candidate<'_>,
        floor: u32,
        embargo_active: bool,
    ) -> Option<(&'r RuleLine, bool)> {
        let robots = self.robots;
        let mut rest = rules.map(|i| &robots.rules[i as usize]);
        let decider = rest
            .by_ref()
            .take_while(|r| floor == 0 || r.specificity() >= floor)
            .find(|r| {
                path.may_match(robots, r)
                    && (embargo_active || r.kind() != crate::RuleKind::EmbargoAllow)
            })?;
        if !decider.kind().allows() {
            return Some((decider, false));
        }
        let tie = rest
            .take_while(|r| r.specificity() >= decider.specificity())
            .any(|r| !r.kind().allows() && path.may_match(robots, r));
        Some((decider, tie))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Agent, Robots};

    use proptest::prelude::*;

    use crate::{Options, Profile};

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 1024,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// The merge of runs, which small files seldom reach (their groups are scanned
        /// when a path may match half their rules), decides as the scan does: tried
        /// here on every group. `tests/it/properties.rs` tries the index as it is.
        #[test]
        fn the_merge_decides_as_the_scan_does(
            groups in proptest::collection::vec(
                (
                    proptest::sample::select(&["*", "ExampleBot", "Other"][..]),
                    any::<bool>(),
                    proptest::collection::vec((0..3usize, "[ab/*$?=]{0,6}|/a%2[fF]b|/%61"), 0..10),
                ),
                0..4,
            ),
            paths in proptest::collection::vec("/[ab/*$?=]{0,8}|/a%2[fF]b.*|/%61", 1..8),
            google in any::<bool>(),
        ) {
            let mut body = String::new();
            for (agent, embargo, rules) in &groups {
                body += &format!("User-agent: {agent}\n");
                if *embargo {
                    body += "Archive-Embargo: 7\n";
                }
                for (kind, pattern) in rules {
                    body += &format!("{}: {pattern}\n", ["Allow", "Disallow", "Embargo-Allow"][*kind]);
                }
            }
            let profile = if google { Profile::Google } else { Profile::Rfc9309 };
            let robots = Robots::parse_with(body.as_bytes(), Options::new().profile(profile));
            let mut index = robots.index();
            index.scan_dense = false;
            for agent in [Agent::new("ExampleBot").unwrap(), Agent::new("ExampleBot").unwrap().honouring_embargo()] {
                for path in &paths {
                    prop_assert_eq!(index.check(&agent, path), robots.check(&agent, path), "{}", path);
                }
            }
        }
    }

    /// `count` literal rules under 100 directories, as a large real file has them.
    fn many_rules(count: usize) -> Vec<u8> {
        let mut body = b"User-agent: *\n".to_vec();
        for i in 0..count {
            let kind = if i % 5 == 0 { "Allow" } else { "Disallow" };
            body.extend(
                format!("{kind}: /dir{}/page{}.html\n", i % 100, i * 7919 % 100_003).bytes(),
            );
        }
        body
    }

    /// Per path, the rules tried stay those that can match and the steps stay within
    /// the path's length, however many rules there are: the work of a check does not
    /// grow with the file, so checking every rule's path is linear in the rules where the
    /// scan of `Robots::check` tries half of them per path.
    #[test]
    fn a_check_tries_the_rules_a_path_can_match_not_all_of_them() {
        let bot = Agent::new("ExampleBot").unwrap();
        for count in [1_000, 16_000] {
            let robots = Robots::parse(&many_rules(count));
            let index = robots.index();
            let (mut tried, mut steps) = (0, 0);
            for i in 0..count {
                let path = format!("/dir{}/page{}.html/x", i % 100, i * 7919 % 100_003);
                let mut runs = Vec::new();
                let taken = index.candidates(path.as_bytes(), &mut runs);
                assert!(taken <= path.len() + 1, "{taken} steps for {path}");
                steps += taken;
                tried += runs.iter().map(|run| run.len()).sum::<usize>();
                // The scan is the slow way this test avoids: a sample of it suffices.
                if i % 200 == 0 {
                    assert_eq!(index.check(&bot, &path), robots.check(&bot, &path));
                }
            }
            // Each path is matched by its own rule, and by a repeat of it if any.
            assert!(tried <= 2 * count, "{tried} rules tried for {count} paths");
            assert!(steps <= 25 * count, "{steps} steps for {count} paths");
        }
    }
}
