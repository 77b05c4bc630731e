//! The vectors a parse builds in, kept per thread from one parse to the next: the parsed
//! file gets vectors of exactly the size it needs, and the thread's seldom have to grow.

use std::cell::Cell;
use std::mem::take;

use super::rank::RankOrder;
use super::{GroupTexts, Parser};
use crate::robots::{AgentLine, Finding, GroupData, Pacing, RecordLine, RuleLine, Site};
use crate::simd::scan::Marks;
use crate::Robots;

/// A thread keeps its scratch only while its vectors hold at most this many octets
/// (16 MiB), so that one huge file does not hold on to its memory. Over the corpus the
/// scratch grows to 9.3 MB (4.2 MB with the default parse limit). Kept only up to
/// 512 KiB, it was freed after 27 of the corpus's files (24 of the 55 over 100 KB), and
/// the next big file had the system hand out fresh pages again: the corpus parse took 6% more time in a process
/// that did nothing else, 1.2% more in the criterion bench (which runs the peers first).
const KEEP_AT_MOST: usize = 16 << 20;

/// Everything a parse grows: the vectors of the [`Robots`] being built and the parser's
/// own. Taken empty, given back emptied.
#[derive(Default)]
pub(super) struct Scratch {
    pub arena: Vec<u8>,
    pub groups: Vec<GroupData>,
    pub pacing: Vec<Pacing>,
    pub agents: Vec<AgentLine>,
    pub rules: Vec<RuleLine>,
    pub records: Vec<RecordLine>,
    pub findings: Vec<Finding>,
    pub embargo_allows: Vec<(u32, u32, Site)>,
    pub texts: GroupTexts,
    pub order: RankOrder,
    pub marks: Vec<Marks>,
}

/// A vector holding more than this many octets is handed over and shrunk in place, not
/// copied: past this size, copying costs more than allocating anew for the next parse.
/// (Copying every arena and rule vector of the corpus took 7% of the parse's time.)
const HAND_OVER: usize = 1 << 14;

/// Whether [`exact`] hands `kept` itself over.
pub(super) fn handed_over<T>(kept: &[T]) -> bool {
    std::mem::size_of_val(kept) > HAND_OVER
}

/// `kept` itself, shrunk to fit; `kept` is left empty.
pub(super) fn hand_over<T>(kept: &mut Vec<T>) -> Vec<T> {
    let mut handed = std::mem::take(kept);
    handed.shrink_to_fit();
    handed
}

/// `kept`'s elements in a vector of exactly their size: a copy, or `kept` itself (and
/// then `kept` is left empty).
fn exact<T: Clone>(kept: &mut Vec<T>) -> Vec<T> {
    if handed_over(kept) {
        hand_over(kept)
    } else {
        kept.clone()
    }
}

thread_local! {
    /// Boxed, so that taking it and giving it back moves a pointer: moving its 14
    /// vectors in and out whole cost an empty file's parse four calls to `memcpy`, and
    /// 1,419 instructions against 1,215.
    static SCRATCH: Cell<Option<Box<Scratch>>> = const { Cell::new(None) };
}

