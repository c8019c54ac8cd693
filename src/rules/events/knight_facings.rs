//! Knights that face one of the eight directions, shared by the events that give them a
//! facing of their own: #29 Directional Knights (DK-1..DK-8) and #121 Knight support
//! (KS-1..). Each keeps the facings in mark layers of its own; where several facing events
//! run, one facing serves them all, kept by the first of #85 Loyal Knights, #29 and #121
//! that runs (DK-8), so the others only read it. The start choice (`Nb1->b2`), the turns
//! in place (`Nf3->f5`), a facing chosen with a move (`Nc3->e5`), the FEN words
//! (`b1:n`) and the pictures' arrows are the same for every such event; what a facing
//! does is the event's own.

use super::loyal_knights::arrow_square;
use crate::command::Choice;
use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Direction, Sq};
use crate::rules::event::Overlay;
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

/// #85 Loyal Knights, #29 Directional Knights and #121 Knight support, in the order in
/// which they keep the one facing of a knight where more than one runs (DK-8).
const HOLDERS: [u16; 3] = [85, 29, 121];

/// The mark layers of an event that keeps facings: three for the bits of a knight's
/// facing, one for whether it has one.
pub(super) const MARK_LAYERS: usize = DIRECTION_BITS + 1;
const DIRECTION_BITS: usize = 3;
const HAS_DIRECTION: usize = 3;

/// The compass points of the eight directions, in [`Direction`]'s order, for the FEN.
const COMPASS: [&str; 8] = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];

/// What a facing event calls its rules, for the words of its refusals.
pub(super) struct Facings {
    pub number: u16,
    /// The ruling of the start choice (DK-1).
    pub start: &'static str,
    /// The ruling of turning, with a move or in place (DK-4).
    pub turn: &'static str,
    /// The ruling of a promotion to a knight (DK-5).
    pub promotion: &'static str,
    /// The ruling of naming a direction by a square (DK-7).
    pub naming: &'static str,
    /// What a knight without a facing does not do, for one knight and for several:
    /// `neither moves nor attacks`.
    pub unset: (&'static str, &'static str),
}

pub(super) fn knight_kind(v: &Variant) -> Option<Kind> {
    v.kind_of_letter('N')
}

/// The facing event that keeps the knights' facings in this position, if any runs.
fn holder(pos: &Position) -> Option<u16> {
    let running = pos.events();
    HOLDERS
        .into_iter()
        .find(|&number| running.iter().any(|e| e.number() == number))
}

/// The facing event `number` keeps in its own marks for the knight on `sq`.
fn marked_facing(pos: &Position, number: u16, sq: Sq) -> Option<Direction> {
    let layer = |i| pos.mark_layer(number, i);
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

/// The direction the knight on `sq` faces, kept by whichever facing event holds the
/// facings (DK-8).
pub(super) fn facing(pos: &Position, sq: Sq) -> Option<Direction> {
    match holder(pos)? {
        85 => super::loyal_knights::facing(pos, sq),
        number => marked_facing(pos, number, sq),
    }
}

/// Turns the knight on `sq` to face `direction` (or none), in the marks of the facing
/// event that holds them; with none running, nothing. Events whose own moves carry a
/// knight's facing (`Move::faces`) set it through this, since the core's `after_landing`
/// is not called for them (#14's promoting hops among them).
pub(super) fn set_facing(pos: &mut Position, sq: Sq, direction: Option<Direction>) {
    let Some(number) = holder(pos) else {
        return;
    };
    if number == 85 {
        super::loyal_knights::set_facing(pos, sq, direction);
        return;
    }
    let Some(first) = pos.mark_layer(number, 0) else {
        return;
    };
    pos.set_mark(first + HAS_DIRECTION, sq, direction.is_some());
    let bits = direction.map_or(0, |d| d.0);
    for i in 0..DIRECTION_BITS {
        pos.set_mark(first + i, sq, bits >> i & 1 != 0);
    }
}

/// The directions a knight on `sq` may be turned to: those `->` can name (DK-7).
fn nameable(v: &Variant, sq: Sq) -> impl Iterator<Item = Direction> + '_ {
    Direction::ALL
        .into_iter()
        .filter(move |&d| arrow_square(v, sq, d).is_some())
}

