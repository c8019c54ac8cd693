//! Event #59 Loyal Queen (catalogue; rulings LY-1 to LY-7 in
//! `docs/rules/event-59-loyal-queen.md`): a queen standing next to its own king may,
//! instead of an ordinary move, step one square like a king and then make a whole queen
//! move from there, either part capturing (`Qxe3xf3`); what such a move could take is
//! threatened.
//!
//! The move is one of the event's own, from the queen's square to where it ends, with the
//! square of its step in `data`; `play_extra` plays the two parts as ordinary queen moves
//! on the board, so every event's landing and capture hooks see each one.

use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct LoyalQueen;

const NUMBER: u16 = 59;

fn queen(v: &Variant) -> Option<Kind> {
    v.kind_of_letter('Q')
}

/// The eight squares around `sq`.
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

/// The queens of `color` among `occupied` that stand next to one of its kings (LY-1,
/// LY-4): each may make the two-part move.
fn loyal_queens(v: &Variant, pos: &Position, color: Color, occupied: Bitboard) -> Bitboard {
    let Some(kind) = queen(v) else {
        return Bitboard::EMPTY;
    };
    let near_kings = (pos.kings(v, color) & occupied)
        .into_iter()
        .fold(Bitboard::EMPTY, |near, king| near | around(v, king));
    pos.pieces(color, kind) & occupied & near_kings
}

/// The squares the `piece`, a queen on `from`, may step to first (LY-1): one square in
/// any direction, as far as the running events let a queen go, onto an empty square or an
/// enemy piece.
fn steps(v: &Variant, pos: &Position, from: Sq, piece: Piece, occupied: Bitboard) -> Bitboard {
    let enemy = pos.by_color(piece.color.other()) & occupied;
    let reach = v.reach(pos, from, piece, occupied);
    (reach.quiet | reach.attacks & enemy) & around(v, from)
}

/// The board's occupancy once the queen on `from` has stepped to `step`.
fn stepped(from: Sq, step: Sq, occupied: Bitboard) -> Bitboard {
    occupied & !from.bit() | step.bit()
}

/// The square a two-part move steps to.
fn step_of(mv: &Move) -> Sq {
    match mv.special {
        Special::Event { data, .. } => Sq(data as u8),
        _ => mv.from,
    }
}

/// The two-part move of the queen on `from` through `step` to `to`.
fn loyal_move(pos: &Position, piece: Piece, from: Sq, step: Sq, to: Sq) -> Move {
    Move {
        piece,
        from,
        to,
        captured: pos.piece_at(step).or(pos.piece_at(to)),
        promotion: None,
        special: Special::Event {
            number: NUMBER,
            data: u16::from(step.0),
        },
        faces: None,
        swap: None,
        returned: None,
    }
}

/// The two-part moves of the side to move's queens on `from` ending on `to`
/// (pseudo-legal): LY-1, never back to the start (LY-3).
fn generate(v: &Variant, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
    let us = pos.turn;
    let occupied = pos.occupied();
    for sq in loyal_queens(v, pos, us, occupied) & from {
        let piece = pos.piece_at(sq).expect("our queen");
        for step in steps(v, pos, sq, piece, occupied) {
            let moved = stepped(sq, step, occupied);
            let enemy = pos.by_color(us.other()) & moved & !step.bit();
            let reach = v.reach(pos, step, piece, moved);
            for end in (reach.quiet | reach.attacks & enemy) & to & !sq.bit() {
                out.push(loyal_move(pos, piece, sq, step, end));
            }
        }
    }
}

/// Whether a queen of `by` on `from`, next to its king, takes on `sq` with a two-part
/// move (LY-5): a step to an empty square or onto an enemy piece, whatever it leaves its
/// own king to, then a queen move onto `sq`; with `occupied` in the way.
fn threatens(
    v: &Variant,
    pos: &Position,
    from: Sq,
    piece: Piece,
    sq: Sq,
    occupied: Bitboard,
) -> bool {
    steps(v, pos, from, piece, occupied)
        .into_iter()
        .any(|step| {
            step != sq
                && v.reach(pos, step, piece, stepped(from, step, occupied))
                    .attacks
                    .contains(sq)
        })
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Loyal Queen",
    aliases: &[],
    types: &[],
    condition: Condition {
        pieces_each: &[('Q', 1), ('K', 1)],
        no_check: true,
        ..Condition::NONE
    },
    rulings: &["LY-1", "LY-2", "LY-3", "LY-4", "LY-5", "LY-6", "LY-7"],
    page: "docs/rules/event-59-loyal-queen.md",
};

