//! Event #44 Prison (catalogue, its text cut off; rulings PN-1 to PN-8 in
//! `docs/rules/event-44-prison.md`): each player names one own rook his prison; a prison
//! moves and attacks at most one square, castling aside, and an enemy piece its owner
//! captures goes into it while it is empty, out of play for good.
//!
//! The prisons and whether each is full are two marks that travel with the rooks (PN-1,
//! PN-4), so a prisoner rides its prison the way a king rides a rook under #78: it is
//! no piece on the board, and leaves it when the prison is captured (PN-5).

use crate::command::Choice;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Overlay, Reach};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san;
use crate::rules::variant::Variant;

pub struct Prison;

const NUMBER: u16 = 44;

/// The mark layers: the prisons (PN-1), and the prisons that hold a prisoner (PN-4).
const PRISONS: usize = 0;
const FULL: usize = 1;

static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Prison",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('R', 1)]),
    rulings: &[
        "PN-1", "PN-2", "PN-3", "PN-4", "PN-5", "PN-6", "PN-7", "PN-8",
    ],
    page: "docs/rules/event-44-prison.md",
};

/// The squares marked in one of the event's layers.
fn layer(pos: &Position, index: usize) -> Bitboard {
    pos.mark_layer(NUMBER, index)
        .map_or(Bitboard::EMPTY, |layer| pos.marked(layer))
}

/// The prisons of both sides (PN-1).
fn prisons(pos: &Position) -> Bitboard {
    layer(pos, PRISONS)
}

/// The prisons that hold a prisoner (PN-4).
fn full(pos: &Position) -> Bitboard {
    layer(pos, FULL)
}

/// The squares one step from `from` in any direction (PN-2).
fn next_to(v: &Variant, from: Sq) -> Bitboard {
    let mut squares = Bitboard::EMPTY;
    for df in -1..=1 {
        for dr in -1..=1 {
            if let Some(sq) = v.geometry.offset(from, df, dr) {
                squares.set(sq);
            }
        }
    }
    squares
}

/// Whether the piece on `sq` is royal: a king, or what a running event makes royal.
fn royal(v: &Variant, pos: &Position, sq: Sq, piece: Piece) -> bool {
    v.role(piece.kind) == Role::King
        || pos.events().iter().any(|e| {
            e.royals(v, pos, piece.color)
                .is_some_and(|r| r.contains(sq))
        })
}

/// The rooks of `[%event 44 h1 a8]`, one of each side (PN-1).
fn named_prisons(v: &Variant, pos: &Position, choices: &[Choice]) -> Result<[Sq; 2], String> {
    let g = v.geometry;
    let mut named: [Option<Sq>; 2] = [None; 2];
    for choice in choices {
        let Choice::Square(square) = choice else {
            return Err(format!(
                "`{choice}` is no square: #44 Prison takes the squares of the two prison rooks, the starter's first (PN-1)"
            ));
        };
        let sq = g
            .from_square(*square)
            .ok_or_else(|| format!("{square} is not on the board"))?;
        let rook = pos
            .piece_at(sq)
            .filter(|p| v.piece(p.kind).letter == 'R')
            .ok_or_else(|| {
                format!(
                    "{square} holds {}, and each player names one of his rooks as his prison (PN-1)",
                    san::describe_piece(v, pos, sq)
                )
            })?;
        if named[rook.color.index()].replace(sq).is_some() {
            return Err(format!(
                "two {} rooks are named, and each player names one rook as his prison (PN-1)",
                rook.color
            ));
        }
    }
    match named {
        [Some(white), Some(black)] if choices.len() == 2 => Ok([white, black]),
        _ => Err(format!(
            "#44 Prison takes two squares, the prison rook of each player, the starter's first, not {} (PN-1)",
            choices.len()
        )),
    }
}

impl Event for Prison {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn takes_choices(&self) -> bool {
        true
    }

    /// The prisons and the full ones (PN-1, PN-4), part of the position (PN-8).
    fn mark_layers(&self) -> usize {
        2
    }

