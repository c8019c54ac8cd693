//! Subcommands, one file each, and what they share.

/// `eprintln!` for every message of the command line: file names, tag values and
/// written moves come from the input, and reach the terminal only with their control
/// characters made visible (`\u{1b}`), so a file cannot steer the terminal showing it.
macro_rules! say {
    ($($message:tt)*) => {
        eprintln!("{}", xpgn::report::terminal_safe(&format!($($message)*)))
    };
}

mod check;
mod completions;
mod convert;
mod fmt;
mod lint;
mod man;
mod moves;
mod perft;
mod show;
mod variants;

use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use xpgn::report;
use xpgn::rules::{EventStart, Variant, Variants, meta};
use xpgn::source::{Input, InputFormat, SourceError, collect_inputs, read_settings_file};

/// How the process ends (`spec/cli.md`): scripts rely on these numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitStatus {
    /// Nothing to report.
    Success = 0,
    /// Findings: an error diagnostic, or a file `fmt --check` would change.
    Findings = 1,
    /// Usage error, unreadable input, or an internal failure.
    Error = 2,
}

#[derive(Parser, Debug)]
#[command(
    name = "xpgn",
    version,
    about = "Validate, format and convert chess game records with extended, variant-aware notation"
)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Replay every game through the rules and report every syntax error, illegal move and inconsistency.
    Check(check::CheckArgs),
    /// Everything check finds plus style rules (stable codes, --fix, xpgn.yaml, --explain).
    Lint(lint::LintArgs),
    /// Print games in canonical form: canonical SAN and move numbers, tags in standard order, 80-column movetext.
    Fmt(fmt::FmtArgs),
    /// Write games in another notation: SAN, long notation, UCI, FEN per ply, JSON, YAML, PGN.
    Convert(convert::ConvertArgs),
    /// Draw a position of a game: a text board with its FEN and event state, an SVG or PNG
    /// picture, or the game as an animated GIF.
    Show(show::ShowArgs),
    /// List the legal moves of a position, one per line in canonical SAN.
    Moves(moves::MovesArgs),
    /// Count the leaf nodes of the legal move tree (rules testing).
    Perft(perft::PerftArgs),
    /// List the variants xpgn plays (built in, and those of --variant-file).
    Variants(variants::VariantsArgs),
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell).
    Completions(completions::CompletionsArgs),
    /// Print the manual page (roff) of xpgn, or of one subcommand.
    Man(man::ManArgs),
}

/// Input selection shared by the subcommands that read games.
#[derive(clap::Args, Debug)]
pub struct InputArgs {
    /// Files or directories (walked for .pgn, .pgn.gz, .pgn.zst, .pgn.bz2, .txt); `-` is standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Read every input as this format instead of guessing from the file name.
    #[arg(long, value_enum)]
    input: Option<InputKind>,
}

/// The rules for games that do not name theirs, and variants read from files.
#[derive(clap::Args, Debug)]
pub struct VariantArgs {
    /// Variant of games without a `[Variant]` tag (default: the one of --variant-file, else
    /// standard; `xpgn variants` lists them).
    #[arg(long, value_name = "NAME")]
    variant: Option<String>,
    /// A variant defined in YAML (as the files under `variants/` in xpgn's repository);
    /// games name it by its name, id or an alias. May be repeated.
    #[arg(long = "variant-file", value_name = "FILE")]
    variant_files: Vec<PathBuf>,
    /// Events running from the start (Event Chess), comma-separated, each as in
    /// `[%event ...]`: for `moves` and `perft`, and for games without a `[Variant]` tag.
    #[arg(long, value_name = "LIST")]
    events: Option<String>,
}

