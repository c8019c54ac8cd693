//! `xpgn fmt`: print games laid out canonically, check that files already are, or
//! rewrite them in place.

use std::convert::Infallible;
use std::io::{self, Write};
use std::ops::Range;

use xpgn::convert::LayOutAsRead;
use xpgn::convert::write_canonical;
use xpgn::games::{PendingChunk, part_sources, read_chunks};
use xpgn::lint::fix::same_games;
use xpgn::pgn::ParsedGame;
use xpgn::pipeline::{Stopped, run_ordered};
use xpgn::report::Source;
use xpgn::rules::Variants;
use xpgn::source::{Chunk, Compression, Encoding, Input, InputFormat, Part, decode};
use xpgn::write::replace_file_with;

use super::{
    ExitStatus, InputArgs, JobsArgs, VariantArgs, WORKER_STACK_BYTES, output_failed,
    variants_and_inputs,
};

#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    #[command(flatten)]
    input: InputArgs,
    // Moves are respelled by the rules of their game; one that does not replay stays as
    // written.
    #[command(flatten)]
    variant: VariantArgs,
    /// Print nothing; exit 1 if any file would change.
    #[arg(long, conflicts_with = "write")]
    check: bool,
    /// Write nothing; print a unified diff of what `--write` would change, exit 1 if any
    /// file would change.
    #[arg(long, conflicts_with_all = ["write", "check"])]
    diff: bool,
    /// Rewrite files in place (atomically: a synced temporary file renamed over the
    /// original; a symbolic link only to a file in its own directory tree).
    #[arg(long)]
    write: bool,
    #[command(flatten)]
    jobs: JobsArgs,
}

/// What an input that is not PGN is, in words.
fn not_pgn(format: InputFormat) -> Option<&'static str> {
    match format {
        InputFormat::Pgn => None,
        InputFormat::Transcript => Some("a forum transcript"),
        InputFormat::Json => Some("a JSON game document"),
        InputFormat::Yaml => Some("a YAML game document"),
    }
}

pub fn run(args: FmtArgs) -> ExitStatus {
    let (variants, inputs, walked) = match variants_and_inputs(&args.variant, &args.input) {
        Ok(read) => read,
        Err(status) => return status,
    };
    let mut status = walked;
    let settings = Settings {
        variants: &variants,
        jobs: args.jobs.threads(),
        write: false,
        whole_chunks: false,
    };
    for input in &inputs {
        let outcome = if let Some(kind) = not_pgn(input.format) {
            Err(Refusal::Usage(format!(
                "{} is {kind}; fmt lays out PGN files (`xpgn convert --to pgn` writes PGN from it)",
                input.display
            )))
        } else if args.write {
            write_in_place(input, settings)
        } else if args.check {
            check(input, settings)
        } else if args.diff {
            diff(input, settings)
        } else {
            print(input, settings)
        };
        let file_status = match outcome {
            Ok(Change::Same) => ExitStatus::Success,
            Ok(Change::Differs) if args.check => {
                say!("would reformat: {}", input.display);
                ExitStatus::Findings
            }
            Ok(Change::Differs) if args.diff => ExitStatus::Findings,
            Ok(Change::Differs) => ExitStatus::Success,
            Err(Refusal::Output(e)) => return output_failed(&e, "output", status),
            Err(Refusal::Read(e)) => {
                say!("xpgn: cannot read {}: {e}", input.display);
                ExitStatus::Error
            }
            Err(Refusal::Write(e)) => {
                say!("xpgn: cannot write {}: {e}", input.display);
                ExitStatus::Error
            }
            Err(Refusal::Threads(e)) => {
                say!("xpgn: cannot start threads: {e}");
                return ExitStatus::Error;
            }
            Err(Refusal::Usage(message)) => {
                say!("xpgn: {message}");
                ExitStatus::Error
            }
        };
        status = status.max(file_status);
    }
    status
}

enum Change {
    Same,
    Differs,
}

