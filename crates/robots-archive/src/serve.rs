//! Single-item access over HTTP: `/web/<timestamp>/<url>` replays a released capture or
//! answers with its tombstone, and `/cdx` lists captures; on 127.0.0.1 by default.
//!
//! Status codes: a withheld record under embargo answers **451**, a record that will not
//! be released by time alone (captured while disallowed, or with no robots.txt) **403**;
//! both carry the tombstone, never the body. An unknown URL answers 404. Whether a body
//! may be sent is asked of the `disclosure` module alone, for a revisit too.
//!
//! Replayed captures must not act as the archive: their origin is the archive's, so a
//! captured `Set-Cookie`, `Strict-Transport-Security` or `Clear-Site-Data` would act on
//! it. Only the fields that describe the payload go out live ([`LIVE_FIELDS`]); every
//! other captured field goes out renamed `X-Archive-Orig-<name>`, as pywb sends them, and
//! [`REPLAY_POLICY`] puts the replayed document in an opaque origin.
//!
//! Payloads are streamed from the store through a bounded buffer, so a slow reader holds
//! a chunk or two of a capture, never all of it; requests read the index through a pool
//! of SQLite connections, so readers do not wait on each other.

use std::borrow::Cow;
use std::convert::Infallible;
use std::io::{self, Read};
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Frame, Incoming, SizeHint};
use robots_serve::Limits;
use tokio::sync::mpsc;

use crate::cdx::{self, CdxQuery};
use crate::disclosure::{self, Disclosure, Payload};
use crate::index::{Access, Entry};
use crate::time::Timestamp;
use crate::tombstone::{escape, Tombstone};
use crate::url::{encode_unsafe, normalise_url};
use crate::{Archive, Error};

/// The captured fields a replay sends as they were captured: they describe the payload
/// sent (its media type, coding, language, file name and date) and act on nothing else.
/// `Location` goes out too, rewritten into the archive. Every other captured field is
/// sent as `X-Archive-Orig-<name>` (pywb's convention), so a capture cannot set cookies
/// on the archive's origin, pin it to HTTPS (RFC 6797), clear its storage, or give
/// itself a policy of its own.
pub const LIVE_FIELDS: [&str; 5] = [
    "content-type",
    "content-encoding",
    "content-language",
    "content-disposition",
    "last-modified",
];

/// The prefix under which captured fields that could act on the archive are replayed.
pub const ORIGINAL_FIELD_PREFIX: &str = "X-Archive-Orig-";

/// The policy every replayed capture is sent under. `sandbox` without `allow-same-origin`
/// (CSP Level 3, HTML's sandboxing flags) gives the document an opaque origin, so
/// captured scripts still run but cannot read or write the archive's cookies and
/// storage, register a service worker that would answer for the archive, or make
/// same-origin requests as the archive; `nosniff` keeps a capture whose type was wrong
/// from being run as another type.
pub const REPLAY_POLICY: [(&str, &str); 2] = [
    (
        "Content-Security-Policy",
        "sandbox allow-scripts allow-forms allow-downloads",
    ),
    ("X-Content-Type-Options", "nosniff"),
];

/// Octets read from the store per chunk of a streamed payload.
const CHUNK: usize = 64 * 1024;

/// A request as the archive sees it: target (path and query) and Accept header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub target: String,
    pub accept: Option<String>,
}

/// A response before it goes on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    /// Header names and values; a replayed value is the octets captured, which need not
    /// be UTF-8 (HTTP allows octets from 0x80 up, often Latin-1). A captured field whose
    /// value holds a control octet other than tab cannot be sent and is left out.
    pub headers: Vec<(String, Vec<u8>)>,
    pub body: Vec<u8>,
}

impl Response {
    fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            headers: vec![("Content-Type".to_owned(), content_type.into())],
            body: body.into(),
        }
    }

    fn message(status: u16, json: bool, text: &str) -> Response {
        if json {
            let body = serde_json::json!({ "error": text }).to_string();
            Response::new(status, "application/json", body)
        } else {
            let body = format!(
                "<!doctype html>\n<html><body><p>{}</p></body></html>\n",
                escape(text)
            );
            Response::new(status, "text/html; charset=utf-8", body)
        }
    }

    /// The value of header `name`, if set.
    pub fn header(&self, name: &str) -> Option<&[u8]> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }
}