impl VariantArgs {
    /// The variants of this run, or exit status 2 with messages on standard error when
    /// a file is unreadable or wrong, or the named variant is unknown.
    fn variants(&self) -> Result<Variants, ExitStatus> {
        let mut loaded: Vec<&'static Variant> = Vec::new();
        for path in &self.variant_files {
            let name = path.display().to_string();
            let text = read_settings_file(path).map_err(|e| {
                say!("xpgn: cannot read {name}: {e}");
                ExitStatus::Error
            })?;
            match Variant::from_yaml(&text) {
                // A run's variants live as long as the process: leaking keeps the
                // `&'static Variant` every game report borrows its name from.
                Ok(variant) => loaded.push(Box::leak(Box::new(variant))),
                Err(errors) => {
                    let handler = report::plain_handler();
                    let source = report::Source {
                        name: &name,
                        text: &text,
                        offset: 0,
                        line: 0,
                    };
                    for error in &errors {
                        eprint!(
                            "{}",
                            report::render_definition_error(&handler, error, source)
                        );
                    }
                    let problems = match errors.len() {
                        1 => "1 problem".to_owned(),
                        n => format!("{n} problems"),
                    };
                    say!("xpgn: {name} does not define a variant ({problems})");
                    return Err(ExitStatus::Error);
                }
            }
        }
        let mut variants = Variants::with_default(Variant::by_name("standard").expect("built in"));
        variants.loaded = loaded;
        variants.default = match (&self.variant, variants.loaded.first()) {
            (Some(name), _) => variants.find(name).ok_or_else(|| {
                say!(
                    "xpgn: unknown variant `{name}` (supported: {}; or define it in YAML and pass --variant-file)",
                    variants.ids()
                );
                ExitStatus::Error
            })?,
            (None, Some(first)) => first,
            (None, None) => variants.default,
        };
        variants.start_events = self.start_events(&variants)?;
        Ok(variants)
    }

    /// The events of `--events`, checked against the rules of tagless games.
    fn start_events(&self, variants: &Variants) -> Result<Vec<EventStart>, ExitStatus> {
        let usage = |message: String| {
            say!("xpgn: --events: {message}");
            ExitStatus::Error
        };
        let mut started: Vec<EventStart> = Vec::new();
        let mut listed = variants.default.start_position().clone();
        for item in self.events.iter().flat_map(|list| list.split(',')) {
            // The same words as an `[%event ...]` command.
            let command = xpgn::command::parse_event(item, 0).map_err(|d| {
                usage(match &d.help {
                    Some(help) => format!("{} ({help})", d.message),
                    None => d.message.into_owned(),
                })
            })?;
            let number = command.number.node;
            let label = xpgn::command::EventLabel(number);
            if !variants.default.events && variants.default.slug != "standard" {
                return Err(usage(format!(
                    "events run only in Event Chess, not in {}",
                    variants.default.name
                )));
            }
            let event = xpgn::rules::events::find(number, command.older).ok_or_else(|| {
                usage(if command.older {
                    format!("the older wording of event #{label} is not supported")
                } else {
                    format!("event #{label} is not supported")
                })
            })?;
            if !command.choices.is_empty() && !event.takes_choices() {
                return Err(usage(format!(
                    "event #{label} {} takes no choices",
                    event.name()
                )));
            }
            // Each in the position of the ones before it (EC-1).
            if let Some(violation) = meta::refusal(&listed, number, None) {
                return Err(usage(violation.to_string()));
            }
            listed
                .start_event(event, None)
                .expect("EC-1 left room for it");
            started.push(EventStart {
                event,
                choices: command.choices.iter().map(|c| c.node).collect(),
            });
        }
        Ok(started)
    }
}

/// How `moves` and `variants` print their lists: lines for people, JSON for scripts.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum ListFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum InputKind {
    Pgn,
    Transcript,
    /// Game documents as `convert --to json` writes them.
    Json,
    /// Game documents as `convert --to yaml` writes them.
    Yaml,
}

impl InputKind {
    fn format(self) -> InputFormat {
        match self {
            InputKind::Pgn => InputFormat::Pgn,
            InputKind::Transcript => InputFormat::Transcript,
            InputKind::Json => InputFormat::Json,
            InputKind::Yaml => InputFormat::Yaml,
        }
    }
}

impl InputArgs {
    /// The inputs that can be read, and the exit status the run ends with at least:
    /// 2 when a path or folder cannot be read (each said on standard error).
    fn inputs(&self) -> (Vec<Input>, ExitStatus) {
        let format = self.input.map(InputKind::format);
        let (inputs, unreadable) = collect_inputs(&self.paths, format);
        (inputs, report_unreadable(&unreadable))
    }
}

/// `--jobs`, for the commands that read games (`check`, `lint`, `fmt`, `convert`).
#[derive(clap::Args, Debug)]
pub struct JobsArgs {
    /// Games handled in parallel (default: all cores; capped at 64 threads, or at the
    /// number of cores where that is larger); output stays in input order.
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<NonZeroUsize>,
}

