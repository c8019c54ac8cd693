//! Event #32 Mimicker (catalogue; rulings MI-1 to MI-6 in
//! `docs/rules/event-32-mimicker.md`): a side's bishops move, capture and check as the
//! piece the opponent moved last, a knight, rook, queen or king; after a pawn or bishop
//! move, and until the opponent has moved since the start, as bishops.

use super::reach_as;
use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState, Overlay, Reach};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct Mimicker;

const NUMBER: u16 = 32;

/// The kind `color` moved last since the start (MI-1, MI-2), kept in the event's word
/// of that colour as the kind's index plus one; 0 before his first move.
fn last_moved(pos: &Position, color: Color) -> Option<Kind> {
    let word = pos.event_state(NUMBER)?.words[color.index()];
    word.checked_sub(1)
        .and_then(|i| u8::try_from(i).ok())
        .map(Kind)
}

fn set_last_moved(pos: &mut Position, color: Color, kind: Option<Kind>) {
    let Some(mut state) = pos.event_state(NUMBER).copied() else {
        return;
    };
    state.words[color.index()] = kind.map_or(0, |k| u16::from(k.0) + 1);
    pos.set_event_state(NUMBER, state);
}

/// The kind whose movement the bishops of `color` borrow: the one the opponent moved
/// last, unless it was a pawn or a bishop (MI-1).
fn borrowed(v: &Variant, pos: &Position, color: Color) -> Option<Kind> {
    let bishop = v.kind_of_letter('B')?;
    last_moved(pos, color.other()).filter(|&kind| kind != bishop && v.role(kind) != Role::Pawn)
}

/// The kind a move counts as (MI-2, MI-3): that of the unit that made it, the rook in
/// castling (it moves last), the pawn of a promotion.
fn mover_kind(pos: &Position, mv: &Move) -> Kind {
    match mv.special {
        Special::Castle { rook_to, .. } => pos.piece_at(rook_to).map_or(mv.piece.kind, |p| p.kind),
        _ => mv.piece.kind,
    }
}

/// A kind in words (`knight`).
fn kind_name(v: &Variant, kind: Kind) -> &str {
    &v.piece(kind).name
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Mimicker",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('B', 1)]),
    rulings: &["MI-1", "MI-2", "MI-3", "MI-4", "MI-5", "MI-6"],
    page: "docs/rules/event-32-mimicker.md",
};

impl Mimicker {
    /// Why the bishops of the side to move do not go where they would as bishops, in
    /// words: `white's bishops move as knights, the piece black moved last (MI-1)`.
    fn rule_words(&self, v: &Variant, pos: &Position, color: Color) -> String {
        match borrowed(v, pos, color) {
            Some(kind) => format!(
                "under event #32 Mimicker {color}'s bishops move, capture and check as a {}, the piece {} moved last (MI-1)",
                kind_name(v, kind),
                color.other()
            ),
            None => format!(
                "under event #32 Mimicker {color}'s bishops move as bishops, since {} last moved a pawn or a bishop, or has not moved since the start (MI-1)",
                color.other()
            ),
        }
    }

    /// A bishop move written to a square no bishop of ours reaches with the borrowed
    /// movement: the refusal says which movement they have and where they go (MI-1).
    fn unreached(&self, v: &Variant, pos: &Position, written: &PieceMove) -> Option<Rejection> {
        let bishop = v.kind_of_letter('B')?;
        let [target] = written.targets.as_slice() else {
            return None;
        };
        if written.piece != Some('B') {
            return None;
        }
        let to = v.geometry.from_square(target.square)?;
        let ours = pos.pieces(pos.turn, bishop) & san::hinted_origins(v, written.hint);
        let mut reaching = Vec::new();
        v.pseudo_moves(pos, ours, to.bit(), &mut reaching);
        if !reaching.is_empty() || ours.is_empty() {
            return None;
        }
        let mut legal = Vec::new();
        v.legal_moves(pos, &mut legal);
        let spellings: Vec<String> = legal
            .iter()
            .filter(|mv| ours.contains(mv.from) && mv.piece.kind == bishop)
            .map(|mv| san::san_plain(v, pos, mv))
            .collect();
        let help = (!spellings.is_empty())
            .then(|| format!("legal bishop moves: {}", spellings.join(", ")));
        Some(san::illegal(
            format!(
                "no {} bishop reaches {}: {}",
                pos.turn,
                v.geometry.name(to),
                self.rule_words(v, pos, pos.turn)
            ),
            help,
        ))
    }
}

impl Event for Mimicker {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// MI-1, MI-4: a bishop moves, captures and checks as the piece the opponent moved
    /// last (a king's steps without castling or royalty); the reach events started before
    /// this one then change that movement as they change any piece's.
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

    fn moves_as(&self, v: &Variant, pos: &Position, _from: Sq, piece: Piece) -> Option<Kind> {
        (Some(piece.kind) == v.kind_of_letter('B'))
            .then(|| borrowed(v, pos, piece.color))
            .flatten()
    }

    /// MI-2, MI-3: the mover's kind is what the opponent's bishops copy from now on.
    fn before_turn_passes(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        let kind = mover_kind(pos, mv);
        set_last_moved(pos, mv.piece.color, Some(kind));
    }

