//! Event #5 Hidden passage (seed 000, rulings HP-1 to HP-9): each player chooses an empty
//! square in his half of the board; a piece that ends its move on either goes on to the
//! other as the second half of the same move. A record may give the squares
//! (`[%event 5 c4 f6]`) or keep them secret, and then its moves tell them (HP-8).
//!
//! HP-9: a move of any kind whose piece ends on a passage square goes on through it. An
//! en-passant capture onto one is written as any pawn capture through the passage
//! (`exd6-h3`, the pawn taken on d5). A castling move whose king or rook ends on one is
//! written `O-O` or `O-O-O` all the same, the passage implied: each wing has one castling
//! move, so the plain form stays unambiguous, and no second spelling has to be read or
//! checked (`Move::to` is then the king's exit, or `rook_to` the rook's).

use serde::Serialize;

use crate::command::Choice;
use crate::diagnostic::{Code, Diagnostic, MoveRef};
use crate::notation::{MoveBody, Notation, PieceMove, Separator, Square};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState, Follower, Moved, Overlay};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;
use crate::span::Span;

pub struct HiddenPassage;

/// The event's number.
const NUMBER: u16 = 5;

/// What a position knows of the two squares (HP-1, HP-8), kept in the event's
/// [`EventState`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passage {
    /// Chosen, but not (yet) told by the record: the squares each player could have
    /// chosen, white's then black's (empty when the event started, in the chooser's half).
    Secret { candidates: [Bitboard; 2] },
    /// White's square and black's; `revealed` once a piece has gone through (HP-2), after
    /// which the passage counts for check (HP-7).
    Known { squares: [Sq; 2], revealed: bool },
}

/// `EventState::words[0]`: what the boards hold.
const SECRET: u16 = 0;
const KNOWN: u16 = 1;
const REVEALED: u16 = 2;

impl Passage {
    fn load(state: &EventState) -> Passage {
        match state.words[0] {
            SECRET => Passage::Secret {
                candidates: state.boards,
            },
            word => Passage::Known {
                squares: state.boards.map(|b| b.first().expect("a known square")),
                revealed: word == REVEALED,
            },
        }
    }

    fn store(self) -> EventState {
        match self {
            Passage::Secret { candidates } => EventState {
                boards: candidates,
                words: [SECRET, 0, 0, 0],
            },
            Passage::Known { squares, revealed } => EventState {
                boards: squares.map(Sq::bit),
                words: [if revealed { REVEALED } else { KNOWN }, 0, 0, 0],
            },
        }
    }

    /// Both squares, when known.
    pub fn squares(&self) -> Option<[Sq; 2]> {
        match *self {
            Passage::Known { squares, .. } => Some(squares),
            Passage::Secret { .. } => None,
        }
    }

    pub fn is_revealed(&self) -> bool {
        matches!(self, Passage::Known { revealed: true, .. })
    }

    /// The other end of the passage from `sq`, when `sq` is a known passage square.
    pub fn exit_from(&self, sq: Sq) -> Option<Sq> {
        let [white, black] = self.squares()?;
        if sq == white {
            Some(black)
        } else if sq == black {
            Some(white)
        } else {
            None
        }
    }
}

/// What `pos` knows of the passage, while the event runs.
pub fn passage(pos: &Position) -> Option<Passage> {
    pos.event_state(NUMBER).map(Passage::load)
}

fn set_passage(pos: &mut Position, passage: Passage) {
    pos.set_event_state(NUMBER, passage.store());
}

/// The squares of `color`'s half of the board (HP-1: ranks 1-4 for white, 5-8 for black).
fn half(v: &Variant, color: Color) -> Bitboard {
    let g = v.geometry;
    let split = g.height / 2;
    (0..g.height)
        .filter(|&rank| (rank < split) == (color == Color::White))
        .fold(Bitboard::EMPTY, |bb, rank| bb | g.rank_mask(rank))
}

/// White's square and black's, in whichever order they come, or why two squares
/// cannot be the two ends of a passage.
fn by_half(v: &Variant, a: Sq, b: Sq) -> Result<[Sq; 2], String> {
    let g = v.geometry;
    let white = half(v, Color::White);
    match (white.contains(a), white.contains(b)) {
        (true, false) => Ok([a, b]),
        (false, true) => Ok([b, a]),
        (both_white, _) => Err(format!(
            "{} and {} are both in {}'s half of the board, and each player chooses one square in his own half (HP-1)",
            g.name(a),
            g.name(b),
            if both_white {
                Color::White
            } else {
                Color::Black
            }
        )),
    }
}

/// Whether the move ends where its piece lands by its own movement: what a passage
/// square turns into a move through the passage (HP-2). Pushes and swaps of other events
/// do not (EC-6).
fn lands(mv: &Move) -> bool {
    matches!(
        mv.special,
        Special::Normal | Special::DoubleStep | Special::EnPassant
    )
}

/// The pawns of `by` that can step onto the empty square `sq`, one step or two.
fn pawn_steps_onto(v: &Variant, pos: &Position, sq: Sq, by: Color, occupied: Bitboard) -> Bitboard {
    let Some(pawn) = v.tables.pawn else {
        return Bitboard::EMPTY;
    };
    let g = v.geometry;
    let pawns = pos.pieces(by, pawn) & occupied;
    let Some(one_back) = g.offset(sq, 0, -by.forward()) else {
        return Bitboard::EMPTY;
    };
    if pawns.contains(one_back) {
        return one_back.bit();
    }
    if occupied.contains(one_back) {
        return Bitboard::EMPTY;
    }
    match g.offset(one_back, 0, -by.forward()) {
        Some(two_back)
            if pawns.contains(two_back)
                && (v.tables.double_step_squares[by.index()].contains(two_back)
                    || pos
                        .events()
                        .iter()
                        .any(|e| e.may_double_step(v, pos, two_back, by))) =>
        {
            two_back.bit()
        }
        _ => Bitboard::EMPTY,
    }
}

