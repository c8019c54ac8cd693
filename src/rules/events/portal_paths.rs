//! Moves through a portal (#36 Portals: the allied bishops, PO-1), kept apart from the
//! event so that another portal kind (the early #4 Portal Chess's rooks) can share it:
//! a piece whose move reaches an allied portal piece goes on from another one of the
//! mover's choosing, in the same direction, the two portal squares not counted toward
//! its distance (PO-2). At most one transit a move (PO-3). Such a move is an ordinary
//! move (`Special::Normal`, or `EnPassant`): only where it starts and ends matters, so
//! it is written as plain SAN, a pawn's from-to (PO-6).

use crate::rules::board::{Bitboard, Sq};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

/// Where a piece goes through one portal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Through {
    /// Squares it may land on when they are empty (a pawn's steps, PO-4).
    pub quiet: Bitboard,
    /// Squares it attacks: it captures there, and checks a king standing there (PO-5).
    pub attacks: Bitboard,
}

/// The mover's portal pieces: every piece of `color` of the portal kind (`letter`) in
/// `occupied`.
pub(super) fn portals(
    v: &Variant,
    pos: &Position,
    color: Color,
    letter: char,
    occupied: Bitboard,
) -> Bitboard {
    v.kind_of_letter(letter)
        .map_or(Bitboard::EMPTY, |kind| pos.pieces(color, kind) & occupied)
}

/// Where the `piece` on `from` goes through one of `portals` (the mover's portal pieces
/// but itself), with `occupied` in the way. The mover has left `from`: its square is
/// empty on the way but never a landing (PO-3).
pub(super) fn through(
    v: &Variant,
    pos: &Position,
    from: Sq,
    piece: Piece,
    occupied: Bitboard,
    portals: Bitboard,
) -> Through {
    let mut out = Through::default();
    if !portals.has_more_than_one() {
        return out;
    }
    let g = v.geometry;
    let occupied = occupied & !from.bit();
    if v.role(piece.kind) == Role::Pawn {
        let f = piece.color.forward();
        let may_double = v.tables.double_step_squares[piece.color.index()].contains(from)
            || pos.has_events()
                && pos
                    .events()
                    .iter()
                    .any(|e| e.may_double_step(v, pos, from, piece.color));
        if let Some(step) = g.offset(from, 0, f) {
            if portals.contains(step) {
                for exit in portals & !step.bit() {
                    let Some(first) = g.offset(exit, 0, f).filter(|s| !occupied.contains(*s))
                    else {
                        continue;
                    };
                    out.quiet.set(first);
                    if may_double
                        && let Some(second) =
                            g.offset(first, 0, f).filter(|s| !occupied.contains(*s))
                    {
                        out.quiet.set(second);
                    }
                }
            } else if may_double
                && !occupied.contains(step)
                && let Some(entry) = g.offset(step, 0, f).filter(|s| portals.contains(*s))
            {
                // The portal on the second square: the step before it counts (PO-7).
                for exit in portals & !entry.bit() {
                    if let Some(second) = g.offset(exit, 0, f).filter(|s| !occupied.contains(*s)) {
                        out.quiet.set(second);
                    }
                }
            }
        }
        for df in [-1, 1] {
            if let Some(entry) = g.offset(from, df, f).filter(|s| portals.contains(*s)) {
                for exit in portals & !entry.bit() {
                    out.attacks.extend_opt(g.offset(exit, df, f));
                }
            }
        }
    } else {
        for atom in &v.piece(piece.kind).atoms {
            for (dx, dy) in atom.directions() {
                if !atom.rider {
                    if let Some(entry) = g.offset(from, dx, dy).filter(|s| portals.contains(*s)) {
                        for exit in portals & !entry.bit() {
                            out.attacks.extend_opt(g.offset(exit, dx, dy));
                        }
                    }
                    continue;
                }
                let mut entry = g.offset(from, dx, dy);
                while let Some(s) = entry.filter(|s| !occupied.contains(*s)) {
                    entry = g.offset(s, dx, dy);
                }
                let Some(entry) = entry.filter(|s| portals.contains(*s)) else {
                    continue;
                };
                for exit in portals & !entry.bit() {
                    let mut next = g.offset(exit, dx, dy);
                    while let Some(s) = next {
                        out.attacks.set(s);
                        if occupied.contains(s) {
                            break;
                        }
                        next = g.offset(s, dx, dy);
                    }
                }
            }
        }
    }
    out.quiet.clear(from);
    out.attacks.clear(from);
    out
}

