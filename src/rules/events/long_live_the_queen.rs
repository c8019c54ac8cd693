//! Event #57 Long live the queen! (catalogue; rulings LQ-1 to LQ-5 in
//! `docs/rules/event-57-long-live-the-queen.md`): the queen is the royal piece and the king
//! an ordinary one; the king moves like a queen, the queen like a king and castles like
//! one; a pawn may promote to a king, never to a queen.

use super::reach_as;
use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventType, Reach};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct LongLiveTheQueen;

const NUMBER: u16 = 57;

fn queen_kind(v: &Variant) -> Option<Kind> {
    v.kind_of_letter('Q')
}

/// The queens and rooks that have not moved, which may castle (LQ-3): the event's mark
/// layer.
fn castlers(pos: &Position) -> Bitboard {
    pos.mark_layer(NUMBER, 0)
        .map_or(Bitboard::EMPTY, |layer| pos.marked(layer))
}

fn mark(pos: &mut Position, sq: Sq, on: bool) {
    if let Some(layer) = pos.mark_layer(NUMBER, 0) {
        pos.set_mark(layer, sq, on);
    }
}

/// How many queens each side had when the event started (the slot's words 0 and 1): a
/// side that has fewer has lost a royal queen (LQ-1).
fn queens_at_start(pos: &Position, color: Color) -> u16 {
    pos.event_state(NUMBER)
        .map_or(0, |state| state.words[color.index()])
}

/// The squares `color`'s queens start the game on, in the variant's start position.
fn queen_homes(v: &Variant, color: Color) -> Bitboard {
    queen_kind(v).map_or(Bitboard::EMPTY, |queen| {
        v.start_position().pieces(color, queen)
    })
}

/// One queen castling: the queen, the rook, where each lands and the square the queen
/// crosses (LQ-3).
#[derive(Clone, Copy)]
struct QueenCastle {
    queen: Sq,
    rook: Sq,
    queen_to: Sq,
    crossed: Sq,
    long: bool,
}

/// The castlings the board allows `us`, judged on everything but the attacks: queen and
/// rook unmoved on one rank, nothing between them, the queen's two squares on the board.
fn castlings(v: &Variant, pos: &Position, us: Color) -> Vec<QueenCastle> {
    let g = v.geometry;
    let Some(queen) = queen_kind(v) else {
        return Vec::new();
    };
    let Some(rook_kind) = v.kind_of_letter('R') else {
        return Vec::new();
    };
    let ready = castlers(pos) & pos.by_color(us);
    let mut found = Vec::new();
    for q in ready & pos.pieces(us, queen) {
        for rook in ready & pos.pieces(us, rook_kind) & g.rank_mask(g.rank(q)) {
            let (qf, rf) = (i32::from(g.file(q)), i32::from(g.file(rook)));
            let step = (rf - qf).signum();
            let between: Bitboard = (1..(rf - qf).abs())
                .filter_map(|i| g.sq(u8::try_from(qf + step * i).ok()?, g.rank(q)))
                .collect();
            let (Some(crossed), Some(queen_to)) = (
                g.sq(u8::try_from(qf + step).unwrap_or(u8::MAX), g.rank(q)),
                g.sq(u8::try_from(qf + 2 * step).unwrap_or(u8::MAX), g.rank(q)),
            ) else {
                continue;
            };
            if queen_to == rook || (between & pos.occupied()).nonempty() {
                continue;
            }
            found.push(QueenCastle {
                queen: q,
                rook,
                queen_to,
                crossed,
                long: rf < qf,
            });
        }
    }
    found
}

/// Why `castle` may not be played for its attacks: the queen in check or crossing an
/// attacked square, where she can be checked (LQ-3); the landing square is judged by
/// playing the move.
fn attacked_on_the_way(v: &Variant, pos: &Position, castle: &QueenCastle) -> Option<String> {
    let us = pos.turn;
    if !pos.checkable_kings(v, us).contains(castle.queen) {
        return None;
    }
    let g = v.geometry;
    if pos.is_attacked(v, castle.queen, us.other()) {
        return Some(format!("the {us} queen is in check"));
    }
    let occupied = pos.occupied() ^ castle.queen.bit();
    pos.is_attacked_through(v, castle.crossed, us.other(), occupied)
        .then(|| {
            format!(
                "the {us} queen would cross {}, which is attacked",
                g.name(castle.crossed)
            )
        })
}

