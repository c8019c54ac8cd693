//! Reporters: one trait, one implementation per `--format` (and `--statistics`), as in
//! ruff and typos.
//!
//! Reporters write to the writer they are given; the library never prints.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{LazyLock, Mutex, PoisonError};

use memchr::memmem;
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};
use serde::Serialize;

use crate::command::{Command, EventLabel, parse_commands};
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::lint::explain;
use crate::pgn::{Game, Item, Outcome};
use crate::replay::Replay;
use crate::rules::DefinitionError;
use crate::span::{LineColumn, LineCursor, Span, line_breaks, line_column};
// The text a game was read from lives with the spans into it; reports have always
// named it here.
pub use crate::span::Source;

/// Lines and columns of offsets in file order, one source after another, each found from
/// the one before ([`LineCursor`]): the games of one part (tagless games share one) and
/// the findings of one game are located in one pass over the part's text.
#[derive(Clone, Copy, Debug, Default)]
pub struct Locator {
    /// The source located in last: its name's and text's addresses, its text's length
    /// and its offset in the file. A part of the same file at the same offset is the same
    /// part, and names live for the whole run, so no other source matches.
    source: (usize, usize, usize, usize),
    cursor: LineCursor,
}

impl Locator {
    /// 1-based line and column of an absolute offset in `source`.
    pub fn locate(&mut self, source: Source<'_>, offset: usize) -> LineColumn {
        let key = (
            source.name.as_ptr() as usize,
            source.text.as_ptr() as usize,
            source.text.len(),
            source.offset,
        );
        if key != self.source {
            self.source = key;
            self.cursor = LineCursor::default();
        }
        self.cursor.locate(
            source.text,
            source.line,
            offset.saturating_sub(source.offset),
        )
    }
}

/// One game's findings, ready to report.
pub struct GameReport<'a> {
    pub source: Source<'a>,
    pub game: &'a Game,
    /// What checking the game found: variant, plies, ending, and every diagnostic of
    /// reading and replaying it, in file order.
    pub replay: &'a Replay,
}

/// Counts for the closing summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub files: usize,
    pub games: usize,
    pub errors: usize,
    pub warnings: usize,
    /// Findings that carry the edit `xpgn lint --fix` makes.
    pub fixable: usize,
    /// Findings per code (by its name), for `--statistics` and SARIF's rules.
    pub codes: BTreeMap<&'static str, CodeCount>,
}

/// How often one code was found, and how many of those `--fix` mends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CodeCount {
    pub count: usize,
    pub fixable: usize,
}

impl Summary {
    /// Adds the counts of another summary (of a later part of the run).
    pub fn merge(&mut self, other: &Summary) {
        self.files += other.files;
        self.games += other.games;
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.fixable += other.fixable;
        for (code, counted) in &other.codes {
            let entry = self.codes.entry(code).or_default();
            entry.count += counted.count;
            entry.fixable += counted.fixable;
        }
    }

    pub fn add(&mut self, diagnostics: &[Diagnostic]) {
        self.games += 1;
        for d in diagnostics {
            match d.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
            }
            let fixable = usize::from(d.fix.is_some());
            self.fixable += fixable;
            let entry = self.codes.entry(d.code.name()).or_default();
            entry.count += 1;
            entry.fixable += fixable;
        }
    }

    /// The closing line of the human and concise reports: `2 games in 1 file: 1 error,
    /// 0 warnings`, and with `fix_hint` how many findings `--fix` would mend.
    fn write_line(&self, fix_hint: bool, out: &mut dyn Write) -> io::Result<()> {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        write!(
            out,
            "{} in {}: {}, {}",
            plural(self.games, "game"),
            plural(self.files, "file"),
            plural(self.errors, "error"),
            plural(self.warnings, "warning"),
        )?;
        if fix_hint && self.fixable > 0 {
            write!(out, " ({} fixable with `--fix`)", self.fixable)?;
        }
        writeln!(out)
    }
}

pub trait Reporter: Sync {
    /// Renders one game's report, on whichever thread checked it: everything but the
    /// game's number in its file, which is left as a slot (see [`Rendered`]).
    fn render(&self, report: &GameReport<'_>, locator: &mut Locator, out: &mut Rendered);
    /// Writes rendered games, numbered from `first_number` on, in input order.
    fn write(
        &self,
        rendered: &Rendered,
        out: &mut dyn Write,
        first_number: usize,
    ) -> io::Result<()> {
        rendered.write_to(out, first_number)
    }
    /// Writes what closes the report, once every game is written.
    fn finish(&self, summary: &Summary, out: &mut dyn Write) -> io::Result<()>;
}

/// The size of the largest rendering of a run so far, for each next one to start with
/// room for: grown from empty, each chunk's rendering copied itself over and over as it
/// doubled (a tenth of `lint --format json` on a file with many findings). Chunks vary in
/// size, hence the largest rather than the last; capped, so that a huge chunk does not
/// make every later one reserve as much (at most 2 MB a chunk in flight; a 64 KB chunk
/// of bare movetext renders 600 KB of lint findings, which a cap of 512 KB made copy
/// itself once more).
#[derive(Debug, Default)]
pub struct RenderedSize(AtomicUsize);

impl RenderedSize {
    const MAX_RESERVED: usize = 2 << 20;

