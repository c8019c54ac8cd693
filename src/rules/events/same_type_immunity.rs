//! Event #89 Same type immunity (catalogue; rulings TI-1 to TI-4 in
//! `docs/rules/event-89-same-type-immunity.md`): no piece but a pawn captures an enemy
//! piece of its own type, and none attacks one, so two kings may stand side by side.

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct SameTypeImmunity;

static INFO: EventInfo = EventInfo {
    number: 89,
    name: "Same type immunity",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["TI-1", "TI-2", "TI-3", "TI-4"],
    page: "docs/rules/event-89-same-type-immunity.md",
};

/// The enemy pieces of the `piece`'s own type among `occupied`, which it neither captures
/// nor attacks (TI-1, TI-3); none for a pawn (TI-1: pawns take pawns). The type is the
/// one the piece has now, a promoted queen being a queen (TI-2).
fn immune(v: &Variant, pos: &Position, piece: Piece, occupied: Bitboard) -> Bitboard {
    if v.role(piece.kind) == Role::Pawn {
        return Bitboard::EMPTY;
    }
    pos.pieces(piece.color.other(), piece.kind) & occupied
}

impl Event for SameTypeImmunity {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// TI-1, TI-3: the squares of the enemy pieces of its own type leave its attacks, so
    /// it neither takes them nor checks a royal one (kings may stand side by side).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        _from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        reach.attacks &= !immune(v, pos, piece, occupied);
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        immune(v, pos, piece, pos.occupied())
            .contains(to)
            .then(|| {
                let name = &v.pieces[piece.kind.index()].name;
                format!(
                    "the {name} on {} may not take the {} {name} on {}: under event #89 Same type immunity no piece but a pawn captures or attacks an enemy piece of its own type (TI-1)",
                    v.geometry.name(from),
                    piece.color.other(),
                    v.geometry.name(to)
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::event_chess;
    use crate::rules::fen::parse_fen;

    fn immune_pos(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&SameTypeImmunity, None).unwrap();
        pos
    }

    fn moves(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves
            .iter()
            .map(|mv| crate::rules::san::san(v, pos, mv))
            .collect()
    }

    #[test]
    fn ti_1_a_queen_does_not_take_a_queen_and_a_pawn_takes_a_pawn() {
        let pos = immune_pos("4k3/8/8/3q4/4p3/3P4/8/3QK3 w - - 0 1");
        let names = moves(&pos);
        assert!(!names.iter().any(|n| n == "Qxd5"), "{names:?}");
        assert!(names.iter().any(|n| n == "dxe4"), "{names:?}");
    }

    #[test]
    fn ti_3_kings_stand_side_by_side_and_neither_checks_the_other() {
        let v = event_chess();
        let pos = immune_pos("8/8/8/3k4/8/3K4/8/8 w - - 0 1");
        let mut legal = Vec::new();
        v.legal_moves(&pos, &mut legal);
        let step = legal
            .iter()
            .find(|mv| crate::rules::san::san(v, &pos, mv) == "Kd4")
            .expect("TI-3: Kd4 next to the black king");
        let mut side_by_side = pos.clone();
        v.play(&mut side_by_side, step);
        assert!(!side_by_side.is_check(v));
        assert!(immune_pos("8/8/8/3k4/3Q4/8/8/4K3 b - - 0 1").is_check(v));
    }
}
