//! xpgn: chess game records with extended, variant-aware notation.
//!
//! The layers run one way: bytes ([`source`]) -> PGN and transcript syntax with spans
//! ([`pgn`], [`transcript`]) -> move notation as written ([`notation`]) -> diagnostics
//! ([`diagnostic`]) -> reporters ([`report`]). The library never prints; reporters write
//! to the writer they are given.

// `src/cli` names the library as `xpgn`, as it did when it lived in the binary.
extern crate self as xpgn;

pub mod board_view;
#[cfg(feature = "cli")]
mod cli;
pub mod command;
pub mod convert;
pub mod diagnostic;
pub mod document;
pub mod games;
pub mod layout;
pub mod lint;
pub mod notation;
pub mod pgn;
#[cfg(feature = "cli")]
mod pipeline;
pub mod replay;
// The command line's reporters: public only for the integration tests that snapshot
// the human report.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod report;
pub mod rules;
mod scan;
pub mod source;
pub mod span;
pub mod transcript;
#[cfg(feature = "cli")]
mod write;

/// Runs the `xpgn` command line on the process's arguments and returns its exit status:
/// the binary's whole `main`. Not part of the library's API.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub fn run_cli() -> std::process::ExitCode {
    use clap::Parser;
    std::process::ExitCode::from(cli::run(cli::Args::parse()) as u8)
}
