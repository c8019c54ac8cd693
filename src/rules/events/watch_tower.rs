//! Event #47 Watch Tower (catalogue; rulings WT-1 to WT-7 in
//! `docs/rules/event-47-watch-tower.md`): a bishop ends a bishop move on an own rook and
//! mounts it; the rook then stands still, and the bishop on it may shoot an enemy piece
//! one or two squares away along any of the eight lines, over whatever stands between,
//! staying where it is (`Bx@d6`). The bishop leaves with a bishop move, and taking the
//! rook takes both.
//!
//! Mounting, leaving and the stack's state are the rook carriers' (`rook_stacks`, shared
//! with #37 and #115): the rook stays the piece on the board and its bishop a mark on it.
//! What is this event's own: the rook's reach is emptied (WT-2), the shot is a move of
//! its own kind, and the bishop's threats (its diagonals from the rook's square and its
//! shots) are extra attackers, since the bishop is not on the board (WT-5).

use super::rook_stacks::{Carrier, Ids, OWN_MOVES};
use crate::notation::{MoveBody, Notation, PieceMove};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventType, Form, Overlay, Reach};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct WatchTower;

static INFO: EventInfo = EventInfo {
    number: 47,
    name: "Watch Tower",
    aliases: &[],
    types: &[EventType::RookCarrier],
    condition: Condition::pieces_each(&[('B', 1), ('R', 1)]),
    rulings: &["WT-1", "WT-2", "WT-3", "WT-4", "WT-5", "WT-6", "WT-7"],
    page: "docs/rules/event-47-watch-tower.md",
};

static CARRIER: Carrier = Carrier {
    number: 47,
    title: "#47 Watch Tower",
    riders: &['B'],
    loads: false,
    stack_as: None,
    ids: Ids {
        board: "WT-1",
        load: "WT-1",
        stack: "WT-2",
        step_off: "WT-3",
        unit: "WT-5",
    },
};

/// A mounted bishop's shot: `from` the rook's square, `to` the victim's (WT-4).
const SHOOT: u16 = OWN_MOVES;

/// The squares a bishop on `from` may shoot at: one or two squares along each of the
/// eight lines, whatever stands between (WT-4).
fn range(v: &Variant, from: Sq) -> Bitboard {
    let g = v.geometry;
    let mut out = Bitboard::EMPTY;
    for (df, dr) in [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ] {
        for steps in 1..=2 {
            if let Some(sq) = g.offset(from, df * steps, dr * steps) {
                out.set(sq);
            }
        }
    }
    out
}

fn bishop(v: &Variant) -> Option<Kind> {
    v.kind_of_letter('B')
}

/// The squares of `color`'s rooks that carry a bishop.
fn towers(pos: &Position, color: Color) -> Bitboard {
    CARRIER.loaded(pos) & pos.by_color(color)
}

fn is_shot(mv: &Move) -> bool {
    mv.special
        == Special::Event {
            number: 47,
            data: SHOOT,
        }
}

impl WatchTower {
    /// The squares the bishop on the tower `from` threatens (WT-5): its bishop's
    /// attacks from the rook's square, as the running events have them, and its shots.
    fn threats(
        v: &Variant,
        pos: &Position,
        from: Sq,
        color: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        let Some(kind) = bishop(v) else {
            return Bitboard::EMPTY;
        };
        v.reach(pos, from, Piece { color, kind }, occupied).attacks | range(v, from)
    }