/// A direction in words, for diagnostics.
pub(super) fn direction_name(direction: Direction) -> &'static str {
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

impl Facings {
    /// Whether this event keeps the facings here: it runs, and no event before it in
    /// [`HOLDERS`] does (DK-8).
    pub fn holds(&self, pos: &Position) -> bool {
        holder(pos) == Some(self.number)
    }

    /// The facing this event keeps for the knight on `sq`, if it holds the facings.
    pub fn own_facing(&self, pos: &Position, sq: Sq) -> Option<Direction> {
        marked_facing(pos, self.number, sq).filter(|_| self.holds(pos))
    }

    fn turn_move(&self, pos: &Position, knight: Sq, direction: Direction) -> Move {
        Move {
            piece: pos.piece_at(knight).expect("a knight"),
            from: knight,
            to: knight,
            captured: None,
            promotion: None,
            special: Special::Event {
                number: self.number,
                data: u16::from(direction.0),
            },
            faces: None,
            swap: None,
            returned: None,
        }
    }

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
                    "{toward} is on no line or diagonal from {}: a knight faces one of the eight directions ({})",
                    g.name(knight),
                    self.naming
                ),
                None,
            ));
        };
        if facing(pos, knight) == Some(direction) {
            return Err(san::illegal(
                format!(
                    "the knight on {} already faces {toward}: a move spent turning must change its facing ({})",
                    g.name(knight),
                    self.turn
                ),
                Some("write a move of the knight, or a turn to another direction".to_owned()),
            ));
        }
        let turn = self.turn_move(pos, knight, direction);
        if v.leaves_king_attacked(pos, &turn) {
            return Err(san::illegal(
                format!(
                    "turning the knight on {} leaves the {} king in check ({})",
                    g.name(knight),
                    pos.turn,
                    self.turn
                ),
                None,
            ));
        }
        Ok(turn)
    }

    /// Every knight is given its facing (`Nb1->b2`), the starter's first, then the
    /// opponent's (DK-1); one left out faces none until it turns.
    pub fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
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
                    "`{choice}` is no knight with a facing (`Nb1->b2`, {})",
                    self.start
                ));
                continue;
            };
            let sq = g
                .from_square(square)
                .filter(|&sq| piece == 'N' && pos.piece_at(sq).is_some_and(|p| p.kind == knight));
            let Some(sq) = sq else {
                problems.push(format!("{square} holds no knight ({})", self.start));
                continue;
            };
            match san::written_direction(v, sq, toward) {
                Some(direction) if arrow_square(v, sq, direction).is_some() => {
                    set_facing(pos, sq, Some(direction));
                }
                _ => problems.push(format!(
                    "{toward} names no direction a knight on {square} may face ({})",
                    self.naming
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
                "no facing is given for the knight on {one}, which {} until it turns ({})",
                self.unset.0, self.start
            )),
            _ => problems.push(format!(
                "no facing is given for the knights on {}, which {} until they turn ({})",
                san::list(&unset),
                self.unset.1,
                self.start
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
    /// edge) survives too; where another event holds the facings, it writes them (DK-8).
    pub fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        if !self.holds(pos) {
            return Vec::new();
        }
        let g = v.geometry;
        knight_kind(v)
            .map_or(Bitboard::EMPTY, |knight| pos.by_kind(knight))
            .into_iter()
            .filter_map(|sq| {
                let direction = self.own_facing(pos, sq)?;
                Some(format!(
                    "{}:{}",
                    g.name(sq),
                    COMPASS[usize::from(direction.0 % 8)]
                ))
            })
            .collect()
    }

    /// Knights written without a facing face none.
    pub fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
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

    /// Each knight's facing as an arrow on it, and listed by colour (where another
    /// event holds the facings, it draws them).
    pub fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let g = v.geometry;
        let Some(knight) = knight_kind(v).filter(|_| self.holds(pos)) else {
            return;
        };
        let mut by_color = Vec::new();
        for color in Color::BOTH {
            let mut knights = Vec::new();
            for sq in pos.pieces(color, knight) {
                let Some(direction) = self.own_facing(pos, sq) else {
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
    pub fn random_choices(
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

    /// DK-4: a knight may spend its move turning to another facing (where another event
    /// holds the facings, its turns are these, DK-8).
    pub fn extra_moves(&self, v: &Variant, pos: &Position, from: Bitboard, out: &mut Vec<Move>) {
        let Some(knight) = knight_kind(v).filter(|_| self.holds(pos)) else {
            return;
        };
        for k in pos.pieces(pos.turn, knight) & from {
            let current = self.own_facing(pos, k);
            for d in nameable(v, k).filter(|&d| Some(d) != current) {
                out.push(self.turn_move(pos, k, d));
            }
        }
    }

    pub fn play_extra(&self, pos: &mut Position, mv: &Move) {
        if let Special::Event { data, .. } = mv.special {
            set_facing(pos, mv.from, u8::try_from(data).ok().map(Direction));
        }
    }

    /// DK-4, DK-5: every knight move may end facing any direction (unwritten, it keeps
    /// its own), and a promotion to a knight must, whichever event offered the move.
    pub fn attach_choices(&self, v: &Variant, pos: &Position, out: &mut Vec<Move>, start: usize) {
        let Some(knight) = knight_kind(v).filter(|_| self.holds(pos)) else {
            return;
        };
        let generated: Vec<Move> = out.drain(start..).collect();
        for mv in generated {
            let turn = matches!(mv.special, Special::Event { number, .. } if number == self.number);
            // A piece another event puts on the board (#7's `N@e4`) is no knight move.
            let placed = mv.from == mv.to
                && mv.promotion.is_none()
                && matches!(mv.special, Special::Event { .. });
            if turn || placed || super::turn_in_parts(&mv) {
                out.push(mv);
            } else if mv.piece.kind == knight && mv.promotion.is_none() {
                out.push(mv);
                let kept = self.own_facing(pos, mv.from);
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

    pub fn after_landing(&self, pos: &mut Position, mv: &Move) {
        if let Some(direction) = mv.faces.filter(|_| self.holds(pos)) {
            set_facing(pos, mv.to, Some(direction));
        }
    }

    /// The facing notation where this event holds the facings: a turn in place
    /// (`Nf3->f5`, DK-4), a direction no square on a line names (DK-7), a promotion to a
    /// knight without its facing (DK-5).
    pub fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let knight = knight_kind(v)?;
        if !self.holds(pos) {
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
                    "{toward} is on no line or diagonal from {}: a knight faces one of the eight directions ({})",
                    last.square, self.naming
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
                    "a pawn that becomes a knight must be given its facing ({}): write `{}->` and a square in that direction",
                    self.promotion,
                    san::written(written)
                ),
                None,
            )));
        }
        None
    }

    /// A turn in place, `Nf3->f5` (DK-4).
    pub fn san(&self, v: &Variant, mv: &Move) -> String {
        let Special::Event { data, .. } = mv.special else {
            return String::new();
        };
        let direction = Direction(u8::try_from(data).unwrap_or(0));
        let toward = arrow_square(v, mv.from, direction).unwrap_or_default();
        format!("N{}->{toward}", v.geometry.name(mv.from))
    }

    /// `->g2` after a knight move that changes its facing (DK-4); where another event
    /// holds the facings, it writes it (DK-8).
    pub fn annotate(&self, v: &Variant, pos: &Position, mv: &Move, out: &mut String) {
        if !self.holds(pos) {
            return;
        }
        if let Some(toward) = mv.faces.and_then(|d| arrow_square(v, mv.to, d)) {
            out.push_str("->");
            out.push_str(&toward);
        }
    }
}