    /// MI-5: what each side moved last decides how the bishops move.
    fn state_key(&self, state: &EventState) -> u64 {
        u64::from(state.words[0]) << 16 | u64::from(state.words[1])
    }

    /// The letter of the kind each side moved last, white's first, `-` for none
    /// (`events(32w:N,-)`, MI-5).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        Color::BOTH
            .into_iter()
            .map(|color| {
                last_moved(pos, color).map_or("-".to_owned(), |k| v.piece(k).letter.to_string())
            })
            .collect()
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        if words.is_empty() {
            return Ok(());
        }
        let [white, black] = words else {
            return Err(format!(
                "`{}`: the kinds white and black moved last, two letters or `-`",
                words.join(",")
            ));
        };
        for (color, word) in Color::BOTH.into_iter().zip([white, black]) {
            let kind = match *word {
                "-" => None,
                letter => {
                    let mut chars = letter.chars();
                    let (Some(c), None) = (chars.next(), chars.next()) else {
                        return Err(format!("`{letter}` is no piece letter"));
                    };
                    Some(
                        v.kind_of_letter(c.to_ascii_uppercase())
                            .ok_or_else(|| format!("`{letter}` is no piece letter"))?,
                    )
                }
            };
            set_last_moved(pos, color, kind);
        }
        Ok(())
    }

    /// A line per side whose bishops borrow a movement.
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        for color in Color::BOTH {
            if let Some(kind) = borrowed(v, pos, color) {
                out.lines.push(format!(
                    "mimicker: {color}'s bishops move as a {} ({} moved one last)",
                    kind_name(v, kind),
                    color.other()
                ));
            }
        }
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let kind = self.moves_as(v, pos, from, piece)?;
        let reach = reach_as(v, pos, (from, piece), kind, pos.occupied(), NUMBER);
        (!(reach.quiet | reach.attacks).contains(to)).then(|| self.rule_words(v, pos, piece.color))
    }

    fn why_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let kind = self.moves_as(v, pos, from, piece)?;
        let reach = reach_as(v, pos, (from, piece), kind, pos.occupied(), NUMBER);
        reach.attacks.contains(to).then(|| {
            format!(
                "it attacks as a {}, the piece {} moved last: event #32 Mimicker, MI-1, MI-6",
                kind_name(v, kind),
                piece.color.other()
            )
        })
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        self.unreached(v, pos, written).map(Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, write_fen};

    fn under_event(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&Mimicker, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, written: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(written).unwrap())
    }

    fn play(pos: &mut Position, written: &str) {
        let mv = resolve(pos, written).unwrap_or_else(|r| panic!("{written}: {}", r.reason));
        event_chess().play(pos, &mv);
    }

    /// The squares the piece on `from` may legally move to, sorted.
    fn targets(pos: &Position, from: &str) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        let mut names: Vec<String> = moves
            .into_iter()
            .filter(|mv| mv.from == sq(from))
            .map(|mv| v.geometry.name(mv.to))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn mi_1_bishops_copy_the_opponent_s_last_piece() {
        let pos = under_event("4k3/8/8/8/8/8/8/2B1K1n1 b - - 0 1");
        let mut after = pos.clone();
        play(&mut after, "Nh3");
        // Black moved a knight: the white bishop jumps as one.
        assert_eq!(targets(&after, "c1"), ["a2", "b3", "d3", "e2"]);
        let refused = resolve(&after, "Bd2").unwrap_err();
        assert!(refused.reason.contains("MI-1"), "{}", refused.reason);
    }

    #[test]
    fn mi_2_the_unit_counts_and_castling_is_a_rook_move() {
        let v = event_chess();
        let mut pos = under_event("r3k3/8/8/8/8/8/3B4/4K2R b Kq - 0 1");
        play(&mut pos, "O-O-O");
        assert_eq!(borrowed(v, &pos, Color::White), v.kind_of_letter('R'));
        play(&mut pos, "Bb2");
        // A bishop moving as a rook still counts as a bishop.
        assert_eq!(borrowed(v, &pos, Color::Black), None);
    }

    #[test]
    fn mi_5_what_was_moved_last_is_in_the_fen_and_the_key() {
        let v = event_chess();
        let mut pos = under_event("4k3/8/8/8/8/8/8/2B1K1n1 b - - 0 1");
        let before = pos.key(v);
        play(&mut pos, "Nh3");
        let fen = write_fen(v, &pos);
        assert!(fen.contains("32b:-,N"), "{fen}");
        let read = parse_fen(v, &fen).unwrap();
        assert_eq!(read.key(v), pos.key(v));
        assert_ne!(before, pos.key(v));
    }

    #[test]
    fn mi_6_a_move_that_lends_the_enemy_bishops_a_check_is_illegal() {
        // The black bishop on d3 stands a knight's leap from the white king on e1:
        // moving the knight would make it a knight that checks.
        let pos = under_event("4k3/8/8/8/8/3b4/8/4K1N1 w - - 0 1");
        assert!(resolve(&pos, "Nf3").is_err());
        assert!(resolve(&pos, "Kf2").is_ok());
    }
}
