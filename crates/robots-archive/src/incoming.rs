//! Incoming copies: a file being sealed is copied to `store/.incoming-…`, named after the
//! process writing it, so that a copy left by an ingest killed mid-copy can be removed.
//!
//! An ingest killed mid-copy (Ctrl-C, the OOM killer, power loss) leaves a partial copy
//! that can be as large as the WARC file and that nothing else would ever remove. The
//! next ingest removes such a copy only when its writer is certainly gone, since a copy
//! that another ingest, running now, is still writing must never be removed:
//!
//! - The name holds the writer's pid, its start time (field 22 of `/proc/<pid>/stat`,
//!   clock ticks since boot), its pid namespace and a count within the process:
//!   `.incoming-<pid>-<start>-<pidns>-<n>`. A pid alone would not do: pids are reused,
//!   so a pid that runs now may be another process. The start time tells them apart
//!   without a lock (`File::try_lock` needs Rust 1.89; this crate's MSRV is 1.85, and a
//!   locking crate was not worth a dependency).
//! - On Linux, a copy's writer is certainly gone when `/proc/<pid>` does not exist, or
//!   belongs to a process started at another time (the pid was reused, or the machine rebooted). A
//!   copy is kept when it cannot be judged: written in another pid namespace (another
//!   container sharing the volume, whose pids ours do not show), owned by another user
//!   (whose processes `/proc` mounted with `hidepid` hides), or `/proc/<pid>` unreadable.
//!   Copies of this very process (another thread sealing) are never touched.
//! - A copy named by an older version, `.incoming-<pid>`, has no start time or namespace:
//!   it is removed when its pid does not run and it has not been written to for an hour
//!   (a writer copying updates it continually; the hour covers one we cannot see).
//! - Elsewhere than on Linux nothing is removed: without `/proc` there is no portable
//!   way to tell a live writer from a dead one. `status` reports the copies instead.
//!
//! An archive whose store is shared by several machines (a network file system) must not
//! ingest on more than one of them at a time: another machine's pids mean nothing here.
//! Every copy kept whose writer is not known to run is reported by `status`, with its
//! size, for the user to delete while no ingest is running.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;

use crate::store::io_error;
use crate::Error;

/// How the name of every incoming copy starts.
pub(crate) const PREFIX: &str = ".incoming-";

/// How long a copy named by an older version (pid only) must have been left untouched
/// before it is taken as abandoned once its pid does not run.
#[cfg(target_os = "linux")]
const OLD_FORMAT_IDLE: std::time::Duration = std::time::Duration::from_secs(3600);

/// Incoming copies in the store whose writer is not known to be running: partial copies
/// left by an interrupted ingest, no part of the archive.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Leftovers {
    /// How many.
    pub files: u64,
    /// Their total size in bytes.
    pub bytes: u64,
}

impl Leftovers {
    fn add(&mut self, bytes: u64) {
        self.files += 1;
        self.bytes += bytes;
    }
}

/// The process writing an incoming copy, as its name records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Writer {
    pid: u32,
    /// Start time in clock ticks since boot, and pid namespace; `None` for a name of an
    /// older version, or (as 0 in the name) where the system does not tell.
    start: Option<u64>,
    pidns: Option<u64>,
}

/// What becomes of an incoming copy found in the store.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// Its writer runs (or may): it is kept and is no leftover.
    Writing,
    /// Its writer is certainly gone: it is removed.
    Abandoned,
    /// It cannot be told: kept, and reported as a leftover.
    Unknown,
}

