//! Event #116 Royal Queens (catalogue; rulings RQ-1 to RQ-6 in
//! `docs/rules/event-116-royal-queens.md`): every queen, promoted ones included, is royal
//! beside the king: no move may leave the king or any queen of the mover attacked, and
//! mating any one of them wins. Movement is unchanged.

use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState, EventType};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct RoyalQueens;

const NUMBER: u16 = 116;

fn queen_kind(v: &Variant) -> Option<Kind> {
    v.kind_of_letter('Q')
}

/// The side whose royal queen was taken (RQ-5), from the slot's first word: 0 for none,
/// 1 + the colour's index otherwise.
fn queen_lost(pos: &Position) -> Option<Color> {
    match pos.event_state(NUMBER).map(|state| state.words[0]) {
        Some(1) => Some(Color::White),
        Some(2) => Some(Color::Black),
        _ => None,
    }
}

fn set_queen_lost(pos: &mut Position, color: Color) {
    let mut state = pos.event_state(NUMBER).copied().unwrap_or_default();
    state.words[0] = 1 + color.index() as u16;
    pos.set_event_state(NUMBER, state);
}

/// Where `mv` leaves the mover's kings safe but one of his queens attacked: her square,
/// and the pieces that attack her, described on the board after the move.
fn queen_left_attacked(v: &Variant, pos: &Position, mv: &Move) -> Option<(Sq, Vec<String>)> {
    let queen = queen_kind(v)?;
    let us = mv.piece.color;
    let mut after = pos.clone();
    v.play(&mut after, mv);
    let checkable = after.checkable_kings(v, us);
    let attacked = |sq: &Sq| after.is_attacked(v, *sq, us.other());
    if (checkable & after.kings(v, us))
        .into_iter()
        .any(|k| attacked(&k))
    {
        return None;
    }
    let sq = (checkable & after.pieces(us, queen))
        .into_iter()
        .find(attacked)?;
    let by = after
        .attackers(v, sq, us.other(), after.occupied())
        .map(|from| san::describe(v, &after, from))
        .collect();
    Some((sq, by))
}

/// What the catalogue says of the event. The catalogue gives it the Type Royal modifier;
/// its queens are royal, so it is also the "royal-queen event" #51 may not run beside
/// (RQ-6).
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Royal Queens",
    aliases: &["Royal Queen"],
    types: &[EventType::RoyalModifier, EventType::RoyalQueen],
    condition: Condition::pieces_each(&[('Q', 1)]),
    rulings: &["RQ-1", "RQ-2", "RQ-3", "RQ-4", "RQ-5", "RQ-6"],
    page: "docs/rules/event-116-royal-queens.md",
};

impl Event for RoyalQueens {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// RQ-1, RQ-3: the kings and every queen the side has now, promoted ones included; a
    /// side without a queen has only its king royal.
    fn royals(&self, v: &Variant, pos: &Position, color: Color) -> Option<Bitboard> {
        let queens = queen_kind(v).map_or(Bitboard::EMPTY, |queen| pos.pieces(color, queen));
        Some(pos.kings(v, color) | queens)
    }

