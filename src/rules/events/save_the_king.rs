//! Event #3 Save the king! (catalogue, newest wording; rulings SV-1 to SV-8 in
//! `docs/rules/event-3-save-the-king.md`): when it starts the two kings swap squares.
//! Kings are no longer royal: never in check, free to stand attacked, and they may not
//! capture. A king that is captured stays in play: the capturer puts it on an empty
//! square of his choice, which the move names after `@` (`Rxe1@h1`). A player wins as
//! soon as his own king stands on his own first rank.

use crate::command::Choice;
use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventType, Form};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct SaveTheKing;

const NUMBER: u16 = 3;

/// The square a king capture puts the king on (`Special::Event` data, SV-4).
fn placement(mv: &Move) -> Option<Sq> {
    match mv.special {
        Special::Event {
            number: NUMBER,
            data,
        } => u8::try_from(data).ok().map(Sq),
        _ => None,
    }
}

/// The own first rank of `color`: the 1st for white, the 8th for black (SV-5).
fn home_rank(v: &Variant, color: Color) -> Bitboard {
    v.geometry.rank_mask(match color {
        Color::White => 0,
        Color::Black => v.geometry.height - 1,
    })
}

/// The players whose king stands on their own first rank (SV-5).
fn home(v: &Variant, pos: &Position) -> Vec<Color> {
    Color::BOTH
        .into_iter()
        .filter(|&color| (pos.kings(v, color) & home_rank(v, color)).nonempty())
        .collect()
}

/// Whether `mv` is a capture made by a king, which SV-3 forbids.
fn king_captures(v: &Variant, mv: &Move) -> bool {
    mv.is_capture() && v.role(mv.piece.kind) == Role::King
}

/// The squares a capture by the piece on `from` of the piece on `to` leaves empty, where
/// the captured king may go (SV-4): the capturer's square is one of them.
fn free_after(v: &Variant, pos: &Position, from: Sq, to: Sq) -> Bitboard {
    (!pos.occupied() | from.bit()) & !to.bit() & v.geometry.all()
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Save the king!",
    aliases: &[],
    types: &[EventType::RoyalModifier, EventType::RemoveCheck],
    condition: Condition::pieces_each(&[('K', 1)]),
    rulings: &[
        "SV-1", "SV-2", "SV-3", "SV-4", "SV-5", "SV-6", "SV-7", "SV-8", "EC-2",
    ],
    page: "docs/rules/event-3-save-the-king.md",
};

