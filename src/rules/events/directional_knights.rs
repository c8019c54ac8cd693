//! Event #29 Directional Knights (catalogue; rulings DK-1 to DK-8 in
//! `docs/rules/event-29-directional-knights.md`): every knight faces one of the eight
//! directions; it slides along its facing, or leaps to the two knight squares that flank
//! the opposite direction, and may turn with every move or spend a move only turning.

use super::loyal_knights::arrow_square;
use crate::command::Choice;
use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Direction, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Form, Overlay, Reach};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct DirectionalKnights;

const NUMBER: u16 = 29;

/// #85 Loyal Knights: while it runs, its facings are the knights' facings (DK-8).
const LOYAL_KNIGHTS: u16 = 85;

/// The event's mark layers: three for the bits of a knight's facing, one for whether it
/// has one (DK-1).
const DIRECTION_BITS: usize = 3;
const HAS_DIRECTION: usize = 3;

fn knight_kind(v: &Variant) -> Option<Kind> {
    v.kind_of_letter('N')
}

/// Whether #85 runs, whose facings serve this event too (DK-8).
fn loyal_knights_run(pos: &Position) -> bool {
    pos.events().iter().any(|e| e.number() == LOYAL_KNIGHTS)
}

/// The facing this event keeps for the knight on `sq`, if it has one (DK-1).
fn own_facing(pos: &Position, sq: Sq) -> Option<Direction> {
    let layer = |i| pos.mark_layer(NUMBER, i);
    if !pos.marked(layer(HAS_DIRECTION)?).contains(sq) {
        return None;
    }
    let mut bits = 0;
    for i in 0..DIRECTION_BITS {
        if pos.marked(layer(i)?).contains(sq) {
            bits |= 1 << i;
        }
    }
    Some(Direction(bits))
}

/// The direction the knight on `sq` faces: #85's where it runs (DK-8), else this event's.
fn facing(pos: &Position, sq: Sq) -> Option<Direction> {
    if loyal_knights_run(pos) {
        super::loyal_knights::facing(pos, sq)
    } else {
        own_facing(pos, sq)
    }
}

/// Turns the knight on `sq` to face `direction` (or none), in #85's marks where it runs;
/// with neither #29 nor #85 running, nothing. Events whose own moves carry a knight's
/// facing (`Move::faces`) set it through this, since the core's `after_landing` is not
/// called for them (#14's promoting hops among them).
pub(super) fn set_facing(pos: &mut Position, sq: Sq, direction: Option<Direction>) {
    if loyal_knights_run(pos) {
        super::loyal_knights::set_facing(pos, sq, direction);
        return;
    }
    let Some(first) = pos.mark_layer(NUMBER, 0) else {
        return;
    };
    pos.set_mark(first + HAS_DIRECTION, sq, direction.is_some());
    let bits = direction.map_or(0, |d| d.0);
    for i in 0..DIRECTION_BITS {
        pos.set_mark(first + i, sq, bits >> i & 1 != 0);
    }
}

/// Where a knight on `from` facing `direction` goes (DK-2, DK-3): along its facing up to
/// the first piece, which it attacks, and to the two knight squares flanking the opposite
/// direction.
fn directional_reach(v: &Variant, from: Sq, direction: Direction, occupied: Bitboard) -> Reach {
    let g = v.geometry;
    let mut reach = Reach::default();
    let (df, dr) = direction.step();
    let mut at = from;
    while let Some(next) = g.offset(at, df, dr) {
        reach.attacks.set(next);
        if occupied.contains(next) {
            break;
        }
        reach.quiet.set(next);
        at = next;
    }
    let leaps = if df == 0 || dr == 0 {
        // Straight back two squares, one to either side.
        [(-2 * df + dr, -2 * dr + df), (-2 * df - dr, -2 * dr - df)]
    } else {
        [(-2 * df, -dr), (-df, -2 * dr)]
    };
    for (lf, lr) in leaps {
        if let Some(to) = g.offset(from, lf, lr) {
            reach.attacks.set(to);
            if !occupied.contains(to) {
                reach.quiet.set(to);
            }
        }
    }
    reach
}