    /// Why no shot of ours takes the piece on `to` (WT-4, WT-5).
    fn why_no_shot(
        v: &Variant,
        pos: &Position,
        origins: Bitboard,
        to: Sq,
        written: &str,
    ) -> Rejection {
        let g = v.geometry;
        let us = pos.turn;
        let help = san::legal_help(v, pos, written, bishop(v));
        let mine = towers(pos, us) & origins;
        let mut pseudo = Vec::new();
        WatchTower.extra_moves(v, pos, mine, to.bit(), &mut pseudo);
        pseudo.retain(is_shot);
        let reason = if let Some(mv) = pseudo.first() {
            format!("{} (WT-5)", san::king_exposed(v, pos, mv))
        } else if mine.is_empty() {
            format!(
                "`{written}` is a shot, and under event #47 Watch Tower only a bishop standing on an own rook shoots; no {us} bishop {} (WT-4)",
                if towers(pos, us).is_empty() {
                    "stands on a rook".to_owned()
                } else {
                    "on a rook matches the origin written".to_owned()
                }
            )
        } else if pos.piece_at(to).is_none_or(|p| p.color == us) {
            format!(
                "a shot takes an enemy piece, and {} stands on {} (WT-4)",
                san::describe_piece(v, pos, to),
                g.name(to)
            )
        } else {
            let names: Vec<String> = mine.into_iter().map(|sq| g.name(sq)).collect();
            format!(
                "{} is out of range: a bishop on a rook ({}) shoots one or two squares along a rank, a file or a diagonal, not farther and not a knight's leap away (WT-4)",
                san::describe(v, pos, to),
                san::list(&names)
            )
        };
        san::illegal(reason, help)
    }

    /// `Bx@d6`, `Bh1x@d6`: a shot of one of our bishops on a rook (WT-4).
    fn resolve_shot(
        &self,
        v: &Variant,
        pos: &Position,
        written: &Notation,
    ) -> Option<Result<Move, Rejection>> {
        let MoveBody::Shot(shot) = &written.body else {
            return None;
        };
        let g = v.geometry;
        let text = shot.to_string();
        let Some(to) = g.from_square(shot.square) else {
            return Some(Err(san::illegal(
                format!("`{text}` names a square off the board"),
                None,
            )));
        };
        if shot.piece != b'B' {
            return Some(Err(san::illegal(
                format!(
                    "`{text}` is a shot by a piece that is no bishop: under event #47 Watch Tower only a bishop on an own rook shoots (WT-4)"
                ),
                san::legal_help(v, pos, &text, bishop(v)),
            )));
        }
        let mut origins = san::hinted_origins(v, shot.hint);
        if let Some(from) = shot.from {
            origins &= g.from_square(from).map_or(Bitboard::EMPTY, Sq::bit);
        }
        let mut moves = Vec::new();
        v.legal_moves_between(pos, towers(pos, pos.turn) & origins, to.bit(), &mut moves);
        moves.retain(is_shot);
        Some(match moves.as_slice() {
            [mv] => Ok(*mv),
            [] => Err(Self::why_no_shot(v, pos, origins, to, &text)),
            several => Err(san::ambiguous(v, pos, several)),
        })
    }
}

impl Event for WatchTower {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// The rooks carrying a bishop (WT-7).
    fn mark_layers(&self) -> usize {
        CARRIER.mark_layers()
    }

    /// `Bx@d6` (WT-4). Stacks are not written: a mounted rook never moves (WT-2).
    fn reads(&self, form: Form) -> bool {
        form == Form::Shot
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// WT-2: a rook carrying a bishop goes nowhere and so threatens nothing.
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        _occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if Some(piece.kind) == v.kind_of_letter('R')
            && pos.piece_at(from) == Some(piece)
            && CARRIER.loaded(pos).contains(from)
        {
            *reach = Reach::default();
        }
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        _to: Sq,
    ) -> Option<String> {
        (Some(piece.kind) == v.kind_of_letter('R') && CARRIER.loaded(pos).contains(from)).then(
            || {
                format!(
                    "the {} rook on {} carries a bishop, and under event #47 Watch Tower a rook with a bishop on it does not move until the bishop leaves (WT-2)",
                    piece.color,
                    v.geometry.name(from)
                )
            },
        )
    }

