//! Event #18 Magnetic Pawns (catalogue; rulings MP-1 to MP-5 in
//! `docs/rules/event-18-magnetic-pawns.md`): after every pawn move, the nearest enemy man
//! ahead of the pawn on its file is pulled one square toward it, and a pawn move whose
//! pull leaves the mover in check is illegal.

use crate::notation::PieceMove;
use crate::rules::board::Sq;
use crate::rules::event::{Condition, Event, EventInfo};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct MagneticPawns;

const NUMBER: u16 = 18;

/// The pull a pawn of `color` on `pawn` makes (MP-2): the square of the nearest man
/// ahead of it on its file, when that man is the opponent's and the square between them
/// toward the pawn is free, and that square.
fn pull(v: &Variant, pos: &Position, pawn: Sq, color: Color) -> Option<(Sq, Sq)> {
    let g = v.geometry;
    let mut toward = pawn;
    let mut ahead = g.offset(pawn, 0, color.forward())?;
    while pos.piece_at(ahead).is_none() {
        toward = ahead;
        ahead = g.offset(ahead, 0, color.forward())?;
    }
    let man = pos.piece_at(ahead)?;
    (man.color != color && toward != pawn).then_some((ahead, toward))
}

/// Where `mv`, a move of a pawn, pulls a man from and to (MP-1): judged from the square
/// the pawn stands on after the move, so a promoted pawn, with nothing ahead, pulls
/// nothing.
fn pull_of(v: &Variant, pos: &Position, mv: &Move) -> Option<(Sq, Sq)> {
    if v.role(mv.piece.kind) != Role::Pawn || mv.promotion.is_some() {
        return None;
    }
    pull(v, pos, mv.to, mv.piece.color)
}

/// The board after a pawn's move as orthodox chess plays it, without the pull.
fn without_pull(v: &Variant, pos: &Position, mv: &Move) -> Position {
    let mut plain = pos.clone();
    if mv.captured.is_some() {
        plain.remove(mv.capture_square(v));
    }
    plain.relocate(mv.from, mv.to);
    plain
}

/// Whether a king of `color` is in check on `pos`.
fn in_check(v: &Variant, pos: &Position, color: Color) -> bool {
    pos.checkable_kings(v, color)
        .into_iter()
        .any(|king| pos.is_attacked(v, king, color.other()))
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Magnetic Pawns",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('P', 1)]),
    rulings: &["MP-1", "MP-2", "MP-3", "MP-4", "MP-5"],
    page: "docs/rules/event-18-magnetic-pawns.md",
};

impl Event for MagneticPawns {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// MP-1, MP-2: the pull, compulsory, after the pawn has landed; MP-4: a pulled king
    /// or rook loses its castling rights, and a pulled pawn sets no en-passant square.
    fn after_landing(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let us = mv.piece.color;
        let is_our_pawn =
            |p: Option<Piece>| p.is_some_and(|p| p.color == us && p.kind == mv.piece.kind);
        if !is_our_pawn(pos.piece_at(mv.to)) {
            return;
        }
        let Some((from, to)) = pull_of(v, pos, mv) else {
            return;
        };
        let pulled = pos.piece_at(from).expect("a pulled man");
        pos.relocate(from, to);
        let mut lost = from.bit();
        if v.role(pulled.kind) == Role::King
            && let Some(castling) = v.castling
        {
            lost |= v.geometry.rank_mask(castling.rank[pulled.color.index()]);
        }
        if (pos.castling & lost).nonempty() {
            pos.set_castling(pos.castling & !lost);
        }
    }

