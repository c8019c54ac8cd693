//! Event #12 Active Pawns (catalogue; rulings AP-1 to AP-5 in
//! `docs/rules/event-12-active-pawns.md`): pawns also step one square backward or
//! sideways onto an empty square, never capturing (`g2-g1`, `h2-g2`), and a pawn on its own
//! first or second rank may always step two, to be taken en passant (`h8-h6`, `g6xh7`).

use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct ActivePawns;

const NUMBER: u16 = 12;

/// The squares one step backward and one step to either side of a pawn of `color` on
/// `sq` (AP-1), as (file, rank) offsets from the owner's side.
fn step_offsets(color: Color) -> [(i32, i32); 3] {
    [(0, -color.forward()), (-1, 0), (1, 0)]
}

/// The empty squares the pawn of `color` on `sq` may step to backward or sideways.
fn step_targets(v: &Variant, pos: &Position, sq: Sq, color: Color) -> Bitboard {
    let g = v.geometry;
    let occupied = pos.occupied();
    let mut out = Bitboard::EMPTY;
    for (df, dr) in step_offsets(color) {
        if let Some(target) = g.offset(sq, df, dr).filter(|t| !occupied.contains(*t)) {
            out.set(target);
        }
    }
    out
}

fn step(piece: Piece, from: Sq, to: Sq) -> Move {
    Move {
        piece,
        from,
        to,
        captured: None,
        promotion: None,
        special: Special::Event {
            number: NUMBER,
            data: 0,
        },
        faces: None,
        swap: None,
        returned: None,
    }
}

impl ActivePawns {
    /// Reads `g2-g1` and `h2-g2`: our pawn on the first square, the second one step behind
    /// it or beside it (AP-1, AP-2, AP-4); `None` for any other move.
    fn resolve_step(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let us = pos.turn;
        let [origin, target] = written.targets.as_slice() else {
            return None;
        };
        if written.piece.is_some_and(|p| p != 'P')
            || written.hint.is_some()
            || origin.separator != Separator::None
            || origin.promotion.is_some()
        {
            return None;
        }
        let from = g.from_square(origin.square)?;
        let to = g.from_square(target.square)?;
        let pawn = v.tables.pawn?;
        let piece = Piece {
            color: us,
            kind: pawn,
        };
        if pos.piece_at(from) != Some(piece)
            || !step_offsets(us)
                .iter()
                .any(|&(df, dr)| g.offset(from, df, dr) == Some(to))
        {
            return None;
        }
        let text = san::written(written);
        let help = || san::legal_help(v, pos, &text, Some(pawn));
        let spelled = format!("{}-{}", g.name(from), g.name(to));
        if target.separator == Separator::Capture || pos.piece_at(to).is_some() {
            let reason = match pos.piece_at(to) {
                Some(_) => format!(
                    "a pawn's backward or sideways step goes only to an empty square and never captures, and {} stands on {} (AP-1)",
                    san::describe_piece(v, pos, to),
                    g.name(to)
                ),
                None => format!(
                    "a pawn's backward or sideways step never captures: write {spelled} (AP-1)"
                ),
            };
            return Some(Err(san::illegal(reason, help())));
        }
        if target.promotion.is_some() {
            return Some(Err(san::illegal(
                format!(
                    "a pawn's backward or sideways step never promotes: write {spelled} (AP-2)"
                ),
                help(),
            )));
        }
        let mv = step(piece, from, to);
        if super::landing_rerouted(v, pos, &mv, NUMBER) {
            return Some(Err(san::illegal(
                format!(
                    "a landing on {} goes on through a passage of a running event, and a pawn's backward or sideways step is no move through a passage: no step ends there (AP-5)",
                    g.name(to)
                ),
                help(),
            )));
        }
        if v.leaves_king_attacked(pos, &mv) {
            return Some(Err(san::illegal(
                format!(
                    "{} (a step may not leave the own king in check, AP-4)",
                    san::king_exposed(v, pos, &mv)
                ),
                help(),
            )));
        }
        Some(Ok(mv))
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Active Pawns",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('P', 1)]),
    rulings: &["AP-1", "AP-2", "AP-3", "AP-4", "AP-5"],
    page: "docs/rules/event-12-active-pawns.md",
};

impl Event for ActivePawns {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// AP-3: a pawn on its own first or second rank may step two, however often it has
    /// moved.
    fn may_double_step(&self, v: &Variant, _pos: &Position, from: Sq, color: Color) -> bool {
        super::on_own_first_two_ranks(v, from, color)
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        let us = pos.turn;
        let Some(pawn) = v.tables.pawn else {
            return;
        };
        let piece = Piece {
            color: us,
            kind: pawn,
        };
        for sq in pos.pieces(us, pawn) & from {
            for target in step_targets(v, pos, sq, us) & to {
                let mv = step(piece, sq, target);
                if !super::landing_rerouted(v, pos, &mv, NUMBER) {
                    out.push(mv);
                }
            }
        }
    }

    /// A step captures nothing, promotes nothing and gives no en-passant right (AP-1,
    /// AP-2); the pawn's marks go with it.
    fn play_extra(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        pos.relocate(mv.from, mv.to);
        pos.halfmoves = 0;
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        self.resolve_step(v, pos, written).or_else(|| {
            super::from_to_needed(
                v,
                pos,
                written,
                |to| {
                    let mut steps = Vec::new();
                    self.extra_moves(v, pos, v.geometry.all(), to.bit(), &mut steps);
                    steps
                        .iter()
                        .filter(|mv| !v.leaves_king_attacked(pos, mv))
                        .map(|mv| self.san(v, pos, mv))
                        .collect()
                },
                "a pawn's backward or sideways step is written from-to, the pawn's square first (AP-2)",
            )
        })
    }

    /// `g2-g1`, `h2-g2`: from-to, as the catalogue writes the new steps (AP-2).
    fn san(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        format!("{}-{}", g.name(mv.from), g.name(mv.to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn active(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&ActivePawns, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn pawns_step_back_and_sideways_onto_empty_squares_only() {
        let v = event_chess();
        let pos = active("4k3/8/8/8/8/8/5rPP/4K3 w - - 0 1");
        let mut moves = Vec::new();
        ActivePawns.extra_moves(v, &pos, v.geometry.all(), v.geometry.all(), &mut moves);
        let spelled: Vec<String> = moves.iter().map(|m| ActivePawns.san(v, &pos, m)).collect();
        // g2 steps back to g1 (f2 and h2 are taken); h2 steps back to h1.
        assert_eq!(spelled, ["g2-g1", "h2-h1"]);
        let refused = resolve(&pos, "g2-f2").unwrap_err();
        assert!(refused.reason.contains("AP-1"), "{}", refused.reason);
        let step = resolve(&pos, "g2-g1").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &step);
        assert_eq!(after.ep, None, "AP-2");
    }

    #[test]
    fn a_double_step_from_the_first_rank_is_taken_en_passant() {
        let v = event_chess();
        let mut pos = active("7p/8/6P1/8/8/8/8/K6k b - - 0 1");
        let double = resolve(&pos, "h8-h6").unwrap();
        assert_eq!(double.special, Special::DoubleStep);
        v.play(&mut pos, &double);
        assert_eq!(pos.ep, Some(sq("h7")));
        let takes = resolve(&pos, "g6xh7").unwrap();
        assert_eq!(takes.special, Special::EnPassant);
    }
}
