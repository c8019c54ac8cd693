//! Event #36 Portals (catalogue; rulings PO-1 to PO-8 in `docs/rules/event-36-portals.md`):
//! any piece may move through an allied bishop and go on, in the same direction, from
//! another allied bishop of the mover's choosing; the bishops' squares do not count
//! toward the move's length. Captures, promotion, en passant and checks go through too.

use super::portal_paths;
use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo};
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct Portals;

/// The portal pieces: bishops (PO-1).
const PORTAL: char = 'B';

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: 36,
    name: "Portals",
    aliases: &[],
    types: &[],
    condition: Condition {
        pieces_each: &[('B', 2)],
        no_check: true,
        ..Condition::NONE
    },
    rulings: &[
        "PO-1", "PO-2", "PO-3", "PO-4", "PO-5", "PO-6", "PO-7", "PO-8",
    ],
    page: "docs/rules/event-36-portals.md",
};

impl Event for Portals {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// The moves through a bishop (PO-1..PO-4), ordinary moves that the core plays.
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        portal_paths::moves(v, pos, PORTAL, from, to, out);
    }

    /// PO-5: a piece attacks, and checks, through a bishop.
    fn extra_attackers(
        &self,
        v: &Variant,
        pos: &Position,
        sq: Sq,
        by: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        portal_paths::attackers(v, pos, PORTAL, sq, by, occupied)
    }

    /// PO-7: a pawn's two steps both after the portal leave the en-passant square
    /// between the exit and the landing.
    fn after_landing(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        if let Some(ep) = portal_paths::en_passant_square(v, pos, PORTAL, mv) {
            pos.ep = Some(ep);
        }
    }

    /// PO-7: an en-passant square a two-step through a portal left, whose square behind
    /// holds the exit bishop, which the FEN's own field cannot keep (an orthodox two-step
    /// leaves that square empty): `events(36w:c4)`.
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let g = v.geometry;
        pos.ep
            .filter(|&ep| {
                g.offset(ep, 0, -pos.turn.other().forward())
                    .is_some_and(|behind| pos.piece_at(behind).is_some())
            })
            .map(|ep| vec![g.name(ep)])
            .unwrap_or_default()
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let Some(word) = words.first() else {
            return Ok(());
        };
        let ep = super::fen_square(v, word)?;
        let pawn_square = v.geometry.offset(ep, 0, pos.turn.other().forward());
        let passed = pawn_square
            .and_then(|sq| pos.piece_at(sq))
            .is_some_and(|p| p.color != pos.turn && Some(p.kind) == v.tables.pawn);
        if pos.piece_at(ep).is_some() || !passed {
            return Err(format!(
                "{word} is no square a pawn of the side that just moved passed over (PO-7)"
            ));
        }
        pos.ep = Some(ep);
        Ok(())
    }

    /// PO-6: a pawn's move through a portal written as plain SAN (`e5` for `c2-e5`) is
    /// refused, spelling the moves that go there; the orthodox reader takes the rest,
    /// a portal move being an ordinary one.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        super::from_to_needed(
            v,
            pos,
            written,
            |to| {
                let Some(pawn) = v.tables.pawn else {
                    return Vec::new();
                };
                let mut moves = Vec::new();
                v.legal_moves_between(pos, pos.pieces(pos.turn, pawn), to.bit(), &mut moves);
                moves.iter().map(|mv| san::san_plain(v, pos, mv)).collect()
            },
            "a pawn's move through a portal is written from-to, the pawn's square first (PO-6)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, write_fen};

    fn portals(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&Portals, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, written: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(written).unwrap())
    }

    fn after(pos: &Position, written: &str) -> String {
        let v = event_chess();
        let mv = resolve(pos, written).unwrap();
        let mut next = pos.clone();
        v.play(&mut next, &mv);
        write_fen(v, &next)
    }

    #[test]
    fn the_catalogue_pawn_steps_past_both_bishops() {
        // Bishops on c3 and e4: the c2 pawn's step lands on e5, its two steps on e6 (PO-2).
        let pos = portals("4k3/8/8/8/4B3/2B5/2P5/4K3 w - - 0 1");
        assert_eq!(
            san::san(event_chess(), &pos, &resolve(&pos, "c2-e5").unwrap()),
            "c2-e5"
        );
        assert_eq!(
            after(&pos, "c2-e5"),
            "4k3/8/8/4P3/4B3/2B5/8/4K3 b - - 0 1 events(36w)"
        );
        assert_eq!(
            after(&pos, "c2-e6"),
            "4k3/8/4P3/8/4B3/2B5/8/4K3 b - e5 0 1 events(36w:e5)"
        );
    }

    #[test]
    fn a_knight_repeats_its_leap_from_the_exit() {
        let v = event_chess();
        let pos = portals("4k3/8/8/8/2B5/5B2/8/4K1N1 w - - 0 1");
        // g1 to f3 is the leap (-1, +2); from c4 the same leap lands on b6 (PO-1).
        let mv = resolve(&pos, "Nb6").unwrap();
        assert_eq!((mv.from, mv.to), (sq("g1"), sq("b6")));
        assert_eq!(san::san(v, &pos, &mv), "Nb6");
    }

    #[test]
    fn a_rider_slides_on_and_captures_but_transits_once() {
        let pos = portals("4k3/8/1p6/8/8/B7/4B3/R3K3 w - - 0 1");
        // a1 up into a3, on from e2 upward: e3 .. e7, and no capture of the own king.
        assert!(resolve(&pos, "Re7").is_ok());
        // Right from a1 is blocked by the king; a3 is the only entry.
        let pos = portals("6k1/8/1p6/8/B7/8/1B6/R3K3 w - - 0 1");
        // a1 up into a4, on from b2 upward: b3, b4, b5, takes on b6 (PO-1).
        assert!(resolve(&pos, "Rxb6").is_ok());
        // A second bishop after the exit ends the move (PO-3).
        // a1 into a4, on from c2 to c3, into c4: a second transit back from a4 to a5
        // is no move.
        let pos = portals("7k/8/8/8/B1B5/8/2B5/R3K3 w - - 0 1");
        assert!(resolve(&pos, "Rc3").is_ok());
        assert!(resolve(&pos, "Ra5").is_err());
    }

    #[test]
    fn checks_go_through_a_portal() {
        let v = event_chess();
        // The rook on a1 checks the king on e8 through a4 and e2 (PO-5).
        let pos = portals("4k3/8/8/8/B7/8/4B3/R5K1 b - - 0 1");
        assert!(pos.is_check(v));
        // A king may not step onto a square a knight reaches through a portal: g1 to
        // f3, on from c2 to b4.
        let pos = portals("8/8/8/k7/8/5B2/2B5/4K1N1 b - - 0 1");
        assert!(resolve(&pos, "Kb4").is_err());
        assert!(resolve(&pos, "Kb5").is_ok());
    }

    #[test]
    fn a_double_step_after_the_portal_leaves_en_passant() {
        let v = event_chess();
        // a2 steps into a3, on from c3 to c4 and c5.
        let pos = portals("4k3/8/8/3p4/8/B1B5/P7/4K3 w - - 0 1");
        let mv = resolve(&pos, "a2-c5").unwrap();
        assert_eq!(mv.from, sq("a2"));
        let mut next = pos.clone();
        v.play(&mut next, &mv);
        assert_eq!(
            next.ep,
            Some(sq("c4")),
            "the square between exit and landing (PO-7)"
        );
        assert!(resolve(&next, "dxc4").is_ok());
    }

    #[test]
    fn no_portal_with_fewer_than_two_bishops() {
        let pos = portals("4k3/8/8/8/8/2B5/2P5/4K3 w - - 0 1");
        assert!(resolve(&pos, "c2-e5").is_err());
    }

    #[test]
    fn a_pawn_written_as_plain_san_is_told_the_from_to_form() {
        let pos = portals("4k3/8/8/8/4B3/2B5/2P5/4K3 w - - 0 1");
        let refused = resolve(&pos, "e5").unwrap_err();
        assert!(refused.reason.contains("PO-6"), "{}", refused.reason);
        assert_eq!(refused.help.as_deref(), Some("write c2-e5"));
    }
}
