//! Event #74 Army Movement, in its blog (newer) wording (catalogue; rulings AM-1 to AM-8
//! in `docs/rules/event-74-army-movement.md`): two to four of the mover's pieces standing
//! in one 2x2 block may move in one turn, all by the same step, written as a comma list
//! (`d3,e3,Qd2,Ke2`). Each step is an ordinary move of its piece on the board the steps
//! before it left; the mover's king is judged once the whole group has moved.
//!
//! A group is one of the event's own moves: the first step's piece, squares and
//! promotion, and in `data` the block, the other steps' squares in it and their
//! promotions (`encode`). Which order the record writes does not change the result, so
//! the move holds the group and the canonical order (the front pieces first); a written
//! order is checked step by step (AM-3).

use arrayvec::ArrayVec;

use super::turns;
use crate::notation::{MoveBody, Notation};
use crate::rules::board::{Bitboard, Geometry, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Form};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct ArmyMovement;

const NUMBER: u16 = 74;

/// The word of the slot that is set while a group's steps are played or looked for: the
/// event offers no groups there, and the mover's kings are not judged (AM-4).
const GROUPING_WORD: usize = 3;

/// A group's steps in the order they are played.
type Steps = ArrayVec<Move, 4>;

/// The player whose group is being played or looked for, if any.
fn grouping_side(pos: &Position) -> Option<Color> {
    let word = pos.event_state(NUMBER)?.words[GROUPING_WORD];
    (word != 0).then(|| Color::BOTH[usize::from((word - 1) & 1)])
}

fn grouping(pos: &Position) -> bool {
    grouping_side(pos).is_some()
}

fn set_grouping(pos: &mut Position, side: Option<Color>) {
    let mut state = pos.event_state(NUMBER).copied().unwrap_or_default();
    state.words[GROUPING_WORD] = side.map_or(0, |color| color.index() as u16 + 1);
    pos.set_event_state(NUMBER, state);
}

/// `pos` as the mover chooses his group's steps.
fn grouping_copy(pos: &Position) -> Position {
    let mut copy = pos.clone();
    set_grouping(&mut copy, Some(pos.turn));
    copy
}

/// The step from `from` to `to` in files and ranks.
fn vector(g: Geometry, from: Sq, to: Sq) -> (i32, i32) {
    (
        i32::from(g.file(to)) - i32::from(g.file(from)),
        i32::from(g.rank(to)) - i32::from(g.rank(from)),
    )
}

/// Whether the squares lie in one 2x2 block (AM-2).
fn in_one_block(g: Geometry, squares: impl Iterator<Item = Sq> + Clone) -> bool {
    let span = |coord: fn(Geometry, Sq) -> u8| {
        let values = squares.clone().map(|sq| coord(g, sq));
        let (lo, hi) = values.fold((u8::MAX, 0), |(lo, hi), c| (lo.min(c), hi.max(c)));
        hi.saturating_sub(lo) <= 1
    };
    span(Geometry::file) && span(Geometry::rank)
}

/// The moves the piece on `from` may make to `to` as a step of a group in `pos`: its
/// ordinary moves there as the running events shape them (a step forward, a double step
/// from where the pawn may make one, a capture, a promotion: AM-5), allowed by every
/// running event; no castling (AM-1), en passant (AM-5), passage, another event's own
/// move or another event's choice (AM-6: a knight that must face anew under #29, #85 or
/// #121 makes no step). One per promotion.
fn steps(v: &Variant, pos: &Position, from: Sq, to: Sq) -> Vec<Move> {
    // AM-6: a piece that faces a direction (#29, #85, #121) chooses its facing as it
    // moves, a choice a step does not carry.
    if pos.events().iter().any(|e| e.facing(pos, from).is_some()) {
        return Vec::new();
    }
    let mut moves = Vec::new();
    v.pseudo_moves(pos, from.bit(), to.bit(), &mut moves);
    let mut out: Vec<Move> = Vec::new();
    for mv in moves {
        if mv.from != from
            || mv.to != to
            || mv.swap.is_some()
            || mv.faces.is_some()
            || !matches!(mv.special, Special::Normal | Special::DoubleStep)
            || !pos.events().iter().all(|e| e.allows(v, pos, &mv))
        {
            continue;
        }
        // #1's ally is the whole group's choice (AM-8): a step checks nothing alone.
        let bare = Move {
            returned: None,
            ..mv
        };
        if !out.contains(&bare) {
            out.push(bare);
        }
    }
    out
}