impl HiddenPassage {
    /// [`Event::begin`] before saying what happens when the choices do not fit: the
    /// squares each player may have chosen (HP-1), and the two chosen if given.
    fn choose(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        let g = v.geometry;
        let empty = !pos.occupied() & g.all();
        let mut candidates = [half(v, Color::White) & empty, half(v, Color::Black) & empty];
        set_passage(pos, Passage::Secret { candidates });
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
                    "`{choice}` is no square: #5 takes the two chosen squares"
                )),
            })
            .collect::<Result<Vec<Option<Sq>>, String>>()?;
        let [a, b] = squares[..] else {
            return Err(format!(
                "#5 takes two squares, one chosen by each player, not {}",
                squares.len()
            ));
        };
        for sq in [a, b].into_iter().flatten() {
            if pos.piece_at(sq).is_some() {
                return Err(format!(
                    "{} holds {}, and a chosen square must be empty when the event starts (HP-1)",
                    g.name(sq),
                    san::describe_piece(v, pos, sq)
                ));
            }
        }
        let (a, b) = match (a, b) {
            (Some(a), Some(b)) => (a, b),
            (None, None) => return Ok(()),
            // One square told (`c4 ?`, a reveal in words): it narrows its half's
            // candidates to itself, and the other stays secret (HP-8).
            (Some(told), None) | (None, Some(told)) => {
                let owner = usize::from(!half(v, Color::White).contains(told));
                candidates[owner] = told.bit();
                set_passage(pos, Passage::Secret { candidates });
                return Ok(());
            }
        };
        let squares = by_half(v, a, b)?;
        set_passage(
            pos,
            Passage::Known {
                squares,
                revealed: false,
            },
        );
        Ok(())
    }

    /// The passage squares a written move names as entry and exit, when it reads as a
    /// move through the passage: three squares, a capture or promotion written on the
    /// first of two (`Nxf6-c4`), or two squares of which the first holds no piece of
    /// ours to move from (`c4-f6`; `Ng1-f3` is a knight leaving g1) and which can be a
    /// passage's two ends (with the squares known: one of them is a passage square).
    fn passage_reading(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
        passage: Passage,
    ) -> Option<(Sq, Sq)> {
        let g = v.geometry;
        let n = written.targets.len();
        if n < 2 {
            return None;
        }
        let (entry_written, exit_written) = (written.targets[n - 2], written.targets[n - 1]);
        let entry = g.from_square(entry_written.square)?;
        let exit = g.from_square(exit_written.square)?;
        let marked = n == 3
            || entry_written.separator == Separator::Capture
            || entry_written.promotion.is_some();
        if marked {
            return Some((entry, exit));
        }
        let kind = san::written_kind(v, written).ok()?;
        let moves_from_entry = pos.piece_at(entry).is_some_and(|p| {
            p.color == pos.turn && (written.piece.is_none() || Some(p.kind) == kind)
        });
        let could_be_passage = match passage {
            Passage::Known { .. } => {
                passage.exit_from(entry).is_some() || passage.exit_from(exit).is_some()
            }
            Passage::Secret { .. } => by_half(v, entry, exit).is_ok(),
        };
        (!moves_from_entry && could_be_passage).then_some((entry, exit))
    }

    /// Resolves a move written through the passage from `entry` to `exit`; with the
    /// squares secret, the move reveals them (HP-8).
    fn resolve_through(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
        entry: Sq,
        exit: Sq,
        passage: Passage,
    ) -> Result<Move, Rejection> {
        let g = v.geometry;
        let n = written.targets.len();
        let origin = (n == 3).then(|| written.targets[0].square);
        if written.targets[n - 2].promotion.is_some() {
            return Err(san::illegal(
                format!(
                    "only the square a move ends on counts for promotion: the pawn goes on from {} to {}, so a promotion is written after {} (HP-4)",
                    g.name(entry),
                    g.name(exit),
                    g.name(exit)
                ),
                None,
            ));
        }
        match passage {
            Passage::Secret { candidates } => {
                let squares = by_half(v, entry, exit).map_err(|why| san::illegal(why, None))?;
                for (color, sq) in [Color::White, Color::Black].into_iter().zip(squares) {
                    let could_be = candidates[color.index()];
                    if !could_be.contains(sq) {
                        let why = match could_be.first() {
                            Some(told) if could_be.count() == 1 => format!(
                                "the record tells {color}'s square, {} (HP-8)",
                                g.name(told)
                            ),
                            _ => "it was not empty when the event started (HP-1)".to_owned(),
                        };
                        return Err(san::illegal(
                            format!("{} cannot be {color}'s passage square: {why}", g.name(sq)),
                            None,
                        ));
                    }
                }
                // Judged as the players saw it: the squares chosen, not yet revealed.
                let mut chosen = pos.clone();
                set_passage(
                    &mut chosen,
                    Passage::Known {
                        squares,
                        revealed: false,
                    },
                );
                self.resolve_known(v, &chosen, written, origin, entry, exit)
            }
            Passage::Known { squares, .. } => match passage.exit_from(entry) {
                Some(end) if end == exit => {
                    self.resolve_known(v, pos, written, origin, entry, exit)
                }
                Some(end) => Err(san::illegal(
                    format!(
                        "the passage from {} leads to {}, not to {} (HP-2)",
                        g.name(entry),
                        g.name(end),
                        g.name(exit)
                    ),
                    self.help(v, pos, written),
                )),
                None => Err(san::illegal(
                    format!(
                        "{} is no passage square: the passage joins {} and {} (HP-2)",
                        g.name(entry),
                        g.name(squares[0]),
                        g.name(squares[1])
                    ),
                    self.help(v, pos, written),
                )),
            },
        }
    }

    /// The one legal move of the written piece that ends on `entry` and goes on to
    /// `exit`, the squares being known.
    fn resolve_known(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
        origin: Option<Square>,
        entry: Sq,
        exit: Sq,
    ) -> Result<Move, Rejection> {
        let kind = san::written_kind(v, written)?;
        let last = written.targets.last().expect("a piece move names a square");
        let promotion = san::promotion_kind(v, pos, written, last.promotion)?;
        let mut from = san::hinted_origins(v, written.hint) & pos.by_color(pos.turn);
        if let Some(origin) = origin {
            from &= san::on_board(v, origin)?.bit();
        }
        // `Ng1-f3` names its piece; `g1f3` means whatever stands on g1.
        let kind = kind.filter(|_| written.piece.is_some() || origin.is_none());
        if let Some(kind) = kind {
            from &= pos.by_kind(kind);
        }
        if written.piece.is_none() && written.hint.is_none() && origin.is_none() {
            // A pawn without its file written steps straight onto the entry.
            from &= v.tables.file_of[entry.index()];
        }
        let through = Special::Pass { hole: entry };
        let mut moves = Vec::new();
        v.legal_moves_between(pos, from, exit.bit(), &mut moves);
        moves.retain(|mv| {
            mv.special == through
                && mv.promotion == promotion
                && san::choices_match(v, pos, written, mv)
        });
        match moves.as_slice() {
            [mv] => Ok(*mv),
            [] => Err(san::illegal(
                self.explain(v, pos, from, kind, (entry, exit), promotion),
                self.help(v, pos, written),
            )),
            several => Err(san::ambiguous(v, pos, several)),
        }
    }

    /// Why no legal move goes through the passage from `entry` to `exit` as written.
    fn explain(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        kind: Option<Kind>,
        (entry, exit): (Sq, Sq),
        promotion: Option<Kind>,
    ) -> String {
        let g = v.geometry;
        let us = pos.turn;
        let revealed = passage(pos).is_some_and(|p| p.is_revealed());
        let mut pseudo = Vec::new();
        v.pseudo_moves(pos, from, exit.bit(), &mut pseudo);
        pseudo.retain(|mv| mv.special == Special::Pass { hole: entry });
        if let Some(mv) = pseudo.iter().find(|mv| mv.promotion == promotion) {
            if !self.allows(v, pos, mv) {
                let plain = plain_landing(v, pos, mv, entry);
                return format!(
                    "before the passage is revealed a move must be legal as if there were no passage, and as a move to {} {} (HP-6)",
                    g.name(entry),
                    san::king_exposed(v, pos, &plain)
                );
            }
            let ruling = if revealed {
                "HP-7"
            } else {
                "its real result counts, HP-6"
            };
            return format!(
                "{} once it goes on through the passage to {} ({ruling})",
                san::king_exposed(v, pos, mv),
                g.name(exit)
            );
        }
        if let Some(mv) = pseudo.first() {
            return match promotion {
                None => format!(
                    "a pawn whose move ends on {} must promote there (HP-4: `{}`)",
                    g.name(exit),
                    san::san_plain(v, pos, mv)
                ),
                Some(_) => format!(
                    "the pawn's move ends on {}, where it does not promote (HP-4)",
                    g.name(exit)
                ),
            };
        }
        let what = kind.map_or("piece", |k| v.piece(k).name.as_str());
        let mut reaching = Vec::new();
        v.moves_to(pos, from, entry, &mut reaching);
        match pos.piece_at(exit) {
            Some(piece) if piece.color == us && reaching.iter().any(|mv| mv.from != exit) => {
                format!(
                    "the passage leads on from {} to {}, where {} stands: a move through it onto a piece of its own side is illegal (HP-3)",
                    g.name(entry),
                    g.name(exit),
                    san::describe_piece(v, pos, exit)
                )
            }
            _ => format!(
                "no {us} {what} can end a move on the passage square {}",
                g.name(entry)
            ),
        }
    }

    /// A pawn capture onto an empty square behind which the passage let a pawn go on:
    /// it left no en-passant square (HP-5, seed example 2's `bxc3`).
    fn en_passant_after_passage(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
        passage: Passage,
    ) -> Option<Rejection> {
        let g = v.geometry;
        let [target] = written.targets.as_slice() else {
            return None;
        };
        let target = g.from_square(target.square)?;
        let is_pawn_capture = written.piece.is_none() && written.hint.is_some();
        let behind = g.offset(target, 0, -pos.turn.forward())?;
        (is_pawn_capture
            && passage.is_revealed()
            && pos.piece_at(target).is_none()
            && pos.ep != Some(target)
            && passage.exit_from(behind).is_some())
        .then(|| {
            san::illegal(
                format!(
                    "there is nothing to capture on {}: a pawn that goes on through the passage from {} made no two-square step, so it cannot be taken en passant (HP-5)",
                    g.name(target),
                    g.name(behind)
                ),
                self.help(v, pos, written),
            )
        })
    }

    /// The legal moves of the piece the record meant, as help.
    fn help(&self, v: &Variant, pos: &Position, written: &PieceMove) -> Option<String> {
        let kind = san::written_kind(v, written)
            .ok()
            .flatten()
            .filter(|_| written.piece.is_some());
        san::legal_help(v, pos, &san::written(written), kind)
    }
}

