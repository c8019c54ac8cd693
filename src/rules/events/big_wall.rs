//! Event #107 Big Wall (catalogue; rulings BW-1 to BW-5 in
//! `docs/rules/event-107-big-wall.md`): a wall between the d- and e-files from the bottom of
//! rank 3 to the top of rank 6, which no slide or step crosses, for moves and attacks, along
//! whatever path a move takes; the diagonals past its ends stay open and leaps cross it.

use super::wall::wall_on_the_way;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::Piece;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct BigWall;

/// Whether a step between two neighbouring squares crosses the wall: one square on the
/// d-file and one on the e-file, both on ranks 3 to 6 (BW-1: across, and the diagonals
/// through the wall's inner corners); a diagonal through either end, d2-e3 or d6-e7, has
/// a square outside those ranks and stays open (BW-2).
fn crosses(v: &Variant, a: Sq, b: Sq) -> bool {
    let g = v.geometry;
    let middle = g.width / 2;
    let ranks = (g.height / 2 - 2)..=(g.height / 2 + 1);
    let files = [g.file(a), g.file(b)];
    (files == [middle - 1, middle] || files == [middle, middle - 1])
        && ranks.contains(&g.rank(a))
        && ranks.contains(&g.rank(b))
}

static INFO: EventInfo = EventInfo {
    number: 107,
    name: "Big Wall",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["BW-1", "BW-2", "BW-3", "BW-4", "BW-5"],
    page: "docs/rules/event-107-big-wall.md",
};

impl Event for BigWall {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// Every square a piece reaches along a line that crosses the wall is gone, for moves
    /// and attacks, pawns and kings included (BW-1, BW-4); leaps keep theirs (BW-3). It
    /// narrows whatever movement the other events give, whichever started first (BW-5).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        let cut: Bitboard = (reach.quiet | reach.attacks)
            .filter(|&to| wall_on_the_way(v, crosses, pos, (from, piece), to, occupied).is_some())
            .collect();
        reach.quiet &= !cut;
        reach.attacks &= !cut;
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let (a, b) = wall_on_the_way(v, crosses, pos, (from, piece), to, pos.occupied())?;
        let g = v.geometry;
        Some(format!(
            "the big wall between the d- and e-files stands between {} and {}, on the way of the {} {} from {} to {} (event #107 Big Wall, BW-1, BW-4)",
            g.name(a),
            g.name(b),
            piece.color,
            v.pieces[piece.kind.index()].name,
            g.name(from),
            g.name(to)
        ))
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
        pos.start_event(&BigWall, None).unwrap();
        pos
    }

    #[test]
    fn bw_1_and_bw_2_the_wall_is_closed_and_its_ends_are_open() {
        let v = event_chess();
        for (a, b) in [
            ("d3", "e3"),
            ("d6", "e6"),
            ("d3", "e4"),
            ("e3", "d4"),
            ("d5", "e6"),
            ("e5", "d6"),
        ] {
            assert!(
                crosses(v, sq(a), sq(b)) && crosses(v, sq(b), sq(a)),
                "{a}-{b}"
            );
        }
        for (a, b) in [
            ("d2", "e3"),
            ("e2", "d3"),
            ("d6", "e7"),
            ("e6", "d7"),
            ("d2", "e2"),
            ("c4", "d4"),
            ("e4", "f4"),
        ] {
            assert!(!crosses(v, sq(a), sq(b)), "{a}-{b}");
        }
    }

    #[test]
    fn bw_4_a_rook_behind_the_wall_does_not_attack_and_a_knight_leaps_over() {
        let v = event_chess();
        let pos = under_event("4k3/8/8/3r4/8/8/8/K7 w - - 0 1");
        assert!(!pos.is_attacked(v, sq("h5"), Color::Black));
        assert!(pos.is_attacked(v, sq("a5"), Color::Black));
        let knight = under_event("4k3/8/8/3n4/8/8/8/K7 w - - 0 1");
        assert!(knight.is_attacked(v, sq("f4"), Color::Black));
    }
}
