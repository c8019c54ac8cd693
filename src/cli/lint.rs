//! `xpgn lint`: everything `check` finds plus the style rules, with rule selection from
//! flags, `xpgn.yaml` and `{xpgn: allow=...}` comments, and `--fix`.

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use xpgn::diagnostic::Code;
use xpgn::games::{PendingChunk, read_chunks};
use xpgn::lint::config::Config;
use xpgn::lint::fix::{FixError, Fixer};
use xpgn::lint::{Scope, Selection, codes, explain, lint_game_played, lint_game_reusing};
use xpgn::pgn::ParsedGame;
use xpgn::pipeline::{Stopped, run_ordered};
use xpgn::replay::{PlayAsRead, PlayedAsRead};
use xpgn::report::{GameReport, Locator, Rendered, RenderedSize, Reporter, Source, Summary};
use xpgn::rules::Variants;
use xpgn::source::{Compression, Input, InputFormat, collect_inputs, decode};

use super::{
    ExitStatus, Failure, InputKind, JobsArgs, REPORTED_AT_ONCE, ReportArgs, VariantArgs,
    WORKER_STACK_BYTES, output_failed,
};

#[derive(clap::Args, Debug)]
// The paths are needed but with `--explain`, which clap's own usage line cannot say.
#[command(override_usage = "xpgn lint [OPTIONS] <PATH>...\n       xpgn lint --explain <CODE>")]
pub struct LintArgs {
    /// Files or directories (walked for .pgn, .pgn.gz, .pgn.zst, .pgn.bz2, .txt); `-` is standard input.
    #[arg(required_unless_present = "explain", value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Read every input as this format instead of guessing from the file name.
    #[arg(long, value_enum)]
    input: Option<InputKind>,
    #[command(flatten)]
    variant: VariantArgs,
    /// Rewrite files in place with every fixable finding fixed (the rest is reported).
    #[arg(long)]
    fix: bool,
    /// Write nothing: print a unified diff of what `--fix` would change, instead of the
    /// findings; exit 1 if any file would change.
    #[arg(long)]
    diff: bool,
    /// Only these rules (comma-separated codes, or `all`), instead of the configuration's.
    #[arg(long, value_delimiter = ',', value_name = "CODES")]
    select: Vec<String>,
    /// Leave out these rules (comma-separated codes), on top of the configuration's.
    #[arg(long, value_delimiter = ',', value_name = "CODES")]
    ignore: Vec<String>,
    /// The configuration file to use, instead of the `xpgn.yaml` found upward from each file.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Print what a rule finds and why (`all`: every rule, one line each), then exit.
    #[arg(long, value_name = "CODE")]
    explain: Option<String>,
    #[command(flatten)]
    report: ReportArgs,
    #[command(flatten)]
    jobs: JobsArgs,
}

pub fn run(args: LintArgs) -> ExitStatus {
    if let Some(name) = &args.explain {
        return explain_rules(name);
    }
    // The variant options print their own errors.
    let variants = match args.variant.variants() {
        Ok(variants) => variants,
        Err(status) => return status,
    };
    match Linter::new(&args, variants) {
        Ok(linter) => linter.run(&args),
        Err(message) => {
            say!("xpgn: {message}");
            ExitStatus::Error
        }
    }
}

fn explain_rules(name: &str) -> ExitStatus {
    let mut out = String::new();
    if name == "all" {
        for code in Code::ALL {
            let doc = explain(code);
            out.push_str(&format!(
                "{:<26} {:<8} {:<7} {}{}\n",
                code.name(),
                code.category(),
                code.severity().as_str(),
                doc.summary,
                if doc.fixable { " (fixable)" } else { "" }
            ));
        }
    } else {
        match Code::from_name(name) {
            Some(code) => out = explain(code).render(),
            None => {
                say!("xpgn: {}", xpgn::lint::unknown_rule(name));
                return ExitStatus::Error;
            }
        }
    }
    super::finish_output(io::stdout().lock().write_all(out.as_bytes()))
}

/// What every file of a run shares, and the configurations found so far.
struct Linter {
    variants: Variants,
    inputs: Vec<Input>,
    select: Option<HashSet<Code>>,
    ignore: HashSet<Code>,
    /// `--config`, for every file.
    config: Option<Rc<Config>>,
    /// Found upward, by the folder looked from.
    found: HashMap<PathBuf, Option<Rc<Config>>>,
    /// The status the run ends with at least: 2 when a path could not be read.
    walked: ExitStatus,
}

/// What linting one file found.
#[derive(Default)]
struct FileOutcome {
    findings: usize,
    fixed: usize,
}

