//! Lists every file of the page into `$OUT_DIR/assets.rs` as `include_bytes!`: those under
//! `www/`, and the WebAssembly with its glue under `/pkg/`, which `build/wasm.rs` builds.
//!
//! Natively, with the default feature `embed-wasm`, the page's WebAssembly is built here
//! (see `build/wasm.rs`), so `cargo build` and `cargo install` give a working page; when it
//! cannot be, a warning says why and the page embedded says how to build it.

#[cfg(feature = "embed-wasm")]
#[path = "build/wasm.rs"]
mod wasm;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Extensions of files that belong to the page; anything else in www/ (editor backups,
/// notes) is left out.
const SERVED: &[&str] = &["html", "css", "js", "wasm", "svg", "webmanifest", "png"];

fn main() {
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let www = crate_dir.join("www");
    // A directory here makes cargo look at every file under it.
    println!("cargo:rerun-if-changed=www");
    // (URL path, file) of every file served.
    let mut files = Vec::new();
    // The WebAssembly build needs no copy of the page inside itself.
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("wasm32") {
        collect(&www, "", &mut files);
        if let Some(pkg) = pkg(&crate_dir, &out_dir) {
            collect(&pkg, "/pkg", &mut files);
        }
    }
    files.sort();
    let mut out =
        String::from("/// Every file of the page: its URL path, its bytes and its entity tag.\n");
    out += "static FILES: &[(&str, &[u8], &str)] = &[\n";
    for (url, file) in &files {
        let etag = format!(
            "\"{:016x}\"",
            fnv1a(0xcbf2_9ce4_8422_2325, &std::fs::read(file).unwrap())
        );
        writeln!(
            out,
            "    ({url:?}, include_bytes!({:?}), {etag:?}),",
            file.display().to_string()
        )
        .unwrap();
    }
    out += "];\n";
    std::fs::write(out_dir.join("assets.rs"), out).unwrap();
}

/// The built WebAssembly and its glue, or none, with a warning that says why.
#[cfg(feature = "embed-wasm")]
fn pkg(crate_dir: &Path, out_dir: &Path) -> Option<PathBuf> {
    println!("cargo:rerun-if-env-changed={}", wasm::NESTED);
    if std::env::var_os(wasm::NESTED).is_some() {
        return None;
    }
    wasm::pkg(crate_dir, out_dir)
        .inspect_err(|why| {
            println!(
                "cargo:warning=robots serve's page will say its WebAssembly was not built: {why}"
            )
        })
        .ok()
}

/// Without the feature `embed-wasm`, no WebAssembly: the page says how to build it.
#[cfg(not(feature = "embed-wasm"))]
fn pkg(_: &Path, _: &Path) -> Option<PathBuf> {
    None
}

/// Every page file under `dir` as (URL path under `prefix`, file). A `pkg/` in `www/`,
/// which scripts/build-web once wrote, is left out: the WebAssembly is built's, never a
/// copy that may be stale.
fn collect(dir: &Path, prefix: &str, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let url = format!("{prefix}/{name}");
        if path.is_dir() {
            if url != "/pkg" {
                collect(&path, &url, files);
            }
        } else if path
            .extension()
            .is_some_and(|e| SERVED.iter().any(|s| e == *s))
        {
            files.push((url, path));
        }
    }
}

/// FNV-1a, 64 bits, continued from `hash`: an entity tag that changes whenever a file's
/// bytes do.
fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
