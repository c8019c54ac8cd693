//! Event #88 Treasure Hunt in its older forum wording, `[%event 88 old]` (catalogue;
//! rulings THO-1 to THO-5 in `docs/rules/event-88-treasure-hunt-old.md`): the piece that
//! first reaches the opponent's secret square wears armour instead of winning. An
//! armoured piece cannot be captured, an armoured king cannot be checked, and an enemy
//! piece that could otherwise capture it may stand still for a move to break the armour
//! (written `Bc4-c4`).

use super::treasure_hunt::{Hunt, NUMBER, STANDING, random_treasures};
use crate::command::Choice;
use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState, Overlay};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct TreasureHuntOld;

/// The mark layer of the pieces that wear armour (THO-2).
const ARMOUR: usize = 1;

/// The mark layer of the pieces that may wear armour while the treasures are secret: the
/// first of their side to reach a square that may be the enemy's treasure (THO-5).
const MAYBE: usize = 2;

fn layer(pos: &Position, index: usize) -> Option<usize> {
    pos.mark_layer(NUMBER, index)
        .filter(|_| pos.event_state(NUMBER).is_some())
}

/// The pieces that wear armour.
fn armoured(pos: &Position) -> Bitboard {
    layer(pos, ARMOUR).map_or(Bitboard::EMPTY, |l| pos.marked(l))
}

/// The armoured enemy pieces `mv` would capture (THO-3): at its target, en passant, or
/// at a passage's entry.
fn armoured_victims(v: &Variant, pos: &Position, mv: &Move) -> Bitboard {
    let shielded = armoured(pos) & pos.by_color(mv.piece.color.other());
    if shielded.is_empty() {
        return Bitboard::EMPTY;
    }
    let mut victims = Bitboard::EMPTY;
    if mv.captured.is_some() {
        victims.set(mv.capture_square(v));
    }
    if let Some(sq) = mv.entry_capture_square(v, pos) {
        victims.set(sq);
    }
    victims & shielded
}

/// THO-4: the stand-still moves of the side to move's pieces on `squares`, one per piece
/// that attacks an armoured enemy piece, carrying that piece's square.
fn stand_stills(v: &Variant, pos: &Position, squares: Bitboard, out: &mut Vec<Move>) {
    let us = pos.turn;
    for target in armoured(pos) & pos.by_color(us.other()) {
        for from in pos.attackers(v, target, us, pos.occupied()) & squares {
            out.push(Move {
                piece: pos.piece_at(from).expect("an attacker"),
                from,
                to: from,
                captured: None,
                promotion: None,
                special: Special::Event {
                    number: NUMBER,
                    data: u16::from(target.0),
                },
                faces: None,
                swap: None,
                returned: None,
            });
        }
    }
}

/// `Bc4-c4`, `c4-c4`: a stand-still move as written.
fn stand_still_spelling(v: &Variant, mv: &Move) -> String {
    let letter = if v.role(mv.piece.kind) == Role::Pawn {
        String::new()
    } else {
        v.piece(mv.piece.kind).letter.to_string()
    };
    let square = v.geometry.name(mv.from);
    format!("{letter}{square}-{square}")
}

/// THO-5: with the square secret, a stand-still move by the piece on `from` says that
/// an enemy piece it attacks wears armour: the first such piece that may wear it does,
/// and the picker's one reveal is spent.
fn reveal_armour(v: &Variant, pos: &mut Position, from: Sq) {
    let us = pos.turn;
    let Some(mut hunt) = Hunt::load(pos) else {
        return;
    };
    if hunt.known[us.index()].is_some() || hunt.reached[us.index()] {
        return;
    }
    let (Some(maybe), Some(armour)) = (layer(pos, MAYBE), layer(pos, ARMOUR)) else {
        return;
    };
    let theirs = pos.by_color(us.other());
    let Some(bearer) = (pos.marked(maybe) & theirs)
        .find(|&sq| pos.attackers(v, sq, us, pos.occupied()).contains(from))
    else {
        return;
    };
    for sq in pos.marked(maybe) & theirs {
        pos.set_mark(maybe, sq, false);
    }
    pos.set_mark(armour, bearer, true);
    hunt.reached[us.index()] = true;
    hunt.open[us.index()] = Bitboard::EMPTY;
    hunt.store(pos);
}