    /// PN-1: the two prison rooks, the starter's first. A command that names them wrong
    /// leaves both sides without a prison, and the game goes on as if without the event.
    fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        let named = named_prisons(v, pos, choices).map_err(|why| {
            format!("{why}; neither side has a prison, so captures take pieces off as usual")
        })?;
        let layer = pos.mark_layer(NUMBER, PRISONS).expect("started");
        for sq in named {
            pos.set_mark(layer, sq, true);
        }
        Ok(())
    }

    /// A rook of each side, the starter's first (PN-1).
    fn random_choices(
        &self,
        v: &Variant,
        pos: &Position,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<String> {
        let rook = v.kind_of_letter('R')?;
        let [ours, theirs] =
            [pos.turn, pos.turn.other()].map(|color| super::names(v, pos.pieces(color, rook)));
        Some(format!(
            "{} {}",
            super::pick_one(&ours, pick)?,
            super::pick_one(&theirs, pick)?
        ))
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// PN-2, PN-3: a prison goes and attacks one square at most; castling is no reach,
    /// so it stays as it is.
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        _piece: Piece,
        _occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if prisons(pos).contains(from) {
            let near = next_to(v, from);
            reach.quiet &= near;
            reach.attacks &= near;
        }
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        _piece: Piece,
        to: Sq,
    ) -> Option<String> {
        (prisons(pos).contains(from) && !next_to(v, from).contains(to)).then(|| {
            format!(
                "{} is a prison, and under event #44 Prison a prison moves and attacks at most one square, so it cannot go to {} (PN-2, PN-3)",
                san::describe(v, pos, from),
                v.geometry.name(to)
            )
        })
    }

    /// PN-4: an enemy piece that is neither a prison nor royal, captured by a move, goes
    /// into the capturer's prison while that stands and is empty; the mover is still on
    /// its square, so a prison that captures takes its prisoner with it. PN-5: a prison
    /// captured leaves the board with its marks, its prisoner with it.
    fn on_capture(&self, v: &Variant, pos: &mut Position, mv: &Move, victim: Sq) {
        let capturer = mv.piece.color;
        let Some(taken) = pos.piece_at(victim) else {
            return;
        };
        if taken.color == capturer || prisons(pos).contains(victim) || royal(v, pos, victim, taken)
        {
            return;
        }
        let empty_prison = (prisons(pos) & pos.by_color(capturer) & !full(pos)).first();
        if let Some(prison) = empty_prison {
            let layer = pos.mark_layer(NUMBER, FULL).expect("started");
            pos.set_mark(layer, prison, true);
        }
    }

    /// The prisons, a full one followed by `*` (PN-8): `events(44-:h1*,a8)`.
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let full = full(pos);
        prisons(pos)
            .map(|sq| {
                let name = v.geometry.name(sq);
                if full.contains(sq) {
                    format!("{name}*")
                } else {
                    name
                }
            })
            .collect()
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let prisons = pos.mark_layer(NUMBER, PRISONS).expect("started");
        let full = pos.mark_layer(NUMBER, FULL).expect("started");
        for word in words {
            let (square, is_full) = match word.strip_suffix('*') {
                Some(square) => (square, true),
                None => (*word, false),
            };
            let sq = super::fen_square(v, square)?;
            if pos.piece_at(sq).is_none() {
                return Err(format!("{square} holds no piece to be a prison"));
            }
            pos.set_mark(prisons, sq, true);
            pos.set_mark(full, sq, is_full);
        }
        Ok(())
    }

    /// The prisons ringed, and listed with what they hold.
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let prisons = prisons(pos);
        let full = full(pos);
        out.singled_out.extend(prisons);
        let listed: Vec<String> = Color::BOTH
            .into_iter()
            .filter_map(|color| {
                let sq = (prisons & pos.by_color(color)).first()?;
                let holds = if full.contains(sq) {
                    "a prisoner"
                } else {
                    "empty"
                };
                Some(format!("{color} {} ({holds})", v.geometry.name(sq)))
            })
            .collect();
        out.lines.push(if listed.is_empty() {
            "prisons: none".to_owned()
        } else {
            format!("prisons (marked @): {}", listed.join(", "))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::parse_fen;
    use crate::rules::san::{resolve, san};

    fn prison(fen: &str, choices: &[&str]) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        let choices: Vec<Choice> = choices
            .iter()
            .map(|s| Choice::Square(crate::notation::Square::parse(s).unwrap()))
            .collect();
        pos.start_event(&Prison, None).unwrap();
        Prison.begin(v, &mut pos, &choices).unwrap();
        pos
    }

    fn play(pos: &mut Position, written: &str) {
        let v = event_chess();
        let notation = crate::notation::Notation::parse(written).unwrap();
        let mv = resolve(v, pos, &notation).unwrap();
        v.play(pos, &mv);
    }

    fn legal(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves.iter().map(|mv| san(v, pos, mv)).collect()
    }

    #[test]
    fn a_prison_steps_one_square_and_castles_as_ever() {
        let pos = prison("r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1", &["a1", "a8"]);
        let moves = legal(&pos);
        assert!(moves.contains(&"Ra2".to_owned()), "PN-2: {moves:?}");
        assert!(!moves.contains(&"Ra3".to_owned()), "PN-2: {moves:?}");
        assert!(moves.contains(&"Rh8+".to_owned()), "no prison: {moves:?}");
        assert!(moves.contains(&"O-O-O".to_owned()), "PN-2: {moves:?}");
    }

    #[test]
    fn a_far_prison_gives_no_check() {
        let v = event_chess();
        let pos = prison("4k3/8/8/8/8/8/8/r3K2R w - - 0 1", &["h1", "a1"]);
        assert!(!pos.is_check(v), "PN-3");
    }

    #[test]
    fn a_captured_piece_fills_the_empty_prison_once() {
        let v = event_chess();
        let mut pos = prison("r3k3/1n6/8/8/8/8/1R6/R3K3 w - - 0 1", &["a1", "a8"]);
        play(&mut pos, "Rxb7");
        assert_eq!(full(&pos), sq("a1").bit(), "PN-4");
        let fen = crate::rules::write_fen(v, &pos);
        assert!(fen.contains("events(44-:a1*,a8"), "PN-8: {fen}");
        play(&mut pos, "Ra7");
        play(&mut pos, "Rxa7");
        assert_eq!(
            full(&pos),
            sq("a1").bit(),
            "PN-4: a prison is captured whole"
        );
        assert_eq!(prisons(&pos), sq("a1").bit(), "PN-5");
    }
}