/// An answer before it goes on the wire: a [`Response`] whose body may be a payload
/// still in the store.
struct Answer {
    response: Response,
    /// The payload to send after the head, in place of `response.body`.
    payload: Option<Payload>,
}

impl From<Response> for Answer {
    fn from(response: Response) -> Answer {
        Answer {
            response,
            payload: None,
        }
    }
}

/// Answers one request as of time `now`, the body read whole (the server streams it).
pub fn respond(archive: &Archive, req: &Request, now: Timestamp) -> Response {
    let Answer {
        mut response,
        payload,
    } = answer(archive, req, now);
    if let Some(mut payload) = payload {
        if let Err(e) = payload.body.read_to_end(&mut response.body) {
            let json = wants_json(req.accept.as_deref());
            return Response::message(500, json, &format!("the capture could not be read: {e}"));
        }
    }
    response
}

fn answer(archive: &Archive, req: &Request, now: Timestamp) -> Answer {
    let json = wants_json(req.accept.as_deref());
    let result = if let Some(rest) = req.target.strip_prefix("/web/") {
        web(archive, rest, now, json)
    } else if req.target == "/cdx" || req.target.starts_with("/cdx?") {
        cdx_listing(archive, &req.target, now, json).map(Answer::from)
    } else if req.target == "/" {
        Ok(Response::message(
            200,
            json,
            "Embargo-aware archive. Replay: /web/<14-digit timestamp>/<url>, or \
             /web/<url> for the latest capture. Listing: /cdx?url=<url>&output=json",
        )
        .into())
    } else {
        Ok(Response::message(
            404,
            json,
            "No such page: use /web/<timestamp>/<url> or /cdx?url=<url>",
        )
        .into())
    };
    let mut answer = result.unwrap_or_else(|e| Response::message(500, json, &e.to_string()).into());
    // What the archive writes itself is never to be read as another type.
    if answer.response.header("X-Content-Type-Options").is_none() {
        answer
            .response
            .headers
            .push(("X-Content-Type-Options".into(), "nosniff".into()));
    }
    answer
}

/// What `/web/<url>`, without a timestamp, asks for: as on the Wayback Machine and in
/// pywb, the latest capture. Any time after every capture will do; this is the last
/// second a 14-digit timestamp can name.
const LATEST: Timestamp = Timestamp::from_unix(253_402_300_799);

fn web(archive: &Archive, rest: &str, now: Timestamp, json: bool) -> Result<Answer, Error> {
    // A URL right after /web/ (people type these, and copy them from the Wayback
    // Machine) is a request for its latest capture, not a malformed timestamp.
    let scheme = |s: &str| {
        rest.get(..s.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(s))
    };
    if scheme("http://") || scheme("https://") {
        return capture(archive, rest, LATEST, now, json);
    }
    let Some((stamp, url)) = rest.split_once('/').filter(|(_, url)| !url.is_empty()) else {
        return Ok(Response::message(400, json, "expected /web/<timestamp>/<url>").into());
    };
    // Replay modifiers such as `id_` follow the digits in Wayback URLs.
    let digits = stamp.trim_end_matches(|c: char| !c.is_ascii_digit());
    let Ok(at) = Timestamp::parse_14_digits(digits) else {
        return Ok(Response::message(
            400,
            json,
            "the timestamp must be 4 to 14 digits, e.g. 20260131120000",
        )
        .into());
    };
    capture(archive, url, at, now, json)
}

