//! Turns in several parts, shared by the events whose turn may be two moves (#13 Pawn
//! March: two pawns; #51 Monster Queen: two queen steps; #102 Running kings: two king
//! steps), written `e4,d4`, `Qxe5,Qxe6#`, `Kxf7,Ke8`: each part is an ordinary move,
//! played as the board stands after the part before it; the first may leave the mover's
//! own king in check, the second, which ends the turn, may not.
//!
//! A turn is one of its event's own moves: the first part's piece, squares and promotion,
//! and in `data` the second part's squares and which of the moves between them it is.
//! The event marks the positions between the parts in word [`PHASE_WORD`] of its slot
//! ([`Phase`]): while the mover chooses his first part his kings cannot be checked, and
//! the event's `allows` keeps to the moves its rules let be parts. So the parts are found,
//! resolved, explained and written as the moves of those positions, with every running
//! event's rules (a #12 sideways step is a pawn move of #13), and a turn is legal when its
//! second part is.

use crate::notation::{MoveBody, Notation};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::Event;
use crate::rules::moves::{Move, Special};
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

/// The word of the event's slot that says where a turn in parts stands.
pub(super) const PHASE_WORD: usize = 3;

/// Where a turn in parts stands, in a position of its event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// No turn in parts is under way: a position of the game.
    Idle,
    /// This player chooses the first part; his kings cannot be checked meanwhile.
    First(Color),
    /// The first part is played and left its piece on the square; the second ends the
    /// turn.
    Second(Color, Sq),
}

impl Phase {
    fn word(self) -> u16 {
        match self {
            Phase::Idle => 0,
            Phase::First(color) => 1 | (color.index() as u16) << 2,
            Phase::Second(color, sq) => 2 | (color.index() as u16) << 2 | u16::from(sq.0) << 3,
        }
    }

    fn from_word(word: u16) -> Phase {
        let color = Color::BOTH[usize::from(word >> 2 & 1)];
        match word & 3 {
            1 => Phase::First(color),
            2 => Phase::Second(color, Sq((word >> 3) as u8)),
            _ => Phase::Idle,
        }
    }
}

/// What an event that makes turns in parts says of them.
pub(super) trait Parts: Event {
    /// Whether `mv`, a move of the side to move, may be a turn's first part.
    fn first_part(&self, v: &Variant, pos: &Position, mv: &Move) -> bool;

    /// Whether `mv` may be the second part after a first that left its piece on `moved`.
    fn second_part(&self, v: &Variant, pos: &Position, moved: Sq, mv: &Move) -> bool;

    /// Why the side to move may make no such turn now (#102: his three are spent), with
    /// the ruling.
    fn why_no_turn(&self, _v: &Variant, _pos: &Position) -> Option<String> {
        None
    }

    /// Whether a written turn is this event's to read, by its parts as written (the
    /// piece letters).
    fn reads_parts(&self, parts: &[MoveBody]) -> bool;

    /// The ruling that says a turn has two parts, for a turn written with more.
    fn two_parts_ruling(&self) -> &'static str;

    /// Why the parts as written can make no turn of this event whatever the position (a
    /// castle as a king's step, RK-1), with the ruling.
    fn refuse_written(&self, _parts: &[MoveBody]) -> Option<String> {
        None
    }
}

/// Where a turn of event `number` stands in `pos`.
pub(super) fn phase(pos: &Position, number: u16) -> Phase {
    pos.event_state(number).map_or(Phase::Idle, |state| {
        Phase::from_word(state.words[PHASE_WORD])
    })
}

fn set_phase(pos: &mut Position, number: u16, phase: Phase) {
    let mut state = pos.event_state(number).copied().unwrap_or_default();
    state.words[PHASE_WORD] = phase.word();
    pos.set_event_state(number, state);
}

/// Whether a running event stands between the parts of one of its turns: no event
/// starts a turn there.
pub(super) fn between_parts(pos: &Position) -> bool {
    pos.events().iter().any(|event| event.between_parts(pos))
}

