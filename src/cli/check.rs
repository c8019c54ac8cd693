//! `xpgn check`: read every game and report what is wrong with it.

use std::io::{self, Write};

use clap::ValueEnum;
use xpgn::games::read_games;
use xpgn::report::{GameReport, GithubReporter, HumanReporter, JsonReporter, Reporter, Summary};

use super::{Color, ExitStatus, InputArgs};

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    input: InputArgs,
    /// How to write diagnostics.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Colour in human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// No summary line.
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Human,
    Json,
    Github,
}

pub fn run(args: CheckArgs) -> ExitStatus {
    let inputs = match args.input.inputs() {
        Ok(inputs) => inputs,
        Err(status) => return status,
    };
    let stdout = io::stdout().lock();
    let out = io::BufWriter::new(stdout);
    let mut reporter: Box<dyn Reporter> = match args.format {
        Format::Human => Box::new(HumanReporter::new(out, args.color.enabled(), args.quiet)),
        Format::Json => Box::new(JsonReporter::new(out)),
        Format::Github => Box::new(GithubReporter::new(out)),
    };
    let mut summary = Summary::default();
    let mut status = ExitStatus::Success;
    for input in &inputs {
        summary.files += 1;
        match check_input(input, reporter.as_mut(), &mut summary) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return status,
            Err(e) => {
                eprintln!("xpgn: cannot read {}: {e}", input.display);
                status = ExitStatus::Error;
            }
        }
    }
    if let Err(e) = reporter.finish(&summary)
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        eprintln!("xpgn: cannot write the report: {e}");
        return ExitStatus::Error;
    }
    let _ = io::stderr().flush();
    if status == ExitStatus::Success && summary.errors > 0 {
        status = ExitStatus::Findings;
    }
    status
}

fn check_input(
    input: &xpgn::source::Input,
    reporter: &mut dyn Reporter,
    summary: &mut Summary,
) -> io::Result<()> {
    let mut number = 0;
    for chunk in read_games(input)? {
        let chunk = chunk?;
        for parsed in &chunk.games {
            number += 1;
            summary.add(&parsed.diagnostics);
            reporter.game(&GameReport {
                source: chunk.source(&input.display),
                number,
                game: &parsed.game,
                diagnostics: &parsed.diagnostics,
            })?;
        }
    }
    Ok(())
}
