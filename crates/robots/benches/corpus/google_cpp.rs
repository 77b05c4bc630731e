//! Google's C++ matcher as a contender, where it is installed: the `librobots.so` of
//! PyPI's `fast-robotstxt` wheel, loaded at run time and called through its C API.
//!
//! That library is a fork of google/robotstxt (C++20, lines as `string_view`s, `ada` for
//! URLs), about 30% faster than the original by its authors' measure, so it stands for
//! "Google's C++" a little favourably. `scripts/google-cpp` installs it under
//! `target/tools/`; `ROBOTS_GOOGLE_CPP` names another copy. Its API has no parse-once
//! form: each call parses the whole body and matches one URL for one agent as it goes.

use std::ffi::{c_char, c_void};
use std::path::PathBuf;

use libloading::Library;

/// `robots_matcher_create(void) -> robots_matcher_t*`.
type Create = unsafe extern "C" fn() -> *mut c_void;
/// `robots_matcher_free(robots_matcher_t*)`.
type Free = unsafe extern "C" fn(*mut c_void);
/// `robots_allowed_by_robots(matcher, body, len, agent, len, url, len) -> bool`.
type Allowed = unsafe extern "C" fn(
    *mut c_void,
    *const c_char,
    usize,
    *const c_char,
    usize,
    *const c_char,
    usize,
) -> bool;

/// A loaded library and one matcher of its, reused for every call as its C API allows.
pub struct GoogleCpp {
    matcher: *mut c_void,
    allowed: Allowed,
    free: Free,
    /// Kept loaded while the function pointers above are in use.
    _library: Library,
}

/// Where `scripts/google-cpp` puts the library, unless `ROBOTS_GOOGLE_CPP` says otherwise.
fn path() -> PathBuf {
    std::env::var_os("ROBOTS_GOOGLE_CPP")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../target/tools/fast-robotstxt/robotstxt/librobots.so")
        })
}

impl GoogleCpp {
    /// The library, or `None` after printing a notice that its contender is left out.
    pub fn load() -> Option<GoogleCpp> {
        let path = path();
        // SAFETY: loading runs the library's initialisers. It is the matcher that
        // `scripts/google-cpp` installs, or the copy `ROBOTS_GOOGLE_CPP` names for this
        // bench, loaded for these calls alone.
        let loaded = unsafe { Library::new(&path) }.and_then(|library| {
            // SAFETY: the types are those of `robots_c.h`, the C API the library exports.
            unsafe {
                let create = *library.get::<Create>(b"robots_matcher_create\0")?;
                let free = *library.get::<Free>(b"robots_matcher_free\0")?;
                let allowed = *library.get::<Allowed>(b"robots_allowed_by_robots\0")?;
                Ok((create, free, allowed, library))
            }
        });
        let (create, free, allowed, library) = match loaded {
            Ok(found) => found,
            Err(e) => {
                eprintln!(
                    "notice: Google's C++ matcher ({}) is not loaded, so it is left out: {e}; \
                     scripts/google-cpp installs it",
                    path.display()
                );
                return None;
            }
        };
        // SAFETY: takes no arguments; the matcher it returns is freed in `drop`.
        let matcher = unsafe { create() };
        if matcher.is_null() {
            eprintln!("notice: Google's C++ matcher could not be created, so it is left out");
            return None;
        }
        eprintln!("Google's C++ matcher: {}", path.display());
        Some(GoogleCpp {
            matcher,
            allowed,
            free,
            _library: library,
        })
    }

    /// The least a call can do, as the parse comparisons time it: parse `body` and match
    /// `/` for `ExampleBot` as it goes.
    pub fn parse(&mut self, body: &[u8]) -> bool {
        self.allowed(body, "ExampleBot", "https://example.com/")
    }

    /// Parses `body` and says whether `agent` may fetch `url`.
    pub fn allowed(&mut self, body: &[u8], agent: &str, url: &str) -> bool {
        // SAFETY: each pointer comes with its length and lives through the call; the
        // matcher is this value's own, used by one call at a time (`&mut self`).
        unsafe {
            (self.allowed)(
                self.matcher,
                body.as_ptr().cast(),
                body.len(),
                agent.as_ptr().cast(),
                agent.len(),
                url.as_ptr().cast(),
                url.len(),
            )
        }
    }
}

impl Drop for GoogleCpp {
    fn drop(&mut self) {
        // SAFETY: the matcher came from `robots_matcher_create` and is freed once.
        unsafe { (self.free)(self.matcher) }
    }
}
