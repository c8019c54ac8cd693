//! `xpgn fmt`: print games laid out canonically, check that files already are, or
//! rewrite them in place.

use std::io::{self, Write};

use xpgn::games::read_games;
use xpgn::layout::write_game;
use xpgn::source::{Compression, Input, InputFormat};
use xpgn::write::replace_file_with;

use super::{ExitStatus, InputArgs};

#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Print nothing; exit 1 if any file would change.
    #[arg(long, conflicts_with = "write")]
    check: bool,
    /// Rewrite files in place (atomically: a synced temporary file renamed over the
    /// original; a symbolic link only to a file in its own directory tree).
    #[arg(long)]
    write: bool,
}

pub fn run(args: FmtArgs) -> ExitStatus {
    let inputs = match args.input.inputs() {
        Ok(inputs) => inputs,
        Err(status) => return status,
    };
    let mut status = ExitStatus::Success;
    for input in &inputs {
        let outcome = if matches!(input.format, InputFormat::Transcript) {
            Err(Refusal::Usage(format!(
                "{} is a forum transcript; fmt lays out PGN files",
                input.display
            )))
        } else if args.write {
            write_in_place(input)
        } else if args.check {
            check(input)
        } else {
            print(input)
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
                write_game(&parsed.game, &mut formatted);
            }
            sink(&formatted, source.text)?;
        }
    }
    Ok(())
}

fn print(input: &Input) -> Result<Change, Refusal> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    format_input(input, |formatted, _| out.write_all(formatted.as_bytes()))?;
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

fn check(input: &Input) -> Result<Change, Refusal> {
    let mut comparison = StreamComparison::default();
    format_input(input, |formatted, original| {
        comparison.feed(formatted, original);
        Ok(())
    })?;
    Ok(comparison.change())
}

fn write_in_place(input: &Input) -> Result<Change, Refusal> {
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
        format_input(input, |formatted, original| {
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
