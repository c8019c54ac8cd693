//! Subcommands, one file each, and what they share.

mod check;
mod fmt;
mod moves;
mod perft;

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use xpgn::source::{Input, InputFormat, collect_inputs};

/// How the process ends (`spec/cli.md`): scripts rely on these numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitStatus {
    /// Nothing to report.
    Success = 0,
    /// Findings: an error diagnostic, or a file `fmt --check` would change.
    Findings = 1,
    /// Usage error, unreadable input, or an internal failure.
    Error = 2,
}

#[derive(Parser, Debug)]
#[command(
    name = "xpgn",
    version,
    about = "Validate, format and convert chess game records with extended, variant-aware notation"
)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Read every game and report every syntax error (legality checking comes with the rules core).
    Check(check::CheckArgs),
    /// Print games laid out canonically: tags in standard order, 80-column movetext.
    Fmt(fmt::FmtArgs),
    /// List the legal moves of a position, one per line in canonical SAN.
    Moves(moves::MovesArgs),
    /// Count the leaf nodes of the legal move tree (rules testing).
    Perft(perft::PerftArgs),
}

/// Input selection shared by the subcommands that read games.
#[derive(clap::Args, Debug)]
pub struct InputArgs {
    /// Files or directories (walked for .pgn, .pgn.gz, .pgn.zst, .pgn.bz2, .txt); `-` is standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Read every input as this format instead of guessing from the file name.
    #[arg(long, value_enum)]
    input: Option<InputKind>,
}

/// The rules for games that do not name theirs.
#[derive(clap::Args, Debug)]
pub struct VariantArgs {
    /// Variant of games without a `[Variant]` tag (standard, chess960).
    #[arg(long, value_name = "NAME", default_value = "standard")]
    variant: String,
}

impl VariantArgs {
    /// The variant, or exit status 2 with a message when xpgn does not know it.
    fn variant(&self) -> Result<&'static xpgn::rules::Variant, ExitStatus> {
        xpgn::rules::Variant::by_name(&self.variant).ok_or_else(|| {
            eprintln!(
                "xpgn: unknown variant `{}` (supported: {})",
                self.variant,
                xpgn::rules::Variant::built_in_ids()
            );
            ExitStatus::Error
        })
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum InputKind {
    Pgn,
    Transcript,
}

impl InputArgs {
    /// The inputs, or the process's exit status when a path is bad.
    fn inputs(&self) -> Result<Vec<Input>, ExitStatus> {
        let format = self.input.map(|kind| match kind {
            InputKind::Pgn => InputFormat::Pgn,
            InputKind::Transcript => InputFormat::Transcript,
        });
        collect_inputs(&self.paths, format).map_err(|e| {
            eprintln!("xpgn: {e}");
            ExitStatus::Error
        })
    }
}

#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum Color {
    /// Colour when standard output is a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    Always,
    Never,
}

impl Color {
    pub fn enabled(self) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stdout().is_terminal()
            }
        }
    }
}

pub fn run(args: Args) -> ExitStatus {
    match args.command {
        Command::Check(args) => check::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Perft(args) => perft::run(args),
    }
}

/// A position given on the command line: the variant's start or a FEN.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// The position (default: the variant's start position).
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,
}

impl PositionArgs {
    fn position(
        &self,
    ) -> Result<(&'static xpgn::rules::Variant, xpgn::rules::Position), ExitStatus> {
        let variant = self.variant.variant()?;
        match &self.fen {
            None => Ok((variant, variant.start_position().clone())),
            Some(fen) => match xpgn::rules::parse_fen(variant, fen) {
                Ok(pos) => Ok((variant, pos)),
                Err(e) => {
                    eprintln!("xpgn: bad FEN: {e}");
                    Err(ExitStatus::Error)
                }
            },
        }
    }
}

/// The exit status after writing a command's output: a closed pipe is no error.
fn finish_output(written: std::io::Result<()>) -> ExitStatus {
    match written {
        Ok(()) => ExitStatus::Success,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(e) => {
            eprintln!("xpgn: cannot write the output: {e}");
            ExitStatus::Error
        }
    }
}
