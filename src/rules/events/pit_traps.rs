//! Event #9 Pit Traps (catalogue; rulings PT-1 to PT-6 in
//! `docs/rules/event-9-pit-traps.md`): each player secretly picks an empty square, his
//! pit; any piece that ends a move on a pit falls in and leaves the board, and a king that
//! falls in loses the game for its owner.
//!
//! A record may give the pits (`[%event 9 e4 d5]`) or keep them secret; a secret pit comes
//! out by the move that falls in, written with `@` and its landing square (`Ng5@g5`,
//! PT-5).

use crate::command::Choice;
use crate::notation::{MoveBody, Notation, PieceMove, Square};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState, Form, Overlay};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct PitTraps;

/// The event's number.
const NUMBER: u16 = 9;

/// What the event's slot keeps of the two pits, indexed by the color of the player who
/// picked each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pits {
    /// The squares that may still be a secret pit: empty when the event started, and
    /// stood on by no piece since (PT-1, PT-5).
    open: Bitboard,
    /// Each pit, once the command states it or a fall tells it.
    known: [Option<Sq>; 2],
    /// Whether each player's king has fallen into a pit (PT-4).
    fallen: [bool; 2],
    /// The kinds of piece each player has lost to a pit, bit `kind` of his byte: a move
    /// of a kind he has no more of says why (PT-2).
    lost: u16,
}

fn square_word(sq: Option<Sq>) -> u16 {
    sq.map_or(0, |sq| u16::from(sq.0) + 1)
}

fn word_square(word: u16) -> Option<Sq> {
    word.checked_sub(1).map(|i| Sq(i as u8))
}

impl Pits {
    fn load(pos: &Position) -> Option<Pits> {
        let state = pos.event_state(NUMBER)?;
        let flags = state.words[0];
        Some(Pits {
            open: state.boards[0],
            known: [word_square(state.words[1]), word_square(state.words[2])],
            fallen: [flags & 1 != 0, flags & 2 != 0],
            lost: state.words[3],
        })
    }

    fn store(self, pos: &mut Position) {
        let flags = u16::from(self.fallen[0]) | u16::from(self.fallen[1]) << 1;
        pos.set_event_state(
            NUMBER,
            EventState {
                boards: [self.open, Bitboard::EMPTY],
                words: [
                    flags,
                    square_word(self.known[0]),
                    square_word(self.known[1]),
                    self.lost,
                ],
            },
        );
    }

    /// The known pits.
    fn squares(&self) -> Bitboard {
        self.known
            .iter()
            .flatten()
            .fold(Bitboard::EMPTY, |all, sq| all | sq.bit())
    }

    /// Whether a piece of `color` and `kind` has fallen into a pit.
    fn has_lost(&self, color: Color, kind: Kind) -> bool {
        kind.index() < 8 && self.lost >> (color.index() * 8 + kind.index()) & 1 != 0
    }

    /// The square names of the known pits, for messages.
    fn names(&self, v: &Variant) -> Vec<String> {
        self.known
            .iter()
            .flatten()
            .map(|&sq| v.geometry.name(sq))
            .collect()
    }
}

/// The square a written move names after `@` as a fall (PT-5): a placement with no
/// letter on the move's own landing square (`Ng5@g5`, `Bxe6@e6`). `Rxe1@h1` (#3, #126)
/// puts a captured piece elsewhere and is no fall.
fn fall_note(written: &PieceMove) -> Option<Square> {
    let placed = written.placed.filter(|p| p.piece.is_none())?;
    (written.targets.last()?.square == placed.square).then_some(placed.square)
}

/// Whether the landing of `mv` is one the record writes a fall on: the moving piece's
/// own landing, not a castling rook's nor a piece an event's own move carries (PT-5).
fn written_landing(mv: &Move) -> bool {
    !matches!(mv.special, Special::Castle { .. } | Special::Event { .. })
}