/// Every group of `members` moving by `(df, dr)` in `order`, one per choice of
/// promotions, played step by step from `pos` (AM-3).
fn walk(
    v: &Variant,
    pos: &Position,
    order: &[Sq],
    (df, dr): (i32, i32),
    done: &mut Steps,
    out: &mut Vec<Steps>,
) {
    let Some((&from, rest)) = order.split_first() else {
        out.push(done.clone());
        return;
    };
    let Some(to) = v.geometry.offset(from, df, dr) else {
        return;
    };
    for step in steps(v, pos, from, to) {
        let mut next = pos.clone();
        v.play_part(&mut next, &step);
        done.push(step);
        walk(v, &next, rest, (df, dr), done, out);
        done.pop();
    }
}

/// The members front first along `(df, dr)` (then by square): an order in which no
/// member stands in the way of one that moves before it.
fn front_first(g: Geometry, members: &[Sq], (df, dr): (i32, i32)) -> ArrayVec<Sq, 4> {
    let mut order: ArrayVec<Sq, 4> = members.iter().copied().collect();
    order.sort_by_key(|&sq| {
        let along = i32::from(g.file(sq)) * df + i32::from(g.rank(sq)) * dr;
        (-along, sq.0)
    });
    order
}

/// The orders of `items`, the given one first.
fn orders(items: &[Sq]) -> Vec<ArrayVec<Sq, 4>> {
    if items.len() <= 1 {
        return vec![items.iter().copied().collect()];
    }
    let mut out = Vec::new();
    for (k, &head) in items.iter().enumerate() {
        let mut rest: ArrayVec<Sq, 4> = items.iter().copied().collect();
        rest.remove(k);
        for tail in orders(&rest) {
            let mut order = ArrayVec::new();
            order.push(head);
            order.extend(tail);
            out.push(order);
        }
    }
    out
}

/// The groups of `members` moving by `(df, dr)` from `base` (a grouping copy), one per
/// choice of promotions, in the first order that works (AM-3: the front pieces first
/// where that works); empty where no order does.
fn groups_of(v: &Variant, base: &Position, members: &[Sq], vector: (i32, i32)) -> Vec<Steps> {
    for order in orders(&front_first(v.geometry, members, vector)) {
        let mut out = Vec::new();
        walk(v, base, &order, vector, &mut Steps::new(), &mut out);
        if !out.is_empty() {
            return out;
        }
    }
    Vec::new()
}

/// The index of a promotion among the variant's, as `data` holds it (two bits).
fn promotion_index(v: &Variant, mv: &Move) -> Option<u16> {
    match mv.promotion {
        None => Some(0),
        Some(kind) => v
            .pawn
            .promotes_to
            .iter()
            .position(|&k| k == kind)
            .and_then(|k| u16::try_from(k).ok())
            .filter(|&k| k < 4),
    }
}

/// The 2x2 blocks around `sq`, as the offsets of their lower left corners.
const CORNERS: [(i32, i32); 4] = [(0, 0), (-1, 0), (0, -1), (-1, -1)];

/// The slot of `sq` in the block whose lower left corner is `corner`: 0 to 3.
fn slot(g: Geometry, corner: (i32, i32), sq: Sq) -> Option<u16> {
    let df = i32::from(g.file(sq)) - corner.0;
    let dr = i32::from(g.rank(sq)) - corner.1;
    ((0..2).contains(&df) && (0..2).contains(&dr)).then(|| (df + 2 * dr) as u16)
}