/// The directions a knight on `sq` may be turned to: those `->` can name (DK-7).
fn nameable(v: &Variant, sq: Sq) -> impl Iterator<Item = Direction> + '_ {
    Direction::ALL
        .into_iter()
        .filter(move |&d| arrow_square(v, sq, d).is_some())
}

/// The compass points of the eight directions, in [`Direction`]'s order, for the FEN.
const COMPASS: [&str; 8] = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];

/// A direction in words, for diagnostics.
fn direction_name(direction: Direction) -> &'static str {
    [
        "north",
        "north-east",
        "east",
        "south-east",
        "south",
        "south-west",
        "west",
        "north-west",
    ][usize::from(direction.0 % 8)]
}

fn turn_move(pos: &Position, knight: Sq, direction: Direction) -> Move {
    Move {
        piece: pos.piece_at(knight).expect("a knight"),
        from: knight,
        to: knight,
        captured: None,
        promotion: None,
        special: Special::Event {
            number: NUMBER,
            data: u16::from(direction.0),
        },
        faces: None,
        swap: None,
        returned: None,
    }
}

/// Whether the `piece` on `from` is a knight that moves as one, so that its facing rules
/// it (DK-2): not where another event gives it another movement (#76).
fn directed(v: &Variant, pos: &Position, from: Sq, piece: Piece) -> bool {
    Some(piece.kind) == knight_kind(v) && super::movement_kind(v, pos, from, piece) == piece.kind
}

/// What the knight on `from` does under its facing, in words, and why it does not reach
/// `to`: `the knight on c3 faces north: ..., so it goes only to c4, c5 (DK-2)`; where its
/// facing would take it there and another running event stops it (#71: two squares at
/// most), that event's reason.
fn facing_words(v: &Variant, pos: &Position, from: Sq, to: Sq) -> String {
    let g = v.geometry;
    let Some(piece) = pos.piece_at(from) else {
        return String::new();
    };
    let Some(direction) = facing(pos, from) else {
        return format!(
            "the knight on {} faces no direction, so it neither moves nor attacks until it turns (DK-1)",
            g.name(from)
        );
    };
    let occupied = pos.occupied();
    if directional_reach(v, from, direction, occupied)
        .attacks
        .contains(to)
        && let Some(why) = pos
            .events()
            .into_iter()
            .filter(|e| e.number() != NUMBER)
            .find_map(|e| e.why_unreached(v, pos, from, piece, to))
    {
        return format!(
            "the knight on {} faces {}, but {why}",
            g.name(from),
            direction_name(direction)
        );
    }
    let reach = v.reach(pos, from, piece, occupied);
    let own = pos.by_color(piece.color);
    let squares: Vec<String> = ((reach.quiet | reach.attacks) & !own)
        .map(|sq| g.name(sq))
        .collect();
    let goes = if squares.is_empty() {
        "it has no square to go to".to_owned()
    } else {
        format!("it goes only to {}", san::list(&squares))
    };
    format!(
        "the knight on {} faces {}: it slides that way or leaps to the two knight squares flanking the opposite direction, so {goes} (DK-2)",
        g.name(from),
        direction_name(direction)
    )
}

