//! `xpgn show`: one position of one game as a board diagram with its event state: a
//! text board and its FEN, or an SVG picture.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::ValueEnum;
use xpgn::board_view::{svg_board, text_board};
use xpgn::games::read_games;
use xpgn::pgn::ParsedGame;
use xpgn::replay::{Recording, replay_recording};
use xpgn::report::Source;
use xpgn::rules::Variants;

use super::{ExitStatus, InputArgs, InputKind, VariantArgs, finish_output};

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// A PGN file or forum transcript (a directory: its games in order); `-` is standard input.
    #[arg(value_name = "PATH")]
    path: PathBuf,
    /// Read the input as this format instead of guessing from the file name.
    #[arg(long, value_enum)]
    input: Option<InputKind>,
    /// Which game, counting from 1.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        value_parser = game_number
    )]
    game: usize,
    /// The position after this many plies of the main line; 0 is the start (default: the
    /// last ply that replayed).
    #[arg(long, value_name = "K")]
    ply: Option<usize>,
    /// A text board with its FEN, or an SVG picture.
    #[arg(long, value_enum, default_value_t = BoardFormat::Text)]
    format: BoardFormat,
    /// Letters and ASCII arrows instead of Unicode chess glyphs (text format).
    #[arg(long)]
    ascii: bool,
    #[command(flatten)]
    variant: VariantArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum BoardFormat {
    Text,
    Svg,
}

/// A `--game` number: games count from 1.
fn game_number(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("games count from 1".to_owned()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// `1 game`, `3 plies`: counts in messages.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn run(args: ShowArgs) -> ExitStatus {
    let variants = match args.variant.variants() {
        Ok(variants) => variants,
        Err(status) => return status,
    };
    let input_args = InputArgs {
        paths: vec![args.path.clone()],
        input: args.input,
    };
    let (inputs, walked) = input_args.inputs();
    if walked != ExitStatus::Success {
        return walked;
    }
    let mut seen = 0;
    for input in &inputs {
        let chunks = match read_games(input) {
            Ok(chunks) => chunks,
            Err(e) => {
                say!("xpgn: cannot read {}: {e}", input.display);
                return ExitStatus::Error;
            }
        };
        for chunk in chunks {
            let chunk = match chunk {
                Ok(chunk) => chunk,
                Err(e) => {
                    say!("xpgn: cannot read {}: {e}", input.display);
                    return ExitStatus::Error;
                }
            };
            for (source, parsed) in chunk.games(&input.display) {
                seen += 1;
                if seen == args.game {
                    return show_game(&args, &variants, source, parsed);
                }
            }
        }
    }
    say!(
        "xpgn: --game {}: {} holds {}",
        args.game,
        args.path.display(),
        count(seen, "game", "games")
    );
    ExitStatus::Error
}

/// Writes the asked position of the game: findings when the game has an error (the
/// board is still drawn from the moves that replayed), a usage error when the ply is
/// beyond them.
fn show_game(
    args: &ShowArgs,
    variants: &Variants,
    source: Source<'_>,
    parsed: &ParsedGame,
) -> ExitStatus {
    let game = &parsed.game;
    let replay = replay_recording(game, variants, Recording::Board(args.ply));
    let error = replay
        .diagnostics
        .iter()
        .chain(&parsed.diagnostics)
        .find(|d| d.is_error());
    let error_note = error.map(|error| {
        let at = source.line_column(error.span.offset);
        format!(
            "{}:{}:{}: {} (`xpgn check` says more)",
            source.name, at.line, at.column, error.message
        )
    });
    let board = replay
        .played
        .as_ref()
        .and_then(|p| Some((p.main_plies, p.board.as_ref()?)));
    let (Some((replayed, (position, last))), Some(v)) = (board, variants.find(&replay.variant))
    else {
        // Not replayed at all: a variant xpgn does not play.
        let why = error_note.unwrap_or_else(|| "its moves were not replayed".to_owned());
        say!("xpgn: game {}: nothing to show: {why}", args.game);
        return ExitStatus::Findings;
    };
    let ply = args.ply.unwrap_or(replayed);
    if ply > replayed {
        let stop = if error_note.is_some() {
            ", where an error stops it"
        } else {
            ""
        };
        say!(
            "xpgn: --ply {ply}: the main line of game {} replays {}{stop} (--ply 0 is the start)",
            args.game,
            count(replayed, "ply", "plies"),
        );
        return ExitStatus::Error;
    }
    let mut status = ExitStatus::Success;
    if let Some(note) = error_note {
        say!("xpgn: {note}; the board is drawn from the moves before it");
        status = ExitStatus::Findings;
    }
    let last = last.as_ref();
    let text = match args.format {
        BoardFormat::Text => text_board(v, position, last, args.ascii),
        BoardFormat::Svg => svg_board(v, position, last),
    };
    let mut out = io::stdout().lock();
    status.max(finish_output(out.write_all(text.as_bytes())))
}
