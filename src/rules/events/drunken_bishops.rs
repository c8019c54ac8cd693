//! Event #30 Drunken Bishops (catalogue; rulings DB-1 to DB-8 in
//! `docs/rules/event-30-drunken-bishops.md`): a bishop steps one square diagonally and may
//! stop there, or turns 90 degrees there and slides on along the other diagonal; it never
//! goes straight on past its first square. What it attacks follows the same bent paths.

use super::bishop_paths::{self, DRUNKEN};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::Piece;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct DrunkenBishops;

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: DRUNKEN,
    name: "Drunken Bishops",
    aliases: &[],
    types: &[],
    condition: Condition {
        pieces_each: &[('B', 1)],
        no_check: true,
        ..Condition::NONE
    },
    rulings: &[
        "DB-1", "DB-2", "DB-3", "DB-4", "DB-5", "DB-6", "DB-7", "DB-8",
    ],
    page: "docs/rules/event-30-drunken-bishops.md",
};

impl Event for DrunkenBishops {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// A bishop, promoted ones too, moves, captures and checks along its bent paths only
    /// (DB-1..DB-5); with #38 running its legs wrap as #38 says (DB-8). The reach events
    /// started before this one are applied to the bent paths again (DB-5).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        bishop_paths::reach(v, pos, (from, piece), occupied, reach, DRUNKEN);
    }

    /// The bent paths, for an event that stops moves on their way (DB-7: #106's wall).
    fn routes(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
        occupied: Bitboard,
    ) -> Vec<Vec<Sq>> {
        bishop_paths::routes(v, pos, (from, piece), to, occupied)
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let reached = bishop_paths::squares(v, pos, (from, piece), pos.occupied())?;
        let g = v.geometry;
        (!reached.contains(to)).then(|| {
            format!(
                "the {} bishop on {} is drunk: it steps one square diagonally and may then turn left or right and slide on, but never goes straight on past its first square, so none of its paths reaches {} (event #30 Drunken Bishops, DB-1, DB-4)",
                piece.color,
                g.name(from),
                g.name(to)
            )
        })
    }

    fn why_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let reached = bishop_paths::squares(v, pos, (from, piece), pos.occupied())?;
        reached.contains(to).then(|| {
            "a drunken bishop's path turns after its first square and attacks along the new diagonal: event #30 Drunken Bishops, DB-4".to_owned()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::parse_fen;
    use crate::rules::piece::Color;

    fn under_event(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&DrunkenBishops, None).unwrap();
        pos
    }

    /// The squares the piece on `from` may legally move to, sorted.
    fn targets(pos: &Position, from: &str) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        let mut names: Vec<String> = moves
            .into_iter()
            .filter(|mv| mv.from == sq(from))
            .map(|mv| v.geometry.name(mv.to))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn db_1_db_2_a_step_then_a_turn_and_the_step_captures() {
        // The bishop c1 steps to b2 or d2 and may stop there; from b2 it turns toward
        // h8 or a1, from d2 toward a5 (e1 holds its own king); never b2-a3 or d2-e3.
        let pos = under_event("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        assert_eq!(
            targets(&pos, "c1"),
            [
                "a1", "a5", "b2", "b4", "c3", "d2", "d4", "e5", "f6", "g7", "h8"
            ]
        );
        // DB-2: the single step captures.
        let pos = under_event("4k3/8/8/8/8/8/3p4/2B1K3 w - - 0 1");
        assert!(targets(&pos, "c1").contains(&"d2".to_owned()));
    }

    #[test]
    fn db_4_no_check_along_the_straight_diagonal() {
        let v = event_chess();
        // The bishop b2 attacks c3 and then only a turn away: g7 lies straight on.
        let pos = under_event("8/6k1/8/8/8/8/1B6/4K3 b - - 0 1");
        assert!(!pos.is_check(v));
        assert!(pos.is_attacked(v, sq("d2"), Color::White), "c3 then d2");
        assert!(!pos.is_attacked(v, sq("d4"), Color::White), "straight on");
    }
}
