//! Event #67 Emperor (catalogue; rulings EM-1 to EM-7 in `docs/rules/event-67-emperor.md`):
//! a king may hop over an adjacent piece of either colour to the empty square beyond, and
//! chain such hops in one move (`Ke2-e4-e6-e8`); a player whose king reaches the far
//! centre square (e8 for white, e1 for black) wins at once, even where it stands
//! attacked there.
//!
//! A chain is one of the event's own moves from the king's square to where it ends; the
//! path is not kept: its notation is a shortest chain to that square (EM-7).

use super::hops::{self, Hops};
use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Form};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct Emperor;

const NUMBER: u16 = 67;

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Emperor",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('K', 1)]),
    rulings: &["EM-1", "EM-2", "EM-3", "EM-4", "EM-5", "EM-6", "EM-7"],
    page: "docs/rules/event-67-emperor.md",
};

/// The square a king of `color` wins on (EM-6): the e-file square of the far rank, e8
/// for white, e1 for black.
fn goal(v: &Variant, color: Color) -> Option<Sq> {
    let g = v.geometry;
    let rank = match color {
        Color::White => g.height - 1,
        Color::Black => 0,
    };
    g.sq(4, rank)
}

/// The hop of the king on `from` that ends on `to`.
fn hop_move(pos: &Position, from: Sq, to: Sq) -> Move {
    Move {
        piece: pos.piece_at(from).expect("our king"),
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

impl Emperor {
    /// Reads a king's written path (`Ke2-e4-e6-e8`) as a chain of hops, or says why it
    /// is none (EM-2, EM-5, EM-7); `None` for two squares that an ordinary move of the
    /// king joins (`Ke1-e2`, or a longer move another event gives it), which the
    /// orthodox reader takes.
    fn resolve_path(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
        path: &[Sq],
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let us = pos.turn;
        let start = path[0];
        let end = path[path.len() - 1];
        let text = san::written(written);
        let help = || san::legal_help(v, pos, &text, v.tables.king);
        let refuse = |why: String| {
            Some(Err(san::illegal(
                format!("event #67 Emperor: {why}"),
                help(),
            )))
        };
        let our_king = pos
            .piece_at(start)
            .is_some_and(|p| p.color == us && v.role(p.kind) == Role::King);
        if path.len() == 2 && (!our_king || ordinary_move(v, pos, start, end)) {
            return None;
        }
        if !our_king {
            return refuse(format!(
                "a path of hops starts on the king's square, and no {us} king stands on {} (EM-7)",
                g.name(start)
            ));
        }
        if !hops::hop_shaped(v, path) {
            return refuse(
                "each step of a king's path is a hop of two squares along a line or diagonal, over the piece between (EM-5, EM-7)"
                    .to_owned(),
            );
        }
        if let Some(why) = hops::broken_hop(v, pos, path) {
            return refuse(format!(
                "{why}: a king hops over an adjacent piece to the empty square beyond (EM-5)"
            ));
        }
        if end == start {
            return refuse(format!(
                "the hops end on {}, where the king started: a chain may cross its own path but must end elsewhere (EM-2)",
                g.name(start)
            ));
        }
        let mv = hop_move(pos, start, end);
        if v.leaves_king_attacked(pos, &mv) {
            return refuse(format!(
                "the king's hops end on {}, where it stands in check: only the last square of a chain must be safe, and only the goal square wins there regardless (EM-1)",
                g.name(end)
            ));
        }
        Some(Ok(mv))
    }

    /// Refuses `Ke8` where only a chain of hops takes a king there: a hop is written as
    /// its path (EM-7), which the help spells.
    fn refuse_short_hop(
        &self,
        v: &Variant,
        pos: &Position,
        to: Sq,
    ) -> Option<Result<Move, Rejection>> {
        let king = (pos.kings(v, pos.turn))
            .into_iter()
            .find(|&king| Hops::new(v, pos, king).reached.contains(to))?;
        let mut legal = Vec::new();
        v.legal_moves_between(pos, pos.kings(v, pos.turn), to.bit(), &mut legal);
        if legal
            .iter()
            .any(|mv| !matches!(mv.special, Special::Event { number: NUMBER, .. }))
        {
            return None;
        }
        let g = v.geometry;
        let hop = legal.iter().find(|mv| mv.from == king)?;
        Some(Err(san::illegal(
            format!(
                "event #67 Emperor: the {} king reaches {} only by hopping, and a hop is written as the king's path from its square (EM-7)",
                pos.turn,
                g.name(to)
            ),
            Some(format!("write {}", san::san_plain(v, pos, hop))),
        )))
    }
}

/// Whether a move the orthodox reader takes (no castling, no event's own move such as
/// a #13 turn that starts with this hop) takes the king on `from` to `to`.
fn ordinary_move(v: &Variant, pos: &Position, from: Sq, to: Sq) -> bool {
    let mut moves = Vec::new();
    v.pseudo_moves(pos, from.bit(), to.bit(), &mut moves);
    moves.iter().any(|mv| {
        matches!(
            mv.special,
            Special::Normal | Special::DoubleStep | Special::EnPassant
        )
    })
}

impl Event for Emperor {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Path
    }

    /// EM-6: a bare king may still win by reaching its goal square.
    fn adds_mating_material(&self, _v: &Variant, _pos: &Position) -> bool {
        true
    }

    /// EM-2, EM-5: every square a king of the side to move ends a chain of hops on.
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        for king in pos.kings(v, pos.turn) & from {
            for end in Hops::new(v, pos, king).reached & to {
                out.push(hop_move(pos, king, end));
            }
        }
    }

    fn play_extra(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        pos.relocate(mv.from, mv.to);
    }

    /// EM-6: the player who just moved wins with a king on his goal square, attacked or
    /// not (EM-1), however it came there (EM-4: a step or a capture too).
    fn winner(&self, v: &Variant, pos: &Position) -> Option<Color> {
        let mover = pos.turn.other();
        let goal = goal(v, mover)?;
        pos.kings(v, mover).contains(goal).then_some(mover)
    }

    fn victory(&self, winner: Color) -> (&'static str, String) {
        let square = match winner {
            Color::White => "e8",
            Color::Black => "e1",
        };
        (
            "emperor-crowned",
            format!("{winner} has ended his turn with his king on {square} and won (EM-6)"),
        )
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        if written.letter() != Some('K') || written.rider().is_some() {
            return None;
        }
        if let [target] = written.targets.as_slice()
            && written.hint.is_none()
            && target.promotion.is_none()
        {
            return self.refuse_short_hop(v, pos, v.geometry.from_square(target.square)?);
        }
        let path = hops::written_path(v, written)?;
        self.resolve_path(v, pos, written, &path)
    }

    /// EM-7: `K` and a shortest chain to the move's last square.
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let path = Hops::new(v, pos, mv.from).path(mv.to);
        format!(
            "{}{}",
            v.piece(mv.piece.kind).letter,
            hops::spelled(v, &path)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn running(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&Emperor, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn em_6_the_catalogue_chain_reaches_e8_and_wins() {
        let v = event_chess();
        let mut pos = running("k7/4p3/8/4p3/8/4P3/4K3/8 w - - 0 1");
        let mv = resolve(&pos, "Ke2-e4-e6-e8").unwrap();
        assert_eq!(mv.to, sq("e8"));
        assert_eq!(
            san::san(v, &pos, &mv),
            "Ke2-e4-e6-e8#",
            "EM-6: the win is marked as mate"
        );
        v.play(&mut pos, &mv);
        assert_eq!(v.winner(&pos), Some(Color::White));
    }

    #[test]
    fn em_1_the_goal_wins_where_it_is_attacked_and_other_squares_may_not_be() {
        let v = event_chess();
        let check = running("7k/r7/4p3/4K3/8/8/8/8 w - - 0 1");
        let refused = resolve(&check, "Ke5-e7").unwrap_err();
        assert!(refused.reason.contains("EM-1"), "{}", refused.reason);
        // The rook a8 attacks both c8 and e8: only the goal may be reached there.
        let pos = running("r6k/3Pp3/4K3/8/8/8/8/8 w - - 0 1");
        assert!(
            resolve(&pos, "Ke6-c8").is_err(),
            "c8 is attacked by the rook"
        );
        let mv = resolve(&pos, "Ke6-e8").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &mv);
        assert_eq!(v.winner(&after), Some(Color::White));
    }

    #[test]
    fn em_2_a_chain_must_not_end_where_it_began() {
        let pos = running("k7/8/8/8/8/4P3/4K3/8 w - - 0 1");
        let back = resolve(&pos, "Ke2-e4-e2").unwrap_err();
        assert!(back.reason.contains("EM-2"), "{}", back.reason);
        let mut moves = Vec::new();
        event_chess().legal_moves(&pos, &mut moves);
        let hops: Vec<Sq> = moves
            .iter()
            .filter(|mv| matches!(mv.special, Special::Event { .. }))
            .map(|mv| mv.to)
            .collect();
        assert_eq!(hops, vec![sq("e4")]);
    }
}