    /// An empty rendering with room for as much text as the largest so far.
    pub fn new_rendered(&self) -> Rendered {
        Rendered {
            text: Vec::with_capacity(self.0.load(Ordering::Relaxed)),
            ..Rendered::default()
        }
    }

    /// Notes the size of a finished rendering.
    pub fn note(&self, rendered: &Rendered) {
        let size = rendered.text.len().min(Self::MAX_RESERVED);
        self.0.fetch_max(size, Ordering::Relaxed);
    }
}

/// The reports of a run of games, rendered before their numbers in the file are known
/// (threads check chunks of a file in any order); [`Rendered::write_to`] writes them
/// with their numbers, in order.
#[derive(Debug, Default)]
pub struct Rendered {
    text: Vec<u8>,
    /// Where in `text` a game's number goes.
    slots: Vec<usize>,
    /// For each game, the end of its text and of its slots.
    games: Vec<(usize, usize)>,
    /// The file name, message, help and edit last escaped for a JSON report.
    escaped: FindingTexts,
}

impl Rendered {
    /// Renders one more game with `reporter`.
    pub fn add(&mut self, reporter: &dyn Reporter, report: &GameReport<'_>, locator: &mut Locator) {
        reporter.render(report, locator, self);
        self.games.push((self.text.len(), self.slots.len()));
    }

    /// Marks where the game's number goes.
    pub fn number_slot(&mut self) {
        self.slots.push(self.text.len());
    }

    /// Bytes of text rendered.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// Games rendered.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Empties the rendering for the next games; the texts remembered escaped stay, as
    /// the next games repeat them too (one thread clears it every few kilobytes).
    pub fn clear(&mut self) {
        self.text.clear();
        self.slots.clear();
        self.games.clear();
    }

    /// Writes the games, numbered from `first_number` on.
    pub fn write_to(&self, out: &mut dyn Write, first_number: usize) -> io::Result<()> {
        let (mut text_at, mut slot_at) = (0, 0);
        for (index, &(text_end, slots_end)) in self.games.iter().enumerate() {
            for &slot in &self.slots[slot_at..slots_end] {
                out.write_all(&self.text[text_at..slot])?;
                out.write_all(itoa::Buffer::new().format(first_number + index).as_bytes())?;
                text_at = slot;
            }
            slot_at = slots_end;
            // A game rendered as nothing (`--quiet`, a clean game): no call.
            if text_at < text_end {
                out.write_all(&self.text[text_at..text_end])?;
            }
            text_at = text_end;
        }
        Ok(())
    }
}

impl Write for Rendered {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.text.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `--format human`: miette reports with the source line and a caret under the span.
pub struct HumanReporter {
    handler: GraphicalReportHandler,
    closing: Closing,
}

/// What the human and concise reports end with.
#[derive(Clone, Copy, Debug, Default)]
pub struct Closing {
    /// No summary line.
    pub quiet: bool,
    /// The summary says how many findings `--fix` would mend (`lint`'s).
    pub fix_hint: bool,
}

impl Closing {
    fn write(self, summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        if !self.quiet {
            summary.write_line(self.fix_hint, out)?;
        }
        out.flush()
    }
}

/// The findings of one game that the human and GitHub reports show: past them, one line
/// says how many more there are. A game of 100,000 errors (a megabyte of prose named
/// `.pgn`) is then a page of report, not a million lines; `--format json` keeps them all.
pub const SHOWN_PER_GAME: usize = 100;

impl HumanReporter {
    pub fn new(color: bool, closing: Closing) -> Self {
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        HumanReporter {
            handler: GraphicalReportHandler::new_themed(theme).with_width(80),
            closing,
        }
    }
}

/// Renders one diagnostic as a person reads it (no colour, 80 columns when `handler`
/// is [`plain_handler`]).
pub fn render(
    handler: &GraphicalReportHandler,
    diagnostic: &Diagnostic,
    source: Source<'_>,
) -> String {
    with_safe_text(source, |source| {
        let view = MietteView::of_diagnostic(diagnostic, source);
        let mut out = String::new();
        if handler.render_report(&mut out, &view).is_err() {
            let at = source.line_column(diagnostic.span.offset);
            out = format!("{}:{at}: {}\n", source.name, view.message);
        }
        out
    })
}

/// Hands `render` the source with its name and text safe for a terminal: what the input
/// holds is shown only with its control characters made visible, so an excerpt or a tag
/// value cannot move the cursor or retitle the window.
fn with_safe_text(source: Source<'_>, render: impl FnOnce(Source<'_>) -> String) -> String {
    let name = terminal_safe(source.name);
    let text = excerpt_safe(source.text);
    render(Source {
        name: &name,
        text: &text,
        ..source
    })
}

/// Renders a problem of a variant definition file (`--variant-file`) with its excerpt.
pub fn render_definition_error(
    handler: &GraphicalReportHandler,
    error: &DefinitionError,
    source: Source<'_>,
) -> String {
    with_safe_text(source, |source| {
        let view = MietteView::of_definition_error(error, source);
        let mut out = String::new();
        if handler.render_report(&mut out, &view).is_err() {
            out = format!(
                "{}:{}:{}: {}\n",
                source.name, error.line, error.column, view.message
            );
        }
        out
    })
}

/// The handler used for snapshots and `--color never`.
pub fn plain_handler() -> GraphicalReportHandler {
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(80)
}

impl Reporter for HumanReporter {
    fn render(&self, report: &GameReport<'_>, locator: &mut Locator, out: &mut Rendered) {
        let diagnostics = &report.replay.diagnostics;
        for diagnostic in diagnostics.iter().take(SHOWN_PER_GAME) {
            out.text
                .extend_from_slice(render(&self.handler, diagnostic, report.source).as_bytes());
        }
        if let Some(more) = hidden_findings(report) {
            let at = locator.locate(report.source, report.game.span.offset);
            let name = terminal_safe(report.source.name);
            let _ = write!(out, "{name}:{}: ", at.line);
            write_hidden(out, more);
            out.text.extend_from_slice(b"\n\n");
        }
    }