/// HP-9: a castling move whose king or rook ends on a passage square, with that piece
/// gone on to the other end (taking an enemy piece there, HP-3); `None` where a piece
/// of the castling side stands there. Written `O-O` or `O-O-O` all the same: one
/// castling move per wing, the passage implied, as a move ending on a passage square
/// is one move whichever way it is written (notation.md section 3).
fn castle_through(pos: &Position, squares: [Sq; 2], mv: Move) -> Option<Move> {
    let Special::Castle { rook_from, rook_to } = mv.special else {
        return Some(mv);
    };
    let exit_of = |sq: Sq| {
        (sq == squares[0])
            .then_some(squares[1])
            .or((sq == squares[1]).then_some(squares[0]))
    };
    let (king_to, rook_to, exit) = match (exit_of(mv.to), exit_of(rook_to)) {
        (Some(exit), _) => (exit, rook_to, exit),
        (None, Some(exit)) => (mv.to, exit, exit),
        (None, None) => return Some(mv),
    };
    let at_exit = pos.piece_at(exit);
    if at_exit.is_some_and(|p| p.color == mv.piece.color) {
        return None;
    }
    Some(Move {
        to: king_to,
        captured: at_exit,
        special: Special::Castle { rook_from, rook_to },
        ..mv
    })
}

