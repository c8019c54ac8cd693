//! Event #24 Roar! (catalogue; rulings RO-1 to RO-6 in `docs/rules/event-24-roar.md`): a
//! knight may roar instead of moving, standing still and pushing every piece within two
//! king steps one square away from it; a pawn pushed onto its last rank promotes later by
//! standing still (`a8=Q`).

use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct Roar;

const NUMBER: u16 = 24;

/// `Special::Event` data: a knight's roar (RO-1).
const ROAR: u16 = 0;
/// `Special::Event` data: a pawn standing still to promote (RO-4).
const PROMOTE: u16 = 1;

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Roar!",
    aliases: &["Roar"],
    types: &[],
    condition: Condition::pieces_each(&[('N', 1)]),
    rulings: &["RO-1", "RO-2", "RO-3", "RO-4", "RO-5", "RO-6"],
    page: "docs/rules/event-24-roar.md",
};

/// The pieces a roar of the knight on `knight` moves, each with its new square, in the
/// order they move: the ring two king steps away first, then the ring next to the knight
/// on the board the first left (RO-1, RO-2). A piece moves one step straight away from
/// the knight when that square is on the board and empty.
fn pushes(v: &Variant, pos: &Position, knight: Sq) -> Vec<(Sq, Sq)> {
    let g = v.geometry;
    let mut occupied = pos.occupied();
    let mut out = Vec::new();
    for ring in [2i32, 1] {
        let mut moved = Vec::new();
        for dr in -ring..=ring {
            for df in -ring..=ring {
                if df.abs().max(dr.abs()) != ring {
                    continue;
                }
                let Some(from) = g.offset(knight, df, dr) else {
                    continue;
                };
                let to = g.offset(from, df.signum(), dr.signum());
                if let Some(to) = to.filter(|&to| occupied.contains(from) && !occupied.contains(to))
                {
                    moved.push((from, to));
                }
            }
        }
        for &(from, to) in &moved {
            occupied.clear(from);
            occupied.set(to);
        }
        out.extend(moved);
    }
    out
}

/// The roar of `knight` as a move: the knight "moves" to its own square (RO-6).
fn roar_move(pos: &Position, knight: Sq) -> Move {
    Move {
        piece: pos.piece_at(knight).expect("our knight"),
        from: knight,
        to: knight,
        captured: None,
        promotion: None,
        special: Special::Event {
            number: NUMBER,
            data: ROAR,
        },
        faces: None,
        swap: None,
        returned: None,
    }
}

/// The knights of the side to move on `from` whose roar moves something (RO-3).
fn roars(v: &Variant, pos: &Position, from: Bitboard, out: &mut Vec<Move>) {
    let Some(knight) = v.kind_of_letter('N') else {
        return;
    };
    for sq in pos.pieces(pos.turn, knight) & from {
        if !pushes(v, pos, sq).is_empty() && !stands_still_otherwise(v, pos, sq) {
            out.push(roar_move(pos, sq));
        }
    }
}

/// RO-6: whether another running event lets the piece on `sq` stand still (the older
/// #88's armour break), a move also written `Nc4-c4`: that knight does not roar, so the
/// record's `Nc4-c4` has one meaning.
fn stands_still_otherwise(v: &Variant, pos: &Position, sq: Sq) -> bool {
    let mut others = Vec::new();
    for event in pos.events() {
        if event.number() != NUMBER {
            event.extra_moves(v, pos, sq.bit(), sq.bit(), &mut others);
        }
    }
    others.iter().any(|mv| mv.from == sq && mv.to == sq)
}

/// `Nc4-c4` for the knight on `sq`.
fn written_stand_still(v: &Variant, sq: Sq) -> String {
    format!("N{0}-{0}", v.geometry.name(sq))
}

/// The square of `Nc4-c4`: a piece written going from a square to the same square.
fn stand_still_square(v: &Variant, written: &PieceMove) -> Option<Sq> {
    let [first, second] = written.targets.as_slice() else {
        return None;
    };
    (first.square == second.square
        && second.separator == Separator::Dash
        && first.promotion.is_none()
        && second.promotion.is_none()
        && written.hint.is_none())
    .then(|| v.geometry.from_square(first.square))
    .flatten()
}