    fn finish(&self, summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        self.closing.write(summary, out)
    }
}

/// `--format concise`: one line per finding, `FILE:LINE:COL: SEVERITY[CODE] MESSAGE`, as
/// ruff's concise output and compilers' short messages, then the summary line.
pub struct ConciseReporter {
    pub closing: Closing,
}

impl Reporter for ConciseReporter {
    fn render(&self, report: &GameReport<'_>, locator: &mut Locator, out: &mut Rendered) {
        let name = terminal_safe(report.source.name);
        for d in report.replay.diagnostics.iter().take(SHOWN_PER_GAME) {
            let at = locator.locate(report.source, d.span.offset);
            let _ = writeln!(
                out,
                "{name}:{}:{}: {}[{}] {}",
                at.line,
                at.column,
                d.severity.as_str(),
                d.code.name(),
                one_line(&terminal_safe(&d.message)),
            );
        }
        if let Some(more) = hidden_findings(report) {
            let at = locator.locate(report.source, report.game.span.offset);
            let _ = write!(out, "{name}:{}:{}: ", at.line, at.column);
            write_hidden(out, more);
            out.text.push(b'\n');
        }
    }

    fn finish(&self, summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        self.closing.write(summary, out)
    }
}

/// `text` with its line breaks made blanks, so that a finding stays one line.
fn one_line(text: &str) -> Cow<'_, str> {
    if text.contains(['\n', '\r']) {
        Cow::Owned(text.replace("\r\n", " ").replace(['\n', '\r'], " "))
    } else {
        Cow::Borrowed(text)
    }
}

/// `--statistics`: no finding listed, a count per code once all are found, most found
/// first, as ruff's `--statistics`; `[*]` marks the codes `--fix` mends.
pub struct StatisticsReporter {
    pub closing: Closing,
    /// A JSON array (`--format json`) rather than lines of text.
    pub json: bool,
}

/// One entry of `--statistics --format json`.
#[derive(Serialize)]
struct CodeStatistic<'a> {
    code: &'a str,
    count: usize,
    fixable: usize,
}

impl Reporter for StatisticsReporter {
    fn render(&self, _: &GameReport<'_>, _: &mut Locator, _: &mut Rendered) {}

    fn finish(&self, summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        let mut counted: Vec<(&str, CodeCount)> =
            summary.codes.iter().map(|(code, c)| (*code, *c)).collect();
        counted.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(a.0.cmp(b.0)));
        if self.json {
            let entries: Vec<CodeStatistic<'_>> = counted
                .iter()
                .map(|(code, c)| CodeStatistic {
                    code,
                    count: c.count,
                    fixable: c.fixable,
                })
                .collect();
            serde_json::to_writer(&mut *out, &entries)?;
            writeln!(out)?;
            return out.flush();
        }
        let count_width = counted
            .first()
            .map_or(1, |(_, c)| c.count.to_string().len());
        let code_width = counted
            .iter()
            .map(|(code, _)| code.len())
            .max()
            .unwrap_or(0);
        for (code, c) in &counted {
            let mark = if c.fixable > 0 { "[*]" } else { "[ ]" };
            let summary = Code::from_name(code).map_or("", |code| explain(code).summary);
            writeln!(
                out,
                "{:>count_width$}  {code:<code_width$}  {mark} {summary}",
                c.count
            )?;
        }
        self.closing.write(summary, out)
    }
}

/// How many findings of a game the human and GitHub reports leave out past the
/// [`SHOWN_PER_GAME`] they show, if any.
fn hidden_findings(report: &GameReport<'_>) -> Option<usize> {
    let more = report
        .replay
        .diagnostics
        .len()
        .checked_sub(SHOWN_PER_GAME)?;
    (more > 0).then_some(more)
}

/// What the human and GitHub reports say of the findings they leave out.
fn write_hidden(out: &mut Rendered, more: usize) {
    let _ = write!(
        out,
        "... and {more} more finding{} in game ",
        if more == 1 { "" } else { "s" }
    );
    out.number_slot();
    out.text
        .extend_from_slice(b"; `xpgn check --format json` lists them all");
}

/// `--format json`: one JSON object per game (JSON Lines), as `spec/cli.md` defines.
pub struct JsonReporter;

