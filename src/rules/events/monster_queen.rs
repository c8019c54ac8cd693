//! Event #51 Monster Queen (catalogue; rulings MQ-1 to MQ-6 in
//! `docs/rules/event-51-monster-queen.md`): a queen steps one square at a time, and a
//! turn that moves a queen is two such steps of it (`Qxe5,Qxe6#`), the first allowed to
//! leave the own king in check; a queen threatens every square it reaches in two steps.

use super::replaced_reach;
use super::turns::{self, Parts, Phase};
use crate::notation::MoveBody;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventType, Form, Reach};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct MonsterQueen;

const NUMBER: u16 = 51;

fn queen(v: &Variant) -> Option<Kind> {
    v.kind_of_letter('Q')
}

/// Whether `mv` is a step of a queen (MQ-1).
fn queen_step(v: &Variant, mv: &Move) -> bool {
    queen(v) == Some(mv.piece.kind)
}

/// The eight squares around `sq` (MQ-1).
fn around(v: &Variant, sq: Sq) -> Bitboard {
    let mut squares = Bitboard::EMPTY;
    for df in -1..=1 {
        for dr in -1..=1 {
            if (df, dr) != (0, 0)
                && let Some(next) = v.geometry.offset(sq, df, dr)
            {
                squares.set(next);
            }
        }
    }
    squares
}

/// The squares the `piece`, a queen on `from`, reaches in two steps (MQ-4): a first step
/// to an empty square or onto an enemy piece, whatever it leaves its own king to, then a
/// second onto whatever it attacks from there; with `occupied` in the way.
fn two_step_reach(
    v: &Variant,
    pos: &Position,
    from: Sq,
    piece: Piece,
    occupied: Bitboard,
) -> Bitboard {
    let first = v.reach(pos, from, piece, occupied);
    let enemy = pos.by_color(piece.color.other()) & occupied;
    let mut reach = Bitboard::EMPTY;
    for step in first.quiet | first.attacks & enemy {
        let moved = occupied ^ from.bit() | step.bit();
        reach |= v.reach(pos, step, piece, moved).attacks;
    }
    reach
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Monster Queen",
    aliases: &[],
    types: &[],
    condition: Condition {
        pieces_each: &[('Q', 1)],
        one_of_each: &[],
        no_check: true,
        not_with: &[EventType::RoyalQueen],
        ..Condition::NONE
    },
    rulings: &["MQ-1", "MQ-2", "MQ-3", "MQ-4", "MQ-5", "MQ-6"],
    page: "docs/rules/event-51-monster-queen.md",
};

impl Parts for MonsterQueen {
    fn first_part(&self, v: &Variant, _pos: &Position, mv: &Move) -> bool {
        queen_step(v, mv)
    }

    /// MQ-1: the same queen steps again; MQ-3: back to where it started too.
    fn second_part(&self, v: &Variant, _pos: &Position, moved: Sq, mv: &Move) -> bool {
        queen_step(v, mv) && mv.from == moved
    }

    /// A turn of queen steps: the first part written with `Q`.
    fn reads_parts(&self, parts: &[MoveBody]) -> bool {
        matches!(parts.first(), Some(MoveBody::Piece(m)) if m.piece == Some('Q'))
    }

    fn two_parts_ruling(&self) -> &'static str {
        "MQ-1"
    }
}

impl MonsterQueen {
    /// The turns that begin with the queen step `mv`, as written, for a diagnostic.
    fn turns_from(&self, v: &Variant, pos: &Position, mv: &Move) -> Vec<String> {
        let mut moves = Vec::new();
        v.legal_moves_between(pos, mv.from.bit(), mv.to.bit(), &mut moves);
        moves
            .iter()
            .filter(|turn| turn.special != mv.special)
            .map(|turn| san::san_plain(v, pos, turn))
            .collect()
    }
}