impl Roar {
    /// Reads `Nc4-c4` as the roar of the knight on c4 (RO-6), or says why it is none.
    fn resolve_roar(&self, v: &Variant, pos: &Position, sq: Sq) -> Result<Move, Rejection> {
        let g = v.geometry;
        let us = pos.turn;
        let knight = v.kind_of_letter('N');
        let help = || {
            let mut moves = Vec::new();
            roars(v, pos, g.all(), &mut moves);
            moves.retain(|mv| !v.leaves_king_attacked(pos, mv));
            let spelled: Vec<String> = moves.iter().map(|mv| self.san(v, pos, mv)).collect();
            (!spelled.is_empty()).then(|| format!("legal roars: {}", spelled.join(", ")))
        };
        if pos
            .piece_at(sq)
            .is_none_or(|p| p.color != us || Some(p.kind) != knight)
        {
            return Err(san::illegal(
                format!(
                    "no {us} knight stands on {} to roar: only a knight roars, written as a move to its own square (RO-6)",
                    g.name(sq)
                ),
                help(),
            ));
        };
        if stands_still_otherwise(v, pos, sq) {
            return Err(san::illegal(
                format!(
                    "the {us} knight on {} may stand still for another running event, which `{}` names: it does not roar (RO-6)",
                    g.name(sq),
                    written_stand_still(v, sq)
                ),
                help(),
            ));
        }
        if pushes(v, pos, sq).is_empty() {
            return Err(san::illegal(
                format!(
                    "the roar of the {us} knight on {} would move no piece: a roar must push at least one (RO-3)",
                    g.name(sq)
                ),
                help(),
            ));
        }
        let mv = roar_move(pos, sq);
        if v.leaves_king_attacked(pos, &mv) {
            return Err(san::illegal(
                format!(
                    "the roar of the {us} knight on {} leaves the {us} king in check, and a roar may not (RO-3)",
                    g.name(sq)
                ),
                help(),
            ));
        }
        Ok(mv)
    }
}

impl Event for Roar {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// RO-5: a pawn on its own first or second rank may step two.
    fn may_double_step(&self, v: &Variant, _pos: &Position, from: Sq, color: Color) -> bool {
        super::on_own_first_two_ranks(v, from, color)
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        _to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        roars(v, pos, from, out);
        super::standing_promotions(v, pos, from, (NUMBER, PROMOTE), out);
    }

    /// RO-1, RO-2: the pushed pieces move in order, their marks with them; a king or rook
    /// pushed off its square loses its castling rights.
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let Special::Event { data, .. } = mv.special else {
            return;
        };
        if data == PROMOTE {
            super::promote_in_place(pos, mv);
            return;
        }
        let mut lost = Bitboard::EMPTY;
        for (from, to) in pushes(v, pos, mv.from) {
            let Some(piece) = pos.piece_at(from) else {
                continue;
            };
            pos.relocate(from, to);
            lost.set(from);
            if v.role(piece.kind) == Role::King
                && let Some(castling) = v.castling
            {
                lost |= v.geometry.rank_mask(castling.rank[piece.color.index()])
                    & pos.by_color(piece.color);
            }
        }
        if (pos.castling & lost).nonempty() {
            pos.set_castling(pos.castling & !lost);
        }
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        if let Some(sq) = stand_still_square(v, written) {
            let knight_written = written
                .piece
                .and_then(|letter| v.kind_of_letter(letter))
                .is_some_and(|kind| Some(kind) == v.kind_of_letter('N'));
            if knight_written {
                return Some(self.resolve_roar(v, pos, sq));
            }
            return None;
        }
        super::resolve_standing_promotion(
            v,
            pos,
            written,
            &super::StandingRules {
                cannot: "RO-4",
                in_check: "RO-3",
            },
        )
    }

    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        self.lan(v, pos, mv)
    }

    fn lan(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let square = v.geometry.name(mv.from);
        match mv.special {
            Special::Event { data: PROMOTE, .. } => format!(
                "{square}={}",
                mv.promotion.map_or('?', |k| v.piece(k).letter)
            ),
            _ => format!("{}{square}-{square}", v.piece(mv.piece.kind).letter),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::{parse_fen, write_fen};

    fn started(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&Roar, None).unwrap();
        pos
    }

    fn roared(fen: &str, knight: &str) -> String {
        let v = event_chess();
        let mut pos = started(fen);
        let roar = roar_move(&pos, sq(knight));
        v.play(&mut pos, &roar);
        write_fen(v, &pos).split(' ').next().unwrap().to_owned()
    }

    #[test]
    fn ro_1_the_catalogue_example_d6_goes_to_e7_and_a5_stays_at_the_edge() {
        assert_eq!(
            roared("4k3/8/3p4/p7/2N5/8/8/4K3 w - - 0 1", "c4"),
            "4k3/4p3/8/p7/2N5/8/8/4K3"
        );
    }

    #[test]
    fn ro_2_the_outer_ring_moves_first_and_makes_room_for_the_inner() {
        // e5 moves to f6 once f6 has gone on to g7; b4 is blocked by a4.
        assert_eq!(
            roared("4k3/8/5p2/4p3/pp1N4/8/8/4K3 w - - 0 1", "d4"),
            "4k3/6p1/5p2/8/pp1N4/8/8/4K3"
        );
    }

    #[test]
    fn ro_3_a_roar_that_moves_nothing_is_no_move() {
        let v = event_chess();
        let pos = started("4k3/8/8/8/8/8/8/N3K3 w - - 0 1");
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        assert!(
            !moves
                .iter()
                .any(|mv| matches!(mv.special, Special::Event { .. })),
            "the king e1 is three files away"
        );
    }
}