/// A group as one of the event's own moves: the first step's piece, squares and
/// promotion; in `data`, bits 0-1 the block (the first of [`CORNERS`] around the first
/// step's square that holds every member), bits 2-3 the number of steps less two, then
/// two bits per further step for its square's slot in the block (bits 4-9) and its
/// promotion (bits 10-15). `None` for a promotion `data` cannot hold (a fifth kind).
fn encode(v: &Variant, steps: &[Move]) -> Option<Move> {
    let g = v.geometry;
    let (first, rest) = steps.split_first()?;
    if rest.is_empty() || rest.len() > 3 {
        return None;
    }
    let origin = (i32::from(g.file(first.from)), i32::from(g.rank(first.from)));
    let (block, corner) = CORNERS.iter().enumerate().find_map(|(k, (cf, cr))| {
        let corner = (origin.0 + cf, origin.1 + cr);
        rest.iter()
            .all(|step| slot(g, corner, step.from).is_some())
            .then_some((k as u16, corner))
    })?;
    promotion_index(v, first)?;
    let mut data = block | (rest.len() as u16 - 1) << 2;
    for (k, step) in rest.iter().enumerate() {
        let slot = slot(g, corner, step.from)?;
        let promotion = promotion_index(v, step)?;
        data |= slot << (4 + 2 * k) | promotion << (10 + 2 * k);
    }
    Some(Move {
        piece: first.piece,
        from: first.from,
        to: first.to,
        captured: steps.iter().find_map(|step| step.captured),
        promotion: first.promotion,
        special: Special::Event {
            number: NUMBER,
            data,
        },
        faces: None,
        swap: None,
        returned: None,
    })
}

/// The further steps of a group move: their squares, in order, and promotion indices.
fn further_steps(v: &Variant, mv: &Move) -> ArrayVec<(Sq, u16), 3> {
    let g = v.geometry;
    let mut out = ArrayVec::new();
    let Special::Event { data, .. } = mv.special else {
        return out;
    };
    let (cf, cr) = CORNERS[usize::from(data & 3)];
    let corner = (
        i32::from(g.file(mv.from)) + cf,
        i32::from(g.rank(mv.from)) + cr,
    );
    let count = usize::from(data >> 2 & 3) + 1;
    for k in 0..count.min(3) {
        let slot = i32::from(data >> (4 + 2 * k) & 3);
        let promotion = data >> (10 + 2 * k) & 3;
        let file = u8::try_from(corner.0 + slot % 2).ok();
        let rank = u8::try_from(corner.1 + slot / 2).ok();
        if let (Some(file), Some(rank)) = (file, rank)
            && let Some(sq) = g.sq(file, rank)
        {
            out.push((sq, promotion));
        }
    }
    out
}

/// The step the piece on `from` makes by `(df, dr)` in `pos`, as a group's move holds it
/// (checked when the group was found or read).
fn step_in(
    v: &Variant,
    pos: &Position,
    from: Sq,
    (df, dr): (i32, i32),
    promotion: Option<u16>,
) -> Option<Move> {
    let piece = pos.piece_at(from)?;
    let to = v.geometry.offset(from, df, dr)?;
    let pawn = v.role(piece.kind) == Role::Pawn;
    let promotion = promotion
        .filter(|_| pawn && v.tables.promotion_squares[piece.color.index()].contains(to))
        .and_then(|k| v.pawn.promotes_to.get(usize::from(k)).copied());
    Some(Move {
        piece,
        from,
        to,
        captured: pos.piece_at(to),
        promotion,
        special: if pawn && dr.abs() == 2 {
            Special::DoubleStep
        } else {
            Special::Normal
        },
        faces: None,
        swap: None,
        returned: None,
    })
}

/// The first step of the group move `mv` in `pos`.
fn first_step(v: &Variant, pos: &Position, mv: &Move) -> Move {
    let (_, dr) = vector(v.geometry, mv.from, mv.to);
    Move {
        special: if v.role(mv.piece.kind) == Role::Pawn && dr.abs() == 2 {
            Special::DoubleStep
        } else {
            Special::Normal
        },
        captured: pos.piece_at(mv.to),
        ..*mv
    }
}