    /// RQ-1, RQ-3: a written move whose every reading leaves a queen of the mover
    /// attacked (and his king safe) is refused with the rule that makes it illegal; every
    /// other move is left to the other readings.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let candidates = san::candidates(v, pos, written);
        if candidates.iter().any(|mv| !v.leaves_king_attacked(pos, mv)) {
            return None;
        }
        let us = pos.turn;
        let (mv, (sq, by)) = candidates
            .iter()
            .find_map(|mv| queen_left_attacked(v, pos, mv).map(|found| (*mv, found)))?;
        let g = v.geometry;
        let by = san::list(&by);
        let reason = if mv.to == sq && mv.promotion.is_some() {
            format!(
                "a pawn promotes to a queen only where she does not stand attacked, and a {us} queen on {} would be attacked by {by} (RQ-3)",
                g.name(sq)
            )
        } else if mv.to == sq {
            format!(
                "the {us} queen would stand attacked on {} by {by}: every queen is royal while #116 Royal Queens runs, and no move may leave one attacked (RQ-1)",
                g.name(sq)
            )
        } else {
            format!(
                "the {us} queen on {} would be left attacked by {by}: every queen is royal while #116 Royal Queens runs, and no move may leave one attacked (RQ-1)",
                g.name(sq)
            )
        };
        Some(Err(san::illegal(
            reason,
            san::legal_help(v, pos, &san::written(written), Some(mv.piece.kind)),
        )))
    }

    /// RQ-5: a royal queen can only be taken where she stood attacked when the event
    /// started (no move may leave one attacked after that); taking her wins. One that a
    /// running event frees from check (#68's PR-1) is taken as any piece.
    fn on_capture(&self, v: &Variant, pos: &mut Position, _mv: &Move, victim: Sq) {
        let Some(piece) = pos.piece_at(victim) else {
            return;
        };
        if Some(piece.kind) == queen_kind(v)
            && queen_lost(pos).is_none()
            && pos.checkable_kings(v, piece.color).contains(victim)
        {
            set_queen_lost(pos, piece.color);
        }
    }

    /// RQ-5: the side that lost a royal queen has lost.
    fn winner(&self, _v: &Variant, pos: &Position) -> Option<Color> {
        queen_lost(pos).map(Color::other)
    }

    fn victory(&self, winner: Color) -> (&'static str, String) {
        (
            "queen-captured",
            format!(
                "{winner} has captured a royal queen that stood attacked when event #116 Royal Queens started, which wins (RQ-5)"
            ),
        )
    }

    /// RQ-5: whether a royal queen was taken belongs to the position.
    fn state_key(&self, state: &EventState) -> u64 {
        u64::from(state.words[0]).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// `w` or `b`, the side whose royal queen was taken (RQ-5); nothing before.
    fn write_fen(&self, _v: &Variant, pos: &Position) -> Vec<String> {
        queen_lost(pos)
            .map(|color| vec![if color == Color::White { "w" } else { "b" }.to_owned()])
            .unwrap_or_default()
    }

    fn read_fen(&self, _v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        match words {
            [] => Ok(()),
            ["w"] => {
                set_queen_lost(pos, Color::White);
                Ok(())
            }
            ["b"] => {
                set_queen_lost(pos, Color::Black);
                Ok(())
            }
            _ => Err(
                "Royal Queens keeps at most one word, `w` or `b`: the side whose royal queen was taken"
                    .to_owned(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::event_chess;
    use crate::rules::san::{self, Rejection};
    use crate::rules::{parse_fen, write_fen};

    fn royal(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&RoyalQueens, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn a_move_may_not_leave_a_queen_attacked() {
        // RQ-1: the a1 rook attacks the d1 queen, which is check.
        let pos = royal("4k3/8/8/8/8/8/8/r2QK3 w - - 0 1");
        assert!(pos.is_check(event_chess()));
        let refused = resolve(&pos, "Ke2").unwrap_err();
        assert!(refused.reason.contains("queen"), "{}", refused.reason);
        assert!(resolve(&pos, "Qxa1").is_ok());
        let attacked = resolve(&pos, "Qb1").unwrap_err();
        assert!(attacked.reason.contains("RQ-1"), "{}", attacked.reason);
    }

    #[test]
    fn a_queen_attacked_with_no_way_out_is_mate() {
        // RQ-2: the knight on f2 attacks the boxed-in h1 queen, and nothing takes it.
        let v = event_chess();
        let mut pos = royal("k7/8/8/8/4n3/K7/6PP/6RQ b - - 0 1");
        let mv = resolve(&pos, "Nf2").unwrap();
        v.play(&mut pos, &mv);
        assert!(pos.is_check(v));
        assert!(!v.has_legal_move(&pos));
        assert_eq!(v.winner(&pos), None);
    }

    #[test]
    fn a_promotion_to_a_queen_may_not_stand_attacked() {
        // RQ-3: a queen on a8 would stand attacked by the h8 rook.
        let pos = royal("7r/P7/8/8/8/8/8/k3K3 w - - 0 1");
        let refused = resolve(&pos, "a8=Q").unwrap_err();
        assert!(refused.reason.contains("queen"), "{}", refused.reason);
        assert!(resolve(&pos, "a8=R").is_ok());
    }

    #[test]
    fn taking_a_queen_attacked_at_the_start_wins_and_is_kept_in_the_fen() {
        let v = event_chess();
        let mut pos = royal("3q3k/8/8/8/8/8/8/3QK3 w - - 0 1");
        let mv = resolve(&pos, "Qxd8+").unwrap();
        v.play(&mut pos, &mv);
        assert_eq!(v.winner(&pos), Some(Color::White), "RQ-5");
        let fen = write_fen(v, &pos);
        assert!(fen.contains("116"), "{fen}");
        let back = parse_fen(v, &fen).unwrap();
        assert_eq!(v.winner(&back), Some(Color::White));
    }
}
