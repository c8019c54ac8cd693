//! Event #88 Treasure Hunt (catalogue; rulings TH-1 to TH-5 in
//! `docs/rules/event-88-treasure-hunt.md`): each player secretly picks a square, his
//! treasure; a player whose piece arrives on the opponent's treasure by his own move wins
//! at once. The older forum wording (`treasure_hunt_old.rs`) shares the squares and how an
//! arrival is told, and gives armour instead of the win.
//!
//! A record may give the squares (`[%event 88 h1 a6]`) or keep them secret; a secret
//! treasure comes out where the record says the game was won (TH-5, through
//! [`Event::explain_win`]).

use crate::command::Choice;
use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState, Overlay};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct TreasureHunt;

/// The event's number, both wordings.
pub(super) const NUMBER: u16 = 88;

/// What the event's slot keeps of the two treasures, indexed by the color of the player
/// who picked each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Hunt {
    /// The squares that may still be each treasure and whose reaching still counts: the
    /// stated square until it is reached; with the square secret, every square that did
    /// not hold an enemy piece when the event started and that no enemy piece has
    /// reached since (TH-1, TH-5).
    pub open: [Bitboard; 2],
    /// Each treasure, once the command states it or the record tells it.
    pub known: [Option<Sq>; 2],
    /// Whether each treasure has been reached (the newer wording: its picker has lost;
    /// the older: its one reveal is spent, THO-2).
    pub reached: [bool; 2],
}

fn square_word(sq: Option<Sq>) -> u16 {
    sq.map_or(0, |sq| u16::from(sq.0) + 1)
}

fn word_square(word: u16) -> Option<Sq> {
    word.checked_sub(1).map(|i| Sq(i as u8))
}

impl Hunt {
    pub fn load(pos: &Position) -> Option<Hunt> {
        let state = pos.event_state(NUMBER)?;
        let flags = state.words[0];
        Some(Hunt {
            open: state.boards,
            known: [word_square(state.words[1]), word_square(state.words[2])],
            reached: [flags & 1 != 0, flags & 2 != 0],
        })
    }

    pub fn store(self, pos: &mut Position) {
        let flags = u16::from(self.reached[0]) | u16::from(self.reached[1]) << 1;
        pos.set_event_state(
            NUMBER,
            EventState {
                boards: self.open,
                words: [
                    flags,
                    square_word(self.known[0]),
                    square_word(self.known[1]),
                    0,
                ],
            },
        );
    }

