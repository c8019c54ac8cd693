//! Main-line moves already resolved from a variant's start position, by the moves
//! written before them. The games of a collection share their openings (every game of
//! an opening book, the first moves of any database), and finding a move here costs
//! a fraction of resolving it against the legal moves.
//!
//! Exact, not a guess: from the same start, the same notations lead to the same
//! position, so a written move resolves to the same move again, with the same verdict.
//! Only moves that replayed without a word are kept, and only while nothing but moves
//! has changed the position (no FEN, no event), in games that are not Event Chess (whose
//! replay keeps the position before every move for the events that start later).

use std::cell::RefCell;
use std::collections::HashMap;

use rustc_hash::FxBuildHasher;

use crate::notation::{Hint, MoveBody, Notation, Target};
use crate::rules::{Move, Variant};

/// How deep into a game moves are kept, and how many: few enough that the table stays
/// in the processor's cache (about 330 KB). On openings.pgn (a quarter of a million
/// games) this meets 23% of all moves again; keeping 65,536 moves up to ply 8 meets 58%,
/// but its lookups then miss the cache and the whole run was slower than with none.
pub(super) const MAX_PLY: usize = 3;
const MAX_MOVES: usize = 1 << 12;

/// A place in the tree of openings: the root is the start position.
pub(super) type Node = u32;

pub(super) const ROOT: Node = 0;

#[derive(Default)]
pub(super) struct Openings {
    /// The variant whose start position the root is (variants live for the whole run).
    variant: Option<&'static Variant>,
    /// What was written after the moves that lead to a node ([`code`]): the move it
    /// resolved to and the node that move leads to. (Keeping the position it leads to
    /// instead saves little: a position is 512 bytes, copying it costs most of what
    /// playing the move does.)
    next: HashMap<(Node, Code), (Move, Node), FxBuildHasher>,
}

/// A notation packed into a number ([`code`]).
pub(super) type Code = u64;

thread_local! {
    static OPENINGS: RefCell<Openings> = RefCell::default();
}

impl Openings {
    /// Runs `replay` with this thread's openings of `variant`.
    pub(super) fn with<R>(variant: &'static Variant, replay: impl FnOnce(&mut Openings) -> R) -> R {
        OPENINGS.with_borrow_mut(|openings| {
            if !openings.variant.is_some_and(|v| std::ptr::eq(v, variant)) {
                openings.variant = Some(variant);
                openings.next.clear();
                // Grown once: growing by doubling moves every kept move several times.
                openings.next.reserve(MAX_MOVES);
            }
            replay(openings)
        })
    }

    /// The move written as `code` after the moves that lead to `node` resolved to, and
    /// where it leads.
    pub(super) fn find(&self, node: Node, code: Code) -> Option<(Move, Node)> {
        self.next.get(&(node, code)).copied()
    }

    /// Keeps that the move written as `code` at `ply`, after the moves that lead to
    /// `node`, replayed cleanly as `mv`. The node it leads to, or `None` when the tree
    /// keeps no more.
    pub(super) fn keep(&mut self, node: Node, ply: usize, code: Code, mv: Move) -> Option<Node> {
        if ply > MAX_PLY || self.next.len() >= MAX_MOVES {
            return None;
        }
        let to = Node::try_from(self.next.len() + 1).ok()?;
        self.next.insert((node, code), (mv, to));
        Some(to)
    }
}

/// Packs a notation into a number, one to one, each field in bits of its own. `None`
/// for what does not fit (a letter beyond ASCII, a file or rank past 16, three
/// squares) and for the event forms (`K@g7`, `->a8`, `/g1`, `R@h8`, `e4,d4`): such
/// moves are not kept, as no two games share them.
pub(super) fn code(notation: &Notation) -> Option<Code> {
    let ascii = |c: char| u8::try_from(c).ok().filter(u8::is_ascii).map(u64::from);
    let small = |n: u8| (n < 16).then_some(u64::from(n));
    let marks = notation.check.map_or(0, |c| c as u64 + 1)
        | notation.assessment.map_or(0, |a| a as u64 + 1) << 2;
    let body = match &notation.body {
        MoveBody::Piece(m) => {
            if m.placed.is_some() || m.arrow.is_some() || m.swap.is_some() {
                return None;
            }
            let piece = m.piece.map_or(Some(0), ascii)?;
            let hint = match m.hint {
                None => 0,
                Some(Hint::File(f)) => 0x10 | small(f)?,
                Some(Hint::Rank(r)) => 0x20 | small(r)?,
            };
            let mut squares = 0;
            for &Target {
                separator,
                square,
                promotion,
            } in &m.targets
            {
                let promotion = match promotion {
                    None => 0,
                    Some(p) => 0x100 | u64::from(p.equals) << 7 | ascii(char::from(p.piece))?,
                };
                squares = squares << 19
                    | (separator as u64) << 17
                    | small(square.file)? << 13
                    | small(square.rank)? << 9
                    | promotion;
            }
            if m.targets.len() > 2 {
                return None;
            }
            (m.targets.len() as u64) << 38 | squares | hint << 40 | piece << 46
        }
        MoveBody::Castle(castle) => {
            1 << 53 | u64::from(castle.long) << 21 | u64::from(castle.letter)
        }
        MoveBody::Null(spelling) => 2 << 53 | *spelling as u64,
        MoveBody::Placement(_)
        | MoveBody::Turn(_)
        | MoveBody::UnsaidCapture(_)
        | MoveBody::Shot(_)
        | MoveBody::Half(_) => return None,
    };
    Some(body << 5 | marks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn different_notations_have_different_codes() {
        let spellings = [
            "e4", "e4+", "e4#", "e4!", "e4?!", "e3", "f4", "Ne4", "Nxe4", "Nge4", "N1e4", "Ng3e4",
            "Ng3-e4", "Ng3xe4", "exd5", "e8=Q", "e8Q", "e8=N", "exd8=Q+", "O-O", "O-O-O", "0-0",
            "o-o", "--", "Z0", "Nxf6-c4", "c4-g8=Q+", "e10=Q-f1", "p16", "j10", "Pe4", "Ae5",
            "Qh4xe1", "Qh4xe1#", "Rd1", "Rdd1", "R1d1", "a1=Q", "a1=q",
        ];
        let mut seen = HashMap::new();
        for spelling in spellings {
            let notation = Notation::parse(spelling).unwrap();
            let code = code(&notation).unwrap();
            if let Some(earlier) = seen.insert(code, spelling) {
                panic!("`{earlier}` and `{spelling}` share a code");
            }
        }
    }

    #[test]
    fn event_forms_are_not_kept() {
        for spelling in ["Qxf7K@g7+", "R->a8", "Nf3->g2", "Nxe5/g4", "Ra1-e1-f10"] {
            assert_eq!(
                code(&Notation::parse(spelling).unwrap()),
                None,
                "{spelling}"
            );
        }
    }
}
