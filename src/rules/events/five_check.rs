//! Event #4 5-check (catalogue; rulings FC-1 to FC-5 in `docs/rules/event-4-five-check.md`):
//! each player's checks are counted from the start of the event, and the first to give
//! his fifth check wins at once.

use crate::notation::PieceMove;
use crate::rules::event::{Condition, Event, EventInfo, EventState, EventType, Overlay};
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct FiveCheck;

const NUMBER: u16 = 4;

/// The check that wins (FC-2).
const WINNING: u16 = 5;

/// The checks each player has given since the event started (FC-1), from its slot.
fn checks(pos: &Position) -> [u16; 2] {
    pos.event_state(NUMBER)
        .map_or([0, 0], |state| [state.words[0], state.words[1]])
}

fn set_checks(pos: &mut Position, counts: [u16; 2]) {
    let mut state = pos.event_state(NUMBER).copied().unwrap_or_default();
    state.words[..2].copy_from_slice(&counts);
    pos.set_event_state(NUMBER, state);
}

/// Whether `mv` leaves one of the mover's kings in check, judged on the board whoever
/// has won.
fn exposes_own_king(v: &Variant, pos: &Position, mv: &Move) -> bool {
    let us = mv.piece.color;
    let mut after = pos.clone();
    v.play(&mut after, mv);
    after
        .checkable_kings(v, us)
        .into_iter()
        .any(|king| after.is_attacked(v, king, us.other()))
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "5-check",
    aliases: &["Five-check", "5 check", "Five check"],
    types: &[],
    condition: Condition {
        not_with: &[EventType::RemoveCheck],
        ..Condition::NONE
    },
    rulings: &["FC-1", "FC-2", "FC-3", "FC-4", "FC-5"],
    page: "docs/rules/event-4-five-check.md",
};

impl Event for FiveCheck {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// FC-5: the counts are part of the position.
    fn state_key(&self, state: &EventState) -> u64 {
        (u64::from(state.words[0]) << 16 | u64::from(state.words[1]))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The counts, White's then Black's (`events(4w:2,1)`); nothing while both are 0.
    fn write_fen(&self, _v: &Variant, pos: &Position) -> Vec<String> {
        let counts = checks(pos);
        if counts == [0, 0] {
            return Vec::new();
        }
        counts.iter().map(u16::to_string).collect()
    }

    fn read_fen(&self, _v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let counts = match words {
            [] => [0, 0],
            [white, black] => {
                let count = |word: &str| {
                    word.parse::<u16>()
                        .ok()
                        .filter(|&n| n <= WINNING)
                        .ok_or_else(|| format!("`{word}` is no count of checks (0 to {WINNING})"))
                };
                [count(white)?, count(black)?]
            }
            _ => return Err("5-check keeps two counts of checks, White's and Black's".to_owned()),
        };
        set_checks(pos, counts);
        Ok(())
    }

    fn overlay(&self, _v: &Variant, pos: &Position, out: &mut Overlay) {
        let [white, black] = checks(pos);
        out.lines.push(format!(
            "checks given: white {white}, black {black} (the fifth wins)"
        ));
    }

    /// FC-1, FC-3: a move after which the side to move is in check is one check of the
    /// mover's, however many pieces give it and whatever moved them.
    fn after_move(&self, _v: &Variant, pos: &mut Position, _mv: &Move, gives_check: bool) {
        if gives_check {
            let mut counts = checks(pos);
            let mover = pos.turn.other().index();
            counts[mover] = counts[mover].saturating_add(1);
            set_checks(pos, counts);
        }
    }

    /// FC-2: the fifth check wins at once.
    fn winner(&self, _v: &Variant, pos: &Position) -> Option<Color> {
        let counts = checks(pos);
        Color::BOTH
            .into_iter()
            .find(|c| counts[c.index()] >= WINNING)
    }

    /// FC-4: the fifth check wins only if it leaves the checker's own king out of check
    /// (the core lets a move that wins the game through otherwise, PR-2).
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        checks(pos)[mv.piece.color.index()] + 1 < WINNING || !exposes_own_king(v, pos, mv)
    }

