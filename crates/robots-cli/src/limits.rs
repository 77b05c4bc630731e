//! The flags both servers (`robots serve`, `robots archive serve`) take: the address to
//! listen on, and what one client may hold (connections at once, the timeouts).

use std::net::{SocketAddr, ToSocketAddrs};
use std::num::NonZeroUsize;
use std::time::Duration;

use robots_serve::Limits;

/// Connection limits and timeouts; the defaults are [`Limits::default`]'s.
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// Connections served at once; more wait in the kernel's queue until one ends.
    #[arg(long, value_name = "N", default_value = "512")]
    pub max_connections: NonZeroUsize,
    /// Seconds a connection may stay open with no request (keep-alive).
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds)]
    pub idle_timeout: Duration,
    /// Seconds a request's head may take to arrive once it has begun; a client sending
    /// half a request, or a byte at a time, is cut.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    pub header_timeout: Duration,
    /// Seconds a client may leave a response unread before it is cut.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds)]
    pub send_timeout: Duration,
}

impl LimitArgs {
    pub fn limits(&self) -> Limits {
        Limits {
            max_connections: self.max_connections,
            idle_timeout: self.idle_timeout,
            header_read_timeout: self.header_timeout,
            send_timeout: self.send_timeout,
        }
    }
}

/// An address to listen on: `HOST:PORT`, the host an IP address or a name to resolve
/// (`localhost:8080`, `[::1]:8080`). A name with several addresses listens on its first
/// IPv4 one, as `localhost` is most often meant as 127.0.0.1.
pub fn address(text: &str) -> Result<SocketAddr, String> {
    if let Ok(addr) = text.parse() {
        return Ok(addr);
    }
    let has_port = text
        .rsplit_once(':')
        .is_some_and(|(_, port)| !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()));
    if !has_port {
        return Err(format!(
            "expected HOST:PORT, such as 127.0.0.1:8080 or localhost:8080, not {text:?}: give a port"
        ));
    }
    let addrs: Vec<SocketAddr> = text
        .to_socket_addrs()
        .map_err(|e| {
            format!("cannot resolve {text:?} ({e}); give HOST:PORT, such as 127.0.0.1:8080")
        })?
        .collect();
    addrs
        .iter()
        .find(|a| a.is_ipv4())
        .or(addrs.first())
        .copied()
        .ok_or_else(|| {
            format!("{text:?} resolves to no address; give HOST:PORT, such as 127.0.0.1:8080")
        })
}

/// A number of seconds above zero, fractions allowed (0.5 is half a second).
fn seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("expected a number of seconds, such as 10 or 0.5, not {text:?}"))?;
    match Duration::try_from_secs_f64(secs) {
        Ok(d) if !d.is_zero() => Ok(d),
        _ => Err(format!(
            "expected a number of seconds above zero, such as 10 or 0.5, not {text:?}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_take_names_and_say_what_is_wrong() {
        assert_eq!(
            address("127.0.0.1:8080"),
            Ok("127.0.0.1:8080".parse().unwrap())
        );
        assert_eq!(address("[::1]:0"), Ok("[::1]:0".parse().unwrap()));
        assert_eq!(
            address("localhost:8080"),
            Ok("127.0.0.1:8080".parse().unwrap())
        );
        assert!(address("localhost").unwrap_err().contains("give a port"));
        assert!(address("localhost:").unwrap_err().contains("give a port"));
        assert!(address("no such host.invalid:80")
            .unwrap_err()
            .contains("cannot resolve"));
    }
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        limits: LimitArgs,
    }

    #[test]
    fn the_flags_default_to_the_shells_limits() {
        let cli = Cli::try_parse_from(["robots"]).unwrap();
        assert_eq!(cli.limits.limits(), Limits::default());
        let cli = Cli::try_parse_from(["robots", "--header-timeout", "0.5"]).unwrap();
        assert_eq!(cli.limits.header_timeout, Duration::from_millis(500));
        for bad in ["0", "-1", "ten", "NaN", "inf"] {
            assert!(
                Cli::try_parse_from(["robots", "--idle-timeout", bad]).is_err(),
                "{bad}"
            );
        }
        assert!(Cli::try_parse_from(["robots", "--max-connections", "0"]).is_err());
    }
}
