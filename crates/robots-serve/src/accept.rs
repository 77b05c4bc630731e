//! The accept loop's step: the next connection, backing off while `accept` fails for
//! want of descriptors or memory instead of retrying at once.

use std::io::ErrorKind;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};

/// The first pause after a failed accept; it doubles with each failure in a row.
const FIRST_PAUSE: Duration = Duration::from_millis(10);
/// The longest pause: how late a freed descriptor may be noticed at worst.
const LONGEST_PAUSE: Duration = Duration::from_secs(1);

/// The next accepted connection. Errors that concern one client only (it hung up while
/// queued) are skipped at once; any other (EMFILE, ENFILE, ENOBUFS, ENOMEM) leaves the
/// client queued, so retrying at once would fail again and spin: pause, growing, first.
pub(crate) async fn next(listener: &TcpListener) -> TcpStream {
    let mut pause = FIRST_PAUSE;
    loop {
        match listener.accept().await {
            Ok((stream, _)) => return stream,
            Err(e) if concerns_one_client(e.kind()) => {}
            Err(_) => {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(LONGEST_PAUSE);
            }
        }
    }
}

/// Whether a failed accept consumed the client it was for (so the next one may work).
fn concerns_one_client(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset | ErrorKind::Interrupted
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn out_of_descriptors_is_not_a_one_client_error() {
        let emfile = std::io::Error::from_raw_os_error(24);
        let enfile = std::io::Error::from_raw_os_error(23);
        assert!(!concerns_one_client(emfile.kind()));
        assert!(!concerns_one_client(enfile.kind()));
        assert!(concerns_one_client(ErrorKind::ConnectionAborted));
    }
}
