//! Event #49 Flying Rooks (catalogue; rulings FL-1 to FL-5 in
//! `docs/rules/event-49-flying-rooks.md`): a rook may jump over any pieces along its rank or
//! file to an empty square, but captures and attacks only along a clear line; castling is
//! as usual.

use super::movement_kind;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::Piece;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct FlyingRooks;

static INFO: EventInfo = EventInfo {
    number: 49,
    name: "Flying Rooks",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('R', 1)]),
    rulings: &["FL-1", "FL-2", "FL-3", "FL-4", "FL-5"],
    page: "docs/rules/event-49-flying-rooks.md",
};

/// Whether the `piece` on `from` moves as a rook under the running events (FL-2: queens do
/// not fly; a piece another event gives a rook's movement does).
fn flies(v: &Variant, pos: &Position, from: Sq, piece: Piece) -> bool {
    v.kind_of_letter('R') == Some(movement_kind(v, pos, from, piece))
}

impl Event for FlyingRooks {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// FL-1: a rook also moves to every empty square of its rank and file that it would
    /// reach with nothing in the way, as every running event has it (so a wall or a move
    /// length limit holds for jumps too, FL-5), jumping what stands between. Its attacks
    /// stay those of a clear line (FL-3). With nothing in the way there is nothing to jump,
    /// which also ends the question of its reach on an empty board.
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if occupied.is_empty() || !flies(v, pos, from, piece) {
            return;
        }
        let g = v.geometry;
        let lines = g.rank_mask(g.rank(from)) | g.file_mask(g.file(from));
        let free = v.reach(pos, from, piece, Bitboard::EMPTY);
        reach.quiet |= free.quiet & lines & !occupied;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::event_chess;
    use crate::rules::fen::parse_fen;

    fn moves(fen: &str) -> Vec<String> {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&FlyingRooks, None).unwrap();
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        moves
            .iter()
            .map(|mv| crate::rules::san::san(v, &pos, mv))
            .collect()
    }

    #[test]
    fn fl_1_a_rook_jumps_to_empty_squares_and_captures_only_on_a_clear_line() {
        let names = moves("r3k3/p7/8/8/8/8/P7/R3K3 w Q - 0 1");
        for jump in ["Ra3", "Ra6", "Rb1"] {
            assert!(names.iter().any(|n| n == jump), "{jump} in {names:?}");
        }
        assert!(
            !names.iter().any(|n| n.starts_with("Rx")),
            "FL-1: {names:?}"
        );
        assert!(!names.iter().any(|n| n == "Ra8"), "{names:?}");
        assert!(names.iter().any(|n| n == "O-O-O"), "FL-4: {names:?}");
    }

    #[test]
    fn fl_2_and_fl_3_queens_do_not_fly_and_a_rook_checks_only_along_a_clear_line() {
        let names = moves("4k3/8/8/8/8/8/P7/Q3K3 w - - 0 1");
        assert!(!names.iter().any(|n| n == "Qa3"), "{names:?}");
        let v = event_chess();
        let mut pos = parse_fen(v, "4k3/4p3/8/8/8/8/8/K3R3 b - - 0 1").unwrap();
        pos.start_event(&FlyingRooks, None).unwrap();
        assert!(!pos.is_check(v));
    }
}
