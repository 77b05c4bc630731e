//! Putting a group's rules in rank order (see `RuleLine::rank`): counted into buckets by
//! key where the keys lie close together, as in nearly every big group, else by ranks.

use crate::robots::{GroupData, RuleLine};

/// Rules are counted into buckets by [`RuleLine::rank_key`] when their keys span at most
/// this many (patterns that differ in length by under 512 octets): a bucket costs a step
/// to clear and one to sum, a rule one to count and one to place. Over the corpus, 1,024
/// took fewer instructions than 256 (974 M) and 4,096, and than the radix sort of ranks
/// it replaced (962.4 M against 960.2 M).
const BUCKETS: u32 = 1024;

/// Groups with fewer rules than this have their ranks sorted by comparison: the
/// buckets between their keys cost more than the `n log n` steps. 16 took fewer
/// instructions than 8 and 32.
const BY_COUNTING: usize = 16;

/// Vectors reused from group to group.
#[derive(Default)]
pub(super) struct RankOrder {
    ranks: Vec<u64>,
    counts: Vec<u32>,
    sorted: Vec<RuleLine>,
}

impl RankOrder {
    /// `rules`, which `groups` share out in file order, in a vector of exactly their
    /// number, each group's in rank order: put in order as they are copied out of the
    /// parser's vector, as the parsed file's small vectors are.
    pub fn ranked(&mut self, groups: &[GroupData], rules: &[RuleLine]) -> Vec<RuleLine> {
        let mut ranked = rules.to_vec();
        for group in groups {
            let range = group.rules.start as usize..group.rules.end as usize;
            if let Some(keys) = keys_of(&rules[range.clone()]) {
                self.order(&rules[range.clone()], &mut ranked[range], keys);
            }
        }
        ranked
    }

    /// Puts each group's rules in rank order where they are, for a vector the parsed file
    /// takes over rather than copies.
    pub fn sort(&mut self, groups: &[GroupData], rules: &mut [RuleLine]) {
        let mut sorted = std::mem::take(&mut self.sorted);
        for group in groups {
            let rules = &mut rules[group.rules.start as usize..group.rules.end as usize];
            if let Some(keys) = keys_of(rules) {
                sorted.clear();
                sorted.extend_from_slice(rules);
                self.order(&sorted, rules, keys);
            }
        }
        self.sorted = sorted;
    }

    /// Writes `rules` (one group's, in file order, not in rank order, with `keys`) into
    /// `out`, which is as long, in rank order. Rules are counted into buckets, or their
    /// ranks sorted as numbers: sorting the rules themselves, stably by key, cost the
    /// corpus parse 6 M more instructions.
    fn order(&mut self, rules: &[RuleLine], out: &mut [RuleLine], keys: Keys) {
        if rules.len() >= BY_COUNTING && keys.most - keys.least < BUCKETS {
            self.count_out(rules, out, keys.least, keys.most - keys.least + 1);
        } else {
            self.ranks.clear();
            self.ranks
                .extend(rules.iter().zip(0..).map(|(rule, place)| rule.rank(place)));
            self.ranks.sort_unstable();
            for (slot, &rank) in out.iter_mut().zip(&self.ranks) {
                *slot = rules[rank as u32 as usize];
            }
        }
    }

    /// A counting sort of `rules` into `out` by key, whose `buckets` start at `least`.
    /// It is stable, and `rules` are in file order, so equal keys stay in file order:
    /// the order ranks give.
    fn count_out(&mut self, rules: &[RuleLine], out: &mut [RuleLine], least: u32, buckets: u32) {
        let bucket = |rule: &RuleLine| (rule.rank_key() - least) as usize;
        self.counts.clear();
        self.counts.resize(buckets as usize, 0);
        for rule in rules {
            self.counts[bucket(rule)] += 1;
        }
        let mut next = 0;
        for count in &mut self.counts {
            (*count, next) = (next, next + *count);
        }
        for rule in rules {
            let at = &mut self.counts[bucket(rule)];
            out[*at as usize] = *rule;
            *at += 1;
        }
    }

    /// The octets its vectors hold room for.
    pub fn bytes(&self) -> usize {
        self.ranks.capacity() * std::mem::size_of::<u64>()
            + self.counts.capacity() * std::mem::size_of::<u32>()
            + self.sorted.capacity() * std::mem::size_of::<RuleLine>()
    }
}

/// The least and most [`RuleLine::rank_key`] of a group's rules.
#[derive(Debug, Clone, Copy)]
struct Keys {
    least: u32,
    most: u32,
}

/// The keys of `rules` (in file order), found in one pass; `None` if the rules are in
/// rank order already (fewer than two, or keys that never fall).
fn keys_of(rules: &[RuleLine]) -> Option<Keys> {
    let first = rules.first()?.rank_key();
    let (mut keys, mut previous, mut falls) = (
        Keys {
            least: first,
            most: first,
        },
        first,
        false,
    );
    for rule in &rules[1..] {
        let key = rule.rank_key();
        falls |= key < previous;
        keys.least = keys.least.min(key);
        keys.most = keys.most.max(key);
        previous = key;
    }
    falls.then_some(keys)
}

#[cfg(test)]
mod tests {
    use crate::Robots;

    /// A file of `groups`, each of rules given as (allow, pattern length, `$`).
    fn file(groups: &[Vec<(bool, usize, bool)>]) -> String {
        let mut text = String::new();
        for (g, rules) in groups.iter().enumerate() {
            text.push_str(&format!("User-agent: bot{g}\n"));
            for &(allow, len, dollar) in rules {
                let kind = if allow { "Allow" } else { "Disallow" };
                let dollar = if dollar { "$" } else { "" };
                text.push_str(&format!("{kind}: /{}{dollar}\n", "a".repeat(len)));
            }
        }
        text
    }

    proptest::proptest! {
        /// Every group's rules come out in rank order: the most specific first, allows
        /// before disallows, then file order. Small groups
        /// and keys far apart are sorted by rank, others counted; a file past the size
        /// whose rules are copied has them sorted in place.
        #[test]
        fn every_group_is_in_rank_order(
            groups in proptest::collection::vec(
                proptest::collection::vec(
                    (
                        proptest::bool::ANY,
                        proptest::prop_oneof![0usize..8, 0usize..40, 0usize..1500],
                        proptest::bool::ANY,
                    ),
                    // An empty group would join the next one.
                    1..60,
                ),
                1..4,
            ),
            copies in 1usize..30,
        ) {
            let groups: Vec<_> = groups
                .iter()
                .map(|rules| rules.iter().cycle().take(rules.len() * copies).copied().collect())
                .collect();
            // No parse limit: the longest files are megabytes.
            let options = crate::Options::new().max_bytes(usize::MAX).unwrap();
            let robots = Robots::parse_with(file(&groups).as_bytes(), options);
            // Each group's rules by line, as written: line 1 names the first group.
            let mut header = 1;
            for (group, rules) in robots.groups.iter().zip(&groups) {
                let mut want: Vec<_> = rules
                    .iter()
                    .zip(header + 1..)
                    .map(|(&(allow, len, dollar), line)| {
                        (std::cmp::Reverse(1 + len + usize::from(dollar)), !allow, line)
                    })
                    .collect();
                header += rules.len() as u32 + 1;
                want.sort();
                let got: Vec<u32> = robots.group_rules(group).iter().map(|r| r.line).collect();
                let want: Vec<u32> = want.iter().map(|&(_, _, line)| line).collect();
                proptest::prop_assert_eq!(got, want);
            }
        }
    }
}
