//! Event #83 Smaller Board (catalogue; rulings SB-1 to SB-6 in
//! `docs/rules/event-83-smaller-board.md`): when it starts, the pieces of the a- and
//! h-files are pushed inward, and from then on those two files are off the board: b and g
//! are its edges.

use crate::command::Choice;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventType, Overlay, Reach};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct SmallerBoard;

/// The event's number.
const NUMBER: u16 = 83;

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Smaller Board",
    aliases: &[],
    types: &[EventType::BoardModifier],
    condition: Condition {
        empty_on_every_rank: 2,
        ..Condition::NONE
    },
    rulings: &["SB-1", "SB-2", "SB-3", "SB-4", "SB-5", "SB-6"],
    page: "docs/rules/event-83-smaller-board.md",
};

/// The files that are gone: the first and the last (SB-2).
fn removed(v: &Variant) -> Bitboard {
    let g = v.geometry;
    g.file_mask(0) | g.file_mask(g.width - 1)
}

/// Pushes the piece on the edge square `edge` one square along its rank by `df`, the
/// pieces in its way along with it, up to the first empty square left on the board
/// (SB-1); with no such square the edge piece leaves the board (SB-5). Returns the
/// squares whose pieces moved or left.
fn push_inward(v: &Variant, pos: &mut Position, edge: Sq, df: i32) -> Bitboard {
    let g = v.geometry;
    let mut moved = Bitboard::EMPTY;
    if pos.piece_at(edge).is_none() {
        return moved;
    }
    let gone = removed(v);
    let mut chain = vec![edge];
    let mut at = edge;
    let empty = loop {
        match g.offset(at, df, 0).filter(|sq| !gone.contains(*sq)) {
            Some(next) if pos.piece_at(next).is_some() => {
                chain.push(next);
                at = next;
            }
            Some(next) => break Some(next),
            None => break None,
        }
    };
    match empty {
        Some(mut free) => {
            // The piece nearest the empty square moves first, so each lands on an empty one.
            for &sq in chain.iter().rev() {
                pos.relocate(sq, free);
                moved.set(sq);
                free = sq;
            }
        }
        None => {
            pos.remove(edge);
            moved.set(edge);
        }
    }
    moved
}

/// The square of the pawn that may be taken en passant, from the square behind it.
fn double_stepped_pawn(v: &Variant, pos: &Position, ep: Sq) -> Option<Sq> {
    let dr = match pos.turn {
        Color::White => -1,
        Color::Black => 1,
    };
    v.geometry.offset(ep, 0, dr)
}

impl Event for SmallerBoard {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// SB-1: on every rank the a-file piece moves toward h and the h-file piece toward a,
    /// each pushing the pieces in its way; SB-5: the a-side first where the Condition
    /// failed and the two would meet. SB-4: no castling from here on. A pawn that could be
    /// taken en passant and was pushed no longer can.
    fn begin(&self, v: &Variant, pos: &mut Position, _choices: &[Choice]) -> Result<(), String> {
        let g = v.geometry;
        let mut moved = Bitboard::EMPTY;
        for rank in 0..g.height {
            for (file, df) in [(0, 1), (g.width - 1, -1)] {
                if let Some(edge) = g.sq(file, rank) {
                    moved |= push_inward(v, pos, edge, df);
                }
            }
        }
        if let Some(ep) = pos.ep
            && (removed(v).contains(ep)
                || double_stepped_pawn(v, pos, ep).is_some_and(|pawn| moved.contains(pawn)))
        {
            pos.ep = None;
        }
        pos.set_castling(Bitboard::EMPTY);
        Ok(())
    }

    fn write_fen(&self, _v: &Variant, _pos: &Position) -> Vec<String> {
        Vec::new()
    }

    /// A FEN shows the board after the push: nothing may stand on files a and h (SB-2),
    /// and nobody castles (SB-4).
    fn read_fen(&self, v: &Variant, pos: &mut Position, _words: &[&str]) -> Result<(), String> {
        if let Some(sq) = (pos.occupied() & removed(v)).first() {
            return Err(format!(
                "a piece stands on {}, off the board under #83 Smaller Board (SB-2)",
                v.geometry.name(sq)
            ));
        }
        pos.set_castling(Bitboard::EMPTY);
        Ok(())
    }