/// Answers for the capture of `url` nearest to `at`, as of `now`.
fn capture(
    archive: &Archive,
    url: &str,
    at: Timestamp,
    now: Timestamp,
    json: bool,
) -> Result<Answer, Error> {
    let url = normalise_url(url);
    let Some(entry) = archive.index().nearest_capture(&url, at)? else {
        return Ok(Response::message(404, json, &format!("{url} is not in this archive")).into());
    };
    let access = match disclosure::disclose(archive, &entry, now)? {
        Disclosure::Open(payload) => return Ok(replay(&entry, payload, json)),
        Disclosure::Withheld(access) => access,
        Disclosure::NoOriginal => {
            return Ok(Response::message(
                404,
                json,
                &format!(
                    "the capture of {} at {} is a revisit record: its payload is that of \
                     an earlier capture, which is not in this archive, so there is \
                     nothing to replay; ingest the WARC file holding it",
                    entry.url, entry.captured
                ),
            )
            .into())
        }
        Disclosure::NotHttp => {
            return Ok(Response::message(
                502,
                json,
                &format!(
                    "the capture of {} at {} holds no HTTP response to replay",
                    entry.url, entry.captured
                ),
            )
            .into())
        }
    };
    let head = disclosure::head_of(archive, &entry)?;
    let tombstone = Tombstone::new(&entry, head.as_ref(), now);
    let status = if access == Access::Embargoed {
        451
    } else {
        403
    };
    let mut response = if json {
        Response::new(status, "application/json", tombstone.to_json())
    } else {
        Response::new(status, "text/html; charset=utf-8", tombstone.to_html())
    };
    response.headers.extend([
        ("Cache-Control".into(), "no-store".into()),
        ("Memento-Datetime".into(), entry.captured.http_date().into()),
        ("X-Archive-Access".into(), access.as_str().into()),
    ]);
    if let (Access::Embargoed, Some(end)) = (access, entry.withheld_until()) {
        response
            .headers
            .push(("X-Embargo-Until".into(), end.rfc3339().into()));
    }
    Ok(response.into())
}

/// The replay of a released capture: its status, its captured fields (those that could
/// act on the archive renamed), the replay policy, and its payload.
fn replay(entry: &Entry, payload: Payload, json: bool) -> Answer {
    let head = &payload.head;
    // An interim response is not an answer a client can be given in its place.
    if head.status < 200 {
        return Response::message(
            502,
            json,
            &format!(
                "the capture of {} is an interim ({}) response, which cannot be replayed",
                entry.url, head.status
            ),
        )
        .into();
    }
    let stamp = entry.captured.fourteen_digits();
    // Values go out as the octets captured, not as text: a Latin-1 file name or cookie
    // is replayed as the server sent it. A field that cannot be sent is left out rather
    // than failing the whole replay.
    let mut headers: Vec<(String, Vec<u8>)> = head
        .fields
        .iter()
        .filter(|(n, _)| !is_hop_by_hop(n))
        .map(|(n, v)| {
            if n.eq_ignore_ascii_case("Location") {
                let value = in_archive(&entry.url, v, &stamp)
                    .map_or_else(|| v.to_vec(), String::into_bytes);
                (n.to_owned(), value)
            } else if LIVE_FIELDS.iter().any(|l| l.eq_ignore_ascii_case(n)) {
                (n.to_owned(), v.to_vec())
            } else {
                (format!("{ORIGINAL_FIELD_PREFIX}{n}"), v.to_vec())
            }
        })
        .filter(|(n, v)| sendable(n, v))
        .collect();
    headers.push(("Memento-Datetime".into(), entry.captured.http_date().into()));
    // A captured URL may hold octets a header cannot (controls); as a URI reference
    // (RFC 8288) it names them percent-encoded.
    headers.push((
        "Link".into(),
        format!("<{}>; rel=\"original\"", encode_unsafe(&entry.url)).into(),
    ));
    headers.push(("X-Archive-Access".into(), Access::Released.as_str().into()));
    headers.extend(
        REPLAY_POLICY
            .iter()
            .map(|(n, v)| ((*n).to_owned(), v.as_bytes().to_vec())),
    );
    Answer {
        response: Response {
            status: head.status,
            headers,
            body: Vec::new(),
        },
        payload: Some(payload),
    }
}

