//! The page's WebAssembly, built by the build script: this crate for wasm32 by a nested
//! cargo in a target directory of its own, and its glue written by wasm-bindgen's library.
//!
//! The result is kept under the target directory (`robots-web-wasm/pkg/`) with a hash of
//! everything it was built from, so `cargo build`, `clippy`, `test` and `doc` build it
//! once between them and again only when the engine's or this crate's sources change.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The target the page's WebAssembly is built for.
const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// What cargo tells a build script about the build it runs in, by prefix and by name.
const HOST_PREFIXES: &[&str] = &[
    "CARGO_CFG_",
    "CARGO_FEATURE_",
    "CARGO_PKG_",
    "CARGO_MANIFEST_",
];
const HOST_VARS: &[&str] = &[
    "OUT_DIR",
    "TARGET",
    "HOST",
    "OPT_LEVEL",
    "PROFILE",
    "DEBUG",
    "NUM_JOBS",
];

/// Set in the nested cargo's environment; the build script seeing it builds no page.
pub const NESTED: &str = "ROBOTS_WEB_NESTED_BUILD";

/// The directory holding `robots_web_bg.wasm` and `robots_web.js`, built or reused, or
/// why there is none, with what to do, for a `cargo:warning`.
pub fn pkg(crate_dir: &Path, out_dir: &Path) -> Result<PathBuf, String> {
    let sources = Sources::find(crate_dir);
    for path in sources.watched() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = output(Command::new(&rustc).arg("-vV")).unwrap_or_default();
    let stamp = format!("{:016x}", sources.hash(&version));

    let cache = cache_dir(out_dir);
    let pkg = cache.join("pkg");
    let built = std::fs::read_to_string(pkg.join(".inputs")).unwrap_or_default();
    if built == stamp
        && pkg.join("robots_web_bg.wasm").is_file()
        && pkg.join("robots_web.js").is_file()
    {
        return Ok(pkg);
    }

    ensure_target(&rustc)?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let target_dir = cache.join("target");
    let mut build = Command::new(cargo);
    build
        .args([
            "build",
            "--lib",
            "--no-default-features",
            "--profile",
            "web",
        ])
        .args(["--target", WASM_TARGET, "--manifest-path"])
        .arg(crate_dir.join("Cargo.toml"))
        // Its own target directory: the one this build script runs in is locked by the
        // cargo running it, and would deadlock a nested cargo.
        .env("CARGO_TARGET_DIR", &target_dir)
        .env(NESTED, "1");
    // The host's flags and wrappers (clippy's driver, `-C target-cpu=native`) are not
    // the WebAssembly's; CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS is, and stays.
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_BUILD_TARGET",
        "CARGO_BUILD_TARGET_DIR",
        "CARGO_BUILD_BUILD_DIR",
        "CLIPPY_ARGS",
    ] {
        build.env_remove(var);
    }
    // Nor is what cargo told this build script about the host build: the nested cargo
    // sets its own for its build scripts, but would leave a host cfg wasm32 lacks
    // (`CARGO_CFG_UNIX`) standing.
    for (var, _) in std::env::vars_os() {
        let name = var.to_string_lossy();
        if HOST_PREFIXES.iter().any(|p| name.starts_with(p)) || HOST_VARS.contains(&&*name) {
            build.env_remove(&var);
        }
    }
    let status = build
        .status()
        .map_err(|e| format!("cannot run cargo to build it ({e})"))?;
    if !status.success() {
        return Err(format!(
            "`cargo build -p robots-web --lib --target {WASM_TARGET} --profile web` failed ({status}); its errors are above in this build script's output (cargo build -vv)"
        ));
    }

    let wasm = target_dir
        .join(WASM_TARGET)
        .join("web")
        .join("robots_web.wasm");
    // Written beside, then moved into place: an interrupted build leaves no half pkg/.
    let fresh = cache.join("pkg.new");
    let _ = std::fs::remove_dir_all(&fresh);
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm)
        .web(true)
        .and_then(|b| {
            // As the CLI's defaults have it: the glue finds the module beside itself.
            b.typescript(false)
                .omit_default_module_path(false)
                .remove_name_section(true)
                .remove_producers_section(true)
                .generate(&fresh)
        })
        .map_err(|e| {
            format!(
                "wasm-bindgen could not write the glue for {}: {e:#}",
                wasm.display()
            )
        })?;
    std::fs::write(fresh.join(".inputs"), &stamp).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&pkg);
    std::fs::rename(&fresh, &pkg).map_err(|e| format!("cannot move {}: {e}", fresh.display()))?;
    Ok(pkg)
}