impl Event for MonsterQueen {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Turn
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// MQ-1: a queen, promoted ones too, steps one square, and attacks the squares
    /// around it (the two-step threat is [`Event::extra_attackers`]); the reach events
    /// started before this one apply to the step again (as GQ-6).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if queen(v) != Some(piece.kind) {
            return;
        }
        let attacks = around(v, from);
        let step = Reach {
            quiet: attacks & !occupied,
            attacks,
        };
        *reach = replaced_reach(v, pos, (from, piece), step, occupied, NUMBER);
    }

    fn why_unreached(
        &self,
        v: &Variant,
        _pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        if queen(v) != Some(piece.kind) || around(v, from).contains(to) {
            return None;
        }
        let g = v.geometry;
        Some(format!(
            "the {} queen on {} steps one square at a time, so it does not reach {} in one step; a turn of a queen is two steps, written with a comma (`Qd2,Qd3`) (event #51 Monster Queen, MQ-1)",
            piece.color,
            g.name(from),
            g.name(to)
        ))
    }

    /// MQ-4: a queen threatens what it reaches in two steps.
    fn extra_attackers(
        &self,
        v: &Variant,
        pos: &Position,
        sq: Sq,
        by: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        let Some(kind) = queen(v) else {
            return Bitboard::EMPTY;
        };
        let piece = Piece { color: by, kind };
        (pos.pieces(by, kind) & occupied)
            .filter(|&from| two_step_reach(v, pos, from, piece, occupied).contains(sq))
            .collect()
    }

    fn why_attacks(
        &self,
        v: &Variant,
        _pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        if queen(v) != Some(piece.kind) || around(v, from).contains(to) {
            return None;
        }
        let g = v.geometry;
        Some(format!(
            "the queen reaches {} from {} in two steps: event #51 Monster Queen, MQ-4",
            g.name(to),
            g.name(from)
        ))
    }

    fn between_parts(&self, pos: &Position) -> bool {
        turns::phase(pos, NUMBER) != Phase::Idle
    }

    /// MQ-2: the first step may leave the own king in check.
    fn can_be_checked(&self, _v: &Variant, pos: &Position, _king: Sq, color: Color) -> bool {
        turns::can_be_checked(pos, NUMBER, color)
    }

    /// MQ-1: outside a turn, a queen's single step is no move.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        match turns::phase(pos, NUMBER) {
            Phase::Idle => {
                !queen_step(v, mv)
                    || matches!(mv.special, Special::Event { number, .. } if number == NUMBER)
            }
            _ => turns::allows(self, v, pos, mv),
        }
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let why = match turns::phase(pos, NUMBER) {
            Phase::Idle => {
                let turns = self.turns_from(v, pos, mv);
                let write = match turns.as_slice() {
                    [] => format!(
                        "no second step follows {} here without leaving the own king in check (MQ-2)",
                        g.name(mv.to)
                    ),
                    _ => format!("write it with its second step: {}", turns.join(", ")),
                };
                format!("a queen's turn is two steps, the second compulsory (MQ-1); {write}")
            }
            Phase::Second(_, moved) => format!(
                "the queen that stepped to {} makes the second step (MQ-1)",
                g.name(moved)
            ),
            Phase::First(_) => {
                "both parts of a queen's turn are steps of the queen (MQ-1)".to_owned()
            }
        };
        format!("event #51 Monster Queen: {why}")
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        turns::generate(self, v, pos, (from, to), out);
    }

    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        turns::play(self, v, pos, mv);
    }

    fn resolve_turn(
        &self,
        v: &Variant,
        pos: &Position,
        written: &crate::notation::Notation,
    ) -> Option<Result<Move, Rejection>> {
        turns::resolve(self, v, pos, written)
    }

    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        turns::san(self, v, pos, mv)
    }

    fn lan(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        turns::lan(self, v, pos, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, san};

    fn monstrous(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&MonsterQueen, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn a_queen_takes_twice_in_one_turn_and_threatens_two_steps() {
        let v = event_chess();
        // MQ-1, MQ-4: the catalogue's Qxe5,Qxe6#.
        let mut pos = monstrous("q3k3/8/4p3/4p3/3Q4/8/8/K7 w - - 0 1");
        assert!(resolve(&pos, "Qxe5").is_err(), "a single step is no move");
        let turn = resolve(&pos, "Qxe5,Qxe6").unwrap();
        assert_eq!(MonsterQueen.san(v, &pos, &turn), "Qxe5,Qxe6");
        assert_eq!(MonsterQueen.lan(v, &pos, &turn), "Qd4xe5,Qe5xe6");
        v.play(&mut pos, &turn);
        assert!(pos.is_check(v), "e8 is two steps from e6");
        assert!(!v.has_legal_move(&pos), "mate");
        assert!(pos.is_attacked(v, sq("d8"), Color::White));
        assert!(!pos.is_attacked(v, sq("b8"), Color::White));
    }
}