fn cdx_listing(
    archive: &Archive,
    target: &str,
    now: Timestamp,
    json: bool,
) -> Result<Response, Error> {
    let query = target.split_once('?').map_or("", |(_, q)| q);
    let query = match CdxQuery::parse(query) {
        Ok(query) => query,
        Err(problem) => return Ok(Response::message(400, json, &problem.to_string())),
    };
    let body = cdx::listing(archive.index(), &query, now)?;
    let content_type = if query.json {
        "application/x-ndjson"
    } else {
        "text/plain; charset=utf-8"
    };
    Ok(Response::new(200, content_type, body))
}

/// A captured redirect's target as a replay URL of the same time, so that following it
/// stays in the archive; `None` when the target is not an http(s) URL, which is then
/// replayed as captured. A target that is not UTF-8 (a Latin-1 path) has its octets from
/// 0x80 up percent-encoded, as a URL carries octets (RFC 3986 §2.1), so the replay URL
/// names the octets the server sent.
fn in_archive(base: &str, location: &[u8], stamp: &str) -> Option<String> {
    let location = match std::str::from_utf8(location) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(
            location
                .iter()
                .map(|&b| {
                    if b.is_ascii() {
                        char::from(b).to_string()
                    } else {
                        format!("%{b:02X}")
                    }
                })
                .collect(),
        ),
    };
    url::Url::parse(base)
        .and_then(|b| b.join(location.trim()))
        .ok()
        .filter(|target| matches!(target.scheme(), "http" | "https"))
        .map(|t| format!("/web/{stamp}/{t}"))
}

/// Whether a field can go on the wire: a token name, and a value without control octets
/// other than tab (RFC 9110 §5.5 makes them invalid, and hyper refuses to send them).
fn sendable(name: &str, value: &[u8]) -> bool {
    hyper::header::HeaderName::from_bytes(name.as_bytes()).is_ok()
        && hyper::header::HeaderValue::from_bytes(value).is_ok()
}

fn is_hop_by_hop(name: &str) -> bool {
    [
        "connection",
        "keep-alive",
        "proxy-connection",
        "transfer-encoding",
        "te",
        "trailer",
        "upgrade",
        "content-length",
    ]
    .iter()
    .any(|h| h.eq_ignore_ascii_case(name))
}

/// JSON when the Accept header ranks `application/json` above `text/html`.
fn wants_json(accept: Option<&str>) -> bool {
    let Some(accept) = accept else { return false };
    let (mut json, mut html) = (0.0f32, 0.0f32);
    for item in accept.split(',') {
        let mut parts = item.split(';');
        let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        match media.as_str() {
            "application/json" => json = json.max(q),
            "text/html" => html = html.max(q),
            _ => {}
        }
    }
    json > html
}

/// A bound server, ready to run.
pub struct Server {
    listener: TcpListener,
    handles: Arc<Handles>,
    at: Option<Timestamp>,
    limits: Limits,
}

/// Open handles on the archive, one per request being answered: each has its own SQLite
/// connection, so that requests read the index side by side (WAL lets them read while an
/// ingest writes) rather than one after another behind a lock.
struct Handles {
    dir: PathBuf,
    spare: Mutex<Vec<Archive>>,
}

/// Handles kept open between requests; more are opened while more requests run at once.
const SPARE_HANDLES: usize = 8;

impl Handles {
    /// Runs `f` with a handle of its own.
    fn with<T>(&self, f: impl FnOnce(&Archive) -> T) -> Result<T, Error> {
        let spare = self.spare.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let archive = match spare {
            Some(archive) => archive,
            None => Archive::open_reader(&self.dir)?,
        };
        let out = f(&archive);
        let mut spare = self.spare.lock().unwrap_or_else(|p| p.into_inner());
        if spare.len() < SPARE_HANDLES {
            spare.push(archive);
        }
        Ok(out)
    }
}

