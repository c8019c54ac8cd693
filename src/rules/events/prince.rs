//! Event #68 Prince (seed 003, rulings PR-1 to PR-5): kings cannot be checked until their
//! player loses one; a captured king comes back on the owner's chosen pawn (`Qxf7K@g7`),
//! and with that pawn gone, losing the king loses the game.

use super::picked_pawns::{PickedPawns, Wording};
use crate::command::Choice;
use crate::diagnostic::Diagnostic;
use crate::notation::{MoveBody, Notation, PieceMove};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{
    Condition, Event, EventInfo, EventState, EventType, Follower, Form, Moved, Overlay,
};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct Prince;

/// The event's number.
const NUMBER: u16 = 68;

/// The chosen pawns (PR-4): the event's mark layer follows them, its slot says whose is
/// known.
const CHOSEN: PickedPawns = PickedPawns {
    number: NUMBER,
    noun: "chosen pawn",
    nouns: "chosen pawns",
    ruling: "PR-4",
    wording: KING_AT,
};

/// How the record must write a king that comes back (PR-2, PR-4).
const KING_AT: Wording = Wording {
    letter: 'K',
    label: "a king capture",
    wrong_square: "the {owner} king comes back on {sq}, where the chosen {owner} pawn stands, not on {square} (PR-2)",
    gone: "the chosen {owner} pawn is no longer on the board, so capturing the king ends the game and no king comes back (PR-2)",
    missing: "the {owner} king comes back on the chosen pawn on {sq}: without `K@{sq}` the record claims the game ended here (PR-2)",
    certain: "no {owner} pawn has left the board since the event started, so the chosen one still stands and the king comes back on it: the record must say where, with `K@square` (PR-2, PR-4)",
};

/// Whether `color` has lost a king, so that his king can now be checked (PR-1): bit
/// `color` of the slot's first word.
pub fn is_checkable(pos: &Position, color: Color) -> bool {
    pos.event_state(NUMBER)
        .is_some_and(|state| state.words[0] >> color.index() & 1 != 0)
}

fn set_checkable(pos: &mut Position, color: Color) {
    if let Some(&state) = pos.event_state(NUMBER) {
        let mut state = state;
        state.words[0] |= 1 << color.index();
        pos.set_event_state(NUMBER, state);
    }
}

/// The pawns of `color` that may be its chosen one (PR-4), followed as they move.
pub fn chosen_pawns(pos: &Position, color: Color) -> Bitboard {
    CHOSEN.candidates(pos, color)
}

/// The king `mv` captures in `pos`, at its target or, through a passage, at the entry
/// (EC-9, EC-11: a capture at the entry is a capture too); none when a facing knight
/// swaps in to be captured instead (#85, LK-2).
pub fn captured_king(v: &Variant, pos: &Position, mv: &Move) -> Option<Piece> {
    let is_king = |p: &Piece| v.role(p.kind) == Role::King;
    mv.entry_capture_square(v, pos)
        .and_then(|sq| pos.piece_at(sq))
        .filter(is_king)
        .or(mv.captured.filter(is_king))
        .filter(|_| mv.swap.is_none())
}

/// Where the king `mv` captures in `pos` comes back: the owner's chosen pawn, when known
/// and still on the board (PR-2).
pub fn replacement(v: &Variant, pos: &Position, mv: &Move) -> Option<Sq> {
    pos.event_state(NUMBER)?;
    CHOSEN.picked(pos, captured_king(v, pos, mv)?.color)
}

impl Prince {
    /// Why a king capture that the new king turns against the mover is illegal (PR-3).
    fn new_king_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Rejection> {
        let g = v.geometry;
        let us = pos.turn;
        let target = g.from_square(written.targets.last()?.square)?;
        let kind = san::written_kind(v, written).ok()?;
        let mut from = pos.by_color(us);
        if let Some(kind) = kind.filter(|_| written.piece.is_some()) {
            from &= pos.by_kind(kind);
        }
        let mut moves = Vec::new();
        v.pseudo_moves(pos, from, target.bit(), &mut moves);
        moves.into_iter().find_map(|mv| {
            let new_king = replacement(v, pos, &mv)?;
            let mut after = pos.clone();
            v.play(&mut after, &mv);
            let attacked = after.checkable_kings(v, us).find(|&king| {
                after
                    .direct_attackers(v, king, us.other(), after.occupied())
                    .contains(new_king)
            })?;
            Some(san::illegal(
                format!(
                    "the {} pawn on {} would become a king attacking the {us} king on {}, which can be checked: the capture is illegal (PR-3)",
                    us.other(),
                    g.name(new_king),
                    g.name(attacked)
                ),
                san::legal_help(v, pos, &san::written(written), None),
            ))
        })
    }
}