enum Refusal {
    /// Reading the file.
    Read(io::Error),
    /// Writing standard output.
    Output(io::Error),
    /// Writing the new file.
    Write(io::Error),
    Usage(String),
    /// Starting the threads of `--jobs`.
    Threads(io::Error),
}

/// The errors of replacing a file are the new file's.
impl From<io::Error> for Refusal {
    fn from(e: io::Error) -> Self {
        Refusal::Write(e)
    }
}

/// What to do for each part of a file, beside laying it out.
#[derive(Clone, Copy)]
struct Settings<'a> {
    variants: &'a Variants,
    jobs: usize,
    /// `--write`: also make the bytes the part is written as, verified.
    write: bool,
    /// Hand on the text of a chunk whose every part is laid out at once, rather than
    /// part by part (printing, which needs no part's source): one write, not a copy
    /// into the output's buffer for each game.
    whole_chunks: bool,
}

impl Settings<'_> {
    /// Whether the moves of orthodox games are played as read ([`LayOutAsRead`]): where
    /// the default variant is orthodox chess and no event starts with the game (as for
    /// `check`), and but for `--write`, which verifies what it writes against the trees.
    fn plays_as_read(&self) -> bool {
        self.variants.default.slug == "standard"
            && self.variants.start_events.is_empty()
            && !self.write
    }
}

/// A chunk's parts laid out canonically (by any thread): one text for them all (a text
/// of its own for each part, nearly always a game, was an allocation a game).
struct FormattedChunk {
    /// Each part's games, one part after the other.
    text: String,
    parts: Vec<FormattedPart>,
}

/// A part of a file laid out canonically, or why the file is refused.
enum FormattedPart {
    /// A part without games (blank lines between chunks): nothing to write.
    Empty,
    Games {
        /// Where in the chunk's text: a line break, then the part's games laid out
        /// canonically with a blank line between them. The break makes the blank line
        /// before the part, which the file's first part leaves out.
        range: Range<usize>,
        /// `--write`: the bytes the part's text is written as, or why it is not.
        bytes: Option<Result<Vec<u8>, Refusal>>,
    },
    /// A game with syntax errors: the file is refused.
    SyntaxErrors(usize),
}

/// Lays out the games of one chunk, part by part; gives back the chunk, whose parts the
/// laid-out text replaces.
fn format_chunk(
    pending: PendingChunk,
    settings: Settings<'_>,
    name: &str,
) -> (Chunk, FormattedChunk) {
    // Laid out, a chunk is about as long as it was written.
    let text = String::with_capacity(pending.len() + pending.len() / 8);
    let mut sink = LayOutAsRead::new(text, settings.variants, settings.plays_as_read());
    let mut parts = Vec::new();
    let Ok(chunk) = pending.for_each_part_with(name, &mut sink, |source, part, games, sink| {
        parts.push(format_part(source, part, games, settings, sink));
        Ok::<(), Infallible>(())
    });
    let text = sink.text;
    (chunk, FormattedChunk { text, parts })
}

/// Lays out the games of one part at the end of `sink`'s text, where its reader has not
/// laid them out already.
fn format_part(
    source: Source<'_>,
    part: &Part,
    games: &[ParsedGame],
    settings: Settings<'_>,
    sink: &mut LayOutAsRead,
) -> FormattedPart {
    let start = sink.part_start;
    let text = &mut sink.text;
    let errors = games
        .iter()
        .flat_map(|g| &g.diagnostics)
        .filter(|d| d.is_error())
        .count();
    if games.is_empty() || errors > 0 {
        text.truncate(start);
        return match errors {
            0 => FormattedPart::Empty,
            errors => FormattedPart::SyntaxErrors(errors),
        };
    }
    let laid_out = |index: usize| sink.games.get(index).cloned().flatten();
    if !(0..games.len()).all(|index| laid_out(index).is_some()) {
        // Games whose moves are in their trees (a FEN, a variant) among those laid out
        // as read: each in its place.
        let as_read = text.split_off(start);
        for (index, parsed) in games.iter().enumerate() {
            match laid_out(index) {
                Some(range) => text.push_str(&as_read[range.start - start..range.end - start]),
                None => {
                    text.push('\n');
                    write_canonical(&parsed.game, source, settings.variants, text);
                }
            }
        }
    }
    let bytes = settings
        .write
        .then(|| verified(&text[start + 1..], source, games, part, settings.variants));
    FormattedPart::Games {
        range: start..text.len(),
        bytes,
    }
}

