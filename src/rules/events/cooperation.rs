//! Event #73 Cooperation (catalogue; rulings CP-1 to CP-6 in
//! `docs/rules/event-73-cooperation.md`): a piece next to an allied piece, on the same
//! file or rank, may also move as that neighbour moves; kings, pawns and royal pieces
//! take no part, and a movement only borrowed is not lent on.

use super::replaced_reach;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::{Kind, Piece, Role};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct Cooperation;

/// The event's number.
const NUMBER: u16 = 73;

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Cooperation",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["CP-1", "CP-2", "CP-3", "CP-4", "CP-5", "CP-6"],
    page: "docs/rules/event-73-cooperation.md",
};

/// The four squares next to `sq` on its file and rank (CP-1).
fn orthogonal_neighbours(v: &Variant, sq: Sq) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        if let Some(next) = v.geometry.offset(sq, df, dr) {
            out.set(next);
        }
    }
    out
}

/// Whether the piece on `sq` takes part (CP-6): no pawn, no king, no royal piece (#57's
/// queens).
fn cooperates(v: &Variant, pos: &Position, sq: Sq, piece: Piece) -> bool {
    v.role(piece.kind) == Role::Piece
        && !pos
            .events()
            .iter()
            .filter_map(|e| e.royals(v, pos, piece.color))
            .any(|royals| royals.contains(sq))
}

/// The allied neighbours whose movement the `piece` on `from` borrows, by square and
/// kind (CP-1): of other kinds than its own, as one of a kind lends nothing new.
fn lenders(v: &Variant, pos: &Position, from: Sq, piece: Piece) -> Vec<(Sq, Kind)> {
    if pos.piece_at(from) != Some(piece) || !cooperates(v, pos, from, piece) {
        return Vec::new();
    }
    let mut out: Vec<(Sq, Kind)> = Vec::new();
    for sq in orthogonal_neighbours(v, from) & pos.by_color(piece.color) {
        let Some(lender) = pos.piece_at(sq) else {
            continue;
        };
        if lender.kind != piece.kind
            && cooperates(v, pos, sq, lender)
            && !out.iter().any(|&(_, kind)| kind == lender.kind)
        {
            out.push((sq, lender.kind));
        }
    }
    out
}

impl Event for Cooperation {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// CP-1: the movement of each allied neighbour's kind is added to the piece's own,
    /// moves and attacks alike (CP-4); CP-2: as the reach events started before this one
    /// make it (those started after change the whole reach), never what Cooperation
    /// lends the neighbour.
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        for (_, kind) in lenders(v, pos, from, piece) {
            let attacks = v.attacks(kind, piece.color, from, occupied);
            let borrowed = Reach {
                quiet: attacks & !occupied,
                attacks,
            };
            let as_lender = Piece {
                color: piece.color,
                kind,
            };
            let borrowed = replaced_reach(v, pos, (from, as_lender), borrowed, occupied, NUMBER);
            reach.quiet |= borrowed.quiet;
            reach.attacks |= borrowed.attacks;
        }
    }

    fn why_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        _to: Sq,
    ) -> Option<String> {
        let lenders = lenders(v, pos, from, piece);
        if lenders.is_empty() {
            return None;
        }
        let g = v.geometry;
        let named: Vec<String> = lenders
            .iter()
            .map(|&(sq, kind)| format!("the {} on {}", v.pieces[kind.index()].name, g.name(sq)))
            .collect();
        let they = if named.len() == 1 {
            "it does"
        } else {
            "they do"
        };
        Some(format!(
            "next to {} it also moves and attacks as {they}: event #73 Cooperation, CP-1, CP-4",
            named.join(" and ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::parse_fen;
    use crate::rules::piece::Color;

    fn under_event(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&Cooperation, None).unwrap();
        pos
    }

    /// The squares the piece on `from` may legally move to, sorted.
    fn targets(pos: &Position, from: &str) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        let mut names: Vec<String> = moves
            .into_iter()
            .filter(|mv| mv.from == sq(from))
            .map(|mv| v.geometry.name(mv.to))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_rook_next_to_a_knight_also_leaps_and_the_knight_slides() {
        let v = event_chess();
        let pos = under_event("4k3/8/8/8/8/8/8/RN2K3 w - - 0 1");
        let rook = targets(&pos, "a1");
        assert!(rook.contains(&"c2".to_owned()), "a knight's leap: {rook:?}");
        assert!(rook.contains(&"a8".to_owned()), "its own slide: {rook:?}");
        let knight = targets(&pos, "b1");
        assert!(
            knight.contains(&"b8".to_owned()),
            "a rook's slide: {knight:?}"
        );
        assert!(pos.is_attacked(v, sq("b7"), Color::White), "CP-4");
    }

    #[test]
    fn support_does_not_chain_nor_come_diagonally() {
        // CP-2: the rook a1 borrows the knight b1's leap, not the bishop c1's slide
        // that the knight borrows; the queen d2 stands diagonally to c1 and lends it
        // nothing.
        let pos = under_event("4k3/8/8/8/8/8/3Q4/RNB1K3 w - - 0 1");
        let rook = targets(&pos, "a1");
        assert!(
            !rook.contains(&"b2".to_owned()),
            "no bishop's step: {rook:?}"
        );
        let bishop = targets(&pos, "c1");
        assert!(
            bishop.contains(&"a3".to_owned()),
            "its own slide: {bishop:?}"
        );
        assert!(
            !bishop.contains(&"c2".to_owned()),
            "no queen from the diagonal d2: {bishop:?}"
        );
        assert!(
            bishop.contains(&"d3".to_owned()),
            "the knight's leap: {bishop:?}"
        );
    }
}
