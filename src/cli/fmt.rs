//! `xpgn fmt`: print games laid out canonically, check that files already are, or
//! rewrite them in place.

use std::io::{self, Write};

use xpgn::convert::write_canonical;
use xpgn::games::read_games;
use xpgn::rules::Variants;
use xpgn::source::{Compression, Input, InputFormat};
use xpgn::write::replace_file_with;

use super::{ExitStatus, InputArgs, VariantArgs, variants_and_inputs};

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
    /// Rewrite files in place (atomically: a synced temporary file renamed over the
    /// original; a symbolic link only to a file in its own directory tree).
    #[arg(long)]
    write: bool,
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
    for input in &inputs {
        let outcome = if let Some(kind) = not_pgn(input.format) {
            Err(Refusal::Usage(format!(
                "{} is {kind}; fmt lays out PGN files (`xpgn convert --to pgn` writes PGN from it)",
                input.display
            )))
        } else if args.write {
            write_in_place(input, &variants)
        } else if args.check {
            check(input, &variants)
        } else {
            print(input, &variants)
        };
        let file_status = match outcome {
            Ok(Change::Same) => ExitStatus::Success,
            Ok(Change::Differs) if args.check => {
                eprintln!("would reformat: {}", input.display);
                ExitStatus::Findings
            }
            Ok(Change::Differs) => ExitStatus::Success,
            Err(Refusal::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => return status,
            Err(Refusal::Io(e)) => {
                eprintln!("xpgn: {}: {e}", input.display);
                ExitStatus::Error
            }
            Err(Refusal::Usage(message)) => {
                eprintln!("xpgn: {message}");
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
    Io(io::Error),
    Usage(String),
}

impl From<io::Error> for Refusal {
    fn from(e: io::Error) -> Self {
        Refusal::Io(e)
    }
}

/// Formats `input` chunk by chunk, handing each formatted piece and the original text
/// it came from to `sink`. Files with syntax errors are refused: `check` says why.
fn format_input(
    input: &Input,
    variants: &Variants,
    mut sink: impl FnMut(&str, &str) -> io::Result<()>,
) -> Result<(), Refusal> {
    let mut first = true;
    let mut formatted = String::new();
    for chunk in read_games(input)? {
        let chunk = chunk?;
        // Part by part, as the splitter found the games: a refused file prints what
        // precedes the game it is refused at.
        for (source, games) in chunk.parts(&input.display) {
            if games.is_empty() {
                continue;
            }
            let errors = games
                .iter()
                .flat_map(|g| &g.diagnostics)
                .filter(|d| d.is_error())
                .count();
            if errors > 0 {
                return Err(Refusal::Usage(format!(
                    "{} has syntax errors ({errors} in the game at line {}); `xpgn check {}` lists them",
                    input.display,
                    source.line + 1,
                    input.display
                )));
            }
            formatted.clear();
            for parsed in games {
                if !first {
                    formatted.push('\n');
                }
                first = false;
                write_canonical(&parsed.game, variants, &mut formatted);
            }
            sink(&formatted, source.text)?;
        }
    }
    Ok(())
}

fn print(input: &Input, variants: &Variants) -> Result<Change, Refusal> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    format_input(input, variants, |formatted, _| {
        out.write_all(formatted.as_bytes())
    })?;
    out.flush()?;
    Ok(Change::Same)
}

/// Compares the formatted text with the original as both stream by, keeping only the
/// part of each that the other has not reached yet.
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

fn check(input: &Input, variants: &Variants) -> Result<Change, Refusal> {
    let mut comparison = StreamComparison::default();
    format_input(input, variants, |formatted, original| {
        comparison.feed(formatted, original);
        Ok(())
    })?;
    Ok(comparison.change())
}

fn write_in_place(input: &Input, variants: &Variants) -> Result<Change, Refusal> {
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
        format_input(input, variants, |formatted, original| {
            comparison.feed(formatted, original);
            out.write_all(formatted.as_bytes())
        })?;
        Ok::<_, Refusal>(matches!(comparison.change(), Change::Differs))
    })?;
    Ok(if replaced {
        Change::Differs
    } else {
        Change::Same
    })
}