impl LoyalQueen {
    /// Reads `Qxe3xf3`, `Qxe3-f3` (the step takes) and `Qd2-e3xf3`, `Qd2xe3-f3` (with
    /// the queen's square) as a two-part move (LY-6); `None` for every other form.
    fn resolve_two_parts(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let us = pos.turn;
        let kind = queen(v)?;
        if written.letter() != Some('Q')
            || written.rider().is_some()
            || written.placed.is_some()
            || written.arrow.is_some()
            || written.swap.is_some()
        {
            return None;
        }
        let (origin, step, end) = match written.targets.as_slice() {
            [step, end] if step.separator == Separator::Capture => (None, step, end),
            [origin, step, end] if origin.separator == Separator::None => (Some(origin), step, end),
            _ => return None,
        };
        if step.promotion.is_some() || end.promotion.is_some() {
            return None;
        }
        let step = g.from_square(step.square)?;
        let end = g.from_square(end.square)?;
        let mut from = san::hinted_origins(v, written.hint) & pos.pieces(us, kind);
        if let Some(origin) = origin {
            from &= g.from_square(origin.square)?.bit();
        }
        let text = san::written(written);
        let help = || san::legal_help(v, pos, &text, Some(kind));
        let refuse = |why: String| {
            Some(Err(san::illegal(
                format!("event #59 Loyal Queen: {why}"),
                help(),
            )))
        };
        let loyal = loyal_queens(v, pos, us, pos.occupied()) & from;
        if loyal.is_empty() {
            let near: Vec<String> = (from & !step.bit())
                .into_iter()
                .filter(|&q| around(v, q).contains(step))
                .map(|q| san::describe(v, pos, q))
                .collect();
            let which = match near.as_slice() {
                [] => format!("no {us} queen that steps to {} does", g.name(step)),
                _ => format!("{} does not", san::list(&near)),
            };
            return refuse(format!(
                "only a queen standing next to its own king moves in two parts, and {which} (LY-1)"
            ));
        }
        let occupied = pos.occupied();
        let stepping: Bitboard = loyal
            .into_iter()
            .filter(|&q| {
                let piece = pos.piece_at(q).expect("our queen");
                steps(v, pos, q, piece, occupied).contains(step)
            })
            .collect();
        if stepping.is_empty() {
            return refuse(format!(
                "the first part is one step like a king's, onto an empty square or an enemy piece, and no {us} queen next to its king steps to {} (LY-1)",
                g.name(step)
            ));
        }
        if stepping == end.bit() {
            return refuse(format!(
                "the move ends on {}, where the queen started: a two-part move may not come back (LY-3)",
                g.name(end)
            ));
        }
        let mut offered = Vec::new();
        v.pseudo_moves(pos, stepping, end.bit(), &mut offered);
        offered.retain(|mv| {
            matches!(mv.special, Special::Event { number: NUMBER, .. })
                && step_of(mv) == step
                && san::choices_match(v, pos, written, mv)
        });
        if offered.is_empty() {
            return refuse(format!(
                "from {} the queen's second part, a queen move, does not reach {} (LY-1)",
                g.name(step),
                g.name(end)
            ));
        }
        let mut legal = Vec::new();
        v.legal_moves_between(pos, stepping, end.bit(), &mut legal);
        legal.retain(|mv| offered.contains(mv));
        match legal.as_slice() {
            [mv] => Some(Ok(*mv)),
            [] => {
                let mv = offered[0];
                let why = if v.leaves_king_attacked(pos, &mv) {
                    format!(
                        "{} after the whole move (LY-2)",
                        san::king_exposed(v, pos, &mv)
                    )
                } else {
                    match pos.events().into_iter().find(|e| !e.allows(v, pos, &mv)) {
                        Some(e) => return Some(Err(san::illegal(e.why_refused(v, pos, &mv), help()))),
                        None => "the move is not legal here under the running events and the meta rules (EC-2)".to_owned(),
                    }
                };
                refuse(why)
            }
            several => Some(Err(san::ambiguous(v, pos, several))),
        }
    }
}

