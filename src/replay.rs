//! Replaying a game record through the rules: every move of the main line and of every
//! variation is resolved against the legal moves of its position and played; what does
//! not fit becomes a diagnostic that names the move, its ply and the reason.

use std::borrow::Cow;
use std::cell::Cell;

use compact_str::CompactString;
use serde::Serialize;

use crate::command::{Choice, Command, EventCommand, EventLabel, mentions_event, parse_commands};
use crate::diagnostic::{Code, Diagnostic, MoveRef};
use crate::notation::{CheckMark, Notation};
use crate::pgn::{Game, Item, Outcome, ParsedGame};
use crate::rules::event::{Follower, Moved};
use crate::rules::events::catalogue::Support;
use crate::rules::san::{Gives, Rejection, RejectionKind, gives, resolve_with, san, san_giving};
use crate::rules::{Ending, EventStart, Move, Position, Special, Variant, Variants, parse_fen};
use crate::rules::{events, meta};
use crate::span::{Source, Span, Spanned};

mod openings;
mod orthodox;
use openings::{Node, Openings};
#[cfg(feature = "cli")]
pub(crate) use orthodox::{PlayAsRead, PlayedAsRead, Spellings};

/// What replaying one game found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    /// The variant's slug, or the tag's value as written when xpgn does not know it
    /// (borrowed from the variant in the common case: no allocation per game).
    pub variant: Cow<'static, str>,
    /// Main-line plies that replayed legally.
    pub plies: usize,
    /// How the final main-line position ends the game, when every move replayed.
    pub ending: Option<Ending>,
    /// Events running from the start (`--events`), by number.
    pub events_from_start: Vec<u16>,
    /// What the main line tells of the choices events keep secret (`passage`: the #5
    /// Hidden passage squares), by key, for `--format json`.
    pub event_reports: Vec<(&'static str, serde_json::Value)>,
    /// Every move that replayed, as the rules read it, when asked for
    /// ([`replay_recording`]).
    pub played: Option<Box<Played>>,
    pub diagnostics: Vec<Diagnostic>,
    /// Where unreadable move tokens stand (their own diagnostics come from reading).
    unreadable: Vec<(Span, MoveRef)>,
    /// Whether the 64-square replay read the whole main line, which then starts no event
    /// (it leaves a line that mentions one to the rules core): the JSON report need not
    /// read the line again to list them.
    pub(crate) main_line_starts_no_event: bool,
}

impl Replay {
    /// The moves that replayed, when recorded, by the offset where each is written: what
    /// the game tree's move items are looked up by.
    pub fn played_by_offset(&self) -> PlayedByOffset<'_> {
        let mut moves: Vec<&PlayedMove> = self.played.iter().flat_map(|p| &p.moves).collect();
        // Recorded in file order; sorting is a check that costs nothing then.
        moves.sort_by_key(|m| m.span.offset);
        PlayedByOffset {
            moves,
            next: Cell::new(0),
        }
    }
}

/// The moves that replayed, found by the offset where each is written (searched, not
/// hashed: a lookup per move, in a list already in order).
pub struct PlayedByOffset<'a> {
    moves: Vec<&'a PlayedMove>,
    /// Where the move after the last one found lies: readers ask in file order, so the
    /// next question is nearly always answered there without a search.
    next: Cell<usize>,
}

impl<'a> PlayedByOffset<'a> {
    /// No move recorded: nearly every game of a replay that left out the moves written
    /// canonically.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The move written at `offset` (the last recorded there, should two be).
    pub fn get(&self, offset: usize) -> Option<&'a PlayedMove> {
        let next = self.next.get();
        let at = |i: usize| self.moves.get(i).map(|m| m.span.offset);
        // Between the move before the cursor and the one at it: not recorded (nearly
        // every move of a replay that left out the moves written canonically).
        if at(next).is_none_or(|o| o > offset)
            && next.checked_sub(1).and_then(at).is_none_or(|o| o < offset)
        {
            return None;
        }
        let after = if at(next) == Some(offset) && at(next + 1) != Some(offset) {
            next + 1
        } else {
            self.moves.partition_point(|m| m.span.offset <= offset)
        };
        let found = after
            .checked_sub(1)
            .map(|last| self.moves[last])
            .filter(|m| m.span.offset == offset);
        if found.is_some() {
            self.next.set(after);
        }
        found
    }
}

/// What replaying a game found each move to be, for conversions (`xpgn convert`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Played {
    #[serde(skip)]
    pub recording: Recording,
    /// The start position in FEN (the variant's own, not copied, for nearly every game).
    pub start: Cow<'static, str>,
    /// Every move that replayed, main line and variations, in file order (none for
    /// [`Recording::Board`]).
    pub moves: Vec<PlayedMove>,
    /// Plies of the main line that replayed.
    #[serde(skip)]
    pub main_plies: usize,
    /// [`Recording::Board`]: the main line's position at the asked ply, with the event
    /// state FEN does not hold, and the move that led to it (none at ply 0).
    #[serde(skip)]
    /// Boxed: the record is moved whole once a game, and a position is some 400 bytes.
    pub board: Option<Box<(Position, Option<PlayedMove>)>>,
    /// [`Recording::MainLine`]: the list, the moves in UCI between spaces, or the
    /// position after each move in FEN after a line break.
    #[serde(skip)]
    pub main_line: String,
}

impl Played {
    /// Records a move that replayed, as much of it as the recording keeps.
    fn record(&mut self, v: &Variant, before: &Position, mv: &Move, after: &Position, at: MoveAt) {
        // `detail`: none, or the detail with or without the position after the move.
        let played_move = |detail: Option<bool>| {
            // Judged once, on the position the replay has made already.
            let gives = gives(v, after);
            PlayedMove {
                span: at.span,
                ply: at.ply,
                variation: at.path.to_vec(),
                san: san_giving(v, before, mv, gives).into(),
                detail: detail
                    .map(|fen| Box::new(MoveDetail::new(v, before, mv, after, gives, fen))),
            }
        };
        let main_line = at.path.is_empty();
        self.main_plies += usize::from(main_line);
        match self.recording {
            Recording::Spellings | Recording::Respellings => self.moves.push(played_move(None)),
            // The rules core keeps the moves a main-line list is made of.
            Recording::Moves | Recording::MainLine(MainLine::Uci) => {
                self.moves.push(played_move(Some(false)));
            }
            Recording::Everything | Recording::MainLine(MainLine::Fen) => {
                self.moves.push(played_move(Some(true)));
            }
            Recording::Board(wanted) => {
                if main_line && wanted.is_none_or(|ply| ply == self.main_plies) {
                    self.board = Some(Box::new((after.clone(), Some(played_move(Some(true))))));
                }
            }
        }
    }