/// The castling move `mv` would be without the passage (HP-6), if it goes through one.
fn plain_castle(v: &Variant, mv: &Move) -> Option<Move> {
    let Special::Castle { rook_from, rook_to } = mv.special else {
        return None;
    };
    let path = v.castling_path(mv.piece.color, mv.from, rook_from)?;
    (path.king_to != mv.to || path.rook_to != rook_to).then_some(Move {
        to: path.king_to,
        captured: None,
        special: Special::Castle {
            rook_from,
            rook_to: path.rook_to,
        },
        ..*mv
    })
}

/// `mv` as if there were no passage: the piece stays on the square it entered by, an
/// en-passant capture there staying one (HP-9).
fn plain_landing(v: &Variant, pos: &Position, mv: &Move, entry: Sq) -> Move {
    let taken = mv.entry_capture_square(v, pos);
    Move {
        to: entry,
        captured: taken.and_then(|sq| pos.piece_at(sq)),
        promotion: None,
        special: if taken.is_some_and(|sq| sq != entry) {
            Special::EnPassant
        } else {
            Special::Normal
        },
        ..*mv
    }
}

/// What the moves of one line have told of the squares (HP-8), and the plain landings
/// that a later reveal would contradict.
#[derive(Clone, Default)]
struct PassageFollower {
    /// The ply from which the squares are known, and whether a move revealed them to
    /// the reader rather than the event command.
    known_from: Option<usize>,
    inferred: bool,
    /// The ply of the first move through the passage.
    revealed_at: Option<usize>,
    /// The plain landings on squares the passage may use while its squares are secret.
    landings: Vec<Landing>,
}

/// A move that ended plainly on a square while the squares were secret, which proves
/// the square was not chosen (HP-8) unless a later move reveals it after all.
#[derive(Clone)]
struct Landing {
    square: Sq,
    span: Span,
    at: MoveRef,
    notation: Notation,
    before: Position,
}

/// The squares as the main line tells them (`--format json`), so a moderator sees what
/// the record implies.
#[derive(Serialize)]
struct PassageReport {
    /// White's square, when given or revealed.
    white: Option<String>,
    /// Black's square, when given or revealed.
    black: Option<String>,
    /// `given` by the event command, `inferred` from the move that revealed them (HP-8),
    /// or still `secret`.
    source: &'static str,
    /// The main-line ply from which the squares are known.
    known_from: Option<usize>,
    /// The main-line ply of the first move through the passage (HP-2).
    revealed_at: Option<usize>,
}

/// Whether a move written as `notation` names `hole` as the square it passes through
/// (`Nxf6-c4`, `Ng8xf6-c4`), not only as where it ends.
fn written_through(notation: &Notation, hole: &str) -> bool {
    match &notation.body {
        MoveBody::Piece(m) => {
            m.targets.len() >= 2 && m.targets[m.targets.len() - 2].square.to_string() == hole
        }
        _ => false,
    }
}

/// The squares a move leaves a piece standing on by its own movement (not a push or a
/// pass).
fn landing_squares(mv: &Move) -> [Option<Sq>; 2] {
    match mv.special {
        Special::Normal | Special::DoubleStep | Special::EnPassant => [Some(mv.to), None],
        Special::Castle { rook_to, .. } => [Some(mv.to), Some(rook_to)],
        Special::Pass { .. } | Special::Event { .. } => [None, None],
    }
}

impl PassageFollower {
    /// While the squares stay secret, a plain landing rules its square out, to be
    /// checked against the reveal; on a square the record tells (`[%event 5 c4 ?]`, a
    /// reveal in words) it is a move through the passage written without it (HP-8).
    fn secret_landings(
        &mut self,
        v: &Variant,
        moved: &Moved<'_>,
        candidates: [Bitboard; 2],
        out: &mut Vec<Diagnostic>,
    ) {
        let g = v.geometry;
        for square in landing_squares(moved.mv).into_iter().flatten() {
            let told = Color::BOTH
                .into_iter()
                .find(|c| candidates[c.index()] == square.bit());
            if let Some(owner) = told {
                let at = (moved.at)();
                let piece = &v.piece(moved.mv.piece.kind).name;
                out.push(
                    Diagnostic::new(
                        Code::EventChoice,
                        moved.span,
                        format!(
                            "`{}` at ply {} ends on {}, which the record tells as {owner}'s passage square: the {piece} goes on through the passage to {}'s square (HP-2), and the record must say so (HP-8)",
                            at.written,
                            at.ply,
                            g.name(square),
                            owner.other()
                        ),
                        "ends on a passage square",
                    )
                    .with_help(format!(
                        "write the move with {}'s square after it (`{}-` and the square)",
                        owner.other(),
                        at.written
                    ))
                    .at_move(at),
                );
            } else if !self.landings.iter().any(|landing| landing.square == square) {
                self.landings.push(Landing {
                    square,
                    span: moved.span,
                    at: (moved.at)(),
                    notation: moved.written.clone(),
                    before: moved.before.clone(),
                });
            }
        }
    }
}

