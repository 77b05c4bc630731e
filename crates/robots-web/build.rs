//! Lists every file under `www/` into `$OUT_DIR/assets.rs` as `include_bytes!`, so the
//! native crate embeds whatever page `scripts/build-web` left there, and no more.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Extensions of files that belong to the page; anything else in www/ (editor backups,
/// notes) is left out.
const SERVED: &[&str] = &["html", "css", "js", "wasm", "svg", "webmanifest", "png"];

fn main() {
    let www = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("www");
    // A directory here makes cargo look at every file under it, pkg/ included.
    println!("cargo:rerun-if-changed=www");
    let mut files = Vec::new();
    // The WebAssembly build needs no copy of the page inside itself.
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("wasm32") {
        collect(&www, &mut files);
    }
    files.sort();
    let mut out =
        String::from("/// Every file of the page: its URL path, its bytes and its entity tag.\n");
    out += "static FILES: &[(&str, &[u8], &str)] = &[\n";
    for file in &files {
        let url = file.strip_prefix(&www).unwrap().to_string_lossy();
        let url = format!("/{}", url.replace('\\', "/"));
        let etag = format!("\"{:016x}\"", fnv1a(&std::fs::read(file).unwrap()));
        writeln!(
            out,
            "    ({url:?}, include_bytes!({:?}), {etag:?}),",
            file.display().to_string()
        )
        .unwrap();
    }
    out += "];\n";
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("assets.rs");
    std::fs::write(dest, out).unwrap();
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if hidden {
            continue;
        }
        if path.is_dir() {
            collect(&path, files);
        } else if path
            .extension()
            .is_some_and(|e| SERVED.iter().any(|s| e == *s))
        {
            files.push(path);
        }
    }
}

/// FNV-1a, 64 bits: an entity tag that changes whenever a file's bytes do.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
