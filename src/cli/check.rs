//! `xpgn check`: replay every game through the rules and report what is wrong with it.

use std::convert::Infallible;
use std::io::{self, Write};

use xpgn::games::{PendingChunk, read_chunks};
use xpgn::pgn::{Game, ParsedGame};
use xpgn::pipeline::{Stopped, run_ordered};
use xpgn::replay::{PlayAsRead, PlayedAsRead, check_game, check_game_played};
use xpgn::report::{GameReport, Locator, Rendered, RenderedSize, Reporter, Source, Summary};
use xpgn::rules::Variants;

use super::{
    ExitStatus, Failure, InputArgs, JobsArgs, REPORTED_AT_ONCE, ReportArgs, VariantArgs,
    WORKER_STACK_BYTES, output_failed, variants_and_inputs,
};

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    variant: VariantArgs,
    #[command(flatten)]
    report: ReportArgs,
    /// Also list the prose lines of forum transcripts, which the rules skip, on standard
    /// error (`FILE:LINE: prose: TEXT`).
    #[arg(short, long)]
    verbose: bool,
    #[command(flatten)]
    jobs: JobsArgs,
}

pub fn run(args: CheckArgs) -> ExitStatus {
    let (variants, inputs, walked) = match variants_and_inputs(&args.variant, &args.input) {
        Ok(read) => read,
        Err(status) => return status,
    };
    let jobs = args.jobs.threads();
    let mut out = super::report_output();
    let reporter = match args.report.reporter(false) {
        Ok(reporter) => reporter,
        Err(message) => {
            say!("xpgn: {message}");
            return ExitStatus::Error;
        }
    };
    let mut summary = Summary::default();
    let mut status = walked;
    let checker = Checker {
        variants: &variants,
        reporter: reporter.as_ref(),
        jobs,
        verbose: args.verbose,
        rendered_size: RenderedSize::default(),
    };
    for input in &inputs {
        summary.files += 1;
        match checker.input(input, &mut out, &mut summary) {
            Ok(()) => {}
            Err(Failure::Output(e)) => return output_failed(&e, "report", status),
            Err(Failure::Read(e)) => {
                say!("xpgn: cannot read {}: {e}", input.display);
                status = ExitStatus::Error;
            }
            Err(Failure::Threads(e)) => {
                say!("xpgn: cannot start {jobs} threads: {e}");
                return ExitStatus::Error;
            }
        }
    }
    if let Err(e) = reporter.finish(&summary, &mut out) {
        return output_failed(&e, "report", status);
    }
    let _ = io::stderr().flush();
    if status == ExitStatus::Success && summary.errors > 0 {
        status = ExitStatus::Findings;
    }
    args.report.exit_status(status)
}

struct Checker<'a> {
    variants: &'a Variants,
    reporter: &'a dyn Reporter,
    /// Threads that check games; with one, games are checked on this thread.
    jobs: usize,
    verbose: bool,
    rendered_size: RenderedSize,
}

/// What checking a run of games found, ready to write.
#[derive(Default)]
struct Checked {
    rendered: Rendered,
    summary: Summary,
    /// `--verbose`: how the transcripts' lines were read, a line each.
    readings: Vec<String>,
}

impl Checker<'_> {
    /// Where every game is orthodox chess unless its tags say otherwise, its moves are
    /// played as they are read (as the rules core would replay them from the tree, which
    /// holds them only where that replay gives up).
    fn playing(&self) -> Option<PlayAsRead<'_>> {
        (self.variants.default.slug == "standard" && self.variants.start_events.is_empty())
            .then(|| PlayAsRead::new(self.variants))
    }

    /// Checks and renders the games of one part.
    fn check_part(
        &self,
        source: Source<'_>,
        games: &[ParsedGame],
        played: &[Option<PlayedAsRead>],
        locator: &mut Locator,
        checked: &mut Checked,
    ) {
        for (game, played) in games.iter().zip(played) {
            let replay = match played {
                Some(played) => check_game_played(game, played),
                None => check_game(game, self.variants),
            };
            checked.summary.add(&replay.diagnostics);
            if self.verbose {
                list_reading(source, &game.game, &mut checked.readings);
            }
            let report = GameReport {
                source,
                game: &game.game,
                replay: &replay,
            };
            checked.rendered.add(self.reporter, &report, locator);
        }
    }

    fn input(
        &self,
        input: &xpgn::source::Input,
        out: &mut dyn Write,
        summary: &mut Summary,
    ) -> Result<(), Failure> {
        let name = &input.display;
        let mut number = 1;
        let mut write = |checked: &Checked| {
            summary.merge(&checked.summary);
            for reading in &checked.readings {
                say!("{reading}");
            }
            self.reporter
                .write(&checked.rendered, out, number)
                .map_err(Failure::Output)?;
            number += checked.rendered.len();
            Ok(())
        };
        let chunks = read_chunks(input)
            .map_err(Failure::Read)?
            .map(|pending| pending.map_err(Failure::Read));
        if self.jobs == 1 {
            // One thread: games are reported as they are checked, some kilobytes of
            // reports at a time.
            let mut locator = Locator::default();
            let mut checked = Checked::default();
            let mut playing = self.playing();
            let mut report = |checked: &mut Checked| {
                write(checked)?;
                checked.rendered.clear();
                checked.summary = Summary::default();
                checked.readings.clear();
                Ok(())
            };
            for pending in chunks {
                pending?.for_each_part_playing(
                    name,
                    playing.as_mut(),
                    |source, _, games, played| {
                        self.check_part(source, games, played, &mut locator, &mut checked);
                        if checked.rendered.text_len() >= REPORTED_AT_ONCE {
                            report(&mut checked)?;
                        }
                        Ok(())
                    },
                )?;
            }
            return report(&mut checked);
        }
        // Threads: each checks and renders whole chunks, which are written in order.
        let check = |pending: PendingChunk| {
            let mut checked = Checked {
                rendered: self.rendered_size.new_rendered(),
                ..Checked::default()
            };
            let mut locator = Locator::default();
            let mut playing = self.playing();
            let Ok(_) = pending.for_each_part_playing(
                name,
                playing.as_mut(),
                |source, _, games, played| {
                    self.check_part(source, games, played, &mut locator, &mut checked);
                    Ok::<(), Infallible>(())
                },
            );
            self.rendered_size.note(&checked.rendered);
            checked
        };
        run_ordered(self.jobs, WORKER_STACK_BYTES, chunks, check, |checked| {
            write(&checked)
        })
        .map_err(|stopped| match stopped {
            Stopped::Failed(failure) => failure,
            Stopped::Spawn(e) => Failure::Threads(e),
        })
    }
}

/// `--verbose`: how the transcript reader took each line of a transcript: moves (by
/// whom, in a pasted thread), events, prose, page furniture, quotes, skipped move text.
fn list_reading(source: Source<'_>, game: &Game, out: &mut Vec<String>) {
    let mut locator = Locator::default();
    for reading in &game.reading {
        let location = locator.locate(source, reading.span.offset);
        let local = reading.span.offset.saturating_sub(source.offset);
        let text = source
            .text
            .get(local..local + reading.span.len)
            .unwrap_or_default();
        out.push(format!(
            "{}:{}: {}: {}",
            source.name,
            location.line,
            reading.node,
            text.trim()
        ));
    }
}
