//! Event #96 En Passant for all (catalogue; rulings EA-1 to EA-5 in
//! `docs/rules/event-96-en-passant-for-all.md`): on his next move, a player may take the
//! piece his opponent just moved on any square it passed over, with any piece that could
//! capture onto that square (`Nxe3` after `Re1-e5`): the capturer goes there and the
//! moved piece is removed. Kings are never taken so, and may not pass a square where they
//! could be.

use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::Role;
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct EnPassantForAll;

const NUMBER: u16 = 96;

/// The piece the opponent just moved and the squares it passed over (EA-1, EA-2), as the
/// event's slot keeps them: `boards[0]` the squares, `words[0]` the piece's square plus
/// one (0: none).
fn passed(pos: &Position) -> Option<(Sq, Bitboard)> {
    let state = pos.event_state(NUMBER)?;
    let square = state.words[0].checked_sub(1)?;
    Some((Sq(u8::try_from(square).ok()?), state.boards[0]))
}

fn set_passed(pos: &mut Position, passed: Option<(Sq, Bitboard)>) {
    let Some(mut state) = pos.event_state(NUMBER).copied() else {
        return;
    };
    let (square, squares) = passed.map_or((0, Bitboard::EMPTY), |(sq, squares)| {
        (u16::from(sq.0) + 1, squares)
    });
    state.words[0] = square;
    state.boards[0] = squares;
    pos.set_event_state(NUMBER, state);
}

/// The squares a move passes over (EA-2): those strictly between the square it leaves
/// and the one it reaches on a rank, file or diagonal, for ordinary moves, double steps
/// and this event's own captures; the rook's in castling. With the square of the piece
/// that passed them.
fn squares_passed(v: &Variant, mv: &Move) -> Option<(Sq, Bitboard)> {
    let g = v.geometry;
    match mv.special {
        Special::Castle { rook_from, rook_to } => Some((rook_to, g.between(rook_from, rook_to))),
        Special::Normal | Special::DoubleStep | Special::EnPassant => {
            Some((mv.to, g.between(mv.from, mv.to)))
        }
        Special::Event { number, .. } if number == NUMBER => {
            Some((mv.to, g.between(mv.from, mv.to)))
        }
        _ => None,
    }
}

/// The square of the piece an en-passant capture of this event removes (move data).
fn victim_square(mv: &Move) -> Option<Sq> {
    match mv.special {
        Special::Event {
            number: NUMBER,
            data,
        } => u8::try_from(data).ok().map(Sq),
        _ => None,
    }
}

/// The captures of the side to move from `from` onto the squares of `to` that the piece
/// the opponent just moved passed over (EA-1); pseudo-legal. A pawn taking a pawn that
/// stepped two is the orthodox en passant, which the core offers.
fn captures(v: &Variant, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
    let Some((victim_sq, squares)) = passed(pos) else {
        return;
    };
    let us = pos.turn;
    let Some(victim) = pos
        .piece_at(victim_sq)
        .filter(|p| p.color != us && v.role(p.kind) != Role::King)
    else {
        return;
    };
    let occupied = pos.occupied();
    let targets = squares & to & !occupied;
    if targets.is_empty() {
        return;
    }
    for sq in pos.by_color(us) & from {
        let piece = pos.piece_at(sq).expect("our piece");
        let attacks = v.reach(pos, sq, piece, occupied).attacks;
        for target in attacks & targets {
            if v.role(piece.kind) == Role::Pawn && pos.ep == Some(target) {
                continue;
            }
            let mv = Move {
                piece,
                from: sq,
                to: target,
                captured: Some(victim),
                promotion: None,
                special: Special::Event {
                    number: NUMBER,
                    data: victim_sq.0.into(),
                },
                faces: None,
                swap: None,
                returned: None,
            };
            v.push_promotions(pos, mv, out);
        }
    }
}

/// The first square a king's move passes over where an enemy piece could then capture
/// onto it (EA-3), with the position after the move.
fn king_taken_on(v: &Variant, pos: &Position, mv: &Move) -> Option<(Sq, Position)> {
    if v.role(mv.piece.kind) != Role::King {
        return None;
    }
    let crossed = v.geometry.between(mv.from, mv.to);
    if crossed.is_empty() {
        return None;
    }
    let mut after = pos.clone();
    v.play(&mut after, mv);
    let them = mv.piece.color.other();
    let square = crossed
        .into_iter()
        .find(|&sq| after.is_attacked(v, sq, them))?;
    Some((square, after))
}

