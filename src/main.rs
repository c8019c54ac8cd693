//! The `xpgn` command line: parse the arguments, run the subcommand, exit with its status.

mod cli;

use std::process::ExitCode;

use clap::Parser;

/// A game tree is many small allocations made and dropped together: mimalloc serves
/// them several times faster than the system allocator (as ruff and other Rust tools use
/// it for the same reason).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    ExitCode::from(cli::run(args) as u8)
}
