//! Event #7 Revival, newer wording (catalogue; rulings RV-1 to RV-6 in
//! `docs/rules/event-7-revival.md`): once per game each player may, as his whole move,
//! drop a piece of a type of which he has fewer than at the start of the game on an empty
//! square (`R@h8#`); pawns never on the first or last rank, kings never.

use crate::notation::{MoveBody, Notation};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState, Form};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct Revival;

const NUMBER: u16 = 7;

/// What tells the two wordings of #7 apart: which pieces a player may revive, and the
/// rulings the reasons for a refusal cite. Both wordings drop pieces the same way
/// (`revival_old` plays the older one with these functions).
pub(super) struct Wording {
    /// Whether `color` may revive a piece of `kind`, which is no king.
    pub revivable: fn(&Variant, &Position, Color, Kind) -> bool,
    /// Why `color` may not revive a piece of `kind`, which is no king, with the ruling.
    pub not_revivable: fn(&Variant, &Position, Color, Kind) -> String,
    /// The rulings of one revival per player, of the squares, of check and of kings.
    pub once: &'static str,
    pub squares: &'static str,
    pub check: &'static str,
    pub king: &'static str,
    /// Why castling is refused once the player has revived.
    pub castling: &'static str,
}

/// The newer wording (RV-1): a type of which the player has fewer than at the start.
const NEWER: Wording = Wording {
    revivable: fewer_than_at_start,
    not_revivable: |v, _pos, color, kind| {
        format!(
            "{color} has as many {}s as at the start of the game, so none can be revived: a promotion makes up for a loss (RV-1)",
            v.piece(kind).name
        )
    },
    once: "RV-1",
    squares: "RV-2",
    check: "RV-4",
    king: "RV-5",
    castling: "the king or that rook has moved, or the rook was revived, and a revived rook has no castling right (RV-3)",
};

/// Whether `color` has used his revival (RV-1, RVO-1): the event's words 0 and 1.
pub(super) fn used(pos: &Position, color: Color) -> bool {
    pos.event_state(NUMBER)
        .is_some_and(|state| state.words[color.index()] != 0)
}

fn mark_used(pos: &mut Position, color: Color) {
    let mut state = pos.event_state(NUMBER).copied().unwrap_or_default();
    state.words[color.index()] = 1;
    pos.set_event_state(NUMBER, state);
}

/// Whether `color` has fewer pieces of `kind` on the board than in the start position.
pub(super) fn fewer_than_at_start(v: &Variant, pos: &Position, color: Color, kind: Kind) -> bool {
    pos.pieces(color, kind).count() < v.start_position().pieces(color, kind).count()
}

/// The squares a piece of `kind` may be dropped on: empty, and for a pawn off the first
/// and last ranks (RV-2, RVO-3).
fn drop_squares(v: &Variant, pos: &Position, kind: Kind) -> Bitboard {
    let g = v.geometry;
    let mut squares = g.all() & !pos.occupied();
    if v.role(kind) == Role::Pawn {
        squares &= !(g.rank_mask(0) | g.rank_mask(g.height - 1));
    }
    squares
}

