//! Event #109 Pawn Grabbers (catalogue; rulings PG-1 to PG-5 in
//! `docs/rules/event-109-pawn-grabbers.md`): a player who can capture a pawn in a way the
//! opponent cannot answer by recapturing the capturer must make a capture, any capture.

use crate::notation::PieceMove;
use crate::rules::event::{Condition, Event, EventInfo};
use crate::rules::meta;
use crate::rules::moves::{Move, Special};
use crate::rules::piece::Role;
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct PawnGrabbers;

const NUMBER: u16 = 109;

/// Whether `mv` captures an enemy piece (PG-5): en passant and captures through a
/// passage too; an own capture (#126) takes nothing of the opponent's.
fn captures_enemy(v: &Variant, pos: &Position, mv: &Move) -> bool {
    let enemy = |sq| {
        pos.piece_at(sq)
            .is_some_and(|piece| piece.color != mv.piece.color)
    };
    mv.special == Special::EnPassant
        || mv.captured.is_some() && enemy(mv.capture_square(v))
        || mv.entry_capture_square(v, pos).is_some_and(enemy)
}

/// Whether `mv` captures an enemy pawn (PG-2: en passant is one).
fn captures_pawn(v: &Variant, pos: &Position, mv: &Move) -> bool {
    let pawn = |sq| {
        pos.piece_at(sq)
            .is_some_and(|p| p.color != mv.piece.color && v.role(p.kind) == Role::Pawn)
    };
    mv.special == Special::EnPassant
        || mv.captured.is_some() && pawn(mv.capture_square(v))
        || mv.entry_capture_square(v, pos).is_some_and(pawn)
}

/// Whether `mv` is legal by every rule but this event's (so that asking does not ask
/// itself): the mover's king, EC-2, the other running events.
fn legal_but_for_this(v: &Variant, pos: &Position, mv: &Move) -> bool {
    !v.leaves_king_attacked(pos, mv)
        && !meta::breaks_capture_limit(v, pos, mv)
        && pos
            .events()
            .iter()
            .filter(|e| e.number() != NUMBER)
            .all(|e| e.allows(v, pos, mv))
}

/// Whether the side to move in `after` has a legal capture of the piece on `mv.to`, the
/// one that just captured (PG-3).
fn recapture_exists(v: &Variant, after: &Position, mv: &Move) -> bool {
    let at = mv.to;
    if after
        .piece_at(at)
        .is_none_or(|piece| piece.color != mv.piece.color)
    {
        return true;
    }
    let mut replies = Vec::new();
    v.pseudo_moves(after, v.geometry.all(), at.bit(), &mut replies);
    replies.iter().any(|reply| {
        captures_enemy(v, after, reply)
            && (reply.capture_square(v) == at || reply.entry_capture_square(v, after) == Some(at))
            && legal_but_for_this(v, after, reply)
    })
}

/// The side to move's legal pawn captures that the opponent cannot answer by taking
/// the capturer (PG-1..PG-4).
fn grabs(v: &Variant, pos: &Position) -> Vec<Move> {
    let mut captures = Vec::new();
    v.pseudo_moves(pos, v.geometry.all(), v.geometry.all(), &mut captures);
    captures.retain(|mv| {
        captures_pawn(v, pos, mv) && legal_but_for_this(v, pos, mv) && {
            let mut after = pos.clone();
            v.play(&mut after, mv);
            !recapture_exists(v, &after, mv)
        }
    });
    captures
}

/// The side to move's legal captures, any of which satisfies the duty (PG-1).
fn legal_captures(v: &Variant, pos: &Position) -> Vec<Move> {
    let mut captures = Vec::new();
    v.pseudo_moves(pos, v.geometry.all(), v.geometry.all(), &mut captures);
    captures.retain(|mv| captures_enemy(v, pos, mv) && legal_but_for_this(v, pos, mv));
    captures
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Pawn Grabbers",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["PG-1", "PG-2", "PG-3", "PG-4", "PG-5"],
    page: "docs/rules/event-109-pawn-grabbers.md",
};