/// The most threads `--jobs` starts on a machine with fewer cores: room to ask for more
/// threads than cores (a machine shared with other work), without thousands of stacks.
const MAX_JOBS: usize = 64;

/// How many bytes of reports one thread gathers before writing them (`--jobs 1`): game
/// by game, writing and merging the summary cost a file of short games 1.4% of its
/// instructions; a chunk at a time, a report read through a pipe came in bursts its
/// reader fell behind on (docs/speed.md, round six).
pub(crate) const REPORTED_AT_ONCE: usize = 8 * 1024;

/// Replaying a game recurses once per level of variations, up to
/// [`xpgn::pgn::MAX_VARIATION_DEPTH`]: as much stack as the main thread has (a spawned
/// thread gets 2 MiB), of which only the pages used are touched.
pub(crate) const WORKER_STACK_BYTES: usize = 8 << 20;

impl JobsArgs {
    /// Threads to run: more than cores check no faster, and each costs a stack
    /// (`--jobs 100000` would start thousands for nothing, or fail to).
    pub(crate) fn threads(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        self.jobs
            .map_or(cores, |jobs| jobs.get().min(cores.max(MAX_JOBS)))
    }
}

/// How findings are written, for the commands that report them (`check`, `lint`).
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// How to write diagnostics.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Colour in human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// No summary line.
    #[arg(short, long)]
    quiet: bool,
    /// Instead of the findings, a count of them per code, most found first (`[*]`: `lint
    /// --fix` mends them); with `--format json`, a JSON array of `code`, `count`, `fixable`.
    #[arg(long)]
    statistics: bool,
    /// Exit 0 even when there are findings (they are still reported); unreadable input
    /// and usage errors still exit 2.
    #[arg(long)]
    exit_zero: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Each finding with its source excerpt, caret and help.
    Human,
    /// One line per finding: `FILE:LINE:COL: SEVERITY[CODE] MESSAGE`.
    Concise,
    /// One JSON object per game (JSON Lines).
    Json,
    /// GitHub Actions workflow commands, for annotations on a pull request.
    Github,
    /// One SARIF 2.1.0 log of the run, for code scanning.
    Sarif,
}

impl ReportArgs {
    /// The reporter these options ask for; `fix_hint` when the summary may say how many
    /// findings `--fix` would mend (`lint`'s). A usage error says why it has none.
    fn reporter(&self, fix_hint: bool) -> Result<Box<dyn report::Reporter>, String> {
        let closing = report::Closing {
            quiet: self.quiet,
            fix_hint,
        };
        if self.statistics {
            return match self.format {
                Format::Human | Format::Concise | Format::Json => {
                    Ok(Box::new(report::StatisticsReporter {
                        closing,
                        json: self.format == Format::Json,
                    }))
                }
                Format::Github | Format::Sarif => Err(format!(
                    "--statistics writes text or JSON, not --format {}",
                    self.format_name()
                )),
            };
        }
        Ok(match self.format {
            Format::Human => Box::new(report::HumanReporter::new(self.color.enabled(), closing)),
            Format::Concise => Box::new(report::ConciseReporter { closing }),
            Format::Json => Box::new(report::JsonReporter),
            Format::Github => Box::new(report::GithubReporter),
            Format::Sarif => Box::new(report::SarifReporter::default()),
        })
    }

    fn format_name(&self) -> String {
        self.format
            .to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_owned())
    }

    /// The status a run with these options ends with, from the one its findings earn.
    fn exit_status(&self, status: ExitStatus) -> ExitStatus {
        match status {
            ExitStatus::Findings if self.exit_zero => ExitStatus::Success,
            status => status,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum Color {
    /// Colour when standard output is a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    Always,
    Never,
}

impl Color {
    pub fn enabled(self) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stdout().is_terminal()
            }
        }
    }
}

pub fn run(args: Args) -> ExitStatus {
    match args.command {
        Command::Check(args) => check::run(args),
        Command::Lint(args) => lint::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Show(args) => show::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Variants(args) => variants::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
    }
}

/// A position given on the command line: the variant's start or a FEN.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// The position (default: the variant's start position).
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,
}