    /// The part of the slot that is the position's identity: which treasures are known
    /// and reached (a reached one ends the game, or spends the older wording's reveal).
    pub fn key(state: &EventState) -> u64 {
        (u64::from(state.words[0]) << 32
            | u64::from(state.words[1]) << 16
            | u64::from(state.words[2]))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// TH-1: the squares each player may pick (none holding an enemy piece), with the
    /// command's two squares when it gives them.
    pub fn begin(
        v: &Variant,
        pos: &mut Position,
        choices: &[Choice],
        ruling: &str,
    ) -> Result<(), String> {
        let g = v.geometry;
        let mut hunt = Hunt {
            open: Color::BOTH.map(|c| g.all() & !pos.by_color(c.other())),
            ..Hunt::default()
        };
        hunt.store(pos);
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
                    "`{choice}` is no square: #88 takes the two treasures, White's then Black's ({ruling})"
                )),
            })
            .collect::<Result<Vec<Option<Sq>>, String>>()?;
        let [white, black] = squares[..] else {
            return Err(format!(
                "#88 takes two squares, White's treasure then Black's, not {} ({ruling}); the treasures stay secret",
                squares.len()
            ));
        };
        // `?` keeps that treasure secret: the record may tell one and not the other.
        for (color, sq) in Color::BOTH.into_iter().zip([white, black]) {
            let Some(sq) = sq else {
                continue;
            };
            if !hunt.open[color.index()].contains(sq) {
                return Err(format!(
                    "{color}'s treasure {} holds {}, and a treasure may not hold an enemy piece when the event starts ({ruling}); the treasures stay secret",
                    g.name(sq),
                    san::describe_piece(v, pos, sq)
                ));
            }
            hunt.open[color.index()] = sq.bit();
            hunt.known[color.index()] = Some(sq);
        }
        hunt.store(pos);
        Ok(())
    }

    /// The pieces standing, when a move is over, on a square that may be the enemy's
    /// treasure: they are there already, and only a piece that arrives later counts
    /// (TH-4). A piece reaching a square by its owner's move lands unmarked, so a move is
    /// an arrival where an unmarked piece of the mover stands on such a square.
    pub fn standing(&self, pos: &Position) -> Bitboard {
        Color::BOTH.into_iter().fold(Bitboard::EMPTY, |all, c| {
            all | pos.by_color(c) & self.open[c.other().index()]
        })
    }

    /// The squares of `theirs` (the player who picked them) reached by `mover`'s move
    /// just played: his pieces on them that were not standing there before (TH-2, TH-4).
    pub fn arrivals(&self, pos: &Position, mover: Color, parked: Bitboard) -> Bitboard {
        pos.by_color(mover) & self.open[mover.other().index()] & !parked
    }

    /// FEN words: each treasure as `h1` (`h1!` reached), `?` secret (`?!` its reveal
    /// spent, THO-5).
    pub fn write_fen(&self, v: &Variant) -> Vec<String> {
        (0..2)
            .map(|i| {
                let square = self.known[i].map_or("?".to_owned(), |sq| v.geometry.name(sq));
                let mark = if self.reached[i] { "!" } else { "" };
                format!("{square}{mark}")
            })
            .collect()
    }

    /// Reads the words [`Hunt::write_fen`] wrote, the other words left to the caller.
    pub fn read_fen(v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let [white, black] = words[..] else {
            return Err(
                "#88 keeps two treasures, White's then Black's (`?` when secret)".to_owned(),
            );
        };
        let mut hunt = Hunt {
            open: Color::BOTH.map(|c| v.geometry.all() & !pos.by_color(c.other())),
            ..Hunt::default()
        };
        for (i, word) in [white, black].into_iter().enumerate() {
            let reached = word.ends_with('!');
            let square = word.trim_end_matches('!');
            hunt.reached[i] = reached;
            if square != "?" {
                let sq = super::fen_square(v, square)?;
                hunt.known[i] = Some(sq);
                hunt.open[i] = sq.bit();
            }
            if reached {
                hunt.open[i] = Bitboard::EMPTY;
            }
        }
        hunt.store(pos);
        Ok(())
    }

    /// The known treasures, framed, and a line naming them.
    pub fn overlay(&self, v: &Variant, out: &mut Overlay) -> String {
        let g = v.geometry;
        let words: Vec<String> = Color::BOTH
            .into_iter()
            .map(|c| {
                let i = c.index();
                let square = self.known[i].map_or("secret".to_owned(), |sq| g.name(sq));
                let state = if self.reached[i] { ", reached" } else { "" };
                format!("{c} {square}{state}")
            })
            .collect();
        out.doorways.extend(self.known.iter().flatten());
        format!("treasures: {} (framed *)", words.join(", "))
    }
}

/// A square of each side's that holds no enemy piece: a treasure each (TH-1).
pub(super) fn random_treasures(
    v: &Variant,
    pos: &Position,
    pick: &mut dyn FnMut(usize) -> usize,
) -> Option<String> {
    let [white, black] =
        Color::BOTH.map(|c| super::names(v, v.geometry.all() & !pos.by_color(c.other())));
    Some(format!(
        "{} {}",
        super::pick_one(&white, pick)?,
        super::pick_one(&black, pick)?
    ))
}

/// Whether `mv` may end on a square of `squares`: its landing, a castling rook's, or an
/// event's own move (which may carry pieces anywhere).
fn may_land_on(mv: &Move, squares: Bitboard) -> bool {
    match mv.special {
        Special::Castle { rook_to, .. } => squares.contains(mv.to) || squares.contains(rook_to),
        Special::Event { .. } => true,
        _ => squares.contains(mv.to),
    }
}

/// The mark layer of the pieces standing on a square that may be the enemy's treasure
/// (TH-4); the older wording's layers follow it.
pub(super) const STANDING: usize = 0;

/// Whether the player who made `mv` finds the treasure with it while his own king is
/// left attacked (TH-3).
fn wins_exposed(v: &Variant, pos: &Position, mv: &Move) -> bool {
    let us = mv.piece.color;
    let Some(hunt) = Hunt::load(pos) else {
        return false;
    };
    let theirs = hunt.known[us.other().index()].filter(|_| !hunt.reached[us.other().index()]);
    let Some(treasure) = theirs else {
        return false;
    };
    if !may_land_on(mv, treasure.bit()) {
        return false;
    }
    let mut after = pos.clone();
    v.play(&mut after, mv);
    TreasureHunt.winner(v, &after) == Some(us)
        && after
            .checkable_kings(v, us)
            .into_iter()
            .any(|king| after.is_attacked(v, king, us.other()))
}