/// Formats `input` chunk by chunk on `settings.jobs` threads, handing each part's
/// formatted text (with the blank line before it when games came before), the source
/// of the original text it came from and, for `--write`, its verified bytes to `sink`,
/// in file order. Files with syntax errors are refused: `check` says why.
fn format_input(
    input: &Input,
    settings: Settings<'_>,
    mut sink: impl FnMut(&str, Source<'_>, Option<Result<Vec<u8>, Refusal>>) -> Result<(), Refusal>,
) -> Result<(), Refusal> {
    let name = &input.display;
    let mut first = true;
    let mut take = |(chunk, formatted): (Chunk, FormattedChunk)| {
        let refused = |part: &FormattedPart| matches!(part, FormattedPart::SyntaxErrors(_));
        if settings.whole_chunks && !formatted.parts.iter().any(refused) {
            // Each part's text follows the last's, each game's after a line break.
            let text = match first {
                true => formatted.text.get(1..).unwrap_or_default(),
                false => &formatted.text,
            };
            if let Some(source) = part_sources(&chunk, name).next()
                && !text.is_empty()
            {
                first = false;
                sink(text, source, None)?;
            }
            return Ok(());
        }
        // Part by part, as the splitter found the games: a refused file prints what
        // precedes the game it is refused at.
        for (source, part) in part_sources(&chunk, name).zip(formatted.parts) {
            match part {
                FormattedPart::Empty => {}
                FormattedPart::SyntaxErrors(errors) => {
                    return Err(Refusal::Usage(format!(
                        "{name} has syntax errors ({errors} in the game at line {}); `xpgn check {name}` lists them",
                        source.line + 1,
                    )));
                }
                FormattedPart::Games { range, bytes } => {
                    let text = &formatted.text[range];
                    let text = if first { &text[1..] } else { text };
                    let bytes = bytes.map(|bytes| {
                        bytes.map(|mut bytes| {
                            if !first {
                                bytes.insert(0, b'\n');
                            }
                            bytes
                        })
                    });
                    first = false;
                    sink(text, source, bytes)?;
                }
            }
        }
        Ok(())
    };
    let chunks = read_chunks(input)
        .map_err(Refusal::Read)?
        .map(|pending| pending.map_err(Refusal::Read));
    if settings.jobs == 1 {
        for pending in chunks {
            take(format_chunk(pending?, settings, name))?;
        }
        return Ok(());
    }
    let format = |pending| format_chunk(pending, settings, name);
    run_ordered(settings.jobs, WORKER_STACK_BYTES, chunks, format, take).map_err(|stopped| {
        match stopped {
            Stopped::Failed(refusal) => refusal,
            Stopped::Spawn(e) => Refusal::Threads(e),
        }
    })
}

fn print(input: &Input, settings: Settings<'_>) -> Result<Change, Refusal> {
    let mut out = super::report_output();
    let settings = Settings {
        whole_chunks: true,
        ..settings
    };
    format_input(input, settings, |formatted, _, _| {
        out.write_all(formatted.as_bytes()).map_err(Refusal::Output)
    })?;
    out.flush().map_err(Refusal::Output)?;
    Ok(Change::Same)
}

#[derive(Default)]
struct StreamComparison {
    original: String,
    formatted: String,
    differs: bool,
}

impl StreamComparison {
    fn feed(&mut self, formatted: &str, original: &str) {
        if self.differs {
            return;
        }
        self.formatted.push_str(formatted);
        self.original.push_str(original);
        let common = self.formatted.len().min(self.original.len());
        if self.formatted.as_bytes()[..common] != self.original.as_bytes()[..common] {
            self.differs = true;
            return;
        }
        self.formatted.drain(..common);
        self.original.drain(..common);
    }

    fn change(&self) -> Change {
        if self.differs || self.original != self.formatted {
            Change::Differs
        } else {
            Change::Same
        }
    }
}

fn check(input: &Input, settings: Settings<'_>) -> Result<Change, Refusal> {
    let mut comparison = StreamComparison::default();
    format_input(input, settings, |formatted, source, _| {
        comparison.feed(formatted, source.text);
        Ok(())
    })?;
    Ok(comparison.change())
}

/// `--diff`: the file as it reads and as `--write` would write it, compared line by line.
fn diff(input: &Input, settings: Settings<'_>) -> Result<Change, Refusal> {
    let (mut before, mut after) = (String::new(), String::new());
    format_input(input, settings, |formatted, source, _| {
        before.push_str(source.text);
        after.push_str(formatted);
        Ok(())
    })?;
    if before == after {
        return Ok(Change::Same);
    }
    let mut out = io::stdout().lock();
    super::write_diff(&mut out, &input.display, &before, &after).map_err(Refusal::Output)?;
    Ok(Change::Differs)
}

fn write_in_place(input: &Input, settings: Settings<'_>) -> Result<Change, Refusal> {
    let path = match (&input.path, input.compression) {
        (Some(path), Compression::None) => path,
        (None, _) => {
            return Err(Refusal::Usage(
                "--write needs files, not standard input".into(),
            ));
        }
        (Some(_), _) => {
            return Err(Refusal::Usage(format!(
                "{}: --write does not rewrite compressed files",
                input.display
            )));
        }
    };
    let mut comparison = StreamComparison::default();
    let replaced = replace_file_with(path, |out| {
        let settings = Settings {
            write: true,
            ..settings
        };
        format_input(input, settings, |formatted, source, bytes| {
            comparison.feed(formatted, source.text);
            let bytes = bytes.expect("--write makes the bytes")?;
            out.write_all(&bytes).map_err(Refusal::Write)
        })?;
        Ok::<_, Refusal>(matches!(comparison.change(), Change::Differs))
    })?;
    Ok(if replaced {
        Change::Differs
    } else {
        Change::Same
    })
}

/// The bytes a part's formatted text is written as, in the part's encoding, once it is
/// sure to hold the same games (as many, replaying the same moves) and to read back as
/// written; else why the file is not rewritten.
fn verified(
    formatted: &str,
    source: Source<'_>,
    games: &[ParsedGame],
    part: &Part,
    variants: &Variants,
) -> Result<Vec<u8>, Refusal> {
    let refused = |why: String| {
        Refusal::Usage(format!(
            "{}: the game at line {} {why}: not rewritten",
            source.name,
            source.line + 1
        ))
    };
    if matches!(part.encoding, Encoding::Utf16Le | Encoding::Utf16Be) {
        return Err(Refusal::Usage(format!(
            "{} is {}: --write writes back UTF-8 and Windows-1252 files only (save it as UTF-8 to format it)",
            source.name,
            part.encoding.name()
        )));
    }
    let after = xpgn::pgn::parse_chunk(formatted, source.offset);
    same_games(variants, games, &after)
        .map_err(|why| refused(format!("laid out canonically {why}")))?;
    let bytes = part.encoding.encode(formatted).ok_or_else(|| {
        refused(format!(
            "needs characters {} cannot hold",
            part.encoding.name()
        ))
    })?;
    let (read_back, read_as) = decode(&bytes, source.line);
    if read_back != formatted
        || std::mem::discriminant(&read_as) != std::mem::discriminant(&part.encoding)
    {
        return Err(refused(format!(
            "would not read back as written in {}",
            part.encoding.name()
        )));
    }
    Ok(bytes.into_owned())
}