fn castle_move(pos: &Position, castle: &QueenCastle) -> Option<Move> {
    Some(Move {
        piece: pos.piece_at(castle.queen)?,
        from: castle.queen,
        to: castle.queen_to,
        captured: None,
        promotion: None,
        special: Special::Event {
            number: NUMBER,
            data: u16::from(castle.rook.0),
        },
        faces: None,
        swap: None,
        returned: None,
    })
}

fn castle_of(v: &Variant, pos: &Position, mv: &Move) -> Option<QueenCastle> {
    let Special::Event { data, .. } = mv.special else {
        return None;
    };
    castlings(v, pos, mv.piece.color)
        .into_iter()
        .find(|c| c.queen == mv.from && usize::from(c.rook.0) == usize::from(data))
}

/// The written `=Q`, refused (LQ-4).
fn promotes_to_queen(written: &PieceMove) -> bool {
    written
        .targets
        .as_slice()
        .iter()
        .any(|t| t.promotion.is_some_and(|p| p.piece == b'Q'))
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Long live the queen!",
    aliases: &["Long live the queen"],
    types: &[EventType::RoyalModifier, EventType::RoyalQueen],
    condition: Condition::pieces_each(&[('Q', 1), ('K', 1)]),
    rulings: &["LQ-1", "LQ-2", "LQ-3", "LQ-4", "LQ-5"],
    page: "docs/rules/event-57-long-live-the-queen.md",
};

impl Event for LongLiveTheQueen {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// The queens and rooks that may castle (LQ-3).
    fn mark_layers(&self) -> usize {
        1
    }

    /// The queens are royal, every one of them; the kings are not (LQ-1).
    fn royals(&self, v: &Variant, pos: &Position, color: Color) -> Option<Bitboard> {
        queen_kind(v).map(|queen| pos.pieces(color, queen))
    }

    /// A king is an ordinary piece: it may be taken, and a side may have none (LQ-1).
    fn captures_kings(&self) -> bool {
        true
    }

    /// Counts each side's queens, and marks the queens on their home squares and the
    /// rooks that keep a castling right as unmoved (LQ-1, LQ-3).
    fn begin(
        &self,
        v: &Variant,
        pos: &mut Position,
        _choices: &[crate::command::Choice],
    ) -> Result<(), String> {
        let Some(queen) = queen_kind(v) else {
            return Ok(());
        };
        let mut state = pos.event_state(NUMBER).copied().unwrap_or_default();
        for color in Color::BOTH {
            state.words[color.index()] = pos.pieces(color, queen).count() as u16;
            for sq in (pos.pieces(color, queen) & queen_homes(v, color))
                | (pos.castling & pos.by_color(color))
            {
                mark(pos, sq, true);
            }
        }
        pos.set_event_state(NUMBER, state);
        Ok(())
    }

    /// LQ-3: in a game played from its first move, a queen or rook that moved before the
    /// event started may not castle, even where the king's moves took the rook's right
    /// away and left the rook unmoved.
    fn learn_history(&self, v: &Variant, pos: &mut Position, history: &[(Position, Move)]) {
        let Some((first, _)) = history.first() else {
            return;
        };
        let (Some(queen), Some(rook)) = (queen_kind(v), v.kind_of_letter('R')) else {
            return;
        };
        let mut touched = Bitboard::EMPTY;
        for (_, mv) in history {
            touched |= mv.from.bit() | mv.to.bit();
            if let Special::Castle { rook_from, .. } = mv.special {
                touched |= rook_from.bit();
            }
        }
        for color in Color::BOTH {
            let unmoved = ((first.pieces(color, queen) & queen_homes(v, color))
                | (first.castling & first.pieces(color, rook)))
                & !touched;
            for sq in (pos.pieces(color, queen) | pos.pieces(color, rook)) & pos.by_color(color) {
                mark(pos, sq, unmoved.contains(sq));
            }
        }
    }

