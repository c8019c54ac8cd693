//! Event #58 Princess (catalogue; rulings PS-1 to PS-5 in `docs/rules/event-58-princess.md`):
//! each player picks one of his pawns, the princess; the moment his last queen is
//! captured, the princess becomes a queen (`Rxd8Q@f7`), and a capture whose new queen
//! would check the capturer is illegal, so legality and mate depend on where she stands.

use super::picked_pawns::{PickedPawns, Wording};
use crate::command::Choice;
use crate::diagnostic::Diagnostic;
use crate::notation::{MoveBody, Notation, PieceMove};
use crate::rules::board::Sq;
use crate::rules::event::{Condition, Event, EventInfo, Follower, Form, Moved, Overlay};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct Princess;

/// The event's number.
const NUMBER: u16 = 58;

/// The princesses (PS-1, PS-4): the event's mark layer follows them, its slot says whose
/// is known.
const PRINCESSES: PickedPawns = PickedPawns {
    number: NUMBER,
    noun: "princess",
    nouns: "princesses",
    ruling: "PS-4",
    wording: QUEEN_AT,
};

/// How the record must write the queen that appears (PS-2, PS-4, PS-5).
const QUEEN_AT: Wording = Wording {
    letter: 'Q',
    label: "a capture of the last queen",
    wrong_square: "the {owner} princess on {sq} becomes the {owner} queen, not a pawn on {square} (PS-2, PS-5)",
    gone: "the {owner} princess is no longer on the board, so no queen appears (PS-1)",
    missing: "the {owner} princess on {sq} becomes a queen: without `Q@{sq}` the record says none appears (PS-2, PS-5)",
    certain: "no {owner} pawn has left the board since the event started, so the princess still stands and becomes a queen: the record must say where, with `Q@square` (PS-2, PS-4)",
};

fn queen_kind(v: &Variant) -> Option<Kind> {
    v.kind_of_letter('Q')
}

/// The player whose last queen `mv` takes in `pos`: not when a facing knight swaps in to
/// be taken instead (#85, LK-2).
fn takes_last_queen(v: &Variant, pos: &Position, mv: &Move) -> Option<Color> {
    let queen = queen_kind(v)?;
    let taken = mv
        .captured
        .filter(|p| p.kind == queen && mv.swap.is_none())?;
    (pos.pieces(taken.color, queen).count() == 1).then_some(taken.color)
}

/// Where a queen appears when `mv` is played in `pos`: the princess of the player whose
/// last queen it takes, when known and still on the board (PS-2).
fn replacement(v: &Variant, pos: &Position, mv: &Move) -> Option<Sq> {
    pos.event_state(NUMBER)?;
    PRINCESSES.picked(pos, takes_last_queen(v, pos, mv)?)
}

/// The square a written `Q@` names.
fn queen_at(written: &PieceMove) -> Option<crate::notation::Square> {
    written
        .placed
        .filter(|placed| placed.piece == Some(b'Q'))
        .map(|placed| placed.square)
}

impl Princess {
    /// Why a capture of the last queen written as `written` is illegal because the queen
    /// that appears would attack the capturer's king (PS-3).
    fn new_queen_checks(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Rejection> {
        let g = v.geometry;
        let us = pos.turn;
        let target = g.from_square(written.targets.last()?.square)?;
        let mut moves = Vec::new();
        v.pseudo_moves(pos, pos.by_color(us), target.bit(), &mut moves);
        moves.into_iter().find_map(|mv| {
            let queen = replacement(v, pos, &mv)?;
            let mut after = pos.clone();
            v.play(&mut after, &mv);
            let attacked = after.checkable_kings(v, us).find(|&king| {
                after
                    .direct_attackers(v, king, us.other(), after.occupied())
                    .contains(queen)
            })?;
            Some(san::illegal(
                format!(
                    "the {} princess on {} would become a queen attacking the {us} king on {}: the capture is illegal (PS-3)",
                    us.other(),
                    g.name(queen),
                    g.name(attacked)
                ),
                san::legal_help(v, pos, &san::written(written), None),
            ))
        })
    }
}

/// The `Q@` a written move or turn names: in a turn of several parts (#51, #102), the
/// part that takes the queen carries it.
fn written_queen(body: &MoveBody) -> Option<crate::notation::Square> {
    match body {
        MoveBody::Piece(m) => queen_at(m),
        MoveBody::Turn(parts) => parts.iter().find_map(written_queen),
        _ => None,
    }
}

/// Reads the captures of last queens in a record (PS-2, PS-4, PS-5).
struct PrincessFollower;

impl Follower for PrincessFollower {
    fn fork(&self, _ply: usize) -> Box<dyn Follower> {
        Box::new(PrincessFollower)
    }

