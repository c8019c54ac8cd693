//! Event #71 Slow Pieces, "Fat Pieces" in the forum (catalogue; rulings SP-1 to SP-4 in
//! `docs/rules/event-71-slow-pieces.md`): no move carries a piece more than two squares,
//! castling aside, and attacks shrink with the moves, so a long-range piece no longer
//! checks from afar.

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventType, Reach};
use crate::rules::piece::Piece;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct SlowPieces;

static INFO: EventInfo = EventInfo {
    number: 71,
    name: "Slow Pieces",
    aliases: &["Fat Pieces"],
    types: &[EventType::MoveLengthModifier],
    condition: Condition::NONE,
    rulings: &["SP-1", "SP-2", "SP-3", "SP-4"],
    page: "docs/rules/event-71-slow-pieces.md",
};

/// The farthest a move carries a piece, in the larger of files and ranks (SP-1).
const MOST: i32 = 2;

/// The squares at most [`MOST`] files and ranks from `from` (SP-1: a knight's leap is 2).
fn near(v: &Variant, from: Sq) -> Bitboard {
    let mut squares = Bitboard::EMPTY;
    for df in -MOST..=MOST {
        for dr in -MOST..=MOST {
            if let Some(sq) = v.geometry.offset(from, df, dr) {
                squares.set(sq);
            }
        }
    }
    squares
}

impl Event for SlowPieces {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// SP-1, SP-2: moves and attacks alike end within two squares; castling is not a
    /// reach, so it stays as it is (SP-4).
    fn reach(
        &self,
        v: &Variant,
        _pos: &Position,
        from: Sq,
        _piece: Piece,
        _occupied: Bitboard,
        reach: &mut Reach,
    ) {
        let near = near(v, from);
        reach.quiet &= near;
        reach.attacks &= near;
    }

    fn why_unreached(
        &self,
        v: &Variant,
        _pos: &Position,
        from: Sq,
        _piece: Piece,
        to: Sq,
    ) -> Option<String> {
        (!near(v, from).contains(to)).then(|| {
            format!(
                "{} is more than two squares from {}, and under event #71 Slow Pieces a piece moves and attacks no farther than two squares (SP-1, SP-2)",
                v.geometry.name(to),
                v.geometry.name(from)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen::parse_fen;

    fn slow(fen: &str) -> (&'static Variant, Position) {
        let v = Variant::by_name("event-chess").unwrap();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&SlowPieces, None).unwrap();
        (v, pos)
    }

    #[test]
    fn a_queen_three_squares_away_gives_no_check() {
        let (v, pos) = slow("4k3/8/8/8/4Q3/8/8/4K3 b - - 0 1");
        assert!(!pos.is_check(v));
        let (v, pos) = slow("4k3/8/4Q3/8/8/8/8/4K3 b - - 0 1");
        assert!(pos.is_check(v));
    }

    #[test]
    fn every_knight_leap_stays_and_long_slides_go() {
        let (v, pos) = slow("4k3/8/8/8/8/8/8/R3K1N1 w Q - 0 1");
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        let names: Vec<String> = moves
            .iter()
            .map(|mv| crate::rules::san::san(v, &pos, mv))
            .collect();
        for leap in ["Ne2", "Nf3", "Nh3"] {
            assert!(names.iter().any(|n| n == leap), "{leap} in {names:?}");
        }
        assert!(
            names.iter().any(|n| n == "O-O-O"),
            "SP-4 castling: {names:?}"
        );
        assert!(!names.iter().any(|n| n == "Ra4"), "SP-1: {names:?}");
        assert!(names.iter().any(|n| n == "Ra3"));
    }
}
