//! Event #42 Tanks (catalogue; rulings TK-1 to TK-5 in `docs/rules/event-42-tanks.md`):
//! a rook that captures may drive on in the same direction over empty squares, without
//! a second capture; `Rxd4` names where it stops.

use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo};
use crate::rules::moves::{Move, Special};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct Tanks;

const NUMBER: u16 = 42;

/// Along files and ranks.
const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// The square of the man a tank move takes (TK-1): a rook's capture that stops on an
/// empty square took the first man on its way there; `None` for any other move.
fn victim(v: &Variant, pos: &Position, mv: &Move) -> Option<Sq> {
    if mv.special != Special::Normal
        || mv.captured.is_none()
        || pos.piece_at(mv.to).is_some()
        || v.kind_of_letter('R') != Some(mv.piece.kind)
        || pos.piece_at(mv.from) != Some(mv.piece)
    {
        return None;
    }
    let g = v.geometry;
    let (df, dr) = (
        (i32::from(g.file(mv.to)) - i32::from(g.file(mv.from))).signum(),
        (i32::from(g.rank(mv.to)) - i32::from(g.rank(mv.from))).signum(),
    );
    let mut s = g.offset(mv.from, df, dr)?;
    while pos.piece_at(s).is_none() && s != mv.to {
        s = g.offset(s, df, dr)?;
    }
    (s != mv.to).then_some(s)
}

/// Our tank moves in `pos` from `from` (TK-1): every rook of the side to move, in each
/// direction, takes the first man on its line if he is the opponent's and drives on over
/// the empty squares behind him, stopping on any of them.
fn tank_moves(v: &Variant, pos: &Position, from: Bitboard, out: &mut Vec<Move>) {
    let Some(rook) = v.kind_of_letter('R') else {
        return;
    };
    let g = v.geometry;
    let us = pos.turn;
    for sq in pos.pieces(us, rook) & from {
        let piece = pos.piece_at(sq).expect("our rook");
        for (df, dr) in DIRECTIONS {
            let mut next = g.offset(sq, df, dr);
            while let Some(s) = next.filter(|&s| pos.piece_at(s).is_none()) {
                next = g.offset(s, df, dr);
            }
            let Some(target) = next else {
                continue;
            };
            let Some(taken) = pos.piece_at(target).filter(|p| p.color != us) else {
                continue;
            };
            let mut beyond = g.offset(target, df, dr);
            while let Some(to) = beyond.filter(|&s| pos.piece_at(s).is_none()) {
                out.push(Move {
                    piece,
                    from: sq,
                    to,
                    captured: Some(taken),
                    promotion: None,
                    special: Special::Normal,
                    faces: None,
                    swap: None,
                    returned: None,
                });
                beyond = g.offset(to, df, dr);
            }
        }
    }
}

/// The man a piece on `from` would take on its way to `to` along a file or rank if it
/// drove on like a tank: the first man on the line, the opponent's, with only empty
/// squares from him up to `to`.
fn driven_over(v: &Variant, pos: &Position, from: Sq, to: Sq) -> Option<Sq> {
    let g = v.geometry;
    let (df, dr) = (
        i32::from(g.file(to)) - i32::from(g.file(from)),
        i32::from(g.rank(to)) - i32::from(g.rank(from)),
    );
    if (df != 0 && dr != 0) || (df == 0 && dr == 0) {
        return None;
    }
    let (df, dr) = (df.signum(), dr.signum());
    let mut s = g.offset(from, df, dr)?;
    while pos.piece_at(s).is_none() {
        s = g.offset(s, df, dr)?;
    }
    let man = pos.piece_at(s)?;
    if man.color == pos.turn || s == to {
        return None;
    }
    let mut beyond = g.offset(s, df, dr)?;
    while beyond != to {
        if pos.piece_at(beyond).is_some() {
            return None;
        }
        beyond = g.offset(beyond, df, dr)?;
    }
    Some(s)
}

impl Tanks {
    /// Why a written move that no piece can make would be one only if the rules of a
    /// tank went further than they do: a second capture (TK-2), a piece other than a
    /// rook driving on (TK-5). `None` leaves the explanation to the orthodox reader.
    fn why_no_drive(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
        from: Bitboard,
        to: Sq,
    ) -> Option<Rejection> {
        let g = v.geometry;
        let kind = v.kind_of_letter(written.piece?)?;
        let mut legal = Vec::new();
        v.legal_moves_between(pos, pos.pieces(pos.turn, kind) & from, to.bit(), &mut legal);
        if !legal.is_empty() {
            return None;
        }
        let (piece, taken) = (pos.pieces(pos.turn, kind) & from)
            .into_iter()
            .find_map(|sq| Some((sq, driven_over(v, pos, sq, to)?)))?;
        let mover = san::describe(v, pos, piece);
        let reason = if written.piece != Some('R') {
            format!(
                "{mover} would have to take {} and drive on to {}, and only rooks drive on after a capture (TK-5)",
                san::describe(v, pos, taken),
                g.name(to)
            )
        } else {
            format!(
                "{mover} would take {} on its way and then {} too, and a tank makes one capture: it stops on an empty square behind the first man (TK-2)",
                san::describe(v, pos, taken),
                san::describe(v, pos, to)
            )
        };
        Some(san::illegal(
            reason,
            san::legal_help(v, pos, &san::written(written), Some(kind)),
        ))
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Tanks",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('R', 1)]),
    rulings: &["TK-1", "TK-2", "TK-3", "TK-4", "TK-5"],
    page: "docs/rules/event-42-tanks.md",
};

impl Event for Tanks {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        _to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        tank_moves(v, pos, from, out);
    }

