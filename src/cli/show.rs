//! `xpgn show`: one position of one game as a board diagram with its event state: a
//! text board and its FEN, an SVG picture or a PNG image; or the whole game as an
//! animated GIF, a frame a ply.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use clap::ValueEnum;
use xpgn::board_view::raster::{GifWriter, Rasteriser};
use xpgn::board_view::{PictureOptions, legend_rows, svg_board, text_board};
use xpgn::games::read_games;
use xpgn::pgn::{Game, ParsedGame};
use xpgn::replay::{PlayedMove, Recording, replay_recording};
use xpgn::report::Source;
use xpgn::rules::{Position, Variant, Variants};

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
    /// A text board with its FEN, an SVG picture, a PNG image of the position, or an
    /// animated GIF of the game up to it (a frame a ply). PNG and GIF go to standard
    /// output: redirect it to a file.
    #[arg(long, value_enum, default_value_t = BoardFormat::Text)]
    format: BoardFormat,
    /// Letters and ASCII arrows instead of Unicode chess glyphs (text format).
    #[arg(long)]
    ascii: bool,
    /// Black at the bottom (pictures).
    #[arg(long)]
    flip: bool,
    /// The picture's width in pixels, its height in proportion (pictures; default 60
    /// pixels a square).
    #[arg(long, value_name = "PIXELS", value_parser = clap::value_parser!(u32).range(64..=4096))]
    size: Option<u32>,
    #[command(flatten)]
    variant: VariantArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum BoardFormat {
    Text,
    Svg,
    Png,
    Gif,
}

/// How long a GIF shows a ply, and its last frame before it loops, in hundredths of a
/// second: a second is time to see a move, three to take in the end.
const PLY_DELAY: u16 = 100;
const LAST_DELAY: u16 = 300;

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
    if args.format == BoardFormat::Text && (args.flip || args.size.is_some()) {
        say!("xpgn: --flip and --size draw pictures: add --format svg, png or gif");
        return ExitStatus::Error;
    }
    let image = match args.format {
        BoardFormat::Png => Some("png"),
        BoardFormat::Gif => Some("gif"),
        BoardFormat::Text | BoardFormat::Svg => None,
    };
    if let Some(extension) = image
        && io::stdout().is_terminal()
    {
        say!(
            "xpgn: --format {extension} writes an image, not text: redirect standard output to a file (> board.{extension})"
        );
        return ExitStatus::Error;
    }
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
        .and_then(|p| Some((p.main_plies, p.board.as_deref()?)));
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
    let picture = PictureOptions {
        flip: args.flip,
        width: args.size,
        legend_rows: 0,
    };
    let mut out = io::stdout().lock();
    let written = match args.format {
        BoardFormat::Text => out.write_all(text_board(v, position, last, args.ascii).as_bytes()),
        BoardFormat::Svg => out.write_all(svg_board(v, position, last, &picture).as_bytes()),
        BoardFormat::Png => Rasteriser::new()
            .png(&svg_board(v, position, last, &picture))
            .and_then(|png| out.write_all(&png)),
        BoardFormat::Gif => write_gif(&mut out, game, variants, v, ply, picture),
    };
    status.max(finish_output(written.and_then(|()| out.flush())))
}

/// The main line's position after `ply` plies and the move that led to it.
fn board_at(game: &Game, variants: &Variants, ply: usize) -> (Position, Option<PlayedMove>) {
    replay_recording(game, variants, Recording::Board(Some(ply)))
        .played
        .and_then(|played| played.board)
        .map(|board| *board)
        .expect("a ply the main line replays")
}

/// The game's first `plies` plies as an animated GIF, a frame a position, streamed: each
/// position is replayed and drawn in turn (a replay keeps one position, a frame is
/// written before the next is drawn), so memory stays that of a single picture.
fn write_gif(
    out: &mut impl Write,
    game: &Game,
    variants: &Variants,
    v: &Variant,
    plies: usize,
    picture: PictureOptions,
) -> io::Result<()> {
    // Every frame is the size of the one with the longest legend.
    let legend_rows = (0..=plies)
        .map(|ply| {
            let (position, last) = board_at(game, variants, ply);
            legend_rows(v, &position, last.as_ref())
        })
        .max()
        .unwrap_or(0);
    let picture = PictureOptions {
        legend_rows,
        ..picture
    };
    let rasteriser = Rasteriser::new();
    let frame = |ply: usize| {
        let (position, last) = board_at(game, variants, ply);
        rasteriser.pixmap(&svg_board(v, &position, last.as_ref(), &picture))
    };
    let delay = |ply: usize| if ply == plies { LAST_DELAY } else { PLY_DELAY };
    let start = frame(0)?;
    let mut gif = GifWriter::new(out, start.width(), start.height())?;
    gif.frame(&start, delay(0))?;
    drop(start);
    for ply in 1..=plies {
        gif.frame(&frame(ply)?, delay(ply))?;
    }
    gif.finish().map(drop)
}
