//! xpgn reads chess game records — PGN, forum transcripts, JSON and YAML game documents —
//! checks them against the rules of their variant, and says what is wrong, where and how
//! to write it right. Its rules know the built-in variants and Event Chess, whose events
//! change the rules in the middle of a game.
//!
//! This is the library under the `xpgn` command line. It never prints: everything it
//! finds is returned as data.
//!
//! # A short tour
//!
//! - Reading: [`parse_pgn`] and [`parse_transcript`] read a string; [`read_games`] and
//!   [`read_games_from`] read a file or any reader chunk by chunk, so input of any size
//!   streams. Each game comes as a [`ParsedGame`]: the [`Game`] tree as written (tags,
//!   [`Item`]s of the main line and its variations, the [`Outcome`]) and the
//!   diagnostics of reading it.
//! - Checking: [`check_game`] replays a game under the variant its `[Variant]` tag names
//!   (one of [`Variants`]) and returns a [`Replay`], whose [`Diagnostic`]s are every
//!   finding, placed by a [`Span`] that a [`Source`] turns into a line and column.
//! - Rules: a [`Variant`] gives its start [`Position`] ([`parse_fen`] reads another),
//!   its legal [`Move`]s ([`Variant::legal_moves`]) and plays them
//!   ([`Variant::play`]); [`san`] and [`uci`] spell a move. An [`Event`], found by
//!   number with [`events::by_number`], is started in a position with
//!   [`Position::start_event`] and then [`Event::begin`].
//!
//! The modules below hold the rest: formatting ([`layout`]), conversion ([`convert`]),
//! the style rules of `xpgn lint` ([`lint`]), board diagrams ([`board_view`]), and each
//! layer of the pipeline on its own. The layers run one way: bytes ([`source`]) -> PGN
//! and transcript syntax with spans ([`pgn`], [`transcript`], [`document`]) -> move
//! notation as written ([`notation`]) -> resolution and play ([`rules`], [`replay`]) ->
//! diagnostics ([`diagnostic`]).
//!
//! # Examples
//!
//! Check a PGN string and print its diagnostics:
//!
//! ```
//! use xpgn::{Severity, Source, Variants, check_game, parse_pgn};
//!
//! let pgn = "[Event \"Casual\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n";
//! let variants = Variants::default();
//! let source = Source { name: "casual.pgn", text: pgn, offset: 0, line: 0 };
//! for parsed in parse_pgn(pgn) {
//!     let replay = check_game(&parsed, &variants);
//!     for d in &replay.diagnostics {
//!         let at = source.line_column(d.span.offset);
//!         println!("{}:{at}: {}[{}] {}", source.name, d.severity.as_str(), d.code.name(), d.message);
//!     }
//!     // The king cannot reach e3 from e1.
//!     assert_eq!(replay.diagnostics[0].severity, Severity::Error);
//!     assert_eq!(source.line_column(replay.diagnostics[0].span.offset).line, 3);
//! }
//! ```
//!
//! The legal moves of a position with an event running: under #71 Slow Pieces no move
//! carries a piece more than two squares, so the bishop reaches d3 but not c4.
//!
//! ```
//! use xpgn::{Event, Variant, events, parse_fen, san};
//!
//! let chess = Variant::by_name("standard").unwrap();
//! let mut pos = parse_fen(chess, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")?;
//! let slow_pieces = events::by_number(71).unwrap();
//! pos.start_event(slow_pieces, None)?;
//! slow_pieces.begin(chess, &mut pos, &[])?;
//!
//! let mut moves = Vec::new();
//! chess.legal_moves(&pos, &mut moves);
//! let sans: Vec<String> = moves.iter().map(|mv| san(chess, &pos, mv)).collect();
//! assert!(sans.contains(&"Bd3".to_owned()));
//! assert!(!sans.contains(&"Bc4".to_owned()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! - `cli` (default): the `xpgn` command line and what only it needs (clap, miette's
//!   reports, the directory walker, ...). It turns on the two below.
//! - `pictures`: PNG and animated GIF boards (`board_view::raster`), drawn by resvg.
//! - `compression`: reading gzip, zstd and bzip2 input in [`read_games`].
//!
//! A library user sets `default-features = false` and adds back what he wants.

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

#[doc(inline)]
pub use diagnostic::{Code, Diagnostic, Severity};
#[doc(inline)]
pub use games::{ChunkGames, read_games, read_games_from};
#[doc(inline)]
pub use notation::Notation;
#[doc(inline)]
pub use pgn::parse_str as parse_pgn;
#[doc(inline)]
pub use pgn::{Game, Item, Outcome, ParsedGame, Tag};
#[doc(inline)]
pub use replay::{Replay, check_game};
#[doc(inline)]
pub use rules::san::{san, uci};
#[doc(inline)]
pub use rules::{Color, Event, FenError, Move, Piece, Position, Sq, Variant, Variants, events};
#[doc(inline)]
pub use rules::{parse_fen, write_fen};
#[doc(inline)]
pub use source::{Input, InputFormat};
#[doc(inline)]
pub use span::{Source, Span};
#[doc(inline)]
pub use transcript::parse_str as parse_transcript;

/// Runs the `xpgn` command line on the process's arguments and returns its exit status:
/// the binary's whole `main`. Not part of the library's API.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub fn run_cli() -> std::process::ExitCode {
    use clap::Parser;
    std::process::ExitCode::from(cli::run(cli::Args::parse()) as u8)
}
