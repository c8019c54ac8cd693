//! `xpgn convert`: write games in another notation (SAN, long notation, UCI, one FEN per
//! ply, JSON, YAML, or PGN as `fmt` lays it out).

use std::io::{self, Write};

use clap::ValueEnum;
use xpgn::convert::{
    MainLine, Spelling, document, main_line_text, transcript_as_pgn, write_canonical, write_spelled,
};
use xpgn::games::read_games;
use xpgn::pgn::ParsedGame;
use xpgn::replay::{Recording, replay_recording};
use xpgn::report::Source;
use xpgn::rules::Variants;
use xpgn::source::InputFormat;

use super::{
    ExitStatus, InputArgs, VariantArgs, finish_output, output_failed, variants_and_inputs,
};

#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    variant: VariantArgs,
    /// The notation to write.
    #[arg(long, value_enum)]
    to: Target,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Target {
    /// PGN with every move in canonical SAN (comments, NAGs and variations kept).
    San,
    /// PGN with every move in long notation, with its origin.
    Lan,
    /// The main line as UCI moves, one game a line.
    Uci,
    /// One JSON object per game: tags, start position, every move with what it does.
    Json,
    /// The same as YAML documents.
    Yaml,
    /// The start position, then the position after each ply of the main line.
    Fen,
    /// PGN as `fmt` prints it (a forum transcript becomes a PGN game with tags).
    Pgn,
}

pub fn run(args: ConvertArgs) -> ExitStatus {
    let (variants, inputs, walked) = match variants_and_inputs(&args.variant, &args.input) {
        Ok(read) => read,
        Err(status) => return status,
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut status = walked;
    let mut first = true;
    for input in &inputs {
        let chunks = match read_games(input) {
            Ok(chunks) => chunks,
            Err(e) => {
                say!("xpgn: cannot read {}: {e}", input.display);
                status = ExitStatus::Error;
                continue;
            }
        };
        for chunk in chunks {
            let chunk = match chunk {
                Ok(chunk) => chunk,
                Err(e) => {
                    say!("xpgn: cannot read {}: {e}", input.display);
                    status = ExitStatus::Error;
                    break;
                }
            };
            for (source, parsed) in chunk.games(&input.display) {
                let from_transcript = input.format == InputFormat::Transcript;
                let written =
                    convert_game(&variants, source, parsed, args.to, from_transcript, first);
                first = false;
                match written {
                    Ok((text, game_status)) => {
                        status = status.max(game_status);
                        if let Err(e) = out.write_all(text.as_bytes()) {
                            return output_failed(&e, "output", status);
                        }
                    }
                    Err(message) => {
                        say!("xpgn: {message}");
                        status = status.max(ExitStatus::Findings);
                    }
                }
            }
        }
    }
    status.max(finish_output(out.flush()))
}

/// One game's text in `target`, with the status its conversion earns: findings when a
/// move did not replay (the text stops before it, and standard error says why).
/// PGN from a forum transcript is a game with tags of its own.
fn convert_game(
    variants: &Variants,
    source: Source<'_>,
    parsed: &ParsedGame,
    target: Target,
    from_transcript: bool,
    first: bool,
) -> Result<(String, ExitStatus), String> {
    let game = &parsed.game;
    let at = source.line_column(game.span.offset);
    let name = format!("{}:{}", source.name, at.line);
    if target == Target::Pgn && !from_transcript {
        // Exactly what `fmt` prints; the moves that do not replay are kept as written,
        // so nothing is cut and there is nothing to report.
        let mut text = String::new();
        if !first {
            text.push('\n');
        }
        write_canonical(game, variants, &mut text);
        return Ok((text, ExitStatus::Success));
    }
    let replay = replay_recording(game, variants, Recording::Everything);
    let mut status = ExitStatus::Success;
    if let Some(error) = replay
        .diagnostics
        .iter()
        .chain(&parsed.diagnostics)
        .find(|d| d.is_error())
    {
        let at = source.line_column(error.span.offset);
        say!(
            "xpgn: {}:{}:{}: {} (`xpgn check` says more); converted up to there",
            source.name,
            at.line,
            at.column,
            error.message
        );
        status = ExitStatus::Findings;
    }
    let mut text = match target {
        Target::San | Target::Lan | Target::Pgn => {
            let spelling = if target == Target::Lan {
                Spelling::Lan
            } else {
                Spelling::San
            };
            let mut text = String::new();
            if !first {
                text.push('\n');
            }
            if from_transcript {
                let pgn = transcript_as_pgn(game, &replay, variants);
                write_spelled(&pgn, &replay, spelling, &mut text);
            } else {
                write_spelled(game, &replay, spelling, &mut text);
            }
            text
        }
        Target::Uci | Target::Fen => {
            let list = if target == Target::Uci {
                MainLine::Uci
            } else {
                MainLine::Fen
            };
            let mut text = main_line_text(&replay, list).map_err(|refused| {
                format!(
                    "{name}: no UCI spelling at ply {}: {}",
                    refused.ply, refused.reason
                )
            })?;
            if target == Target::Fen && !first {
                text.insert(0, '\n');
            }
            text
        }
        Target::Json => {
            serde_json::to_string(&document(game, &replay)).map_err(|e| format!("{name}: {e}"))?
        }
        Target::Yaml => {
            let yaml = serde_saphyr::to_string(&document(game, &replay))
                .map_err(|e| format!("{name}: {e}"))?;
            format!("---\n{yaml}")
        }
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok((text, status))
}
