//! Event #7 Revival in its older wording, `[%event 7 old]` (catalogue; rulings RVO-1 to
//! RVO-8 in `docs/rules/event-7-revival-old.md`): once per game each player may, as his
//! whole move, drop a man of his that the opponent has captured on an empty square
//! (`R@h8#`), a captured promoted piece counting as a pawn. The drops are the newer
//! wording's (`revival`); what may be revived is history, which the event learns from
//! the moves before it started ([`Event::learn_history`]) and follows capture by capture.

use crate::notation::Notation;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState, Form};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind, Role};
use crate::rules::position::Position;
use crate::rules::san::Rejection;
use crate::rules::variant::Variant;

use super::revival::{self, Wording};

pub struct RevivalOld;

const NUMBER: u16 = 7;

/// The event's words 2 and 3: per player, a bit per kind of which the opponent has
/// captured a man of his (RVO-1), a promoted piece counting as a pawn (RVO-2).
const LOST: usize = 2;

const OLDER: Wording = Wording {
    revivable: |_v, pos, color, kind| lost(pos, color) & 1 << kind.index() != 0,
    not_revivable: not_captured,
    once: "RVO-1",
    squares: "RVO-3",
    check: "RVO-5",
    king: "RVO-6",
    castling: "the king or that rook has moved, or the rook was revived, and a revived rook has no castling right (RVO-4)",
};

/// Why `color` may not revive a piece of `kind`: the opponent has captured none (RVO-1,
/// RVO-2, RVO-7).
fn not_captured(v: &Variant, _pos: &Position, color: Color, kind: Kind) -> String {
    let name = &v.piece(kind).name;
    let them = color.other();
    let promoted = if v.role(kind) == Role::Pawn {
        String::new()
    } else {
        format!("; a promoted {name} counts as a pawn once captured (RVO-2)")
    };
    format!(
        "{them} has captured no {color} {name}: only a man the opponent captured comes back, not one lost otherwise, such as to an own capture (RVO-1, RVO-7){promoted}"
    )
}

/// The kinds of `color`'s men the opponent has captured, a bit each.
fn lost(pos: &Position, color: Color) -> u16 {
    pos.event_state(NUMBER)
        .map_or(0, |state| state.words[LOST + color.index()])
}

/// The mark of the pieces that count as what they are when captured: the pieces (no pawn,
/// no king) of the start position and those revived, not those a pawn became (RVO-2).
fn originals_layer(pos: &Position) -> Option<usize> {
    pos.mark_layer(NUMBER, 0)
}

/// Every piece on the board that is neither a pawn nor a king.
fn pieces(v: &Variant, pos: &Position) -> Bitboard {
    Color::BOTH.into_iter().fold(Bitboard::EMPTY, |bb, color| {
        bb | pos.with_role(v, color, Role::Piece)
    })
}

/// What the event knows: the kinds each player lost to the opponent, and which pieces are
/// originals.
#[derive(Clone, Copy)]
struct Known {
    lost: [u16; 2],
    originals: Bitboard,
}

impl Known {
    fn read(pos: &Position) -> Known {
        Known {
            lost: [lost(pos, Color::White), lost(pos, Color::Black)],
            originals: originals_layer(pos).map_or(Bitboard::EMPTY, |layer| pos.marked(layer)),
        }
    }

    /// Stores it in `pos`, where the event runs; who has revived stays as it is.
    fn write(self, v: &Variant, pos: &mut Position) {
        let mut state = pos.event_state(NUMBER).copied().unwrap_or_default();
        state.words[LOST..LOST + 2].copy_from_slice(&self.lost);
        pos.set_event_state(NUMBER, state);
        let Some(layer) = originals_layer(pos) else {
            return;
        };
        for sq in pos.marked(layer) {
            pos.set_mark(layer, sq, false);
        }
        for sq in self.originals & pieces(v, pos) {
            pos.set_mark(layer, sq, true);
        }
    }

