//! `robots serve`: the browser tester on a local address. The page and its WebAssembly
//! are embedded in this binary; the server answers GET and HEAD for them and nothing else.

use std::net::SocketAddr;
use std::process::ExitCode;

use anyhow::{Context, Result};
use robots_web::assets;
use robots_web::serve::Server;

use crate::limits::LimitArgs;

/// Serve the robots.txt tester: a page that checks, explains and lints a robots.txt in
/// the browser (nothing typed into it is sent anywhere).
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Examples:
  robots serve                      then open http://127.0.0.1:8080/
  robots serve --addr 127.0.0.1:0   any free port (the address is printed)

The server only serves the page's own files, to GET and HEAD requests (HEAD: the same
status and headers, Content-Length included, without the body); any other method gets
405. It fetches nothing. A connection idle past --idle-timeout, or slower than
--header-timeout to send a request's head or --send-timeout to take a response, is
closed; past --max-connections, new clients wait until one ends.

Exit status: it serves until stopped (Ctrl-C); 2 when it cannot listen (the address
taken or not allowed) or on a usage error.")]
pub struct Args {
    /// The address to listen on: HOST:PORT, the host an IP address or a name
    /// (localhost:8080); port 0 takes any free port.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080", value_parser = crate::limits::address)]
    pub addr: SocketAddr,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let server = Server::bind(args.addr)
        .with_context(|| format!("cannot listen on {}", args.addr))?
        .with_limits(args.limits.limits());
    let addr = server.local_addr().unwrap_or(args.addr);
    if !assets::page_built() {
        eprintln!(
            "robots: warning: this binary was built without the tester's WebAssembly (its build warned why; most often the wasm32-unknown-unknown target is missing); run `rustup target add wasm32-unknown-unknown` or, in a clone, scripts/build-web, then build it again"
        );
    }
    eprintln!("serving the robots.txt tester on http://{addr}/");
    server.run().context("the server stopped")?;
    Ok(ExitCode::SUCCESS)
}