static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Treasure Hunt",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["TH-1", "TH-2", "TH-3", "TH-4", "TH-5"],
    page: "docs/rules/event-88-treasure-hunt.md",
};

impl Event for TreasureHunt {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn takes_choices(&self) -> bool {
        true
    }

    fn mark_layers(&self) -> usize {
        1
    }

    fn state_key(&self, state: &EventState) -> u64 {
        Hunt::key(state)
    }

    fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        Hunt::begin(v, pos, choices, "TH-1")
    }

    fn random_choices(
        &self,
        v: &Variant,
        pos: &Position,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<String> {
        random_treasures(v, pos, pick)
    }

    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        Hunt::load(pos).map_or_else(Vec::new, |hunt| hunt.write_fen(v))
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        Hunt::read_fen(v, pos, words)?;
        let hunt = Hunt::load(pos).expect("just stored");
        let layer = pos.mark_layer(NUMBER, STANDING).expect("running");
        for sq in hunt.standing(pos) {
            pos.set_mark(layer, sq, true);
        }
        Ok(())
    }

    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        if let Some(hunt) = Hunt::load(pos) {
            let line = hunt.overlay(v, out);
            out.lines.push(line);
        }
    }

    /// TH-2, TH-4: a piece of the mover that stands on the opponent's treasure when his
    /// move is over, and did not stand there before it, has found it. With the treasure
    /// secret, a square reached is no longer a candidate: the game went on (TH-5).
    fn before_turn_passes(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        let Some(mut hunt) = Hunt::load(pos) else {
            return;
        };
        let layer = pos.mark_layer(NUMBER, STANDING).expect("running");
        let mover = mv.piece.color;
        let theirs = mover.other().index();
        let arrived = hunt.arrivals(pos, mover, pos.marked(layer));
        if arrived.nonempty() {
            hunt.reached[theirs] = hunt.known[theirs].is_some();
            hunt.open[theirs] &= !arrived;
        }
        for sq in pos.marked(layer) {
            pos.set_mark(layer, sq, false);
        }
        for sq in hunt.standing(pos) {
            pos.set_mark(layer, sq, true);
        }
        hunt.store(pos);
    }

    /// TH-2: the player whose piece reached the other's treasure.
    fn winner(&self, _v: &Variant, pos: &Position) -> Option<Color> {
        let hunt = Hunt::load(pos)?;
        Color::BOTH
            .into_iter()
            .find(|c| hunt.reached[c.index()])
            .map(Color::other)
    }

    fn victory(&self, winner: Color) -> (&'static str, String) {
        (
            "treasure-found",
            format!(
                "{winner} reached the {} treasure and won (TH-2)",
                winner.other()
            ),
        )
    }

    /// TH-5: a move that reaches a square which may be the loser's treasure, where the
    /// record claims the win for the player who makes it: that square was the treasure.
    fn explain_win(&self, v: &Variant, pos: &mut Position, mv: &Move) -> bool {
        let Some(mut hunt) = Hunt::load(pos) else {
            return false;
        };
        let loser = mv.piece.color.other().index();
        if hunt.known[loser].is_some() {
            return false;
        }
        let mut after = pos.clone();
        v.play(&mut after, mv);
        let Some(left) = Hunt::load(&after).map(|after| after.open[loser]) else {
            return false;
        };
        // Castling may reach two such squares: the king's names the treasure.
        let reached = hunt.open[loser] & !left;
        let Some(sq) = reached.contains(mv.to).then_some(mv.to).or(reached.first()) else {
            return false;
        };
        hunt.known[loser] = Some(sq);
        hunt.open[loser] = sq.bit();
        hunt.store(pos);
        true
    }

    /// TH-3: a move that finds the treasure but leaves the mover's king in check.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        !wins_exposed(v, pos, mv)
    }

    /// Names TH-3 where a written move would reach the treasure but exposes the mover's
    /// king, and TH-2 where the game is over.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        if let Some(winner) = self.winner(v, pos) {
            return Some(Err(san::illegal(
                format!(
                    "the game is over: {winner} reached the {} treasure and won (TH-2)",
                    winner.other()
                ),
                None,
            )));
        }
        let candidates = san::candidates(v, pos, written);
        let exposed = candidates.iter().find(|mv| wins_exposed(v, pos, mv))?;
        if candidates
            .iter()
            .any(|mv| !wins_exposed(v, pos, mv) && !v.leaves_king_attacked(pos, mv))
        {
            return None;
        }
        let hunt = Hunt::load(pos)?;
        let treasure = hunt.known[pos.turn.other().index()]?;
        Some(Err(san::illegal(
            format!(
                "{}; it would reach the {} treasure on {}, but a move that leaves the own king in check stays illegal and wins nothing (TH-3)",
                san::king_exposed(v, pos, exposed),
                pos.turn.other(),
                v.geometry.name(treasure)
            ),
            san::legal_help(v, pos, &san::written(written), Some(exposed.piece.kind)),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{Notation, Square};
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn with_treasures(fen: &str, squares: Option<[&str; 2]>) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&TreasureHunt, None).unwrap();
        let choices: Vec<Choice> = squares
            .into_iter()
            .flatten()
            .map(|s| Choice::Square(Square::parse(s).unwrap()))
            .collect();
        TreasureHunt.begin(v, &mut pos, &choices).unwrap();
        pos
    }

    fn play(pos: &mut Position, written: &str) {
        let v = event_chess();
        let mv = san::resolve(v, pos, &Notation::parse(written).unwrap())
            .unwrap_or_else(|r| panic!("{written}: {}", r.reason));
        v.play(pos, &mv);
    }

    #[test]
    fn reaching_the_enemy_treasure_wins_and_the_own_does_nothing() {
        let v = event_chess();
        let mut pos = with_treasures("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Some(["a4", "a6"]));
        play(&mut pos, "Ra4");
        assert_eq!(v.winner(&pos), None, "a4 is White's own treasure");
        play(&mut pos, "Kd7");
        play(&mut pos, "Ra6");
        assert_eq!(v.winner(&pos), Some(Color::White), "TH-2");
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        assert!(moves.is_empty(), "the game is over");
    }

    #[test]
    fn a_treasure_may_not_hold_an_enemy_piece() {
        let v = event_chess();
        let mut pos = parse_fen(v, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        pos.start_event(&TreasureHunt, None).unwrap();
        let choices = [Choice::Square(Square::parse("e1").unwrap()); 2];
        let why = TreasureHunt.begin(v, &mut pos, &choices).unwrap_err();
        assert!(
            why.contains("black's treasure e1") && why.contains("TH-1"),
            "{why}"
        );
    }

    #[test]
    fn the_king_may_not_find_an_attacked_treasure() {
        // TH-3: h1 is Black's treasure, attacked by the rook on h8.
        let v = event_chess();
        let pos = with_treasures("4k2r/8/8/8/8/8/8/6K1 w - - 0 1", Some(["a1", "h1"]));
        let refused = san::resolve(v, &pos, &Notation::parse("Kh1").unwrap()).unwrap_err();
        assert!(refused.reason.contains("TH-3"), "{}", refused.reason);
    }

    #[test]
    fn a_piece_put_there_by_the_opponent_finds_nothing_until_it_arrives_again() {
        // TH-4: the white rook stands on d4, Black's treasure, from the FEN on; other
        // moves leave it there without a win, and stepping off and back wins.
        let v = event_chess();
        let mut pos = parse_fen(v, "4k3/8/8/8/3R4/8/8/4K3 w - - 0 1 events(88-:a1,d4)").unwrap();
        play(&mut pos, "Ke2");
        play(&mut pos, "Kf7");
        assert_eq!(v.winner(&pos), None);
        play(&mut pos, "Rd5");
        play(&mut pos, "Kf6");
        play(&mut pos, "Rd4");
        assert_eq!(v.winner(&pos), Some(Color::White));
    }

    #[test]
    fn a_secret_treasure_comes_out_where_the_record_claims_the_win() {
        let v = event_chess();
        let mut pos = with_treasures("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", None);
        play(&mut pos, "Ra4");
        play(&mut pos, "Kd7");
        let to_a6 = san::resolve(v, &pos, &Notation::parse("Ra6").unwrap()).unwrap();
        let mut played = pos.clone();
        v.play(&mut played, &to_a6);
        assert_eq!(v.winner(&played), None, "secret: the game goes on");
        assert!(TreasureHunt.explain_win(v, &mut pos, &to_a6));
        assert_eq!(Hunt::load(&pos).unwrap().known[1], Some(sq("a6")));
        v.play(&mut pos, &to_a6);
        assert_eq!(v.winner(&pos), Some(Color::White));
        // The rook has been on a4 (White's own treasure, but a square that may be
        // Black's too): a landing there again cannot be the win.
        let mut pos = with_treasures("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", None);
        play(&mut pos, "Ra4");
        play(&mut pos, "Kd7");
        play(&mut pos, "Ra1");
        play(&mut pos, "Kd8");
        let again = san::resolve(v, &pos, &Notation::parse("Ra4").unwrap()).unwrap();
        assert!(!TreasureHunt.explain_win(v, &mut pos, &again));
    }
}