    /// What a position tells without its past (RVO-8): the men a player lacks against
    /// the start position were captured by the opponent, a piece beyond the start count
    /// making up for a missing pawn, and of a kind he has more of than at the start the
    /// pieces nearest the enemy's side are the promoted ones.
    fn from_board(v: &Variant, pos: &Position) -> Known {
        let start = v.start_position();
        let g = v.geometry;
        let mut known = Known {
            lost: [0; 2],
            originals: Bitboard::EMPTY,
        };
        for color in Color::BOTH {
            let own_rank = |sq: Sq| match color {
                Color::White => g.rank(sq),
                Color::Black => g.height - 1 - g.rank(sq),
            };
            let mut surplus = 0;
            for kind in v.kinds_with(Role::Piece) {
                let have = pos.pieces(color, kind);
                let at_start = start.pieces(color, kind).count();
                if have.count() < at_start {
                    known.lost[color.index()] |= 1 << kind.index();
                }
                surplus += have.count().saturating_sub(at_start);
                let mut squares: Vec<Sq> = have.collect();
                squares.sort_by_key(|&sq| (own_rank(sq), sq.index()));
                known.originals |= squares
                    .into_iter()
                    .take(at_start as usize)
                    .collect::<Bitboard>();
            }
            if let Some(pawn) = v.tables.pawn
                && pos.pieces(color, pawn).count() + surplus < start.pieces(color, pawn).count()
            {
                known.lost[color.index()] |= 1 << pawn.index();
            }
        }
        known
    }
}

static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Revival",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &[
        "RVO-1", "RVO-2", "RVO-3", "RVO-4", "RVO-5", "RVO-6", "RVO-7", "RVO-8",
    ],
    page: "docs/rules/event-7-revival-old.md",
};

impl Event for RevivalOld {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn older_wording(&self) -> bool {
        true
    }

    fn mark_layers(&self) -> usize {
        1
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Drop
    }