    /// TK-1: a tank move is an ordinary capture whose victim is not on the square it
    /// stops on: the core takes him here, as any capture (EC-2's count, the landing
    /// hooks of #58 and #68), and moves the rook on.
    fn before_capture(&self, v: &Variant, pos: &mut Position, mv: &Move, victim: Sq) -> Sq {
        if victim != mv.to {
            return victim;
        }
        self::victim(v, pos, mv).unwrap_or(victim)
    }

    /// Explains the written moves a tank cannot make (TK-2, TK-5) and a tank move
    /// written without `x` (TK-4); the orthodox reader takes `Rxd4` itself, a tank move
    /// being an ordinary capture.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let last = written.targets.last()?;
        if written.placed.is_some() || written.arrow.is_some() {
            return None;
        }
        let to = g.from_square(last.square)?;
        let mut from = san::hinted_origins(v, written.hint);
        if written.targets.len() == 2 {
            from &= g.from_square(written.targets.first()?.square)?.bit();
        }
        if written.piece != Some('R') || pos.piece_at(to).is_some() {
            return self.why_no_drive(v, pos, written, from, to).map(Err);
        }
        if last.separator == Separator::Capture {
            return None;
        }
        let mut moves = Vec::new();
        v.legal_moves_between(pos, from, to.bit(), &mut moves);
        let quiet = moves.iter().any(|mv| mv.captured.is_none());
        moves.retain(|mv| victim(v, pos, mv).is_some());
        // A quiet move there is what `Rd6` says; a tank move alone is a capture
        // written without its `x`.
        (!quiet && !moves.is_empty()).then(|| {
            let spellings: Vec<String> = moves.iter().map(|mv| san::san_plain(v, pos, mv)).collect();
            Err(san::illegal(
                format!(
                    "`{}` names no quiet move: a rook that stops on {} there has captured on its way, and a tank move is written with `x` (TK-4)",
                    san::written(written),
                    g.name(to)
                ),
                Some(format!("write {}", spellings.join(" or "))),
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, write_fen};

    fn with_tanks(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&Tanks, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, written: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(written).unwrap())
    }

    #[test]
    fn a_rook_that_captures_drives_on_over_empty_squares() {
        let v = event_chess();
        let mut pos = with_tanks("3k4/8/8/3p4/8/8/8/3RK3 w - - 0 1");
        let mv = resolve(&pos, "Rxd7").unwrap();
        assert_eq!(victim(v, &pos, &mv), Some(sq("d5")));
        assert_eq!(san::san(v, &pos, &mv), "Rxd7+");
        v.play(&mut pos, &mv);
        assert_eq!(
            write_fen(v, &pos),
            "3k4/3R4/8/8/8/8/8/4K3 b - - 0 1 events(42w)"
        );
        let mut moves = Vec::new();
        v.legal_moves(&with_tanks("3k4/8/8/3p4/8/8/8/3RK3 w - - 0 1"), &mut moves);
        let rook_takes = moves.iter().filter(|m| m.captured.is_some()).count();
        assert_eq!(rook_takes, 3, "Rxd5, Rxd6, Rxd7; no second capture on d8");
    }

    #[test]
    fn no_second_capture_and_attacks_are_unchanged() {
        let v = event_chess();
        let pos = with_tanks("3rk3/8/3p4/8/8/8/8/3RK3 w - - 0 1");
        assert!(resolve(&pos, "Rxd7").is_ok());
        assert!(
            resolve(&pos, "Rxd8").is_err(),
            "the rook on d8 is a second man"
        );
        // The black king on d7 would not be attacked through the pawn on d5.
        let pos = with_tanks("8/3k4/8/3p4/8/8/8/3RK3 b - - 0 1");
        assert!(!pos.is_check(v));
    }

    #[test]
    fn two_rooks_that_can_stop_on_one_square_are_told_apart() {
        let v = event_chess();
        let pos = with_tanks("4k3/8/8/p6p/8/8/8/R3K2R w - - 0 1");
        assert!(resolve(&pos, "Rxa6").is_ok());
        let pos = with_tanks("4k3/8/R1p1p2R/8/8/8/8/4K3 w - - 0 1");
        let refused = resolve(&pos, "Rxd6").unwrap_err();
        assert!(refused.reason.contains("ambiguous"), "{}", refused.reason);
        let mv = resolve(&pos, "Raxd6").unwrap();
        assert_eq!(san::san(v, &pos, &mv), "Raxd6");
    }
}
