//! Event #66 Slow King (catalogue; rulings SK-1 to SK-4 in `docs/rules/event-66-slow-king.md`):
//! kings may not step diagonally unless they capture there. Their attacks stay whole, so
//! a king still checks, captures and guards its diagonal neighbours (SK-2).

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct SlowKing;

/// The squares diagonally next to `from`.
fn diagonal_neighbours(v: &Variant, from: Sq) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        if let Some(sq) = v.geometry.offset(from, df, dr) {
            out.set(sq);
        }
    }
    out
}

static INFO: EventInfo = EventInfo {
    number: 66,
    name: "Slow King",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('K', 1)]),
    rulings: &["SK-1", "SK-2", "SK-3", "SK-4"],
    page: "docs/rules/event-66-slow-king.md",
};

impl Event for SlowKing {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// SK-1: no quiet diagonal step; SK-2: the attacks stay. Castling is no step of the
    /// king's reach, so it is untouched (SK-3).
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
            reach.quiet &= !diagonal_neighbours(v, from);
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
        if v.role(piece.kind) != Role::King
            || pos.piece_at(to).is_some()
            || !diagonal_neighbours(v, from).contains(to)
        {
            return None;
        }
        Some(format!(
            "under event #66 Slow King a king steps diagonally only to capture, and {} is empty: without capturing, the {} king on {} steps only sideways, up or down (SK-1)",
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
    use crate::rules::parse_fen;

    fn slow(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&SlowKing, None).unwrap();
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
    fn a_king_steps_diagonally_only_to_capture() {
        // SK-1: d5 holds a black pawn, the other diagonals are empty.
        let pos = slow("4k3/8/8/3p4/4K3/8/8/8 w - - 0 1");
        assert_eq!(king_targets(&pos, "e4"), ["d4", "d5", "e3", "e5", "f4"]);
    }

    #[test]
    fn a_king_still_attacks_its_diagonal_neighbours() {
        // SK-2: the black king on e6 guards d5 and f5, so the white king on e4 cannot
        // go to d5 or f5 though black's king cannot step there either; e5 and d5 are
        // attacked by the black king.
        let v = event_chess();
        let pos = slow("8/8/4k3/8/4K3/8/8/8 w - - 0 1");
        assert!(pos.is_attacked(v, sq("f5"), crate::rules::Color::Black));
        assert_eq!(king_targets(&pos, "e4"), ["d4", "e3", "f4"]);
    }
}