/// Event numbers started in the main line, in order.
pub(crate) fn main_line_events(game: &Game) -> Vec<u16> {
    // Built once: nearly every comment of a large file is searched (clock comments).
    static EVENT_COMMAND: LazyLock<memmem::Finder<'static>> =
        LazyLock::new(|| memmem::Finder::new("[%event"));
    let mut events = Vec::new();
    for item in &game.moves {
        match &item.node {
            Item::Comment(comment) if EVENT_COMMAND.find(comment.text.as_bytes()).is_some() => {
                for command in parse_commands(&comment.text, 0).0 {
                    if let Command::Event(event) = command.node {
                        events.push(event.number.node);
                    }
                }
            }
            Item::EventLine(line) => events.extend(line.event.as_ref().map(|e| e.number.node)),
            _ => {}
        }
    }
    events
}

/// Appends `value` as serde_json writes it.
fn push_json<T: Serialize + ?Sized>(text: &mut Vec<u8>, value: &T) {
    // Writing JSON to memory fails only for a map key that is not a string, which
    // these types have none of.
    let _ = serde_json::to_writer(ReportText(text), value);
}

/// A report's text as serde_json's writer. A type of its own, so that serde_json's code
/// for it is not that of the conversions' documents (`to_string`, into a `Vec`), which
/// the compiler inlines there only while they are its one user (`convert --to json` took
/// 3% longer sharing it).
struct ReportText<'a>(&'a mut Vec<u8>);

impl Write for ReportText<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.extend_from_slice(buf);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Appends `value` as a JSON string, as serde_json writes it: copied whole when nothing
/// in it needs escaping, the common case (a file name, a player's name, most messages).
/// Where something does, serde_json's own loop was as fast as any tried (SWAR search,
/// 16-byte masks): such texts escape many bytes (quoted tags, line breaks).
fn push_json_str(text: &mut Vec<u8>, value: &str) {
    if needs_json_escape(value) {
        push_json(text, value);
    } else {
        text.reserve(value.len() + 2);
        text.push(b'"');
        text.extend_from_slice(value.as_bytes());
        text.push(b'"');
    }
}

/// Appends `value`, a text that never needs escaping (a rule's name), as a JSON string:
/// without looking for what to escape, for every finding.
fn push_json_plain(text: &mut Vec<u8>, value: &str) {
    debug_assert!(!needs_json_escape(value), "{value}");
    text.push(b'"');
    text.extend_from_slice(value.as_bytes());
    text.push(b'"');
}

fn needs_json_escape(value: &str) -> bool {
    // Not short-circuiting, so that the test runs over many bytes at once.
    value.bytes().fold(false, |any, byte| {
        any | (byte < 0x20) | (byte == b'"') | (byte == b'\\')
    })
}

/// The last text of a finding's field that needed escaping or was a constant, and what
/// it escaped to. Findings repeat their texts game after game (a file of bare movetext
/// has the same roster finding, quoted tags and line breaks, in every game): escaping
/// them again was most of the time `lint --format json` spent on its report there.
#[derive(Debug, Default)]
struct EscapedText {
    /// The text, where it was not a constant.
    raw: String,
    /// The text, where it was a constant: the same constant again is known by its
    /// address, without comparing its bytes (a constant is never freed, so no other
    /// text ever takes its place).
    constant: Option<&'static str>,
    escaped: Vec<u8>,
}

impl EscapedText {
    /// Appends `value` as [`push_json_str`] does.
    #[allow(
        clippy::ptr_arg,
        reason = "whether the text is a constant is what tells a repeat by its address"
    )]
    fn push(&mut self, text: &mut Vec<u8>, value: &Cow<'static, str>) {
        let same = match value {
            Cow::Borrowed(value) => self.constant.is_some_and(|last| std::ptr::eq(last, *value)),
            Cow::Owned(value) => !self.raw.is_empty() && self.raw == *value,
        };
        if same {
            text.extend_from_slice(&self.escaped);
            return;
        }
        let constant = match value {
            Cow::Borrowed(value) => Some(*value),
            Cow::Owned(_) => None,
        };
        if constant.is_none() && !needs_json_escape(value) {
            push_json_str(text, value);
            return;
        }
        self.remember(text, value, constant);
    }

    /// Appends `value` as [`push_json_str`] does, and remembers it whatever it holds:
    /// for a text that repeats in nearly every game, where comparing it costs less than
    /// looking for what to escape in it (the file's name).
    fn push_repeated(&mut self, text: &mut Vec<u8>, value: &str) {
        if self.constant.is_none() && !self.escaped.is_empty() && self.raw == value {
            text.extend_from_slice(&self.escaped);
        } else {
            self.remember(text, value, None);
        }
    }

    fn remember(&mut self, text: &mut Vec<u8>, value: &str, constant: Option<&'static str>) {
        let start = text.len();
        push_json_str(text, value);
        self.constant = constant;
        self.raw.clear();
        if constant.is_none() {
            self.raw.push_str(value);
        }
        self.escaped.clear();
        self.escaped.extend_from_slice(&text[start..]);
    }
}

