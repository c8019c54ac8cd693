//! Event #111 Generous Queens (catalogue; rulings GQ-1 to GQ-6 in
//! `docs/rules/event-111-generous-queens.md`): queens move only one square, and the
//! rooks, knights and bishops next to an own queen may also move as a queen.

use super::replaced_reach;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::{Kind, Piece};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct GenerousQueens;

/// The event's number.
const NUMBER: u16 = 111;

/// The eight squares around `sq` (GQ-1, GQ-2).
fn around(v: &Variant, sq: Sq) -> Bitboard {
    let mut squares = Bitboard::EMPTY;
    for df in -1..=1 {
        for dr in -1..=1 {
            if (df, dr) != (0, 0)
                && let Some(next) = v.geometry.offset(sq, df, dr)
            {
                squares.set(next);
            }
        }
    }
    squares
}

/// Whether the event lends a queen's movement to the `piece` on `from`: a rook, knight
/// or bishop with a queen of its own side on one of the eight squares around it (GQ-2).
fn lent_by(v: &Variant, pos: &Position, from: Sq, piece: Piece, queen: Kind) -> Option<Sq> {
    let generous = ['R', 'N', 'B']
        .iter()
        .any(|&letter| v.kind_of_letter(letter) == Some(piece.kind));
    if !generous {
        return None;
    }
    (pos.pieces(piece.color, queen) & around(v, from)).first()
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Generous Queens",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('Q', 1)]),
    rulings: &["GQ-1", "GQ-2", "GQ-3", "GQ-4", "GQ-5", "GQ-6"],
    page: "docs/rules/event-111-generous-queens.md",
};

impl Event for GenerousQueens {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// A queen, promoted ones too (GQ-5), steps one square (GQ-1); a rook, knight or
    /// bishop next to its queen keeps its own movement and gains an ordinary queen's,
    /// which attacks too (GQ-2, GQ-3). Either movement passes again through the reach
    /// events started before this one, the lent one as a queen's (GQ-6).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        let Some(queen) = v.kind_of_letter('Q') else {
            return;
        };
        if piece.kind == queen {
            let attacks = around(v, from);
            let step = Reach {
                quiet: attacks & !occupied,
                attacks,
            };
            *reach = replaced_reach(v, pos, (from, piece), step, occupied, NUMBER);
        } else if lent_by(v, pos, from, piece, queen).is_some() {
            let attacks = v.attacks(queen, piece.color, from, occupied);
            let lent = Reach {
                quiet: attacks & !occupied,
                attacks,
            };
            let as_queen = Piece {
                color: piece.color,
                kind: queen,
            };
            let lent = replaced_reach(v, pos, (from, as_queen), lent, occupied, NUMBER);
            reach.quiet |= lent.quiet;
            reach.attacks |= lent.attacks;
        }
    }

    fn why_unreached(
        &self,
        v: &Variant,
        _pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        if v.kind_of_letter('Q') != Some(piece.kind) || around(v, from).contains(to) {
            return None;
        }
        let g = v.geometry;
        Some(format!(
            "the {} queen on {} moves and attacks only one square, so it does not reach {} (event #111 Generous Queens, GQ-1)",
            piece.color,
            g.name(from),
            g.name(to)
        ))
    }

    fn why_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        _to: Sq,
    ) -> Option<String> {
        let queen = lent_by(v, pos, from, piece, v.kind_of_letter('Q')?)?;
        Some(format!(
            "next to its queen on {} it moves and attacks as a queen: event #111 Generous Queens, GQ-3",
            v.geometry.name(queen)
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
        pos.start_event(&GenerousQueens, None).unwrap();
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
    fn gq_1_queens_step_one_square() {
        let pos = under_event("q3k3/8/8/8/8/8/8/Q3K3 w - - 0 1");
        assert_eq!(targets(&pos, "a1"), ["a2", "b1", "b2"]);
    }

    #[test]
    fn gq_2_a_knight_next_to_its_queen_also_moves_and_attacks_as_a_queen() {
        let v = event_chess();
        let pos = under_event("q3k3/8/8/8/8/8/1N6/Q3K3 w - - 0 1");
        let knight = targets(&pos, "b2");
        assert!(knight.iter().any(|t| t == "a4"), "its own leap: {knight:?}");
        assert!(
            knight.iter().any(|t| t == "h8"),
            "a queen's slide: {knight:?}"
        );
        assert!(pos.is_attacked(v, sq("e5"), Color::White));
        assert!(
            !pos.is_attacked(v, sq("a8"), Color::White),
            "the queen a1 steps only"
        );
    }
}
