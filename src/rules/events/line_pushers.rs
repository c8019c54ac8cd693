//! Event #43 Line Pushers (seed 004, rulings LP-1 to LP-6): a rook pushes its whole rank
//! or file one step toward an edge, friend and foe, without captures; a pawn pushed onto
//! its promotion rank promotes later by standing still (`a8=Q`).

use crate::notation::{Facing, PieceMove};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Form};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Role};
use crate::rules::position::{Lifted, Position};
use crate::rules::san::{Rejection, RejectionKind};
use crate::rules::variant::Variant;

pub struct LinePushers;

const NUMBER: u16 = 43;

/// `Special::Event` data: 0..4 a push in one of [`DIRECTIONS`], [`PROMOTE`] a pawn
/// standing still to promote (LP-3).
const PROMOTE: u16 = 4;

/// Toward the a-file, toward the last file, toward rank 1, toward the last rank.
const DIRECTIONS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// What a push does (LP-1): the squares whose pieces move one step in direction `d`
/// (a bitboard, not a list, so working out every push of every rook allocates nothing).
struct Push {
    moved: Bitboard,
    d: usize,
}

impl Push {
    /// Pushes the line of `rook` in direction `d`: pieces move one at a time, starting
    /// with the one nearest the edge, each if the square ahead is empty then (LP-1).
    fn compute(v: &Variant, pos: &Position, rook: Sq, d: usize) -> Push {
        let g = v.geometry;
        let (df, dr) = DIRECTIONS[d];
        let edge = edge_square(v, rook, d);
        let mut occupied = pos.occupied();
        let mut moved = Bitboard::EMPTY;
        let mut at = Some(edge);
        while let Some(sq) = at {
            if occupied.contains(sq)
                && let Some(ahead) = g.offset(sq, df, dr)
                && !occupied.contains(ahead)
            {
                occupied.clear(sq);
                occupied.set(ahead);
                moved.set(sq);
            }
            at = g.offset(sq, -df, -dr);
        }
        Push { moved, d }
    }

    fn destination_of(&self, v: &Variant, sq: Sq) -> Option<Sq> {
        let (df, dr) = DIRECTIONS[self.d];
        self.moved
            .contains(sq)
            .then(|| v.geometry.offset(sq, df, dr))
            .flatten()
    }
}

/// The edge square a push in direction `d` from `rook` heads for (what `R->a4` names).
fn edge_square(v: &Variant, rook: Sq, d: usize) -> Sq {
    let (df, dr) = DIRECTIONS[d];
    let mut edge = rook;
    while let Some(next) = v.geometry.offset(edge, df, dr) {
        edge = next;
    }
    edge
}

/// The direction from `rook` along its rank or file to the edge square `target`.
fn direction_to(v: &Variant, rook: Sq, target: Sq) -> Option<usize> {
    (0..DIRECTIONS.len()).find(|&d| rook != target && edge_square(v, rook, d) == target)
}

fn rook_kind_squares(v: &Variant, pos: &Position, color: Color) -> Bitboard {
    v.kind_of_letter('R')
        .map_or(Bitboard::EMPTY, |rook| pos.pieces(color, rook))
}

impl LinePushers {
    /// The pushes of the side to move, one per line and direction whose pushing rook
    /// moves (LP-2); the rook named is the first of ours on the line that moves. Two
    /// rooks on one line push it to the same result (LP-6), so that is one move.
    fn pushes(&self, v: &Variant, pos: &Position, from: Bitboard, out: &mut Vec<Move>) {
        let us = pos.turn;
        let rooks = rook_kind_squares(v, pos, us);
        for rook in rooks & from {
            for d in 0..DIRECTIONS.len() {
                let push = Push::compute(v, pos, rook, d);
                let Some(to) = push.destination_of(v, rook) else {
                    continue;
                };
                // The same line and direction from another of our rooks: listed once,
                // by the rook whose square comes first.
                let first_mover = (push.moved & rooks).first();
                if first_mover != Some(rook) {
                    continue;
                }
                out.push(push_move(pos, rook, to, d));
            }
        }
    }

    /// Pawns a push left on their promotion rank promote by standing still (LP-3).
    fn promotions(&self, v: &Variant, pos: &Position, from: Bitboard, out: &mut Vec<Move>) {
        super::standing_promotions(v, pos, from, (NUMBER, PROMOTE), out);
    }

    fn legal(&self, v: &Variant, pos: &Position, moves: &mut Vec<Move>) {
        moves.retain(|mv| !v.leaves_king_attacked(pos, mv));
    }