/// The texts of a report that repeat from game to game, each remembered escaped.
#[derive(Debug, Default)]
struct FindingTexts {
    /// The file's name, which every game of a chunk writes.
    file: EscapedText,
    /// The variant's id, a constant for every variant but an unknown one.
    variant: EscapedText,
    message: EscapedText,
    help: EscapedText,
    replacement: EscapedText,
}

fn push_json_option_str(text: &mut Vec<u8>, value: Option<&str>) {
    match value {
        Some(value) => push_json_str(text, value),
        None => text.extend_from_slice(b"null"),
    }
}

/// Appends `d`, found at `at`, as the object `--format json` lists it.
fn push_json_diagnostic(
    text: &mut Vec<u8>,
    escaped: &mut FindingTexts,
    d: &Diagnostic,
    at: LineColumn,
) {
    let number = |text: &mut Vec<u8>, n: usize| {
        text.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    };
    text.extend_from_slice(b"{\"severity\":\"");
    text.extend_from_slice(d.severity.as_str().as_bytes());
    text.extend_from_slice(b"\",\"code\":");
    push_json_plain(text, d.code.name());
    text.extend_from_slice(b",\"message\":");
    escaped.message.push(text, &d.message);
    text.extend_from_slice(b",\"line\":");
    number(text, at.line);
    text.extend_from_slice(b",\"column\":");
    number(text, at.column);
    text.extend_from_slice(b",\"offset\":");
    number(text, d.span.offset);
    text.extend_from_slice(b",\"length\":");
    number(text, d.span.len);
    text.extend_from_slice(b",\"ply\":");
    match &d.at_move {
        Some(at_move) => number(text, at_move.ply),
        None => text.extend_from_slice(b"null"),
    }
    text.extend_from_slice(b",\"move\":");
    push_json_option_str(text, d.at_move.as_ref().map(|m| m.written.as_str()));
    text.extend_from_slice(b",\"help\":");
    match &d.help {
        Some(help) => escaped.help.push(text, help),
        None => text.extend_from_slice(b"null"),
    }
    // Where a variation's move stands: `[ply, nth variation at that ply]` per level.
    if let Some(at_move) = &d.at_move
        && !at_move.variation.is_empty()
    {
        text.extend_from_slice(b",\"variation\":");
        push_json(text, &at_move.variation);
    }
    // The edit `xpgn lint --fix` makes (offset and length in the decoded text).
    if let Some(fix) = &d.fix {
        text.extend_from_slice(b",\"fix\":{\"offset\":");
        number(text, fix.span.offset);
        text.extend_from_slice(b",\"length\":");
        number(text, fix.span.len);
        text.extend_from_slice(b",\"replacement\":");
        escaped.replacement.push(text, &fix.replacement);
        text.push(b'}');
    }
    text.push(b'}');
}

impl Reporter for JsonReporter {
    // Written piece by piece rather than as one serde object: its keys are constants,
    // and escaping them again for every game was a fifth of `check --format json` on a
    // file of short games. The values still go through serde_json, so the bytes are
    // those serde would write.
    fn render(&self, report: &GameReport<'_>, locator: &mut Locator, out: &mut Rendered) {
        let game = report.game;
        let replay = report.replay;
        out.text.extend_from_slice(b"{\"file\":");
        out.escaped
            .file
            .push_repeated(&mut out.text, report.source.name);
        out.text.extend_from_slice(b",\"game\":");
        out.number_slot();
        let Rendered { text, escaped, .. } = out;
        text.extend_from_slice(b",\"white\":");
        push_json_option_str(text, game.tag("White"));
        text.extend_from_slice(b",\"black\":");
        push_json_option_str(text, game.tag("Black"));
        text.extend_from_slice(b",\"variant\":");
        escaped.variant.push(text, &replay.variant);
        text.extend_from_slice(b",\"events\":[");
        // The main line is read again only where the replay has not vouched for it: its
        // items are out of the cache by now.
        let events = replay.events_from_start.iter().copied().chain(
            (!replay.main_line_starts_no_event)
                .then(|| main_line_events(game))
                .into_iter()
                .flatten(),
        );
        for (index, event) in events.enumerate() {
            if index > 0 {
                text.push(b',');
            }
            push_json(text, &EventLabel(event));
        }
        text.extend_from_slice(b"],\"plies\":");
        text.extend_from_slice(itoa::Buffer::new().format(replay.plies).as_bytes());
        text.extend_from_slice(b",\"result\":");
        let result = game.result.as_ref().map(|r| r.node.as_str()).or_else(|| {
            game.tag("Result")
                .and_then(Outcome::parse)
                .map(Outcome::as_str)
        });
        push_json_option_str(text, result);
        text.extend_from_slice(b",\"ending\":");
        push_json_option_str(text, replay.ending.map(|e| e.name()));
        if !replay.event_reports.is_empty() {
            // By key, the last report of a key winning, as a map of them gives.
            let by_key: BTreeMap<&str, &serde_json::Value> = replay
                .event_reports
                .iter()
                .map(|(key, value)| (*key, value))
                .collect();
            for (key, value) in by_key {
                text.push(b',');
                push_json_str(text, key);
                text.push(b':');
                push_json(text, value);
            }
        }
        text.extend_from_slice(if replay.diagnostics.iter().any(Diagnostic::is_error) {
            b",\"status\":\"error\",\"diagnostics\":"
        } else {
            b",\"status\":\"ok\",\"diagnostics\":"
        });
        text.push(b'[');
        for (index, d) in replay.diagnostics.iter().enumerate() {
            if index > 0 {
                text.push(b',');
            }
            let at = locator.locate(report.source, d.span.offset);
            push_json_diagnostic(text, escaped, d, at);
        }
        text.extend_from_slice(b"]}\n");
    }