static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Treasure Hunt",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["THO-1", "THO-2", "THO-3", "THO-4", "THO-5"],
    page: "docs/rules/event-88-treasure-hunt-old.md",
};

impl Event for TreasureHuntOld {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn older_wording(&self) -> bool {
        true
    }

    fn takes_choices(&self) -> bool {
        true
    }

    /// Pieces standing on a possible treasure, armour, possible armour.
    fn mark_layers(&self) -> usize {
        3
    }

    fn state_key(&self, state: &EventState) -> u64 {
        Hunt::key(state)
    }

    fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        Hunt::begin(v, pos, choices, "THO-1")
    }

    fn random_choices(
        &self,
        v: &Variant,
        pos: &Position,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<String> {
        random_treasures(v, pos, pick)
    }

    /// The treasures (THO-1), then `+c4` for an armoured piece and `~e5` for one that may
    /// wear armour (THO-5).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let Some(hunt) = Hunt::load(pos) else {
            return Vec::new();
        };
        let mut words = hunt.write_fen(v);
        for (index, sign) in [(ARMOUR, '+'), (MAYBE, '~')] {
            if let Some(l) = layer(pos, index) {
                words.extend(
                    pos.marked(l)
                        .map(|sq| format!("{sign}{}", v.geometry.name(sq))),
                );
            }
        }
        words
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let (marks, treasures): (Vec<&str>, Vec<&str>) = words
            .iter()
            .partition(|w| w.starts_with('+') || w.starts_with('~'));
        Hunt::read_fen(v, pos, &treasures)?;
        let hunt = Hunt::load(pos).expect("just stored");
        let standing = layer(pos, STANDING).expect("running");
        for sq in hunt.standing(pos) {
            pos.set_mark(standing, sq, true);
        }
        for word in marks {
            let index = if word.starts_with('+') { ARMOUR } else { MAYBE };
            let sq = super::fen_square(v, &word[1..])?;
            if pos.piece_at(sq).is_none() {
                return Err(format!("`{word}`: no piece stands on {}", &word[1..]));
            }
            pos.set_mark(layer(pos, index).expect("running"), sq, true);
        }
        Ok(())
    }

    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let Some(hunt) = Hunt::load(pos) else {
            return;
        };
        let mut line = hunt.overlay(v, out);
        let shielded: Vec<String> = armoured(pos).map(|sq| v.geometry.name(sq)).collect();
        if !shielded.is_empty() {
            out.singled_out.extend(armoured(pos));
            line.push_str(&format!("; armour: {} (marked @)", shielded.join(", ")));
        }
        out.lines.push(line);
    }

    /// THO-2: the first piece of the mover to reach the opponent's treasure by his move
    /// wears armour, and that treasure is spent. With the treasure secret, the first to
    /// reach each square that may be it may wear armour (THO-5).
    fn before_turn_passes(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        let Some(mut hunt) = Hunt::load(pos) else {
            return;
        };
        let (Some(standing), Some(armour), Some(maybe)) =
            (layer(pos, STANDING), layer(pos, ARMOUR), layer(pos, MAYBE))
        else {
            return;
        };
        let mover = mv.piece.color;
        let theirs = mover.other().index();
        let arrived = hunt.arrivals(pos, mover, pos.marked(standing));
        if arrived.nonempty() {
            let mark = if hunt.known[theirs].is_some() {
                hunt.reached[theirs] = true;
                armour
            } else {
                maybe
            };
            for sq in arrived {
                pos.set_mark(mark, sq, true);
            }
            hunt.open[theirs] &= !arrived;
            if hunt.reached[theirs] {
                hunt.open[theirs] = Bitboard::EMPTY;
            }
        }
        for sq in pos.marked(standing) {
            pos.set_mark(standing, sq, false);
        }
        for sq in hunt.standing(pos) {
            pos.set_mark(standing, sq, true);
        }
        hunt.store(pos);
    }

    /// THO-3: an armoured king cannot be checked.
    fn can_be_checked(&self, _v: &Variant, pos: &Position, king: Sq, _color: Color) -> bool {
        !armoured(pos).contains(king)
    }

    /// THO-3: no capture of an armoured piece, of any kind.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        armoured_victims(v, pos, mv).is_empty()
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let Some(victim) = armoured_victims(v, pos, mv).first() else {
            return format!("event #{NUMBER} Treasure Hunt does not allow this move");
        };
        let mut stills = Vec::new();
        stand_stills(v, pos, mv.from.bit(), &mut stills);
        let way = stills.first().map_or_else(
            || "a piece that could capture it may stand still for a move to break the armour (THO-4)".to_owned(),
            |still| {
                format!(
                    "the {} may stand still instead to break the armour: write `{}` (THO-4)",
                    san::describe(v, pos, mv.from).trim_start_matches("the "),
                    stand_still_spelling(v, still)
                )
            },
        );
        format!(
            "{} wears armour, won on the {} treasure (THO-2), and an armoured piece cannot be captured (THO-3); {way}",
            san::describe(v, pos, victim),
            mv.piece.color,
        )
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        if pos.event_state(NUMBER).is_some() {
            stand_stills(v, pos, from & to, out);
        }
    }

    /// THO-4: the piece stays where it is and the armour is gone.
    fn play_extra(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        if let (Special::Event { data, .. }, Some(armour)) = (mv.special, layer(pos, ARMOUR)) {
            pos.set_mark(armour, Sq(data as u8), false);
        }
    }

    fn san(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        stand_still_spelling(v, mv)
    }

    /// THO-5: a stand-still move written while the squares are secret says that the
    /// piece it aims at wears armour.
    fn reveal(
        &self,
        v: &Variant,
        pos: &mut Position,
        written: &PieceMove,
    ) -> Result<(), Rejection> {
        if let Some(from) = stand_still_square(v, written) {
            reveal_armour(v, pos, from);
        }
        Ok(())
    }

    /// Reads `Bc4-c4` (THO-4), and says where a king move would need armour the record
    /// has not told (THO-5).
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let Some(from) = stand_still_square(v, written) else {
            return secret_armour_needed(v, pos, written).map(Err);
        };
        let g = v.geometry;
        let us = pos.turn;
        let piece = pos.piece_at(from).filter(|p| p.color == us);
        let letter_fits = piece.is_some_and(|p| {
            san::written_kind(v, written).is_ok_and(|kind| kind.is_none_or(|k| k == p.kind))
        });
        if !letter_fits {
            return Some(Err(san::illegal(
                format!(
                    "`{}` stands a piece still on {}, where {} stands, not the {us} piece written (THO-4)",
                    san::written(written),
                    g.name(from),
                    san::describe_piece(v, pos, from)
                ),
                san::legal_help(v, pos, &san::written(written), None),
            )));
        }
        let mut offered = Vec::new();
        stand_stills(v, pos, from.bit(), &mut offered);
        let mut legal = Vec::new();
        v.legal_moves_between(pos, from.bit(), from.bit(), &mut legal);
        legal.retain(|mv| matches!(mv.special, Special::Event { number: NUMBER, .. }));
        if let Some(mv) = legal.first() {
            return Some(Ok(*mv));
        }
        let reason = match offered.first() {
            Some(still) => format!(
                "{}: standing still to break the armour is a full move, legal only where it leaves the own king out of check (THO-4)",
                san::king_exposed(v, pos, still)
            ),
            None => format!(
                "{} attacks no armoured {} piece: a piece may stand still only to break the armour of an enemy piece it could capture (THO-4)",
                san::describe(v, pos, from),
                us.other()
            ),
        };
        Some(Err(san::illegal(
            reason,
            san::legal_help(v, pos, &san::written(written), None),
        )))
    }
}