impl Server {
    /// Binds `addr`. With `at`, the server answers as if it were that time (to preview
    /// a release date, and for tests); otherwise it reads the clock per request.
    pub fn bind(
        archive: Archive,
        addr: SocketAddr,
        at: Option<Timestamp>,
    ) -> Result<Server, Error> {
        let listener = TcpListener::bind(addr).map_err(|e| Error::Io {
            path: format!("address {addr}").into(),
            error: e,
        })?;
        Ok(Server {
            listener,
            handles: Arc::new(Handles {
                dir: archive.dir().to_owned(),
                spare: Mutex::new(vec![archive]),
            }),
            at,
            limits: Limits::default(),
        })
    }

    /// The address bound (useful when port 0 was asked for).
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// Serves within `limits` (connections, and idle, header and send timeouts)
    /// instead of the default [`Limits`].
    pub fn with_limits(self, limits: Limits) -> Server {
        Server { limits, ..self }
    }

    /// Serves until the process ends, on the shell both servers share.
    pub fn run(self) -> Result<(), Error> {
        let handles = self.handles;
        let at = self.at;
        robots_serve::run(self.listener, self.limits, move |req| {
            handle(handles.clone(), at, req)
        })
        .map_err(|e| Error::Io {
            path: "server".into(),
            error: e,
        })
    }
}

async fn handle(
    handles: Arc<Handles>,
    at: Option<Timestamp>,
    req: hyper::Request<Incoming>,
) -> Result<hyper::Response<ReplayBody>, Infallible> {
    let request = Request {
        target: req
            .uri()
            .path_and_query()
            .map_or("/".to_owned(), |p| p.as_str().to_owned()),
        accept: req
            .headers()
            .get(hyper::header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
    };
    let answer = if req.method() != hyper::Method::GET && req.method() != hyper::Method::HEAD {
        Response::message(405, false, "only GET and HEAD are served").into()
    } else {
        let now = at.unwrap_or_else(Timestamp::now);
        let json = wants_json(request.accept.as_deref());
        // SQLite and file reads block: keep them off the async workers.
        tokio::task::spawn_blocking(move || {
            handles
                .with(|archive| answer(archive, &request, now))
                .unwrap_or_else(|e| Response::message(500, json, &e.to_string()).into())
        })
        .await
        .unwrap_or_else(|_| Response::message(500, false, "the request failed").into())
    };
    let Answer { response, payload } = answer;
    let mut builder = hyper::Response::builder().status(response.status);
    for (name, value) in &response.headers {
        builder = builder.header(name.as_str(), value.as_slice());
    }
    let body = match payload {
        Some(payload) => ReplayBody::stream(payload),
        None => ReplayBody::full(response.body),
    };
    // `respond` leaves out captured fields that cannot be sent, so only a fault of the
    // archive's own can land here.
    Ok(builder.body(body).unwrap_or_else(|_| {
        let mut r = hyper::Response::new(ReplayBody::full(
            b"the archive could not send this answer".to_vec(),
        ));
        *r.status_mut() = hyper::StatusCode::INTERNAL_SERVER_ERROR;
        r
    }))
}

/// A response body: bytes in hand, or a payload read from the store chunk by chunk as
/// the client takes it. The reading runs on the blocking pool one chunk at a time and
/// waits, holding no thread, while the chunk before it is unsent, so a slow reader holds
/// at most two chunks of a capture of any size.
pub struct ReplayBody {
    kind: BodyKind,
}

enum BodyKind {
    Full(Option<Bytes>),
    Stream {
        chunks: mpsc::Receiver<io::Result<Bytes>>,
        length: Option<u64>,
    },
}

impl ReplayBody {
    fn full(bytes: Vec<u8>) -> ReplayBody {
        ReplayBody {
            kind: BodyKind::Full(Some(Bytes::from(bytes))),
        }
    }

    fn stream(payload: Payload) -> ReplayBody {
        let (tx, chunks) = mpsc::channel(1);
        let mut reader = payload.body;
        tokio::spawn(async move {
            loop {
                let read = tokio::task::spawn_blocking(move || {
                    let mut buf = vec![0u8; CHUNK];
                    let n = reader.read(&mut buf);
                    (
                        reader,
                        n.map(|n| {
                            buf.truncate(n);
                            buf
                        }),
                    )
                })
                .await;
                let Ok((back, chunk)) = read else { return };
                reader = back;
                // The end of the payload, an error (which ends the response short), or a
                // client gone (the body dropped) ends the reading.
                match chunk {
                    Ok(chunk) if chunk.is_empty() => return,
                    Ok(chunk) => {
                        if tx.send(Ok(Bytes::from(chunk))).await.is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e)).await;
                        return;
                    }
                }
            }
        });
        ReplayBody {
            kind: BodyKind::Stream {
                chunks,
                length: payload.length,
            },
        }
    }
}