/// Plays the steps of the group move `mv` on `pos` in their order, handing each to
/// `seen` with the position it is played in.
fn play_steps(v: &Variant, pos: &mut Position, mv: &Move, mut seen: impl FnMut(&Position, &Move)) {
    let d = vector(v.geometry, mv.from, mv.to);
    let first = first_step(v, pos, mv);
    seen(pos, &first);
    v.play_part(pos, &first);
    for (from, promotion) in further_steps(v, mv) {
        let Some(step) = step_in(v, pos, from, d, Some(promotion)) else {
            break;
        };
        seen(pos, &step);
        v.play_part(pos, &step);
    }
}

/// The steps of the group move `mv` with the positions they are played in, from `pos`
/// (a grouping copy).
fn parts_of(v: &Variant, pos: &Position, mv: &Move) -> Vec<(Position, Move)> {
    let mut out = Vec::new();
    play_steps(v, &mut pos.clone(), mv, |at, step| {
        out.push((at.clone(), *step))
    });
    out
}

/// The sets of two or more pieces of `ours` that lie in one 2x2 block (AM-2).
fn groups_in(g: Geometry, ours: Bitboard) -> Vec<Bitboard> {
    let mut sets = Vec::new();
    for rank in 0..g.height.saturating_sub(1) {
        for file in 0..g.width.saturating_sub(1) {
            let block: ArrayVec<Sq, 4> = [(0, 0), (1, 0), (0, 1), (1, 1)]
                .iter()
                .filter_map(|&(df, dr)| g.sq(file + df, rank + dr))
                .filter(|&sq| ours.contains(sq))
                .collect();
            for mask in 1u8..16 {
                if mask.count_ones() < 2 || usize::from(mask) >> block.len() != 0 {
                    continue;
                }
                let set: Bitboard = block
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| mask >> k & 1 != 0)
                    .map(|(_, &sq)| sq)
                    .collect();
                sets.push(set);
            }
        }
    }
    sets.sort_by_key(|set| set.0);
    sets.dedup();
    sets
}