    /// After events started at the main line's current ply: the board kept for that ply
    /// has them running.
    fn events_started(&mut self, position: &Position) {
        if let Recording::Board(wanted) = self.recording
            && wanted.is_none_or(|ply| ply == self.main_plies)
            && let Some(kept) = &mut self.board
        {
            kept.0 = position.clone();
        }
    }
}

/// Where a move that replayed stands.
struct MoveAt<'a> {
    span: Span,
    ply: usize,
    path: &'a [(usize, usize)],
}

/// One move as the rules read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayedMove {
    /// Where it is written.
    #[serde(skip)]
    pub span: Span,
    /// Its ply in its line; inside a variation, the path to it (as in diagnostics).
    pub ply: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variation: Vec<(usize, usize)>,
    /// Canonical SAN.
    pub san: CompactString,
    /// The rest, when recording [`Recording::Everything`].
    #[serde(flatten)]
    pub detail: Option<Box<MoveDetail>>,
}

/// What a conversion tells of a move beyond its SAN.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveDetail {
    /// Long notation with the origin, and UCI where the move has one.
    pub lan: CompactString,
    pub uci: Option<CompactString>,
    /// The squares it leaves, passes through (a pass or passage) and ends on.
    pub from: CompactString,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub through: Option<CompactString>,
    pub to: CompactString,
    /// The letter of the piece it captures on its landing square and of the piece it
    /// promotes to.
    pub captured: Option<char>,
    /// The letter of the piece it captures on the square it passes through (a passage
    /// move taking on the entry square, HP-3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captured_through: Option<char>,
    pub promotion: Option<char>,
    /// What events made of it: the event whose own move it is (a push, a turn, a
    /// promotion standing still), the knight that swapped in to be captured (LK-2), the
    /// direction a knight ends facing (LK-8, as the step in files and ranks), and a piece
    /// that appears as part of the move (`K@g7`: a captured king came back, PR-2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swap: Option<CompactString>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub faces: Option<(i32, i32)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placed: Option<CompactString>,
    /// The position after it, in FEN (recorded with [`Recording::Everything`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
}

impl MoveDetail {
    fn new(
        v: &Variant,
        before: &Position,
        mv: &Move,
        after: &Position,
        gives: Gives,
        fen: bool,
    ) -> MoveDetail {
        let g = v.geometry;
        MoveDetail {
            lan: crate::rules::san::lan_giving(v, before, mv, gives).into(),
            uci: crate::rules::san::uci(v, mv).map(CompactString::from),
            from: g.name(mv.from).into(),
            through: match mv.special {
                Special::Pass { hole } if hole != mv.from => Some(g.name(hole).into()),
                _ => None,
            },
            to: g.name(mv.to).into(),
            captured: mv.captured.map(|p| v.piece(p.kind).letter),
            captured_through: mv
                .entry_capture_square(v, before)
                .and_then(|sq| before.piece_at(sq))
                .map(|p| v.piece(p.kind).letter),
            promotion: mv.promotion.map(|k| v.piece(k).letter),
            event: match mv.special {
                Special::Event { number, .. } => Some(number),
                _ => None,
            },
            swap: mv.swap.map(|sq| g.name(sq).into()),
            faces: mv.faces.map(|d| d.step()),
            placed: before
                .events()
                .iter()
                .find_map(|e| e.placed(v, before, mv))
                .map(|(letter, sq)| compact_str::format_compact!("{letter}@{}", g.name(sq))),
            fen: fen.then(|| crate::rules::write_fen(v, after)),
        }
    }
}

/// The main-line lists `convert` writes ([`crate::convert::main_line_text`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MainLine {
    Uci,
    Fen,
}

/// How much a replay records of the moves that replayed ([`Replay::played`]): only what
/// its reader uses, so that a game of 100,000 plies takes megabytes, not hundreds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Recording {
    /// Each move's canonical SAN (what `lint` compares spellings with).
    Spellings,
    /// [`Recording::Spellings`] of the moves not written as their canonical SAN, asked
    /// for with the game's text ([`check_game_respelling`], [`replay_respelling`]): a
    /// move that replayed and is written exactly as its canonical SAN, check mark
    /// included, may be left out. [`Played::recording`] is `Respellings` only where such
    /// moves were left out (the 64-square replay of orthodox games); the rules core
    /// records every move and says `Spellings`.
    Respellings,
    /// What the notations write ([`MoveDetail`] per move, without the position after
    /// it: writing a FEN costs more than the rest of the move).
    Moves,
    #[default]
    /// Everything a conversion writes: [`MoveDetail`] per move, FEN included.
    Everything,
    /// A main-line list alone: the moves in UCI, or the positions after them in FEN, the
    /// text [`crate::convert::main_line_text`] gives, written into [`Played::main_line`]
    /// as the replay goes, with nothing kept per move (the 64-square replay of orthodox
    /// games). The rules core records [`Recording::Moves`] or [`Recording::Everything`]
    /// instead, and [`Played::recording`] says so.
    MainLine(MainLine),
    /// One position of the main line to draw ([`Played::board`]): after this many plies,
    /// or after the last that replays.
    Board(Option<usize>),
}

impl Recording {
    /// What the rules core records for `self`: the moves of a main-line list rather
    /// than the list.
    fn in_rules_core(self) -> Recording {
        match self {
            Recording::MainLine(MainLine::Uci) => Recording::Moves,
            Recording::MainLine(MainLine::Fen) => Recording::Everything,
            recording => recording,
        }
    }
}

/// Checks a parsed game: replays it and merges what reading and replaying found, in
/// file order. The diagnostics of the returned [`Replay`] are all of them.
pub fn check_game(parsed: &ParsedGame, variants: &Variants) -> Replay {
    check_game_as(parsed, variants, None)
}