    /// Each side's queens at the start, then the queens and rooks that may castle:
    /// `1,1,d1,a1,h1,d8,a8,h8`.
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let mut words: Vec<String> = Color::BOTH
            .into_iter()
            .map(|c| queens_at_start(pos, c).to_string())
            .collect();
        words.extend(castlers(pos).map(|sq| v.geometry.name(sq)));
        words
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let [white, black, squares @ ..] = words else {
            return Err(
                "#57 takes each side's queens at the start, then the queens and rooks that may castle"
                    .to_owned(),
            );
        };
        let mut state = pos.event_state(NUMBER).copied().unwrap_or_default();
        for (color, word) in Color::BOTH.into_iter().zip([white, black]) {
            state.words[color.index()] = word
                .parse()
                .map_err(|_| format!("`{word}` is not a number of queens"))?;
        }
        pos.set_event_state(NUMBER, state);
        for word in squares {
            let sq = super::fen_square(v, word)?;
            if pos.piece_at(sq).is_none() {
                return Err(format!("no queen or rook stands on {word} to castle"));
            }
            mark(pos, sq, true);
        }
        Ok(())
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// The king moves like a queen, the queen like a king (LQ-2).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if let Some(kind) = self.moves_as(v, pos, from, piece) {
            *reach = reach_as(v, pos, (from, piece), kind, occupied, NUMBER);
        }
    }

    fn moves_as(&self, v: &Variant, _pos: &Position, _from: Sq, piece: Piece) -> Option<Kind> {
        let (king, queen) = (v.tables.king?, queen_kind(v)?);
        if piece.kind == king {
            Some(queen)
        } else if piece.kind == queen {
            Some(king)
        } else {
            None
        }
    }

    fn why_unreached(
        &self,
        v: &Variant,
        _pos: &Position,
        _from: Sq,
        piece: Piece,
        _to: Sq,
    ) -> Option<String> {
        (Some(piece.kind) == queen_kind(v)).then(|| {
            "the queen moves one square at a time, like a king, while #57 Long live the queen! runs (LQ-2)"
                .to_owned()
        })
    }

    /// The queen's castlings (LQ-3).
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        for castle in castlings(v, pos, pos.turn) {
            if from.contains(castle.queen)
                && to.contains(castle.queen_to)
                && attacked_on_the_way(v, pos, &castle).is_none()
            {
                out.extend(castle_move(pos, &castle));
            }
        }
    }

    /// A pawn promotes to a king where it would have become a queen (LQ-4).
    fn reroute(
        &self,
        v: &Variant,
        _pos: &Position,
        _from: Bitboard,
        _to: Bitboard,
        out: &mut Vec<Move>,
        start: usize,
    ) {
        let (Some(queen), Some(king)) = (queen_kind(v), v.tables.king) else {
            return;
        };
        for mv in &mut out[start..] {
            if mv.promotion == Some(queen) {
                mv.promotion = Some(king);
            }
        }
    }

    /// The king no longer castles (LQ-3).
    fn allows(&self, _v: &Variant, _pos: &Position, mv: &Move) -> bool {
        !matches!(mv.special, Special::Castle { .. })
    }

    fn why_refused(&self, _v: &Variant, _pos: &Position, _mv: &Move) -> String {
        "the king no longer castles while #57 Long live the queen! runs; the queen castles instead (LQ-3)"
            .to_owned()
    }

    /// Queen and rook land; neither castles again (LQ-3).
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let Some(castle) = castle_of(v, pos, mv) else {
            return;
        };
        let rook = pos.lift(castle.rook).expect("castling rook");
        let queen = pos.lift(castle.queen).expect("castling queen");
        pos.place(castle.queen_to, queen);
        pos.place(castle.crossed, rook);
        mark(pos, castle.queen_to, false);
        mark(pos, castle.crossed, false);
        // The rook has moved: the king's castling right with it goes too.
        pos.set_castling(pos.castling & !castle.rook.bit());
    }

    /// A queen or rook that moved may no longer castle (LQ-3).
    fn after_move(&self, _v: &Variant, pos: &mut Position, mv: &Move, _gives_check: bool) {
        if castlers(pos).contains(mv.to) {
            mark(pos, mv.to, false);
        }
    }

    /// A side that lost a royal queen has lost (LQ-1, LQ-5).
    fn winner(&self, v: &Variant, pos: &Position) -> Option<Color> {
        let queen = queen_kind(v)?;
        Color::BOTH.into_iter().find_map(|color| {
            (pos.pieces(color, queen).count() < u32::from(queens_at_start(pos, color)))
                .then_some(color.other())
        })
    }

    fn victory(&self, winner: Color) -> (&'static str, String) {
        (
            "queen-captured",
            format!(
                "{winner} has captured a royal queen, which wins under event #57 Long live the queen! (LQ-1, LQ-5)"
            ),
        )
    }

    /// `O-O`, `O-O-O`: the queen's castling (LQ-3).
    fn resolve_castle(
        &self,
        v: &Variant,
        pos: &Position,
        long: bool,
    ) -> Option<Result<Move, Rejection>> {
        let us = pos.turn;
        let wing = if long { "queenside" } else { "kingside" };
        let mut legal = Vec::new();
        v.legal_moves_between(pos, pos.by_color(us), v.geometry.all(), &mut legal);
        if let Some(mv) = legal.iter().find(|mv| {
            castle_of(v, pos, mv).is_some_and(|c| c.long == long)
                && matches!(mv.special, Special::Event { number: NUMBER, .. })
        }) {
            return Some(Ok(*mv));
        }
        let why = match castlings(v, pos, us).into_iter().find(|c| c.long == long) {
            None => {
                "the queen and a rook on that side must both be unmoved, with nothing between them"
                    .to_owned()
            }
            Some(castle) => attacked_on_the_way(v, pos, &castle).unwrap_or_else(|| {
                format!(
                    "the {us} queen would be in check on {}",
                    v.geometry.name(castle.queen_to)
                )
            }),
        };
        Some(Err(san::illegal(
            format!(
                "{us} may not castle {wing}: while #57 Long live the queen! runs the queen castles, not the king, and {why} (LQ-3)"
            ),
            san::legal_help(v, pos, if long { "O-O-O" } else { "O-O" }, None),
        )))
    }

    /// `=Q` is refused with its ruling (LQ-4).
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        promotes_to_queen(written).then(|| {
            let target = written
                .targets
                .as_slice()
                .last()
                .and_then(|t| v.geometry.from_square(t.square));
            let mut moves = Vec::new();
            if let Some(target) = target {
                v.legal_moves_between(pos, pos.by_color(pos.turn), target.bit(), &mut moves);
            }
            let help = moves
                .iter()
                .find(|mv| mv.promotion.is_some() && mv.promotion == v.tables.king)
                .map(|mv| format!("write `{}`", san::san(v, pos, mv)));
            Err(san::illegal(
                "a pawn may not promote to a queen while #57 Long live the queen! runs; it may promote to a king, which moves like a queen (LQ-4)".to_owned(),
                help,
            ))
        })
    }

    /// `O-O`, `O-O-O`.
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        match castle_of(v, pos, mv) {
            Some(castle) if castle.long => "O-O-O".to_owned(),
            _ => "O-O".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn queen_royal(fen: &str) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&LongLiveTheQueen, Some(pos.turn)).unwrap();
        LongLiveTheQueen.begin(v, &mut pos, &[]).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn the_queen_is_royal_and_steps_the_king_slides() {
        let v = event_chess();
        // The black rook attacks the white queen on d1 along the file; the white king is
        // attacked too, which does not matter.
        let pos = queen_royal("3rk3/8/8/8/8/8/8/R2QK2r w - - 0 1");
        assert!(pos.is_check(v), "the queen is attacked");
        assert!(resolve(&pos, "Qd3").unwrap_err().reason.contains("LQ-2"));
        let step = resolve(&pos, "Qc2").unwrap();
        assert_eq!(step.to, sq("c2"));
        assert!(resolve(&pos, "Kxh1").is_err(), "the queen stays in check");
        let pos = queen_royal("3rk3/8/8/8/8/8/2Q5/4K2r w - - 0 1");
        let slide = resolve(&pos, "Kxh1").unwrap();
        assert_eq!(slide.from, sq("e1"));
    }

    #[test]
    fn the_queen_castles_the_king_does_not() {
        let v = event_chess();
        let pos = queen_royal("r2qk2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1");
        let long = resolve(&pos, "O-O-O").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &long);
        assert_eq!(
            after.piece_at(sq("b1")).map(|p| p.kind),
            queen_kind(v),
            "the queen went two squares"
        );
        assert_eq!(
            after.piece_at(sq("c1")).map(|p| p.kind),
            v.kind_of_letter('R')
        );
        let short = resolve(&pos, "O-O").unwrap_err();
        assert!(short.reason.contains("LQ-3"), "{}", short.reason);
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        assert!(
            !moves
                .iter()
                .any(|mv| matches!(mv.special, Special::Castle { .. }))
        );
    }

    #[test]
    fn promotion_to_a_king_not_a_queen() {
        let v = event_chess();
        let pos = queen_royal("8/3P4/8/8/8/8/8/q2QK2k w - - 0 1");
        assert!(resolve(&pos, "d8=Q").unwrap_err().reason.contains("LQ-4"));
        let king = resolve(&pos, "d8=K").unwrap();
        assert_eq!(san::san(v, &pos, &king), "d8=K");
        let mut after = pos.clone();
        v.play(&mut after, &king);
        assert_eq!(after.kings(v, Color::White).count(), 2);
        let fen = crate::rules::write_fen(v, &after);
        let back = parse_fen(v, &fen).unwrap();
        assert_eq!(crate::rules::write_fen(v, &back), fen);
    }
}