impl Event for SaveTheKing {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::CapturedTo
    }

    /// SV-8: beside the pieces its Condition names, it does not start next to another
    /// event that needs a king each.
    fn condition(&self, v: &Variant, pos: &Position) -> Result<(), String> {
        INFO.condition.check_pieces(v, pos)?;
        match pos.events().into_iter().find(|e| {
            e.info()
                .condition
                .pieces_each
                .iter()
                .any(|&(l, _)| l == 'K')
        }) {
            Some(other) => Err(format!(
                "event #{} {} is running and needs a king each (SV-8)",
                other.number(),
                other.name()
            )),
            None => Ok(()),
        }
    }

    /// SV-1: the kings swap squares (with their marks) and nobody may castle any more.
    fn begin(&self, v: &Variant, pos: &mut Position, _choices: &[Choice]) -> Result<(), String> {
        if let (Some(white), Some(black)) = (
            pos.kings(v, Color::White).first(),
            pos.kings(v, Color::Black).first(),
        ) {
            let white_king = pos.lift(white).expect("the white king");
            let black_king = pos.lift(black).expect("the black king");
            pos.place(black, white_king);
            pos.place(white, black_king);
        }
        pos.set_castling(Bitboard::EMPTY);
        Ok(())
    }

    /// The swap happened when the event started; the FEN shows the board after it.
    fn read_fen(&self, _v: &Variant, _pos: &mut Position, _words: &[&str]) -> Result<(), String> {
        Ok(())
    }

    fn why_no_castling(
        &self,
        _v: &Variant,
        _pos: &Position,
        _color: Color,
    ) -> Option<&'static str> {
        Some("the kings swapped squares when event #3 Save the king! started (SV-1)")
    }

    /// SV-2: no piece is royal, so nobody is ever in check and the kings' number is free.
    fn royals(&self, _v: &Variant, _pos: &Position, _color: Color) -> Option<Bitboard> {
        Some(Bitboard::EMPTY)
    }

    /// SV-5: no material is too little, since a lone king can still walk home.
    fn captures_kings(&self) -> bool {
        true
    }

    /// SV-4: a capture of a king becomes one move per square it may be put on.
    fn reroute(
        &self,
        v: &Variant,
        pos: &Position,
        _from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
        start: usize,
    ) {
        let them = pos.turn.other();
        if (pos.kings(v, them) & to).is_empty() {
            return;
        }
        let generated = out.split_off(start);
        for mv in generated {
            let takes_king = mv
                .captured
                .is_some_and(|p| p.color == them && v.role(p.kind) == Role::King);
            if !takes_king {
                out.push(mv);
                continue;
            }
            // Only a capture that lands on the king's square can put it back; another
            // event's capture of it elsewhere (#42's tank stopping behind it, #5's exit)
            // would take it off the board, so it is not offered.
            if mv.special != Special::Normal || pos.piece_at(mv.to) != mv.captured {
                continue;
            }
            for square in free_after(v, pos, mv.from, mv.to) {
                out.push(Move {
                    special: Special::Event {
                        number: NUMBER,
                        data: square.0.into(),
                    },
                    ..mv
                });
            }
        }
    }

    /// SV-3: kings may not capture.
    fn allows(&self, v: &Variant, _pos: &Position, mv: &Move) -> bool {
        !king_captures(v, mv)
    }

    fn why_refused(&self, _v: &Variant, _pos: &Position, _mv: &Move) -> String {
        "a king may not capture while event #3 Save the king! runs (SV-3)".to_owned()
    }

    /// The capturer lands on the king's square and the king, with its marks, goes to the
    /// square the move names (SV-4); it counts as a capture for EC-2 (SV-7).
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let Some(square) = placement(mv) else {
            return;
        };
        let king = pos.lift(mv.to).expect("the captured king");
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
        pos.place(square, king);
        // The capturer has landed as in any capture: the events that follow a landing
        // (#29's facing chosen with the move) do so here too.
        for event in pos.events() {
            event.after_landing(v, pos, mv);
        }
        pos.halfmoves = 0;
        let count = &mut pos.captures[mv.piece.color.index()];
        *count = count.saturating_add(1);
    }

    /// SV-5, SV-6: the player whose king stands on his own first rank; when both do
    /// (only the swap can bring that about) neither wins by it.
    fn winner(&self, v: &Variant, pos: &Position) -> Option<Color> {
        match home(v, pos).as_slice() {
            [color] => Some(*color),
            _ => None,
        }
    }

    fn victory(&self, winner: Color) -> (&'static str, String) {
        (
            "king-home",
            format!(
                "the {winner} king stands on {winner}'s own first rank, which wins under event #3 Save the king! (SV-5)"
            ),
        )
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        self.resolve_king_capture(v, pos, written)
    }

    /// `Rxe1@h1`, `exd8=Q@a5`: the capture as SAN writes it, then the square the king is
    /// put on.
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let mut out = String::new();
        if v.role(mv.piece.kind) == Role::Pawn {
            out.push(char::from(b'a' + g.file(mv.from)));
        } else {
            out.push(v.piece(mv.piece.kind).letter);
            let mut rivals = Vec::new();
            v.legal_moves_between(
                pos,
                pos.pieces(mv.piece.color, mv.piece.kind) & !mv.from.bit(),
                mv.to.bit(),
                &mut rivals,
            );
            rivals.retain(|r| placement(r).is_some());
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

    /// `Ra1xe1@h1`.
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

    fn placed(&self, v: &Variant, _pos: &Position, mv: &Move) -> Option<(char, Sq)> {
        let square = placement(mv)?;
        let king = mv.captured?;
        Some((v.piece(king.kind).letter, square))
    }
}