impl EnPassantForAll {
    /// Reads a capture onto an empty square the opponent's last moved piece passed over
    /// (`Nxe3`, `Bc4xf1`, `bxa8=Q`) as this event's en passant (EA-1, EA-5); `None` for
    /// any other move.
    fn resolve_capture(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let (last, origin) = match written.targets.as_slice() {
            [last] => (last, None),
            [origin, last] if origin.separator == Separator::None => (last, Some(origin)),
            _ => return None,
        };
        if last.separator != Separator::Capture
            || written.placed.is_some()
            || written.arrow.is_some()
            || written.swap.is_some()
        {
            return None;
        }
        let to = g.from_square(last.square)?;
        let (victim_sq, squares) = passed(pos)?;
        if !squares.contains(to) || pos.piece_at(to).is_some() {
            return None;
        }
        let kind = san::written_kind(v, written).ok()??;
        let mut from = san::hinted_origins(v, written.hint) & pos.pieces(pos.turn, kind);
        if let Some(origin) = origin {
            from &= g.from_square(origin.square)?.bit();
        }
        // A pawn taking a pawn that stepped two is the orthodox en passant.
        if v.role(kind) == Role::Pawn && pos.ep == Some(to) {
            return None;
        }
        let promotion = match san::promotion_kind(v, pos, written, last.promotion) {
            Ok(kind) => kind,
            Err(rejection) => return Some(Err(rejection)),
        };
        let text = san::written(written);
        let help = || san::legal_help(v, pos, &text, Some(kind));
        let taken = san::describe(v, pos, victim_sq);
        let mut offered = Vec::new();
        v.pseudo_moves(pos, from, to.bit(), &mut offered);
        offered.retain(|mv| victim_square(mv).is_some());
        if offered.is_empty() {
            return Some(Err(san::illegal(
                format!(
                    "{taken} passed over {}, and no {} piece written so can capture onto it (EA-1)",
                    g.name(to),
                    pos.turn
                ),
                help(),
            )));
        }
        let matching: Vec<Move> = offered
            .iter()
            .copied()
            .filter(|mv| mv.promotion == promotion && san::choices_match(v, pos, written, mv))
            .collect();
        if matching.is_empty() {
            return Some(Err(san::illegal(
                format!(
                    "the pawn taking en passant on {} reaches its last rank {}: the promotion is written as for any capture (EA-5)",
                    g.name(to),
                    if promotion.is_none() {
                        "and promotes"
                    } else {
                        "only where it promotes"
                    }
                ),
                help(),
            )));
        }
        let legal: Vec<Move> = matching
            .iter()
            .copied()
            .filter(|mv| !v.leaves_king_attacked(pos, mv))
            .collect();
        match legal.as_slice() {
            [mv] => Some(Ok(*mv)),
            [] => Some(Err(san::illegal(
                format!(
                    "{} (an en-passant capture of {taken} may not leave the own king in check, EA-1)",
                    san::king_exposed(v, pos, &matching[0])
                ),
                help(),
            ))),
            several => Some(Err(san::ambiguous(v, pos, several))),
        }
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "En Passant for all",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["EA-1", "EA-2", "EA-3", "EA-4", "EA-5"],
    page: "docs/rules/event-96-en-passant-for-all.md",
};

impl Event for EnPassantForAll {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// EA-1: which piece may be taken where decides the moves.
    fn state_key(&self, state: &EventState) -> u64 {
        let bits = state.boards[0].0;
        (bits as u64) ^ ((bits >> 64) as u64).rotate_left(17) ^ u64::from(state.words[0]) << 48
    }

    /// The square of the piece the opponent just moved, then the squares it passed over
    /// (`events(96w:d1,b1)`); nothing while none may be taken.
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let Some((square, squares)) = passed(pos) else {
            return Vec::new();
        };
        let mut words = vec![v.geometry.name(square)];
        words.extend(super::names(v, squares));
        words
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let Some((first, rest)) = words.split_first() else {
            return Ok(());
        };
        let square = super::fen_square(v, first)?;
        let mut squares = Bitboard::EMPTY;
        for word in rest {
            squares.set(super::fen_square(v, word)?);
        }
        if pos.piece_at(square).is_none() {
            return Err(format!("{first} holds no piece that passed over squares"));
        }
        set_passed(pos, Some((square, squares)));
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
        captures(v, pos, from, to, out);
    }