    fn finish(&self, _: &Summary, out: &mut dyn Write) -> io::Result<()> {
        out.flush()
    }
}

/// `--format github`: one workflow command per diagnostic, for annotations in a PR.
pub struct GithubReporter;

/// Escapes per the workflow-command rules: data escapes `%`, CR, LF; properties also
/// `:` and `,`.
fn github_escape(text: &str, property: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            _ => out.push(c),
        }
    }
    out
}

impl Reporter for GithubReporter {
    fn render(&self, report: &GameReport<'_>, locator: &mut Locator, out: &mut Rendered) {
        let diagnostics = &report.replay.diagnostics;
        for d in diagnostics.iter().take(SHOWN_PER_GAME) {
            let at = locator.locate(report.source, d.span.offset);
            let mut message = terminal_safe(&d.message).into_owned();
            if let Some(help) = &d.help {
                message.push_str("\nhelp: ");
                message.push_str(&terminal_safe(help));
            }
            let _ = writeln!(
                out,
                "::{} file={},line={},col={},title={}::{}",
                d.severity.as_str(),
                github_escape(&terminal_safe(report.source.name), true),
                at.line,
                at.column,
                d.code.name(),
                github_escape(&message, false),
            );
        }
        if let Some(more) = hidden_findings(report) {
            let at = locator.locate(report.source, report.game.span.offset);
            let _ = write!(
                out,
                "::warning file={},line={}::",
                github_escape(&terminal_safe(report.source.name), true),
                at.line,
            );
            // The message holds no character a workflow command escapes.
            write_hidden(out, more);
            out.text.push(b'\n');
        }
    }

    fn finish(&self, _: &Summary, out: &mut dyn Write) -> io::Result<()> {
        out.flush()
    }
}

/// `--format sarif`: one SARIF 2.1.0 log of the run, for code scanning (GitHub's and
/// other tools'). A log is one JSON document, not a stream: its results are kept in
/// input order until [`Reporter::finish`] writes the whole log.
#[derive(Default)]
pub struct SarifReporter {
    /// Each result as JSON, after a comma.
    results: Mutex<Vec<u8>>,
}

/// Where the log says it follows the SARIF 2.1.0 schema (the address tools look for).
const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'a str,
    level: &'static str,
    message: SarifText,
    locations: [SarifLocation; 1],
}