/// PT-2: why a written move of a kind the mover has no more of is refused, where one of
/// them fell into a pit.
fn fallen_kind(v: &Variant, pos: &Position, pits: &Pits, written: &PieceMove) -> Option<Rejection> {
    let kind = san::written_kind(v, written).ok().flatten()?;
    let us = pos.turn;
    if written.piece.is_none()
        || (pos.by_color(us) & pos.by_kind(kind)).nonempty()
        || !pits.has_lost(us, kind)
    {
        return None;
    }
    let name = &v.piece(kind).name;
    Some(san::illegal(
        format!(
            "{us} has no {name}: a {us} {name} ended a move on a pit and fell in, and a piece that falls in leaves the board for good (PT-2; known pits: {})",
            san::list(&pits.names(v))
        ),
        san::legal_help(v, pos, &san::written(written), None),
    ))
}

/// PT-3: why a written move is illegal where each of its readings falls into a pit and
/// so leaves the own king in check (the piece in the pit shields nothing).
fn exposed_by_fall(
    v: &Variant,
    pos: &Position,
    pits: &Pits,
    written: &PieceMove,
) -> Option<Rejection> {
    let candidates = san::candidates(v, pos, written);
    let falls = |mv: &Move| written_landing(mv) && pits.squares().contains(mv.to);
    let exposed = candidates
        .iter()
        .find(|mv| falls(mv) && v.leaves_king_attacked(pos, mv))?;
    if candidates.iter().any(|mv| !v.leaves_king_attacked(pos, mv)) {
        return None;
    }
    Some(san::illegal(
        format!(
            "{}: the piece would fall into the pit on {} and shield nothing (PT-3)",
            san::king_exposed(v, pos, exposed),
            v.geometry.name(exposed.to)
        ),
        san::legal_help(v, pos, &san::written(written), Some(exposed.piece.kind)),
    ))
}

static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Pit Traps",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["PT-1", "PT-2", "PT-3", "PT-4", "PT-5", "PT-6"],
    page: "docs/rules/event-9-pit-traps.md",
};