trait ExtendOpt {
    fn extend_opt(&mut self, sq: Option<Sq>);
}

impl ExtendOpt for Bitboard {
    fn extend_opt(&mut self, sq: Option<Sq>) {
        if let Some(sq) = sq {
            self.set(sq);
        }
    }
}

/// The moves through a portal (pseudo-legal) of the side to move from `from` into `to`,
/// leaving out those an ordinary move already in `out` makes (PO-6: one move, however
/// many ways lead there).
pub(super) fn moves(
    v: &Variant,
    pos: &Position,
    letter: char,
    from: Bitboard,
    to: Bitboard,
    out: &mut Vec<Move>,
) {
    let us = pos.turn;
    let occupied = pos.occupied();
    let all_portals = portals(v, pos, us, letter, occupied);
    if !all_portals.has_more_than_one() {
        return;
    }
    let ours = pos.by_color(us);
    let theirs = pos.by_color(us.other());
    for sq in ours & from {
        let piece = pos.piece_at(sq).expect("our piece");
        let reached = through(v, pos, sq, piece, occupied, all_portals & !sq.bit());
        let pawn = v.role(piece.kind) == Role::Pawn;
        let mut targets: Vec<(Sq, Option<Piece>, Special)> = Vec::new();
        if pawn {
            for t in reached.quiet & !occupied & to {
                targets.push((t, None, Special::Normal));
            }
            for t in reached.attacks & theirs & to {
                targets.push((t, pos.piece_at(t), Special::Normal));
            }
            if let Some(ep) = pos.ep
                && reached.attacks.contains(ep)
                && to.contains(ep)
                && !occupied.contains(ep)
                && let Some(victim) = v.geometry.offset(ep, 0, -us.forward())
                && let Some(captured) = pos.piece_at(victim)
                && captured.color != us
                && v.role(captured.kind) == Role::Pawn
            {
                targets.push((ep, Some(captured), Special::EnPassant));
            }
        } else {
            for t in reached.attacks & !ours & to {
                targets.push((t, pos.piece_at(t), Special::Normal));
            }
        }
        for (t, captured, special) in targets {
            if out
                .iter()
                .any(|m| m.from == sq && m.to == t && m.piece == piece && m.special == special)
            {
                continue;
            }
            let mv = Move {
                piece,
                from: sq,
                to: t,
                captured,
                promotion: None,
                special,
                faces: None,
                swap: None,
                returned: None,
            };
            v.push_promotions(pos, mv, out);
        }
    }
}

/// The pieces of `by` that attack `sq` through a portal (PO-5), with `occupied` in the
/// way.
pub(super) fn attackers(
    v: &Variant,
    pos: &Position,
    letter: char,
    sq: Sq,
    by: Color,
    occupied: Bitboard,
) -> Bitboard {
    let all_portals = portals(v, pos, by, letter, occupied);
    let mut found = Bitboard::EMPTY;
    if !all_portals.has_more_than_one() {
        return found;
    }
    for from in pos.by_color(by) & occupied {
        let piece = pos.piece_at(from).expect("a piece of `by`");
        if through(v, pos, from, piece, occupied, all_portals & !from.bit())
            .attacks
            .contains(sq)
        {
            found.set(from);
        }
    }
    found
}

/// The en-passant square a pawn's move through a portal leaves (PO-7): the square it
/// crossed after the exit, where its two steps both came after the portal.
pub(super) fn en_passant_square(
    v: &Variant,
    pos: &Position,
    letter: char,
    mv: &Move,
) -> Option<Sq> {
    if mv.special != Special::Normal || mv.captured.is_some() || v.role(mv.piece.kind) != Role::Pawn
    {
        return None;
    }
    let g = v.geometry;
    let f = mv.piece.color.forward();
    let ours = portals(v, pos, mv.piece.color, letter, pos.occupied());
    let entry = g.offset(mv.from, 0, f).filter(|s| ours.contains(*s))?;
    let crossed = g
        .offset(mv.to, 0, -f)
        .filter(|s| pos.piece_at(*s).is_none())?;
    let exit = g
        .offset(crossed, 0, -f)
        .filter(|s| ours.contains(*s) && *s != entry)?;
    (exit != mv.from).then_some(crossed)
}
