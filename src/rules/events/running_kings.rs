//! Event #102 Running kings (catalogue; rulings RK-1 to RK-6 in
//! `docs/rules/event-102-running-kings.md`): three times a game each player may move his
//! king twice in one turn (`Kxf7,Ke8`), the first step allowed into check; a player who
//! ends his turn with his king on the far rank, not in check, wins; while a player has
//! double moves left, his king threatens every square it reaches in two steps.

use super::turns::{self, Parts, Phase};
use crate::notation::MoveBody;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState, Form};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::Rejection;
use crate::rules::variant::Variant;

pub struct RunningKings;

const NUMBER: u16 = 102;

/// The double moves each player may make in a game (RK-1).
const USES: u16 = 3;

/// The double moves each player has made: words 0 (white) and 1 (black) of the slot.
fn spent(pos: &Position, color: Color) -> u16 {
    pos.event_state(NUMBER)
        .map_or(0, |state| state.words[color.index()])
}

fn uses_left(pos: &Position, color: Color) -> u16 {
    USES.saturating_sub(spent(pos, color))
}

fn set_spent(pos: &mut Position, color: Color, count: u16) {
    let mut state = pos.event_state(NUMBER).copied().unwrap_or_default();
    state.words[color.index()] = count;
    pos.set_event_state(NUMBER, state);
}

/// A king's step, the kind of move both parts of a double move are (RK-1): castling is
/// none.
fn king_step(v: &Variant, mv: &Move) -> bool {
    v.role(mv.piece.kind) == Role::King && !matches!(mv.special, Special::Castle { .. })
}

/// The far rank of `color`: the 8th for white (RK-3).
fn far_rank(v: &Variant, color: Color) -> u8 {
    match color {
        Color::White => v.geometry.height - 1,
        Color::Black => 0,
    }
}

/// The squares the king of `color` on `king` reaches in two steps (RK-4): a first step
/// to an empty square or onto an enemy piece, even into check, then a second that
/// attacks; with `occupied` in the way.
fn two_step_reach(
    v: &Variant,
    pos: &Position,
    king: Sq,
    color: Color,
    occupied: Bitboard,
) -> Bitboard {
    let Some(piece) = pos.piece_at(king) else {
        return Bitboard::EMPTY;
    };
    let first = v.reach(pos, king, piece, occupied);
    let enemy = pos.by_color(color.other()) & occupied;
    let mut reach = Bitboard::EMPTY;
    for step in first.quiet | first.attacks & enemy {
        let moved = occupied ^ king.bit() | step.bit();
        reach |= v.reach(pos, step, piece, moved).attacks;
    }
    reach
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Running kings",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('K', 1)]),
    rulings: &["RK-1", "RK-2", "RK-3", "RK-4", "RK-5", "RK-6"],
    page: "docs/rules/event-102-running-kings.md",
};

impl Parts for RunningKings {
    fn first_part(&self, v: &Variant, _pos: &Position, mv: &Move) -> bool {
        king_step(v, mv)
    }

    /// RK-1: the same king steps again; RK-2: back to where it started too.
    fn second_part(&self, v: &Variant, _pos: &Position, moved: Sq, mv: &Move) -> bool {
        king_step(v, mv) && mv.from == moved
    }

    fn why_no_turn(&self, _v: &Variant, pos: &Position) -> Option<String> {
        let us = pos.turn;
        (uses_left(pos, us) == 0).then(|| {
            format!(
                "event #102 Running kings: {us} has made his {USES} double moves of the game (RK-1)"
            )
        })
    }

    /// A turn of king steps: the first part written with `K`, or a castle (refused,
    /// RK-1).
    fn reads_parts(&self, parts: &[MoveBody]) -> bool {
        match parts.first() {
            Some(MoveBody::Piece(m)) => m.piece == Some('K'),
            Some(MoveBody::Castle(_)) => true,
            _ => false,
        }
    }

    fn two_parts_ruling(&self) -> &'static str {
        "RK-1"
    }

    fn refuse_written(&self, parts: &[MoveBody]) -> Option<String> {
        parts
            .iter()
            .any(|part| matches!(part, MoveBody::Castle(_)))
            .then(|| {
                "event #102 Running kings: castling is no step of a double move, and no step follows it (RK-1)".to_owned()
            })
    }
}

