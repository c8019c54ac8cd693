//! Event #115 Piecebuilder (catalogue; rulings PB-1 to PB-8 in
//! `docs/rules/event-115-piecebuilder.md`): a bishop or a knight rides on an own rook, by
//! its own move onto it or picked up by the empty rook (`Rxe4`); the stack moves as a rook
//! or as its rider (`RBa4`, `RNd3`), the rider steps off with its own move, and taking the
//! rook takes both. The mechanics are the rook carriers' (`rook_stacks`), written as data
//! so that the older #37 Queenbuilder can share them.

use super::rook_stacks::{Carrier, Ids};
use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventType, Form, Overlay, Reach};
use crate::rules::moves::Move;
use crate::rules::piece::Piece;
use crate::rules::position::Position;
use crate::rules::san::Rejection;
use crate::rules::variant::Variant;

pub struct Piecebuilder;

static INFO: EventInfo = EventInfo {
    number: 115,
    name: "Piecebuilder",
    aliases: &[],
    types: &[EventType::RookCarrier],
    condition: Condition::pieces_each(&[('R', 1)]),
    rulings: &[
        "PB-1", "PB-2", "PB-3", "PB-4", "PB-5", "PB-6", "PB-7", "PB-8",
    ],
    page: "docs/rules/event-115-piecebuilder.md",
};

static CARRIER: Carrier = Carrier {
    number: 115,
    title: "#115 Piecebuilder",
    riders: &['B', 'N'],
    loads: true,
    stack_as: None,
    ids: Ids {
        board: "PB-1",
        load: "PB-2",
        stack: "PB-3",
        step_off: "PB-4",
        unit: "PB-5",
    },
};

impl Event for Piecebuilder {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// The rooks carrying a bishop, and those carrying a knight (PB-8).
    fn mark_layers(&self) -> usize {
        CARRIER.mark_layers()
    }

    /// `RBa4`, `RNd3` (PB-3).
    fn reads(&self, form: Form) -> bool {
        form == Form::Stack
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// PB-3, PB-5: the stack moves and attacks as its rook and as its rider.
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

    /// PB-1 boarding, PB-2 picking up, PB-4 stepping off.
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

    /// PB-1: no other event's piece joins a loaded rook (#78's king).
    fn allows(&self, _v: &Variant, pos: &Position, mv: &Move) -> bool {
        CARRIER.allows(pos, mv)
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        CARRIER.why_refused(v, pos, mv)
    }

    /// PB-7: a rook keeps its castling right while riders come and go.
    fn before_turn_passes(&self, _v: &Variant, pos: &mut Position, _mv: &Move) {
        CARRIER.before_turn_passes(pos);
    }

    /// PB-6: the rider is taken with its rook, a second piece for EC-2.
    fn on_capture(&self, _v: &Variant, pos: &mut Position, mv: &Move, victim: Sq) {
        CARRIER.on_capture(pos, mv, victim);
    }

    /// The `B` of `RBa4` (PB-3).
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
    use crate::rules::piece::Color;
    use crate::rules::san::{resolve, san};

    fn builder(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&Piecebuilder, None).unwrap();
        pos
    }

    fn play(pos: &mut Position, written: &str) {
        let v = event_chess();
        let notation = crate::notation::Notation::parse(written).unwrap();
        let mv = resolve(v, pos, &notation).unwrap();
        v.play(pos, &mv);
    }

    fn legal(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves.iter().map(|mv| san(v, pos, mv)).collect()
    }

    #[test]
    fn a_bishop_boards_and_the_stack_moves_as_rook_or_bishop() {
        let v = event_chess();
        let mut pos = builder("r3k3/8/8/8/8/8/6B1/4K2R w K - 0 1");
        assert!(legal(&pos).contains(&"Bh1".to_owned()), "PB-1");
        play(&mut pos, "Bh1");
        assert_eq!(CARRIER.rider(&pos, sq("h1")), Some('B'));
        assert!(
            pos.pieces(Color::White, v.kind_of_letter('B').unwrap())
                .is_empty()
        );
        play(&mut pos, "Kd7");
        let moves = legal(&pos);
        // PB-3: as a rook and as a bishop, written with both letters; PB-7: it castles.
        for expected in ["RBh8", "RBxa8", "O-O", "Bg2"] {
            assert!(
                moves.contains(&expected.to_owned()),
                "{expected}: {moves:?}"
            );
        }
        assert!(!moves.iter().any(|m| m == "Rh8" || m == "Rxa8"), "PB-3");
        play(&mut pos, "O-O");
        assert_eq!(CARRIER.rider(&pos, sq("f1")), Some('B'), "PB-7");
        let fen = crate::rules::write_fen(v, &pos);
        assert!(fen.ends_with("events(115-:Bf1)"), "PB-8: {fen}");
    }

    #[test]
    fn capturing_a_loaded_rook_takes_both_and_counts_two() {
        let mut pos = parse_fen(
            event_chess(),
            "3rk3/8/8/8/8/8/8/3RK3 b - - 0 1 events(115-:Nd1)",
        )
        .unwrap();
        play(&mut pos, "Rxd1+");
        assert_eq!(pos.captures, [0, 2], "PB-6");
        assert_eq!(CARRIER.rider(&pos, sq("d1")), None);
    }

    #[test]
    fn an_empty_rook_picks_up_a_knight_and_the_knight_steps_off() {
        let mut pos = builder("r3k3/8/8/8/4N2R/8/8/4K3 w - - 0 1");
        play(&mut pos, "Rxe4");
        assert_eq!(CARRIER.rider(&pos, sq("e4")), Some('N'), "PB-2");
        play(&mut pos, "Kd7");
        play(&mut pos, "Nf6+");
        assert_eq!(CARRIER.rider(&pos, sq("e4")), None, "PB-4");
        assert_eq!(
            pos.piece_at(sq("f6"))
                .map(|p| event_chess().piece(p.kind).letter),
            Some('N')
        );
        assert!(pos.piece_at(sq("e4")).is_some(), "PB-4: the rook stays");
    }
}
