//! Name resolution, replaceable: the system resolver by default, or one the caller gives
//! (tests use one that knows only loopback names), with DNS failures told apart from others.

use std::fmt;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;

/// The addresses a lookup found, or why it failed.
pub type Resolving = Pin<Box<dyn Future<Output = io::Result<Vec<IpAddr>>> + Send>>;

/// Turns a host name into addresses.
pub trait Resolve: Send + Sync + fmt::Debug + 'static {
    /// The addresses of `host` (a name, never an IP literal); an error, or no address,
    /// makes the robots.txt unreachable as a DNS failure ([`crate::Unreachable::Dns`]).
    fn resolve(&self, host: &str) -> Resolving;
}

/// The operating system's resolver (`getaddrinfo`, through tokio).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemResolver;

impl Resolve for SystemResolver {
    fn resolve(&self, host: &str) -> Resolving {
        let host = host.to_owned();
        Box::pin(async move {
            let addrs = tokio::net::lookup_host((host.as_str(), 0)).await?;
            Ok(addrs.map(|a| a.ip()).collect())
        })
    }
}

/// A failed lookup, marked so that the client can report it as a DNS failure
/// (RFC 9309 §2.3.1.4 counts it as unreachable) rather than a connection failure.
#[derive(Debug, thiserror::Error)]
#[error("cannot resolve `{host}`: {source}")]
pub(crate) struct DnsFailure {
    host: String,
    source: io::Error,
}

/// The bridge between a [`Resolve`] and reqwest.
#[derive(Debug, Clone)]
pub(crate) struct Bridge(pub Arc<dyn Resolve>);

impl reqwest::dns::Resolve for Bridge {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_owned();
        let lookup = self.0.resolve(&host);
        Box::pin(async move {
            let result = lookup.await.and_then(|addrs| {
                if addrs.is_empty() {
                    Err(io::Error::new(io::ErrorKind::NotFound, "no addresses"))
                } else {
                    Ok(addrs)
                }
            });
            match result {
                // Port 0: the connector puts the URL's port in.
                Ok(addrs) => Ok(Box::new(addrs.into_iter().map(|ip| SocketAddr::new(ip, 0)))
                    as reqwest::dns::Addrs),
                Err(source) => Err(Box::new(DnsFailure { host, source }) as _),
            }
        })
    }
}