    /// SB-4: the push at the start moved the rooks of files a and h, and no rook stands
    /// there again.
    fn why_no_castling(
        &self,
        _v: &Variant,
        _pos: &Position,
        _color: Color,
    ) -> Option<&'static str> {
        Some(
            "the rooks were pushed off files a and h when #83 Smaller Board started, and nobody castles under it (SB-4)",
        )
    }

    /// SB-3: the push may check the starter's opponent before the starter moves.
    fn waiting_check_allowed(&self) -> bool {
        true
    }

    fn removed_squares(&self, v: &Variant, _pos: &Position) -> Bitboard {
        removed(v)
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// SB-2: no piece moves to or attacks a square of files a and h; no line goes through
    /// them, as they lie at the edge.
    fn reach(
        &self,
        v: &Variant,
        _pos: &Position,
        _from: Sq,
        _piece: Piece,
        _occupied: Bitboard,
        reach: &mut Reach,
    ) {
        let gone = removed(v);
        reach.quiet &= !gone;
        reach.attacks &= !gone;
    }

    fn why_unreached(
        &self,
        v: &Variant,
        _pos: &Position,
        _from: Sq,
        _piece: Piece,
        to: Sq,
    ) -> Option<String> {
        removed(v).contains(to).then(|| {
            format!(
                "{} is off the board: files a and h are gone, b and g are the edges (event #83 Smaller Board, SB-2)",
                v.geometry.name(to)
            )
        })
    }

    /// SB-2: a move of another event that would put a piece on file a or h (a drop, a
    /// push) is no move; SB-3: a king left in check by the push at the start is not
    /// taken, unless an event lets kings be captured.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        if let Some(captured) = mv.captured
            && v.role(captured.kind) == Role::King
            && !pos.events().iter().any(|e| e.captures_kings())
        {
            return false;
        }
        if !matches!(mv.special, Special::Event { .. }) {
            return true;
        }
        let mut after = pos.clone();
        v.play(&mut after, mv);
        (after.occupied() & removed(v)).is_empty()
    }

    fn why_refused(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        if mv.captured.is_some_and(|c| v.role(c.kind) == Role::King) {
            return "the king left in check by the push at the start of #83 Smaller Board is not taken: its side answers the check on its turn (SB-3)".to_owned();
        }
        "it would put a piece on file a or h, which are off the board under #83 Smaller Board (SB-2)".to_owned()
    }

    fn overlay(&self, _v: &Variant, _pos: &Position, out: &mut Overlay) {
        out.lines
            .push("smaller board: files a and h are gone (#83)".to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::{parse_fen, write_fen};

    fn started(fen: &str) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&SmallerBoard, Some(pos.turn)).unwrap();
        SmallerBoard.begin(v, &mut pos, &[]).unwrap();
        pos
    }

    #[test]
    fn sb_1_edge_pieces_push_inward_with_the_pieces_in_their_way() {
        let v = event_chess();
        let pos = started("r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 0 1");
        assert_eq!(
            write_fen(v, &pos).split(' ').next().unwrap(),
            "1r2k1r1/1pp1ppp1/8/8/8/8/1PP1PPP1/1R2K1R1"
        );
        assert!(pos.castling.is_empty(), "SB-4");
    }

    #[test]
    fn sb_5_with_no_room_the_h_side_piece_leaves_the_board() {
        let v = event_chess();
        let pos = started("4k3/8/8/8/8/8/8/RNB1KBNR w - - 0 1");
        assert_eq!(
            write_fen(v, &pos).split(' ').next().unwrap(),
            "4k3/8/8/8/8/8/8/1RNBKBN1"
        );
    }

    #[test]
    fn sb_2_nothing_moves_to_or_attacks_files_a_and_h() {
        let v = event_chess();
        let pos = started("4k3/8/8/8/8/8/8/1R2K3 w - - 0 1");
        let mut moves = Vec::new();
        v.legal_moves_between(&pos, sq("b1").bit(), v.geometry.all(), &mut moves);
        assert!(moves.iter().all(|mv| v.geometry.file(mv.to) != 0));
        assert_eq!(moves.len(), 9, "b2..b8 and c1, d1");
        assert!(!pos.is_attacked(v, sq("a1"), Color::White));
    }
}