    /// WT-1 mounting, WT-3 leaving (the carriers' moves), WT-4 shots.
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        CARRIER.extra_moves(v, pos, from, to, out);
        let Some(kind) = bishop(v) else {
            return;
        };
        let us = pos.turn;
        let piece = Piece { color: us, kind };
        let theirs = pos.by_color(us.other());
        for tower in towers(pos, us) & from {
            for target in range(v, tower) & theirs & to {
                out.push(CARRIER.event_move(piece, tower, target, pos.piece_at(target), SHOOT));
            }
        }
    }

    /// A shot takes its victim through the core's capture, so every event's capture
    /// hooks and EC-2's count see it (WT-4); the bishop and its rook stay, the rook with
    /// its castling right (WT-2).
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        if is_shot(mv) {
            let kept = pos.castling & mv.from.bit();
            v.capture(pos, mv, mv.to);
            CARRIER.keep_castling(pos, kept);
        } else {
            CARRIER.play_extra(v, pos, mv);
        }
    }

    /// WT-5: the mounted bishop threatens from its rook's square.
    fn extra_attackers(
        &self,
        v: &Variant,
        pos: &Position,
        sq: Sq,
        by: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        let mut found = Bitboard::EMPTY;
        for tower in towers(pos, by) & occupied {
            if Self::threats(v, pos, tower, by, occupied).contains(sq) {
                found.set(tower);
            }
        }
        found
    }

    fn why_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        if !towers(pos, piece.color).contains(from) {
            return None;
        }
        if range(v, from).contains(to) {
            Some(format!(
                "the bishop on it may shoot {}, one or two squares away along a line, under event #47 Watch Tower (WT-5)",
                v.geometry.name(to)
            ))
        } else {
            Some("the bishop on it attacks as a bishop from the rook's square under event #47 Watch Tower (WT-5)".to_owned())
        }
    }

    /// WT-1: no other event's piece joins a mounted rook; WT-2: a mounted rook neither
    /// moves (whichever event offers the move) nor castles.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        let mounted = towers(pos, mv.piece.color);
        match mv.special {
            Special::Castle { rook_from, .. } => !mounted.contains(rook_from),
            _ if Some(mv.piece.kind) == v.kind_of_letter('R') && mounted.contains(mv.from) => false,
            _ => CARRIER.allows(pos, mv),
        }
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let mounted = towers(pos, mv.piece.color);
        match mv.special {
            Special::Castle { rook_from, .. } if mounted.contains(rook_from) => format!(
                "the {} rook on {} carries a bishop, and under event #47 Watch Tower a rook with a bishop on it does not castle (WT-2)",
                mv.piece.color,
                g.name(rook_from)
            ),
            _ if mounted.contains(mv.from) => format!(
                "the {} rook on {} carries a bishop, and under event #47 Watch Tower a rook with a bishop on it does not move until the bishop leaves (WT-2)",
                mv.piece.color,
                g.name(mv.from)
            ),
            _ => CARRIER.why_refused(v, pos, mv),
        }
    }

    /// WT-2: a rook keeps its castling right while its bishop comes, shoots and goes.
    fn before_turn_passes(&self, _v: &Variant, pos: &mut Position, _mv: &Move) {
        CARRIER.before_turn_passes(pos);
    }

    /// WT-6: the bishop is taken with its rook, a second piece for EC-2.
    fn on_capture(&self, _v: &Variant, pos: &mut Position, mv: &Move, victim: Sq) {
        CARRIER.on_capture(pos, mv, victim);
    }

    /// `Be4` onto a rook (WT-1), `Bb2` off it (WT-3); a rook never picks a bishop up.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        CARRIER.resolve(v, pos, written)
    }

    fn resolve_turn(
        &self,
        v: &Variant,
        pos: &Position,
        written: &Notation,
    ) -> Option<Result<Move, Rejection>> {
        self.resolve_shot(v, pos, written)
    }

    /// `Bx@d6`, with the rook's file, rank or square where two bishops could shoot it.
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        if !is_shot(mv) {
            return CARRIER.san(v, pos, mv);
        }
        let mut rivals = Vec::new();
        v.legal_moves_between(pos, towers(pos, mv.piece.color), mv.to.bit(), &mut rivals);
        rivals.retain(is_shot);
        format!(
            "B{}x@{}",
            Carrier::disambiguation(v, mv, &rivals),
            v.geometry.name(mv.to)
        )
    }

    fn lan(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        if is_shot(mv) {
            let g = v.geometry;
            return format!("B{}x@{}", g.name(mv.from), g.name(mv.to));
        }
        CARRIER.lan(v, mv)
    }

    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        CARRIER.write_fen(v, pos)
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        CARRIER.read_fen(v, pos, words)
    }

    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        CARRIER.overlay(v, pos, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::{parse_fen, write_fen};
    use crate::rules::san::{resolve, san};

    fn at(fen: &str) -> Position {
        parse_fen(event_chess(), fen).unwrap()
    }

    fn legal(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves.iter().map(|mv| san(v, pos, mv)).collect()
    }

    fn play(pos: &mut Position, written: &str) {
        let v = event_chess();
        let mv = resolve(v, pos, &Notation::parse(written).unwrap()).unwrap();
        v.play(pos, &mv);
    }

    #[test]
    fn a_tower_stands_still_and_its_bishop_shoots_over_pieces() {
        let v = event_chess();
        let mut pos = at("4k3/8/3n4/3p4/3R4/8/8/4K3 w - - 0 1 events(47-:Bd4)");
        let moves = legal(&pos);
        // WT-2: no rook move; WT-4: both enemy pieces in range, d6 over d5.
        assert!(!moves.iter().any(|m| m.starts_with('R')), "{moves:?}");
        for shot in ["Bx@d6", "Bx@d5"] {
            assert!(moves.contains(&shot.to_owned()), "{shot}: {moves:?}");
        }
        play(&mut pos, "Bx@d6");
        assert_eq!(pos.piece_at(sq("d6")), None);
        assert_eq!(CARRIER.rider(&pos, sq("d4")), Some('B'), "WT-4: it stays");
        assert_eq!(pos.captures, [1, 0], "WT-4: a capture for EC-2");
        let fen = write_fen(v, &pos);
        assert!(fen.contains("events(47-:Bd4"), "WT-7: {fen}");
    }

    #[test]
    fn a_possible_shot_at_the_king_is_check_and_the_rook_threatens_nothing() {
        let v = event_chess();
        // WT-5: h3 is two squares up the file from the tower on h1, over the pawn.
        let pos = at("8/8/8/8/8/7k/7P/4K2R b - - 0 1 events(47-:Bh1)");
        assert!(pos.is_check(v));
        // WT-2: the rook's file is no threat beyond the shot's two squares.
        let pos = at("8/8/7k/8/8/8/8/4K2R b - - 0 1 events(47-:Bh1)");
        assert!(!pos.is_check(v));
        let moves = legal(&pos);
        assert!(moves.contains(&"Kh5".to_owned()), "{moves:?}");
    }

    #[test]
    fn a_mounted_rook_neither_castles_nor_loses_its_right() {
        let mut pos = at("4k3/8/8/8/8/8/6B1/4K2R w K - 0 1 events(47-)");
        play(&mut pos, "Bh1");
        assert!(!legal(&pos).contains(&"O-O".to_owned()));
        play(&mut pos, "Kd7");
        assert!(!legal(&pos).contains(&"O-O".to_owned()), "WT-2");
        play(&mut pos, "Bd5");
        play(&mut pos, "Kd6");
        assert!(legal(&pos).contains(&"O-O".to_owned()), "WT-2: right kept");
    }

    #[test]
    fn shots_are_told_apart_by_their_rooks_and_refused_with_the_rule() {
        let v = event_chess();
        let pos = at("4k3/8/3n4/8/3R1R2/8/8/4K3 w - - 0 1 events(47-:Bd4,Bf4)");
        let shot = resolve(v, &pos, &Notation::parse("Bfx@d6").unwrap()).unwrap();
        assert_eq!(shot.from, sq("f4"));
        assert_eq!(san(v, &pos, &shot), "Bfx@d6");
        assert_eq!(WatchTower.lan(v, &pos, &shot), "Bf4x@d6");
        let far = resolve(v, &pos, &Notation::parse("Bx@d8").unwrap()).unwrap_err();
        assert!(far.reason.contains("WT-4"), "{}", far.reason);
        let queen = resolve(v, &pos, &Notation::parse("Qx@d6").unwrap()).unwrap_err();
        assert!(queen.reason.contains("no bishop"), "{}", queen.reason);
    }

    #[test]
    fn taking_a_tower_takes_its_bishop_and_counts_two() {
        let mut pos = at("3rk3/8/8/8/8/8/8/3RK3 b - - 0 1 events(47-:Bd1)");
        play(&mut pos, "Rxd1+");
        assert_eq!(pos.captures, [0, 2], "WT-6");
        assert_eq!(CARRIER.rider(&pos, sq("d1")), None);
    }
}