/// Reads king captures in a record (PR-2, PR-4): `K@` must name the square where the king
/// comes back, and be left out only when the chosen pawn is gone.
struct PrinceFollower;

impl Follower for PrinceFollower {
    fn fork(&self, _ply: usize) -> Box<dyn Follower> {
        Box::new(PrinceFollower)
    }

    /// `false` when the line cannot go on: the record leaves out which secret pawn
    /// became the king.
    fn follow(&mut self, v: &Variant, moved: &Moved<'_>, out: &mut Vec<Diagnostic>) -> bool {
        // At the target or a passage entry (EC-9, EC-11), unless a knight swaps in (LK-2).
        let Some(captured) = captured_king(v, moved.before, moved.mv) else {
            return true;
        };
        let written = match &moved.written.body {
            MoveBody::Piece(m) => m.king_at(),
            // `hxg4K@h4,P@d7+`: #1's ally follows the move after a comma (CA-7).
            MoveBody::Turn(parts) => match &parts[..] {
                [MoveBody::Piece(m), MoveBody::Placement(_)] => m.king_at(),
                _ => None,
            },
            _ => None,
        };
        let comes_back = replacement(v, moved.before, moved.mv);
        CHOSEN.judge(v, moved, captured.color, written, comes_back, out)
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Prince",
    aliases: &[],
    types: &[EventType::RemoveCheck],
    condition: Condition::pieces_each(&[('K', 1)]),
    rulings: &["PR-1", "PR-2", "PR-3", "PR-4", "PR-5", "EC-8"],
    page: "docs/rules/event-68-prince.md",
};

impl Event for Prince {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Appears(b'K')
    }

    fn takes_choices(&self) -> bool {
        true
    }

    fn captures_kings(&self) -> bool {
        true
    }

    fn follower(&self, _: &Variant, _: &Position, _: usize) -> Option<Box<dyn Follower>> {
        Some(Box::new(PrinceFollower))
    }

