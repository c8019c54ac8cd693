//! Event #62 King on horse (catalogue; rulings KH-1 to KH-5 in
//! `docs/rules/event-62-king-on-horse.md`): a king moves without capturing only by a
//! knight's leap, and captures and attacks only with its ordinary one-square step.

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct KingOnHorse;

/// The squares a knight's leap from `from` lands on.
fn knight_leaps(v: &Variant, from: Sq) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for (df, dr) in [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ] {
        if let Some(sq) = v.geometry.offset(from, df, dr) {
            out.set(sq);
        }
    }
    out
}

static INFO: EventInfo = EventInfo {
    number: 62,
    name: "King on horse",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('K', 1)]),
    rulings: &["KH-1", "KH-2", "KH-3", "KH-4", "KH-5"],
    page: "docs/rules/event-62-king-on-horse.md",
};

impl Event for KingOnHorse {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// KH-1: the king's quiet moves are knight leaps, whatever an event before gave it
    /// (KH-5); KH-2, KH-3: its attacks, and so its captures, stay its one-square step.
    /// Castling is no part of the reach and stays (KH-4).
    fn reach(
        &self,
        v: &Variant,
        _pos: &Position,
        from: Sq,
        piece: Piece,
        _occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if v.role(piece.kind) == Role::King {
            reach.quiet = knight_leaps(v, from);
        }
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        if v.role(piece.kind) != Role::King || pos.piece_at(to).is_some() {
            return None;
        }
        Some(format!(
            "under event #62 King on horse a king that captures nothing moves only by a knight's leap, and {} is empty: the {} king on {} steps one square only to capture (KH-1, KH-2)",
            v.geometry.name(to),
            piece.color,
            v.geometry.name(from),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{Color, parse_fen};

    fn on_horse(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&KingOnHorse, None).unwrap();
        pos
    }

    fn king_targets(pos: &Position, from: &str) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        let mut out: Vec<String> = moves
            .iter()
            .filter(|mv| mv.from == sq(from))
            .map(|mv| v.geometry.name(mv.to))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_king_leaps_like_a_knight_and_captures_one_step() {
        // KH-1, KH-2: d3 holds a black pawn (a capture), f2 one (no leap captures it).
        let pos = on_horse("k7/8/8/8/4K3/3p4/5p2/8 w - - 0 1");
        assert_eq!(
            king_targets(&pos, "e4"),
            ["c3", "c5", "d2", "d3", "d6", "f6", "g3", "g5"]
        );
    }

    #[test]
    fn a_king_attacks_only_its_neighbours() {
        // KH-3: the black king on e6 attacks d5 but not its leap square d4.
        let v = event_chess();
        let pos = on_horse("8/8/4k3/8/8/8/8/K7 w - - 0 1");
        assert!(pos.is_attacked(v, sq("d5"), Color::Black));
        assert!(!pos.is_attacked(v, sq("d4"), Color::Black));
    }
}