impl hyper::body::Body for ReplayBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        match &mut self.kind {
            BodyKind::Full(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            BodyKind::Stream { chunks, .. } => chunks
                .poll_recv(cx)
                .map(|chunk| chunk.map(|c| c.map(Frame::data))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(&self.kind, BodyKind::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match &self.kind {
            BodyKind::Full(Some(bytes)) => SizeHint::with_exact(bytes.len() as u64),
            BodyKind::Full(None) => SizeHint::with_exact(0),
            BodyKind::Stream { length, .. } => {
                length.map_or_else(SizeHint::new, SizeHint::with_exact)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirects_are_followed_inside_the_archive() {
        let at = "20260102000000";
        let base = "http://r.test/a/b?q=1";
        let replay = |location: &[u8]| in_archive(base, location, at);
        assert_eq!(
            replay(b"/gz").as_deref(),
            Some("/web/20260102000000/http://r.test/gz")
        );
        assert_eq!(
            replay(b"c").as_deref(),
            Some("/web/20260102000000/http://r.test/a/c")
        );
        assert_eq!(
            replay(b" https://o.test/x ").as_deref(),
            Some("/web/20260102000000/https://o.test/x")
        );
        assert_eq!(replay(b"mailto:a@b.test"), None);
        // UTF-8 is encoded as UTF-8, other octets as themselves.
        assert_eq!(
            replay("/café".as_bytes()).as_deref(),
            Some("/web/20260102000000/http://r.test/caf%C3%A9")
        );
        assert_eq!(
            replay(b"/caf\xE9?q=\xE9").as_deref(),
            Some("/web/20260102000000/http://r.test/caf%E9?q=%E9")
        );
    }

    #[test]
    fn accept_ranks_json_and_html() {
        assert!(wants_json(Some("application/json")));
        assert!(!wants_json(Some("text/html,application/json;q=0.9")));
        assert!(wants_json(Some("text/html;q=0.5, application/json")));
        assert!(!wants_json(Some("*/*")));
        assert!(!wants_json(None));
    }

    /// A request holding a handle (a long listing, a slow disk) does not make the next
    /// one wait: each runs on a connection of its own.
    #[test]
    fn readers_do_not_wait_on_each_other() {
        let dir = tempfile::tempdir().unwrap();
        let archive = Archive::create(dir.path(), "ExampleBot").unwrap();
        let handles = Arc::new(Handles {
            dir: archive.dir().to_owned(),
            spare: Mutex::new(vec![archive]),
        });
        let (entered, wait_entered) = std::sync::mpsc::channel();
        let (release, held) = std::sync::mpsc::channel::<()>();
        let busy = {
            let handles = handles.clone();
            std::thread::spawn(move || {
                handles
                    .with(|_| {
                        entered.send(()).unwrap();
                        held.recv_timeout(std::time::Duration::from_secs(10))
                            .is_ok()
                    })
                    .unwrap()
            })
        };
        wait_entered.recv().unwrap();
        let status = handles
            .with(|archive| archive.status(Timestamp::now()).map(|s| s.records))
            .unwrap()
            .unwrap();
        assert_eq!(status, 0);
        release.send(()).unwrap();
        assert!(
            busy.join().unwrap(),
            "the first request was not held to the end"
        );
        assert_eq!(handles.spare.lock().unwrap().len(), 2);
    }
}