impl Scratch {
    /// This thread's scratch; a new one if the thread has none (its first parse, after a
    /// parse that kept none, or while the thread is being torn down).
    pub fn take() -> Box<Scratch> {
        SCRATCH
            .try_with(Cell::take)
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// The file the parser built, at exact sizes; the parser's vectors are emptied and
    /// kept for the thread's next parse. The parser's rules are exact already (see
    /// `Parser::finish`), and `rules` is the vector they were built in, if it is not
    /// theirs. The parser is borrowed, not moved in: moving its 432 bytes here and into
    /// `finish` cost an empty file's parse a third of its 135 ns, and the corpus parse
    /// 1.4% of its time.
    pub fn keep(parser: &mut Parser, rules: Vec<RuleLine>) -> Robots {
        let built = &mut parser.robots;
        let robots = Robots {
            arena: exact(&mut built.arena),
            groups: exact(&mut built.groups),
            pacing: exact(&mut built.pacing),
            agents: exact(&mut built.agents),
            rules: take(&mut built.rules),
            records: exact(&mut built.records),
            findings: exact(&mut built.findings),
            ..*built
        };
        let mut scratch = parser.scratch.take().unwrap_or_default();
        let s = &mut *scratch;
        s.arena = take(&mut built.arena);
        s.groups = take(&mut built.groups);
        s.pacing = take(&mut built.pacing);
        s.agents = take(&mut built.agents);
        s.rules = rules;
        s.records = take(&mut built.records);
        s.findings = take(&mut built.findings);
        s.embargo_allows = take(&mut parser.embargo_allows);
        s.texts = take(&mut parser.texts);
        s.order = take(&mut parser.order);
        s.marks = take(&mut parser.marks);
        if scratch.bytes() <= KEEP_AT_MOST {
            scratch.clear();
            // A thread being torn down keeps nothing.
            let _ = SCRATCH.try_with(|kept| kept.set(Some(scratch)));
        }
        robots
    }

    /// The octets its vectors hold room for.
    fn bytes(&self) -> usize {
        fn room<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        room(&self.arena)
            + room(&self.groups)
            + room(&self.pacing)
            + room(&self.agents)
            + room(&self.rules)
            + room(&self.records)
            + room(&self.findings)
            + room(&self.embargo_allows)
            + room(&self.texts.previous)
            + room(&self.texts.current)
            + self.order.bytes()
            + room(&self.marks)
    }

    fn clear(&mut self) {
        self.arena.clear();
        self.groups.clear();
        self.pacing.clear();
        self.agents.clear();
        self.rules.clear();
        self.records.clear();
        self.findings.clear();
        self.embargo_allows.clear();
        self.texts.previous.clear();
        self.texts.current.clear();
        self.marks.clear();
    }
}

#[cfg(test)]
mod tests {
    use crate::Robots;

    #[test]
    fn a_parse_starts_from_empty_vectors_and_keeps_exact_copies() {
        let first = b"User-agent: a\nDisallow: /x\nSitemap: /s\nCrawl-delay: 1\nnonsense\n";
        let other = b"User-agent: *\nAllow: /y\nDisallow: /z\nUser-agent: b\nDisallow: /\n";
        // Everything a parse builds, not `Robots`' Debug summary.
        let state = |r: &Robots| {
            format!(
                "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                r.arena,
                r.groups,
                r.pacing,
                r.agents,
                r.rules,
                r.records,
                r.findings,
                (r.size, r.parsed, r.lines)
            )
        };
        let before = Robots::parse(first);
        let between = Robots::parse(other);
        let after = Robots::parse(first);
        assert_eq!(state(&before), state(&after));
        assert_ne!(state(&before), state(&between));
        // Past `HAND_OVER`, the vector itself is handed over, shrunk to fit.
        let big = format!("User-agent: *\n{}", "Disallow: /abcdefgh\n".repeat(2000));
        let big = Robots::parse(big.as_bytes());
        assert!(big.arena.len() > super::HAND_OVER);
        for robots in [&before, &between, &big] {
            assert_eq!(robots.rules.capacity(), robots.rules.len());
            assert_eq!(robots.arena.capacity(), robots.arena.len());
            assert_eq!(robots.findings.capacity(), robots.findings.len());
        }
    }

    #[test]
    fn a_big_file_leaves_its_vectors_to_the_next_parse() {
        // Megabytes of scratch: past the 512 KiB once kept, within the bound.
        let big = "Disallow: /a\n".repeat(100_000);
        let options = crate::Options::new().max_bytes(usize::MAX).unwrap();
        Robots::parse_with(big.as_bytes(), options);
        let kept = super::Scratch::take();
        assert!(kept.bytes() > 1 << 20, "kept {} bytes", kept.bytes());
        assert!(kept.bytes() <= super::KEEP_AT_MOST);
    }

    #[test]
    fn a_huge_file_is_parsed_without_keeping_its_vectors() {
        let lines = 1_000_000;
        let huge = "Disallow: /a\n".repeat(lines);
        let options = crate::Options::new().max_bytes(usize::MAX).unwrap();
        let robots = Robots::parse_with(huge.as_bytes(), options);
        assert_eq!(robots.lines, lines as u32 + 1);
        let kept = super::Scratch::take();
        assert!(kept.bytes() <= super::KEEP_AT_MOST);
    }
}
