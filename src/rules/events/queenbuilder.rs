//! Event #37 Queenbuilder (catalogue, removed and replaced by #115; rulings QB-1 to QB-8 in
//! `docs/rules/event-37-queenbuilder.md`): a bishop ends its move on an own rook and rides
//! it, the stack moves as a queen (`RBa4`), the bishop steps off with a bishop move, and
//! taking the rook takes both. A rook never picks a bishop up. The mechanics are the rook
//! carriers' (`rook_stacks`), shared with #115 Piecebuilder: a queen's moves are a rook's
//! joined with a bishop's from the same square.

use super::rook_stacks::{Carrier, Ids};
use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventType, Form, Overlay, Reach};
use crate::rules::moves::Move;
use crate::rules::piece::Piece;
use crate::rules::position::Position;
use crate::rules::san::Rejection;
use crate::rules::variant::Variant;

pub struct Queenbuilder;

static INFO: EventInfo = EventInfo {
    number: 37,
    name: "Queenbuilder",
    aliases: &[],
    types: &[EventType::RookCarrier],
    condition: Condition::pieces_each(&[('B', 1), ('R', 1)]),
    rulings: &[
        "QB-1", "QB-2", "QB-3", "QB-4", "QB-5", "QB-6", "QB-7", "QB-8",
    ],
    page: "docs/rules/event-37-queenbuilder.md",
};

static CARRIER: Carrier = Carrier {
    number: 37,
    title: "#37 Queenbuilder",
    riders: &['B'],
    loads: false,
    stack_as: Some("queen"),
    ids: Ids {
        board: "QB-1",
        load: "QB-2",
        stack: "QB-3",
        step_off: "QB-4",
        unit: "QB-5",
    },
};

impl Event for Queenbuilder {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// The rooks carrying a bishop (QB-8).
    fn mark_layers(&self) -> usize {
        CARRIER.mark_layers()
    }

    /// `RBa4` (QB-3).
    fn reads(&self, form: Form) -> bool {
        form == Form::Stack
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// QB-3, QB-5: the stack moves and attacks as a queen, its rook's lines joined with its
    /// bishop's from the same square.
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        CARRIER.reach(v, pos, from, piece, occupied, reach);
    }

    /// QB-1 boarding and QB-4 stepping off; a rook picks up nothing (QB-2).
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        CARRIER.extra_moves(v, pos, from, to, out);
    }

    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        CARRIER.play_extra(v, pos, mv);
    }

    /// QB-1: no other event's piece joins a loaded rook (#78's king).
    fn allows(&self, _v: &Variant, pos: &Position, mv: &Move) -> bool {
        CARRIER.allows(pos, mv)
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        CARRIER.why_refused(v, pos, mv)
    }

    /// QB-7: a rook keeps its castling right while riders come and go.
    fn before_turn_passes(&self, _v: &Variant, pos: &mut Position, _mv: &Move) {
        CARRIER.before_turn_passes(pos);
    }

    /// QB-6: the rider is taken with its rook, a second piece for EC-2.
    fn on_capture(&self, _v: &Variant, pos: &mut Position, mv: &Move, victim: Sq) {
        CARRIER.on_capture(pos, mv, victim);
    }

    /// The `B` of `RBa4` (QB-3).
    fn rider(&self, _v: &Variant, pos: &Position, sq: Sq) -> Option<char> {
        CARRIER.rider(pos, sq)
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        CARRIER.resolve(v, pos, written)
    }

    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        CARRIER.san(v, pos, mv)
    }

    fn lan(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        CARRIER.lan(v, mv)
    }

    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        CARRIER.write_fen(v, pos)
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        CARRIER.read_fen(v, pos, words)
    }

    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        CARRIER.overlay(v, pos, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::parse_fen;
    use crate::rules::san::san;

    fn legal(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves.iter().map(|mv| san(v, pos, mv)).collect()
    }

    #[test]
    fn a_loaded_rook_moves_as_a_queen_and_never_alone() {
        let pos = parse_fen(
            event_chess(),
            "4k3/8/8/8/8/8/8/3RK3 w - - 0 1 events(37-:Bd1)",
        )
        .unwrap();
        assert_eq!(CARRIER.rider(&pos, sq("d1")), Some('B'));
        let moves = legal(&pos);
        let stack: Vec<&String> = moves.iter().filter(|m| m.starts_with("RB")).collect();
        // QB-3: d1 reaches 7 squares up the file, 3 + 0 along the rank (the king on e1),
        // 3 + 4 on the diagonals: a queen's 17.
        assert_eq!(stack.len(), 17, "QB-3: {stack:?}");
        assert!(
            !moves.iter().any(|m| m.starts_with("Rd")),
            "QB-3: {moves:?}"
        );
        assert!(moves.contains(&"Bh5+".to_owned()), "QB-4: {moves:?}");
    }

    #[test]
    fn a_rook_never_picks_up_its_bishop() {
        let mut pos = parse_fen(event_chess(), "4k3/8/8/8/8/8/8/R1B1K3 w - - 0 1").unwrap();
        pos.start_event(&Queenbuilder, None).unwrap();
        let moves = legal(&pos);
        assert!(!moves.iter().any(|m| m.ends_with("c1")), "QB-2: {moves:?}");
        assert!(moves.contains(&"Ba3".to_owned()));
    }
}