    fn resolve_push(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
        toward: Facing,
    ) -> Result<Move, Rejection> {
        let g = v.geometry;
        let us = pos.turn;
        let target = u8::try_from(toward.file)
            .ok()
            .zip(u8::try_from(toward.rank).ok())
            .and_then(|(file, rank)| g.sq(file, rank))
            .ok_or_else(|| {
                illegal(
                    format!("a push names an edge square of the board, and {toward} is off it"),
                    None,
                )
            })?;
        let mut rooks = rook_kind_squares(v, pos, us);
        if let Some(origin) = written.targets.first() {
            let origin = g
                .from_square(origin.square)
                .filter(|&sq| rooks.contains(sq));
            let Some(origin) = origin else {
                return Err(illegal(
                    format!("{us} has no rook on {}", written.targets[0].square),
                    help(v, pos),
                ));
            };
            rooks = origin.bit();
        }
        let mut asked: Vec<(Sq, usize)> = rooks
            .into_iter()
            .filter_map(|rook| Some((rook, direction_to(v, rook, target)?)))
            .collect();
        if asked.is_empty() {
            let edge = target_is_edge(v, target);
            let reason = if rooks.contains(target) {
                format!(
                    "the {us} rook on {} stands on the edge square it names: a push toward it would not move the rook, and the rook must move (LP-2)",
                    g.name(target)
                )
            } else if !edge {
                format!(
                    "{} is not an edge square: a push names the square at the end of the rook's rank or file it pushes toward (LP-1)",
                    g.name(target)
                )
            } else {
                format!(
                    "no {us} rook stands on the rank or file of {} to push toward it (LP-1)",
                    g.name(target)
                )
            };
            return Err(illegal(reason, help(v, pos)));
        }
        // One push per line and direction, whichever rook on it is named (LP-6).
        let mut pushes: Vec<(Sq, usize, Move)> = Vec::new();
        let mut stuck = None;
        asked.sort_by_key(|&(rook, d)| (d, rook.index()));
        for (rook, d) in asked {
            let push = Push::compute(v, pos, rook, d);
            let line_of = |sq: Sq| if d < 2 { g.rank(sq) } else { g.file(sq) };
            if pushes
                .iter()
                .any(|&(other, od, _)| od == d && line_of(other) == line_of(rook))
            {
                continue;
            }
            let Some(to) = push.destination_of(v, rook) else {
                stuck.get_or_insert(rook);
                continue;
            };
            let mv = push_move(pos, rook, to, d);
            pushes.push((rook, d, mv));
        }
        let (legal, exposing): (Vec<_>, Vec<_>) = pushes
            .into_iter()
            .partition(|(_, _, mv)| !v.leaves_king_attacked(pos, mv));
        match (legal.as_slice(), exposing.first()) {
            ([], None) => {
                let rook = stuck.expect("an asked push");
                Err(illegal(
                    format!(
                        "the push toward {} would not move the {us} rook on {}: the rook must move (LP-2)",
                        g.name(target),
                        g.name(rook)
                    ),
                    help(v, pos),
                ))
            }
            ([], Some((_, _, mv))) => {
                let mut after = pos.clone();
                v.play(&mut after, mv);
                let king = after
                    .checkable_kings(v, us)
                    .into_iter()
                    .find(|&k| after.is_attacked(v, k, us.other()));
                let square = king.map_or(String::new(), |k| format!(" on {}", g.name(k)));
                Err(illegal(
                    format!(
                        "the push toward {} leaves the {us} king{square} in check (LP-4)",
                        g.name(target)
                    ),
                    help(v, pos),
                ))
            }
            ([(_, _, mv)], _) => Ok(*mv),
            (several, _) => {
                let spellings: Vec<String> = several
                    .iter()
                    .map(|(rook, _, _)| format!("R{}->{}", g.name(*rook), g.name(target)))
                    .collect();
                Err(Rejection {
                    kind: RejectionKind::Ambiguous,
                    reason: format!(
                        "`R->{}` names {} different pushes (LP-6)",
                        g.name(target),
                        several.len()
                    ),
                    help: Some(format!("write {}", spellings.join(" or "))),
                })
            }
        }
    }
}

/// The push of `rook`'s line in direction `d`, named by that rook, which ends on `to`.
fn push_move(pos: &Position, rook: Sq, to: Sq, d: usize) -> Move {
    Move {
        piece: pos.piece_at(rook).expect("our rook"),
        from: rook,
        to,
        captured: None,
        promotion: None,
        special: Special::Event {
            number: NUMBER,
            data: d as u16,
        },
        faces: None,
        swap: None,
        returned: None,
    }
}

/// Whether two pushes move the same line the same way.
fn same_push(v: &Variant, a: Sq, da: u16, b: Sq, db: u16) -> bool {
    let g = v.geometry;
    da == db
        && if da < 2 {
            g.rank(a) == g.rank(b)
        } else {
            g.file(a) == g.file(b)
        }
}