    /// PR-5: a king made from a pawn never castles; its player is the one who lost one.
    fn why_no_castling(&self, _v: &Variant, pos: &Position, color: Color) -> Option<&'static str> {
        is_checkable(pos, color)
            .then_some("its king was made from a pawn, and such a king never castles (PR-5)")
    }

    /// Each side's chosen pawn (`?` secret, `x` gone), then `+w`/`+b` for a side whose
    /// king can now be checked (PR-1).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let mut words = CHOSEN.write_fen(v, pos);
        for (color, flag) in Color::BOTH.into_iter().zip(["+w", "+b"]) {
            if is_checkable(pos, color) {
                words.push(flag.to_owned());
            }
        }
        words
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        self.begin(v, pos, &[])?;
        let pawns: Vec<&str> = words
            .iter()
            .copied()
            .filter(|w| !w.starts_with('+'))
            .collect();
        CHOSEN.read_fen(v, pos, &pawns)?;
        for word in words.iter().filter_map(|w| w.strip_prefix('+')) {
            match word {
                "w" => set_checkable(pos, Color::White),
                "b" => set_checkable(pos, Color::Black),
                _ => {
                    return Err(format!(
                        "`+{word}`: +w or +b marks a king that can be checked"
                    ));
                }
            }
        }
        Ok(())
    }

    /// The known chosen pawns, marked `@`, and whose kings can be checked.
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let mut line = CHOSEN.overlay(v, pos, out);
        let checkable: Vec<&str> = Color::BOTH
            .into_iter()
            .filter(|&color| is_checkable(pos, color))
            .map(Color::name)
            .collect();
        if !checkable.is_empty() {
            line.push_str("; kings that can be checked: ");
            line.push_str(&checkable.join(", "));
        }
        out.lines.push(line);
    }

    /// A pawn of each side (PR-4).
    fn random_choices(
        &self,
        v: &Variant,
        pos: &Position,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<String> {
        let [white, black] = Color::BOTH.map(|c| super::names(v, pos.with_role(v, c, Role::Pawn)));
        Some(format!(
            "{} {}",
            super::pick_one(&white, pick)?,
            super::pick_one(&black, pick)?
        ))
    }

    /// The pawns that may be chosen ones (PR-4).
    fn mark_layers(&self) -> usize {
        1
    }

    /// Who can be checked changes the rules (PR-1).
    fn state_key(&self, state: &EventState) -> u64 {
        [0x5a1f_0e6c_93d2_47b1, 0xc2b7_3e19_6a0d_8f53]
            .into_iter()
            .enumerate()
            .filter(|&(color, _)| state.words[0] >> color & 1 != 0)
            .fold(0, |key, (_, part)| key ^ part)
    }

    /// Every pawn on the board may be a chosen one until the command or a `K@` says
    /// which (PR-4).
    fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        CHOSEN.begin(v, pos, choices)
    }

    /// PR-1: a king is free from check until its player has lost one.
    fn can_be_checked(&self, _v: &Variant, pos: &Position, _king: Sq, color: Color) -> bool {
        pos.event_state(NUMBER).is_none() || is_checkable(pos, color)
    }

    /// Brings a captured king back on its owner's chosen pawn (PR-2, PR-5). The chosen
    /// pawns follow their moves by their marks, and lose them when captured or promoted.
    fn after_landing(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        if pos.event_state(NUMBER).is_none() {
            return;
        }
        // The move is played: a king it took at a passage entry is gone from the
        // board, so a king taken is the opponent left without one (EC-9, EC-11).
        let owner = mv.piece.color.other();
        let taken = mv.captured.filter(|p| v.role(p.kind) == Role::King);
        if mv.swap.is_some() || taken.is_none() && !pos.kings(v, owner).is_empty() {
            return;
        }
        set_checkable(pos, owner);
        if let Some(sq) = CHOSEN.picked(pos, owner) {
            let kind = taken.map_or_else(
                || {
                    v.kinds_with(Role::King)
                        .next()
                        .expect("a king was captured")
                },
                |king| king.kind,
            );
            pos.remove(sq);
            pos.put(sq, Piece { color: owner, kind });
            // PR-5: no castling for a king made from a pawn.
            pos.set_castling(pos.castling & !pos.by_color(owner));
        }
    }

    fn victory(&self, winner: Color) -> (&'static str, String) {
        (
            "king-captured",
            format!(
                "{winner} captured the {} king, whose chosen pawn was gone (PR-2)",
                winner.other()
            ),
        )
    }

    /// PR-2: a player left without a king has lost.
    fn winner(&self, v: &Variant, pos: &Position) -> Option<Color> {
        pos.event_state(NUMBER)?;
        Color::BOTH
            .into_iter()
            .find(|&c| pos.kings(v, c).is_empty())
            .map(Color::other)
    }

    /// PR-4: with the chosen pawn secret, `K@g7` says which it is.
    fn reveal(
        &self,
        v: &Variant,
        pos: &mut Position,
        written: &PieceMove,
    ) -> Result<(), Rejection> {
        let Some(square) = written
            .king_at()
            .filter(|_| pos.event_state(NUMBER).is_some())
        else {
            return Ok(());
        };
        CHOSEN.reveal(v, pos, pos.turn.other(), square, 'K')
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        if let Some(winner) = v.winner(pos) {
            return Some(Err(san::illegal(
                format!(
                    "the game is over: {winner} captured the {} king, and no chosen pawn was left to replace it (PR-2)",
                    winner.other()
                ),
                None,
            )));
        }
        written.king_at()?;
        let stripped = Notation {
            body: MoveBody::Piece(PieceMove {
                placed: None,
                ..written.clone()
            }),
            check: None,
            assessment: None,
        };
        Some(match san::resolve(v, pos, &stripped) {
            Ok(mv) if captured_king(v, pos, &mv).is_some() => Ok(mv),
            Ok(mv) => Err(san::illegal(
                format!(
                    "`K@` follows only a move that captures a king (PR-2), and `{}` captures none",
                    san::san_plain(v, pos, &mv)
                ),
                Some(format!("write `{}`", san::san(v, pos, &mv))),
            )),
            Err(rejection) => Err(self.new_king_attacks(v, pos, written).unwrap_or(rejection)),
        })
    }

    fn placed(&self, v: &Variant, pos: &Position, mv: &Move) -> Option<(char, Sq)> {
        replacement(v, pos, mv).map(|sq| ('K', sq))
    }

    fn annotate(&self, v: &Variant, pos: &Position, mv: &Move, out: &mut String) {
        if let Some(sq) = replacement(v, pos, mv) {
            out.push_str("K@");
            out.push_str(&v.geometry.name(sq));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Square;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    /// `fen` with #68 started, the chosen pawns given or (`None`) secret.
    fn with_princes(fen: &str, pawns: Option<[&str; 2]>) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&Prince, None).unwrap();
        let choices: Vec<Choice> = pawns
            .into_iter()
            .flatten()
            .map(|s| Choice::Square(Square::parse(s).unwrap()))
            .collect();
        Prince.begin(v, &mut pos, &choices).unwrap();
        pos
    }

    fn play(pos: &mut Position, written: &str) -> Move {
        let v = event_chess();
        let notation = Notation::parse(written).unwrap();
        if let MoveBody::Piece(m) = &notation.body {
            Prince.reveal(v, pos, m).unwrap();
        }
        let mv =
            san::resolve(v, pos, &notation).unwrap_or_else(|r| panic!("{written}: {}", r.reason));
        v.play(pos, &mv);
        mv
    }

    fn legal_sans(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves.iter().map(|mv| san::san_plain(v, pos, mv)).collect()
    }

    #[test]
    fn kings_cannot_be_checked_and_castle_through_attack() {
        // The black rook on f8 attacks f1, which the white king crosses castling short.
        let fen = "5rk1/8/8/8/8/8/8/4K2R w K - 0 1";
        let pos = with_princes(fen, None);
        let sans = legal_sans(&pos);
        assert!(sans.contains(&"O-O".to_owned()), "PR-1: {sans:?}");
        assert!(
            sans.contains(&"Kf1".to_owned()),
            "PR-1: into attack: {sans:?}"
        );
        let orthodox = parse_fen(event_chess(), fen).unwrap();
        assert!(!legal_sans(&orthodox).contains(&"O-O".to_owned()));
    }

    #[test]
    fn a_captured_king_comes_back_on_the_chosen_pawn() {
        let v = event_chess();
        // The black king steps into the queen's file (PR-1), and she takes it; black's
        // chosen pawn is g7.
        let mut pos = with_princes("3k4/6p1/8/8/8/8/2P5/4Q1K1 b - - 0 1", Some(["c2", "g7"]));
        play(&mut pos, "Ke7");
        let before = pos.clone();
        let mv = play(&mut pos, "Qxe7K@g7");
        assert_eq!(
            san::san(v, &before, &mv),
            "Qxe7K@g7+",
            "the new king is checked"
        );
        assert_eq!(pos.kings(v, Color::Black), sq("g7").bit());
        assert!(pos.is_check(v), "PR-1: a king from a pawn can be checked");
        assert_eq!(v.winner(&pos), None);
    }

    #[test]
    fn with_the_chosen_pawn_gone_the_capture_wins() {
        let v = event_chess();
        let mut pos = with_princes("3k4/8/8/8/8/8/2P5/4Q1K1 b - - 0 1", None);
        play(&mut pos, "Ke7");
        let mv = play(&mut pos, "Qxe7");
        assert_eq!(mv.captured.map(|p| v.role(p.kind)), Some(Role::King));
        assert_eq!(v.winner(&pos), Some(Color::White));
        assert!(legal_sans(&pos).is_empty(), "the game is over");
    }

    #[test]
    fn the_chosen_pawn_is_followed_and_revealed_by_k_at() {
        let v = event_chess();
        let mut pos = with_princes("3k4/6p1/8/8/8/8/2P5/4Q1K1 b - - 0 1", None);
        play(&mut pos, "g5");
        play(&mut pos, "c4");
        play(&mut pos, "Ke7");
        let notation = Notation::parse("Qxe7K@g7").unwrap();
        let MoveBody::Piece(m) = &notation.body else {
            unreachable!()
        };
        let refused = Prince.reveal(v, &mut pos.clone(), m).unwrap_err();
        assert!(refused.reason.contains("PR-4"), "{}", refused.reason);
        play(&mut pos, "Qxe7K@g5");
        assert_eq!(pos.kings(v, Color::Black), sq("g5").bit());
    }

    #[test]
    fn the_new_king_may_not_attack_a_checkable_king() {
        let v = event_chess();
        // Black has lost a king before (its king can be checked); white's chosen pawn on
        // f4 would become a king next to the black king on g4 (PR-3).
        let mut pos = parse_fen(v, "8/p7/8/8/3b1Pk1/8/K7/8 w - - 0 1 events(68-:f4,x,+b)").unwrap();
        play(&mut pos, "Kb2");
        let refused = san::resolve(v, &pos, &Notation::parse("Bxb2K@f4").unwrap()).unwrap_err();
        assert!(refused.reason.contains("PR-3"), "{}", refused.reason);
        assert!(!legal_sans(&pos).iter().any(|s| s.starts_with("Bxb2")));
    }

    #[test]
    fn the_condition_asks_for_a_king_each() {
        let v = event_chess();
        let pos = parse_fen(v, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(Prince.condition(v, &pos), Ok(()));
        // A FEN must have its kings, so the king goes after reading.
        let mut kingless = pos.clone();
        kingless.remove(sq("e8"));
        assert_eq!(
            Prince.condition(v, &kingless),
            Err("black has no king".to_owned())
        );
    }
}
