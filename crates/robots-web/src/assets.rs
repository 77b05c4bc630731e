//! The page and its assets, embedded at build time from `www/`, with the WebAssembly
//! module and its JavaScript glue (`/pkg/`) that the build script built, when it could.

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The WebAssembly module, as the page's glue asks for it.
pub const WASM_PATH: &str = "/pkg/robots_web_bg.wasm";
/// The JavaScript glue that wasm-bindgen writes for the module.
pub const GLUE_PATH: &str = "/pkg/robots_web.js";

/// What stands in for the page in a binary built before the WebAssembly was.
const NOT_BUILT: &[u8] = b"<!doctype html>
<html lang=\"en\"><head><meta charset=\"utf-8\"><title>robots.txt tester: not built</title></head>
<body><h1>The tester's WebAssembly was not built</h1>
<p>This binary was built without the page's WebAssembly module: its build could not make
it, and a warning of the build said why (most often, the <code>wasm32-unknown-unknown</code>
target is missing). Install it (<code>rustup target add wasm32-unknown-unknown</code>), or in a
clone run <code>scripts/build-web</code>, which says what went wrong; then build the binary
again (<code>cargo build</code> or <code>cargo install</code>).</p>
</body></html>
";

/// One embedded file with the media type it is served as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asset {
    pub bytes: &'static [u8],
    pub content_type: &'static str,
    /// A strong entity tag of the bytes (quoted), for revalidation; none for the stand-in.
    pub etag: Option<&'static str>,
}

/// Whether the WebAssembly module and its glue were embedded.
pub fn page_built() -> bool {
    find(WASM_PATH).is_some() && find(GLUE_PATH).is_some()
}

/// The asset at URL path `path` (`/` is the page), if there is one.
pub fn get(path: &str) -> Option<Asset> {
    let path = if path == "/" { "/index.html" } else { path };
    if path == "/index.html" && !page_built() {
        return Some(Asset {
            bytes: NOT_BUILT,
            content_type: "text/html; charset=utf-8",
            etag: None,
        });
    }
    FILES
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|(_, bytes, etag)| Asset {
            bytes,
            content_type: content_type(path),
            etag: Some(etag),
        })
}

/// Every embedded URL path.
pub fn paths() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(path, _, _)| *path)
}

fn find(path: &str) -> Option<&'static [u8]> {
    FILES
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|(_, b, _)| *b)
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("svg") => "image/svg+xml",
        Some("webmanifest") => "application/manifest+json",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_always_there_and_says_how_to_build_it_when_unbuilt() {
        let page = get("/").unwrap();
        assert_eq!(page.content_type, "text/html; charset=utf-8");
        assert_eq!(get("/index.html"), Some(page));
        let text = String::from_utf8_lossy(page.bytes);
        if page_built() {
            assert!(text.contains("app.js"), "the real page loads its script");
        } else {
            assert!(text.contains("scripts/build-web"));
        }
    }

    #[test]
    fn the_module_is_webassembly_served_as_such() {
        if !page_built() {
            assert!(get(WASM_PATH).is_none());
            return;
        }
        let wasm = get(WASM_PATH).unwrap();
        assert_eq!(wasm.content_type, "application/wasm");
        assert!(wasm.bytes.starts_with(b"\0asm"));
        assert_eq!(
            get(GLUE_PATH).unwrap().content_type,
            "text/javascript; charset=utf-8"
        );
    }

    #[test]
    fn only_page_files_are_embedded() {
        assert!(get("/Cargo.toml").is_none());
        assert!(get("/../Cargo.toml").is_none());
        assert!(get("").is_none());
        for path in paths() {
            assert!(path.starts_with('/'));
            assert_ne!(content_type(path), "application/octet-stream", "{path}");
        }
        assert!(paths().any(|p| p == "/app.js"), "the page's own files");
    }
}