/// Where the WebAssembly is built and kept: `robots-web-wasm/` in the target directory
/// (`OUT_DIR` is `<target>/<profile>/build/robots-web-<hash>/out`), shared by every
/// profile; `OUT_DIR` itself in a layout not known here.
fn cache_dir(out_dir: &Path) -> PathBuf {
    let build = out_dir.ancestors().nth(2);
    match (build, out_dir.ancestors().nth(4)) {
        (Some(build), Some(target)) if build.file_name() == Some("build".as_ref()) => {
            target.join("robots-web-wasm")
        }
        _ => out_dir.join("robots-web-wasm"),
    }
}

/// Makes sure the wasm32 target's standard library is installed: with rustup when it is
/// not (`rustup target add`, for the toolchain running this build); otherwise says how.
fn ensure_target(rustc: &OsString) -> Result<(), String> {
    let installed = || {
        output(Command::new(rustc).args(["--print", "target-libdir", "--target", WASM_TARGET]))
            .is_some_and(|dir| has_core(dir.trim()))
    };
    if installed() {
        return Ok(());
    }
    let added = Command::new("rustup")
        .args(["target", "add", WASM_TARGET])
        .status()
        .is_ok_and(|s| s.success());
    if added && installed() {
        return Ok(());
    }
    Err(format!(
        "the {WASM_TARGET} target is not installed{}; install it (`rustup target add {WASM_TARGET}`, or your distribution's Rust standard library for WebAssembly), then build again",
        if added { "" } else { " and rustup could not add it" }
    ))
}

/// Whether the target library directory `dir` holds a `libcore-*.rlib`.
fn has_core(dir: &str) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("libcore-") && name.ends_with(".rlib")
        })
    })
}

/// What `command` prints on standard output, when it succeeds.
fn output(command: &mut Command) -> Option<String> {
    let out = command.output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// What the WebAssembly is built from: this crate's sources, manifest and build script,
/// the engine's (when it is a path dependency beside this crate), and the workspace's
/// manifest and lock file (the `web` profile, every dependency's version).
struct Sources {
    /// Directories and files, watched by cargo and hashed here.
    paths: Vec<PathBuf>,
}

impl Sources {
    fn find(crate_dir: &Path) -> Sources {
        // The build script too: how the WebAssembly is built is part of what it is.
        let mut paths = vec![
            crate_dir.join("src"),
            crate_dir.join("Cargo.toml"),
            crate_dir.join("build.rs"),
            crate_dir.join("build"),
        ];
        let engine = crate_dir.join("../robots");
        if engine.join("Cargo.toml").is_file() {
            paths.extend([engine.join("src"), engine.join("Cargo.toml")]);
        }
        if let Some(root) = crate_dir
            .ancestors()
            .skip(1)
            .find(|dir| dir.join("Cargo.lock").is_file())
        {
            paths.extend([root.join("Cargo.toml"), root.join("Cargo.lock")]);
        }
        Sources { paths }
    }

    fn watched(&self) -> impl Iterator<Item = &PathBuf> {
        self.paths.iter()
    }

    /// A hash of every file's path and bytes, and `extra` (the compiler's version).
    fn hash(&self, extra: &str) -> u64 {
        let mut files = Vec::new();
        for path in &self.paths {
            walk(path, &mut files);
        }
        files.sort();
        let mut hash = crate::fnv1a(0xcbf2_9ce4_8422_2325, extra.as_bytes());
        let flags = std::env::var("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS");
        hash = crate::fnv1a(hash, flags.unwrap_or_default().as_bytes());
        for file in files {
            hash = crate::fnv1a(hash, file.to_string_lossy().as_bytes());
            hash = crate::fnv1a(hash, &std::fs::read(&file).unwrap_or_default());
        }
        hash
    }
}

/// Every file under `path` (or `path` itself, a file).
fn walk(path: &Path, files: &mut Vec<PathBuf>) {
    match std::fs::read_dir(path) {
        Ok(entries) => {
            for entry in entries.flatten() {
                walk(&entry.path(), files);
            }
        }
        Err(_) if path.is_file() => files.push(path.to_path_buf()),
        Err(_) => {}
    }
}