/// A fresh name for an incoming copy written by this process.
pub(crate) fn name() -> String {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let me = this_process();
    format!(
        "{PREFIX}{}-{}-{}-{}",
        me.pid,
        me.start.unwrap_or(0),
        me.pidns.unwrap_or(0),
        COUNT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Removes the incoming copies in `dir` whose writer is certainly gone, and counts what
/// was removed. A copy that cannot be removed stays and `status` reports it; an ingest
/// does not fail for it.
pub(crate) fn remove_abandoned(dir: &Path) -> Result<Leftovers, Error> {
    let mut removed = Leftovers::default();
    for (path, size, fate) in scan(dir)? {
        if fate == Fate::Abandoned && fs::remove_file(&path).is_ok() {
            removed.add(size);
        }
    }
    Ok(removed)
}

/// The incoming copies in `dir` that are not being written by a running ingest.
pub(crate) fn leftovers(dir: &Path) -> Result<Leftovers, Error> {
    let mut found = Leftovers::default();
    for (_, size, fate) in scan(dir)? {
        if fate != Fate::Writing {
            found.add(size);
        }
    }
    Ok(found)
}

/// Every incoming copy in `dir` with its size and fate.
fn scan(dir: &Path) -> Result<Vec<(PathBuf, u64, Fate)>, Error> {
    let mut found = Vec::new();
    let entries = fs::read_dir(dir).map_err(|e| io_error(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| io_error(dir, e))?;
        let name = entry.file_name();
        let Some(writer) = name.to_str().and_then(parse) else {
            continue;
        };
        // Gone since the listing: renamed into place or removed by its writer.
        let Ok(meta) = entry.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        found.push((entry.path(), meta.len(), fate(writer, &meta)));
    }
    Ok(found)
}

/// The writer an incoming copy's name records, if it is one.
fn parse(name: &str) -> Option<Writer> {
    let rest = name.strip_prefix(PREFIX)?;
    let fields: Vec<&str> = rest.split('-').collect();
    let number = |s: &str| s.parse::<u64>().ok();
    let known = |n: u64| (n != 0).then_some(n);
    match fields[..] {
        [pid] => Some(Writer {
            pid: pid.parse().ok()?,
            start: None,
            pidns: None,
        }),
        [pid, start, pidns, n] => {
            number(n)?;
            Some(Writer {
                pid: pid.parse().ok()?,
                start: known(number(start)?),
                pidns: known(number(pidns)?),
            })
        }
        _ => None,
    }
}

#[cfg(target_os = "linux")]
fn fate(writer: Writer, meta: &fs::Metadata) -> Fate {
    use std::os::unix::fs::MetadataExt;

    let me = this_process();
    if writer.pid == me.pid && (writer.start.is_none() || writer.start == me.start) {
        return Fate::Writing;
    }
    // `/proc/self` is owned by the process's effective user.
    let my_uid = fs::metadata("/proc/self").map(|m| m.uid()).ok();
    if my_uid != Some(meta.uid()) {
        return Fate::Unknown;
    }
    let running = match fs::read_to_string(format!("/proc/{}/stat", writer.pid)) {
        Ok(stat) => Some(start_time(&stat)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(_) => return Fate::Unknown,
    };
    match (writer.start, writer.pidns) {
        (Some(start), Some(pidns)) => {
            if me.pidns != Some(pidns) {
                Fate::Unknown
            } else if running.is_some_and(|s| s == Some(start)) {
                Fate::Writing
            } else {
                Fate::Abandoned
            }
        }
        // Named by an older version: a pid that runs may still be its writer.
        (None, None) => {
            let idle = meta
                .modified()
                .ok()
                .and_then(|m| std::time::SystemTime::now().duration_since(m).ok());
            match (running, idle) {
                (None, Some(idle)) if idle >= OLD_FORMAT_IDLE => Fate::Abandoned,
                (None, _) => Fate::Unknown,
                (Some(_), _) => Fate::Writing,
            }
        }
        // A writer that could not read its own start time or namespace.
        _ => Fate::Unknown,
    }
}

#[cfg(not(target_os = "linux"))]
fn fate(writer: Writer, _meta: &fs::Metadata) -> Fate {
    // Without `/proc`, only this process's own copies can be told apart.
    let me = this_process();
    if writer.pid == me.pid && writer.start == me.start && writer.pidns == me.pidns {
        Fate::Writing
    } else {
        Fate::Unknown
    }
}

/// This process as the names of its incoming copies record it.
fn this_process() -> Writer {
    let pid = std::process::id();
    #[cfg(target_os = "linux")]
    {
        let start = fs::read_to_string("/proc/self/stat")
            .ok()
            .and_then(|s| start_time(&s));
        // `pid:[4026531836]`
        let pidns = fs::read_link("/proc/self/ns/pid").ok().and_then(|l| {
            let l = l.to_str()?;
            l.strip_prefix("pid:[")?.strip_suffix(']')?.parse().ok()
        });
        Writer { pid, start, pidns }
    }
    #[cfg(not(target_os = "linux"))]
    Writer {
        pid,
        start: None,
        pidns: None,
    }
}

/// The start time (field 22) of a `/proc/<pid>/stat` line. The command name (field 2)
/// is in parentheses and may hold spaces and parentheses itself, so fields are counted
/// from the last `)`.
#[cfg(any(target_os = "linux", test))]
fn start_time(stat: &str) -> Option<u64> {
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(22 - 3)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_parsed_back() {
        let me = this_process();
        let name = name();
        let parsed = parse(&name).unwrap();
        assert_eq!(parsed, me);
        assert_ne!(name, super::name(), "each copy has a name of its own");
        assert_eq!(
            parse(".incoming-42"),
            Some(Writer {
                pid: 42,
                start: None,
                pidns: None
            })
        );
        assert_eq!(parse(".incoming-42-0-0-3").unwrap().start, None);
        for other in [
            ".incoming-",
            ".incoming-x",
            ".incoming-1-2",
            "a.warc",
            "incoming-1",
        ] {
            assert_eq!(parse(other), None, "{other}");
        }
    }

    #[test]
    fn start_time_skips_a_command_name_with_spaces_and_parentheses() {
        let stat = "123 (a (b) c) S 1 123 123 0 -1 4194304 100 0 0 0 1 2 0 0 20 0 1 0 98765 \
                    1000 200 18446744073709551615";
        assert_eq!(start_time(stat), Some(98765));
        assert_eq!(start_time("123 (x) S 1"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_is_known_on_linux() {
        let me = this_process();
        assert!(me.start.is_some() && me.pidns.is_some(), "{me:?}");
    }
}