/// THO-5: a king move onto a square that may be the enemy's treasure, illegal only
/// because the king would stand in check, with the treasures secret: the record is read
/// as if no piece wore armour, so such a move needs the treasures stated.
fn secret_armour_needed(v: &Variant, pos: &Position, written: &PieceMove) -> Option<Rejection> {
    let hunt = Hunt::load(pos)?;
    let them = pos.turn.other().index();
    if hunt.known[them].is_some() || hunt.reached[them] {
        return None;
    }
    let candidates = san::candidates(v, pos, written);
    if candidates.iter().any(|mv| !v.leaves_king_attacked(pos, mv)) {
        return None;
    }
    let king_move = candidates
        .iter()
        .find(|mv| v.role(mv.piece.kind) == Role::King && hunt.open[them].contains(mv.to))?;
    Some(san::illegal(
        format!(
            "{}; armour on the treasure would keep it out of check, but with the treasures secret the record is read as if no piece wore armour until a stand-still move shows it, so a king that only armour keeps out of check needs the treasures in the command, `[%event 88 old h1 a6]` (THO-5)",
            san::king_exposed(v, pos, king_move)
        ),
        san::legal_help(v, pos, &san::written(written), Some(king_move.piece.kind)),
    ))
}

/// The square of a stand-still move as written (`Bc4-c4`): its two squares the same.
fn stand_still_square(v: &Variant, written: &PieceMove) -> Option<Sq> {
    let [first, second] = written.targets.as_slice() else {
        return None;
    };
    (first.square == second.square
        && second.separator == Separator::Dash
        && first.promotion.is_none()
        && second.promotion.is_none()
        && written.hint.is_none())
    .then(|| v.geometry.from_square(first.square))
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{MoveBody, Notation, Square};
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn with_treasures(fen: &str, squares: Option<[&str; 2]>) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&TreasureHuntOld, None).unwrap();
        let choices: Vec<Choice> = squares
            .into_iter()
            .flatten()
            .map(|s| Choice::Square(Square::parse(s).unwrap()))
            .collect();
        TreasureHuntOld.begin(v, &mut pos, &choices).unwrap();
        pos
    }

    fn play(pos: &mut Position, written: &str) {
        let v = event_chess();
        let notation = Notation::parse(written).unwrap();
        if let MoveBody::Piece(m) = &notation.body {
            TreasureHuntOld.reveal(v, pos, m).unwrap();
        }
        let mv =
            san::resolve(v, pos, &notation).unwrap_or_else(|r| panic!("{written}: {}", r.reason));
        v.play(pos, &mv);
    }

    fn refused(pos: &Position, written: &str) -> String {
        san::resolve(event_chess(), pos, &Notation::parse(written).unwrap())
            .unwrap_err()
            .reason
    }

    #[test]
    fn the_piece_that_reaches_the_treasure_wears_armour_until_a_stand_still() {
        let v = event_chess();
        // White's bishop takes on a6, Black's treasure (the catalogue's example).
        let mut pos = with_treasures("r3k3/8/p7/8/8/8/8/4KB2 w - - 0 1", Some(["h1", "a6"]));
        play(&mut pos, "Bxa6");
        assert_eq!(v.winner(&pos), None);
        assert_eq!(armoured(&pos), sq("a6").bit(), "THO-2");
        let why = refused(&pos, "Rxa6");
        assert!(why.contains("THO-3") && why.contains("Ra8-a8"), "{why}");
        play(&mut pos, "Ra8-a8");
        assert!(armoured(&pos).is_empty(), "THO-4");
        play(&mut pos, "Bb5+");
        play(&mut pos, "Kf7");
        play(&mut pos, "Ba6");
        assert!(
            armoured(&pos).is_empty(),
            "THO-2: the treasure reveals once"
        );
    }

    #[test]
    fn an_armoured_king_cannot_be_checked() {
        let v = event_chess();
        let mut pos = with_treasures("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", Some(["a1", "e2"]));
        play(&mut pos, "Ke2");
        assert!(!pos.is_check(v));
        play(&mut pos, "Rd3");
        play(&mut pos, "Ke3");
        assert!(refused(&pos, "Rxe3").contains("THO-3"));
        play(&mut pos, "Rd3-d3+");
        assert!(pos.is_check(v), "the armour is gone: the rook gives check");
    }

    #[test]
    fn a_stand_still_needs_an_armoured_target_in_reach() {
        let pos = with_treasures("4k3/8/8/8/8/8/3r4/4K3 b - - 0 1", Some(["a1", "e2"]));
        assert!(refused(&pos, "Rd2-d2").contains("THO-4"));
    }

    #[test]
    fn with_the_squares_secret_a_stand_still_reveals_the_armour() {
        let v = event_chess();
        let mut pos = with_treasures("r3k3/8/p7/8/8/8/8/4KB2 w - - 0 1", None);
        play(&mut pos, "Bxa6");
        assert!(armoured(&pos).is_empty(), "THO-5: not known yet");
        let mut other = pos.clone();
        play(&mut other, "Rxa6");
        play(&mut pos, "Ra8-a8");
        let hunt = Hunt::load(&pos).unwrap();
        assert!(hunt.reached[Color::Black.index()]);
        assert!(armoured(&pos).is_empty());
        assert_eq!(v.winner(&pos), None);
    }
}