    /// MP-4: a pull takes castling rights as a move does.
    fn why_no_castling(
        &self,
        _v: &Variant,
        _pos: &Position,
        _color: Color,
    ) -> Option<&'static str> {
        Some("the king or that rook has moved, or a pawn pulled it (MP-4)")
    }

    /// MP-3: a pawn move refused because its pull leaves the mover's king in check says
    /// so; everything else is left to the orthodox reading.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        if written.piece.is_some_and(|p| p != 'P') {
            return None;
        }
        let candidates = san::candidates(v, pos, written);
        if candidates.iter().any(|mv| !v.leaves_king_attacked(pos, mv)) {
            return None;
        }
        let us = pos.turn;
        let (mv, from, to) = candidates.into_iter().find_map(|mv| {
            let plain = without_pull(v, pos, &mv);
            let (from, to) = pull_of(v, &plain, &mv)?;
            (!in_check(v, &plain, us)).then_some((mv, from, to))
        })?;
        let g = v.geometry;
        let mut after = pos.clone();
        v.play(&mut after, &mv);
        let king = after
            .checkable_kings(v, us)
            .find(|&king| after.is_attacked(v, king, us.other()))?;
        let attackers: Vec<String> = after
            .attackers(v, king, us.other(), after.occupied())
            .map(|sq| san::describe(v, &after, sq))
            .collect();
        Some(Err(san::illegal(
            format!(
                "{} pulls {} to {} (MP-2), and then the {us} king on {} is in check from {}: a pawn move whose pull leaves the mover in check is illegal (MP-3)",
                san::san_plain(v, pos, &mv),
                san::describe(v, pos, from),
                g.name(to),
                g.name(king),
                san::list(&attackers)
            ),
            san::legal_help(v, pos, &san::written(written), Some(mv.piece.kind)),
        )))
    }
}

/// The squares a pawn of `color` on `pawn` would pull a man off and onto, for tests.
#[cfg(test)]
fn pulled(v: &Variant, pos: &Position, pawn: Sq, color: Color) -> crate::rules::Bitboard {
    pull(v, pos, pawn, color).map_or(crate::rules::Bitboard::EMPTY, |(from, to)| {
        from.bit() | to.bit()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, write_fen};

    fn with_magnets(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&MagneticPawns, Some(pos.turn)).unwrap();
        pos
    }

    fn play(pos: &mut Position, written: &str) -> Result<(), Rejection> {
        let v = event_chess();
        let mv = san::resolve(v, pos, &Notation::parse(written).unwrap())?;
        v.play(pos, &mv);
        Ok(())
    }

    #[test]
    fn the_nearest_enemy_man_ahead_is_pulled_one_square() {
        let v = event_chess();
        let mut pos = with_magnets("r3k3/8/8/8/8/8/P7/4K3 w q - 0 1");
        assert_eq!(
            pulled(v, &pos, sq("a4"), Color::White),
            sq("a8").bit() | sq("a7").bit()
        );
        play(&mut pos, "a4").unwrap();
        assert_eq!(
            write_fen(v, &pos),
            "4k3/r7/8/8/P7/8/8/4K3 b - a3 0 1 events(18w)",
            "the rook is pulled to a7 and loses its castling right (MP-4)"
        );
    }

    #[test]
    fn an_own_man_or_an_adjacent_one_is_not_pulled() {
        let v = event_chess();
        let pos = with_magnets("4k3/8/4r3/8/4N3/8/4P3/4K3 w - - 0 1");
        assert!(
            pulled(v, &pos, sq("e3"), Color::White).is_empty(),
            "our knight first"
        );
        let pos = with_magnets("4k3/8/8/8/8/4r3/4P3/4K3 w - - 0 1");
        assert!(
            pulled(v, &pos, sq("e2"), Color::White).is_empty(),
            "right in front"
        );
    }

    #[test]
    fn a_pull_that_exposes_the_mover_is_illegal() {
        // The black rook on d8 would come to d7, onto the white king's rank.
        let mut pos = with_magnets("3r2k1/K7/8/8/8/8/3P4/8 w - - 0 1");
        let refused = play(&mut pos, "d4").unwrap_err();
        assert!(refused.reason.contains("MP-3"), "{}", refused.reason);
        let mut pos = with_magnets("3r2k1/8/8/8/8/8/3P4/7K w - - 0 1");
        play(&mut pos, "d4").unwrap();
        assert_eq!(pos.piece_at(sq("d7")).map(|p| p.color), Some(Color::Black));
    }
}