/// Why one file's linting stopped.
enum Stop {
    /// This file could not be linted or fixed (the message says why); the run goes on.
    File(String),
    /// Standard output failed: the run ends.
    Output(std::io::Error),
}

impl Stop {
    fn of(failure: Failure, name: &str) -> Stop {
        match failure {
            Failure::Read(e) => Stop::File(format!("cannot read {name}: {e}")),
            Failure::Output(e) => Stop::Output(e),
            Failure::Threads(e) => Stop::File(format!("cannot start threads for {name}: {e}")),
        }
    }
}

impl Linter {
    fn new(args: &LintArgs, variants: Variants) -> Result<Linter, String> {
        let format = args.input.map(InputKind::format);
        let (inputs, unreadable) = collect_inputs(&args.paths, format);
        let walked = super::report_unreadable(&unreadable);
        let select = (!args.select.is_empty())
            .then(|| codes(&args.select))
            .transpose()?;
        let ignore = codes(&args.ignore)?;
        let config = args
            .config
            .as_deref()
            .map(Config::load)
            .transpose()?
            .map(Rc::new);
        Ok(Linter {
            variants,
            inputs,
            select,
            ignore,
            config,
            found: HashMap::new(),
            walked,
        })
    }

    fn run(mut self, args: &LintArgs) -> ExitStatus {
        let mut out = super::report_output();
        let reporter = match args.report.reporter(true) {
            Ok(reporter) => reporter,
            Err(message) => {
                say!("xpgn: {message}");
                return ExitStatus::Error;
            }
        };
        let mut summary = Summary::default();
        let mut status = self.walked;
        let mut findings = 0;
        for input in std::mem::take(&mut self.inputs) {
            summary.files += 1;
            let outcome = match self.settings(&input, args) {
                Err(message) => Err(Stop::File(message)),
                Ok((variants, selection)) => {
                    let run = FileRun {
                        input: &input,
                        variants: &variants,
                        selection: &selection,
                        reporter: reporter.as_ref(),
                        jobs: args.jobs.threads(),
                        rendered_size: RenderedSize::default(),
                    };
                    if args.diff {
                        run.diff(&mut out)
                    } else if args.fix {
                        run.fix(&mut out, &mut summary)
                    } else {
                        run.report(&mut out, &mut summary)
                            .map_err(|f| Stop::of(f, &input.display))
                    }
                }
            };
            match outcome {
                Ok(outcome) => {
                    findings += outcome.findings;
                    if outcome.fixed > 0 && args.diff {
                        say!(
                            "xpgn: {}: would fix {} finding{}",
                            input.display,
                            outcome.fixed,
                            if outcome.fixed == 1 { "" } else { "s" }
                        );
                    } else if outcome.fixed > 0 {
                        say!(
                            "xpgn: {}: fixed {} finding{}",
                            input.display,
                            outcome.fixed,
                            if outcome.fixed == 1 { "" } else { "s" }
                        );
                    }
                }
                Err(Stop::File(message)) => {
                    say!("xpgn: {message}");
                    status = ExitStatus::Error;
                }
                Err(Stop::Output(e)) => return output_failed(&e, "report", status),
            }
        }
        // A diff is the whole output: no summary follows it.
        let finished = if args.diff {
            out.flush()
        } else {
            reporter.finish(&summary, &mut out)
        };
        if let Err(e) = finished {
            return output_failed(&e, "report", status);
        }
        if status == ExitStatus::Success && findings > 0 {
            status = ExitStatus::Findings;
        }
        args.report.exit_status(status)
    }

    /// The variants and selection for one file: its configuration, then the flags.
    fn settings(
        &mut self,
        input: &Input,
        args: &LintArgs,
    ) -> Result<(Variants, Selection), String> {
        let config = match &self.config {
            Some(config) => Some(Rc::clone(config)),
            None => {
                let folder = match &input.path {
                    Some(path) => path.parent().map_or_else(PathBuf::new, Path::to_path_buf),
                    None => PathBuf::from("."),
                };
                match self.found.get(&folder) {
                    Some(config) => config.clone(),
                    None => {
                        let config = Config::find(&folder)
                            .map(|path| Config::load(&path))
                            .transpose()?
                            .map(Rc::new);
                        self.found.insert(folder, config.clone());
                        config
                    }
                }
            }
        };
        let mut selection = match (&config, &input.path) {
            (Some(config), Some(path)) => config.selection_for(path),
            (Some(config), None) => config.selection_for(Path::new("-")),
            (None, _) => Selection::default(),
        };
        if let Some(select) = &self.select {
            selection.select = Some(select.clone());
        }
        selection.ignore.extend(&self.ignore);
        let mut variants = self.variants.clone();
        // The flag wins over the configuration.
        if args.variant.variant.is_none()
            && let Some(name) = config.as_ref().and_then(|c| c.variant.as_deref())
        {
            variants.default = variants.find(name).ok_or_else(|| {
                format!(
                    "{}: unknown variant `{name}` (supported: {})",
                    config
                        .as_ref()
                        .map_or_else(String::new, |c| c.path.display().to_string()),
                    variants.ids()
                )
            })?;
        }
        Ok((variants, selection))
    }
}

