//! Helpers shared by the tests that read `../shared/` (conformance vectors, corpus).

#![allow(dead_code)]

use std::path::PathBuf;

use base64::Engine;
use serde_json::Value;

/// The shared folder beside the repository (or `$ROBOTS_SHARED`), if present. When it is
/// absent the caller skips, after this prints a notice saying so.
pub fn shared(sub: &str) -> Option<PathBuf> {
    let base = std::env::var_os("ROBOTS_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    let dir = base.join(sub);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("notice: {} is absent; skipping this test", dir.display());
        None
    }
}

/// The JSON Lines records of a file.
pub fn jsonl(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("valid JSON line"))
        .collect()
}

/// A vector's robots.txt body: `robots_txt`, or the raw bytes of `robots_txt_b64`.
pub fn body(case: &Value) -> Vec<u8> {
    match (case.get("robots_txt"), case.get("robots_txt_b64")) {
        (Some(Value::String(s)), _) => s.as_bytes().to_vec(),
        (_, Some(Value::String(b))) => base64::engine::general_purpose::STANDARD
            .decode(b)
            .expect("valid base64"),
        _ => panic!("case without a body: {case}"),
    }
}

pub fn str_field<'a>(case: &'a Value, key: &str) -> &'a str {
    case[key]
        .as_str()
        .unwrap_or_else(|| panic!("no string `{key}` in {case}"))
}
