//! The `xpgn` command line: parse the arguments, run the subcommand, exit with its status.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    ExitCode::from(cli::run(args) as u8)
}
