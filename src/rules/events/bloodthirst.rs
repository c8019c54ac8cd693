//! Event #75 Bloodthirst (catalogue; rulings BT-1 to BT-5 in
//! `docs/rules/event-75-bloodthirst.md`): a piece that has just captured must capture
//! again with its owner's next move if it can.

use crate::notation::PieceMove;
use crate::rules::board::Bitboard;
use crate::rules::event::{Condition, Event, EventInfo, Overlay};
use crate::rules::meta;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct Bloodthirst;

const NUMBER: u16 = 75;

/// The pieces under a duty to capture (BT-1): marked, so that the mark follows a piece
/// another event moves (BT-3).
fn thirsty(pos: &Position) -> Bitboard {
    pos.mark_layer(NUMBER, 0)
        .map_or(Bitboard::EMPTY, |layer| pos.marked(layer))
}

/// The legal captures of the side to move's piece under a duty, if it has one (BT-1):
/// legal by every rule but this one, so that asking does not ask itself.
fn duty(v: &Variant, pos: &Position) -> Option<Vec<Move>> {
    let piece = thirsty(pos) & pos.by_color(pos.turn);
    if piece.is_empty() {
        return None;
    }
    let mut captures = Vec::new();
    v.pseudo_moves(pos, piece, v.geometry.all(), &mut captures);
    let limited = v.events && meta::capture_limited(v, pos);
    captures.retain(|mv| {
        mv.is_capture()
            && !v.leaves_king_attacked(pos, mv)
            && !(limited && meta::breaks_capture_limit(v, pos, mv))
            && pos
                .events()
                .iter()
                .filter(|e| e.number() != NUMBER)
                .all(|e| e.allows(v, pos, mv))
    });
    (!captures.is_empty()).then_some(captures)
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Bloodthirst",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["BT-1", "BT-2", "BT-3", "BT-4", "BT-5"],
    page: "docs/rules/event-75-bloodthirst.md",
};

impl Event for Bloodthirst {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// The pieces under a duty (BT-5: part of the position).
    fn mark_layers(&self) -> usize {
        1
    }

    /// BT-1: while the piece under a duty has a legal capture, only its captures are
    /// legal.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        let piece = thirsty(pos) & pos.by_color(pos.turn);
        if piece.is_empty() || (piece.contains(mv.from) && mv.is_capture()) {
            return true;
        }
        duty(v, pos).is_none()
    }

    /// BT-1, BT-2, BT-4: the mover's duty is spent with his move; a capture puts one on
    /// the piece that made it (the new piece of a promotion), wherever it landed.
    fn after_move(&self, _v: &Variant, pos: &mut Position, mv: &Move, _gives_check: bool) {
        let Some(layer) = pos.mark_layer(NUMBER, 0) else {
            return;
        };
        let mover = pos.turn.other();
        for sq in pos.marked(layer) & pos.by_color(mover) {
            pos.set_mark(layer, sq, false);
        }
        if mv.is_capture() && pos.by_color(mover).contains(mv.to) {
            pos.set_mark(layer, mv.to, true);
        }
    }

    /// The squares of the pieces under a duty (`events(75w:d5)`).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        super::names(v, thirsty(pos))
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let layer = pos.mark_layer(NUMBER, 0).expect("the event runs");
        for word in words {
            let sq = super::fen_square(v, word)?;
            if pos.piece_at(sq).is_none() {
                return Err(format!("no piece on {word} is under a duty to capture"));
            }
            pos.set_mark(layer, sq, true);
        }
        Ok(())
    }

    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let pieces = thirsty(pos);
        out.singled_out.extend(pieces);
        if let Some(sq) = pieces.first() {
            out.lines.push(format!(
                "bloodthirst: {} must capture if it can (marked @)",
                san::describe(v, pos, sq)
            ));
        }
    }

    /// BT-1: a written move that the duty rules out says which piece must capture and
    /// how; every other move is left to the orthodox reading.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let piece = (thirsty(pos) & pos.by_color(pos.turn)).first()?;
        let candidates = san::candidates(v, pos, written);
        if candidates.is_empty()
            || candidates
                .iter()
                .any(|mv| mv.from == piece && mv.is_capture())
        {
            return None;
        }
        let captures = duty(v, pos)?;
        if !candidates.iter().any(|mv| !v.leaves_king_attacked(pos, mv)) {
            return None;
        }
        let spellings: Vec<String> = captures
            .iter()
            .map(|mv| san::san_plain(v, pos, mv))
            .collect();
        Some(Err(san::illegal(
            format!(
                "{} captured on {}'s last move and can capture again, so it must (BT-1)",
                san::describe(v, pos, piece),
                pos.turn
            ),
            Some(format!("write {}", spellings.join(" or "))),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, write_fen};

    fn with_thirst(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&Bloodthirst, Some(pos.turn)).unwrap();
        pos
    }

    fn play(pos: &mut Position, written: &str) -> Result<(), Rejection> {
        let v = event_chess();
        let mv = san::resolve(v, pos, &Notation::parse(written).unwrap())?;
        v.play(pos, &mv);
        Ok(())
    }

    fn legal(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves.iter().map(|mv| san::san_plain(v, pos, mv)).collect()
    }

    #[test]
    fn a_piece_that_captured_must_capture_again_and_duties_chain() {
        let v = event_chess();
        let mut pos = with_thirst("4k3/8/1p6/8/2p5/1p3N2/3p4/7K w - - 0 1");
        play(&mut pos, "Nxd2").unwrap();
        assert_eq!(thirsty(&pos), sq("d2").bit());
        play(&mut pos, "Kd7").unwrap();
        let mut sans = legal(&pos);
        sans.sort();
        assert_eq!(sans, ["Nxb3", "Nxc4"]);
        let refused = play(&mut pos.clone(), "Kg2").unwrap_err();
        assert!(refused.reason.contains("BT-1"), "{}", refused.reason);
        play(&mut pos, "Nxc4").unwrap();
        assert_eq!(thirsty(&pos), sq("c4").bit(), "BT-2");
        play(&mut pos, "Kc7").unwrap();
        assert_eq!(legal(&pos), ["Nxb6"]);
        play(&mut pos, "Nxb6").unwrap();
        play(&mut pos, "Kxb6").unwrap();
        assert!(
            thirsty(&pos).contains(sq("b6")),
            "the king captured: its duty"
        );
        assert!(
            legal(&pos).len() > 1,
            "White's duty is spent, and none is new"
        );
        let fen = write_fen(v, &pos);
        assert!(fen.ends_with("events(75w:b6;x:0,1)"), "{fen}");
        assert_eq!(parse_fen(v, &fen).unwrap().key(v), pos.key(v), "BT-5");
    }

    #[test]
    fn without_a_legal_capture_the_duty_lapses() {
        let mut pos = with_thirst("4k3/8/8/8/8/5N2/3p4/7K w - - 0 1");
        play(&mut pos, "Nxd2").unwrap();
        play(&mut pos, "Kd7").unwrap();
        assert!(legal(&pos).contains(&"Kg2".to_owned()));
    }
}