/// [`Event::can_be_checked`] of an event that makes turns: not the kings of a player who
/// chooses his first part (an intermediate check is allowed).
pub(super) fn can_be_checked(pos: &Position, number: u16, color: Color) -> bool {
    phase(pos, number) != Phase::First(color)
}

/// Whether `mv` takes a piece standing on the board to another square: every part does
/// (a drop, #7, or a promotion by standing still, #43, is none).
fn moves_a_piece(pos: &Position, mv: &Move) -> bool {
    mv.from != mv.to && pos.piece_at(mv.from) == Some(mv.piece)
}

fn is_first<P: Parts + ?Sized>(event: &P, v: &Variant, pos: &Position, mv: &Move) -> bool {
    moves_a_piece(pos, mv) && event.first_part(v, pos, mv)
}

fn is_second<P: Parts + ?Sized>(
    event: &P,
    v: &Variant,
    pos: &Position,
    moved: Sq,
    mv: &Move,
) -> bool {
    moves_a_piece(pos, mv) && event.second_part(v, pos, moved, mv)
}

/// [`Event::allows`] of an event that makes turns: between its parts, only the moves it
/// lets be parts.
pub(super) fn allows<P: Parts + ?Sized>(event: &P, v: &Variant, pos: &Position, mv: &Move) -> bool {
    match phase(pos, event.number()) {
        Phase::Idle => true,
        Phase::First(_) => is_first(event, v, pos, mv),
        Phase::Second(_, moved) => is_second(event, v, pos, moved, mv),
    }
}

/// `pos` as the side to move chooses a turn's first part.
fn choosing_first(pos: &Position, number: u16) -> Position {
    let mut first = pos.clone();
    set_phase(&mut first, number, Phase::First(pos.turn));
    first
}

/// `first` played on `choosing`, the second part to choose.
fn after_first(v: &Variant, choosing: &Position, number: u16, first: &Move) -> Position {
    let mut mid = choosing.clone();
    v.play_part(&mut mid, first);
    set_phase(&mut mid, number, Phase::Second(first.piece.color, first.to));
    mid
}

/// The moves from `from` to `to` in `pos` that `is_part` takes, legal or not, in the
/// order the generator gives them.
fn part_moves(
    v: &Variant,
    pos: &Position,
    (from, to): (Sq, Sq),
    is_part: impl Fn(&Move) -> bool,
) -> Vec<Move> {
    let mut moves = Vec::new();
    v.pseudo_moves(pos, from.bit(), to.bit(), &mut moves);
    moves.retain(|mv| is_part(mv));
    moves
}

/// The turn of `first` then `second` (played in `mid`) as one of the event's own moves;
/// `None` where the second is not the first four between its squares (never with the
/// standard pieces: four promotions).
fn encode<P: Parts + ?Sized>(
    event: &P,
    v: &Variant,
    mid: &Position,
    first: &Move,
    second: &Move,
) -> Option<Move> {
    let moved = first.to;
    let nth = part_moves(v, mid, (second.from, second.to), |mv| {
        is_second(event, v, mid, moved, mv)
    })
    .iter()
    .position(|mv| mv == second)
    .filter(|&nth| nth < 4)?;
    Some(Move {
        piece: first.piece,
        from: first.from,
        to: first.to,
        captured: first.captured.or(second.captured),
        promotion: first.promotion,
        special: Special::Event {
            number: event.number(),
            data: u16::from(second.from.0) | u16::from(second.to.0) << 7 | (nth as u16) << 14,
        },
        // A first part that promotes to a knight ends facing a direction (#85, #29,
        // #121): the turn carries it, as those events attach it to a promotion.
        faces: first.faces,
        swap: None,
        returned: None,
    })
}

/// The second part's squares and its place among the moves between them.
fn second_of(turn: &Move) -> (Sq, Sq, usize) {
    let Special::Event { data, .. } = turn.special else {
        unreachable!("a turn in parts is an event's own move")
    };
    (
        Sq((data & 0x7f) as u8),
        Sq((data >> 7 & 0x7f) as u8),
        usize::from(data >> 14),
    )
}