/// The target square, the promotion and `@` with the square the king is put on.
fn finish(v: &Variant, mv: &Move, out: &mut String) {
    let g = v.geometry;
    out.push_str(&g.name(mv.to));
    if let Some(kind) = mv.promotion {
        out.push('=');
        out.push(v.piece(kind).letter);
    }
    if let Some(square) = placement(mv) {
        out.push('@');
        out.push_str(&g.name(square));
    }
}

impl SaveTheKing {
    /// Reads `Rxe1@h1` (SV-4) and refuses a capture of a king written without `@` or
    /// with a square that is not free; `None` for any other move, so that a captured-to
    /// form of another event (#126's own captures) reaches it.
    fn resolve_king_capture(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let us = pos.turn;
        let square = match written.placed {
            Some(placed) if placed.piece.is_none() => Some(placed.square),
            Some(_) => return None,
            None => None,
        };
        let (last, origin) = match written.targets.as_slice() {
            [last] => (last, None),
            [origin, last] if origin.separator == Separator::None => (last, Some(origin)),
            _ => return None,
        };
        let to = g.from_square(last.square)?;
        let text = san::written(written);
        let Some(king) = pos
            .piece_at(to)
            .filter(|p| p.color != us && v.role(p.kind) == Role::King)
        else {
            // An own piece taken is #126's to read; `@` after anything else is refused.
            let own = pos.piece_at(to).is_some_and(|p| p.color == us);
            return (square.is_some() && !own).then(|| {
                Err(san::illegal(
                    format!(
                        "`@` after a capture puts a captured king on a square, and {} holds no {} king (SV-4)",
                        g.name(to),
                        us.other()
                    ),
                    san::legal_help(v, pos, &text, None),
                ))
            });
        };
        let mut from = san::hinted_origins(v, written.hint) & pos.by_color(us);
        if let Some(origin) = origin {
            from &= g.from_square(origin.square)?.bit();
        }
        let kind = match san::written_kind(v, written) {
            Ok(kind) => kind,
            Err(rejection) => return Some(Err(rejection)),
        };
        if let Some(kind) = kind.filter(|_| written.piece.is_some() || origin.is_none()) {
            from &= pos.by_kind(kind);
        }
        let promotion = match san::promotion_kind(v, pos, written, last.promotion) {
            Ok(kind) => kind,
            Err(rejection) => return Some(Err(rejection)),
        };
        let mut legal = Vec::new();
        v.legal_moves_between(pos, from, to.bit(), &mut legal);
        legal.retain(|mv| {
            placement(mv).is_some()
                && mv.promotion == promotion
                && san::choices_match(v, pos, written, mv)
        });
        let taken = san::describe(v, pos, to);
        if legal.is_empty() {
            let mut pseudo = Vec::new();
            v.pseudo_moves(pos, from, to.bit(), &mut pseudo);
            let reason = if pseudo.iter().any(|mv| king_captures(v, mv)) {
                format!("a king may not capture, not even {taken} (SV-3)")
            } else {
                format!("no {us} piece can take {taken} as written")
            };
            return Some(Err(san::illegal(
                reason,
                san::legal_help(v, pos, &text, None),
            )));
        }
        let free = free_after(v, pos, legal[0].from, to);
        // Most squares are free: name the few that are not.
        let squares = if free.count() > 16 {
            let taken: Vec<String> = (g.all() & !free).map(|sq| g.name(sq)).collect();
            format!("any but {}", san::list(&taken))
        } else {
            let free: Vec<String> = free.map(|sq| g.name(sq)).collect();
            san::list(&free).replace(" and ", " or ")
        };
        let capture = {
            let mut spelled = self.san(v, pos, &legal[0]);
            spelled.truncate(spelled.rfind('@').unwrap_or(spelled.len()));
            spelled
        };
        let choose = || {
            Some(format!(
                "write `{capture}@` and a square empty once the capture is made: {squares}"
            ))
        };
        let Some(square) = square else {
            return Some(Err(san::illegal(
                format!(
                    "{taken} is captured but stays in play: the capturer puts it on an empty square of his choice, which the move names after `@` (SV-4)"
                ),
                choose(),
            )));
        };
        let square = match san::on_board(v, square) {
            Ok(square) => square,
            Err(rejection) => return Some(Err(rejection)),
        };
        if let Some(mv) = legal.iter().find(|mv| placement(mv) == Some(square)) {
            return Some(Ok(*mv));
        }
        let reason = if square == to {
            format!(
                "the captured king cannot stay on {}, where the capturer lands (SV-4)",
                g.name(square)
            )
        } else if legal
            .iter()
            .any(|mv| free_after(v, pos, mv.from, to).contains(square))
        {
            return Some(Err(san::ambiguous(v, pos, &legal)));
        } else {
            format!(
                "{} is not empty once the capture is made, so the {} king cannot be put there (SV-4)",
                g.name(square),
                king.color
            )
        };
        Some(Err(san::illegal(reason, choose())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, write_fen};

    fn started(fen: &str) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&SaveTheKing, Some(pos.turn)).unwrap();
        SaveTheKing.begin(v, &mut pos, &[]).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn the_kings_swap_and_nobody_castles() {
        let v = event_chess();
        let pos = started("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(pos.kings(v, Color::White).first(), Some(sq("e8")), "SV-1");
        assert_eq!(pos.kings(v, Color::Black).first(), Some(sq("e1")), "SV-1");
        assert!(pos.castling.is_empty(), "SV-1");
        let fen = write_fen(v, &pos);
        let again = parse_fen(v, &fen).unwrap();
        assert_eq!(
            again.key(v),
            pos.key(v),
            "read back without a second swap: {fen}"
        );
    }

    #[test]
    fn kings_stand_attacked_and_do_not_capture() {
        let v = event_chess();
        // After the swap the white king stands on e8, in the black rook's line.
        let pos = started("4k3/4r3/8/8/8/8/8/4K3 w - - 0 1");
        assert!(!pos.is_check(v), "SV-2");
        let refused = resolve(&pos, "Kxe7").unwrap_err();
        assert!(refused.reason.contains("SV-3"), "{}", refused.reason);
        assert!(resolve(&pos, "Kd7").is_ok(), "SV-2: into the rook's line");
    }

    #[test]
    fn a_captured_king_goes_where_the_capturer_puts_it() {
        let v = event_chess();
        let pos = started("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        // Kings swapped: black's on e1 next to the rook's rank.
        let mv = resolve(&pos, "Rxe1@h5").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &mv);
        assert_eq!(after.kings(v, Color::Black).first(), Some(sq("h5")));
        assert_eq!(after.captures, [1, 0], "SV-7");
        assert_eq!(san::san(v, &pos, &mv), "Rxe1@h5");
        let bare = resolve(&pos, "Rxe1").unwrap_err();
        assert!(bare.reason.contains("SV-4"), "{}", bare.reason);
        let taken = resolve(&pos, "Rxe1@e8").unwrap_err();
        assert!(taken.reason.contains("not empty"), "{}", taken.reason);
        // SV-4: the capturer's own square is free once it has moved.
        assert!(resolve(&pos, "Rxe1@a1").is_ok());
        // Put on its owner's first rank, it wins there.
        let gift = resolve(&pos, "Rxe1@h8").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &gift);
        assert_eq!(v.winner(&after), Some(Color::Black), "SV-5");
    }

    #[test]
    fn a_king_home_wins_and_both_home_wins_nobody() {
        let v = event_chess();
        let pos = started("8/8/8/8/8/8/8/k6K w - - 0 1");
        // The swap brings the white king to a1, its own first rank.
        assert_eq!(v.winner(&pos), Some(Color::White), "SV-6");
        let both = started("K7/8/8/8/8/8/8/7k w - - 0 1");
        assert_eq!(v.winner(&both), None, "SV-6");
    }
}
