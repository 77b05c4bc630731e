//! The server behind `robots serve`: GET and HEAD of the embedded page and its assets,
//! with a strict Content-Security-Policy, and nothing else (404 for other paths, 405 for
//! other methods). HEAD gets GET's answer without the body, as RFC 9110 §9.3.2 asks.

use std::convert::Infallible;
use std::net::{SocketAddr, TcpListener};

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use robots_serve::Limits;

use crate::assets;

/// Scripts only from this origin (the glue compiles the module, hence
/// `wasm-unsafe-eval`), no inline code, and no connections anywhere but here: the page
/// computes everything itself and must not be able to send what the user pastes.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; \
style-src 'self'; img-src 'self' data:; connect-src 'self'; manifest-src 'self'; worker-src 'self'; \
base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Whether an If-None-Match value (`*`, or entity tags separated by commas, weak or
/// strong) names `etag`, compared weakly as RFC 9110 §13.1.2 says.
fn matches_etag(tags: &str, etag: &str) -> bool {
    tags.split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag)
}

/// An answer before it goes on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(&'static str, &'static str)>,
    pub body: &'static [u8],
}

impl Response {
    /// The value of header `name`, if set.
    pub fn header(&self, name: &str) -> Option<&'static str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
    }
}

/// Answers `method` on `target` (path and optional query) from the embedded assets. HEAD
/// gets the same answer as GET, body included: the server sends only its head, with the
/// body's Content-Length. Every asset carries an ETag, and a request whose
/// `if_none_match` (the If-None-Match header) names it gets 304 Not Modified with no body,
/// so the browser's revalidation that `no-cache` asks for costs no download.
pub fn respond(method: &str, target: &str, if_none_match: Option<&str>) -> Response {
    let mut headers = vec![
        ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        // The service worker keeps its own copy for offline use; the browser revalidates.
        ("Cache-Control", "no-cache"),
    ];
    if method != "GET" && method != "HEAD" {
        headers.push(("Allow", "GET, HEAD"));
        headers.push(("Content-Type", "text/plain; charset=utf-8"));
        return Response {
            status: 405,
            headers,
            body: b"only GET and HEAD are served\n",
        };
    }
    let path = target.split_once('?').map_or(target, |(path, _)| path);
    match assets::get(path) {
        Some(asset) => {
            headers.push(("Content-Type", asset.content_type));
            if let Some(etag) = asset.etag {
                headers.push(("ETag", etag));
                if if_none_match.is_some_and(|tags| matches_etag(tags, etag)) {
                    return Response {
                        status: 304,
                        headers,
                        body: b"",
                    };
                }
            }
            Response {
                status: 200,
                headers,
                body: asset.bytes,
            }
        }
        None => {
            headers.push(("Content-Type", "text/plain; charset=utf-8"));
            Response {
                status: 404,
                headers,
                body: b"not found: this server only serves the robots.txt tester\n",
            }
        }
    }
}

/// A bound listener, ready to serve.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    limits: Limits,
}

impl Server {
    /// Binds `addr` (port 0 picks a free port; see [`Server::local_addr`]), to serve
    /// within the default [`Limits`].
    pub fn bind(addr: SocketAddr) -> std::io::Result<Server> {
        Ok(Server {
            listener: TcpListener::bind(addr)?,
            limits: Limits::default(),
        })
    }

    /// Serves within `limits` (connections, and idle, header and send timeouts).
    pub fn with_limits(self, limits: Limits) -> Server {
        Server { limits, ..self }
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until the process ends, on the shell both servers share.
    pub fn run(self) -> std::io::Result<()> {
        robots_serve::run(self.listener, self.limits, handle)
    }
}

async fn handle(req: hyper::Request<Incoming>) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let target = req.uri().path_and_query().map_or("/", |p| p.as_str());
    let if_none_match = req
        .headers()
        .get(hyper::header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok());
    let response = respond(req.method().as_str(), target, if_none_match);
    let mut builder = hyper::Response::builder().status(response.status);
    for (name, value) in response.headers {
        builder = builder.header(name, value);
    }
    // For HEAD, hyper sends the head alone, its Content-Length that of this body.
    let body = Full::new(Bytes::from_static(response.body));
    // Every status and header above is a constant that hyper accepts.
    Ok(builder.body(body).expect("a valid response"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_served_with_a_strict_policy() {
        let page = respond("GET", "/", None);
        assert_eq!(page.status, 200);
        assert_eq!(
            page.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        let csp = page.header("Content-Security-Policy").unwrap();
        assert!(csp.starts_with("default-src 'none'"));
        assert!(csp.contains("connect-src 'self'"));
        assert!(!csp.contains("unsafe-inline"));
        assert_eq!(page.header("X-Content-Type-Options"), Some("nosniff"));
        // A query string does not change what is served.
        assert_eq!(respond("GET", "/?from=somewhere", None).body, page.body);
    }

    #[test]
    fn other_paths_are_not_found_and_other_methods_not_allowed() {
        let missing = respond("GET", "/fetch?url=https://example.com/robots.txt", None);
        assert_eq!(missing.status, 404);
        assert!(missing.header("Content-Security-Policy").is_some());
        for method in ["POST", "PUT", "DELETE", "OPTIONS"] {
            let r = respond(method, "/", None);
            assert_eq!(r.status, 405, "{method}");
            assert_eq!(r.header("Allow"), Some("GET, HEAD"));
        }
        assert_eq!(respond("HEAD", "/", None), respond("GET", "/", None));
    }
}

#[cfg(test)]
mod revalidation {
    use super::*;

    #[test]
    fn an_asset_whose_tag_the_browser_holds_is_not_sent_again() {
        let page = respond("GET", "/app.js", None);
        let etag = page.header("ETag").expect("an entity tag");
        assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");
        for held in [
            etag.to_owned(),
            format!("W/{etag}"),
            format!("\"x\", {etag}"),
            "*".to_owned(),
        ] {
            let again = respond("GET", "/app.js", Some(&held));
            assert_eq!(again.status, 304, "{held}");
            assert!(again.body.is_empty());
            assert_eq!(again.header("ETag"), Some(etag));
            assert_eq!(again.header("Cache-Control"), Some("no-cache"));
        }
        assert_eq!(respond("GET", "/app.js", Some("\"other\"")).status, 200);
        assert_eq!(respond("HEAD", "/app.js", Some(etag)).status, 304);
        // Files differ, and so do their tags.
        assert_ne!(
            respond("GET", "/style.css", None).header("ETag"),
            Some(etag)
        );
        assert_eq!(respond("GET", "/missing", Some("*")).status, 404);
    }
}