impl Event for LoyalQueen {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// LY-1: the two-part moves of queens next to their kings.
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        generate(v, pos, from, to, out);
    }

    /// LY-1: the step, then the queen move, each an ordinary queen move on the board;
    /// only the position after both is judged (LY-2).
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let step = step_of(mv);
        let part = |from: Sq, to: Sq, pos: &Position| Move {
            piece: mv.piece,
            from,
            to,
            captured: pos.piece_at(to),
            promotion: None,
            special: Special::Normal,
            faces: None,
            swap: None,
            returned: None,
        };
        let first = part(mv.from, step, pos);
        v.play_part(pos, &first);
        // A landing hook of another event may have taken the queen away (a pit, #9).
        if pos.piece_at(step) == Some(mv.piece) {
            let second = part(step, mv.to, pos);
            v.play_part(pos, &second);
        }
    }

    /// LY-5: a queen next to its king threatens what its two-part move could take.
    fn extra_attackers(
        &self,
        v: &Variant,
        pos: &Position,
        sq: Sq,
        by: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        loyal_queens(v, pos, by, occupied)
            .into_iter()
            .filter(|&from| {
                pos.piece_at(from)
                    .is_some_and(|piece| threatens(v, pos, from, piece, sq, occupied))
            })
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
        let occupied = pos.occupied();
        if queen(v) != Some(piece.kind)
            || !loyal_queens(v, pos, piece.color, occupied).contains(from)
            || v.reach(pos, from, piece, occupied).attacks.contains(to)
        {
            return None;
        }
        let g = v.geometry;
        Some(format!(
            "the queen on {}, next to its king, takes on {} with a step and a queen move: event #59 Loyal Queen, LY-5",
            g.name(from),
            g.name(to)
        ))
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        self.resolve_two_parts(v, pos, written)
    }

    /// LY-6: `Qxe3xf3` where the step takes and no other queen makes the same move,
    /// else with the queen's square, `Qd2-e3xf3`.
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let step = step_of(mv);
        let mark = |sq: Sq| if pos.piece_at(sq).is_some() { 'x' } else { '-' };
        let letter = v.piece(mv.piece.kind).letter;
        let mut rivals = Vec::new();
        if pos.piece_at(step).is_some() {
            v.legal_moves_between(
                pos,
                pos.pieces(mv.piece.color, mv.piece.kind) & !mv.from.bit(),
                mv.to.bit(),
                &mut rivals,
            );
            rivals.retain(|other| {
                matches!(other.special, Special::Event { number: NUMBER, .. })
                    && step_of(other) == step
            });
        }
        if pos.piece_at(step).is_some() && rivals.is_empty() {
            format!("{letter}x{}{}{}", g.name(step), mark(mv.to), g.name(mv.to))
        } else {
            self.lan(v, pos, mv)
        }
    }

    /// `Qd2xe3xf3`, `Qd2-e3-f3`: the queen's square, the step, the end.
    fn lan(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let step = step_of(mv);
        let mark = |sq: Sq| if pos.piece_at(sq).is_some() { 'x' } else { '-' };
        format!(
            "{}{}{}{}{}{}",
            v.piece(mv.piece.kind).letter,
            g.name(mv.from),
            mark(step),
            g.name(step),
            mark(mv.to),
            g.name(mv.to)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, san};

    fn loyal(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&LoyalQueen, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn a_queen_next_to_its_king_steps_then_moves_taking_twice() {
        let v = event_chess();
        // LY-1, LY-6: the catalogue's Qxe3xf3.
        let mut pos = loyal("4k3/8/8/8/8/4pp2/3Q4/3K4 w - - 0 1");
        let mv = resolve(&pos, "Qxe3xf3").unwrap();
        assert_eq!(
            (mv.from, mv.to, step_of(&mv)),
            (sq("d2"), sq("f3"), sq("e3"))
        );
        assert_eq!(LoyalQueen.san(v, &pos, &mv), "Qxe3xf3");
        assert_eq!(LoyalQueen.lan(v, &pos, &mv), "Qd2xe3xf3");
        assert_eq!(resolve(&pos, "Qd2xe3xf3").unwrap(), mv);
        v.play(&mut pos, &mv);
        assert_eq!(pos.piece_at(sq("f3")).map(|p| p.kind), queen(v));
        assert!(pos.piece_at(sq("e3")).is_none() && pos.piece_at(sq("d2")).is_none());
        assert_eq!(pos.captures, [0, 0], "pawns do not count for EC-2");
    }

    #[test]
    fn a_quiet_step_is_written_with_the_queens_square_and_no_return() {
        let v = event_chess();
        let pos = loyal("4k3/8/8/8/8/8/3Q4/3K4 w - - 0 1");
        let mv = resolve(&pos, "Qd2-e3-h6").unwrap();
        assert_eq!(LoyalQueen.san(v, &pos, &mv), "Qd2-e3-h6");
        // LY-3: no way back to the start square.
        let back = resolve(&pos, "Qd2-e3-d2").unwrap_err();
        assert!(back.reason.contains("LY-3"), "{}", back.reason);
        // LY-1: a queen away from its king makes no two-part move.
        let far = loyal("4k3/8/8/8/3Q4/8/8/3K4 w - - 0 1");
        let refused = resolve(&far, "Qd4-e5-e7").unwrap_err();
        assert!(refused.reason.contains("LY-1"), "{}", refused.reason);
    }

    #[test]
    fn the_two_part_reach_is_a_threat_even_through_a_blocker_it_takes() {
        let v = event_chess();
        // LY-5, the catalogue's mate: Rd2 does not block, the step takes it.
        let pos = loyal("3k4/8/8/8/8/8/3r4/1KQ5 w - - 0 1");
        assert!(pos.is_attacked(v, sq("d8"), Color::White));
        // A blocker the step cannot take does block.
        let far = loyal("3k4/8/8/8/8/3r4/8/1KQ5 w - - 0 1");
        assert!(!far.is_attacked(v, sq("d8"), Color::White));
    }
}
