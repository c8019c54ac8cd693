//! Event #123 Forward Activity (catalogue; rulings FA-1 to FA-4 in
//! `docs/rules/event-123-forward-activity.md`): a piece moves and attacks at most as many
//! squares as the number of its rank counted from its owner's side; knight leaps and
//! castling are free.

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventType, Reach};
use crate::rules::piece::{Color, Piece};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct ForwardActivity;

static INFO: EventInfo = EventInfo {
    number: 123,
    name: "Forward Activity",
    aliases: &[],
    types: &[EventType::MoveLengthModifier],
    condition: Condition::NONE,
    rulings: &["FA-1", "FA-2", "FA-3", "FA-4"],
    page: "docs/rules/event-123-forward-activity.md",
};

/// How far a piece of `color` on `from` may go (FA-1): the number of its rank counted from
/// its owner's side, 1 on the first rank.
fn allowance(v: &Variant, from: Sq, color: Color) -> i32 {
    let g = v.geometry;
    let rank = i32::from(g.rank(from));
    match color {
        Color::White => rank + 1,
        Color::Black => i32::from(g.height) - rank,
    }
}

/// How many steps the move from `from` to `to` takes along its line (FA-1: a diagonal step
/// is one), or `None` for a leap off every line, which the limit leaves alone (FA-3).
fn length(v: &Variant, from: Sq, to: Sq) -> Option<i32> {
    let g = v.geometry;
    let df = (i32::from(g.file(to)) - i32::from(g.file(from))).abs();
    let dr = (i32::from(g.rank(to)) - i32::from(g.rank(from))).abs();
    (df == 0 || dr == 0 || df == dr).then_some(df.max(dr))
}

/// Whether the `piece` on `from` goes too far to reach `to` (FA-1, FA-3).
fn too_far(v: &Variant, from: Sq, piece: Piece, to: Sq) -> bool {
    length(v, from, to).is_some_and(|steps| steps > allowance(v, from, piece.color))
}

impl Event for ForwardActivity {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// FA-1, FA-2: moves and attacks alike end within the piece's allowance; leaps off
    /// the lines keep theirs (FA-3), and castling is not a reach, so it stays (FA-4).
    fn reach(
        &self,
        v: &Variant,
        _pos: &Position,
        from: Sq,
        piece: Piece,
        _occupied: Bitboard,
        reach: &mut Reach,
    ) {
        let far: Bitboard = (reach.quiet | reach.attacks)
            .filter(|&to| too_far(v, from, piece, to))
            .collect();
        reach.quiet &= !far;
        reach.attacks &= !far;
    }

    fn why_unreached(
        &self,
        v: &Variant,
        _pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        too_far(v, from, piece, to).then(|| {
            let g = v.geometry;
            let allowance = allowance(v, from, piece.color);
            format!(
                "{} is {} squares from {}, and under event #123 Forward Activity a {} piece on {} moves and attacks at most {allowance} square{} (its rank counted from its owner's side, FA-1, FA-2)",
                g.name(to),
                length(v, from, to).unwrap_or_default(),
                g.name(from),
                piece.color,
                g.name(from),
                if allowance == 1 { "" } else { "s" }
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::event_chess;
    use crate::rules::fen::parse_fen;

    fn under_event(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&ForwardActivity, None).unwrap();
        pos
    }

    fn moves(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves
            .iter()
            .map(|mv| crate::rules::san::san(v, pos, mv))
            .collect()
    }

    #[test]
    fn fa_1_the_rank_counted_from_the_owner_sets_the_length() {
        let names = moves(&under_event("r3k3/8/8/8/8/8/8/R3K1N1 w Q - 0 1"));
        assert!(names.iter().any(|n| n == "Ra2"), "{names:?}");
        assert!(!names.iter().any(|n| n == "Ra3"), "FA-1: {names:?}");
        for free in ["Nf3", "Ne2", "O-O-O"] {
            assert!(names.iter().any(|n| n == free), "FA-3, FA-4: {names:?}");
        }
        let black = moves(&under_event("4k3/q7/8/8/8/8/8/4K3 b - - 0 1"));
        assert!(black.iter().any(|n| n == "Qc5"), "{black:?}");
        for far in ["Qa1", "Qe3"] {
            assert!(!black.iter().any(|n| n == far), "FA-1 {far}: {black:?}");
        }
    }

    #[test]
    fn fa_2_a_rook_on_its_first_rank_gives_no_check_from_afar() {
        let v = event_chess();
        assert!(!under_event("K6r/8/8/8/8/8/8/4k3 w - - 0 1").is_check(v));
        assert!(under_event("Kr6/8/8/8/8/8/8/4k3 w - - 0 1").is_check(v));
        assert!(!under_event("4K3/8/8/8/8/8/8/k6R b - - 0 1").is_check(v));
    }
}
