//! Event #38 Forward Rotations (catalogue; rulings FR-1 to FR-7 in
//! `docs/rules/event-38-forward-rotations.md`): a bishop moving diagonally forward runs
//! round the board's edges, coming back on at the opposite side; backward it steps one
//! square at most. What it attacks follows the same paths.

use super::bishop_paths::{self, FORWARD};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::{Color, Piece};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct ForwardRotations;

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: FORWARD,
    name: "Forward Rotations",
    aliases: &[],
    types: &[],
    condition: Condition {
        pieces_each: &[('B', 1)],
        no_check: true,
        ..Condition::NONE
    },
    rulings: &["FR-1", "FR-2", "FR-3", "FR-4", "FR-5", "FR-6", "FR-7"],
    page: "docs/rules/event-38-forward-rotations.md",
};

/// How many ranks `to` lies behind `from` for `color`, toward its own first rank.
fn ranks_back(v: &Variant, color: Color, from: Sq, to: Sq) -> u8 {
    let (from, to) = (v.geometry.rank(from), v.geometry.rank(to));
    match color {
        Color::White => from.saturating_sub(to),
        Color::Black => to.saturating_sub(from),
    }
}

impl Event for ForwardRotations {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// A bishop, promoted ones too, moves, captures and checks along its wrapping forward
    /// slides and its single backward steps only (FR-1..FR-5); with #30 running its bent
    /// legs do so (FR-7). The reach events started before this one are applied to those
    /// paths again (FR-4).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        bishop_paths::reach(v, pos, (from, piece), occupied, reach, FORWARD);
    }

    /// The wrapped paths, for an event that stops moves on their way (FR-6: #106's wall).
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
        let back = ranks_back(v, piece.color, from, to);
        let g = v.geometry;
        (!reached.contains(to) && back > 1).then(|| {
            format!(
                "under event #38 Forward Rotations a bishop goes back one square at most, and {} is {back} ranks behind the {} bishop on {}, with no open way round the board's edges to it (FR-1)",
                g.name(to),
                piece.color,
                g.name(from)
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
            "a bishop moving forward runs round the board's edge and attacks on from the opposite side: event #38 Forward Rotations, FR-1, FR-5".to_owned()
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
        pos.start_event(&ForwardRotations, None).unwrap();
        pos
    }

    #[test]
    fn fr_1_the_sources_run_d3_a6_h7_g8() {
        let v = event_chess();
        let pos = under_event("4k3/8/8/8/8/3B4/8/4K2b w - - 0 1");
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        assert!(
            moves
                .iter()
                .any(|mv| mv.from == sq("d3") && mv.to == sq("g8"))
        );
    }

    #[test]
    fn fr_5_a_wrapped_line_checks() {
        let v = event_chess();
        // The black bishop h1 runs down-left off the first rank and comes back on at g8,
        // then f7, e6, d5, c4, b3: the king b3 is in check, where orthodox it is not.
        let pos = under_event("4k3/8/8/8/8/1K6/8/7b w - - 0 1");
        assert!(pos.is_check(v));
    }
}
