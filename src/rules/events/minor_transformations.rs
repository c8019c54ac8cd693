//! Event #76 Minor piece transformations (catalogue; rulings MT-1 to MT-5 in
//! `docs/rules/event-76-minor-transformations.md`): bishops and knights on their owner's
//! half of the board move as bishops, on the enemy half as knights; the square a move
//! starts from decides, and attacks follow the same rule.

use super::reach_as;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct MinorTransformations;

/// The event's number.
const NUMBER: u16 = 76;

/// Whether `sq` lies on `color`'s own half: ranks 1-4 for White, 5-8 for Black (MT-1).
fn on_own_half(v: &Variant, color: Color, sq: Sq) -> bool {
    let g = v.geometry;
    let half = g.height / 2;
    match color {
        Color::White => g.rank(sq) < half,
        Color::Black => g.rank(sq) >= g.height - half,
    }
}

/// The movement the `piece` on `from` has under the event: a bishop's on its owner's
/// half, a knight's on the enemy half (MT-1); `None` for other pieces.
fn movement(v: &Variant, piece: Piece, from: Sq) -> Option<Kind> {
    let bishop = v.kind_of_letter('B')?;
    let knight = v.kind_of_letter('N')?;
    if piece.kind != bishop && piece.kind != knight {
        return None;
    }
    Some(if on_own_half(v, piece.color, from) {
        bishop
    } else {
        knight
    })
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Minor piece transformations",
    aliases: &[],
    types: &[],
    condition: Condition {
        one_of_each: &['N', 'B'],
        no_check: true,
        ..Condition::NONE
    },
    rulings: &["MT-1", "MT-2", "MT-3", "MT-4", "MT-5"],
    page: "docs/rules/event-76-minor-transformations.md",
};

impl Event for MinorTransformations {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// A bishop or knight moves, captures and checks as the piece its square calls for
    /// (MT-1, MT-2), its own kind unchanged (MT-3); the reach events started before
    /// this one then change that movement as they change any piece's (MT-4). A piece
    /// whose square gives it its own movement keeps the reach it has, so an event that
    /// changes a bishop's movement (#30, #38) still changes it (DB-5, FR-6).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if let Some(kind) = self.moves_as(v, pos, from, piece) {
            *reach = reach_as(v, pos, (from, piece), kind, occupied, NUMBER);
        }
    }

    fn moves_as(&self, v: &Variant, _pos: &Position, from: Sq, piece: Piece) -> Option<Kind> {
        movement(v, piece, from).filter(|&kind| kind != piece.kind)
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let kind = movement(v, piece, from)?;
        let reach = reach_as(v, pos, (from, piece), kind, pos.occupied(), NUMBER);
        if (reach.quiet | reach.attacks).contains(to) {
            return None;
        }
        let (half, mover) = half_rule(v, piece, from);
        Some(format!(
            "the {} {} on {} stands on {half}'s half of the board, so it moves and attacks as a {mover} and does not reach {} (event #76 Minor piece transformations, MT-1, MT-2)",
            piece.color,
            v.pieces[piece.kind.index()].name,
            v.geometry.name(from),
            v.geometry.name(to)
        ))
    }

    fn why_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let kind = movement(v, piece, from)?;
        let reach = reach_as(v, pos, (from, piece), kind, pos.occupied(), NUMBER);
        let (half, mover) = half_rule(v, piece, from);
        reach.attacks.contains(to).then(|| {
            format!(
                "on {half}'s half of the board it attacks as a {mover}: event #76 Minor piece transformations, MT-2"
            )
        })
    }
}

/// Whose half of the board the `piece` on `from` stands on, and what it moves as there
/// (MT-1).
fn half_rule(v: &Variant, piece: Piece, from: Sq) -> (Color, &'static str) {
    if on_own_half(v, piece.color, from) {
        (piece.color, "bishop")
    } else {
        (piece.color.other(), "knight")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::parse_fen;

    fn under_event(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&MinorTransformations, None).unwrap();
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
    fn mt_1_the_half_a_move_starts_on_decides() {
        // The white knight g1 stands on white's half and slides as a bishop (its own
        // bishop c5 in the way); the white bishop c5 stands on black's half and jumps.
        let pos = under_event("4k3/8/8/2B5/8/8/8/4K1N1 w - - 0 1");
        assert_eq!(targets(&pos, "g1"), ["d4", "e3", "f2", "h2"]);
        assert_eq!(
            targets(&pos, "c5"),
            ["a4", "a6", "b3", "b7", "d3", "d7", "e4", "e6"]
        );
    }

    #[test]
    fn mt_1_attacks_follow_the_moves() {
        // The black bishop e2 stands on white's half, black's enemy half: it attacks as
        // a knight, so the king on d4 is attacked and f1 (on its diagonal) is not.
        let v = event_chess();
        let pos = under_event("4k3/8/8/8/3K4/8/4b3/8 w - - 0 1");
        assert!(pos.is_attacked(v, sq("d4"), Color::Black));
        assert!(!pos.is_attacked(v, sq("f1"), Color::Black));
    }
}
