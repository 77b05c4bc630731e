//! The `robots` command: thin subcommands over the robots.txt crates of this workspace.
//! Each subcommand lives in `cmd/<name>.rs`; shared argument handling in `input.rs`.

mod cmd;
mod input;
mod limits;
mod snippet;
mod style;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::style::printable;

/// Check, explain, lint and diff robots.txt files, fetch a site's, test files in the
/// browser, and keep a web archive under Archive-Embargo (RFC 9309).
#[derive(Parser)]
#[command(name = "robots", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Check(cmd::check::Args),
    Fetch(cmd::fetch::Args),
    Explain(cmd::explain::Args),
    Lint(cmd::lint::Args),
    Diff(cmd::diff::Args),
    Archive(cmd::archive::Args),
    Serve(cmd::serve::Args),
}

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match cli.command {
        Command::Check(args) => cmd::check::run(args),
        Command::Fetch(args) => cmd::fetch::run(args),
        Command::Explain(args) => cmd::explain::run(args),
        Command::Lint(args) => cmd::lint::run(args),
        Command::Diff(args) => cmd::diff::run(args),
        Command::Archive(args) => cmd::archive::run(args),
        Command::Serve(args) => cmd::serve::run(args),
    };
    match result {
        Ok(code) => code,
        // A reader gone early (`| head`) wanted no more: said nothing of, as GNU tools
        // say nothing when SIGPIPE ends them, but not counted a success either.
        Err(err) if reader_gone(&err) => ExitCode::from(2),
        Err(err) => {
            // Messages quote arguments, file names, URLs and what servers and files
            // said; none of it may drive the terminal.
            eprintln!("robots: error: {}", printable(&format!("{err:#}")));
            ExitCode::from(2)
        }
    }
}

/// Whether `err` is a write to standard output after its reader closed it.
fn reader_gone(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Parses the command line, or says why not and gives the exit status. clap quotes a
/// bad argument as given and, on a terminal, passes its control characters through; so
/// when an argument holds any, clap's message is made without styling and each of its
/// lines shown as [`printable`] makes it.
fn parse() -> Result<Cli, ExitCode> {
    let controls = std::env::args_os().any(|a| style::has_controls(&a.to_string_lossy()));
    let mut command = Cli::command();
    if controls {
        command = command.styles(clap::builder::Styles::plain());
    }
    let parsed = command.try_get_matches().and_then(|matches| {
        Cli::from_arg_matches(&matches).map_err(|err| err.format(&mut Cli::command()))
    });
    match parsed {
        Ok(cli) => Ok(cli),
        Err(err) if err.kind() == clap::error::ErrorKind::InvalidUtf8 => {
            eprintln!("robots: error: {}", printable(&input::not_utf8_argument()));
            Err(ExitCode::from(2))
        }
        Err(err) if controls && err.exit_code() != 0 => {
            for line in err.render().ansi().to_string().lines() {
                eprintln!("{}", printable(line));
            }
            Err(ExitCode::from(2))
        }
        Err(err) => err.exit(),
    }
}
