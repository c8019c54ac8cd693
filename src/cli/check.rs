//! `xpgn check`: replay every game through the rules and report what is wrong with it.

use std::io::{self, Write};
use std::num::NonZeroUsize;

use rayon::prelude::*;
use xpgn::games::{ChunkGames, PendingChunk, read_chunks};
use xpgn::pgn::{Game, ParsedGame, SpareGames};
use xpgn::replay::{Replay, check_game};
use xpgn::report::{GameReport, Locator, Reporter, Source, Summary};
use xpgn::rules::Variants;

use super::{
    ExitStatus, Failure, InputArgs, ReportArgs, VariantArgs, output_failed, variants_and_inputs,
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
    /// Games checked in parallel (default: all cores; capped at 64 threads, or at the
    /// number of cores where that is larger); output stays in input order.
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<NonZeroUsize>,
}

/// Text read ahead before a batch is checked: enough to keep every core busy, small
/// enough that memory stays flat whatever the input's size.
const BATCH_BYTES: usize = 1 << 18;

/// Replaying a game recurses once per level of variations, up to
/// [`xpgn::pgn::MAX_VARIATION_DEPTH`]: as much stack as the main thread has (a worker
/// gets 2 MiB), of which only the pages used are touched.
const WORKER_STACK_BYTES: usize = 8 << 20;

/// The most threads `--jobs` starts on a machine with fewer cores: room to ask for more
/// threads than cores (a machine shared with other work), without thousands of stacks.
const MAX_JOBS: usize = 64;

pub fn run(args: CheckArgs) -> ExitStatus {
    let (variants, inputs, walked) = match variants_and_inputs(&args.variant, &args.input) {
        Ok(read) => read,
        Err(status) => return status,
    };
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    // More threads than cores check no faster, and each costs a stack: `--jobs 100000`
    // would start thousands for nothing (or fail to).
    let jobs = args
        .jobs
        .map_or(cores, |jobs| jobs.get().min(cores.max(MAX_JOBS)));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(WORKER_STACK_BYTES)
        .build();
    let pool = match pool {
        Ok(pool) => pool,
        Err(e) => {
            say!("xpgn: cannot start {jobs} threads: {e}");
            return ExitStatus::Error;
        }
    };
    let stdout = io::stdout().lock();
    let out = io::BufWriter::new(stdout);
    let mut reporter = args.report.reporter(out);
    let mut summary = Summary::default();
    let mut status = walked;
    let checker = Checker {
        variants: &variants,
        pool: (jobs > 1).then_some(&pool),
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
    /// None: check on this thread.
    pool: Option<&'a rayon::ThreadPool>,
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
        let mut chunks = read_chunks(input).map_err(Failure::Read)?;
        let Some(pool) = self.pool else {
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
        };
        let mut batch = Vec::new();
        loop {
            let mut bytes = 0;
            let mut ended = true;
            for pending in chunks.by_ref() {
                let pending = pending.map_err(Failure::Read)?;
                bytes += pending.len();
                batch.push(pending);
                if bytes >= BATCH_BYTES {
                    ended = false;
                    break;
                }
            }
            let checked: Vec<Checked> =
                pool.install(|| batch.par_drain(..).map(|p| self.check(p)).collect());
            for checked in &checked {
                let games = checked.games.games(&input.display);
                for ((source, game), replay) in games.zip(&checked.results) {
                    report(source, game, replay)?;
                }
            }
            if ended {
                return Ok(());
            }
        }
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
