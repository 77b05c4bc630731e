//! Running the `robots` binary from the command-line tests, and reading its JSON lines.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `robots` with `args`, `stdin` on its standard input, and no proxy settings from
/// the environment (tests talk to servers on 127.0.0.1 only).
pub fn run(args: &[impl AsRef<OsStr>], stdin: impl AsRef<[u8]>) -> Output {
    run_in(Path::new("."), args, stdin)
}

/// [`run`] in the directory `dir`.
pub fn run_in(dir: &Path, args: &[impl AsRef<OsStr>], stdin: impl AsRef<[u8]>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_robots"));
    command.current_dir(dir);
    for var in [
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ] {
        command.env_remove(var);
    }
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("robots runs");
    // A command refused for its arguments exits without reading its input.
    match child.stdin.take().unwrap().write_all(stdin.as_ref()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.unwrap(),
    }
    child.wait_with_output().unwrap()
}

/// Runs `robots` with `args` writing into a reader that has gone away: its standard
/// output is one end of a Unix socket pair whose other end is closed before it starts,
/// so its first write fails (EPIPE; Rust ignores SIGPIPE) however fast it runs.
#[cfg(unix)]
pub fn run_into_closed_pipe(args: &[impl AsRef<OsStr>]) -> Output {
    use std::os::fd::OwnedFd;
    use std::os::unix::net::UnixStream;

    let (stdout, reader) = UnixStream::pair().unwrap();
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_robots"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(OwnedFd::from(stdout))
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// Standard output read as one JSON object per line.
pub fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// Whether `text` holds a character a terminal would obey rather than show: a control
/// other than the line feed, or a bidirectional control.
pub fn raw_controls(text: &str) -> bool {
    text.chars().any(|c| {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })
}

/// A `robots` server started on a free loopback port, stopped when dropped however the
/// test ends.
pub struct Serving {
    pub child: std::process::Child,
    pub addr: std::net::SocketAddr,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `robots <args>` (a `serve` command given `--addr 127.0.0.1:0`) and reads the
/// address it listens on from the line it prints.
pub fn serve(args: &[&str]) -> Serving {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_robots"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("robots serve starts");
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let addr = loop {
        line.clear();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "robots {args:?} ended before saying where it listens"
        );
        if let Some(rest) = line.trim().split("http://").nth(1) {
            let addr = rest.split_whitespace().next().unwrap_or(rest);
            break addr.trim_end_matches('/').parse().expect("an address");
        }
    };
    Serving { child, addr }
}

/// The peak resident memory of process `pid` so far, in bytes (Linux: VmHWM).
#[cfg(target_os = "linux")]
pub fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/<pid>/status");
    kb * 1024
}
