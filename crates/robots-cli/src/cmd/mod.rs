//! One module per subcommand, each with its clap `Args` and a `run` function.

pub mod archive;
pub mod check;
pub mod diff;
pub mod explain;
pub mod fetch;
pub mod lint;
pub mod serve;