impl Follower for PassageFollower {
    fn fork(&self, ply: usize) -> Box<dyn Follower> {
        Box::new(PassageFollower {
            landings: self
                .landings
                .iter()
                .filter(|landing| landing.at.ply < ply)
                .cloned()
                .collect(),
            ..PassageFollower::default()
        })
    }

    /// A move through the passage must be written so; the reveal of secret squares
    /// contradicts any earlier move that ended plainly on one of them; while they stay
    /// secret, a plain landing rules its square out.
    fn follow(&mut self, v: &Variant, moved: &Moved<'_>, out: &mut Vec<Diagnostic>) -> bool {
        let Moved {
            before,
            after,
            mv,
            written,
            span,
            ..
        } = *moved;
        let (Some(was), Some(now)) = (passage(before), passage(after)) else {
            return true;
        };
        if self.known_from.is_none() && was.squares().is_some() {
            self.known_from = Some((moved.at)().ply);
        }
        if !was.is_revealed() && now.is_revealed() {
            let ply = (moved.at)().ply;
            self.revealed_at = Some(ply);
            if was.squares().is_none() {
                self.inferred = true;
                self.known_from = Some(ply);
            }
        }
        let g = v.geometry;
        if let Special::Pass { hole } = mv.special
            && !written_through(written, &g.name(hole))
        {
            let at = (moved.at)();
            let piece = &v.piece(mv.piece.kind).name;
            out.push(
                Diagnostic::new(
                    Code::EventChoice,
                    span,
                    format!(
                        "`{}` at ply {} ends on the passage square {}, so the {piece} goes on through the passage to {} (HP-2), and the record must say so (HP-8)",
                        at.written,
                        at.ply,
                        g.name(hole),
                        g.name(mv.to)
                    ),
                    "written without the passage",
                )
                .with_help(format!("write `{}`", san::san(v, before, mv)))
                .at_move(at),
            );
        }
        let squares = match now {
            Passage::Known { squares, .. } => squares,
            Passage::Secret { candidates } => {
                self.secret_landings(v, moved, candidates, out);
                return true;
            }
        };
        if was.squares().is_some() {
            return true;
        }
        let reveal = (moved.at)();
        for landing in self.landings.iter().filter(|l| squares.contains(&l.square)) {
            let owner = if squares[0] == landing.square {
                Color::White
            } else {
                Color::Black
            };
            let mut chosen = landing.before.clone();
            set_passage(
                &mut chosen,
                Passage::Known {
                    squares,
                    revealed: false,
                },
            );
            let help = match san::resolve(v, &chosen, &landing.notation) {
                Ok(through) => format!("write `{}`", san::san(v, &chosen, &through)),
                Err(rejection) => format!(
                    "through the passage the move was illegal: {}",
                    rejection.reason
                ),
            };
            out.push(
                Diagnostic::new(
                    Code::EventChoice,
                    landing.span,
                    format!(
                        "`{}` at ply {} ended on {}, which `{}` at ply {} reveals as {owner}'s passage square: the move went on through the passage (HP-2), and the record must say so (HP-8)",
                        landing.at.written,
                        landing.at.ply,
                        g.name(landing.square),
                        reveal.written,
                        reveal.ply
                    ),
                    "ends on a passage square",
                )
                .with_help(help)
                .at_move(landing.at.clone()),
            );
        }
        self.landings.clear();
        true
    }

    fn report(&self, v: &Variant, pos: &Position) -> Option<(&'static str, serde_json::Value)> {
        let passage = passage(pos)?;
        let [white, black] = passage.squares().map_or([None, None], |squares| {
            squares.map(|sq| Some(v.geometry.name(sq)))
        });
        let report = PassageReport {
            white,
            black,
            source: match passage {
                Passage::Secret { .. } => "secret",
                Passage::Known { .. } if self.inferred => "inferred",
                Passage::Known { .. } => "given",
            },
            known_from: self.known_from,
            revealed_at: self.revealed_at,
        };
        Some(("passage", serde_json::to_value(report).ok()?))
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Hidden passage",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &[
        "HP-1", "HP-2", "HP-3", "HP-4", "HP-5", "HP-6", "HP-7", "HP-8", "HP-9", "EC-4",
    ],
    page: "docs/rules/event-5-hidden-passage.md",
};

impl Event for HiddenPassage {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn takes_choices(&self) -> bool {
        true
    }

