//! Putting a group's rules in rank order (see `RuleLine::rank`): their ranks are sorted
//! as numbers and the rules follow, by radix in the big groups, which cost the most.

use crate::robots::{GroupData, RuleLine};

/// Groups with at least this many rules are sorted by radix: a pass costs two steps per
/// rule plus one per bucket, so it pays once a comparison sort's `log n` outgrows it.
/// Over the corpus, 64 took the fewest instructions of 32, 48, 64, 128, 256 and 512.
const BY_RADIX: usize = 64;

/// Octets of a key that one radix pass sorts by.
const DIGIT_BITS: u32 = 8;

/// Vectors reused from group to group.
#[derive(Default)]
pub(super) struct RankOrder {
    ranks: Vec<u64>,
    spare: Vec<u64>,
    sorted: Vec<RuleLine>,
}

impl RankOrder {
    /// `rules`, which `groups` share out in file order, in a vector of exactly their
    /// number, each group's in rank order: put in order as they are copied out of the
    /// parser's vector, as the parsed file's small vectors are.
    pub fn ranked(&mut self, groups: &[GroupData], rules: &[RuleLine]) -> Vec<RuleLine> {
        let mut ranked = Vec::with_capacity(rules.len());
        for group in groups {
            let rules = &rules[group.rules.start as usize..group.rules.end as usize];
            if self.rank(rules) {
                ranked.extend(self.ranks.iter().map(|&rank| rules[rank as u32 as usize]));
            } else {
                ranked.extend_from_slice(rules);
            }
        }
        debug_assert_eq!(ranked.len(), rules.len(), "groups share out the rules");
        ranked
    }

    /// Puts each group's rules in rank order where they are, for a vector the parsed file
    /// takes over rather than copies.
    pub fn sort(&mut self, groups: &[GroupData], rules: &mut [RuleLine]) {
        for group in groups {
            let rules = &mut rules[group.rules.start as usize..group.rules.end as usize];
            if self.rank(rules) {
                self.sorted.clear();
                self.sorted
                    .extend(self.ranks.iter().map(|&rank| rules[rank as u32 as usize]));
                rules.copy_from_slice(&self.sorted);
            }
        }
    }

    /// Sorts the ranks of `rules` (one group's, in file order) into `ranks`; false, and
    /// `ranks` left as they are, if the rules are in rank order already.
    fn rank(&mut self, rules: &[RuleLine]) -> bool {
        if rules.len() < 2 {
            return false;
        }
        self.ranks.clear();
        self.ranks
            .extend(rules.iter().zip(0..).map(|(rule, place)| rule.rank(place)));
        if self.ranks.is_sorted() {
            return false;
        }
        if self.ranks.len() >= BY_RADIX {
            self.by_radix();
        } else {
            self.ranks.sort_unstable();
        }
        true
    }

    /// The octets its vectors hold room for.
    pub fn bytes(&self) -> usize {
        (self.ranks.capacity() + self.spare.capacity()) * std::mem::size_of::<u64>()
            + self.sorted.capacity() * std::mem::size_of::<RuleLine>()
    }

    /// Sorts the ranks by their high 32 bits, least significant digit first. Every pass
    /// is stable and the ranks start in file order, which their low 32 bits hold, so this
    /// is the order a full sort gives. Keys are taken relative to the least, so a group
    /// whose lengths differ by less than 128 takes one pass.
    fn by_radix(&mut self) {
        let key = |rank: u64| (rank >> 32) as u32;
        let least = self.ranks.iter().map(|&r| key(r)).min().unwrap_or(0);
        let most = self.ranks.iter().map(|&r| key(r)).max().unwrap_or(0);
        let bits = u32::BITS - (most - least).leading_zeros();
        self.spare.resize(self.ranks.len(), 0);
        let mut shift = 0;
        while shift < bits {
            let digit = |rank: u64| ((key(rank) - least) >> shift) as usize & 0xFF;
            let mut starts = [0usize; 1 << DIGIT_BITS];
            for &rank in &self.ranks {
                starts[digit(rank)] += 1;
            }
            let mut next = 0;
            for start in &mut starts {
                (*start, next) = (next, next + *start);
            }
            for &rank in &self.ranks {
                let d = digit(rank);
                self.spare[starts[d]] = rank;
                starts[d] += 1;
            }
            std::mem::swap(&mut self.ranks, &mut self.spare);
            shift += DIGIT_BITS;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// By radix, ranks come out as a comparison sort leaves them, whatever the spread
        /// of their keys.
        #[test]
        fn radix_order_is_sorted_order(
            keys in proptest::collection::vec(
                proptest::prop_oneof![0u64..4, 0u64..300, 0u64..(1 << 27)],
                0..700,
            ),
        ) {
            let ranks: Vec<u64> = keys.iter().zip(0..).map(|(k, place)| k << 32 | place).collect();
            let mut order = RankOrder { ranks: ranks.clone(), ..RankOrder::default() };
            order.by_radix();
            let mut want = ranks;
            want.sort_unstable();
            proptest::prop_assert_eq!(order.ranks, want);
        }
    }
}