/// The steps `member` might make in a group of `members`, as vectors: its moves with the
/// other members off the board, which only opens its way (AM-3).
fn candidate_vectors(v: &Variant, base: &Position, members: &[Sq], member: Sq) -> Vec<(i32, i32)> {
    let mut lifted = base.clone();
    for &other in members.iter().filter(|&&sq| sq != member) {
        lifted.remove(other);
    }
    let mut moves = Vec::new();
    v.pseudo_moves(&lifted, member.bit(), v.geometry.all(), &mut moves);
    let mut out: Vec<(i32, i32)> = moves
        .iter()
        .filter(|mv| {
            mv.from == member && matches!(mv.special, Special::Normal | Special::DoubleStep)
        })
        .map(|mv| vector(v.geometry, mv.from, mv.to))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The group moves of the side to move whose first step goes from `from` to `to`.
fn generate(v: &Variant, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
    let g = v.geometry;
    let base = grouping_copy(pos);
    let single_target = to.first().filter(|_| !to.has_more_than_one());
    for set in groups_in(g, pos.by_color(pos.turn)) {
        if (set & from).is_empty() {
            continue;
        }
        let members: ArrayVec<Sq, 4> = set.collect();
        let vectors = match single_target {
            Some(target) => {
                let mut vectors: Vec<(i32, i32)> =
                    (set & from).map(|sq| vector(g, sq, target)).collect();
                vectors.sort_unstable();
                vectors.dedup();
                vectors
            }
            None => {
                let mut common = candidate_vectors(v, &base, &members, members[0]);
                for &member in &members[1..] {
                    let mine = candidate_vectors(v, &base, &members, member);
                    common.retain(|d| mine.contains(d));
                }
                common
            }
        };
        for d in vectors.into_iter().filter(|&d| d != (0, 0)) {
            for steps in groups_of(v, &base, &members, d) {
                if let Some(mv) = encode(v, &steps)
                    && from.contains(mv.from)
                    && to.contains(mv.to)
                {
                    out.push(mv);
                }
            }
        }
    }
}

/// A step in words, from White's side of the board: `one rank up`, `one file left and
/// two ranks up`.
fn vector_words((df, dr): (i32, i32)) -> String {
    let count = |n: i32, what: &str| {
        let n = n.unsigned_abs();
        let number = match n {
            1 => "one".to_owned(),
            2 => "two".to_owned(),
            3 => "three".to_owned(),
            _ => n.to_string(),
        };
        format!("{number} {what}{}", if n == 1 { "" } else { "s" })
    };
    let files = (df != 0).then(|| {
        let side = if df < 0 { "left" } else { "right" };
        format!("{} {side}", count(df, "file"))
    });
    let ranks = (dr != 0).then(|| {
        let side = if dr < 0 { "down" } else { "up" };
        format!("{} {side}", count(dr, "rank"))
    });
    match (files, ranks) {
        (Some(f), Some(r)) => format!("{f} and {r}"),
        (Some(one), None) | (None, Some(one)) => one,
        (None, None) => "nowhere".to_owned(),
    }
}

/// For a later part naming a piece that cannot go where it is written: the one piece
/// of that letter that has not moved and could make the group's step, and where that
/// step takes it (AM-7: the catalogue's `Kd2` for the king on e1 going to e2).
fn group_step_hint(
    v: &Variant,
    at: &Position,
    part: &MoveBody,
    played: &[Move],
    d: (i32, i32),
) -> Option<String> {
    let MoveBody::Piece(written) = part else {
        return None;
    };
    let kind = match written.piece {
        Some(letter) => v.kind_of_letter(letter)?,
        None => v.tables.pawn?,
    };
    let mut found = at
        .pieces(at.turn, kind)
        .filter(|&sq| played.iter().all(|step| step.to != sq))
        .filter_map(|sq| {
            let to = v.geometry.offset(sq, d.0, d.1)?;
            steps(v, at, sq, to).first().copied()
        });
    let step = found.next()?;
    if found.next().is_some() {
        return None;
    }
    Some(format!(
        "; by the group's step, {}, {} goes to {}: `{}` (AM-2, AM-7)",
        vector_words(d),
        san::describe(v, at, step.from),
        v.geometry.name(step.to),
        san::san_plain(v, at, &step)
    ))
}

fn part_notation(part: &MoveBody) -> Notation {
    Notation {
        body: part.clone(),
        check: None,
        assessment: None,
    }
}

/// Reads a group written as a comma list, each part as the board stands when it is
/// played (AM-3), and gives the group move, or why it is none.
fn resolve_group(v: &Variant, pos: &Position, parts: &[MoveBody]) -> Result<Move, Rejection> {
    let g = v.geometry;
    let text = parts
        .iter()
        .map(|part| part_notation(part).to_string())
        .collect::<Vec<_>>()
        .join(",");
    let help = || san::legal_help(v, pos, &text, None);
    let name = "event #74 Army Movement";
    if parts.len() > 4 {
        return Err(san::illegal(
            format!(
                "`{text}` has {} parts, and a group under {name} is at most the four pieces of one 2x2 block (AM-2)",
                parts.len()
            ),
            help(),
        ));
    }
    if parts.iter().any(|part| matches!(part, MoveBody::Castle(_))) {
        return Err(san::illegal(
            format!(
                "castling is no step of a group: the blog wording of {name}, the one played, forbids it (AM-1)"
            ),
            help(),
        ));
    }
    let base = grouping_copy(pos);
    let mut at = base.clone();
    let mut played: Steps = Steps::new();
    for (k, part) in parts.iter().enumerate() {
        let part_text = part_notation(part);
        let nth = ["first", "second", "third", "fourth"][k];
        let step = san::resolve(v, &at, &part_text).map_err(|mut rejection| {
            let hint = played
                .first()
                .and_then(|first| group_step_hint(v, &at, part, &played, vector(g, first.from, first.to)))
                .unwrap_or_default();
            rejection.reason = format!(
                "the {nth} part of the group `{text}` ({name}), `{part_text}`, is no move once the parts before it are played: {}; the parts move in the order written, and a piece that moves later still stands in the way (AM-3){hint}",
                rejection.reason
            );
            rejection.help = help();
            rejection
        })?;
        if let Some(earlier) = played.iter().position(|s| s.to == step.from) {
            return Err(san::illegal(
                format!(
                    "`{part_text}` moves again the piece the {} part `{}` moved: every piece of a group moves once (AM-3)",
                    ["first", "second", "third"][earlier],
                    part_notation(&parts[earlier])
                ),
                help(),
            ));
        }
        let why_not_a_step = match step.special {
            _ if step.faces.is_some()
                || step.swap.is_some()
                || at
                    .events()
                    .iter()
                    .any(|e| e.facing(&at, step.from).is_some()) =>
            {
                Some(
                    "a piece that faces a direction (#29, #85, #121) chooses its facing as it moves, and a step of a group carries no other event's choice (AM-6)",
                )
            }
            Special::Normal | Special::DoubleStep => None,
            Special::EnPassant => Some("no pawn takes en passant in a group (AM-5)"),
            Special::Castle { .. } => Some("castling is no step of a group (AM-1)"),
            _ => Some(
                "each step of a group is an ordinary move of its piece, no other event's own move nor a move through a passage (AM-6)",
            ),
        };
        if let Some(why) = why_not_a_step {
            return Err(san::illegal(
                format!("`{part_text}` in `{text}`: {why}"),
                help(),
            ));
        }
        if let Some(first) = played.first() {
            let group = vector(g, first.from, first.to);
            let this = vector(g, step.from, step.to);
            if this != group {
                return Err(san::illegal(
                    format!(
                        "`{part_text}` takes {} {} and the first part `{}` moves {}: every piece of a group moves by the same step (AM-2)",
                        san::describe(v, &at, step.from),
                        vector_words(this),
                        part_notation(&parts[0]),
                        vector_words(group)
                    ),
                    help(),
                ));
            }
        }
        let mut next = at.clone();
        v.play_part(&mut next, &step);
        at = next;
        played.push(Move {
            returned: None,
            ..step
        });
    }
    if !in_one_block(g, played.iter().map(|step| step.from)) {
        let squares: Vec<String> = played.iter().map(|step| g.name(step.from)).collect();
        return Err(san::illegal(
            format!(
                "the pieces on {} stand in no one 2x2 block: a group under {name} is pieces of one block (AM-2)",
                squares.join(", ")
            ),
            help(),
        ));
    }
    let members: ArrayVec<Sq, 4> = played.iter().map(|step| step.from).collect();
    let d = vector(g, played[0].from, played[0].to);
    let promoted = |sq: Sq| {
        played
            .iter()
            .find(|step| step.from == sq)
            .and_then(|step| step.promotion)
    };
    let group = groups_of(v, &base, &members, d)
        .into_iter()
        .find(|steps| {
            steps
                .iter()
                .all(|step| step.promotion == promoted(step.from))
        })
        .and_then(|steps| encode(v, &steps))
        .ok_or_else(|| {
            san::illegal(
                format!("xpgn cannot hold the group `{text}` as one move"),
                None,
            )
        })?;
    let mut legal = Vec::new();
    v.legal_moves_between(pos, group.from.bit(), group.to.bit(), &mut legal);
    if legal.contains(&group) {
        return Ok(group);
    }
    let us = pos.turn;
    let reason = if v.leaves_king_attacked(pos, &group) {
        format!(
            "after the whole group `{text}` the {us} king is in check: a group may leave it in check between its steps, not at the end (AM-4)"
        )
    } else {
        pos.events()
            .into_iter()
            .find(|e| !e.allows(v, pos, &group))
            .map_or_else(
                || format!("the group `{text}` is not legal here (the rules of the running events and EC-2)"),
                |e| e.why_refused(v, pos, &group),
            )
    };
    Err(san::illegal(reason, help()))
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Army Movement",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &[
        "AM-1", "AM-2", "AM-3", "AM-4", "AM-5", "AM-6", "AM-7", "AM-8",
    ],
    page: "docs/rules/event-74-army-movement.md",
};