    /// Its squares (`c4,f6`, `!` once revealed), or `?` while secret.
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let g = v.geometry;
        match passage(pos) {
            Some(Passage::Known { squares, revealed }) => {
                let mark = if revealed { "!" } else { "" };
                vec![g.name(squares[0]), format!("{}{mark}", g.name(squares[1]))]
            }
            _ => vec!["?".to_owned()],
        }
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let revealed = words.last().is_some_and(|w| w.ends_with('!'));
        let words: Vec<&str> = words.iter().map(|w| w.trim_end_matches('!')).collect();
        self.begin(v, pos, &[])?;
        if words == ["?"] {
            return Ok(());
        }
        let [a, b] = words[..] else {
            return Err("#5 takes its two squares, or ?".to_owned());
        };
        let squares = [super::fen_square(v, a)?, super::fen_square(v, b)?];
        set_passage(pos, Passage::Known { squares, revealed });
        Ok(())
    }

    /// The squares when known, marked `*`.
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let g = v.geometry;
        match passage(pos) {
            Some(Passage::Known { squares, revealed }) => {
                out.doorways.extend(squares);
                out.lines.push(format!(
                    "passage: {} <-> {}, {} (marked *)",
                    g.name(squares[0]),
                    g.name(squares[1]),
                    if revealed {
                        "revealed"
                    } else {
                        "not revealed yet"
                    }
                ));
            }
            Some(Passage::Secret { .. }) => out.lines.push("passage: secret".to_owned()),
            None => {}
        }
    }

    /// Squares the command gives are known from the next move on.
    fn follower(&self, _v: &Variant, pos: &Position, next_ply: usize) -> Option<Box<dyn Follower>> {
        let known_from = passage(pos).and_then(|p| p.squares()).map(|_| next_ply);
        Some(Box::new(PassageFollower {
            known_from,
            ..PassageFollower::default()
        }))
    }

    /// One empty square in each half of the board (HP-1).
    fn random_choices(
        &self,
        v: &Variant,
        pos: &Position,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<String> {
        let empty = !pos.occupied() & v.geometry.all();
        let white = super::pick_one(&super::names(v, half(v, Color::White) & empty), pick)?;
        let black = super::pick_one(&super::names(v, half(v, Color::Black) & empty), pick)?;
        Some(format!("{white} {black}"))
    }

    /// A revealed passage changes what attacks what (HP-7).
    fn state_key(&self, state: &EventState) -> u64 {
        if state.words[0] == REVEALED {
            0x3c79_ac49_2b0c_1f6d
        } else {
            0
        }
    }

    /// The squares each player may have chosen (HP-1), and the two chosen if the
    /// command gives them.
    fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        self.choose(v, pos, choices)
            .map_err(|why| format!("{why}; the squares stay secret"))
    }

    fn may_double_step(&self, v: &Variant, _pos: &Position, from: Sq, color: Color) -> bool {
        super::on_own_first_two_ranks(v, from, color)
    }

    /// HP-2: a move that ends on a passage square is no move of its own but the first
    /// half of one through the passage; HP-3 and HP-4 decide what the second half does.
    fn reroute(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
        start: usize,
    ) {
        let Some(Passage::Known { squares, .. }) = passage(pos) else {
            return;
        };
        let ends = squares[0].bit() | squares[1].bit();
        let mut kept = start;
        for read in start..out.len() {
            let mv = match out[read] {
                castle @ Move {
                    special: Special::Castle { .. },
                    ..
                } => match castle_through(pos, squares, castle) {
                    Some(mv) if to.contains(mv.to) => mv,
                    _ => continue,
                },
                mv if lands(&mv) && ends.contains(mv.to) => continue,
                mv => mv,
            };
            out[kept] = mv;
            kept += 1;
        }
        out.truncate(kept);
        for (entry, exit) in [(squares[0], squares[1]), (squares[1], squares[0])] {
            if !to.contains(exit) {
                continue;
            }
            let first = out.len();
            v.moves_to(pos, from, entry, out);
            let landings: Vec<Move> = out.drain(first..).collect();
            let mut previous = None;
            for mv in landings {
                // En passant onto the entry goes on too (HP-9); the pawn it takes is
                // found again from the move's slant (`Move::entry_capture_square`).
                if !lands(&mv) {
                    continue;
                }
                // A pawn reaching its last rank on the entry is listed once per
                // promotion piece: one landing, which promotes (or not) at the exit.
                let landing = Move {
                    promotion: None,
                    ..mv
                };
                if previous == Some(landing) {
                    continue;
                }
                previous = Some(landing);
                let at_exit = pos.piece_at(exit).filter(|_| exit != mv.from);
                if at_exit.is_some_and(|p| p.color == mv.piece.color) {
                    continue;
                }
                let through = Move {
                    to: exit,
                    captured: at_exit,
                    special: Special::Pass { hole: entry },
                    ..landing
                };
                v.push_promotions(pos, through, out);
            }
        }
    }

    /// HP-7: once revealed, a piece on a passage square is attacked by whatever could
    /// end a move on the other one (a pawn only by a capture or a step).
    fn extra_attackers(
        &self,
        v: &Variant,
        pos: &Position,
        sq: Sq,
        by: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        let Some(passage) = passage(pos).filter(Passage::is_revealed) else {
            return Bitboard::EMPTY;
        };
        let Some(other) = passage.exit_from(sq) else {
            return Bitboard::EMPTY;
        };
        match pos.piece_at(other).filter(|_| occupied.contains(other)) {
            Some(piece) if piece.color == by => Bitboard::EMPTY,
            Some(_) => pos.direct_attackers(v, other, by, occupied),
            None => {
                let mut found = pos.direct_attackers(v, other, by, occupied);
                if let Some(pawn) = v.tables.pawn {
                    found &= !pos.by_kind(pawn);
                    found |= pawn_steps_onto(v, pos, other, by, occupied);
                }
                found
            }
        }
    }

    /// HP-6: before the reveal, a move through the passage must also be legal as the
    /// plain move onto its entry square.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        match (passage(pos), mv.special) {
            (
                Some(Passage::Known {
                    revealed: false, ..
                }),
                Special::Pass { hole },
            ) => !v.leaves_king_attacked(pos, &plain_landing(v, pos, mv, hole)),
            (
                Some(Passage::Known {
                    revealed: false, ..
                }),
                Special::Castle { .. },
            ) => plain_castle(v, mv).is_none_or(|plain| !v.leaves_king_attacked(pos, &plain)),
            _ => true,
        }
    }

    /// HP-2: the first move through the passage reveals both squares; with the squares
    /// secret, the move is what tells them (HP-8).
    fn after_landing(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        if let Special::Pass { hole } = mv.special
            && passage(pos).is_some()
            && let Ok(squares) = by_half(v, hole, mv.to)
        {
            set_passage(
                pos,
                Passage::Known {
                    squares,
                    revealed: true,
                },
            );
        }
        // A castling king or rook that went through (HP-9) reveals the known squares.
        if let Some(Passage::Known { squares, .. }) = passage(pos)
            && plain_castle(v, mv).is_some()
        {
            set_passage(
                pos,
                Passage::Known {
                    squares,
                    revealed: true,
                },
            );
        }
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let passage = passage(pos)?;
        if let Some((entry, exit)) = self.passage_reading(v, pos, written, passage) {
            return Some(self.resolve_through(v, pos, written, entry, exit, passage));
        }
        if let Some(refused) = self.en_passant_after_passage(v, pos, written, passage) {
            return Some(Err(refused));
        }
        // A move written as ending on a known passage square goes on through it; that
        // it was written so is for the replay to report (HP-8). With an arrow or a
        // promotion, a square holding a piece of ours is where the piece stands, not
        // where it lands: a rook pushing from a passage square (`Rb2->h2`, EC-5), a
        // knight turning there, or a pawn a push left there promoting by standing still
        // (`g1=N`, LP-3).
        let target = written.targets.last()?;
        let last = v.geometry.from_square(target.square)?;
        if (written.arrow.is_some() || target.promotion.is_some())
            && pos.piece_at(last).is_some_and(|p| p.color == pos.turn)
        {
            return None;
        }
        let exit = passage.exit_from(last)?;
        let origin = (written.targets.len() == 2).then(|| written.targets[0].square);
        Some(self.resolve_known(v, pos, written, origin, last, exit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::Choice;
    use crate::notation::Notation;
    use crate::rules::parse_fen;

    fn event_chess() -> &'static Variant {
        Variant::by_name("event-chess").unwrap()
    }

    fn square(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    fn sq(v: &Variant, name: &str) -> Sq {
        v.geometry.from_square(square(name)).unwrap()
    }

    /// `fen` with #5 started and the squares given.
    fn with_passage(fen: &str, squares: [&str; 2]) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&HiddenPassage, None).unwrap();
        let choices = squares.map(|s| Choice::Square(square(s)));
        HiddenPassage.begin(v, &mut pos, &choices).unwrap();
        pos
    }

    /// `fen` with #5 running and its squares known, as after the moves that put pieces
    /// on them.
    fn with_known(fen: &str, squares: [&str; 2], revealed: bool) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&HiddenPassage, None).unwrap();
        set_passage(
            &mut pos,
            Passage::Known {
                squares: squares.map(|s| sq(v, s)),
                revealed,
            },
        );
        pos
    }

    fn play(pos: &mut Position, written: &str) -> Move {
        let v = event_chess();
        let mv = san::resolve(v, pos, &Notation::parse(written).unwrap())
            .unwrap_or_else(|r| panic!("{written}: {}", r.reason));
        v.play(pos, &mv);
        mv
    }

    fn legal_sans(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves.iter().map(|mv| san::san_plain(v, pos, mv)).collect()
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn hp_9_castling_and_en_passant_go_on_through() {
        let v = event_chess();
        // O-O puts the king on g1, which goes on to d6 and takes the knight there.
        let mut pos = with_known("4k3/8/3n4/8/8/8/8/4K2R w K - 0 1", ["g1", "d6"], false);
        let castle = play(&mut pos, "O-O");
        assert_eq!(castle.to, sq(v, "d6"));
        assert!(castle.is_capture());
        assert_eq!(san::uci(v, &castle), None, "UCI cannot spell the passage");
        assert_eq!(
            pos.piece_at(sq(v, "f1")).map(|p| p.color),
            Some(Color::White)
        );
        assert!(
            passage(&pos).is_some_and(|p| p.is_revealed()),
            "the castle reveals it"
        );
        assert_eq!(pos.captures, [1, 0]);
        // exd6 onto the passage square d6 goes on to h3, the d5 pawn taken en passant.
        let mut pos = with_passage("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", ["h3", "d6"]);
        play(&mut pos, "d5");
        let ep = play(&mut pos, "exd6-h3");
        assert_eq!(ep.special, Special::Pass { hole: sq(v, "d6") });
        assert!(pos.piece_at(sq(v, "d5")).is_none(), "taken en passant");
        assert!(pos.piece_at(sq(v, "h3")).is_some());
        assert_eq!(
            pos.ep, None,
            "a passage move sets no en-passant square (HP-5)"
        );
    }

    #[test]
    fn chosen_squares_must_be_empty_and_one_in_each_half() {
        let v = event_chess();
        let begin = |squares: &[&str]| {
            let mut pos = parse_fen(v, START).unwrap();
            pos.start_event(&HiddenPassage, None).unwrap();
            let choices: Vec<Choice> = squares.iter().map(|s| Choice::Square(square(s))).collect();
            HiddenPassage
                .begin(v, &mut pos, &choices)
                .map(|()| passage(&pos))
        };
        assert_eq!(
            begin(&["f6", "c4"]).unwrap(),
            Some(Passage::Known {
                squares: [sq(v, "c4"), sq(v, "f6")],
                revealed: false
            }),
            "white's square is the one in ranks 1-4, whatever the order"
        );
        assert!(
            begin(&["c4", "d3"])
                .unwrap_err()
                .contains("both in white's half")
        );
        assert!(begin(&["c2", "f6"]).unwrap_err().contains("HP-1"));
        assert!(begin(&["c4"]).unwrap_err().contains("two squares"));
        let Some(Passage::Secret { candidates }) = begin(&[]).unwrap() else {
            panic!("no choices keep the squares secret");
        };
        assert_eq!(candidates[0].count(), 16, "ranks 3 and 4 are empty");
        assert_eq!(candidates[1].count(), 16, "ranks 5 and 6 are empty");
    }

    #[test]
    fn a_move_ending_on_a_passage_square_goes_through_it() {
        let pos = with_passage(START, ["c4", "f6"]);
        let sans = legal_sans(&pos);
        assert!(sans.contains(&"c4-f6".to_owned()), "{sans:?}");
        assert!(!sans.contains(&"c4".to_owned()), "HP-2: no plain c4");
        assert_eq!(sans.len(), 20);
    }

    #[test]
    fn the_first_passage_move_reveals_and_later_ones_capture_at_both_ends() {
        let v = event_chess();
        let mut pos = with_passage(START, ["c4", "f6"]);
        let first = play(&mut pos, "c4-f6");
        assert_eq!(first.special, Special::Pass { hole: sq(v, "c4") });
        assert!(passage(&pos).unwrap().is_revealed());
        assert_eq!(pos.ep, None, "HP-5");
        let before = pos.clone();
        let knight = play(&mut pos, "Ng8xf6-c4");
        assert_eq!(san::san_plain(v, &before, &knight), "Nxf6-c4");
        assert_eq!(san::lan(v, &before, &knight), "Ng8xf6-c4");
        play(&mut pos, "e3");
        play(&mut pos, "Nc6");
        let bishop = play(&mut pos, "Bxc4-f6");
        assert_eq!(bishop.to, sq(v, "f6"));
        assert_eq!(pos.captures, [1, 0], "the knight on c4; f6 was empty");
    }

    #[test]
    fn an_own_piece_at_the_exit_forbids_the_move() {
        // White's knight stands on f6 already: c2-c4 would continue onto it (HP-3).
        let pos = with_known(
            "rnbq1b1r/ppppkppp/5N2/8/8/8/PPPPPPPP/R1BQKBNR w KQ - 0 1",
            ["c4", "f6"],
            true,
        );
        let sans = legal_sans(&pos);
        assert!(sans.iter().all(|s| !s.starts_with("c4")), "{sans:?}");
        assert!(sans.contains(&"c3".to_owned()));
    }

    #[test]
    fn promotion_counts_only_where_the_move_ends() {
        // HP-4: c7-c8 goes on to c1 unpromoted; b2-b4... a pawn exiting on g8 promotes.
        let pos = with_passage("4k3/2P5/8/8/8/8/8/4K3 w - - 0 1", ["c1", "c8"]);
        let sans = legal_sans(&pos);
        assert!(sans.contains(&"c8-c1".to_owned()), "{sans:?}");
        assert!(sans.iter().all(|s| !s.contains('=')), "{sans:?}");
        let pos = with_passage("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1", ["b4", "g8"]);
        let sans = legal_sans(&pos);
        for piece in ["Q", "R", "B", "N"] {
            assert!(sans.contains(&format!("b4-g8={piece}")), "{sans:?}");
        }
        assert!(!sans.contains(&"b4-g8".to_owned()));
    }

    #[test]
    fn the_passage_attacks_only_after_the_reveal() {
        let v = event_chess();
        // A black rook on c8 looks down the c-file at c4; the white king stands on f6.
        let king = sq(v, "f6");
        let fen = "2r1k3/8/5K2/8/8/8/P7/8 w - - 0 1";
        let pos = with_known(fen, ["c4", "f6"], false);
        assert!(
            !pos.is_attacked(v, king, Color::Black),
            "HP-6: not revealed"
        );
        let pos = with_known(fen, ["c4", "f6"], true);
        assert_eq!(
            pos.attackers(v, king, Color::Black, pos.occupied()),
            sq(v, "c8").bit(),
            "HP-7: the rook could end a move on c4"
        );
    }

    #[test]
    fn before_the_reveal_a_passage_move_must_also_be_legal_without_it() {
        // The bishop on a5 checks the white king. Nd3 would not answer the check, but
        // through the passage d3-a5 the knight takes the bishop.
        let fen = "7k/8/8/b7/8/8/5N2/4K3 w - - 0 1";
        let hidden = legal_sans(&with_known(fen, ["d3", "a5"], false));
        assert!(
            !hidden.contains(&"Nd3xa5".to_owned()),
            "HP-6: judged as if no passage first: {hidden:?}"
        );
        let revealed = legal_sans(&with_known(fen, ["d3", "a5"], true));
        assert!(
            revealed.contains(&"Nd3xa5".to_owned()),
            "HP-7: once revealed, the passage answers the check: {revealed:?}"
        );
        // Blocking the rook's check on e4 is no block when e4 leads on to b5.
        let fen = "4r2k/8/8/8/8/5B2/8/4K3 w - - 0 1";
        for revealed in [false, true] {
            let sans = legal_sans(&with_known(fen, ["e4", "b5"], revealed));
            assert!(
                sans.iter().all(|s| !s.starts_with("Be4")) && sans.contains(&"Be2".to_owned()),
                "its real result leaves the king in check: {sans:?}"
            );
        }
        let plain = legal_sans(&with_known(fen, ["c4", "b5"], false));
        assert!(
            plain.contains(&"Be4".to_owned()),
            "without the passage: {plain:?}"
        );
    }

    /// Found by tests/random_games.rs: a rook pushed onto a passage square (EC-5) pushes
    /// from there, and the long form `convert --to lan` writes, `Rb2->h2`, names that
    /// push, not a move onto b2 that would go on through the passage.
    #[test]
    fn a_rook_on_a_passage_square_pushes_in_long_form_too() {
        let v = event_chess();
        let mut pos = with_known("4k3/8/8/8/8/8/1R6/4K3 w - - 0 1", ["b2", "g7"], false);
        pos.start_event(&crate::rules::events::LinePushers, None)
            .unwrap();
        let short = san::resolve(v, &pos, &Notation::parse("R->h2").unwrap()).unwrap();
        let long = san::resolve(v, &pos, &Notation::parse("Rb2->h2").unwrap())
            .unwrap_or_else(|r| panic!("{}", r.reason));
        assert_eq!(long, short);
    }
}