impl PawnGrabbers {
    /// The duty in words, naming the captures that make it.
    fn duty_words(&self, v: &Variant, pos: &Position, grabs: &[Move]) -> String {
        let spelled: Vec<String> = grabs.iter().map(|mv| san::san_plain(v, pos, mv)).collect();
        format!(
            "{} can take a pawn that cannot be taken back ({}), so under event #109 Pawn Grabbers {} must capture, with any capture (PG-1)",
            pos.turn,
            san::list(&spelled),
            pos.turn
        )
    }
}

impl Event for PawnGrabbers {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// PG-1: while the side to move has a pawn capture the opponent cannot answer by
    /// recapturing, only captures are legal.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        captures_enemy(v, pos, mv) || grabs(v, pos).is_empty()
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let duty = self.duty_words(v, pos, &grabs(v, pos));
        let own_capture =
            mv.from != mv.to && pos.piece_at(mv.to).is_some_and(|p| p.color == pos.turn);
        if own_capture {
            format!("{duty}; taking one's own piece captures nothing of the opponent's (PG-5)")
        } else {
            duty
        }
    }

    /// PG-1: a written move the duty rules out says which pawn capture makes the duty
    /// and lists the captures; every other move is left to the orthodox reading.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let candidates = san::candidates(v, pos, written);
        if candidates.is_empty()
            || candidates.iter().any(|mv| captures_enemy(v, pos, mv))
            || !candidates.iter().any(|mv| legal_but_for_this(v, pos, mv))
        {
            return None;
        }
        let grabs = grabs(v, pos);
        if grabs.is_empty() {
            return None;
        }
        let spellings: Vec<String> = legal_captures(v, pos)
            .iter()
            .map(|mv| san::san_plain(v, pos, mv))
            .collect();
        Some(Err(san::illegal(
            self.duty_words(v, pos, &grabs),
            Some(format!("write {}", spellings.join(" or "))),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::event_chess;
    use crate::rules::parse_fen;

    fn under_event(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&PawnGrabbers, Some(pos.turn)).unwrap();
        pos
    }

    fn legal(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        let mut sans: Vec<String> = moves
            .iter()
            .map(|mv| san::san_plain(v, pos, mv).replace('+', ""))
            .collect();
        sans.sort();
        sans
    }

    #[test]
    fn pg_1_an_unanswerable_pawn_capture_forces_a_capture() {
        // Rxa7 takes a pawn nothing recaptures: white must capture, Rxa7 or Rxh7 (the
        // h7 pawn is guarded by the king, but any capture will do).
        let pos = under_event("8/p5kp/8/8/8/8/8/R3K2R w - - 0 1");
        assert_eq!(legal(&pos), ["Rxa7", "Rxh7"]);
        let refused =
            san::resolve(event_chess(), &pos, &Notation::parse("Kd2").unwrap()).unwrap_err();
        assert!(refused.reason.contains("PG-1"), "{}", refused.reason);
    }

    #[test]
    fn pg_3_a_guarded_pawn_makes_no_duty() {
        // The a7 pawn is guarded by the c8 knight, and by the king on a8.
        for fen in [
            "2n3k1/p7/8/8/8/8/8/R3K3 w - - 0 1",
            "k7/p7/8/8/8/8/8/R3K3 w - - 0 1",
        ] {
            assert!(
                legal(&under_event(fen)).contains(&"Kd2".to_owned()),
                "{fen}"
            );
        }
    }

    #[test]
    fn pg_3_recaptures_must_be_legal() {
        // The king on a8 may not take back on a7 into the g1 bishop's (or the rook's)
        // attack; the c6 knight may not, pinned to its king by the c1 rook.
        let king = under_event("k7/p7/8/8/8/8/8/R3K1B1 w - - 0 1");
        assert_eq!(legal(&king), ["Bxa7", "Rxa7"]);
        let pinned = under_event("8/p1k5/2n5/8/8/8/8/R1R1K3 w - - 0 1");
        assert_eq!(legal(&pinned), ["Rxa7", "Rxc6"]);
    }
}