#[derive(Serialize)]
struct SarifText {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifLocation {
    physical_location: SarifPhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifPhysicalLocation {
    artifact_location: SarifArtifact,
    region: SarifRegion,
}

#[derive(Serialize)]
struct SarifArtifact {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRegion {
    start_line: usize,
    start_column: usize,
}

#[derive(Serialize)]
struct SarifTool {
    driver: SarifDriver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifDriver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    /// The codes found in this run.
    rules: Vec<SarifRule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRule {
    id: &'static str,
    short_description: SarifText,
    full_description: SarifText,
    help: SarifText,
    default_configuration: SarifConfiguration,
    properties: SarifRuleProperties,
}

#[derive(Serialize)]
struct SarifConfiguration {
    level: &'static str,
}

#[derive(Serialize)]
struct SarifRuleProperties {
    /// The code's category (`syntax`, `rules`, `style`, ...).
    tags: [&'static str; 1],
}

impl SarifRule {
    fn of(code: Code) -> SarifRule {
        let doc = explain(code);
        SarifRule {
            id: code.name(),
            short_description: SarifText {
                text: doc.summary.to_owned(),
            },
            full_description: SarifText {
                text: doc.rationale.to_owned(),
            },
            help: SarifText {
                text: format!("`xpgn lint --explain {}` explains it", code.name()),
            },
            default_configuration: SarifConfiguration {
                level: code.severity().as_str(),
            },
            properties: SarifRuleProperties {
                tags: [code.category()],
            },
        }
    }
}

/// A file name as a URI reference: unreserved characters and `/` as they are, every
/// other byte percent-encoded (a blank is `%20`), so that code scanning finds the file.
fn uri_reference(name: &str) -> String {
    let mut uri = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

impl Reporter for SarifReporter {
    fn render(&self, report: &GameReport<'_>, locator: &mut Locator, out: &mut Rendered) {
        let uri = uri_reference(report.source.name);
        for d in &report.replay.diagnostics {
            let at = locator.locate(report.source, d.span.offset);
            let text = match &d.help {
                Some(help) => format!("{}\nhelp: {help}", d.message),
                None => d.message.to_string(),
            };
            let result = SarifResult {
                rule_id: d.code.name(),
                level: d.severity.as_str(),
                message: SarifText { text },
                locations: [SarifLocation {
                    physical_location: SarifPhysicalLocation {
                        artifact_location: SarifArtifact { uri: uri.clone() },
                        region: SarifRegion {
                            start_line: at.line,
                            start_column: at.column,
                        },
                    },
                }],
            };
            out.text.push(b',');
            // Writing JSON to memory cannot fail for these types (string keys only).
            let _ = serde_json::to_writer(&mut *out, &result);
            // The game's number in its file, as `--format json` numbers games.
            out.text.pop();
            out.text.extend_from_slice(b",\"properties\":{\"game\":");
            out.number_slot();
            out.text.extend_from_slice(b"}}");
        }
    }

    fn write(&self, rendered: &Rendered, _: &mut dyn Write, first_number: usize) -> io::Result<()> {
        let mut results = self.results.lock().unwrap_or_else(PoisonError::into_inner);
        rendered.write_to(&mut *results, first_number)
    }

    fn finish(&self, summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        let tool = SarifTool {
            driver: SarifDriver {
                name: "xpgn",
                version: env!("CARGO_PKG_VERSION"),
                semantic_version: env!("CARGO_PKG_VERSION"),
                rules: summary
                    .codes
                    .keys()
                    .filter_map(|name| Code::from_name(name))
                    .map(SarifRule::of)
                    .collect(),
            },
        };
        write!(
            out,
            "{{\"$schema\":\"{SARIF_SCHEMA}\",\"version\":\"2.1.0\",\"runs\":[{{\"tool\":"
        )?;
        serde_json::to_writer(&mut *out, &tool)?;
        out.write_all(b",\"columnKind\":\"unicodeCodePoints\",\"results\":[")?;
        let results = self.results.lock().unwrap_or_else(PoisonError::into_inner);
        // Past the comma before the first result.
        out.write_all(results.get(1..).unwrap_or_default())?;
        out.write_all(b"]}]}\n")?;
        out.flush()
    }
}

/// A finding with its source, in the shape miette renders: a game's [`Diagnostic`] or a
/// variant file's [`DefinitionError`].
#[derive(Debug)]
struct MietteView<'a> {
    code: String,
    severity: Option<Severity>,
    message: Cow<'a, str>,
    help: Option<Cow<'a, str>>,
    label: Cow<'a, str>,
    span: Span,
    source: Source<'a>,
}

impl<'a> MietteView<'a> {
    fn of_diagnostic(diagnostic: &'a Diagnostic, source: Source<'a>) -> Self {
        let code = diagnostic.code;
        MietteView {
            code: format!("xpgn::{}::{}", code.category(), code.name()),
            severity: Some(diagnostic.severity),
            message: terminal_safe(&diagnostic.message),
            help: diagnostic.help.as_deref().map(terminal_safe),
            label: terminal_safe(&diagnostic.label),
            span: diagnostic.span,
            source,
        }
    }