impl Event for PitTraps {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::CapturedTo
    }

    fn takes_choices(&self) -> bool {
        true
    }

    /// PT-4: a king that falls in leaves its side without one.
    fn captures_kings(&self) -> bool {
        true
    }

    /// Which pits are known and whose king fell change what the position is.
    fn state_key(&self, state: &EventState) -> u64 {
        (u64::from(state.words[0]) << 32
            | u64::from(state.words[1]) << 16
            | u64::from(state.words[2]))
        .wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// PT-1: the pits may be any squares empty now; the command gives White's then
    /// Black's, `?` keeping one secret.
    fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        let g = v.geometry;
        let mut pits = Pits {
            open: g.all() & !pos.occupied(),
            ..Pits::default()
        };
        pits.store(pos);
        if choices.is_empty() {
            return Ok(());
        }
        let squares = choices
            .iter()
            .map(|choice| match choice {
                Choice::Square(square) => g
                    .from_square(*square)
                    .map(Some)
                    .ok_or_else(|| format!("{square} is not on the board")),
                Choice::Secret => Ok(None),
                Choice::Facing { .. } => Err(format!(
                    "`{choice}` is no square: #9 takes the two pits, White's then Black's (PT-1)"
                )),
            })
            .collect::<Result<Vec<Option<Sq>>, String>>()?;
        let [white, black] = squares[..] else {
            return Err(format!(
                "#9 takes two squares, White's pit then Black's, not {} (PT-1); the pits stay secret",
                squares.len()
            ));
        };
        for (color, sq) in Color::BOTH.into_iter().zip([white, black]) {
            let Some(sq) = sq else {
                continue;
            };
            if !pits.open.contains(sq) {
                return Err(format!(
                    "{color}'s pit {} holds {}, and a pit is an empty square when the event starts (PT-1); the pits stay secret",
                    g.name(sq),
                    san::describe_piece(v, pos, sq)
                ));
            }
            pits.known[color.index()] = Some(sq);
        }
        pits.store(pos);
        Ok(())
    }

    /// Two empty squares (PT-1).
    fn random_choices(
        &self,
        v: &Variant,
        pos: &Position,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<String> {
        let empty = super::names(v, v.geometry.all() & !pos.occupied());
        Some(format!(
            "{} {}",
            super::pick_one(&empty, pick)?,
            super::pick_one(&empty, pick)?
        ))
    }

    /// Each pit as `e4` (`?` secret), then `!w`/`!b` for a side whose king fell.
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let Some(pits) = Pits::load(pos) else {
            return Vec::new();
        };
        let mut words: Vec<String> = pits
            .known
            .iter()
            .map(|sq| sq.map_or("?".to_owned(), |sq| v.geometry.name(sq)))
            .collect();
        for (color, flag) in Color::BOTH.into_iter().zip(["!w", "!b"]) {
            if pits.fallen[color.index()] {
                words.push(flag.to_owned());
            }
        }
        words
    }

    /// Reads [`PitTraps::write_fen`]'s words; a secret pit may be any empty square.
    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let (flags, squares): (Vec<&str>, Vec<&str>) =
            words.iter().partition(|w| w.starts_with('!'));
        let [white, black] = squares[..] else {
            return Err("#9 keeps two pits, White's then Black's (`?` when secret)".to_owned());
        };
        let mut pits = Pits {
            open: v.geometry.all() & !pos.occupied(),
            ..Pits::default()
        };
        for (i, word) in [white, black].into_iter().enumerate() {
            if word != "?" {
                pits.known[i] = Some(super::fen_square(v, word)?);
            }
        }
        for flag in flags {
            match flag {
                "!w" => pits.fallen[0] = true,
                "!b" => pits.fallen[1] = true,
                _ => return Err(format!("`{flag}`: !w or !b marks a king that fell")),
            }
        }
        pits.store(pos);
        Ok(())
    }

    /// The known pits, framed, and a line naming them.
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let Some(pits) = Pits::load(pos) else {
            return;
        };
        let words: Vec<String> = Color::BOTH
            .into_iter()
            .map(|c| {
                let square =
                    pits.known[c.index()].map_or("secret".to_owned(), |sq| v.geometry.name(sq));
                format!("{c} {square}")
            })
            .collect();
        out.doorways.extend(pits.known.iter().flatten());
        out.lines
            .push(format!("pits: {} (framed *)", words.join(", ")));
    }

    /// PT-2, PT-3: every piece standing on a known pit once a move is on the board has
    /// just arrived there (no piece can stand on one), so it falls in: off the board with
    /// its marks, no capture by anyone (EC-2 does not count it), a rook taking its
    /// castling right along. PT-4: a king that falls in loses. With a pit secret, a
    /// square a piece stands on without falling is no pit (PT-5).
    fn before_turn_passes(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let Some(mut pits) = Pits::load(pos) else {
            return;
        };
        let fell = pos.occupied() & pits.squares();
        for sq in fell {
            let Some(piece) = pos.remove(sq) else {
                continue;
            };
            if v.role(piece.kind) == Role::King {
                pits.fallen[piece.color.index()] = true;
            }
            if piece.kind.index() < 8 {
                pits.lost |= 1 << (piece.color.index() * 8 + piece.kind.index());
            }
        }
        if fell.nonempty() {
            pos.set_castling(pos.castling & !fell);
        }
        // A pawn that double-stepped into a pit leaves nothing to take en passant.
        if mv.special == Special::DoubleStep && fell.contains(mv.to) {
            pos.ep = None;
        }
        pits.open &= !pos.occupied();
        pits.store(pos);
    }

    /// PT-4: the opponent of a player whose king fell into a pit.
    fn winner(&self, _v: &Variant, pos: &Position) -> Option<Color> {
        let pits = Pits::load(pos)?;
        Color::BOTH
            .into_iter()
            .find(|c| pits.fallen[c.index()])
            .map(Color::other)
    }

    fn victory(&self, winner: Color) -> (&'static str, String) {
        (
            "king-in-pit",
            format!(
                "the {} king fell into a pit, and {winner} won (PT-4)",
                winner.other()
            ),
        )
    }

    /// PT-5: `Ng5@g5` says a pit is on g5; with that square still possible for a secret
    /// pit, it is the opponent's (his own when the opponent's is known).
    fn reveal(
        &self,
        v: &Variant,
        pos: &mut Position,
        written: &PieceMove,
    ) -> Result<(), Rejection> {
        let (Some(mut pits), Some(square)) = (Pits::load(pos), fall_note(written)) else {
            return Ok(());
        };
        let sq = san::on_board(v, square)?;
        if pits.squares().contains(sq) {
            return Ok(());
        }
        let them = pos.turn.other();
        let Some(owner) = [them, pos.turn]
            .into_iter()
            .find(|c| pits.known[c.index()].is_none())
        else {
            return Err(san::illegal(
                format!(
                    "`@{square}` says the piece falls into a pit on {square}, but both pits are known ({}) and {square} is neither (PT-5)",
                    san::list(&pits.names(v))
                ),
                Some(format!("write the move without `@{square}`")),
            ));
        };
        if !pits.open.contains(sq) {
            return Err(san::illegal(
                format!(
                    "`@{square}` says the piece falls into a pit on {square}, but {square} cannot be a pit: a pit is a square that was empty when the event started, and a piece has stood on {square} since without falling in (PT-1, PT-5)"
                ),
                Some(format!("write the move without `@{square}`")),
            ));
        }
        pits.known[owner.index()] = Some(sq);
        pits.store(pos);
        Ok(())
    }

    /// PT-4: no move after a king fell. PT-5: a move written with its fall.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let pits = Pits::load(pos)?;
        if let Some(winner) = self.winner(v, pos) {
            return Some(Err(san::illegal(
                format!(
                    "the game is over: the {} king fell into a pit (PT-4)",
                    winner.other()
                ),
                None,
            )));
        }
        let stripped = PieceMove {
            placed: None,
            ..written.clone()
        };
        if let Some(gone) = fallen_kind(v, pos, &pits, &stripped) {
            return Some(Err(gone));
        }
        let Some(square) = fall_note(written) else {
            return exposed_by_fall(v, pos, &pits, &stripped).map(Err);
        };
        let notation = Notation {
            body: MoveBody::Piece(stripped.clone()),
            check: None,
            assessment: None,
        };
        Some(match san::resolve(v, pos, &notation) {
            Ok(mv) if written_landing(&mv) && pits.squares().contains(mv.to) => Ok(mv),
            Ok(mv) => Err(san::illegal(
                format!(
                    "`@{square}` says the piece falls into a pit on {square}, but `{}` ends on {} (PT-5)",
                    san::san_plain(v, pos, &mv),
                    v.geometry.name(mv.to)
                ),
                Some(format!("write `{}`", san::san(v, pos, &mv))),
            )),
            Err(rejection) => Err(exposed_by_fall(v, pos, &pits, &stripped).unwrap_or(rejection)),
        })
    }

    /// PT-5: a move whose piece lands on a known pit is written with its fall, `@g5`.
    fn annotate(&self, v: &Variant, pos: &Position, mv: &Move, out: &mut String) {
        let Some(pits) = Pits::load(pos) else {
            return;
        };
        if written_landing(mv) && pits.squares().contains(mv.to) {
            out.push('@');
            out.push_str(&v.geometry.name(mv.to));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn with_pits(fen: &str, squares: Option<[&str; 2]>) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&PitTraps, None).unwrap();
        let choices: Vec<Choice> = squares
            .into_iter()
            .flatten()
            .map(|s| {
                if s == "?" {
                    Choice::Secret
                } else {
                    Choice::Square(Square::parse(s).unwrap())
                }
            })
            .collect();
        PitTraps.begin(v, &mut pos, &choices).unwrap();
        pos
    }

    fn resolve(pos: &mut Position, written: &str) -> Result<Move, Rejection> {
        let v = event_chess();
        let notation = Notation::parse(written).unwrap();
        if let MoveBody::Piece(m) = &notation.body {
            PitTraps.reveal(v, pos, m)?;
        }
        san::resolve(v, pos, &notation)
    }

    fn play(pos: &mut Position, written: &str) -> Move {
        let mv = resolve(pos, written).unwrap_or_else(|r| panic!("{written}: {}", r.reason));
        event_chess().play(pos, &mv);
        mv
    }

    #[test]
    fn a_piece_ending_on_a_pit_falls_in_and_the_pit_stays() {
        let v = event_chess();
        let mut pos = with_pits("4k3/8/8/8/8/8/8/R3K1N1 w - - 0 1", Some(["a4", "f3"]));
        let before = pos.clone();
        let mv = play(&mut pos, "Nf3");
        assert_eq!(san::san_plain(v, &before, &mv), "Nf3@f3", "PT-5");
        assert!(pos.piece_at(sq("f3")).is_none(), "PT-2: own pits catch too");
        play(&mut pos, "Kd7");
        play(&mut pos, "Ra4@a4");
        assert!(pos.piece_at(sq("a4")).is_none(), "PT-2: the pit stays");
        play(&mut pos, "Kd8");
        let refused = resolve(&mut pos, "Ra8").unwrap_err();
        assert!(refused.reason.contains("fell in"), "{}", refused.reason);
        assert_eq!(pos.castling, Bitboard::EMPTY);
        assert_eq!(v.winner(&pos), None);
    }

    #[test]
    fn a_capture_onto_a_pit_takes_the_victim_and_then_the_capturer() {
        // PT-2: no piece stands on a pit, so only en passant (or a passage's entry)
        // captures onto one; the victim is taken, then the capturer falls in.
        let v = event_chess();
        let mut pos = with_pits("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", Some(["?", "?"]));
        play(&mut pos, "d5");
        play(&mut pos, "exd6@d6");
        assert_eq!(pos.occupied(), sq("e8").bit() | sq("e1").bit());
        assert_eq!(Pits::load(&pos).unwrap().known, [None, Some(sq("d6"))]);
        assert_eq!(v.winner(&pos), None);
    }

    #[test]
    fn a_blocker_that_falls_in_shields_nothing() {
        // PT-3: the knight's only blocking square is White's pit.
        let v = event_chess();
        let pos = with_pits("4r1k1/8/8/8/8/8/3N4/4K3 w - - 0 1", Some(["e4", "a6"]));
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        let sans: Vec<String> = moves.iter().map(|m| san::san_plain(v, &pos, m)).collect();
        assert!(!sans.iter().any(|s| s.starts_with("Ne4")), "{sans:?}");
        let refused = san::resolve(v, &pos, &Notation::parse("Ne4@e4").unwrap()).unwrap_err();
        assert!(refused.reason.contains("PT-3"), "{}", refused.reason);
    }

    #[test]
    fn a_king_that_falls_in_loses_at_once() {
        let v = event_chess();
        let mut pos = with_pits("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Some(["d2", "h8"]));
        play(&mut pos, "Kd2@d2");
        assert_eq!(v.winner(&pos), Some(Color::Black), "PT-4");
        assert!(
            resolve(&mut pos, "Kd7")
                .unwrap_err()
                .reason
                .contains("PT-4")
        );
        let fen = crate::rules::write_fen(v, &pos);
        assert!(fen.contains("d2,h8,!w"), "{fen}");
        let back = parse_fen(v, &fen).unwrap();
        assert_eq!(v.winner(&back), Some(Color::Black));
    }

    #[test]
    fn a_secret_pit_is_told_by_the_fall_and_a_landing_without_it_proves_none() {
        let mut pos = with_pits("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", None);
        play(&mut pos, "Ra4");
        play(&mut pos, "Kd7");
        play(&mut pos, "Ra1");
        play(&mut pos, "Kd8");
        let refused = resolve(&mut pos.clone(), "Ra4@a4").unwrap_err();
        assert!(refused.reason.contains("PT-5"), "{}", refused.reason);
        play(&mut pos, "Ra5@a5");
        let pits = Pits::load(&pos).unwrap();
        assert_eq!(pits.known, [None, Some(sq("a5"))], "the opponent's pit");
        play(&mut pos, "Kd7");
        play(&mut pos, "Kd2@d2");
        assert_eq!(Pits::load(&pos).unwrap().known[0], Some(sq("d2")));
        assert_eq!(event_chess().winner(&pos), Some(Color::Black));
    }

    #[test]
    fn a_pit_must_be_empty_and_the_note_must_name_the_landing() {
        let v = event_chess();
        let mut pos = parse_fen(v, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        pos.start_event(&PitTraps, None).unwrap();
        let choices = [Choice::Square(Square::parse("a1").unwrap()), Choice::Secret];
        let why = PitTraps.begin(v, &mut pos, &choices).unwrap_err();
        assert!(why.contains("PT-1"), "{why}");
        let mut pos = with_pits("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Some(["a4", "a6"]));
        let refused = resolve(&mut pos, "Ra5@a5").unwrap_err();
        assert!(
            refused.reason.contains("both pits are known"),
            "{}",
            refused.reason
        );
    }
}
