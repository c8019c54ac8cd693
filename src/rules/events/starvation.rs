//! Event #6 Starvation (catalogue; rulings ST-1 to ST-9 in
//! `docs/rules/event-6-starvation.md`): after every move the unit that moved is taken off
//! the board unless it is a pawn, started or ended next to a pawn, or captured a pawn; a
//! royal piece may not starve, and a stalemated player with no pawn next to his king
//! loses.

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Role};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct Starvation;

static INFO: EventInfo = EventInfo {
    number: 6,
    name: "Starvation",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &[
        "ST-1", "ST-2", "ST-3", "ST-4", "ST-5", "ST-6", "ST-7", "ST-8", "ST-9",
    ],
    page: "docs/rules/event-6-starvation.md",
};

/// The eight squares around `sq` (ST-1: "next to").
fn neighbours(v: &Variant, sq: Sq) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for df in -1..=1 {
        for dr in -1..=1 {
            if (df, dr) != (0, 0)
                && let Some(next) = v.geometry.offset(sq, df, dr)
            {
                out.set(next);
            }
        }
    }
    out
}

/// The pawns of both colours (ST-1).
fn pawns(v: &Variant, pos: &Position) -> Bitboard {
    v.tables
        .pawn
        .map_or(Bitboard::EMPTY, |pawn| pos.by_kind(pawn))
}

/// The royal pieces of `color`: its kings, or the pieces a running event makes royal
/// instead (#57's queens).
fn royals(v: &Variant, pos: &Position, color: Color) -> Bitboard {
    pos.events()
        .iter()
        .find_map(|e| e.royals(v, pos, color))
        .unwrap_or_else(|| pos.kings(v, color))
}

/// Whether a piece move (an ordinary move, a castle, a move through a passage, a part of
/// a turn) is one Starvation tests: events' other moves move no single unit (ST-9).
fn moves_a_unit(mv: &Move) -> bool {
    !matches!(mv.special, Special::Event { .. })
}

/// Whether the unit `mv` moves is fed (ST-1): it is a pawn (a promoting pawn too), the
/// move took a pawn, or a pawn of `pawns` stands next to where it started or ended.
/// Only the man the move captured leaves those squares, and taking a pawn feeds it, so
/// one board of pawns serves for both ends (ST-2).
fn fed(v: &Variant, pawns: Bitboard, mv: &Move) -> bool {
    let is_pawn = |role| role == Role::Pawn;
    is_pawn(v.role(mv.piece.kind))
        || mv.captured.is_some_and(|p| is_pawn(v.role(p.kind)))
        || (pawns & (neighbours(v, mv.from) | neighbours(v, mv.to))).nonempty()
}

/// Whether `mv`, about to be played in `pos`, starves one of the mover's royal pieces
/// (ST-4).
fn starves_royal(v: &Variant, pos: &Position, mv: &Move) -> bool {
    moves_a_unit(mv)
        && royals(v, pos, mv.piece.color).contains(mv.from)
        && !fed(v, pawns(v, pos), mv)
}

impl Event for Starvation {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// ST-1, ST-3: the unit that landed on `mv.to` (in castling the king) is taken off
    /// unless fed; ST-4: a royal piece never is, its starving moves being illegal. Called
    /// for each part of a turn in parts too (ST-9).
    fn after_landing(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let us = mv.piece.color;
        if !moves_a_unit(mv)
            || pos.piece_at(mv.to).is_none_or(|p| p.color != us)
            || royals(v, pos, us).contains(mv.to)
            || fed(v, pawns(v, pos), mv)
        {
            return;
        }
        pos.remove(mv.to);
    }

    /// ST-4: a royal piece may not starve.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        !starves_royal(v, pos, mv)
    }

    fn why_refused(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        format!(
            "event #6 Starvation: the {} {} would starve, as it neither starts on {} nor ends on {} next to a pawn and takes none, and a royal piece may not starve (ST-4)",
            mv.piece.color,
            v.pieces[mv.piece.kind.index()].name,
            g.name(mv.from),
            g.name(mv.to),
        )
    }

    /// ST-7: stalemated with no pawn of either colour next to any of his royal pieces.
    fn stalemate_loses(&self, v: &Variant, pos: &Position) -> bool {
        let around =
            royals(v, pos, pos.turn).fold(Bitboard::EMPTY, |bb, sq| bb | neighbours(v, sq));
        (pawns(v, pos) & around).is_empty()
    }

    fn victory(&self, winner: Color) -> (&'static str, String) {
        (
            "starved-stalemate",
            format!(
                "{} is stalemated with no pawn next to his king, so {winner} has won (event #6 Starvation, ST-7)",
                winner.other()
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::ending::{Ending, ending};
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, san};

    fn starving(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&Starvation, Some(pos.turn)).unwrap();
        pos
    }

    fn play(pos: &mut Position, token: &str) {
        let v = event_chess();
        let mv = san::resolve(v, pos, &Notation::parse(token).unwrap()).unwrap();
        v.play(pos, &mv);
    }

    #[test]
    fn a_piece_away_from_pawns_starves_and_one_next_to_a_pawn_stays() {
        // ST-1: the knight on b1 has no pawn around it and none around c3.
        let mut pos = starving("4k3/8/8/8/8/8/7P/1N2K3 w - - 0 1");
        play(&mut pos, "Nc3");
        assert_eq!(pos.piece_at(sq("c3")), None);
        // The knight on e3 starts next to no pawn but ends on g2, next to h2.
        let mut pos = starving("4k3/8/8/8/8/4N3/7P/4K3 w - - 0 1");
        play(&mut pos, "Ng2");
        assert!(pos.piece_at(sq("g2")).is_some(), "ST-1: it ends next to h2");
    }

    #[test]
    fn a_king_may_not_starve_and_may_be_mated_so() {
        let v = event_chess();
        // ST-4: the king on e1 has no pawn near; every step starves it.
        let pos = starving("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        assert!(moves.is_empty());
        // ST-7: stalemated with no pawn next to the king: black has won.
        assert_eq!(
            ending(v, &pos, &[]),
            Some(Ending::EventWin {
                winner: Color::Black,
                event: 6
            })
        );
        // A pawn next to the stalemated king (h2, blocked) makes it a draw.
        let draw = starving("7k/8/8/8/8/7p/5q1P/7K w - - 0 1");
        assert_eq!(ending(v, &draw, &[]), Some(Ending::Stalemate));
    }
}