    fn of_definition_error(error: &'a DefinitionError, source: Source<'a>) -> Self {
        MietteView {
            code: "xpgn::variant::bad-definition".to_owned(),
            severity: None,
            message: terminal_safe(&error.message),
            help: error.help.as_deref().map(terminal_safe),
            label: Cow::Borrowed("here"),
            span: error.span,
            source,
        }
    }
}

impl std::fmt::Display for MietteView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MietteView<'_> {}

impl miette::Diagnostic for MietteView<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        Some(Box::new(&self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        self.severity.map(|severity| match severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn std::fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        // A long span (a megabyte token) is underlined over its start only: miette draws
        // the whole span, and the excerpt around it, character by character.
        let len = match self.span.offset.checked_sub(self.source.offset) {
            Some(start) if self.span.len > EXCERPT_REACH => {
                let end = floor_boundary(self.source.text, start + EXCERPT_REACH);
                end.saturating_sub(start)
            }
            _ => self.span.len,
        };
        let label = LabeledSpan::new_primary_with_span(
            Some(self.label.clone().into_owned()),
            (self.span.offset, len),
        );
        Some(Box::new(std::iter::once(label)))
    }
}

/// How far around a span the rendered excerpt reaches on a long line, so a 1 MB line
/// renders as a short one.
const EXCERPT_REACH: usize = 120;

impl SourceCode for Source<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let text = self.text;
        let start = span
            .offset()
            .checked_sub(self.offset)
            .ok_or(MietteError::OutOfBounds)?;
        let end = start + span.len();
        if end > text.len() {
            return Err(MietteError::OutOfBounds);
        }
        // Whole lines around the span, as miette's own sources give; with no context
        // before, the excerpt starts at the span itself (its line and column head the
        // report).
        let mut window_start = start;
        if context_lines_before > 0 {
            window_start = text[..start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
            for _ in 0..context_lines_before {
                let Some(previous) = text[..window_start.saturating_sub(1)].rfind(['\n', '\r'])
                else {
                    window_start = 0;
                    break;
                };
                window_start = previous + 1;
            }
        }
        let mut window_end = end;
        for _ in 0..=context_lines_after {
            match text[window_end..].find(['\n', '\r']) {
                Some(i) => window_end += i + 1,
                None => {
                    window_end = text.len();
                    break;
                }
            }
        }
        let window_start =
            floor_boundary(text, window_start.max(start.saturating_sub(EXCERPT_REACH)));
        let window_end = ceil_boundary(text, window_end.min(end + EXCERPT_REACH));
        let data = &text[window_start..window_end];
        let first = line_column(text, self.line, window_start);
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_owned(),
            data.as_bytes(),
            SourceSpan::new((self.offset + window_start).into(), data.len()),
            first.line - 1,
            first.column - 1,
            line_breaks(data) + 1,
        )))
    }
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Whether a character can steer a terminal or reorder what it shows: C0 controls but
/// tab and line breaks, DEL, C1 controls (0x9B is a one-byte CSI for some terminals) and
/// the bidirectional embeddings, overrides and isolates (text that reads in another order
/// than it shows, as in "Trojan Source").
pub fn is_unsafe_for_terminal(c: char) -> bool {
    matches!(c, '\0'..='\x08' | '\x0b' | '\x0c' | '\x0e'..='\x1f' | '\x7f'..='\u{9f}')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every character [`is_unsafe_for_terminal`] written as its escape
/// (`\u{1b}`), for messages, names and lines that reach a terminal.
pub fn terminal_safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe_for_terminal) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe_for_terminal(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` with every character [`is_unsafe_for_terminal`] replaced by a visible one of
/// the same length in bytes and characters (`?`, `¿`, `�` for one, two and three bytes),
/// so that every span into it still points where it did: for the excerpts of a report.
fn excerpt_safe(text: &str) -> Cow<'_, str> {
    // Most texts are plain: a byte scan, no decoding, answers for them.
    let suspect = text.bytes().any(|b| {
        (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7f || b == 0xc2 || b == 0xe2
    });
    if !suspect || !text.chars().any(is_unsafe_for_terminal) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match (is_unsafe_for_terminal(c), c.len_utf8()) {
                (false, _) => c,
                (true, 1) => '?',
                (true, 2) => '¿',
                (true, _) => '\u{fffd}',
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_the_bytes_serde_writes() {
        let values = [
            "",
            "/games/openings.pgn",
            "Carlsen, Magnus",
            "say \"hi\"",
            "C:\\games\\a.pgn",
            "tab\there, line\nbreak, bell\u{7}",
            "Dvořák ♞ 象棋",
            "\u{1f}",
            "\u{8}\u{c}\u{0}\u{7f}",
            "a message of more than sixteen bytes, \"quoted\" at a block's end: \"",
            "add [Event \"?\"] [Site \"?\"] [Date \"????.??.??\"] (`?` where unknown)\n",
            "\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{e}\u{f}\u{10}\u{11}",
        ];
        for value in values {
            let mut text = Vec::new();
            push_json_str(&mut text, value);
            assert_eq!(text, serde_json::to_vec(value).unwrap(), "{value:?}");
        }
        let mut text = Vec::new();
        push_json_option_str(&mut text, None);
        assert_eq!(text, b"null");
    }

    proptest::proptest! {
        #[test]
        fn any_string_is_escaped_as_serde_escapes_it(
            chars in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::char::range('\0', '\x7f'),
                    proptest::char::any(),
                ],
                0..80,
            )
        ) {
            let value: String = chars.into_iter().collect();
            let mut text = Vec::new();
            push_json_str(&mut text, &value);
            proptest::prop_assert_eq!(text, serde_json::to_vec(&value).unwrap());
        }

        // The memo of repeated texts writes each as serde would, whatever came before:
        // texts drawn from a few, each a constant or a copy, so that repeats, changes
        // and returns all happen, of constants and of texts made at run time alike.
        #[test]
        fn repeated_texts_are_escaped_as_serde_escapes_them(
            picks in proptest::collection::vec((0..5_usize, proptest::bool::ANY), 1..40)
        ) {
            let texts = [
                "add [Event \"?\"] (`?` where unknown)",
                "\n[Event \"?\"]\n[Site \"?\"]",
                "write `Nf3`",
                "",
                "add [Event \"?\"] (`?` where unknown) ",
            ];
            let mut memo = EscapedText::default();
            let mut text = Vec::new();
            let mut expected = Vec::new();
            for (pick, copied) in picks {
                let value = if copied {
                    Cow::Owned(texts[pick].to_owned())
                } else {
                    Cow::Borrowed(texts[pick])
                };
                memo.push(&mut text, &value);
                expected.extend(serde_json::to_vec(texts[pick]).unwrap());
            }
            proptest::prop_assert_eq!(
                String::from_utf8_lossy(&text),
                String::from_utf8_lossy(&expected)
            );
        }

        // A file's name, remembered whatever it holds, is written as serde would
        // write it, whichever name came before.
        #[test]
        fn repeated_names_are_escaped_as_serde_escapes_them(
            picks in proptest::collection::vec(0..5_usize, 1..40)
        ) {
            let names = ["a.pgn", "games/\"quoted\".pgn", "", "a.pgn ", "b\\c.pgn"];
            let mut memo = EscapedText::default();
            let mut text = Vec::new();
            let mut expected = Vec::new();
            for pick in picks {
                memo.push_repeated(&mut text, names[pick]);
                expected.extend(serde_json::to_vec(names[pick]).unwrap());
            }
            proptest::prop_assert_eq!(
                String::from_utf8_lossy(&text),
                String::from_utf8_lossy(&expected)
            );
        }
    }
}