impl PositionArgs {
    fn position(&self) -> Result<(&'static Variant, xpgn::rules::Position), ExitStatus> {
        let variants = self.variant.variants()?;
        // Orthodox chess with events is Event Chess.
        let event_chess = || {
            variants
                .find("event-chess")
                .expect("Event Chess is built in")
        };
        let mut variant = match variants.default {
            v if !v.events && !variants.start_events.is_empty() => event_chess(),
            v => v,
        };
        let mut pos = match &self.fen {
            None => variant.start_position().clone(),
            Some(fen) => match xpgn::rules::parse_fen(variant, fen) {
                Ok(pos) => pos,
                // A FEN with events running is Event Chess, as an orthodox game that
                // starts one is.
                Err(_)
                    if variant.slug == "standard"
                        && let Ok(pos) = xpgn::rules::parse_fen(event_chess(), fen) =>
                {
                    variant = event_chess();
                    pos
                }
                Err(e) => {
                    say!("xpgn: bad FEN: {e}");
                    return Err(ExitStatus::Error);
                }
            },
        };
        let usage = |message: String| {
            say!("xpgn: --events: {message}");
            ExitStatus::Error
        };
        for started in &variants.start_events {
            // The meta rules as when a game starts an event: a FEN's events count too.
            let (event, choices) = (started.event, &started.choices);
            if let Some(violation) = meta::refusal(&pos, event.number(), None) {
                return Err(usage(violation.to_string()));
            }
            if let Some(violation) = meta::breaches(variant, &pos, event, choices).first() {
                return Err(usage(violation.to_string()));
            }
            pos.start_event(event, None).map_err(usage)?;
            event.begin(variant, &mut pos, choices).map_err(usage)?;
        }
        Ok((variant, pos))
    }
}

/// Says on standard error which paths cannot be read; the exit status that earns.
fn report_unreadable(unreadable: &[SourceError]) -> ExitStatus {
    for error in unreadable {
        say!("xpgn: {error}");
    }
    if unreadable.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Error
    }
}

/// The variants and the inputs of a command that reads games with the exit status the
/// run ends with at least (see [`InputArgs::inputs`]), or the exit status when the
/// variant options are wrong (each says why on standard error).
fn variants_and_inputs(
    variant: &VariantArgs,
    input: &InputArgs,
) -> Result<(Variants, Vec<Input>, ExitStatus), ExitStatus> {
    let variants = variant.variants()?;
    let (inputs, status) = input.inputs();
    Ok((variants, inputs, status))
}

/// Writes a unified diff from `before` to `after` (`--diff` of `lint` and `fmt`), with
/// `name` on both header lines as ruff writes them.
fn write_diff(
    out: &mut dyn std::io::Write,
    name: &str,
    before: &str,
    after: &str,
) -> std::io::Result<()> {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .header(name, name)
        .to_writer(out)
}

/// Standard output for a command that writes a report or games as it goes, in blocks of
/// 64 KB: `Stdout` holds back what follows a block's last line until the next, so that
/// every block went out in two writes, and with 8 KB blocks `lint --format json` on a
/// file of short games made 18,000 of them.
fn report_output() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock())
}

/// The exit status after writing a command's output: a closed pipe is no error.
fn finish_output(written: std::io::Result<()>) -> ExitStatus {
    match written {
        Ok(()) => ExitStatus::Success,
        Err(e) => output_failed(&e, "output", ExitStatus::Success),
    }
}

/// What stopped reading and reporting one input. Told apart so that a message blames the
/// file only for what reading it did, and a full disk or a closed pipe on the output
/// ends the run instead of going on to the next file.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Reading the input.
    Read(std::io::Error),
    /// Writing standard output.
    Output(std::io::Error),
    /// Starting the threads of `--jobs`.
    Threads(std::io::Error),
}

/// The status a run ends with once writing `what` (`output`, `report`) failed: a closed
/// pipe (`xpgn lint | head -1`) ends it quietly with the `status` it had, as any
/// filter does; any other error is one, named for the output, not the input.
pub(crate) fn output_failed(e: &std::io::Error, what: &str, status: ExitStatus) -> ExitStatus {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return status;
    }
    say!("xpgn: cannot write the {what}: {e}");
    ExitStatus::Error
}