impl DirectionalKnights {
    /// `Nf3->f5` with our knight on f3: it stands still and turns (DK-4).
    fn resolve_turn(
        &self,
        v: &Variant,
        pos: &Position,
        knight: Sq,
        written: &PieceMove,
    ) -> Result<Move, Rejection> {
        let g = v.geometry;
        let toward = written.arrow.expect("an arrow");
        let Some(direction) = san::written_direction(v, knight, toward) else {
            return Err(san::illegal(
                format!(
                    "{toward} is on no line or diagonal from {}: a knight faces one of the eight directions (DK-7)",
                    g.name(knight)
                ),
                None,
            ));
        };
        if facing(pos, knight) == Some(direction) {
            return Err(san::illegal(
                format!(
                    "the knight on {} already faces {toward}: a move spent turning must change its facing (DK-4)",
                    g.name(knight)
                ),
                Some("write a move of the knight, or a turn to another direction".to_owned()),
            ));
        }
        let turn = turn_move(pos, knight, direction);
        if v.leaves_king_attacked(pos, &turn) {
            return Err(san::illegal(
                format!(
                    "turning the knight on {} leaves the {} king in check (DK-4)",
                    g.name(knight),
                    pos.turn
                ),
                None,
            ));
        }
        Ok(turn)
    }

    /// A knight move written to a square no knight of ours reaches under its facing:
    /// the refusal says where each one goes (DK-2).
    fn unreached(&self, v: &Variant, pos: &Position, written: &PieceMove) -> Option<Rejection> {
        let knight = knight_kind(v)?;
        let [target] = written.targets.as_slice() else {
            return None;
        };
        let to = v.geometry.from_square(target.square)?;
        let ours = pos.pieces(pos.turn, knight) & san::hinted_origins(v, written.hint);
        // A turn in place, or a piece put back elsewhere (#126), is read elsewhere.
        if written.piece != Some('N') || written.placed.is_some() || ours.contains(to) {
            return None;
        }
        let mut reaching = Vec::new();
        v.pseudo_moves(pos, ours, to.bit(), &mut reaching);
        let directed: Vec<Sq> = ours
            .filter(|&sq| {
                directed(
                    v,
                    pos,
                    sq,
                    Piece {
                        color: pos.turn,
                        kind: knight,
                    },
                )
            })
            .collect();
        if !reaching.is_empty() || directed.is_empty() {
            return None;
        }
        let words: Vec<String> = directed
            .iter()
            .map(|&sq| facing_words(v, pos, sq, to))
            .collect();
        let mut legal = Vec::new();
        v.legal_moves(pos, &mut legal);
        let spellings: Vec<String> = legal
            .iter()
            .filter(|mv| ours.contains(mv.from) && mv.from != mv.to && mv.faces.is_none())
            .map(|mv| san::san_plain(v, pos, mv))
            .collect();
        let help = (!spellings.is_empty())
            .then(|| format!("legal knight moves: {}", spellings.join(", ")));
        Some(san::illegal(
            format!(
                "no {} knight reaches {} under event #29 Directional Knights: {}",
                pos.turn,
                v.geometry.name(to),
                words.join("; ")
            ),
            help,
        ))
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Directional Knights",
    aliases: &[],
    types: &[],
    condition: Condition {
        pieces_each: &[('N', 1)],
        no_check: true,
        ..Condition::NONE
    },
    rulings: &[
        "DK-1", "DK-2", "DK-3", "DK-4", "DK-5", "DK-6", "DK-7", "DK-8",
    ],
    page: "docs/rules/event-29-directional-knights.md",
};

impl Event for DirectionalKnights {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        matches!(form, Form::Arrow)
    }

    fn takes_choices(&self) -> bool {
        true
    }