impl Event for ArmyMovement {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Turn
    }

    /// While a group's steps are looked for or played, no event starts a turn of its
    /// own in parts.
    fn between_parts(&self, pos: &Position) -> bool {
        grouping(pos)
    }

    /// AM-4: between the steps of a group the mover's kings are not judged.
    fn can_be_checked(&self, _v: &Variant, pos: &Position, _king: Sq, color: Color) -> bool {
        grouping_side(pos) != Some(color)
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        if turns::between_parts(pos) {
            return;
        }
        generate(v, pos, from, to, out);
    }

    /// The steps in their order, each on the board the ones before it left (AM-3).
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        set_grouping(pos, Some(mv.piece.color));
        play_steps(v, pos, mv, |_, _| {});
        set_grouping(pos, None);
        // AM-5: a double step inside a group leaves no en-passant square.
        pos.ep = None;
    }

    fn resolve_turn(
        &self,
        v: &Variant,
        pos: &Position,
        written: &Notation,
    ) -> Option<Result<Move, Rejection>> {
        let MoveBody::Turn(parts) = &written.body else {
            return None;
        };
        if grouping(pos)
            || !parts
                .iter()
                .all(|part| matches!(part, MoveBody::Piece(_) | MoveBody::Castle(_)))
        {
            return None;
        }
        Some(resolve_group(v, pos, parts))
    }

    /// The steps' SAN joined by commas, front pieces first (AM-3), each as the board
    /// stands when it is played.
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let written: Vec<String> = parts_of(v, &grouping_copy(pos), mv)
            .iter()
            .map(|(at, step)| san::san_plain(v, at, step))
            .collect();
        written.join(",")
    }

    /// The steps in long notation (`d2-d3,e2-e3,Qd1-d2,Ke1-e2`), without check marks.
    fn lan(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let written: Vec<String> = parts_of(v, &grouping_copy(pos), mv)
            .iter()
            .map(|(at, step)| {
                san::lan(v, at, step)
                    .trim_end_matches(['+', '#'])
                    .to_owned()
            })
            .collect();
        written.join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, write_fen};

    fn running(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&ArmyMovement, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn the_start_position_has_thirty_two_groups_beside_the_twenty_moves() {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(&running(START), &mut moves);
        let groups = moves
            .iter()
            .filter(|mv| matches!(mv.special, Special::Event { number: NUMBER, .. }))
            .count();
        // AM-2, AM-5: pairs of pawns one or two up, the pieces behind them (as
        // scripts/army_movement_perft.py counts them too).
        assert_eq!((moves.len(), groups), (52, 32));
    }

    #[test]
    fn a_group_is_read_in_any_working_order_and_written_front_first() {
        let v = event_chess();
        let pos = running(START);
        let group = resolve(&pos, "d3,e3,Qd2,Ke2").unwrap();
        // AM-3: another order in which every step can be made is the same group.
        assert_eq!(resolve(&pos, "e3,d3,Qd2,Ke2").unwrap(), group);
        assert!(
            resolve(&pos, "Qd2,d3,e3,Ke2").is_err(),
            "the pawn still blocks"
        );
        assert_eq!(ArmyMovement.san(v, &pos, &group), "d3,e3,Qd2,Ke2");
        assert_eq!(
            ArmyMovement.lan(v, &pos, &group),
            "d2-d3,e2-e3,Qd1-d2,Ke1-e2"
        );
        let mut after = pos.clone();
        v.play(&mut after, &group);
        assert_eq!(
            write_fen(v, &after).split(' ').take(4).collect::<Vec<_>>(),
            [
                "rnbqkbnr/pppppppp/8/8/8/3PP3/PPPQKPPP/RNB2BNR",
                "b",
                "kq",
                "-"
            ]
        );
    }

    #[test]
    fn the_king_is_judged_after_the_whole_group_only() {
        let v = event_chess();
        // AM-4: b3 uncovers the bishop on h8, Rb2 closes the diagonal again.
        let pos = running("4k2b/8/8/8/8/8/1P6/KR6 w - - 0 1");
        let group = resolve(&pos, "b3,Rb2").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &group);
        assert_eq!(
            after.piece_at(sq("b2")).map(|p| p.kind),
            v.kind_of_letter('R')
        );
        let open = running("4k2b/8/8/8/8/8/PP6/K7 w - - 0 1");
        let refused = resolve(&open, "a3,b3").unwrap_err();
        assert!(refused.reason.contains("AM-4"), "{}", refused.reason);
    }

    #[test]
    fn pawns_double_step_capture_and_promote_in_a_group_but_take_nothing_en_passant() {
        let v = event_chess();
        // AM-5: a double step in a group leaves no en-passant square.
        let pos = running("4k3/8/8/8/5p2/8/3PP3/4K3 w - - 0 1");
        let mut after = pos.clone();
        v.play(&mut after, &resolve(&pos, "d4,e4").unwrap());
        assert_eq!(after.ep, None);
        let pos = running("4k3/PP6/8/4pp2/3PP3/8/8/4K3 w - - 0 1");
        let group = resolve(&pos, "a8=Q,b8=N").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &group);
        assert_eq!(
            after.piece_at(sq("a8")).map(|p| p.kind),
            v.kind_of_letter('Q')
        );
        assert_eq!(
            after.piece_at(sq("b8")).map(|p| p.kind),
            v.kind_of_letter('N')
        );
        assert_eq!(ArmyMovement.san(v, &pos, &group), "a8=Q,b8=N");
        assert!(resolve(&pos, "exf5,dxe5").is_ok());
        let ep = running("4k3/8/4n3/3PPp2/8/8/8/4K3 w - f6 0 1");
        let refused = resolve(&ep, "exf6,dxe6").unwrap_err();
        assert!(refused.reason.contains("AM-5"), "{}", refused.reason);
    }

    #[test]
    fn castling_a_second_move_of_one_piece_and_a_foreign_step_make_no_group() {
        let pos = running("4k3/8/8/8/8/8/6PP/4K2R w K - 0 1");
        assert!(
            resolve(&pos, "O-O,Kh2")
                .unwrap_err()
                .reason
                .contains("AM-1")
        );
        let start = running(START);
        assert!(
            resolve(&start, "d3,d4")
                .unwrap_err()
                .reason
                .contains("AM-3")
        );
        assert!(
            resolve(&start, "a3,c3")
                .unwrap_err()
                .reason
                .contains("AM-2")
        );
        // AM-7: the catalogue's `Kd2` names the king's step to e2.
        let slip = resolve(&start, "d3,e3,Qd2,Kd2").unwrap_err();
        assert!(
            slip.reason.contains("`Ke2` (AM-2, AM-7)"),
            "{}",
            slip.reason
        );
    }

    #[test]
    fn every_group_in_a_crowded_position_reads_back_from_its_spelling() {
        let v = event_chess();
        let pos = running("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        let groups: Vec<Move> = moves
            .into_iter()
            .filter(|mv| matches!(mv.special, Special::Event { number: NUMBER, .. }))
            .collect();
        // 63 moves in all (tests/data/perft/army-movement.perft), 48 of them orthodox.
        assert_eq!(groups.len(), 15);
        for group in groups {
            let written = san::san_plain(v, &pos, &group);
            assert_eq!(resolve(&pos, &written), Ok(group), "{written}");
        }
    }
}