/// [`check_game`] that also records the moves that replayed ([`Replay::played`]).
pub fn check_game_recording(
    parsed: &ParsedGame,
    variants: &Variants,
    recording: Recording,
) -> Replay {
    check_game_as(parsed, variants, Some((recording, None)))
}

/// [`check_game_recording`] with [`Recording::Respellings`]: `source` is the text the
/// game was read from.
pub fn check_game_respelling(
    parsed: &ParsedGame,
    variants: &Variants,
    source: Source<'_>,
) -> Replay {
    check_game_as(
        parsed,
        variants,
        Some((Recording::Respellings, Some(source))),
    )
}

/// [`check_game`] of a game whose moves [`PlayAsRead`] played as they were read: what
/// that replay concluded, with the findings of reading and of the result.
#[cfg(feature = "cli")]
pub(crate) fn check_game_played(parsed: &ParsedGame, played: &PlayedAsRead) -> Replay {
    let mut replay = orthodox_replay(&parsed.game, played.variant, played.replayed, None);
    add_reading_diagnostics(parsed, &mut replay);
    replay
}

fn check_game_as(
    parsed: &ParsedGame,
    variants: &Variants,
    record: Option<(Recording, Option<Source<'_>>)>,
) -> Replay {
    let mut replay = replay_as(&parsed.game, variants, record);
    add_reading_diagnostics(parsed, &mut replay);
    replay
}

/// Adds the diagnostics found while reading `replay`'s game, all in the order of the
/// text. In place: a `Replay` passed by value is copied whole at every call.
fn add_reading_diagnostics(parsed: &ParsedGame, replay: &mut Replay) {
    if parsed.diagnostics.is_empty() {
        // Nothing read to merge, as in nearly every game: no unreadable token for
        // `unreadable` to place.
        replay.unreadable.clear();
        replay.diagnostics.sort_by_key(|d| d.span.offset);
        return;
    }
    let mut diagnostics = parsed.diagnostics.clone();
    if replay
        .diagnostics
        .iter()
        .any(|d| d.code == Code::UnsupportedVariant)
    {
        // Moves of a variant xpgn does not know (drops, gating) are written in notation
        // it does not know either: the one unsupported-variant finding says it all.
        diagnostics.retain(|d| d.code != Code::UnreadableMove);
    }
    for (span, at) in replay.unreadable.drain(..) {
        if let Some(d) = diagnostics
            .iter_mut()
            .find(|d| d.code == Code::UnreadableMove && d.span.offset == span.offset)
        {
            d.at_move = Some(Box::new(at));
        }
    }
    diagnostics.append(&mut replay.diagnostics);
    diagnostics.sort_by_key(|d| d.span.offset);
    replay.diagnostics = diagnostics;
}

/// EC-2 in the words of the meta rule, where it is why `notation` names no legal move.
fn capture_limit(v: &Variant, pos: &Position, notation: &Notation) -> Option<Rejection> {
    let violation = meta::capture_refusal(v, pos, notation)?;
    Some(Rejection {
        kind: RejectionKind::Illegal,
        reason: violation.to_string(),
        help: Some(violation.help().to_owned()),
    })
}

/// Replays `game`; `variants.default` applies when the game has no `[Variant]` tag.
pub fn replay(game: &Game, variants: &Variants) -> Replay {
    replay_as(game, variants, None)
}

/// [`replay`] that also records every move that replayed ([`Replay::played`]).
pub fn replay_recording(game: &Game, variants: &Variants, recording: Recording) -> Replay {
    replay_as(game, variants, Some((recording, None)))
}

/// [`replay_recording`] with [`Recording::Respellings`]: `source` is the text the game
/// was read from.
pub fn replay_respelling(game: &Game, variants: &Variants, source: Source<'_>) -> Replay {
    replay_as(game, variants, Some((Recording::Respellings, Some(source))))
}

fn replay_as(
    game: &Game,
    variants: &Variants,
    record: Option<(Recording, Option<Source<'_>>)>,
) -> Replay {
    let variant_tag = game.tags.iter().find(|t| t.name.node == "Variant");
    let variant = match variant_tag {
        None => variants.default,
        Some(tag) => match variants.find(&tag.value.node) {
            Some(v) => v,
            None => {
                // Built here only: a report built up front and not used is dropped
                // game by game.
                let mut replay = Replay {
                    variant: Cow::Owned(tag.value.node.to_string()),
                    ..Replay::default()
                };
                replay.diagnostics.push(
                    Diagnostic::new(
                        Code::UnsupportedVariant,
                        tag.value.span,
                        format!(
                            "xpgn does not support the variant `{}`; its moves are not checked",
                            tag.value.node
                        ),
                        "unknown variant",
                    )
                    .with_help(format!(
                        "supported variants: {} (define another in YAML and pass --variant-file)",
                        variants.ids()
                    )),
                );
                return replay;
            }
        },
    };
    let start_events: &[EventStart] = if variant_tag.is_none() {
        &variants.start_events
    } else {
        &[]
    };
    // Event Chess is orthodox chess with events: a game of orthodox chess that starts an
    // event is an Event Chess game (notation.md section 4). Found out while replaying,
    // so that games without events pay nothing for it.
    let recording = record.map(|(recording, _)| recording);
    let as_event_chess = || {
        let event_chess = variants
            .find("event-chess")
            .expect("Event Chess is built in");
        replay_under(game, event_chess, start_events, recording).expect("Event Chess plays events")
    };
    if variant.slug == "standard" && !start_events.is_empty() {
        return as_event_chess();
    }
    if start_events.is_empty()
        && let Some(replay) = replay_orthodox(game, variant, record)
    {
        return replay;
    }
    replay_under(game, variant, start_events, recording).unwrap_or_else(as_event_chess)
}

/// The result a game claims: its termination marker, or else its Result tag.
fn claimed_result(game: &Game) -> Option<Spanned<Outcome>> {
    game.result.or_else(|| {
        let tag = game.tags.iter().find(|t| t.name.node == "Result")?;
        Outcome::parse(&tag.value.node).map(|o| Spanned::new(o, tag.value.span))
    })
}

/// A game of orthodox chess or Chess960 replayed on the 64-square board ([`orthodox`]),
/// recording its moves as the rules core would: `None` where the rules core must replay
/// it.
fn replay_orthodox(
    game: &Game,
    variant: &'static Variant,
    record: Option<(Recording, Option<Source<'_>>)>,
) -> Option<Replay> {
    let (fen_position, start) = orthodox_position(game, variant)?;
    let mut recorder = match record {
        None => None,
        Some((recording, written)) => Some(orthodox::Recorder::new(
            recording,
            variant.chess960,
            written,
        )?),
    };
    let replayed = orthodox::replay(start, &game.moves, recorder.as_mut())?;
    let played = recorder.map(|mut recorder| {
        let start = match &fen_position {
            None => Cow::Borrowed(variant.start_position_fen()),
            Some(position) => Cow::Owned(crate::rules::write_fen(variant, position)),
        };
        let main_line = recorder.take_main_line();
        Box::new(Played {
            recording: recorder.recording(),
            start,
            moves: recorder.moves,
            main_plies: recorder.main_plies,
            board: None,
            main_line,
        })
    });
    Some(orthodox_replay(game, variant, replayed, played))
}

/// The start of `game` under `variant` on the 64-square board, with the position its FEN
/// sets up, if any: `None` where the 64-square replay does not take it.
fn orthodox_position(
    game: &Game,
    variant: &Variant,
) -> Option<(Option<Position>, cozy_chess::Board)> {
    if !matches!(&*variant.slug, "standard" | "chess960") {
        return None;
    }
    let fen_tag = game.tags.iter().find(|t| t.name.node == "FEN");
    // A FEN the core cannot read is its finding to report.
    let fen_position = match fen_tag {
        None if variant.chess960 => return None,
        None => None,
        Some(tag) => Some(parse_fen(variant, &tag.value.node).ok()?),
    };
    let start = match &fen_position {
        None => orthodox::start(),
        Some(position) => orthodox::board_from(variant, position)?,
    };
    Some((fen_position, start))
}

/// The variant `game` is replayed under and its start on the 64-square board, where the
/// 64-square replay takes it, as [`check_game`] chooses them under `variants`, which start
/// no event; `None` where the rules core replays it. With the ply of the first move,
/// counted from 0 for White's first move of a game (a FEN may start later).
#[cfg(feature = "cli")]
fn orthodox_start(
    game: &Game,
    variants: &Variants,
) -> Option<(&'static Variant, cozy_chess::Board, u32)> {
    // One pass over the tags, for every game.
    let (mut variant_tag, mut fen) = (None, None);
    for tag in &game.tags {
        match &*tag.name.node {
            "Variant" if variant_tag.is_none() => variant_tag = Some(tag),
            "FEN" if fen.is_none() => fen = Some(tag),
            _ => {}
        }
    }
    let variant = match variant_tag {
        None => variants.default,
        Some(tag) => variants.find(&tag.value.node)?,
    };
    // Nearly every game starts from the usual position: the position a FEN sets up,
    // some 400 bytes, is neither built nor moved for those.
    if fen.is_none() && matches!(&*variant.slug, "standard") && !variant.chess960 {
        return Some((variant, orthodox::start(), 0));
    }
    let (_, board) = orthodox_position(game, variant)?;
    let first_ply = crate::layout::first_ply(fen.map(|tag| &*tag.value.node));
    Some((variant, board, first_ply))
}

/// What a replay on the 64-square board concluded of `game`, as the report takes it.
#[inline]
fn orthodox_replay(
    game: &Game,
    variant: &'static Variant,
    replayed: orthodox::Replayed,
    played: Option<Box<Played>>,
) -> Replay {
    let mut replay = Replay {
        variant: Cow::Borrowed(&variant.slug),
        plies: replayed.plies,
        ending: replayed.ending,
        main_line_starts_no_event: true,
        played,
        ..Replay::default()
    };
    if let (Some(ending), Some(result)) = (replay.ending, claimed_result(game)) {
        replay.diagnostics.extend(result_finding(ending, &result));
    }
    replay
}

/// Replays `game` under `variant`: `None` when the game starts an event and the variant
/// is orthodox chess, which then is Event Chess.
fn replay_under(
    game: &Game,
    variant: &'static Variant,
    start_events: &[EventStart],
    record: Option<Recording>,
) -> Option<Replay> {
    let mut replay = Replay {
        variant: Cow::Borrowed(&variant.slug),
        ..Replay::default()
    };
    // The main line is played on this position in place: it is some 400 bytes, and
    // each move of it by value would copy it.
    let fen_tag = game.tags.iter().find(|t| t.name.node == "FEN");
    let mut position = match fen_tag {
        None => variant.start_position().clone(),
        Some(tag) => match parse_fen(variant, &tag.value.node) {
            Ok(pos) => pos,
            Err(e) => {
                replay.diagnostics.push(
                    Diagnostic::new(
                        Code::BadFen,
                        tag.value.span,
                        format!("the FEN cannot be used: {e}"),
                        "this position",
                    )
                    .with_help("fix the FEN, or remove the FEN and SetUp tags to start from the usual position"),
                );
                return Some(replay);
            }
        },
    };
    replay.events_from_start = start_events.iter().map(|s| s.event.number()).collect();
    for started in start_events {
        // `--events` was checked when the command line was read (at most two, none
        // twice), so starting cannot fail here; its choices meet this game's position.
        let _ = position.start_event(started.event, None);
        if let Err(why) = started
            .event
            .begin(variant, &mut position, &started.choices)
        {
            let span = game
                .moves
                .first()
                .map_or(Span::new(game.span.offset, 0), |item| item.span);
            replay.diagnostics.push(
                Diagnostic::new(
                    Code::EventRule,
                    span,
                    format!(
                        "--events: the choices of event #{} {} do not fit this game: {why}",
                        started.event.label(),
                        started.event.name()
                    ),
                    "the game starts here",
                )
                .with_help("give choices that fit, or none"),
            );
        }
    }
    let mut replayer = Replayer {
        variant,
        diagnostics: Vec::new(),
        moves: Vec::new(),
        unreadable: Vec::new(),
        starts_events_in_orthodox_chess: false,
        history: variant.events.then(Vec::new),
        played: record.map(|recording| Played {
            recording: recording.in_rules_core(),
            start: if fen_tag.is_none() && start_events.is_empty() {
                Cow::Borrowed(variant.start_position_fen())
            } else {
                Cow::Owned(crate::rules::write_fen(variant, &position))
            },
            moves: Vec::new(),
            main_plies: 0,
            board: matches!(recording, Recording::Board(_))
                .then(|| Box::new((position.clone(), None))),
            main_line: String::new(),
        }),
    };
    let from_start_position = start_events.is_empty() && fen_tag.is_none();
    // Event Chess games keep every move in the history (`Replayer::history`), which the
    // openings' shortcut would have to do too: they take the ordinary way.
    let main = if from_start_position && record.is_none() && !variant.events {
        Openings::with(variant, |openings| {
            let opening = Some((openings, openings::ROOT));
            replayer.line(
                &game.moves,
                &mut position,
                0,
                &mut Vec::new(),
                Vec::new(),
                opening,
            )
        })
    } else {
        replayer.line(
            &game.moves,
            &mut position,
            0,
            &mut Vec::new(),
            Vec::new(),
            None,
        )
    };
    if replayer.starts_events_in_orthodox_chess {
        return None;
    }
    replay.plies = main.plies;
    if main.complete {
        replay.ending = crate::rules::ending::ending(variant, &position, &main.keys);
        let claimed = claimed_result(game);
        let winner = claimed.as_ref().and_then(|result| match result.node {
            Outcome::WhiteWins => Some(crate::rules::Color::White),
            Outcome::BlackWins => Some(crate::rules::Color::Black),
            _ => None,
        });
        // A win the board does not show may be what tells an event's secret (TH-5): the
        // last move is played again once the events have taken the claim in.
        if let Some(winner) = winner.filter(|_| replay.ending.is_none())
            && let Some((mut before, mv)) = main.last.as_deref().cloned()
            && mv.piece.color == winner
            && claim_win(variant, &mut before, &mv)
        {
            variant.play(&mut before, &mv);
            position = before;
            replay.ending = crate::rules::ending::ending(variant, &position, &main.keys);
        }
        if let (Some(ending), Some(result)) = (replay.ending, claimed) {
            replayer.diagnostics.extend(result_finding(ending, &result));
        }
    }
    replay.event_reports = main
        .followers
        .iter()
        .filter_map(|(_, follower)| follower.report(variant, &position))
        .collect();
    replay.diagnostics.extend(replayer.diagnostics);
    replay.unreadable = replayer.unreadable;
    replay.played = replayer.played.map(Box::new);
    Some(replay)
}

struct Replayer<'v> {
    variant: &'v Variant,
    diagnostics: Vec<Diagnostic>,
    unreadable: Vec<(Span, MoveRef)>,
    /// Scratch space for move generation.
    moves: Vec<crate::rules::Move>,
    /// An event command met in a game of orthodox chess: replay it as Event Chess.
    starts_events_in_orthodox_chess: bool,
    /// The moves that replayed, when recording for a conversion.
    played: Option<Played>,
    /// In Event Chess games, the moves of the line being replayed with the position before
    /// each, from the game's first position: what an event that starts learns of the game
    /// before it ([`crate::rules::Event::learn_history`]).
    history: Option<Vec<(Position, Move)>>,
}

/// The outcome of replaying one line (the position it ends in is the one it was given).
struct Line {
    plies: usize,
    /// Every move replayed (no illegal move, no unsupported event).
    complete: bool,
    /// Repetition keys of the positions before the final one.
    keys: Vec<u64>,
    /// What the running events read from the line's record, by event number.
    followers: Followers,
    /// The line's last move and the position before it, where events run (boxed: a line
    /// is returned by value, and orthodox lines have none).
    last: Option<Box<(Position, Move)>>,
}

/// The readers of a line's record that the running events keep ([`Follower`]).
type Followers = Vec<(u16, Box<dyn Follower>)>;

/// Gives every running event that reads the record and has no reader yet its own.
fn add_followers(v: &Variant, position: &Position, next_ply: usize, followers: &mut Followers) {
    for event in position.events() {
        let number = event.number();
        if !followers.iter().any(|(n, _)| *n == number)
            && let Some(follower) = event.follower(v, position, next_ply)
        {
            followers.push((number, follower));
        }
    }
}

impl Replayer<'_> {
    /// Replays a line from `position`; `ply` is the number of plies before its first move.
    /// `followers` read the record for the running events, with what the moves before
    /// the line's start told them (HP-8). `opening`: the openings kept and the root, for a
    /// main line from the variant's start position.
    fn line(
        &mut self,
        items: &[Spanned<Item>],
        position: &mut Position,
        mut ply: usize,
        path: &mut Vec<(usize, usize)>,
        mut followers: Followers,
        mut opening: Option<(&mut Openings, Node)>,
    ) -> Line {
        let v = self.variant;
        add_followers(v, position, ply + 1, &mut followers);
        let history_at_start = self.history.as_ref().map(Vec::len);
        let mut before: Option<Position> = None;
        let mut keys = Vec::with_capacity(count_moves(items));
        let mut variations_here = 0;
        let mut stopped = false;
        let mut replayed = 0;
        // The moves after the current one, counted once events run (TH-5 asks for the
        // last move), so that orthodox lines pay nothing for it.
        let mut later_moves: Option<usize> = None;
        let mut last = None;
        for (index, item) in items.iter().enumerate() {
            match &item.node {
                Item::Move(_) if stopped => {
                    // Past an illegal move positions are unknown, and so are the starts
                    // of later variations.
                    before = None;
                }
                Item::Move(notation) => {
                    variations_here = 0;
                    ply += 1;
                    if position.has_events() {
                        let left = later_moves.get_or_insert_with(|| count_moves(&items[index..]));
                        *left -= 1;
                    }
                    // Built only for a diagnostic: the line's hot path allocates nothing.
                    let at = || MoveRef {
                        ply,
                        written: notation.to_string(),
                        variation: path.clone(),
                    };
                    keys.push(position.key(v));
                    // Past the plies kept no move is found, nor kept.
                    let code = opening
                        .as_ref()
                        .filter(|_| ply <= openings::MAX_PLY)
                        .and_then(|_| openings::code(notation));
                    let found = match (&opening, code) {
                        (Some((openings, node)), Some(code)) => openings.find(*node, code),
                        _ => None,
                    };
                    // The position before the move is kept only where something reads
                    // it: a variation that replaces this move, or a check mark to judge
                    // (a move found among the openings replayed cleanly: none to judge).
                    // (Assigned in two branches: building the `Option` beside and moving it
                    // in copies a whole position on every move.)
                    if variation_follows(&items[index + 1..])
                        || (notation.check.is_some() && found.is_none())
                    {
                        before = Some(position.clone());
                    } else {
                        before = None;
                    }
                    if let Some((mv, next)) = found
                        && let Some((_, node)) = &mut opening
                    {
                        v.play(position, &mv);
                        *node = next;
                        replayed += 1;
                        continue;
                    }
                    let diagnostics_before = self.diagnostics.len();
                    let mut resolved = None;
                    if notation.is_null() {
                        if path.is_empty() {
                            self.null_move_warning(item.span, at());
                        }
                        v.play_null(position);
                    } else {
                        if position.has_events()
                            && let Err(rejection) = reveal(v, position, notation)
                        {
                            let later = count_moves(&items[index + 1..]);
                            self.rejected(&rejection, item.span, at(), later);
                            stopped = true;
                            keys.pop();
                            continue;
                        }
                        // Matched by reference: copying the move out of the result reads
                        // it back wider than it was written, which stalls.
                        match &resolve_with(v, position, notation, &mut self.moves) {
                            Ok(mv) => {
                                // Games whose events read the record keep the position
                                // before each move: what the move tells is judged against it.
                                let prior = (!followers.is_empty()).then(|| position.clone());
                                // `#` on a move that mates nothing may be what tells an
                                // event's secret (TH-5), before the move is played.
                                if notation.check == Some(CheckMark::Mate) && position.has_events()
                                {
                                    claim_win(v, position, mv);
                                }
                                let recorded = self.played.as_ref().map(|_| position.clone());
                                if let Some(history) = &mut self.history {
                                    history.push((position.clone(), *mv));
                                }
                                // The last move of a line with events is kept with the
                                // position before it: the result may claim it won (TH-5).
                                if later_moves == Some(0) {
                                    last = Some(Box::new((position.clone(), *mv)));
                                }
                                v.play(position, mv);
                                if let (Some(before), Some(played)) = (recorded, &mut self.played) {
                                    let at = MoveAt {
                                        span: item.span,
                                        ply,
                                        path,
                                    };
                                    played.record(v, &before, mv, position, at);
                                }
                                if let Some(prior) = prior {
                                    let later = || count_moves(&items[index + 1..]);
                                    let moved = Moved {
                                        before: &prior,
                                        after: position,
                                        mv,
                                        written: notation,
                                        span: item.span,
                                        at: &at,
                                        later: &later,
                                    };
                                    let mut goes_on = true;
                                    for (_, follower) in &mut followers {
                                        goes_on &=
                                            follower.follow(v, &moved, &mut self.diagnostics);
                                    }
                                    if !goes_on {
                                        stopped = true;
                                        replayed += 1;
                                        continue;
                                    }
                                }
                                if let Some(previous) = &before
                                    && notation.check.is_some()
                                {
                                    self.check_mark(
                                        previous, position, mv, notation, item.span, at,
                                    );
                                }
                                resolved = Some(*mv);
                            }
                            Err(rejection) => {
                                let later = count_moves(&items[index + 1..]);
                                let limit = v.events.then(|| capture_limit(v, position, notation));
                                self.rejected(
                                    limit.flatten().as_ref().unwrap_or(rejection),
                                    item.span,
                                    at(),
                                    later,
                                );
                                stopped = true;
                                keys.pop();
                                continue;
                            }
                        }
                    }
                    replayed += 1;
                    if let Some((openings, node)) = opening.take() {
                        let clean =
                            self.diagnostics.len() == diagnostics_before && !position.has_events();
                        opening = code
                            .zip(resolved)
                            .filter(|_| clean)
                            .and_then(|(code, mv)| openings.keep(node, ply, code, mv))
                            .map(|next| (openings, next));
                    }
                }
                Item::Variation(variation) => {
                    // A variation replaces the move before it; after an illegal move only
                    // the variation right behind that move has a known start.
                    let Some(mut start) = before.clone() else {
                        continue;
                    };
                    variations_here += 1;
                    path.push((ply, variations_here));
                    let earlier = followers
                        .iter()
                        .map(|(number, follower)| (*number, follower.fork(ply)))
                        .collect();
                    // The variation's past ends before the move it replaces, the last one
                    // kept if it replayed (no other move left that position).
                    let replaced = self
                        .history
                        .as_mut()
                        .and_then(|history| history.pop_if(|(past, _)| *past == start));
                    self.line(variation, &mut start, ply - 1, path, earlier, None);
                    if let (Some(history), Some(replaced)) = (&mut self.history, replaced) {
                        history.push(replaced);
                    }
                    path.pop();
                }
                Item::Comment(comment) if !stopped && mentions_event(&comment.text) => {
                    // Events change the position otherwise than moves do.
                    opening = None;
                    let offset = item.span.offset + 1;
                    for command in parse_commands(&comment.text, offset).0 {
                        if let Command::Event(event) = command.node
                            && self.start_event(position, &event, items, index).is_err()
                        {
                            stopped = true;
                            break;
                        }
                    }
                    if !stopped {
                        add_followers(v, position, ply + 1, &mut followers);
                        self.events_started_here(position, path);
                    }
                }
                // A word that could not be read was most likely meant as a move: what
                // follows cannot be placed (the token has its own diagnostic, which is
                // given the ply here). Stray brackets and symbols are no moves.
                Item::Unreadable(text) if text.starts_with(|c: char| c.is_alphanumeric()) => {
                    if !stopped {
                        self.unreadable.push((
                            item.span,
                            MoveRef {
                                ply: ply + 1,
                                // As the diagnostic's message cuts it: a token may be a
                                // megabyte long.
                                written: crate::pgn::truncate(text, 40),
                                variation: path.clone(),
                            },
                        ));
                    }
                    stopped = true;
                }
                Item::EventLine(line) if !stopped => {
                    opening = None;
                    if let Some(event) = &line.event {
                        if self.start_event(position, event, items, index).is_err() {
                            stopped = true;
                        } else {
                            add_followers(v, position, ply + 1, &mut followers);
                            self.events_started_here(position, path);
                        }
                    }
                }
                _ => {}
            }
        }
        if let (Some(history), Some(len)) = (&mut self.history, history_at_start) {
            history.truncate(len);
        }
        Line {
            plies: replayed,
            complete: !stopped,
            keys,
            followers,
            last,
        }
    }

    /// The recorded main-line position after the last ply becomes the one with the
    /// events just started, so that a board shown after that ply has them running.
    fn events_started_here(&mut self, position: &Position, path: &[(usize, usize)]) {
        if path.is_empty()
            && let Some(played) = &mut self.played
        {
            played.events_started(position);
        }
    }

    fn rejected(
        &mut self,
        rejection: &crate::rules::san::Rejection,
        span: Span,
        at: MoveRef,
        later: usize,
    ) {
        let (code, label) = match rejection.kind {
            RejectionKind::Illegal => (Code::IllegalMove, "illegal here"),
            RejectionKind::Ambiguous => (Code::AmbiguousMove, "ambiguous"),
            RejectionKind::Unsupported => (Code::UnsupportedPiece, "not supported"),
        };
        let tail = match later {
            0 => String::new(),
            1 => "; the move after it in this line is not checked".to_owned(),
            n => format!("; the {n} moves after it in this line are not checked"),
        };
        let message = format!(
            "`{}` at ply {}: {}{tail}",
            at.written, at.ply, rejection.reason
        );
        let mut diagnostic = Diagnostic::new(code, span, message, label).at_move(at);
        diagnostic.help = rejection.help.clone().map(Cow::Owned);
        self.diagnostics.push(diagnostic);
    }

    fn null_move_warning(&mut self, span: Span, at: MoveRef) {
        self.diagnostics.push(
            Diagnostic::new(
                Code::NullMove,
                span,
                format!(
                    "null move `{}` in the main line: replayed as a pass",
                    at.written
                ),
                "the side to move passes",
            )
            .with_help("fine for odds games; in analysis, put null moves in a variation")
            .at_move(at),
        );
    }

    fn check_mark(
        &mut self,
        before: &Position,
        after: &Position,
        mv: &crate::rules::Move,
        notation: &Notation,
        span: Span,
        at: impl FnOnce() -> MoveRef,
    ) {
        let v = self.variant;
        let actual = gives(v, after);
        let claimed = notation.check;
        let problem = match (claimed, actual) {
            (Some(CheckMark::Check), Gives::Check) | (Some(CheckMark::Mate), Gives::Mate) => None,
            (_, Gives::Nothing) => Some(match no_check_under_events(v, after, mv) {
                Some(why) => format!("it gives no check: {why}"),
                None => "it gives no check".to_owned(),
            }),
            (Some(CheckMark::Check), Gives::Mate) => {
                Some(match crate::rules::ending::ending(v, after, &[]) {
                    Some(Ending::EventWin { winner, event }) => {
                        crate::rules::events::by_number(event)
                            .map_or("it ends the game".to_owned(), |e| {
                                format!("it ends the game: {}", e.victory(winner).1)
                            })
                    }
                    _ => "it is checkmate".to_owned(),
                })
            }
            (Some(CheckMark::Mate), Gives::Check) => {
                self.moves.clear();
                v.legal_moves(after, &mut self.moves);
                let reply = self.moves.first().map(|m| san(v, after, m));
                Some(match reply {
                    Some(reply) => {
                        format!("it is check, not mate: {} can answer `{reply}`", after.turn)
                    }
                    None => "it is check, not mate".to_owned(),
                })
            }
            (None, _) => None,
        };
        if let Some(problem) = problem {
            let at = at();
            let right = san(v, before, mv);
            self.diagnostics.push(
                Diagnostic::new(
                    Code::WrongCheckMark,
                    span,
                    format!("`{}` at ply {}: {problem}", at.written, at.ply),
                    "check mark does not match the position",
                )
                .with_help(format!("write `{right}`"))
                .at_move(at),
            );
        }
    }

    /// Starts the event a command or transcript line announces for the side to move,
    /// after the meta rules (`rules::meta`: EC-1, EC-3, EC-12). `Err` when the rest of the
    /// line cannot be checked.
    fn start_event(
        &mut self,
        position: &mut Position,
        command: &EventCommand,
        items: &[Spanned<Item>],
        index: usize,
    ) -> Result<(), ()> {
        let number = command.number.node;
        let label = EventLabel(number);
        let later = count_moves(&items[index + 1..]);
        let v = self.variant;
        let span = command.number.span;
        if !v.events && v.slug == "standard" {
            self.starts_events_in_orthodox_chess = true;
            return Err(());
        }
        if !v.events {
            self.diagnostics.push(
                Diagnostic::new(
                    Code::UnsupportedEvent,
                    span,
                    format!(
                        "events start only in Event Chess games, and this game is {}; the {later} moves after it are not checked",
                        v.name
                    ),
                    "an event",
                )
                .with_help("tag the game [Variant \"Event Chess\"]"),
            );
            return Err(());
        }
        let by = position.turn;
        let rule = |message: String, help: &str| {
            Diagnostic::new(Code::EventRule, span, message, "this event").with_help(help.to_owned())
        };
        // The meta rules hold for every event number, played by xpgn or not (EC-1).
        if let Some(violation) = meta::refusal(position, number, Some(by)) {
            self.diagnostics
                .push(rule(violation.to_string(), violation.help()));
            return Ok(());
        }
        let Some(event) = events::find(number, command.older) else {
            self.unsupported_event(&command.number, command.older, later);
            return Err(());
        };
        if !command.choices.is_empty() && !event.takes_choices() {
            self.diagnostics.push(rule(
                format!(
                    "event #{label} {} takes no choices, yet the command gives {}",
                    event.name(),
                    command.choices.len()
                ),
                &format!("write [%event {label}]"),
            ));
        }
        let choices: Vec<Choice> = if event.takes_choices() {
            command.choices.iter().map(|choice| choice.node).collect()
        } else {
            Vec::new()
        };
        // Started all the same: the moves that follow were played under it (EC-3, EC-12).
        for violation in meta::breaches(v, position, event, &choices) {
            self.diagnostics
                .push(rule(violation.to_string(), violation.help()));
        }
        position
            .start_event(event, Some(by))
            .expect("EC-1 left room for it");
        let begun = event.begin(v, position, &choices);
        if let Some(history) = &self.history {
            event.learn_history(v, position, history);
        }
        if let Err(why) = begun {
            // Whether the event may start with its choices secret (#5, #68), or needs
            // them (#29, #85): only the help says which.
            let secret_allowed =
                !choices.is_empty() && event.begin(v, &mut position.clone(), &[]).is_ok();
            let span = command.choices.first().zip(command.choices.last()).map_or(
                span,
                |(first, last)| {
                    Span::new(
                        first.span.offset,
                        last.span.offset + last.span.len - first.span.offset,
                    )
                },
            );
            self.diagnostics.push(
                Diagnostic::new(
                    Code::EventRule,
                    span,
                    format!(
                        "the choices of event #{label} {} cannot all be used: {why}",
                        event.name()
                    ),
                    "these choices",
                )
                .with_help(if secret_allowed {
                    format!("write the choices as `[%event {label} ...]` allows, or none to keep them secret")
                } else {
                    format!("write the choices as `[%event {label} ...]` allows: they are public, and the event needs them")
                }),
            );
        }
        Ok(())
    }

    fn unsupported_event(&mut self, number: &Spanned<u16>, older: bool, later: usize) {
        let name = events::name_of(number.node).map_or(String::new(), |n| format!(" ({n})"));
        let label = EventLabel(number.node);
        let (what, help) = if older && events::by_number(number.node).is_some() {
            (
                format!("the older wording of event #{label}{name}"),
                format!("xpgn plays only the newest wording of #{label}: write [%event {label}]"),
            )
        } else if let Some(Support::Unsupported { reason, page }) =
            events::catalogue::support(number.node)
        {
            let message = format!(
                "event #{label}{name} cannot be checked from a game's record: {reason}; the {later} moves after it are not checked"
            );
            self.diagnostics.push(
                Diagnostic::new(Code::UnsupportedEvent, number.span, message, "this event")
                    .with_help(format!(
                        "the moves before the event are checked; {page} says why the rest cannot be"
                    )),
            );
            return;
        } else {
            (
                format!("event #{label}{name}"),
                "`xpgn variants` lists the events this version plays".to_owned(),
            )
        };
        self.diagnostics.push(
            Diagnostic::new(
                Code::UnsupportedEvent,
                number.span,
                format!(
                    "{what} is not supported by this version of xpgn; the {later} moves after it are not checked"
                ),
                "this event",
            )
            .with_help(help),
        );
    }
}

/// The finding where the result a game claims contradicts how its board ends.
fn result_finding(ending: Ending, result: &Spanned<Outcome>) -> Option<Diagnostic> {
    let won_by = |winner| match winner {
        crate::rules::Color::White => Outcome::WhiteWins,
        crate::rules::Color::Black => Outcome::BlackWins,
    };
    let expected = match ending {
        Ending::Checkmate { winner } | Ending::EventWin { winner, .. } => won_by(winner),
        Ending::Stalemate => Outcome::Draw,
        _ => return None,
    };
    (result.node != expected).then(|| {
        let what = match ending {
            Ending::Checkmate { winner } => format!("{winner} has mated"),
            Ending::EventWin { winner, event } => events::by_number(event)
                .map_or_else(|| format!("{winner} has won"), |e| e.victory(winner).1),
            _ => "the game ended in stalemate".to_owned(),
        };
        Diagnostic::new(
            Code::ResultContradictsBoard,
            result.span,
            format!(
                "the result `{}` contradicts the board: {what}",
                result.node.as_str()
            ),
            "result",
        )
        .with_help(format!("write `{}`", expected.as_str()))
    })
}

/// Lets the running events learn from a written move what the record kept secret
/// (PR-4: `K@g7` names the chosen pawn), before the move is resolved.
fn reveal(v: &Variant, position: &mut Position, notation: &Notation) -> Result<(), Rejection> {
    let crate::notation::MoveBody::Piece(m) = &notation.body else {
        return Ok(());
    };
    for event in position.events() {
        event.reveal(v, position, m)?;
    }
    Ok(())
}

/// Asks the running events to explain a win the record claims for `mv`, about to be
/// played in `position`, where the board would show none
/// ([`crate::rules::Event::explain_win`]).
fn claim_win(v: &Variant, position: &mut Position, mv: &Move) -> bool {
    let mut after = position.clone();
    v.play(&mut after, mv);
    gives(v, &after) != Gives::Mate
        && position
            .events()
            .into_iter()
            .any(|event| event.explain_win(v, position, mv))
}

/// Whether a variation stands between this point and the line's next move.
fn variation_follows(items: &[Spanned<Item>]) -> bool {
    items
        .iter()
        .take_while(|i| !matches!(i.node, Item::Move(_)))
        .any(|i| matches!(i.node, Item::Variation(_)))
}

/// Moves in a line (not counting variations).
fn count_moves(items: &[Spanned<Item>]) -> usize {
    items
        .iter()
        .filter(|i| matches!(i.node, Item::Move(_)))
        .count()
}

/// Why the piece `mv` moved does not check the king it would check by the variant's own
/// rules, when a running event changes what pieces attack (#71: too far away) or took
/// the piece off after its move (ST-6).
fn no_check_under_events(v: &Variant, after: &Position, mv: &Move) -> Option<String> {
    if after.has_events()
        && after.piece_at(mv.to).is_none()
        && matches!(mv.special, Special::Normal | Special::Pass { .. })
    {
        return Some(format!(
            "a running event took the {} off {} once it had moved",
            v.pieces[mv.piece.kind.index()].name,
            v.geometry.name(mv.to)
        ));
    }
    if !after.reach_changed() {
        return None;
    }
    let piece = after.piece_at(mv.to)?;
    let orthodox = v.attacks(piece.kind, piece.color, mv.to, after.occupied());
    after
        .checkable_kings(v, after.turn)
        .into_iter()
        .filter(|&king| orthodox.contains(king))
        .find_map(|king| {
            after
                .events()
                .into_iter()
                .find_map(|event| event.why_unreached(v, after, mv.to, piece, king))
        })
}