    fn follow(&mut self, v: &Variant, moved: &Moved<'_>, out: &mut Vec<Diagnostic>) -> bool {
        let Some(owner) = takes_last_queen(v, moved.before, moved.mv) else {
            return true;
        };
        let written = written_queen(&moved.written.body);
        let appears = replacement(v, moved.before, moved.mv);
        PRINCESSES.judge(v, moved, owner, written, appears, out)
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Princess",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('Q', 1)]),
    rulings: &["PS-1", "PS-2", "PS-3", "PS-4", "PS-5"],
    page: "docs/rules/event-58-princess.md",
};

impl Event for Princess {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Appears(b'Q')
    }

    fn takes_choices(&self) -> bool {
        true
    }

    /// The pawns that may be princesses (PS-1).
    fn mark_layers(&self) -> usize {
        1
    }

    /// Every pawn may be a princess until the command or a `Q@` says which (PS-1, PS-4).
    fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        PRINCESSES.begin(v, pos, choices)
    }

    /// Each side's princess (`?` secret, `x` gone).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        PRINCESSES.write_fen(v, pos)
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        self.begin(v, pos, &[])?;
        PRINCESSES.read_fen(v, pos, words)
    }

    /// The known princesses, marked `@`.
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let line = PRINCESSES.overlay(v, pos, out);
        out.lines.push(line);
    }

    /// A pawn of each side (PS-1).
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

    fn follower(&self, _: &Variant, _: &Position, _: usize) -> Option<Box<dyn Follower>> {
        Some(Box::new(PrincessFollower))
    }

    /// PS-2: the last queen gone, the princess becomes a queen on her square. A capture
    /// takes the pawn's mark with it, so a princess captured or promoted is gone (PS-1),
    /// and one that came out is no pawn any more: it happens once.
    fn after_landing(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let (Some(queen), Some(taken)) = (queen_kind(v), mv.captured) else {
            return;
        };
        let owner = taken.color;
        if taken.kind != queen || mv.swap.is_some() || pos.pieces(owner, queen).nonempty() {
            return;
        }
        if let Some(sq) = PRINCESSES.picked(pos, owner) {
            pos.remove(sq);
            pos.put(
                sq,
                Piece {
                    color: owner,
                    kind: queen,
                },
            );
        }
    }

    /// PS-4: with the princess secret, `Q@f7` says which pawn she is.
    fn reveal(
        &self,
        v: &Variant,
        pos: &mut Position,
        written: &PieceMove,
    ) -> Result<(), Rejection> {
        match queen_at(written) {
            Some(square) => PRINCESSES.reveal(v, pos, pos.turn.other(), square, 'Q'),
            None => Ok(()),
        }
    }

    /// `Rxd8Q@f7`: the move without `Q@`, which must take its owner's last queen (PS-5);
    /// a capture refused because the new queen would check the capturer says so (PS-3).
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        queen_at(written)?;
        let stripped = Notation {
            body: MoveBody::Piece(PieceMove {
                placed: None,
                ..written.clone()
            }),
            check: None,
            assessment: None,
        };
        Some(match san::resolve(v, pos, &stripped) {
            Ok(mv) if takes_last_queen(v, pos, &mv).is_some() => Ok(mv),
            Ok(mv) => Err(san::illegal(
                format!(
                    "`Q@` follows only a capture of a player's last queen (PS-2, PS-5), and `{}` is none",
                    san::san_plain(v, pos, &mv)
                ),
                Some(format!("write `{}`", san::san(v, pos, &mv))),
            )),
            Err(rejection) => Err(self.new_queen_checks(v, pos, written).unwrap_or(rejection)),
        })
    }

    fn placed(&self, v: &Variant, pos: &Position, mv: &Move) -> Option<(char, Sq)> {
        replacement(v, pos, mv).map(|sq| ('Q', sq))
    }

    fn annotate(&self, v: &Variant, pos: &Position, mv: &Move, out: &mut String) {
        if let Some(sq) = replacement(v, pos, mv) {
            out.push_str("Q@");
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

    /// `fen` with #58 started, the princesses given or (`None`) secret.
    fn with_princesses(fen: &str, pawns: Option<[&str; 2]>) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&Princess, None).unwrap();
        let choices: Vec<Choice> = pawns
            .into_iter()
            .flatten()
            .map(|s| Choice::Square(Square::parse(s).unwrap()))
            .collect();
        Princess.begin(v, &mut pos, &choices).unwrap();
        pos
    }

    fn resolve(pos: &mut Position, written: &str) -> Result<Move, Rejection> {
        let v = event_chess();
        let notation = Notation::parse(written).unwrap();
        if let MoveBody::Piece(m) = &notation.body {
            Princess.reveal(v, pos, m)?;
        }
        san::resolve(v, pos, &notation)
    }

    const TAKE_THE_QUEEN: &str = "3qk3/5p2/8/8/8/8/2P5/Q2RK3 w - - 0 1";

    #[test]
    fn the_princess_becomes_a_queen_when_the_last_queen_falls() {
        let v = event_chess();
        let mut pos = with_princesses(TAKE_THE_QUEEN, Some(["c2", "f7"]));
        let before = pos.clone();
        let mv = resolve(&mut pos, "Rxd8Q@f7").unwrap();
        assert_eq!(san::san(v, &before, &mv), "Rxd8Q@f7+");
        v.play(&mut pos, &mv);
        let queen = queen_kind(v).unwrap();
        assert_eq!(pos.pieces(Color::Black, queen), sq("f7").bit());
        assert_eq!(
            crate::rules::write_fen(v, &pos),
            "3Rk3/5q2/8/8/8/8/2P5/Q3K3 b - - 0 1 events(58-:c2,x;x:1,0)",
            "she came out once: black's princess is spent"
        );
    }

    #[test]
    fn a_secret_princess_is_revealed_by_q_at_and_checked() {
        let v = event_chess();
        let mut pos = with_princesses(TAKE_THE_QUEEN, None);
        let refused = resolve(&mut pos.clone(), "Rxd8Q@e7").unwrap_err();
        assert!(refused.reason.contains("PS-4"), "{}", refused.reason);
        let mv = resolve(&mut pos, "Rxd8Q@f7").unwrap();
        v.play(&mut pos, &mv);
        assert_eq!(
            pos.piece_at(sq("f7")).map(|p| v.piece(p.kind).letter),
            Some('Q')
        );
    }

    #[test]
    fn a_new_queen_may_not_check_the_capturer() {
        let v = event_chess();
        // Black's princess on c6 would become a queen on the long diagonal to h1 (PS-3).
        let mut pos = with_princesses("3qk3/8/2p5/8/8/8/P7/Q2R3K w - - 0 1", Some(["a2", "c6"]));
        let refused = resolve(&mut pos, "Rxd8Q@c6").unwrap_err();
        assert!(refused.reason.contains("PS-3"), "{}", refused.reason);
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        assert!(!moves.iter().any(|mv| mv.to == sq("d8")), "Rxd8 is illegal");
    }

    #[test]
    fn q_at_needs_a_last_queen_taken() {
        let mut pos = with_princesses(TAKE_THE_QUEEN, Some(["c2", "f7"]));
        let refused = resolve(&mut pos, "Rd7Q@f7").unwrap_err();
        assert!(refused.reason.contains("PS-5"), "{}", refused.reason);
    }
}
