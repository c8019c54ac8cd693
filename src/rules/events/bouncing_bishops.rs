//! Event #33 Bouncing Bishops (catalogue; rulings BB-1 to BB-7 in
//! `docs/rules/event-33-bouncing-bishops.md`): a bishop whose slide meets an edge of the
//! board may bounce off it and slide on, as often as the edges send it back; what it
//! attacks follows the same bounced paths.

use super::bishop_paths::{self, BOUNCING};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::Piece;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct BouncingBishops;

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: BOUNCING,
    name: "Bouncing Bishops",
    aliases: &[],
    types: &[],
    condition: Condition {
        pieces_each: &[('B', 1)],
        no_check: true,
        ..Condition::NONE
    },
    rulings: &["BB-1", "BB-2", "BB-3", "BB-4", "BB-5", "BB-6", "BB-7"],
    page: "docs/rules/event-33-bouncing-bishops.md",
};

impl Event for BouncingBishops {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// A bishop, promoted ones too, moves, captures and checks along its bounced paths
    /// (BB-2..BB-6); with #30 or #38 running, along their paths as BB-7 combines them.
    /// The reach events started before this one are applied to those paths again (BB-6).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        bishop_paths::reach(v, pos, (from, piece), occupied, reach, BOUNCING);
    }

    /// The bounced paths, for an event that stops moves on their way (#106's wall).
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
            "a bishop's line bounces off the board's edge and attacks on along the reflected diagonal: event #33 Bouncing Bishops, BB-2, BB-5".to_owned()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::parse_fen;

    fn under_event(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&BouncingBishops, None).unwrap();
        pos
    }

    fn targets(pos: &Position, from: &str) -> Vec<String> {
        let mut moves = Vec::new();
        event_chess().legal_moves(pos, &mut moves);
        let mut out: Vec<String> = moves
            .iter()
            .filter(|mv| mv.from == sq(from))
            .map(|mv| event_chess().geometry.name(mv.to))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn bb_2_a_bishop_bounces_off_the_edge_and_slides_on() {
        // The bishop c1 goes up-left to a3, bounces off the a-file to b4, c5, d6, e7 and
        // f8, then off the eighth rank to g7 and h6, where it bounces down to g5...
        let pos = under_event("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        let reached = targets(&pos, "c1");
        for square in ["a3", "b4", "e7", "f8", "g7", "h6", "g5", "d2"] {
            assert!(
                reached.contains(&square.to_owned()),
                "{square}: {reached:?}"
            );
        }
        assert!(
            !reached.contains(&"c1".to_owned()),
            "BB-4: never its own square"
        );
    }

    #[test]
    fn bb_5_a_bounced_line_checks() {
        let v = event_chess();
        // The black bishop d1 runs up-left c2, b3, a4, bounces to b5, c6: the king c6 is
        // in check, where orthodox it is not.
        let pos = under_event("8/8/2K5/8/8/8/8/3b3k w - - 0 1");
        assert!(pos.is_check(v));
    }

    #[test]
    fn bb_3_a_corner_sends_the_bishop_straight_back() {
        // b2 to a1, then back up the long diagonal over its own square b2 to c3 ... h8,
        // and from the d4 piece it stops: the blocker is met after the bounce.
        let pos = under_event("4k3/8/8/8/3p4/8/1B6/4K3 w - - 0 1");
        let reached = targets(&pos, "b2");
        assert!(reached.contains(&"a1".to_owned()), "{reached:?}");
        assert!(reached.contains(&"d4".to_owned()), "{reached:?}");
        assert!(!reached.contains(&"e5".to_owned()), "{reached:?}");
    }
}