/// The first part of `turn` in `choosing`.
fn first_of<P: Parts + ?Sized>(event: &P, v: &Variant, choosing: &Position, turn: &Move) -> Move {
    part_moves(v, choosing, (turn.from, turn.to), |mv| {
        mv.promotion == turn.promotion
            && (turn.faces.is_none() || mv.faces == turn.faces)
            && is_first(event, v, choosing, mv)
    })
    .first()
    .copied()
    .expect("a turn's first part is a move where the turn was made")
}

/// The second part of `turn` in `mid`, its first part played.
fn second_in<P: Parts + ?Sized>(event: &P, v: &Variant, mid: &Position, turn: &Move) -> Move {
    let (from, to, nth) = second_of(turn);
    let Phase::Second(_, moved) = phase(mid, event.number()) else {
        unreachable!("the first part is played")
    };
    part_moves(v, mid, (from, to), |mv| is_second(event, v, mid, moved, mv))
        .get(nth)
        .copied()
        .expect("a turn's second part is a move where the turn was made")
}

/// [`Event::extra_moves`] of an event that makes turns: its legal turns from `from` to
/// `to` (their first parts' squares), one per first part and second part. The core
/// judges them again by playing them, which finds them legal: their second parts are.
pub(super) fn generate<P: Parts + ?Sized>(
    event: &P,
    v: &Variant,
    pos: &Position,
    (from, to): (Bitboard, Bitboard),
    out: &mut Vec<Move>,
) {
    if between_parts(pos) || event.why_no_turn(v, pos).is_some() {
        return;
    }
    let number = event.number();
    let choosing = choosing_first(pos, number);
    let mut firsts = Vec::new();
    v.legal_moves_between(&choosing, from, to, &mut firsts);
    let mut seconds = Vec::new();
    for (k, first) in firsts.iter().enumerate() {
        // One first part per squares and promotion: the turn names no more of it.
        if firsts[..k]
            .iter()
            .any(|m| (m.from, m.to, m.promotion) == (first.from, first.to, first.promotion))
        {
            continue;
        }
        let mid = after_first(v, &choosing, number, first);
        v.legal_moves(&mid, &mut seconds);
        out.extend(
            seconds
                .iter()
                .filter_map(|second| encode(event, v, &mid, first, second)),
        );
    }
}

/// [`Event::play_extra`] of an event that makes turns: both parts, on the board.
/// Returns the en-passant square the first part gave (a double step), which the second
/// part's play cleared.
pub(super) fn play<P: Parts + ?Sized>(
    event: &P,
    v: &Variant,
    pos: &mut Position,
    turn: &Move,
) -> Option<Sq> {
    let number = event.number();
    set_phase(pos, number, Phase::First(turn.piece.color));
    let first = first_of(event, v, pos, turn);
    v.play_part(pos, &first);
    let first_ep = pos.ep;
    set_phase(pos, number, Phase::Second(turn.piece.color, first.to));
    let second = second_in(event, v, pos, turn);
    v.play_part(pos, &second);
    set_phase(pos, number, Phase::Idle);
    first_ep
}

/// The parts of `turn` with the positions they are played in.
fn parts_of<P: Parts + ?Sized>(
    event: &P,
    v: &Variant,
    pos: &Position,
    turn: &Move,
) -> [(Position, Move); 2] {
    let number = event.number();
    let choosing = choosing_first(pos, number);
    let first = first_of(event, v, &choosing, turn);
    let mid = after_first(v, &choosing, number, &first);
    let second = second_in(event, v, &mid, turn);
    [(choosing, first), (mid, second)]
}

/// [`Event::san`] of an event that makes turns: the parts' SAN joined by a comma
/// (`e4,d4`, `Qxe5,Qxe6`), each as the board stands when it is played.
pub(super) fn san<P: Parts + ?Sized>(
    event: &P,
    v: &Variant,
    pos: &Position,
    turn: &Move,
) -> String {
    let parts = parts_of(event, v, pos, turn);
    let written: Vec<String> = parts
        .iter()
        .map(|(at, part)| san::san_plain(v, at, part))
        .collect();
    written.join(",")
}

