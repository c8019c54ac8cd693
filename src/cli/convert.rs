//! `xpgn convert`: write games in another notation (SAN, long notation, UCI, one FEN per
//! ply, JSON, YAML, or PGN as `fmt` lays it out).

use std::convert::Infallible;
use std::io::Write;

use clap::ValueEnum;
use xpgn::convert::{
    MainLine, Spelling, document, main_line_text, transcript_as_pgn, write_canonical,
    write_respelled, write_spelled,
};
use xpgn::games::{PendingChunk, read_chunks};
use xpgn::pgn::ParsedGame;
use xpgn::pipeline::{Stopped, run_ordered};
use xpgn::replay::{Recording, replay_recording, replay_respelling};
use xpgn::report::Source;
use xpgn::rules::Variants;
use xpgn::source::InputFormat;

use super::{
    ExitStatus, Failure, InputArgs, JobsArgs, VariantArgs, WORKER_STACK_BYTES, finish_output,
    output_failed, variants_and_inputs,
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
    #[command(flatten)]
    jobs: JobsArgs,
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
    let mut out = super::report_output();
    let mut status = walked;
    let mut first = true;
    let jobs = args.jobs.threads();
    for input in &inputs {
        let chunks = match read_chunks(input) {
            Ok(chunks) => chunks.map(|pending| pending.map_err(Failure::Read)),
            Err(e) => {
                say!("xpgn: cannot read {}: {e}", input.display);
                status = ExitStatus::Error;
                continue;
            }
        };
        let from_transcript = input.format == InputFormat::Transcript;
        let convert = |pending: PendingChunk| {
            let mut converted = Vec::new();
            let Ok(_) = pending.for_each_part(&input.display, |source, _, games| {
                converted.extend(games.iter().map(|parsed| {
                    convert_game(&variants, source, parsed, args.to, from_transcript)
                }));
                Ok::<(), Infallible>(())
            });
            converted
        };
        let take = |converted: Vec<Converted>| {
            for game in converted {
                for note in &game.notes {
                    say!("xpgn: {note}");
                }
                status = status.max(game.status);
                if let Some(text) = game.text {
                    let separator = game.separated && !first;
                    if separator {
                        out.write_all(b"\n").map_err(Failure::Output)?;
                    }
                    first = false;
                    out.write_all(text.as_bytes()).map_err(Failure::Output)?;
                    // Every game ends its line; an empty one is its separator alone.
                    if !(text.ends_with('\n') || separator && text.is_empty()) {
                        out.write_all(b"\n").map_err(Failure::Output)?;
                    }
                }
            }
            Ok(())
        };
        let converted = if jobs == 1 {
            let (mut chunks, mut take) = (chunks, take);
            chunks.try_for_each(|pending| pending.and_then(|pending| take(convert(pending))))
        } else {
            run_ordered(jobs, WORKER_STACK_BYTES, chunks, convert, take).map_err(|stopped| {
                match stopped {
                    Stopped::Failed(failure) => failure,
                    Stopped::Spawn(e) => Failure::Threads(e),
                }
            })
        };
        match converted {
            Ok(()) => {}
            Err(Failure::Read(e)) => {
                say!("xpgn: cannot read {}: {e}", input.display);
                status = ExitStatus::Error;
            }
            Err(Failure::Output(e)) => return output_failed(&e, "output", status),
            Err(Failure::Threads(e)) => {
                say!("xpgn: cannot start {jobs} threads: {e}");
                return ExitStatus::Error;
            }
        }
    }
    status.max(finish_output(out.flush()))
}

/// One game converted (on any thread), for the output in file order.
struct Converted {
    /// Its text (its last line may lack its line break); none when it cannot be converted.
    text: Option<String>,
    /// Whether a blank line goes before it when a game was written before.
    separated: bool,
    /// What standard error says of it.
    notes: Vec<String>,
    /// Findings when a move did not replay or the game could not be converted.
    status: ExitStatus,
}

/// One game in `target`, with the status its conversion earns: findings when a move did
/// not replay (the text stops before it, and a note says why) or when the game cannot be
/// written in `target` at all. PGN from a forum transcript is a game with tags of its own.
fn convert_game(
    variants: &Variants,
    source: Source<'_>,
    parsed: &ParsedGame,
    target: Target,
    from_transcript: bool,
) -> Converted {
    let mut notes = Vec::new();
    match write_game(
        variants,
        source,
        parsed,
        target,
        from_transcript,
        &mut notes,
    ) {
        Ok((text, status)) => Converted {
            text: Some(text),
            separated: !matches!(target, Target::Uci | Target::Json | Target::Yaml),
            notes,
            status,
        },
        Err(refused) => {
            notes.push(refused);
            Converted {
                text: None,
                separated: false,
                notes,
                status: ExitStatus::Findings,
            }
        }
    }
}

/// The text of [`convert_game`], without the blank line that may go before it.
fn write_game(
    variants: &Variants,
    source: Source<'_>,
    parsed: &ParsedGame,
    target: Target,
    from_transcript: bool,
    notes: &mut Vec<String>,
) -> Result<(String, ExitStatus), String> {
    let game = &parsed.game;
    let at = source.line_column(game.span.offset);
    let name = format!("{}:{}", source.name, at.line);
    if target == Target::Pgn && !from_transcript {
        // Exactly what `fmt` prints; the moves that do not replay are kept as written,
        // so nothing is cut and there is nothing to report.
        let mut text = String::new();
        write_canonical(game, source, variants, &mut text);
        return Ok((text, ExitStatus::Success));
    }
    // A FEN per move only where the output holds it, and SAN alone where that is all.
    let recording = match target {
        Target::Json | Target::Yaml => Recording::Everything,
        Target::Lan => Recording::Moves,
        Target::Uci => Recording::MainLine(MainLine::Uci),
        Target::Fen => Recording::MainLine(MainLine::Fen),
        Target::San | Target::Pgn => Recording::Spellings,
    };
    // Canonical SAN of a PGN game: only the moves written otherwise need spelling, as in
    // `fmt`; a transcript's game takes tags from the replay and is spelled whole.
    let replay = if target == Target::San && !from_transcript {
        replay_respelling(game, variants, source)
    } else {
        replay_recording(game, variants, recording)
    };
    let mut status = ExitStatus::Success;
    if let Some(error) = replay
        .diagnostics
        .iter()
        .chain(&parsed.diagnostics)
        .find(|d| d.is_error())
    {
        let at = source.line_column(error.span.offset);
        notes.push(format!(
            "{}:{}:{}: {} (`xpgn check` says more); converted up to there",
            source.name, at.line, at.column, error.message
        ));
        status = ExitStatus::Findings;
    }
    let text = match target {
        Target::San | Target::Lan | Target::Pgn => {
            let spelling = if target == Target::Lan {
                Spelling::Lan
            } else {
                Spelling::San
            };
            let mut text = String::new();
            if from_transcript {
                let pgn = transcript_as_pgn(game, &replay, variants);
                write_spelled(&pgn, &replay, spelling, &mut text);
            } else {
                write_respelled(game, &replay, spelling, Some(source), &mut text);
            }
            text
        }
        Target::Uci | Target::Fen => {
            let list = if target == Target::Uci {
                MainLine::Uci
            } else {
                MainLine::Fen
            };
            main_line_text(&replay, list).map_err(|refused| {
                format!(
                    "{name}: no UCI spelling at ply {}: {}",
                    refused.ply, refused.reason
                )
            })?
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
    Ok((text, status))
}