    /// FC-4: a written check that leaves the checker's own king in check is refused with
    /// the rule that makes it illegal; every other move is left to the orthodox reading.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let candidates = san::candidates(v, pos, written);
        if candidates.iter().any(|mv| !exposes_own_king(v, pos, mv)) {
            return None;
        }
        let them = pos.turn.other();
        let checking = candidates.into_iter().find(|mv| {
            let mut after = pos.clone();
            v.play(&mut after, mv);
            after
                .checkable_kings(v, them)
                .into_iter()
                .any(|king| after.is_attacked(v, king, pos.turn))
        })?;
        Some(Err(san::illegal(
            format!(
                "{}; it would check the {them} king, but a check that leaves the checker's own king in check is illegal and does not count (FC-4)",
                san::king_exposed(v, pos, &checking)
            ),
            san::legal_help(v, pos, &san::written(written), Some(checking.piece.kind)),
        )))
    }

    fn victory(&self, winner: Color) -> (&'static str, String) {
        (
            "five-checks",
            format!("{winner} has given his fifth check and won (FC-2)"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::event_chess;
    use crate::rules::{parse_fen, san, write_fen};

    fn with_five_check(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&FiveCheck, Some(pos.turn)).unwrap();
        pos
    }

    fn play(pos: &mut Position, written: &str) {
        let v = event_chess();
        let mv = san::resolve(v, pos, &Notation::parse(written).unwrap()).unwrap();
        v.play(pos, &mv);
    }

    #[test]
    fn checks_are_counted_per_player_and_the_fifth_wins() {
        let v = event_chess();
        let mut pos = with_five_check("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        for (i, [check, away]) in [["Ra8+", "Kd7"], ["Ra7+", "Kc6"], ["Ra6+", "Kb5"]]
            .into_iter()
            .enumerate()
        {
            play(&mut pos, check);
            assert_eq!(checks(&pos), [i as u16 + 1, 0]);
            play(&mut pos, away);
        }
        play(&mut pos, "Rb6+");
        assert_eq!(v.winner(&pos), None);
        play(&mut pos, "Kc5");
        let mut fifth = pos.clone();
        play(&mut fifth, "Rb5+");
        assert_eq!(v.winner(&fifth), Some(Color::White));
        let mut moves = Vec::new();
        v.legal_moves(&fifth, &mut moves);
        assert!(moves.is_empty(), "the game is over");
        let before = pos.clone();
        let mv = san::resolve(v, &before, &Notation::parse("Rb5").unwrap()).unwrap();
        assert_eq!(
            san::san(v, &before, &mv),
            "Rb5#",
            "the fifth check ends the game"
        );
    }

    #[test]
    fn a_double_check_is_one_check() {
        // The knight goes to f6 and uncovers the rook on e1: two checkers, one check.
        let mut pos = with_five_check("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1");
        play(&mut pos, "Nf6+");
        assert_eq!(checks(&pos), [1, 0]);
    }

    #[test]
    fn the_counts_are_in_the_fen_and_the_identity() {
        let v = event_chess();
        let mut checked = with_five_check("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let mut quiet = checked.clone();
        play(&mut checked, "Ra8+");
        play(&mut checked, "Kd7");
        play(&mut checked, "Ra1");
        play(&mut checked, "Ke8");
        play(&mut quiet, "Ra2");
        play(&mut quiet, "Kd8");
        play(&mut quiet, "Ra1");
        play(&mut quiet, "Ke8");
        assert_eq!(
            write_fen(v, &checked),
            "4k3/8/8/8/8/8/8/R3K3 w - - 4 3 events(4w:1,0)"
        );
        assert_ne!(checked.key(v), quiet.key(v), "FC-5");
        let read = parse_fen(v, &write_fen(v, &checked)).unwrap();
        assert_eq!(checks(&read), [1, 0]);
        assert_eq!(read.key(v), checked.key(v));
        assert!(parse_fen(v, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 events(4w:1)").is_err());
    }
}
