//! Event #112 Heavy Rooks (catalogue; rulings HR-1 to HR-6 in
//! `docs/rules/event-112-heavy-rooks.md`): rooks move at most two squares forward, one
//! sideways or one back, and attack no further; pawns and knights cannot capture rooks.

use super::replaced_reach;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct HeavyRooks;

/// The event's number.
const NUMBER: u16 = 112;

/// Whether `piece` is a rook of the variant.
fn is_rook(v: &Variant, piece: Piece) -> bool {
    v.kind_of_letter('R') == Some(piece.kind)
}

/// The squares a heavy rook of `color` on `from` reaches with `occupied` in the way: one
/// step sideways or back, one or two forward, the second only over an empty square
/// (HR-1, HR-2).
fn heavy_steps(v: &Variant, color: Color, from: Sq, occupied: Bitboard) -> Bitboard {
    let g = v.geometry;
    let forward = match color {
        Color::White => 1,
        Color::Black => -1,
    };
    let mut reach = Bitboard::EMPTY;
    for (df, dr) in [(1, 0), (-1, 0), (0, -forward), (0, forward)] {
        if let Some(sq) = g.offset(from, df, dr) {
            reach.set(sq);
        }
    }
    if let Some(middle) = g.offset(from, 0, forward)
        && !occupied.contains(middle)
        && let Some(second) = g.offset(middle, 0, forward)
    {
        reach.set(second);
    }
    reach
}

/// Whether `mv` is a pawn or knight taking a rook, which HR-4 forbids.
fn takes_rook_with_pawn_or_knight(v: &Variant, mv: &Move) -> bool {
    let taker = v.role(mv.piece.kind) == Role::Pawn || v.kind_of_letter('N') == Some(mv.piece.kind);
    taker && mv.captured.is_some_and(|victim| is_rook(v, victim))
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Heavy Rooks",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('R', 1)]),
    rulings: &["HR-1", "HR-2", "HR-3", "HR-4", "HR-5", "HR-6"],
    page: "docs/rules/event-112-heavy-rooks.md",
};

impl Event for HeavyRooks {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// A rook, promoted ones too (HR-5), moves, captures and checks by its short steps
    /// only (HR-1, HR-2); the reach events started before this one then change that
    /// movement as they change any piece's (HR-6). Castling is the core's (HR-3).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if is_rook(v, piece) {
            let attacks = heavy_steps(v, piece.color, from, occupied);
            let heavy = Reach {
                quiet: attacks & !occupied,
                attacks,
            };
            *reach = replaced_reach(v, pos, (from, piece), heavy, occupied, NUMBER);
        }
    }

    /// HR-4: a pawn or a knight never takes a rook, though it still attacks its square.
    fn allows(&self, v: &Variant, _pos: &Position, mv: &Move) -> bool {
        !takes_rook_with_pawn_or_knight(v, mv)
    }

    fn why_refused(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        format!(
            "a {} cannot capture a rook (event #112 Heavy Rooks, HR-4); it still attacks {}",
            v.pieces[mv.piece.kind.index()].name,
            v.geometry.name(mv.to)
        )
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        if !is_rook(v, piece) || heavy_steps(v, piece.color, from, pos.occupied()).contains(to) {
            return None;
        }
        let g = v.geometry;
        Some(format!(
            "the {} rook on {} moves and attacks at most two squares forward (over an empty square), one sideways or one back, so it does not reach {} (event #112 Heavy Rooks, HR-1, HR-2)",
            piece.color,
            g.name(from),
            g.name(to)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::parse_fen;

    fn under_event(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&HeavyRooks, None).unwrap();
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
    fn hr_1_rooks_step_two_forward_one_sideways_or_back() {
        let pos = under_event("r3k3/8/8/8/3R4/8/8/4K3 w - - 0 1");
        assert_eq!(targets(&pos, "d4"), ["c4", "d3", "d5", "d6", "e4"]);
        // Black's forward is down the board, where its own pawn a7 stands.
        let blocked = under_event("r3k3/p7/8/8/3R4/8/8/4K3 b - - 0 1");
        assert_eq!(targets(&blocked, "a8"), ["b8"]);
    }

    #[test]
    fn hr_4_pawns_and_knights_do_not_take_rooks_but_attack_their_square() {
        let v = event_chess();
        let pos = under_event("4k3/8/8/8/8/r1r5/1P6/4K3 w - - 0 1");
        assert_eq!(targets(&pos, "b2"), ["b3", "b4"]);
        assert!(pos.is_attacked(v, sq("a3"), Color::White));
    }
}