/// Linting one file with its settings.
struct FileRun<'a> {
    input: &'a Input,
    variants: &'a Variants,
    selection: &'a Selection,
    reporter: &'a dyn Reporter,
    /// Threads that lint games; with one, games are linted on this thread.
    jobs: usize,
    rendered_size: RenderedSize,
}

/// What linting a chunk of games found, ready to write.
struct Linted {
    rendered: Rendered,
    summary: Summary,
}

/// Writes what was linted so far and empties it.
type ReportOf<'r, E> = &'r mut dyn FnMut(&mut Linted) -> Result<(), E>;

impl<'a> FileRun<'a> {
    fn scope(&self) -> Scope {
        let writable = self.input.path.is_some() && self.input.compression == Compression::None;
        let text = matches!(
            self.input.format,
            InputFormat::Pgn | InputFormat::Transcript
        );
        Scope {
            fixable: writable && text,
            pgn: self.input.format == InputFormat::Pgn,
        }
    }

    /// A replay of the moves of orthodox games as they are read, where the default variant
    /// is orthodox chess and no event starts with the game (as `check`'s).
    fn playing(&self) -> Option<PlayAsRead<'_>> {
        (self.variants.default.slug == "standard" && self.variants.start_events.is_empty())
            .then(|| PlayAsRead::spelling(self.variants))
    }

    /// `list`: room for the findings, the last game's list.
    fn lint(
        &self,
        source: Source<'_>,
        parsed: &ParsedGame,
        list: Vec<xpgn::diagnostic::Diagnostic>,
    ) -> xpgn::replay::Replay {
        lint_game_reusing(
            parsed,
            source,
            self.variants,
            self.selection,
            self.scope(),
            list,
        )
    }

    /// Lints and renders a chunk's games.
    fn lint_chunk(&self, pending: PendingChunk) -> Linted {
        let mut linted = Linted {
            rendered: self.rendered_size.new_rendered(),
            summary: Summary::default(),
        };
        let Ok(()) = self.lint_chunk_into(pending, &mut linted, None::<ReportOf<Infallible>>);
        linted
    }

    /// [`FileRun::lint_chunk`] into `linted`: one thread renders every chunk into the
    /// same text (fresh pages for the kernel to clear each time were it allocated anew),
    /// and hands it to `report` every [`REPORTED_AT_ONCE`] bytes, to write and empty.
    fn lint_chunk_into<E>(
        &self,
        pending: PendingChunk,
        linted: &mut Linted,
        mut report: Option<ReportOf<'_, E>>,
    ) -> Result<(), E> {
        let mut locator = Locator::default();
        // Each game's findings, once reported, leave their list to the next game.
        let mut list = Vec::new();
        let mut playing = self.playing();
        let name = &self.input.display;
        let lint_part = |source: Source<'_>,
                         _: &_,
                         games: &[ParsedGame],
                         played: &[Option<PlayedAsRead>]| {
            for (parsed, played) in games.iter().zip(played) {
                let room = std::mem::take(&mut list);
                let replay = match played {
                    Some(played) => lint_game_played(
                        parsed,
                        played,
                        source,
                        (self.selection, self.scope()),
                        room,
                    ),
                    None => self.lint(source, parsed, room),
                };
                linted.summary.add(&replay.diagnostics);
                let report = GameReport {
                    source,
                    game: &parsed.game,
                    replay: &replay,
                };
                linted.rendered.add(self.reporter, &report, &mut locator);
                list = replay.diagnostics;
            }
            match report.as_mut() {
                Some(report) if linted.rendered.text_len() >= REPORTED_AT_ONCE => report(linted),
                _ => Ok(()),
            }
        };
        pending.for_each_part_playing(name, playing.as_mut(), lint_part)?;
        self.rendered_size.note(&linted.rendered);
        Ok(())
    }

    /// Lints the file chunk by chunk and reports every finding.
    fn report(&self, out: &mut dyn Write, summary: &mut Summary) -> Result<FileOutcome, Failure> {
        let mut outcome = FileOutcome::default();
        let mut number = 1;
        let mut write = |linted: &Linted| {
            outcome.findings += linted.summary.errors + linted.summary.warnings;
            summary.merge(&linted.summary);
            self.reporter
                .write(&linted.rendered, out, number)
                .map_err(Failure::Output)?;
            number += linted.rendered.len();
            Ok(())
        };
        let chunks = read_chunks(self.input)
            .map_err(Failure::Read)?
            .map(|pending| pending.map_err(Failure::Read));
        if self.jobs == 1 {
            let mut linted = Linted {
                rendered: Rendered::default(),
                summary: Summary::default(),
            };
            let mut report = |linted: &mut Linted| {
                write(linted)?;
                linted.rendered.clear();
                linted.summary = Summary::default();
                Ok(())
            };
            for pending in chunks {
                self.lint_chunk_into(pending?, &mut linted, Some(&mut report))?;
            }
            report(&mut linted)?;
        } else {
            let lint = |pending| self.lint_chunk(pending);
            let write = |linted: Linted| write(&linted);
            run_ordered(self.jobs, WORKER_STACK_BYTES, chunks, lint, write).map_err(|stopped| {
                match stopped {
                    Stopped::Failed(failure) => failure,
                    Stopped::Spawn(e) => Failure::Threads(e),
                }
            })?;
        }
        Ok(outcome)
    }

    /// The file `--fix` rewrites, and the fixer for it; or why it cannot be fixed.
    fn fixable(&self) -> Result<(&'a Path, Fixer<'a>), Stop> {
        let name = &self.input.display;
        let Some(path) = &self.input.path else {
            return Err(Stop::File(
                "--fix needs files, not standard input".to_owned(),
            ));
        };
        if !self.scope().fixable {
            return Err(Stop::File(format!(
                "{name}: --fix rewrites plain PGN files and transcripts, not compressed files or game documents"
            )));
        }
        let fixer = Fixer {
            variants: self.variants,
            selection: self.selection,
            scope: self.scope(),
            format: self.input.format,
            name,
        };
        Ok((path, fixer))
    }

    /// `--diff`: fixes the file in memory, as `--fix` would, and writes a unified diff of
    /// the change; the outcome counts the fixes as both findings and fixed.
    fn diff(&self, out: &mut dyn Write) -> Result<FileOutcome, Stop> {
        let name = &self.input.display;
        let (path, fixer) = self.fixable()?;
        let read_error = |e: io::Error| Stop::File(format!("cannot read {name}: {e}"));
        let fix_error = |e: FixError| match e {
            FixError::Read(e) | FixError::Write(e) => read_error(e),
            FixError::Refused(why) => Stop::File(format!("{name}: {why}")),
        };
        let chunks = read_chunks(self.input).map_err(read_error)?;
        let raw = std::fs::File::open(path).map_err(read_error)?;
        let mut fixed_bytes = Vec::new();
        let fixed = fixer
            .fix(chunks, io::BufReader::new(raw), &mut fixed_bytes)
            .map_err(fix_error)?;
        if !fixed.changed {
            return Ok(FileOutcome::default());
        }
        let original = std::fs::read(path).map_err(read_error)?;
        let (before, _) = decode(&original, 0);
        let (after, _) = decode(&fixed_bytes, 0);
        super::write_diff(out, name, &before, &after).map_err(Stop::Output)?;
        Ok(FileOutcome {
            findings: fixed.fixes,
            fixed: fixed.fixes,
        })
    }

    /// Fixes the file as it streams (see [`xpgn::lint::fix`]), replaces it atomically if
    /// anything changed, and reports what is left: of the new file, or of the file as it
    /// was when it is not rewritten.
    fn fix(&self, out: &mut dyn Write, summary: &mut Summary) -> Result<FileOutcome, Stop> {
        let name = &self.input.display;
        let (path, fixer) = self.fixable()?;
        let mut fixes = 0;
        let written = xpgn::write::replace_file_with(path, |out| {
            let chunks = read_chunks(self.input).map_err(FixError::Read)?;
            let raw = std::fs::File::open(path).map_err(FixError::Read)?;
            let fixed = fixer.fix(chunks, io::BufReader::new(raw), out)?;
            fixes = fixed.fixes;
            Ok::<_, FixError>(fixed.changed)
        });
        let mut outcome = self.report(out, summary).map_err(|f| Stop::of(f, name))?;
        match written {
            Ok(_) => {
                outcome.fixed = fixes;
                Ok(outcome)
            }
            Err(FixError::Read(e)) => Err(Stop::File(format!("cannot read {name}: {e}"))),
            Err(FixError::Write(e)) => Err(Stop::File(format!("cannot write {name}: {e}"))),
            Err(FixError::Refused(why)) => Err(Stop::File(format!("{name}: {why}"))),
        }
    }
}
