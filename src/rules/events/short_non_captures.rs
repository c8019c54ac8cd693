//! Event #110 Short Non-captures (catalogue; rulings SN-1 to SN-5 in
//! `docs/rules/event-110-short-non-captures.md`): a move that captures nothing carries
//! its piece at most two squares; captures, and so checks, keep their full range.

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventType, Reach};
use crate::rules::piece::Piece;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct ShortNonCaptures;

/// The longest move that captures nothing (SN-1).
const LIMIT: u8 = 2;

/// How far apart two squares are: the larger of their file and rank differences (SN-1),
/// so a knight's leap is two.
fn distance(v: &Variant, a: Sq, b: Sq) -> u8 {
    let g = v.geometry;
    g.file(a)
        .abs_diff(g.file(b))
        .max(g.rank(a).abs_diff(g.rank(b)))
}

static INFO: EventInfo = EventInfo {
    number: 110,
    name: "Short Non-captures",
    aliases: &[],
    types: &[EventType::MoveLengthModifier],
    condition: Condition::NONE,
    rulings: &["SN-1", "SN-2", "SN-3", "SN-4", "SN-5"],
    page: "docs/rules/event-110-short-non-captures.md",
};

impl Event for ShortNonCaptures {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// SN-1: the quiet moves within two squares; SN-2: the attacks whole. A knight's leap
    /// and a pawn's double step are two (SN-1, SN-4); castling is no part of the reach
    /// (SN-5).
    fn reach(
        &self,
        v: &Variant,
        _pos: &Position,
        from: Sq,
        _piece: Piece,
        _occupied: Bitboard,
        reach: &mut Reach,
    ) {
        let far: Bitboard = reach
            .quiet
            .into_iter()
            .filter(|&to| distance(v, from, to) > LIMIT)
            .collect();
        reach.quiet &= !far;
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let far = distance(v, from, to);
        if pos.piece_at(to).is_some() || far <= LIMIT {
            return None;
        }
        Some(format!(
            "under event #110 Short Non-captures a move that captures nothing goes at most two squares, and {} is {far} squares from the {} {} on {} (SN-1)",
            v.geometry.name(to),
            piece.color,
            v.piece(piece.kind).name,
            v.geometry.name(from),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    #[test]
    fn quiet_moves_go_two_squares_and_captures_any_distance() {
        let v = event_chess();
        let mut pos = parse_fen(v, "4k3/8/8/8/r7/8/8/R3K3 w - - 0 1").unwrap();
        pos.start_event(&ShortNonCaptures, None).unwrap();
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        let mut rook: Vec<String> = moves
            .iter()
            .filter(|mv| mv.from == sq("a1"))
            .map(|mv| v.geometry.name(mv.to))
            .collect();
        rook.sort();
        // SN-1: a2, a3, b1, c1 quietly, not d1; SN-2: a4 by capture, three squares up.
        assert_eq!(rook, ["a2", "a3", "a4", "b1", "c1"]);
    }
}
