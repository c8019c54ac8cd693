//! Event #91 Variety (catalogue; rulings VA-1 to VA-8 in `docs/rules/event-91-variety.md`):
//! a piece may not move on two turns of its owner in a row, and a piece frozen so
//! threatens nothing: it gives no check and guards no square.

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Overlay, Reach};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Piece};
use crate::rules::position::Position;
use crate::rules::san;
use crate::rules::variant::Variant;

pub struct Variety;

const NUMBER: u16 = 91;

/// #43 Line Pushers, whose pushing rook moves one step toward the edge it names (VA-5).
const LINE_PUSHERS: u16 = 43;

static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Variety",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &[
        "VA-1", "VA-2", "VA-3", "VA-4", "VA-5", "VA-6", "VA-7", "VA-8",
    ],
    page: "docs/rules/event-91-variety.md",
};

/// The frozen pieces of both sides: what each moved on his last turn (VA-1). One layer
/// serves both, a piece's colour saying whose turn it sits out.
fn frozen(pos: &Position) -> Bitboard {
    pos.mark_layer(NUMBER, 0)
        .map_or(Bitboard::EMPTY, |layer| pos.marked(layer))
}

/// The squares the pieces `mv` moved stand on once it is played: the moving piece, and
/// the rook in castling (VA-4); a #43 push moves its rook one step toward the edge it
/// names, and the pieces it pushes along are displaced, not moved (VA-5).
fn moved_pieces(v: &Variant, mv: &Move) -> Bitboard {
    match mv.special {
        Special::Castle { rook_to, .. } => mv.to.bit() | rook_to.bit(),
        Special::Event {
            number: LINE_PUSHERS,
            ..
        } if mv.from != mv.to => {
            let g = v.geometry;
            let step = |a: u8, b: u8| (i32::from(b) - i32::from(a)).signum();
            let df = step(g.file(mv.from), g.file(mv.to));
            let dr = step(g.rank(mv.from), g.rank(mv.to));
            g.offset(mv.from, df, dr)
                .map_or(Bitboard::EMPTY, |sq| sq.bit())
        }
        _ => mv.to.bit(),
    }
}

/// `the white queen on d5 moved on White's last turn` and the rule, for a frozen piece.
fn frozen_words(v: &Variant, pos: &Position, from: Sq, color: Color) -> String {
    let owner = capitalised(color);
    if pos.turn == color {
        format!(
            "{} moved on {owner}'s previous turn, and under event #91 Variety a piece may not move on two turns of its owner in a row: it is frozen for this turn (VA-1)",
            san::describe(v, pos, from)
        )
    } else {
        format!(
            "{} has just moved, and under event #91 Variety a piece frozen for its owner's next turn threatens nothing: it gives no check and guards no square (VA-3)",
            san::describe(v, pos, from)
        )
    }
}

fn capitalised(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl Event for Variety {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// The frozen pieces (VA-1), part of the position (VA-7).
    fn mark_layers(&self) -> usize {
        1
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// VA-1, VA-3: a frozen piece goes nowhere and attacks nothing.
    fn reach(
        &self,
        _v: &Variant,
        pos: &Position,
        from: Sq,
        _piece: Piece,
        _occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if frozen(pos).contains(from) {
            *reach = Reach::default();
        }
    }

    /// VA-1, VA-4: castling with a frozen king or rook, and any other event's move of a
    /// frozen piece (a push, a turn in place, a promotion by standing still, VA-6).
    fn allows(&self, _v: &Variant, pos: &Position, mv: &Move) -> bool {
        let frozen = frozen(pos);
        let rook = match mv.special {
            Special::Castle { rook_from, .. } => Some(rook_from),
            _ => None,
        };
        !frozen.contains(mv.from) && !rook.is_some_and(|r| frozen.contains(r))
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let square = match mv.special {
            Special::Castle { rook_from, .. } if !frozen(pos).contains(mv.from) => rook_from,
            _ => mv.from,
        };
        let why = frozen_words(v, pos, square, mv.piece.color);
        if matches!(mv.special, Special::Castle { .. }) {
            format!("castling moves king and rook, and {why}; VA-4")
        } else {
            why
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
        frozen(pos)
            .contains(from)
            .then(|| frozen_words(v, pos, from, piece.color))
    }

    /// VA-1, VA-2: the mover's pieces frozen until now are free again, and what he just
    /// moved is frozen for his next turn; a stand-still move freezes its piece (VA-6).
    fn before_turn_passes(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let Some(layer) = pos.mark_layer(NUMBER, 0) else {
            return;
        };
        let us = mv.piece.color;
        for sq in pos.marked(layer) & pos.by_color(us) {
            pos.set_mark(layer, sq, false);
        }
        for sq in moved_pieces(v, mv) & pos.by_color(us) {
            pos.set_mark(layer, sq, true);
        }
    }

    /// The frozen pieces' squares (VA-7).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        super::names(v, frozen(pos))
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let layer = pos.mark_layer(NUMBER, 0).expect("started");
        for word in words {
            let sq = super::fen_square(v, word)?;
            if pos.piece_at(sq).is_none() {
                return Err(format!("{word} holds no piece to be frozen"));
            }
            pos.set_mark(layer, sq, true);
        }
        Ok(())
    }

    /// The frozen pieces, ringed, and listed under the board.
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let frozen = frozen(pos);
        out.singled_out.extend(frozen);
        let names = super::names(v, frozen);
        out.lines.push(if names.is_empty() {
            "frozen: none".to_owned()
        } else {
            format!("frozen (marked @): {}", names.join(", "))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen::parse_fen;
    use crate::rules::san::{resolve, san};

    fn variety(fen: &str) -> (&'static Variant, Position) {
        let v = Variant::by_name("event-chess").unwrap();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&Variety, None).unwrap();
        (v, pos)
    }

    fn play(v: &Variant, pos: &mut Position, written: &str) {
        let notation = crate::notation::Notation::parse(written).unwrap();
        let mv = resolve(v, pos, &notation).unwrap();
        v.play(pos, &mv);
    }

    fn legal(v: &Variant, pos: &Position) -> Vec<String> {
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves.iter().map(|mv| san(v, pos, mv)).collect()
    }

    #[test]
    fn the_piece_just_moved_sits_out_its_owners_next_turn_and_threatens_nothing() {
        let (v, mut pos) = variety("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1");
        play(v, &mut pos, "Qa4");
        assert!(
            !pos.is_check(v),
            "VA-3: the queen that just moved gives no check"
        );
        play(v, &mut pos, "Kd7");
        let moves = legal(v, &pos);
        assert!(moves.iter().all(|m| m.starts_with('K')), "VA-1: {moves:?}");
        play(v, &mut pos, "Kd2");
        assert!(
            pos.is_check(v),
            "VA-3: Kd7 stepped onto the frozen queen's diagonal; free again, it checks"
        );
    }

    #[test]
    fn castling_freezes_king_and_rook() {
        let (v, mut pos) = variety("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        play(v, &mut pos, "O-O");
        play(v, &mut pos, "Kd7");
        assert_eq!(legal(v, &pos), Vec::<String>::new(), "VA-4");
        assert_eq!(frozen(&pos).count(), 3);
        let fen = crate::rules::write_fen(v, &pos);
        assert!(fen.ends_with("events(91-:f1,g1,d7)"), "VA-7: {fen}");
    }
}
