//! Event #15 Swapping Pawns (catalogue; rulings SW-1 to SW-5 in
//! `docs/rules/event-15-swapping-pawns.md`): as a move, a pawn may exchange squares with
//! the piece of either colour, king included, that stands directly in front of it,
//! promoting where it reaches its last rank; written like a pawn push (`f3`, `a8=Q#`).

use crate::notation::{Hint, PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct SwappingPawns;

const NUMBER: u16 = 15;

/// Whether the piece `other` may be swapped with a pawn of `pawn`'s colour coming from
/// `from`: not an own pawn, which leaves the board as it was (SW-1), and not an enemy pawn
/// that would stand on its own last rank (SW-5).
fn swappable(v: &Variant, pawn: Piece, other: Piece, from: Sq) -> bool {
    if v.role(other.kind) != Role::Pawn {
        return true;
    }
    other.color != pawn.color && !v.tables.promotion_squares[other.color.index()].contains(from)
}

/// The swaps of the side to move's pawns on `from` with the piece in front of them on a
/// square of `to` (SW-1), once per promotion piece on the last rank (SW-5); pseudo-legal.
fn swaps(v: &Variant, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
    let us = pos.turn;
    let Some(pawn) = v.tables.pawn else {
        return;
    };
    let piece = Piece {
        color: us,
        kind: pawn,
    };
    for sq in pos.pieces(us, pawn) & from {
        let Some(front) = v.tables.pawn_step(us, sq).filter(|f| to.contains(*f)) else {
            continue;
        };
        let Some(other) = pos.piece_at(front) else {
            continue;
        };
        if !swappable(v, piece, other, sq) {
            continue;
        }
        let mv = Move {
            piece,
            from: sq,
            to: front,
            captured: None,
            promotion: None,
            special: Special::Event {
                number: NUMBER,
                data: 0,
            },
            faces: None,
            swap: None,
            returned: None,
        };
        v.push_promotions(pos, mv, out);
    }
}

/// Why the swap `mv` leaves the mover's king in check (SW-4): both squares stay
/// occupied, so no line opens; the king itself was swapped, or the piece moved back
/// attacks it.
fn exposed(v: &Variant, pos: &Position, mv: &Move) -> String {
    let us = mv.piece.color;
    let mut after = pos.clone();
    v.play(&mut after, mv);
    let Some(king) = after
        .checkable_kings(v, us)
        .find(|&k| after.is_attacked(v, k, us.other()))
    else {
        return san::king_exposed(v, pos, mv);
    };
    let by: Vec<String> = after
        .attackers(v, king, us.other(), after.occupied())
        .map(|sq| san::describe(v, &after, sq))
        .collect();
    format!(
        "after the swap the {us} king on {} would be in check from {} (a swap may not leave the own king in check, SW-4)",
        v.geometry.name(king),
        san::list(&by)
    )
}

impl SwappingPawns {
    /// Reads a pawn push onto an occupied square in front of one of our pawns (`f3`,
    /// `a8=Q`) as a swap (SW-1, SW-2); `None` for any other move.
    fn resolve_swap(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let us = pos.turn;
        let (origin, target) = match written.targets.as_slice() {
            [target] => (None, target),
            [origin, target] if origin.separator == Separator::None => (Some(origin), target),
            _ => return None,
        };
        if written.piece.is_some_and(|p| p != 'P')
            || written.placed.is_some()
            || written.arrow.is_some()
            || written.swap.is_some()
            || origin.is_some_and(|o| o.promotion.is_some())
        {
            return None;
        }
        let to = g.from_square(target.square)?;
        let other = pos.piece_at(to)?;
        let pawn = v.tables.pawn?;
        let piece = Piece {
            color: us,
            kind: pawn,
        };
        let from = (pos.pieces(us, pawn) & v.tables.file_of[to.index()])
            .into_iter()
            .find(|&sq| v.tables.pawn_step(us, sq) == Some(to))?;
        if let Some(origin) = origin
            && g.from_square(origin.square) != Some(from)
        {
            return None;
        }
        // `exf3` is a capture, the orthodox resolver's to read and explain; `fxf3` and
        // `xf3` take nothing the pawn behind could take.
        if written.hint.is_some_and(|h| h != Hint::File(g.file(to))) {
            return None;
        }
        if target.separator == Separator::Capture || written.hint.is_some() {
            let mut spelled = g.name(to);
            if let Some(promotion) = target.promotion {
                spelled.push('=');
                spelled.push(char::from(promotion.piece));
            }
            return Some(Err(san::illegal(
                format!(
                    "a pawn takes nothing on the square in front of it; a swap with {} there is written as a push (SW-2)",
                    san::describe(v, pos, to)
                ),
                Some(format!("write {spelled}")),
            )));
        }
        let text = san::written(written);
        let help = || san::legal_help(v, pos, &text, Some(pawn));
        if !swappable(v, piece, other, from) {
            let reason = if other.color == us {
                format!(
                    "a pawn swaps only with a piece that is not a pawn of its own side: the {us} pawns on {} and {} would leave the board as it is (SW-1)",
                    g.name(from),
                    g.name(to)
                )
            } else {
                format!(
                    "the {} pawn on {} would stand on its own last rank at {}, where no pawn may stand: no swap puts it there (SW-5)",
                    other.color,
                    g.name(to),
                    g.name(from)
                )
            };
            return Some(Err(san::illegal(reason, help())));
        }
        let promotion = match san::promotion_kind(v, pos, written, target.promotion) {
            Ok(kind) => kind,
            Err(rejection) => return Some(Err(rejection)),
        };
        let mut offered = Vec::new();
        swaps(v, pos, from.bit(), to.bit(), &mut offered);
        let promotes = offered.iter().any(|mv| mv.promotion.is_some());
        let Some(mv) = offered.iter().find(|mv| mv.promotion == promotion).copied() else {
            let reason = if promotes {
                format!(
                    "the pawn reaches its last rank on {} by the swap and promotes: the move names the piece it becomes (`{}=Q`, SW-5)",
                    g.name(to),
                    g.name(to)
                )
            } else {
                format!(
                    "the swap leaves the pawn on {}, short of its last rank: it does not promote (SW-5)",
                    g.name(to)
                )
            };
            return Some(Err(san::illegal(reason, help())));
        };
        if v.leaves_king_attacked(pos, &mv) {
            return Some(Err(san::illegal(exposed(v, pos, &mv), help())));
        }
        Some(Ok(mv))
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Swapping Pawns",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('P', 1)]),
    rulings: &["SW-1", "SW-2", "SW-3", "SW-4", "SW-5"],
    page: "docs/rules/event-15-swapping-pawns.md",
};

impl Event for SwappingPawns {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        swaps(v, pos, from, to, out);
    }

    /// The pawn and the piece in front exchange squares, each with its marks; nothing
    /// leaves the board, so nothing counts as captured (SW-1). Castling rights go with
    /// the squares and a swapped king (SW-3); the core sets no en-passant square (SW-5);
    /// the fifty-move count starts again, as after any pawn move.
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let other = pos.lift(mv.to).expect("a piece in front");
        // A king swapped off its square keeps no castling right (SW-3); the core clears
        // only the rights of the two squares, which name rooks.
        if v.role(other.piece.kind) == Role::King
            && let Some(castling) = v.castling
        {
            let rank = v
                .geometry
                .rank_mask(castling.rank[other.piece.color.index()]);
            pos.set_castling(pos.castling & !rank);
        }
        match mv.promotion {
            None => pos.relocate(mv.from, mv.to),
            Some(kind) => {
                pos.remove(mv.from);
                pos.put(
                    mv.to,
                    Piece {
                        color: mv.piece.color,
                        kind,
                    },
                );
            }
        }
        if mv.faces.is_some() {
            super::knight_facings::set_facing(pos, mv.to, mv.faces);
        }
        pos.place(mv.from, other);
        pos.halfmoves = 0;
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        self.resolve_swap(v, pos, written)
    }

    /// `f3`, `a8=Q`: a swap is written as the push onto the square in front (SW-2); only
    /// one pawn of a side can swap onto a square, so nothing needs disambiguating.
    fn san(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let mut out = v.geometry.name(mv.to);
        if let Some(kind) = mv.promotion {
            out.push('=');
            out.push(v.piece(kind).letter);
        }
        out
    }

    /// `f2-f3`, `a7-a8=Q`.
    fn lan(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        format!("{}-{}", v.geometry.name(mv.from), self.san(v, pos, mv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;
    use crate::rules::piece::Color;

    fn swapping(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&SwappingPawns, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn a_pawn_swaps_with_the_piece_in_front_of_either_colour() {
        let v = event_chess();
        // f2 has a black knight in front, g2 a white bishop, h2 a white pawn (no swap).
        let pos = swapping("4k3/8/8/8/8/5nBP/5PPP/4K3 w - - 0 1");
        let mut moves = Vec::new();
        SwappingPawns.extra_moves(v, &pos, v.geometry.all(), v.geometry.all(), &mut moves);
        let spelled: Vec<String> = moves
            .iter()
            .map(|m| SwappingPawns.san(v, &pos, m))
            .collect();
        assert_eq!(spelled, ["f3", "g3"]);
        let swap = resolve(&pos, "f3").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &swap);
        assert_eq!(after.piece_at(sq("f3")).map(|p| p.kind), v.tables.pawn);
        assert_eq!(
            after.piece_at(sq("f2")).map(|p| p.color),
            Some(Color::Black)
        );
        assert_eq!(after.ep, None, "SW-5");
        assert_eq!(after.captures, [0, 0], "SW-1");
        let own = resolve(&pos, "h3").unwrap_err();
        assert!(own.reason.contains("SW-1"), "{}", own.reason);
    }

    #[test]
    fn a_swap_onto_the_last_rank_promotes_and_takes_the_castling_right() {
        let v = event_chess();
        let pos = swapping("r3k2r/P7/8/8/8/8/8/4K3 w kq - 0 1");
        let missing = resolve(&pos, "a8").unwrap_err();
        assert!(missing.reason.contains("SW-5"), "{}", missing.reason);
        let swap = resolve(&pos, "a8=Q").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &swap);
        assert_eq!(
            after.piece_at(sq("a7")).map(|p| p.color),
            Some(Color::Black)
        );
        assert!(!after.castling.contains(sq("a8")), "SW-3");
        assert!(after.castling.contains(sq("h8")));
    }

    #[test]
    fn a_swap_may_not_leave_the_own_king_in_check() {
        // The swap takes the king to d2, on the black rook's rank.
        let pos = swapping("4k3/8/8/8/8/3K4/r2P4/8 w - - 0 1");
        let refused = resolve(&pos, "d3").unwrap_err();
        assert!(refused.reason.contains("SW-4"), "{}", refused.reason);
    }
}