    /// A refused castling after a revival names RVO-4: a revived rook brings no right.
    fn why_no_castling(&self, _v: &Variant, pos: &Position, color: Color) -> Option<&'static str> {
        revival::used(pos, color).then_some(OLDER.castling)
    }

    /// Who has revived and what each player may revive belong to the position (RVO-1).
    fn state_key(&self, state: &EventState) -> u64 {
        u64::from(state.words[0])
            | u64::from(state.words[1]) << 1
            | u64::from(state.words[LOST]) << 2
            | u64::from(state.words[LOST + 1]) << 18
    }

    /// RVO-8: without the moves before it, the board tells what was lost.
    fn begin(
        &self,
        v: &Variant,
        pos: &mut Position,
        _choices: &[crate::command::Choice],
    ) -> Result<(), String> {
        Known::from_board(v, pos).write(v, pos);
        Ok(())
    }

    /// RVO-1, RVO-2: the moves before the event are played again on copies of their
    /// positions with the event running, so every capture counts as it does once it runs;
    /// the game's first position tells what came before it (RVO-8).
    fn learn_history(&self, v: &Variant, pos: &mut Position, history: &[(Position, Move)]) {
        let Some((first, _)) = history.first() else {
            return;
        };
        let mut known = Known::from_board(v, first);
        for (before, mv) in history {
            let mut copy = before.clone();
            if copy.start_event(&RevivalOld, None).is_err() {
                return;
            }
            known.write(v, &mut copy);
            v.play(&mut copy, mv);
            known = Known::read(&copy);
        }
        known.write(v, pos);
    }

    /// RVO-1, RVO-2, RVO-7: a man the opponent captures, as what he was; a piece made from
    /// a pawn counts as a pawn; own captures and kings do not count.
    fn on_capture(&self, v: &Variant, pos: &mut Position, mv: &Move, victim: Sq) {
        let Some(piece) = pos.piece_at(victim) else {
            return;
        };
        if piece.color == mv.piece.color {
            return;
        }
        let original = originals_layer(pos).is_some_and(|layer| pos.marked(layer).contains(victim));
        let kind = match v.role(piece.kind) {
            Role::King => return,
            Role::Piece if !original => match v.tables.pawn {
                Some(pawn) => pawn,
                None => return,
            },
            _ => piece.kind,
        };
        let mut state = pos.event_state(NUMBER).copied().unwrap_or_default();
        state.words[LOST + piece.color.index()] |= 1 << kind.index();
        pos.set_event_state(NUMBER, state);
    }

    /// `w`, `b`: the players who have revived; `x` and the letters of the kinds each
    /// player may revive (`xQPn`: white a queen or a pawn, black a knight); the squares
    /// of the pieces a pawn became, which count as pawns when captured (RVO-8).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let mut words = revival::used_words(pos);
        let mut letters = String::new();
        for color in Color::BOTH {
            for index in 0..v.pieces.len() {
                if lost(pos, color) & 1 << index != 0 {
                    let letter = v.pieces[index].letter;
                    letters.push(match color {
                        Color::White => letter,
                        Color::Black => letter.to_ascii_lowercase(),
                    });
                }
            }
        }
        if !letters.is_empty() {
            words.push(format!("x{letters}"));
        }
        let originals = originals_layer(pos).map_or(Bitboard::EMPTY, |layer| pos.marked(layer));
        words.extend((pieces(v, pos) & !originals).map(|sq| v.geometry.name(sq)));
        words
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let mut known = Known {
            lost: [0; 2],
            originals: pieces(v, pos),
        };
        for word in words {
            if revival::read_used_word(pos, word) {
                continue;
            }
            if let Some(letters) = word.strip_prefix('x') {
                for letter in letters.chars() {
                    let kind = v
                        .kind_of_letter(letter)
                        .filter(|&kind| v.role(kind) != Role::King)
                        .ok_or_else(|| format!("`{letter}` is no piece that can be revived"))?;
                    let color = if letter.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    known.lost[color.index()] |= 1 << kind.index();
                }
                continue;
            }
            let sq = super::fen_square(v, word).map_err(|_| {
                format!(
                    "`{word}` is neither a player who has revived (`w`, `b`), nor the kinds lost (`xQPn`), nor a square"
                )
            })?;
            if !known.originals.contains(sq) {
                return Err(format!(
                    "`{word}`: no piece that could have been a pawn stands there"
                ));
            }
            known.originals.clear(sq);
        }
        known.write(v, pos);
        Ok(())
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        revival::drops(&OLDER, v, pos, from & to, out);
    }

    /// The revived man comes back as what he was: a piece counts as itself if captured
    /// again (RVO-1, RVO-4).
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        revival::play_drop(pos, mv);
        if v.role(mv.piece.kind) == Role::Piece
            && let Some(layer) = originals_layer(pos)
        {
            pos.set_mark(layer, mv.to, true);
        }
    }

    fn resolve_turn(
        &self,
        v: &Variant,
        pos: &Position,
        written: &Notation,
    ) -> Option<Result<Move, Rejection>> {
        Some(revival::resolve_drop(&OLDER, v, pos, written))
    }

    /// `R@h8`, `P@e4`.
    fn san(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        revival::drop_san(v, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::event_chess;
    use crate::rules::{parse_fen, san};

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    /// Plays `tokens` from `fen`, keeping each move with the position before it.
    fn play(fen: &str, tokens: &[&str]) -> (Position, Vec<(Position, Move)>) {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        let mut history = Vec::new();
        for token in tokens {
            let mv = resolve(&pos, token).unwrap();
            history.push((pos.clone(), mv));
            v.play(&mut pos, &mv);
        }
        (pos, history)
    }

    fn start(pos: &mut Position, history: &[(Position, Move)]) {
        let v = event_chess();
        pos.start_event(&RevivalOld, Some(pos.turn)).unwrap();
        RevivalOld.begin(v, pos, &[]).unwrap();
        RevivalOld.learn_history(v, pos, history);
    }

    #[test]
    fn the_men_captured_before_the_event_may_be_revived() {
        let start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let (mut pos, history) = play(start_fen, &["e4", "d5", "exd5", "Qxd5", "Nc3", "Qxa2"]);
        start(&mut pos, &history);
        let v = event_chess();
        let fen = crate::rules::write_fen(v, &pos);
        assert!(fen.ends_with("events(7ow:xPp)"), "{fen}");
        assert!(resolve(&pos, "P@a4").is_ok());
        let rook = resolve(&pos, "R@a4").unwrap_err();
        assert!(rook.reason.contains("RVO-1"), "{}", rook.reason);
        let read = parse_fen(v, &fen).unwrap();
        assert_eq!(read.key(v), pos.key(v));
    }

    #[test]
    fn a_captured_promoted_queen_counts_as_a_pawn_and_an_original_as_a_queen() {
        let v = event_chess();
        let fen = "r5k1/1P3ppp/8/8/8/8/P1PPPPPP/3QK3 w - - 0 1";
        let (mut promoted_lost, history) = play(fen, &["b8=Q+", "Rxb8"]);
        start(&mut promoted_lost, &history);
        assert!(resolve(&promoted_lost, "P@b7").is_ok());
        let queen = resolve(&promoted_lost, "Q@d4").unwrap_err();
        assert!(queen.reason.contains("RVO-2"), "{}", queen.reason);
        let fen = "8/1P4pk/7p/8/8/8/P1PPPPPP/r2QK3 w - - 0 1";
        let (mut original_lost, history) = play(fen, &["b8=Q", "Rxd1+", "Kxd1", "Kg6"]);
        start(&mut original_lost, &history);
        assert!(resolve(&original_lost, "Q@d4").is_ok());
        let fen = crate::rules::write_fen(v, &original_lost);
        assert!(fen.contains(",b8;"), "the queen on b8 was a pawn: {fen}");
        let read = parse_fen(v, &fen).unwrap();
        assert_eq!(read.key(v), original_lost.key(v));
        assert_eq!(crate::rules::write_fen(v, &read), fen);
    }
}
