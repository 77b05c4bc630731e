//! The `robots` command: thin subcommands over the robots.txt crates of this workspace.
//! Each subcommand lives in `cmd/<name>.rs`; shared argument handling in `input.rs`.

mod cmd;
mod input;
mod snippet;
mod style;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Check, explain and lint robots.txt files (RFC 9309 + Archive-Embargo).
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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) if err.kind() == clap::error::ErrorKind::InvalidUtf8 => {
            eprintln!("robots: error: {}", input::not_utf8_argument());
            return ExitCode::from(2);
        }
        Err(err) => err.exit(),
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
        Err(err) => {
            eprintln!("robots: error: {err:#}");
            ExitCode::from(2)
        }
    }
}
