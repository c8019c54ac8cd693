//! Event #86 No checks allowed (catalogue; rulings NC-1 to NC-6 in
//! `docs/rules/event-86-no-checks-allowed.md`): a move that puts the opponent in check is
//! illegal unless it mates, for both players, so whether a check mates is judged by these
//! same rules.

use std::cell::Cell;

use crate::rules::event::{Condition, Event, EventInfo, EventType};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::san;
use crate::rules::variant::Variant;

pub struct NoChecks;

static INFO: EventInfo = EventInfo {
    number: 86,
    name: "No checks allowed",
    aliases: &["No checks"],
    types: &[EventType::RemoveCheck],
    condition: Condition::NONE,
    rulings: &["NC-1", "NC-2", "NC-3", "NC-4", "NC-5", "NC-6"],
    page: "docs/rules/event-86-no-checks-allowed.md",
};

/// How many mate tests may nest (NC-6): a checking move's test lists the replies, a
/// checking reply's test lists the answers, and so on.
const MOST_NESTED: u8 = 4;

thread_local! {
    /// The mate tests under way on this thread, innermost last (NC-6).
    static NESTED: Cell<u8> = const { Cell::new(0) };
}

/// What `mv` does to the opponent under this event.
enum Outcome {
    NoCheck,
    Mate,
    /// A check that does not mate, or (NC-6) one whose mate test would nest too deep.
    Check {
        cut_off: bool,
    },
}

fn outcome(v: &Variant, pos: &Position, mv: &Move) -> Outcome {
    let mut after = pos.clone();
    v.play(&mut after, mv);
    if !after.is_check(v) {
        return Outcome::NoCheck;
    }
    let nested = NESTED.with(Cell::get);
    if nested >= MOST_NESTED {
        return Outcome::Check { cut_off: true };
    }
    NESTED.with(|n| n.set(nested + 1));
    let mut replies = Vec::new();
    v.legal_moves(&after, &mut replies);
    NESTED.with(|n| n.set(nested));
    if replies.is_empty() {
        Outcome::Mate
    } else {
        Outcome::Check { cut_off: false }
    }
}

impl Event for NoChecks {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// NC-1..NC-4: a move that checks must mate, the mate judged by these same rules.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        !matches!(outcome(v, pos, mv), Outcome::Check { .. })
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let them = pos.turn.other();
        let cut_off = matches!(outcome(v, pos, mv), Outcome::Check { cut_off: true });
        let mut after = pos.clone();
        v.play(&mut after, mv);
        let checkers = after
            .kings(v, them)
            .into_iter()
            .map(|king| after.attackers(v, king, pos.turn, after.occupied()))
            .fold(crate::rules::board::Bitboard::EMPTY, |all, some| all | some);
        let mut why = format!(
            "`{}` puts the {them} king in check without mating it, and under event #86 No checks allowed a move may give check only when it is checkmate (NC-1)",
            san::san_plain(v, pos, mv)
        );
        if checkers.has_more_than_one() {
            why.push_str("; a double check is a check like any other (NC-3)");
        } else if checkers.nonempty() && !checkers.contains(mv.to) {
            why.push_str("; a discovered check counts (NC-2)");
        }
        if cut_off {
            why.push_str(&format!(
                "; whether it mates depends on more than {MOST_NESTED} checks in a row, and such a check counts as no mate (NC-6)"
            ));
        }
        why
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen::parse_fen;

    fn legal(fen: &str) -> Vec<String> {
        let v = Variant::by_name("event-chess").unwrap();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&NoChecks, None).unwrap();
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        moves.iter().map(|mv| san::san(v, &pos, mv)).collect()
    }

    #[test]
    fn a_check_must_mate() {
        // NC-1: Ra8# mates, Rb8+ / Rh8+ only check.
        let moves = legal("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert!(moves.contains(&"Ra8#".to_owned()), "{moves:?}");
        assert!(!moves.iter().any(|m| m.ends_with('+')), "{moves:?}");
    }

    #[test]
    fn a_check_whose_mate_test_nests_too_deep_counts_as_no_mate() {
        NESTED.with(|n| n.set(MOST_NESTED));
        let moves = legal("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        NESTED.with(|n| n.set(0));
        assert!(
            !moves.iter().any(|m| m.starts_with("Ra8")),
            "NC-6: {moves:?}"
        );
    }

    #[test]
    fn every_move_checking_is_stalemate() {
        // NC-5: the queen boxes the black king in, and the pawn's only move checks.
        let moves = legal("k7/2Q5/8/8/4p3/8/3K4/8 b - - 0 1");
        assert!(moves.is_empty(), "{moves:?}");
    }
}
