//! Event #8 Move Forward! (catalogue; rulings MF-1 to MF-4 in
//! `docs/rules/event-8-move-forward.md`): no piece goes more than one rank back toward
//! its own side in a move, and no piece attacks further back than that.

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::{Color, Piece};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct MoveForward;

/// How many ranks a move may go back (MF-1).
const LIMIT: u8 = 1;

/// How many ranks `to` lies behind `from` for `color`, toward its own first rank (MF-1);
/// zero when it lies level or ahead.
fn ranks_back(v: &Variant, color: Color, from: Sq, to: Sq) -> u8 {
    let (from, to) = (v.geometry.rank(from), v.geometry.rank(to));
    match color {
        Color::White => from.saturating_sub(to),
        Color::Black => to.saturating_sub(from),
    }
}

static INFO: EventInfo = EventInfo {
    number: 8,
    name: "Move Forward!",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["MF-1", "MF-2", "MF-3", "MF-4"],
    page: "docs/rules/event-8-move-forward.md",
};

impl Event for MoveForward {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// MF-1: moves at most one rank back; MF-2: attacks the same. Castling is sideways
    /// and no part of the reach (MF-3); pawns never go back (MF-4).
    fn reach(
        &self,
        v: &Variant,
        _pos: &Position,
        from: Sq,
        piece: Piece,
        _occupied: Bitboard,
        reach: &mut Reach,
    ) {
        let behind: Bitboard = (reach.quiet | reach.attacks)
            .into_iter()
            .filter(|&to| ranks_back(v, piece.color, from, to) > LIMIT)
            .collect();
        reach.quiet &= !behind;
        reach.attacks &= !behind;
    }

    fn why_unreached(
        &self,
        v: &Variant,
        _pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let back = ranks_back(v, piece.color, from, to);
        (back > LIMIT).then(|| {
            format!(
                "under event #8 Move Forward! no piece goes or attacks more than one rank back toward its own side, and {} is {back} ranks behind the {} {} on {} (MF-1, MF-2)",
                v.geometry.name(to),
                piece.color,
                v.piece(piece.kind).name,
                v.geometry.name(from),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn forward(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&MoveForward, None).unwrap();
        pos
    }

    #[test]
    fn a_knight_goes_one_rank_back_but_not_two() {
        let v = event_chess();
        let pos = forward("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1");
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        let mut knight: Vec<String> = moves
            .iter()
            .filter(|mv| mv.from == sq("e4"))
            .map(|mv| v.geometry.name(mv.to))
            .collect();
        knight.sort();
        // MF-1: c3 and g3 are one rank back, d2 and f2 two.
        assert_eq!(knight, ["c3", "c5", "d6", "f6", "g3", "g5"]);
    }

    #[test]
    fn attacks_go_no_further_back() {
        // MF-2: black's own side is rank 8, so from e2 the black rook attacks e3, one rank
        // back, but not e4, two back; e1 lies ahead of it.
        let v = event_chess();
        let pos = forward("4k3/8/8/8/8/8/4r3/K7 w - - 0 1");
        assert!(!pos.is_attacked(v, sq("e4"), Color::Black));
        assert!(pos.is_attacked(v, sq("e3"), Color::Black));
        assert!(pos.is_attacked(v, sq("e1"), Color::Black));
    }
}