    /// A knight's facing (DK-1), part of the position (DK-6).
    fn mark_layers(&self) -> usize {
        DIRECTION_BITS + 1
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// DK-2, DK-3: a knight moves, captures and checks along its facing and on the two
    /// leaps behind it, nowhere else; one that faces nothing goes nowhere (DK-1). The
    /// reach events started before this one then change that movement again (#71: at
    /// most two squares).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if !directed(v, pos, from, piece) {
            return;
        }
        let new = facing(pos, from)
            .map(|d| directional_reach(v, from, d, occupied))
            .unwrap_or_default();
        *reach = super::replaced_reach(v, pos, (from, piece), new, occupied, NUMBER);
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        if !directed(v, pos, from, piece) {
            return None;
        }
        let reach = facing(pos, from)
            .map(|d| directional_reach(v, from, d, pos.occupied()))
            .unwrap_or_default();
        (!reach.attacks.contains(to)).then(|| {
            format!(
                "under event #29 Directional Knights {}",
                facing_words(v, pos, from, to)
            )
        })
    }

    fn why_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let direction = facing(pos, from).filter(|_| directed(v, pos, from, piece))?;
        directional_reach(v, from, direction, pos.occupied())
            .attacks
            .contains(to)
            .then(|| {
                format!(
                    "facing {} it attacks along that line and on the two leaps behind it: event #29 Directional Knights, DK-3",
                    direction_name(direction)
                )
            })
    }

    fn facing(&self, pos: &Position, sq: Sq) -> Option<Direction> {
        // With #85 running, #85 answers for the one facing both share (DK-8).
        (!loyal_knights_run(pos))
            .then(|| own_facing(pos, sq))
            .flatten()
    }

    /// Every knight is given its facing (`Nb1->b2`), the starter's first, then the
    /// opponent's (DK-1); one left out faces none until it turns.
    fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        let g = v.geometry;
        let Some(knight) = knight_kind(v) else {
            return Ok(());
        };
        let mut problems = Vec::new();
        for choice in choices {
            let Choice::Facing {
                piece,
                square,
                toward,
            } = *choice
            else {
                problems.push(format!(
                    "`{choice}` is no knight with a facing (`Nb1->b2`, DK-1)"
                ));
                continue;
            };
            let sq = g
                .from_square(square)
                .filter(|&sq| piece == 'N' && pos.piece_at(sq).is_some_and(|p| p.kind == knight));
            let Some(sq) = sq else {
                problems.push(format!("{square} holds no knight (DK-1)"));
                continue;
            };
            match san::written_direction(v, sq, toward) {
                Some(direction) if arrow_square(v, sq, direction).is_some() => {
                    set_facing(pos, sq, Some(direction));
                }
                _ => problems.push(format!(
                    "{toward} names no direction a knight on {square} may face (DK-7)"
                )),
            }
        }
        let unset: Vec<String> = pos
            .by_kind(knight)
            .filter(|&sq| facing(pos, sq).is_none())
            .map(|sq| g.name(sq))
            .collect();
        match unset.as_slice() {
            [] => {}
            [one] => problems.push(format!(
                "no facing is given for the knight on {one}, which neither moves nor attacks until it turns (DK-1)"
            )),
            _ => problems.push(format!(
                "no facing is given for the knights on {}, which neither move nor attack until they turn (DK-1)",
                san::list(&unset)
            )),
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        }
    }

    /// Every knight's facing as its square and compass point (`b1:n`, `h1:e`, DK-6),
    /// so that a facing no square names (straight off a side file, after a slide to the
    /// edge) survives too; with #85 running, #85 writes them (DK-8).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        if loyal_knights_run(pos) {
            return Vec::new();
        }
        let g = v.geometry;
        knight_kind(v)
            .map_or(Bitboard::EMPTY, |knight| pos.by_kind(knight))
            .into_iter()
            .filter_map(|sq| {
                let direction = own_facing(pos, sq)?;
                Some(format!(
                    "{}:{}",
                    g.name(sq),
                    COMPASS[usize::from(direction.0 % 8)]
                ))
            })
            .collect()
    }

    /// Knights written without a facing face none.
    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        for word in words {
            let (square, point) = word.split_once(':').ok_or_else(|| {
                format!("`{word}` is no knight's square and compass point (`b1:n`)")
            })?;
            let sq = super::fen_square(v, square)?;
            if pos.piece_at(sq).is_none() {
                return Err(format!("{square} holds no knight"));
            }
            let direction = COMPASS
                .iter()
                .position(|&p| p == point)
                .and_then(|i| u8::try_from(i).ok())
                .ok_or_else(|| {
                    format!("`{point}` is no compass point (n, ne, e, se, s, sw, w, nw)")
                })?;
            set_facing(pos, sq, Some(Direction(direction)));
        }
        Ok(())
    }

    /// Each knight's facing as an arrow on it, and listed by colour (with #85 running,
    /// #85 draws them).
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let g = v.geometry;
        let Some(knight) = knight_kind(v).filter(|_| !loyal_knights_run(pos)) else {
            return;
        };
        let mut by_color = Vec::new();
        for color in Color::BOTH {
            let mut knights = Vec::new();
            for sq in pos.pieces(color, knight) {
                let Some(direction) = own_facing(pos, sq) else {
                    continue;
                };
                out.arrows.push((sq, direction));
                knights.push(format!(
                    "N{} {} {}",
                    g.name(sq),
                    direction_name(direction),
                    direction.arrow(out.ascii)
                ));
            }
            if !knights.is_empty() {
                by_color.push(format!("{color} {}", knights.join(", ")));
            }
        }
        if !by_color.is_empty() {
            out.lines
                .push(format!("knights facing: {}", by_color.join("; ")));
        }
    }

    /// A facing for every knight, named by a neighbouring square (DK-1, DK-7).
    fn random_choices(
        &self,
        v: &Variant,
        pos: &Position,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<String> {
        let g = v.geometry;
        let knight = knight_kind(v)?;
        let mut words = Vec::new();
        for color in Color::BOTH {
            for sq in pos.pieces(color, knight) {
                let toward: Vec<String> = nameable(v, sq)
                    .filter_map(|d| arrow_square(v, sq, d))
                    .collect();
                words.push(format!(
                    "N{}->{}",
                    g.name(sq),
                    super::pick_one(&toward, pick)?
                ));
            }
        }
        Some(words.join(" "))
    }

    /// DK-4: a knight may spend its move turning to another facing (with #85 running,
    /// #85's turns are these, DK-8).
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        _to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        let Some(knight) = knight_kind(v).filter(|_| !loyal_knights_run(pos)) else {
            return;
        };
        for k in pos.pieces(pos.turn, knight) & from {
            let current = own_facing(pos, k);
            for d in nameable(v, k).filter(|&d| Some(d) != current) {
                out.push(turn_move(pos, k, d));
            }
        }
    }

    fn play_extra(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        if let Special::Event { data, .. } = mv.special {
            set_facing(pos, mv.from, u8::try_from(data).ok().map(Direction));
        }
    }

    /// DK-4, DK-5: every knight move may end facing any direction (unwritten, it keeps
    /// its own), and a promotion to a knight must, whichever event offered the move.
    fn attach_choices(&self, v: &Variant, pos: &Position, out: &mut Vec<Move>, start: usize) {
        let Some(knight) = knight_kind(v).filter(|_| !loyal_knights_run(pos)) else {
            return;
        };
        let generated: Vec<Move> = out.drain(start..).collect();
        for mv in generated {
            let turn = matches!(mv.special, Special::Event { number: NUMBER, .. });
            // A piece another event puts on the board (#7's `N@e4`) is no knight move.
            let placed = mv.from == mv.to
                && mv.promotion.is_none()
                && matches!(mv.special, Special::Event { .. });
            if turn || placed {
                out.push(mv);
            } else if mv.piece.kind == knight && mv.promotion.is_none() {
                out.push(mv);
                let kept = own_facing(pos, mv.from);
                for d in nameable(v, mv.to).filter(|&d| Some(d) != kept) {
                    out.push(Move {
                        faces: Some(d),
                        ..mv
                    });
                }
            } else if mv.promotion == Some(knight) {
                for d in nameable(v, mv.to) {
                    out.push(Move {
                        faces: Some(d),
                        ..mv
                    });
                }
            } else {
                out.push(mv);
            }
        }
    }

    fn after_landing(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        if let Some(direction) = mv.faces.filter(|_| !loyal_knights_run(pos)) {
            set_facing(pos, mv.to, Some(direction));
        }
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let knight = knight_kind(v)?;
        if let Some(refused) = self.unreached(v, pos, written) {
            return Some(Err(refused));
        }
        if loyal_knights_run(pos) {
            return None;
        }
        if written.arrow.is_some()
            && written.piece == Some('N')
            && written.placed.is_none()
            && let [only] = written.targets.as_slice()
            && let Some(sq) = g.from_square(only.square)
            && pos.piece_at(sq)
                == Some(Piece {
                    color: pos.turn,
                    kind: knight,
                })
        {
            return Some(self.resolve_turn(v, pos, sq, written));
        }
        if let Some(toward) = written.arrow
            && let Some(last) = written.targets.last()
            && let Some(sq) = g.from_square(last.square)
            && san::written_direction(v, sq, toward).is_none()
        {
            return Some(Err(san::illegal(
                format!(
                    "{toward} is on no line or diagonal from {}: a knight faces one of the eight directions (DK-7)",
                    last.square
                ),
                None,
            )));
        }
        if let Some(last) = written.targets.last()
            && last
                .promotion
                .is_some_and(|p| v.kind_of_letter(char::from(p.piece)) == Some(knight))
            && written.arrow.is_none()
        {
            return Some(Err(san::illegal(
                format!(
                    "a pawn that becomes a knight must be given its facing (DK-5): write `{}->` and a square in that direction",
                    san::written(written)
                ),
                None,
            )));
        }
        None
    }

    fn san(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let Special::Event { data, .. } = mv.special else {
            return String::new();
        };
        let direction = Direction(u8::try_from(data).unwrap_or(0));
        let toward = arrow_square(v, mv.from, direction).unwrap_or_default();
        format!("N{}->{toward}", v.geometry.name(mv.from))
    }

    /// `->g2` after a knight move that changes its facing (DK-4); with #85 running, #85
    /// writes it (DK-8).
    fn annotate(&self, v: &Variant, pos: &Position, mv: &Move, out: &mut String) {
        if loyal_knights_run(pos) {
            return;
        }
        if let Some(toward) = mv.faces.and_then(|d| arrow_square(v, mv.to, d)) {
            out.push_str("->");
            out.push_str(&toward);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, write_fen};

    /// `fen` with #29 started and the knights' facings given (`Nb1->b2`).
    fn with_knights(fen: &str, facings: &str) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&DirectionalKnights, None).unwrap();
        let command = crate::command::parse_event(&format!("29 {facings}"), 0).unwrap();
        let choices: Vec<Choice> = command.choices.iter().map(|c| c.node).collect();
        DirectionalKnights.begin(v, &mut pos, &choices).unwrap();
        pos
    }

    fn resolve(pos: &Position, written: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(written).unwrap())
    }

    fn play(pos: &mut Position, written: &str) -> Move {
        let mv = resolve(pos, written).unwrap_or_else(|r| panic!("{written}: {}", r.reason));
        event_chess().play(pos, &mv);
        mv
    }

    /// The squares the knight on `from` moves to, each once, sorted.
    fn targets(pos: &Position, from: &str) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        let mut names: Vec<String> = moves
            .into_iter()
            .filter(|mv| mv.from == sq(from) && mv.to != mv.from && mv.faces.is_none())
            .map(|mv| v.geometry.name(mv.to))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn dk_2_a_knight_slides_along_its_facing_and_leaps_behind_it() {
        // Facing north from d4: up the d-file to the pawn on d7, which it may take, and
        // the leaps c2 and e2; facing north-east from b1: the diagonal, no leap on the
        // board behind it.
        let pos = with_knights("4k3/3p4/8/8/3N4/8/8/1N2K3 w - - 0 1", "Nd4->d5 Nb1->c2");
        assert_eq!(targets(&pos, "d4"), ["c2", "d5", "d6", "d7", "e2"]);
        assert_eq!(targets(&pos, "b1"), ["c2", "d3", "e4", "f5", "g6", "h7"]);
    }

    #[test]
    fn dk_3_attacks_follow_the_facing() {
        let v = event_chess();
        // The knight on e1 faces north: it checks the king on e8 up the open file, and
        // no longer attacks f3, an orthodox knight square.
        let pos = with_knights("4k3/8/8/8/8/8/8/K3N3 b - - 0 1", "Ne1->e2");
        assert!(pos.is_check(v));
        assert!(!pos.is_attacked(v, sq("f3"), Color::White));
        assert!(resolve(&pos, "Kf8").is_ok(), "stepping off the file");
        assert!(resolve(&pos, "Ke7").is_err(), "staying on it");
    }

    #[test]
    fn dk_4_turns_and_facing_after_a_move() {
        let v = event_chess();
        let mut pos = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        let refused = resolve(&pos, "Ng1->g5").unwrap_err();
        assert!(refused.reason.contains("DK-4"), "{}", refused.reason);
        let before = pos.clone();
        let turn = play(&mut pos, "Ng1->f2");
        assert_eq!(san::san(v, &before, &turn), "Ng1->f2");
        assert_eq!(facing(&pos, sq("g1")), Some(Direction(7)));
        play(&mut pos, "Kd7");
        let before = pos.clone();
        let moved = play(&mut pos, "Ne3->e8");
        assert_eq!(san::san(v, &before, &moved), "Ne3->e4");
        assert_eq!(facing(&pos, sq("e3")), Some(Direction(0)));
        play(&mut pos, "Kc7");
        play(&mut pos, "Ne5");
        assert_eq!(facing(&pos, sq("e5")), Some(Direction(0)), "kept");
    }

    #[test]
    fn dk_5_a_promotion_to_a_knight_needs_a_facing() {
        let pos = with_knights("4k3/P7/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        let refused = resolve(&pos, "a8=N").unwrap_err();
        assert!(refused.reason.contains("DK-5"), "{}", refused.reason);
        assert!(resolve(&pos, "a8=N->b8").is_ok());
        assert!(resolve(&pos, "a8=Q").is_ok());
    }

    #[test]
    fn dk_6_facings_belong_to_the_position_and_the_fen() {
        let v = event_chess();
        let pos = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        let turned = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->h2");
        assert_ne!(pos.key(v), turned.key(v));
        let fen = write_fen(v, &pos);
        assert!(fen.contains("g1:n"), "{fen}");
        let read = parse_fen(v, &fen).unwrap();
        assert_eq!(read.key(v), pos.key(v));
    }

    #[test]
    fn an_unreached_square_is_explained_by_the_facing() {
        let pos = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        let refused = resolve(&pos, "Nf3").unwrap_err();
        assert!(
            refused.reason.contains("faces north") && refused.reason.contains("DK-2"),
            "{}",
            refused.reason
        );
    }

    #[test]
    fn dk_8_with_loyal_knights_one_facing_serves_both() {
        let v = event_chess();
        let mut pos = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        pos.start_event(&super::super::LoyalKnights, None).unwrap();
        let command = crate::command::parse_event("85 Ng1->h1", 0).unwrap();
        let choices: Vec<Choice> = command.choices.iter().map(|c| c.node).collect();
        super::super::LoyalKnights
            .begin(v, &mut pos, &choices)
            .unwrap();
        assert_eq!(targets(&pos, "g1"), ["e2", "h1"]);
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        for mv in &moves {
            let written = san::san(v, &pos, mv);
            assert_eq!(resolve(&pos, &written), Ok(*mv), "{written}");
        }
        play(&mut pos, "Ng1->g2");
        play(&mut pos, "Kd7");
        assert_eq!(
            targets(&pos, "g1"),
            ["g2", "g3", "g4", "g5", "g6", "g7", "g8"]
        );
    }
}
