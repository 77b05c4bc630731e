//! One robots.txt request over HTTP: redirects followed by hand (RFC 9309 §2.3.1.2), the
//! status classes of §2.3.1, the body read up to the parse limit (§2.5), failures classified.

use std::error::Error as _;
use std::time::Duration;

use reqwest::header::{self, HeaderMap, HeaderValue};
use reqwest::{redirect, StatusCode};
use url::Url;

use crate::config::{Config, TooManyRequests};
use crate::freshness::Validators;
use crate::resolve::{Bridge, DnsFailure};
use crate::{BodySize, Error, Hop, Unavailable, Unreachable};

/// What the server said, after redirects.
#[derive(Debug)]
pub(crate) enum Reply {
    /// A 2xx body, read up to one byte past the limit.
    Body {
        chain: Vec<Hop>,
        headers: HeaderMap,
        body: Vec<u8>,
        size: BodySize,
    },
    /// 304 to a conditional request.
    NotModified {
        chain: Vec<Hop>,
        headers: HeaderMap,
    },
    Unavailable {
        chain: Vec<Hop>,
        headers: HeaderMap,
        why: Unavailable,
    },
    Unreachable {
        chain: Vec<Hop>,
        why: Unreachable,
    },
}

/// A conditional request: the URL the stored body came from and its validators.
pub(crate) struct Conditional<'a> {
    pub url: &'a Url,
    pub validators: &'a Validators,
}

#[derive(Debug, Clone)]
pub(crate) struct Client {
    http: reqwest::Client,
    /// For the one retry of a request left unanswered ([`unanswered`]): a client that
    /// pools nothing, so the retry goes on a new connection.
    fresh: reqwest::Client,
    timeout: Duration,
    max_redirects: usize,
    limit: usize,
    too_many_requests: TooManyRequests,
}

impl Client {
    pub fn new(config: &Config) -> Result<Client, Error> {
        // A blank header names no crawler, so a site could not write rules for it.
        let user_agent = Some(config.user_agent.trim())
            .filter(|ua| !ua.is_empty())
            .and_then(|ua| HeaderValue::from_str(ua).ok())
            .ok_or_else(|| Error::InvalidUserAgent(config.user_agent.clone()))?;
        let builder = || {
            let builder = reqwest::Client::builder()
                .user_agent(user_agent.clone())
                // Redirects are followed here, to count them, keep the chain, and apply
                // the rules to the original origin (RFC 9309 §2.3.1.2).
                .redirect(redirect::Policy::none())
                .connect_timeout(config.timeout)
                .dns_resolver(std::sync::Arc::new(Bridge(config.resolver.clone())));
            if config.proxy_from_env {
                builder
            } else {
                builder.no_proxy()
            }
        };
        Ok(Client {
            http: builder().build().map_err(Error::Client)?,
            // Keeps no connection, so each request it sends opens its own.
            fresh: builder()
                .pool_max_idle_per_host(0)
                .build()
                .map_err(Error::Client)?,
            timeout: config.timeout,
            max_redirects: config.max_redirects,
            limit: config.options.limit(),
            too_many_requests: config.too_many_requests,
        })
    }

    /// Asks for `url`, following redirects, all within the timeout: a chain of slow
    /// redirects must not hold a lookup (and every caller waiting on it) for a timeout
    /// per hop.
    pub async fn get(&self, url: Url, conditional: Option<Conditional<'_>>) -> Reply {
        let deadline = crate::clock::deadline(tokio::time::Instant::now(), self.timeout);
        let mut chain: Vec<Hop> = Vec::new();
        let mut url = url;
        loop {
            let validators = conditional
                .as_ref()
                .filter(|c| *c.url == url)
                .map(|c| c.validators);
            let step = tokio::time::timeout_at(deadline, self.one(&url, validators)).await;
            let (status, headers, body) = match step {
                Err(_) => {
                    return Reply::Unreachable {
                        chain,
                        why: Unreachable::Timeout(self.timeout),
                    }
                }
                Ok(Err(why)) => return Reply::Unreachable { chain, why },
                Ok(Ok(step)) => step,
            };
            chain.push(Hop {
                url: url.clone(),
                status: status.as_u16(),
            });
            let code = status.as_u16();
            match code {
                200..=299 => {
                    let (body, size) = body.unwrap_or_default();
                    return Reply::Body {
                        chain,
                        headers,
                        body,
                        size,
                    };
                }
                304 if validators.is_some() => return Reply::NotModified { chain, headers },
                300..=399 => {
                    let next = match redirect_target(&url, &headers) {
                        Ok(next) => next,
                        Err(location) => {
                            return Reply::Unavailable {
                                chain,
                                headers,
                                why: Unavailable::BadRedirect {
                                    status: code,
                                    location,
                                },
                            }
                        }
                    };
                    if chain.len() > self.max_redirects {
                        return Reply::Unavailable {
                            chain,
                            headers,
                            why: Unavailable::TooManyRedirects {
                                limit: self.max_redirects,
                            },
                        };
                    }
                    if chain.iter().any(|hop| hop.url == next) {
                        return Reply::Unavailable {
                            chain,
                            headers,
                            why: Unavailable::RedirectLoop { url: next },
                        };
                    }
                    url = next;
                }
                429 if self.too_many_requests == TooManyRequests::Unreachable => {
                    return Reply::Unreachable {
                        chain,
                        why: Unreachable::Status(code),
                    }
                }
                400..=499 => {
                    return Reply::Unavailable {
                        chain,
                        headers,
                        why: Unavailable::Status(code),
                    }
                }
                500..=599 => {
                    return Reply::Unreachable {
                        chain,
                        why: Unreachable::Status(code),
                    }
                }
                _ => {
                    return Reply::Unreachable {
                        chain,
                        why: Unreachable::Protocol(format!("unexpected status {code}")),
                    }
                }
            }
        }
    }