fn target_is_edge(v: &Variant, sq: Sq) -> bool {
    let g = v.geometry;
    g.file(sq) == 0 || g.rank(sq) == 0 || g.file(sq) + 1 == g.width || g.rank(sq) + 1 == g.height
}

fn illegal(reason: String, help: Option<String>) -> Rejection {
    Rejection {
        kind: RejectionKind::Illegal,
        reason,
        help,
    }
}

/// The legal pushes, as help.
fn help(v: &Variant, pos: &Position) -> Option<String> {
    let mut moves = Vec::new();
    LinePushers.pushes(v, pos, v.geometry.all(), &mut moves);
    LinePushers.legal(v, pos, &mut moves);
    if moves.is_empty() {
        return None;
    }
    let spellings: Vec<String> = moves.iter().map(|mv| LinePushers.san(v, pos, mv)).collect();
    Some(format!("legal pushes: {}", spellings.join(", ")))
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Line Pushers",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('R', 1)]),
    rulings: &["LP-1", "LP-2", "LP-3", "LP-4", "LP-5", "LP-6", "EC-4"],
    page: "docs/rules/event-43-line-pushers.md",
};

impl Event for LinePushers {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Arrow
    }

    /// EC-4: a pawn on its own first or second rank may step two.
    fn may_double_step(&self, v: &Variant, _pos: &Position, from: Sq, color: Color) -> bool {
        super::on_own_first_two_ranks(v, from, color)
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        _to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        self.pushes(v, pos, from, out);
        self.promotions(v, pos, from, out);
    }

    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let Special::Event { data, .. } = mv.special else {
            return;
        };
        if data == PROMOTE {
            super::promote_in_place(pos, mv);
            return;
        }
        let push = Push::compute(v, pos, mv.from, usize::from(data));
        // Every pushed piece is lifted before any is put down: each lands where another
        // may have stood.
        // Lifted with their marks (a knight's direction, a chosen pawn), which move along.
        let pieces: Vec<(Lifted, Sq, Sq)> = push
            .moved
            .into_iter()
            .filter_map(|from| Some((from, push.destination_of(v, from)?)))
            .map(|(from, to)| (pos.lift(from).expect("a pushed piece"), from, to))
            .collect();
        // LP-5: a king or rook pushed off its square loses its castling rights.
        let mut lost = Bitboard::EMPTY;
        for &(lifted, from, to) in &pieces {
            let piece = lifted.piece;
            pos.place(to, lifted);
            lost.set(from);
            if v.role(piece.kind) == Role::King
                && let Some(castling) = v.castling
            {
                lost |= v.geometry.rank_mask(castling.rank[piece.color.index()])
                    & pos.by_color(piece.color);
            }
        }
        if (pos.castling & lost).nonempty() {
            pos.set_castling(pos.castling & !lost);
        }
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        if let Some(toward) = written.arrow {
            let is_rook = written
                .piece
                .and_then(|letter| v.kind_of_letter(letter))
                .is_some_and(|kind| Some(kind) == v.kind_of_letter('R'));
            if is_rook && written.targets.len() <= 1 && written.placed.is_none() {
                return Some(self.resolve_push(v, pos, written, toward));
            }
            return None;
        }
        super::resolve_standing_promotion(
            v,
            pos,
            written,
            &super::StandingRules {
                cannot: "LP-3",
                in_check: "LP-4",
            },
        )
    }

    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let Special::Event { data, .. } = mv.special else {
            return String::new();
        };
        if data == PROMOTE {
            let letter = mv.promotion.map_or('?', |k| v.piece(k).letter);
            return format!("{}={letter}", g.name(mv.from));
        }
        let edge = edge_square(v, mv.from, usize::from(data));
        // LP-6: the rook's square only where `R->edge` also names another push.
        let mut others = Vec::new();
        self.pushes(v, pos, g.all(), &mut others);
        self.legal(v, pos, &mut others);
        let named_twice = others.iter().any(|other| match other.special {
            Special::Event { data: od, .. } if od != PROMOTE => {
                edge_square(v, other.from, usize::from(od)) == edge
                    && !same_push(v, other.from, od, mv.from, data)
            }
            _ => false,
        });
        let letter = v.piece(mv.piece.kind).letter;
        if named_twice {
            format!("{letter}{}->{}", g.name(mv.from), g.name(edge))
        } else {
            format!("{letter}->{}", g.name(edge))
        }
    }

    fn lan(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        match mv.special {
            Special::Event { data, .. } if data != PROMOTE => format!(
                "{}{}->{}",
                v.piece(mv.piece.kind).letter,
                g.name(mv.from),
                g.name(edge_square(v, mv.from, usize::from(data)))
            ),
            _ => format!(
                "{}={}",
                g.name(mv.from),
                mv.promotion.map_or('?', |k| v.piece(k).letter)
            ),
        }
    }
}
