//! `xpgn check`: replay every game through the rules and report what is wrong with it.

use std::io::{self, Write};

use xpgn::games::{ChunkGames, PendingChunk, read_chunks};
use xpgn::pgn::{Game, ParsedGame, SpareGames};
use xpgn::pipeline::{Stopped, run_ordered};
use xpgn::replay::{Replay, check_game};
use xpgn::report::{GameReport, Locator, Reporter, Source, Summary};
use xpgn::rules::Variants;

use super::{
    ExitStatus, Failure, InputArgs, JobsArgs, ReportArgs, VariantArgs, WORKER_STACK_BYTES,
    output_failed, variants_and_inputs,
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
    let stdout = io::stdout().lock();
    let out = io::BufWriter::new(stdout);
    let mut reporter = args.report.reporter(out);
    let mut summary = Summary::default();
    let mut status = walked;
    let checker = Checker {
        variants: &variants,
        jobs,
        verbose: args.verbose,
    };
    for input in &inputs {
        summary.files += 1;
        match checker.input(input, reporter.as_mut(), &mut summary) {
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
    if let Err(e) = reporter.finish(&summary) {
        return output_failed(&e, "report", status);
    }
    let _ = io::stderr().flush();
    if status == ExitStatus::Success && summary.errors > 0 {
        status = ExitStatus::Findings;
    }
    status
}

struct Checker<'a> {
    variants: &'a Variants,
    /// Threads that check games; with one, games are checked on this thread.
    jobs: usize,
    verbose: bool,
}

/// A chunk's games with what checking each found.
struct Checked {
    games: ChunkGames,
    results: Vec<Replay>,
}

impl Checker<'_> {
    fn check(&self, pending: PendingChunk) -> Checked {
        let games = pending.parse();
        let results = games
            .games
            .iter()
            .map(|parsed| check_game(parsed, self.variants))
            .collect();
        Checked { games, results }
    }

    fn input(
        &self,
        input: &xpgn::source::Input,
        reporter: &mut dyn Reporter,
        summary: &mut Summary,
    ) -> Result<(), Failure> {
        let mut number = 0;
        let mut report = |source: Source<'_>, game: &ParsedGame, replay: &Replay| {
            number += 1;
            summary.add(&replay.diagnostics);
            if self.verbose {
                list_reading(source, &game.game);
            }
            reporter
                .game(&GameReport {
                    source,
                    number,
                    game: &game.game,
                    replay,
                })
                .map_err(Failure::Output)
        };
        let chunks = read_chunks(input).map_err(Failure::Read)?;
        if self.jobs == 1 {
            // One thread: each game is checked and reported as soon as it is read, and
            // the next is read into the lists of the games just reported.
            let mut spare = SpareGames::default();
            for pending in chunks {
                pending.map_err(Failure::Read)?.for_each_part(
                    &input.display,
                    &mut spare,
                    |source, games| {
                        games.iter().try_for_each(|game| {
                            report(source, game, &check_game(game, self.variants))
                        })
                    },
                )?;
            }
            return Ok(());
        }
        let chunks = chunks.map(|pending| pending.map_err(Failure::Read));
        let check = |pending| self.check(pending);
        let take = |checked: Checked| {
            let games = checked.games.games(&input.display);
            for ((source, game), replay) in games.zip(&checked.results) {
                report(source, game, replay)?;
            }
            Ok(())
        };
        run_ordered(self.jobs, WORKER_STACK_BYTES, chunks, check, take).map_err(|stopped| {
            match stopped {
                Stopped::Failed(failure) => failure,
                Stopped::Spawn(e) => Failure::Threads(e),
            }
        })
    }
}

/// `--verbose`: how the transcript reader took each line of a transcript: moves (by
/// whom, in a pasted thread), events, prose, page furniture, quotes, skipped move text.
fn list_reading(source: Source<'_>, game: &Game) {
    let mut locator = Locator::default();
    for reading in &game.reading {
        let location = locator.locate(source, reading.span.offset);
        let local = reading.span.offset.saturating_sub(source.offset);
        let text = source
            .text
            .get(local..local + reading.span.len)
            .unwrap_or_default();
        say!(
            "{}:{}: {}: {}",
            source.name,
            location.line,
            reading.node,
            text.trim()
        );
    }
}