/// [`Event::lan`] of an event that makes turns: the parts in long notation
/// (`e2-e4,d2-d4`), each as the core writes a move (through a passage, an event's own),
/// without the check mark, which belongs to the turn.
pub(super) fn lan<P: Parts + ?Sized>(
    event: &P,
    v: &Variant,
    pos: &Position,
    turn: &Move,
) -> String {
    let parts = parts_of(event, v, pos, turn);
    let written: Vec<String> = parts
        .iter()
        .map(|(at, part)| {
            san::lan(v, at, part)
                .trim_end_matches(['+', '#'])
                .to_owned()
        })
        .collect();
    written.join(",")
}

/// [`Event::resolve_turn`] of an event that makes turns: `None` for a turn that is not
/// this event's (by [`Parts::reads_parts`]); else each written part resolved as the board
/// stands when it is played, or why it cannot be.
pub(super) fn resolve<P: Parts + ?Sized>(
    event: &P,
    v: &Variant,
    pos: &Position,
    written: &Notation,
) -> Option<Result<Move, Rejection>> {
    let MoveBody::Turn(parts) = &written.body else {
        return None;
    };
    if !event.reads_parts(parts) {
        return None;
    }
    Some(resolve_parts(event, v, pos, parts))
}

fn part_notation(part: &MoveBody) -> Notation {
    Notation {
        body: part.clone(),
        check: None,
        assessment: None,
    }
}

fn resolve_parts<P: Parts + ?Sized>(
    event: &P,
    v: &Variant,
    pos: &Position,
    parts: &[MoveBody],
) -> Result<Move, Rejection> {
    let turn_text = parts
        .iter()
        .map(|part| part_notation(part).to_string())
        .collect::<Vec<_>>()
        .join(",");
    let help = || san::legal_help(v, pos, &turn_text, None);
    let name = format!("event #{} {}", event.number(), event.name());
    let [first_written, second_written] = parts else {
        return Err(san::illegal(
            format!(
                "a turn of {name} has two parts, and `{turn_text}` has {} ({})",
                parts.len(),
                event.two_parts_ruling()
            ),
            help(),
        ));
    };
    if let Some(why) = event
        .refuse_written(parts)
        .or_else(|| event.why_no_turn(v, pos))
    {
        return Err(san::illegal(why, help()));
    }
    let number = event.number();
    let choosing = choosing_first(pos, number);
    let first_text = part_notation(first_written);
    let first = san::resolve(v, &choosing, &first_text).map_err(|mut rejection| {
        rejection.reason = format!(
            "the first part of the turn `{turn_text}` ({name}), `{first_text}`, is no move here: {}",
            rejection.reason
        );
        rejection.help = help();
        rejection
    })?;
    let mid = after_first(v, &choosing, number, &first);
    let second_text = part_notation(second_written);
    let second = san::resolve(v, &mid, &second_text).map_err(|mut rejection| {
        rejection.reason = format!(
            "after `{first_text}`, the second part of the turn `{turn_text}` ({name}), `{second_text}`, is no move: {}",
            rejection.reason
        );
        rejection.help = help();
        rejection
    })?;
    let turn = encode(event, v, &mid, &first, &second).ok_or_else(|| {
        san::illegal(
            format!("xpgn cannot hold the turn `{turn_text}` as one move"),
            None,
        )
    })?;
    // The other events judge the whole turn too (EC-2's third capture, a duty to capture).
    let mut legal = Vec::new();
    v.legal_moves_between(pos, turn.from.bit(), turn.to.bit(), &mut legal);
    if legal.contains(&turn) {
        return Ok(turn);
    }
    let reason = pos
        .events()
        .into_iter()
        .find(|e| !e.allows(v, pos, &turn))
        .map_or_else(
            || format!("the turn `{turn_text}` is not legal here (the rules of the running events and EC-2)"),
            |e| e.why_refused(v, pos, &turn),
        );
    Err(san::illegal(reason, help()))
}