impl Event for RunningKings {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Turn
    }

    fn state_key(&self, state: &EventState) -> u64 {
        u64::from(state.words[0]) << 8 | u64::from(state.words[1]) << 16
    }

    /// The double moves each player has left, white's first (RK-5); nothing while both
    /// have all three.
    fn write_fen(&self, _v: &Variant, pos: &Position) -> Vec<String> {
        let left = Color::BOTH.map(|color| uses_left(pos, color));
        if left == [USES; 2] {
            return Vec::new();
        }
        left.iter().map(u16::to_string).collect()
    }

    fn read_fen(&self, _v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        match words {
            [] => Ok(()),
            [white, black] => {
                for (color, word) in Color::BOTH.into_iter().zip([white, black]) {
                    let left: u16 =
                        word.parse()
                            .ok()
                            .filter(|&left| left <= USES)
                            .ok_or_else(|| {
                                format!("`{word}` is no count of double moves left (0 to {USES})")
                            })?;
                    set_spent(pos, color, USES - left);
                }
                Ok(())
            }
            _ => {
                Err("#102 keeps two counts: the double moves white and black have left".to_owned())
            }
        }
    }

    fn between_parts(&self, pos: &Position) -> bool {
        turns::phase(pos, NUMBER) != Phase::Idle
    }

    /// RK-1: the first step may go into check.
    fn can_be_checked(&self, _v: &Variant, pos: &Position, _king: Sq, color: Color) -> bool {
        turns::can_be_checked(pos, NUMBER, color)
    }

    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        turns::allows(self, v, pos, mv)
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let why = match turns::phase(pos, NUMBER) {
            Phase::Second(_, moved) if king_step(v, mv) => format!(
                "the king that stepped to {} makes the second step too (RK-1)",
                g.name(moved)
            ),
            _ if matches!(mv.special, Special::Castle { .. }) => {
                "castling is no step of a double move (RK-1)".to_owned()
            }
            _ => "both parts of a double move are steps of the king (RK-1)".to_owned(),
        };
        format!("event #102 Running kings: {why}")
    }

    /// RK-4: while `by` has double moves left, his king attacks what it reaches in two
    /// steps.
    fn extra_attackers(
        &self,
        v: &Variant,
        pos: &Position,
        sq: Sq,
        by: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        if uses_left(pos, by) == 0 {
            return Bitboard::EMPTY;
        }
        pos.kings(v, by)
            .filter(|&king| occupied.contains(king))
            .filter(|&king| two_step_reach(v, pos, king, by, occupied).contains(sq))
            .collect()
    }

    fn why_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        if v.role(piece.kind) != Role::King || uses_left(pos, piece.color) == 0 {
            return None;
        }
        let g = v.geometry;
        Some(format!(
            "with a double move left, the {} king reaches {} from {} in two steps: event #102 Running kings, RK-4",
            piece.color,
            g.name(to),
            g.name(from)
        ))
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        turns::generate(self, v, pos, (from, to), out);
    }

    /// Both steps; one of the mover's three double moves spent (RK-1).
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        turns::play(self, v, pos, mv);
        let us = mv.piece.color;
        set_spent(pos, us, spent(pos, us) + 1);
    }

    /// RK-3: the player who just moved wins with his king on his far rank, not in check.
    fn winner(&self, v: &Variant, pos: &Position) -> Option<Color> {
        let mover = pos.turn.other();
        let far = v.geometry.rank_mask(far_rank(v, mover));
        (pos.kings(v, mover) & far)
            .into_iter()
            .any(|king| !pos.is_attacked(v, king, pos.turn))
            .then_some(mover)
    }

    fn victory(&self, winner: Color) -> (&'static str, String) {
        (
            "king-ran-through",
            format!(
                "{winner} has ended his turn with his king on the far rank, not in check, and won (RK-3)"
            ),
        )
    }

    fn resolve_turn(
        &self,
        v: &Variant,
        pos: &Position,
        written: &crate::notation::Notation,
    ) -> Option<Result<Move, Rejection>> {
        turns::resolve(self, v, pos, written)
    }

    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        turns::san(self, v, pos, mv)
    }

    fn lan(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        turns::lan(self, v, pos, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, san, write_fen};

    fn running(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&RunningKings, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn a_double_move_spends_one_of_three_and_may_end_on_the_far_rank_to_win() {
        let v = event_chess();
        // RK-1: the first step takes a pawn the bishop guards; RK-3: c8 wins.
        let mut pos = running("2b4k/1p4pp/K7/8/8/8/8/8 w - - 0 1");
        let turn = resolve(&pos, "Kxb7,Kxc8").unwrap();
        assert_eq!(RunningKings.san(v, &pos, &turn), "Kxb7,Kxc8");
        assert_eq!(RunningKings.lan(v, &pos, &turn), "Ka6xb7,Kb7xc8");
        v.play(&mut pos, &turn);
        assert_eq!(RunningKings.winner(v, &pos), Some(Color::White));
        assert_eq!(uses_left(&pos, Color::White), 2);
        let fen = write_fen(v, &pos);
        assert!(fen.contains("events(102w:2,3"), "{fen}");
        let again = parse_fen(v, &fen).unwrap();
        assert_eq!(again.key(v), pos.key(v), "RK-5: the counts are in the FEN");
    }

    #[test]
    fn a_king_with_double_moves_left_threatens_two_steps() {
        let v = event_chess();
        // RK-4: e6 is two steps from the white king on e4.
        let pos = running("8/4k3/8/8/4K3/8/8/8 b - - 0 1");
        assert!(resolve(&pos, "Ke6").is_err());
        assert!(pos.is_attacked(v, sq("e6"), Color::White));
        assert!(!pos.is_attacked(v, sq("e7"), Color::White));
        let spent = parse_fen(v, "8/4k3/8/8/4K3/8/8/8 b - - 0 1 events(102-:0,3)").unwrap();
        assert!(resolve(&spent, "Ke6").is_ok(), "no double move left");
        let fourth = resolve(&spent.clone(), "Ke6,Kd5");
        assert!(fourth.is_err());
    }
}