    /// One request; for a 2xx, the body too.
    async fn one(
        &self,
        url: &Url,
        validators: Option<&Validators>,
    ) -> Result<(StatusCode, HeaderMap, Option<(Vec<u8>, BodySize)>), Unreachable> {
        let request = |client: &reqwest::Client| {
            let mut request = client.get(url.clone());
            if let Some(v) = validators {
                if let Some(etag) = &v.etag {
                    request = request.header(header::IF_NONE_MATCH, etag.clone());
                }
                if let Some(date) = &v.last_modified {
                    request = request.header(header::IF_MODIFIED_SINCE, date.clone());
                }
            }
            request
        };
        let sent = match request(&self.http).send().await {
            // A kept-alive connection the server closed as the request went out: the
            // site did not answer no, it was not asked. RFC 9112 §9.3.1 lets a client
            // send an idempotent request again on a new connection; once, so that a
            // server that always hangs up is still unreachable.
            Err(e) if unanswered(&e) => request(&self.fresh).send().await,
            sent => sent,
        };
        let mut response = sent.map_err(|e| classify(e, self.timeout))?;
        let status = response.status();
        let headers = std::mem::take(response.headers_mut());
        if !status.is_success() {
            return Ok((status, headers, None));
        }
        // The client removes the header of a coding it undid (gzip, br, deflate); one left
        // means bytes that are not the file, and reading them as robots.txt would find no
        // rules and allow everything.
        if let Some(coding) = headers.get(header::CONTENT_ENCODING) {
            let coding = String::from_utf8_lossy(coding.as_bytes()).trim().to_owned();
            if !coding.eq_ignore_ascii_case("identity") {
                return Err(Unreachable::Coding(coding));
            }
        }
        let body = read_limited(&mut response, self.limit, self.timeout).await?;
        Ok((status, headers, Some(body)))
    }
}

/// Reads the (decoded) body up to one byte past `limit`, then stops reading: RFC 9309
/// §2.5 lets a crawler ignore what lies past its parse limit, and stopping keeps memory
/// bounded whatever the server sends. Dropping the response closes the connection.
///
/// The one byte more is what lets the parse cut the body back to its last whole line: a
/// body cut at exactly `limit` bytes could end inside a rule (`Disallow: /private-area`
/// read as `Disallow: /`), and only the byte after the limit says whether the line
/// there is whole. Given more than `limit` bytes, the engine drops the cut line itself
/// and reports it.
async fn read_limited(
    response: &mut reqwest::Response,
    limit: usize,
    timeout: Duration,
) -> Result<(Vec<u8>, BodySize), Unreachable> {
    let keep = limit.saturating_add(1);
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| classify(e, timeout))? {
        let room = keep - body.len();
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() == keep {
            break;
        }
    }
    let read = body.len();
    Ok((
        body,
        BodySize {
            read,
            truncated: read > limit,
        },
    ))
}

/// The URL a 3xx points to, or the unusable Location (`None` when absent).
fn redirect_target(base: &Url, headers: &HeaderMap) -> Result<Url, Option<String>> {
    let location = headers.get(header::LOCATION).ok_or(None)?;
    let text = String::from_utf8_lossy(location.as_bytes()).into_owned();
    match base.join(text.trim()) {
        Ok(next) if matches!(next.scheme(), "http" | "https") && next.host().is_some() => Ok(next),
        _ => Err(Some(text)),
    }
}

/// Whether a request failed with no response begun: the connection was closed or reset
/// while the client sent the request or waited for the response head. The pool may
/// hand out a connection whose peer has closed it but whose close has not been read
/// yet; that is the failure this finds. A timeout is not one: the site was slow.
fn unanswered(err: &reqwest::Error) -> bool {
    use std::io::ErrorKind;
    if !err.is_request() || err.is_timeout() {
        return false;
    }
    let mut source = err.source();
    while let Some(cause) = source {
        if cause
            .downcast_ref::<hyper::Error>()
            .is_some_and(hyper::Error::is_incomplete_message)
        {
            return true;
        }
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            if matches!(
                io.kind(),
                ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::BrokenPipe
            ) {
                return true;
            }
        }
        source = cause.source();
    }
    false
}

/// Sorts a transport failure into RFC 9309 §2.3.1.4's unreachable cases.
fn classify(err: reqwest::Error, timeout: Duration) -> Unreachable {
    let mut source = err.source();
    let mut chain = vec![err.to_string()];
    while let Some(cause) = source {
        if let Some(dns) = cause.downcast_ref::<DnsFailure>() {
            return Unreachable::Dns(dns.to_string());
        }
        chain.push(cause.to_string());
        source = cause.source();
    }
    chain.dedup();
    // The outermost message repeats the URL and says "error sending request"; the
    // causes say what went wrong.
    let text = if chain.len() > 1 {
        chain[1..].join(": ")
    } else {
        chain.join(": ")
    };
    if err.is_timeout() {
        Unreachable::Timeout(timeout)
    } else if err.is_connect() {
        Unreachable::Connect(text)
    } else {
        Unreachable::Protocol(text)
    }
}