fn drop_move(color: Color, kind: Kind, sq: Sq) -> Move {
    Move {
        piece: Piece { color, kind },
        from: sq,
        to: sq,
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

/// The drops of the side to move onto squares in `squares` (a drop starts and ends on
/// its square).
pub(super) fn drops(
    w: &Wording,
    v: &Variant,
    pos: &Position,
    squares: Bitboard,
    out: &mut Vec<Move>,
) {
    let us = pos.turn;
    if used(pos, us) {
        return;
    }
    for index in 0..v.pieces.len() {
        let kind = Kind(index as u8);
        if v.role(kind) != Role::King && (w.revivable)(v, pos, us, kind) {
            for sq in drop_squares(v, pos, kind) & squares {
                out.push(drop_move(us, kind, sq));
            }
        }
    }
}

/// Plays a drop: the piece appears with no castling right and no marks, and the player's
/// revival is spent (RV-1, RV-3, RVO-1, RVO-4).
pub(super) fn play_drop(pos: &mut Position, mv: &Move) {
    pos.put(mv.to, mv.piece);
    mark_used(pos, mv.piece.color);
}

/// Reads `R@h8`: the drop, or why it is not one.
pub(super) fn resolve_drop(
    w: &Wording,
    v: &Variant,
    pos: &Position,
    written: &Notation,
) -> Result<Move, Rejection> {
    let g = v.geometry;
    let us = pos.turn;
    let MoveBody::Placement(placed) = &written.body else {
        return Err(san::illegal(
            "Revival reads only a drop, `R@h8`".to_owned(),
            None,
        ));
    };
    let letter = char::from(placed.piece.unwrap_or(b'?'));
    let help = || help(w, v, pos);
    let Some(kind) = v.kind_of_letter(letter) else {
        return Err(san::illegal(
            format!("`{letter}` is no piece of {}", v.name),
            help(),
        ));
    };
    let sq = san::on_board(v, placed.square)?;
    let name = &v.piece(kind).name;
    if used(pos, us) {
        return Err(san::illegal(
            format!(
                "{us} has already revived a piece: each player revives once per game ({})",
                w.once
            ),
            None,
        ));
    }
    if v.role(kind) == Role::King {
        return Err(san::illegal(
            format!("a king is never revived ({})", w.king),
            help(),
        ));
    }
    if !(w.revivable)(v, pos, us, kind) {
        return Err(san::illegal((w.not_revivable)(v, pos, us, kind), help()));
    }
    if pos.piece_at(sq).is_some() {
        return Err(san::illegal(
            format!(
                "a piece is revived on an empty square, and {} stands on {} ({})",
                san::describe_piece(v, pos, sq),
                g.name(sq),
                w.squares
            ),
            help(),
        ));
    }
    if !drop_squares(v, pos, kind).contains(sq) {
        return Err(san::illegal(
            format!(
                "a pawn is never revived on the first or last rank, and {} is on one ({})",
                g.name(sq),
                w.squares
            ),
            help(),
        ));
    }
    let mv = drop_move(us, kind, sq);
    if v.leaves_king_attacked(pos, &mv) {
        return Err(san::illegal(
            format!(
                "{us} is in check, and a {name} on {} does not answer it ({})",
                g.name(sq),
                w.check
            ),
            help(),
        ));
    }
    Ok(mv)
}

/// The legal drops, as help.
fn help(w: &Wording, v: &Variant, pos: &Position) -> Option<String> {
    let mut moves = Vec::new();
    drops(w, v, pos, v.geometry.all(), &mut moves);
    moves.retain(|mv| !v.leaves_king_attacked(pos, mv));
    let mut kinds: Vec<String> = Vec::new();
    for mv in &moves {
        let letter = format!("{}@", v.piece(mv.piece.kind).letter);
        if !kinds.contains(&letter) {
            kinds.push(letter);
        }
    }
    (!kinds.is_empty()).then(|| {
        format!(
            "{} may revive with {} on an empty square",
            pos.turn,
            kinds.join(" or ")
        )
    })
}

/// `w`, `b`: the players who have revived a piece, as the extended FEN writes them.
pub(super) fn used_words(pos: &Position) -> Vec<String> {
    Color::BOTH
        .into_iter()
        .filter(|&color| used(pos, color))
        .map(|color| {
            match color {
                Color::White => "w",
                Color::Black => "b",
            }
            .to_owned()
        })
        .collect()
}

/// Reads a word [`used_words`] wrote; `false` when it is none.
pub(super) fn read_used_word(pos: &mut Position, word: &str) -> bool {
    let color = match word {
        "w" => Color::White,
        "b" => Color::Black,
        _ => return false,
    };
    mark_used(pos, color);
    true
}

/// `R@h8`, `P@e4`.
pub(super) fn drop_san(v: &Variant, mv: &Move) -> String {
    format!(
        "{}@{}",
        v.piece(mv.piece.kind).letter,
        v.geometry.name(mv.to)
    )
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Revival",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["RV-1", "RV-2", "RV-3", "RV-4", "RV-5", "RV-6"],
    page: "docs/rules/event-7-revival.md",
};

impl Event for Revival {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Drop
    }

    /// A refused castling after a revival names RV-3: a revived rook brings no right.
    fn why_no_castling(&self, _v: &Variant, pos: &Position, color: Color) -> Option<&'static str> {
        used(pos, color).then_some(NEWER.castling)
    }

    /// Who has revived belongs to the position (RV-1).
    fn state_key(&self, state: &EventState) -> u64 {
        u64::from(state.words[0]) | u64::from(state.words[1]) << 1
    }

    /// `w`, `b`: the players who have revived a piece.
    fn write_fen(&self, _v: &Variant, pos: &Position) -> Vec<String> {
        used_words(pos)
    }

    fn read_fen(&self, _v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        for word in words {
            if !read_used_word(pos, word) {
                return Err(format!(
                    "`{word}` is not a player who has revived (`w` or `b`)"
                ));
            }
        }
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
        drops(&NEWER, v, pos, from & to, out);
    }

    /// The piece appears with no castling right and no marks; the player's revival is
    /// spent (RV-1, RV-3).
    fn play_extra(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        play_drop(pos, mv);
    }

    fn resolve_turn(
        &self,
        v: &Variant,
        pos: &Position,
        written: &Notation,
    ) -> Option<Result<Move, Rejection>> {
        Some(resolve_drop(&NEWER, v, pos, written))
    }

    /// `R@h8`, `P@e4`.
    fn san(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        drop_san(v, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn revival(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&Revival, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn each_player_revives_once_a_type_he_has_lost() {
        let v = event_chess();
        let mut pos = revival("6k1/5ppp/8/8/8/8/8/K7 w - - 0 1");
        let rook = resolve(&pos, "R@a8").unwrap();
        // No mate: Black may answer by reviving a piece between rook and king (RV-4).
        assert_eq!(san::san(v, &pos, &rook), "R@a8+");
        let royal = resolve(&pos, "K@d4").unwrap_err();
        assert!(royal.reason.contains("RV-5"), "{}", royal.reason);
        let pawn = resolve(&pos, "P@a1").unwrap_err();
        assert!(pawn.reason.contains("RV-2"), "{}", pawn.reason);
        let rook = resolve(&pos, "R@d1").unwrap();
        v.play(&mut pos, &rook);
        let fen = crate::rules::write_fen(v, &pos);
        assert!(fen.ends_with("events(7w:w)"), "{fen}");
        let king = resolve(&pos, "Kh8").unwrap();
        v.play(&mut pos, &king);
        let again = resolve(&pos, "N@d4").unwrap_err();
        assert!(again.reason.contains("RV-1"), "{}", again.reason);
        assert_eq!(
            pos.piece_at(sq("d1")).map(|p| p.kind),
            v.kind_of_letter('R')
        );
    }
}