    /// The moved piece is taken through the core's capture, so every event's capture
    /// rules and EC-2's count see it (EA-1); the capturer goes to the square passed over.
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let Some(victim) = victim_square(mv) else {
            return;
        };
        v.capture(pos, mv, victim);
        match mv.promotion {
            None => pos.relocate(mv.from, mv.to),
            Some(kind) => {
                pos.remove(mv.from);
                pos.put(
                    mv.to,
                    crate::rules::piece::Piece {
                        color: mv.piece.color,
                        kind,
                    },
                );
            }
        }
    }

    /// EA-3: a king passes no square where an enemy piece could then capture onto it.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        king_taken_on(v, pos, mv).is_none()
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let Some((square, after)) = king_taken_on(v, pos, mv) else {
            return String::new();
        };
        let by: Vec<String> = after
            .attackers(v, square, mv.piece.color.other(), after.occupied())
            .map(|sq| san::describe(v, &after, sq))
            .collect();
        format!(
            "the {} king would pass {}, where {} could take it en passant (EA-3)",
            mv.piece.color,
            v.geometry.name(square),
            san::list(&by)
        )
    }

    /// EA-1, EA-2: the piece that moved, and the squares it passed over, replace what
    /// the opponent's move left; a king's are never used (EA-3).
    fn before_turn_passes(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let passed = squares_passed(v, mv).filter(|&(square, squares)| {
            squares.nonempty()
                && pos
                    .piece_at(square)
                    .is_some_and(|p| p.color == mv.piece.color && v.role(p.kind) != Role::King)
        });
        set_passed(pos, passed);
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        self.resolve_capture(v, pos, written)
    }

    /// `Nxe3`, `bxa8=Q`: written as an ordinary capture onto the square passed over (EA-5).
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let mut out = String::new();
        if v.role(mv.piece.kind) == Role::Pawn {
            out.push(char::from(b'a' + g.file(mv.from)));
        } else {
            out.push(v.piece(mv.piece.kind).letter);
            let mut rivals = Vec::new();
            captures(
                v,
                pos,
                pos.pieces(mv.piece.color, mv.piece.kind) & !mv.from.bit(),
                mv.to.bit(),
                &mut rivals,
            );
            rivals.retain(|r| !v.leaves_king_attacked(pos, r));
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|r| g.file(r.from) == g.file(mv.from));
                let same_rank = rivals.iter().any(|r| g.rank(r.from) == g.rank(mv.from));
                if !same_file {
                    out.push(char::from(b'a' + g.file(mv.from)));
                } else if !same_rank {
                    out.push_str(&(g.rank(mv.from) + 1).to_string());
                } else {
                    out.push_str(&g.name(mv.from));
                }
            }
        }
        out.push('x');
        finish(v, mv, &mut out);
        out
    }

    /// `Nc2xe3`.
    fn lan(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let mut out = String::new();
        if v.role(mv.piece.kind) != Role::Pawn {
            out.push(v.piece(mv.piece.kind).letter);
        }
        out.push_str(&v.geometry.name(mv.from));
        out.push('x');
        finish(v, mv, &mut out);
        out
    }
}

/// The square taken on and a promotion.
fn finish(v: &Variant, mv: &Move, out: &mut String) {
    out.push_str(&v.geometry.name(mv.to));
    if let Some(kind) = mv.promotion {
        out.push('=');
        out.push(v.piece(kind).letter);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn en_passant(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&EnPassantForAll, Some(pos.turn)).unwrap();
        pos
    }

    fn play(pos: &mut Position, token: &str) -> Move {
        let v = event_chess();
        let mv = san::resolve(v, pos, &Notation::parse(token).unwrap()).unwrap();
        v.play(pos, &mv);
        mv
    }

    #[test]
    fn a_slider_is_taken_on_a_square_it_passed_over() {
        let v = event_chess();
        let mut pos = en_passant("4k3/8/8/8/8/2n5/8/R3K3 w - - 0 1");
        play(&mut pos, "Ra5");
        let taken = play(&mut pos, "Nxa4");
        assert_eq!(taken.captured.map(|p| p.kind), v.kind_of_letter('R'));
        assert!(pos.piece_at(sq("a5")).is_none(), "EA-1");
        assert_eq!(pos.captures, [0, 1], "EC-2 counts it");
    }

    #[test]
    fn the_castling_rook_passes_squares() {
        let v = event_chess();
        let mut pos = en_passant("4k3/8/8/8/8/n7/8/R3K3 w Q - 0 1");
        play(&mut pos, "O-O-O");
        play(&mut pos, "Nxb1");
        assert!(pos.piece_at(sq("d1")).is_none(), "EA-2");
        assert_eq!(
            pos.piece_at(sq("b1")).map(|p| p.kind),
            v.kind_of_letter('N')
        );
    }
}
