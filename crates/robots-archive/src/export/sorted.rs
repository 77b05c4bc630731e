//! Lines sorted bytewise in bounded memory, for exports of any size: runs of lines sorted
//! in memory and spilled to files beside the output, then merged as they are written.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::store::io_error;
use crate::Error;

/// How many bytes of lines an export keeps in memory before it spills them, sorted, to
/// a run file: a CDXJ line is about 300 bytes, so some 200,000 lines a run.
pub(crate) const BUDGET: usize = 64 * 1024 * 1024;

/// Lines to write sorted: [`SortedLines::push`] each, then [`SortedLines::write_to`].
/// Lines hold no `\n` (CDXJ and access rules are one JSON object a line).
pub(crate) struct SortedLines {
    /// Run files are this path with `.run0`, `.run1`… appended.
    prefix: PathBuf,
    budget: usize,
    /// Largest first (pywb's access rules), else smallest first.
    descending: bool,
    held: Vec<String>,
    held_bytes: usize,
    runs: Vec<PathBuf>,
}

impl SortedLines {
    /// Lines to be written in bytewise order (`descending`: the reverse), whose runs,
    /// when they outgrow `budget` bytes, go to files named after `prefix`.
    pub(crate) fn new(prefix: &Path, budget: usize, descending: bool) -> SortedLines {
        SortedLines {
            prefix: prefix.to_owned(),
            budget,
            descending,
            held: Vec::new(),
            held_bytes: 0,
            runs: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, line: String) -> Result<(), Error> {
        self.held_bytes += line.len() + size_of::<String>();
        self.held.push(line);
        if self.held_bytes > self.budget {
            self.spill()?;
        }
        Ok(())
    }

    /// The lines held, sorted, to a new run file.
    fn spill(&mut self) -> Result<(), Error> {
        let mut name = self.prefix.as_os_str().to_owned();
        name.push(format!(".run{}", self.runs.len()));
        let path = PathBuf::from(name);
        // Named before it is written, so that `Drop` removes it even half written.
        self.runs.push(path.clone());
        let io = |e| io_error(&path, e);
        self.sort_held();
        let mut w = BufWriter::new(File::create(&path).map_err(io)?);
        for line in self.held.drain(..) {
            w.write_all(line.as_bytes()).map_err(io)?;
            w.write_all(b"\n").map_err(io)?;
        }
        w.flush().map_err(io)?;
        self.held_bytes = 0;
        Ok(())
    }

    /// The lines held, in the order they are written; each run is written in it.
    fn sort_held(&mut self) {
        if self.descending {
            self.held.sort_unstable_by(|a, b| b.cmp(a));
        } else {
            self.held.sort_unstable();
        }
    }

    /// Writes every line, each ended by `\n`, in order, to `out`; returns how many. The
    /// run files are gone afterwards.
    pub(crate) fn write_to(mut self, out: &mut impl Write) -> Result<u64, Error> {
        let descending = self.descending;
        let write = |out: &mut dyn Write, line: &[u8]| -> std::io::Result<()> {
            out.write_all(line)?;
            out.write_all(b"\n")
        };
        let prefix = self.prefix.clone();
        let io = |e| io_error(&prefix, e);
        if self.runs.is_empty() {
            // All of it fitted: no file at all.
            self.sort_held();
            for line in &self.held {
                write(out, line.as_bytes()).map_err(io)?;
            }
            return Ok(self.held.len() as u64);
        }
        if !self.held.is_empty() {
            self.spill()?;
        }
        // A k-way merge: the next line of each run in a heap, the smallest (or largest)
        // on top. Lines are read as the octets written (`split`, which, unlike `lines`,
        // leaves a `\r` alone).
        let mut readers = Vec::with_capacity(self.runs.len());
        for path in &self.runs {
            readers.push(
                BufReader::new(File::open(path).map_err(|e| io_error(path, e))?).split(b'\n'),
            );
        }
        let runs = &self.runs;
        let next = |i: usize, readers: &mut Vec<std::io::Split<BufReader<File>>>| {
            readers[i]
                .next()
                .transpose()
                .map_err(|e| io_error(&runs[i], e))
        };
        let mut heads = BinaryHeap::new();
        for run in 0..readers.len() {
            if let Some(line) = next(run, &mut readers)? {
                heads.push(Head {
                    line,
                    run,
                    descending,
                });
            }
        }
        let mut count = 0u64;
        while let Some(Head { line, run, .. }) = heads.pop() {
            write(out, &line).map_err(io)?;
            count += 1;
            if let Some(line) = next(run, &mut readers)? {
                heads.push(Head {
                    line,
                    run,
                    descending,
                });
            }
        }
        Ok(count)
    }
}

/// A run's next line in the merge's heap, which pops its greatest: the line that comes
/// first in the order written (the smallest, or for `descending` the largest).
#[derive(PartialEq, Eq)]
struct Head {
    line: Vec<u8>,
    run: usize,
    descending: bool,
}

impl Ord for Head {
    fn cmp(&self, other: &Head) -> Ordering {
        let order = if self.descending {
            self.line.cmp(&other.line)
        } else {
            other.line.cmp(&self.line)
        };
        // Equal lines come off in run order, so the merge is the same on every run.
        order.then(other.run.cmp(&self.run))
    }
}

impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Head) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Drop for SortedLines {
    /// The run files are scratch: gone when the lines are written, or when an export
    /// stops on an error.
    fn drop(&mut self) {
        for path in &self.runs {
            let _ = fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(lines: &[String], budget: usize, descending: bool) -> (Vec<u8>, usize) {
        let dir = tempfile::tempdir().unwrap();
        let mut sorter = SortedLines::new(&dir.path().join("out"), budget, descending);
        for line in lines {
            sorter.push(line.clone()).unwrap();
        }
        let runs = sorter.runs.len();
        let mut out = Vec::new();
        assert_eq!(sorter.write_to(&mut out).unwrap(), lines.len() as u64);
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            0,
            "run files left"
        );
        (out, runs)
    }

    proptest::proptest! {
        /// Spilled to runs or not, the output is the lines sorted (or reversed), each once.
        #[test]
        fn runs_merge_into_the_order_a_sort_gives(
            lines in proptest::collection::vec("[a-c ,)0-9é]{0,12}", 0..200),
            budget in 0usize..400,
            descending: bool,
        ) {
            let mut expected = lines.clone();
            expected.sort_unstable();
            if descending {
                expected.reverse();
            }
            let text: Vec<u8> = expected.iter().flat_map(|l| format!("{l}\n").into_bytes()).collect();
            let (out, _) = sorted(&lines, budget, descending);
            proptest::prop_assert_eq!(out, text);
        }
    }

    #[test]
    fn a_small_budget_spills_and_a_large_one_does_not() {
        let lines: Vec<String> = (0..1000)
            .map(|i| format!("key{} x", (i * 7919) % 1000))
            .collect();
        assert!(sorted(&lines, 1 << 10, false).1 > 10);
        assert_eq!(sorted(&lines, 1 << 30, false).1, 0);
    }
}
