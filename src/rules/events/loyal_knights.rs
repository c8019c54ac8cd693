//! Event #85 Loyal Knights (seed 002, rulings LK-1 to LK-9): every knight faces one of
//! the eight directions; a piece about to be captured that an allied knight faces swaps
//! squares with that knight, which is captured instead, and cannot be checked.

use crate::command::Choice;
use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Direction, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Form, Overlay};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection, RejectionKind};
use crate::rules::variant::Variant;

pub struct LoyalKnights;

const NUMBER: u16 = 85;

/// `Special::Event` data: 0..8 a knight turning in place to that direction (LK-8),
/// [`PROMOTE`] a pawn standing still to promote (LK-7).
const PROMOTE: u16 = 8;

/// #43 Line Pushers, whose stand-still promotions are the same moves (LP-3).
const LINE_PUSHERS: u16 = 43;

/// The event's mark layers: three for the bits of a knight's direction, one for whether
/// it has one (LK-1).
const DIRECTION_BITS: usize = 3;
const HAS_DIRECTION: usize = 3;

/// The direction the knight on `sq` faces, if it has one (LK-1).
pub fn facing(pos: &Position, sq: Sq) -> Option<Direction> {
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

/// Turns the knight on `sq` to face `direction` (or none).
pub fn set_facing(pos: &mut Position, sq: Sq, direction: Option<Direction>) {
    let Some(first) = pos.mark_layer(NUMBER, 0) else {
        return;
    };
    pos.set_mark(first + HAS_DIRECTION, sq, direction.is_some());
    let bits = direction.map_or(0, |d| d.0);
    for i in 0..DIRECTION_BITS {
        pos.set_mark(first + i, sq, bits >> i & 1 != 0);
    }
}

fn knight_kind(v: &Variant) -> Option<crate::rules::Kind> {
    v.kind_of_letter('N')
}

/// The square the knight on `knight` faces: the first piece on its ray (LK-1).
fn faced(v: &Variant, pos: &Position, knight: Sq) -> Option<Sq> {
    let (df, dr) = facing(pos, knight)?.step();
    let mut at = knight;
    loop {
        at = v.geometry.offset(at, df, dr)?;
        if pos.piece_at(at).is_some() {
            return Some(at);
        }
    }
}

/// The knights allied to the piece on `target` that face it (LK-1, LK-2).
pub fn facers(v: &Variant, pos: &Position, target: Sq) -> Bitboard {
    let (Some(piece), Some(knight)) = (pos.piece_at(target), knight_kind(v)) else {
        return Bitboard::EMPTY;
    };
    (pos.pieces(piece.color, knight) & !target.bit())
        .filter(|&k| faced(v, pos, k) == Some(target))
        .collect()
}

/// The square `->` names for a direction from `from`: the next one on the ray, one
/// rank off the board too (`Nb1->a0`). A direction straight off a side file has no
/// square to name it, and a knight facing it would face nothing, so it is never offered.
pub fn arrow_square(v: &Variant, from: Sq, direction: Direction) -> Option<String> {
    let g = v.geometry;
    let (df, dr) = direction.step();
    let file = u8::try_from(i32::from(g.file(from)) + df)
        .ok()
        .filter(|&f| f < g.width)?;
    let rank = i32::from(g.rank(from)) + dr + 1;
    Some(format!("{}{rank}", char::from(b'a' + file)))
}

/// The square that names a direction from `from` wherever notation has one: also one
/// file off the board's right side (`Nh1->i2`), which [`arrow_square`] leaves out
/// because no move turns a knight that way, but a swap or a push may leave it facing so.
fn direction_square(v: &Variant, from: Sq, direction: Direction) -> Option<String> {
    let g = v.geometry;
    let (df, dr) = direction.step();
    let file = u8::try_from(i32::from(g.file(from)) + df)
        .ok()
        .filter(|&f| f <= g.width && f < 16)?;
    let rank = i32::from(g.rank(from)) + dr + 1;
    Some(format!("{}{rank}", char::from(b'a' + file)))
}

/// The directions a knight on `sq` may be turned to: those `->` can name.
fn nameable(v: &Variant, sq: Sq) -> impl Iterator<Item = Direction> + '_ {
    Direction::ALL
        .into_iter()
        .filter(move |&d| arrow_square(v, sq, d).is_some())
}

/// The square whose piece `mv` captures first: the passage entry, else its target.
fn victim(v: &Variant, pos: &Position, mv: &Move) -> Option<Sq> {
    mv.entry_capture_square(v, pos)
        .or_else(|| mv.captured.map(|_| mv.capture_square(v)))
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

impl LoyalKnights {
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
                    "{toward} is on no line or diagonal from {}: a knight faces one of the eight directions (LK-1)",
                    g.name(knight)
                ),
                None,
            ));
        };
        if facing(pos, knight) == Some(direction) {
            return Err(san::illegal(
                format!(
                    "the knight on {} already faces {toward}: standing still to turn must change its direction (LK-8)",
                    g.name(knight)
                ),
                None,
            ));
        }
        let turn = turn_move(pos, knight, direction);
        if v.leaves_king_attacked(pos, &turn) {
            return Err(san::illegal(
                format!(
                    "turning the knight on {} leaves the {} king in check (LK-6)",
                    g.name(knight),
                    pos.turn
                ),
                None,
            ));
        }
        Ok(turn)
    }

    /// LK-4: a capture of a piece that several knights face must name the one that
    /// swaps in, and `/square` must name one that faces it.
    fn unnamed_swap(&self, v: &Variant, pos: &Position, written: &PieceMove) -> Option<Rejection> {
        let g = v.geometry;
        let target = g.from_square(written.targets.last()?.square)?;
        let piece = pos.piece_at(target).filter(|p| p.color != pos.turn)?;
        let knights = facers(v, pos, target);
        let what = format!(
            "the {} {} on {}",
            piece.color,
            v.piece(piece.kind).name,
            g.name(target)
        );
        if let Some(named) = written.swap {
            let faces_it = g.from_square(named).is_some_and(|sq| knights.contains(sq));
            return (!faces_it).then(|| {
                let facing: Vec<String> = knights.map(|k| g.name(k)).collect();
                let which = match facing.as_slice() {
                    [] => "no knight faces it".to_owned(),
                    [one] => format!("only the knight on {one} does"),
                    _ => format!("the knights on {} do", san::list(&facing)),
                };
                san::illegal(
                    format!("`/{named}` names a knight that does not face {what}: {which} (LK-4)"),
                    None,
                )
            });
        }
        if !knights.has_more_than_one() {
            return None;
        }
        let spellings: Vec<String> = knights
            .map(|k| format!("{}/{}", san::written(written), g.name(k)))
            .collect();
        Some(Rejection {
            kind: RejectionKind::Ambiguous,
            reason: format!(
                "the knights on {} all face {what}, and the capturer chooses which swaps in (LK-4)",
                san::list(&knights.map(|k| g.name(k)).collect::<Vec<_>>()),
            ),
            help: Some(format!("write {}", spellings.join(" or "))),
        })
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Loyal Knights",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('N', 1)]),
    rulings: &[
        "LK-1", "LK-2", "LK-3", "LK-4", "LK-5", "LK-6", "LK-7", "LK-8", "LK-9", "LK-10", "EC-4",
    ],
    page: "docs/rules/event-85-loyal-knights.md",
};

impl Event for LoyalKnights {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        matches!(form, Form::Swap | Form::Arrow)
    }

    fn takes_choices(&self) -> bool {
        true
    }

    /// Every knight's direction, as its command gives them (`Nb1->b2`); the square one
    /// file off the board names a direction too (`Nh1->i2`), where the board leaves
    /// letters for it.
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let g = v.geometry;
        knight_kind(v)
            .map_or(Bitboard::EMPTY, |knight| pos.by_kind(knight))
            .into_iter()
            .filter_map(|sq| {
                let toward = direction_square(v, sq, facing(pos, sq)?)?;
                Some(format!("N{}->{toward}", g.name(sq)))
            })
            .collect()
    }

    /// Knights written without a direction face none (a FEN may hold such a position,
    /// where an event command may not).
    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let g = v.geometry;
        let text = words.join(" ");
        let choices = crate::command::parse_choices(crate::command::words(&text, 0))
            .map_err(|d| d.message)?;
        for choice in choices {
            let Choice::Facing { square, toward, .. } = choice.node else {
                return Err(format!("`{}` is no knight with a direction", choice.node));
            };
            let sq = g
                .from_square(square)
                .filter(|&sq| pos.piece_at(sq).is_some())
                .ok_or_else(|| format!("{square} holds no knight"))?;
            let direction = san::written_direction(v, sq, toward)
                .ok_or_else(|| format!("{toward} is on no line from {square}"))?;
            set_facing(pos, sq, Some(direction));
        }
        Ok(())
    }

    /// Each knight's direction as an arrow on it, and listed by colour.
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let g = v.geometry;
        let Some(knight) = knight_kind(v) else {
            return;
        };
        let mut by_color = Vec::new();
        for color in Color::BOTH {
            let mut knights = Vec::new();
            for sq in pos.pieces(color, knight) {
                let Some(direction) = facing(pos, sq) else {
                    continue;
                };
                out.arrows.push((sq, direction));
                knights.push(format!(
                    "N{}->{} {}",
                    g.name(sq),
                    direction_square(v, sq, direction).unwrap_or_default(),
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

    /// A direction for every knight, named by a neighbouring square (LK-1).
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
                let toward: Vec<String> = Direction::ALL
                    .into_iter()
                    .filter_map(|d| {
                        let (df, dr) = d.step();
                        g.offset(sq, df, dr)
                    })
                    .map(|to| g.name(to))
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

    fn facing(&self, pos: &Position, sq: Sq) -> Option<Direction> {
        facing(pos, sq)
    }

    /// A knight's direction (LK-1).
    fn mark_layers(&self) -> usize {
        DIRECTION_BITS + 1
    }

    /// Every knight is given its direction (`Nb1->b2`); one left out faces none until it
    /// moves or turns with `->`.
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
                    "`{choice}` is no knight with a direction (`Nb1->b2`)"
                ));
                continue;
            };
            let sq = g
                .from_square(square)
                .filter(|&sq| piece == 'N' && pos.piece_at(sq).is_some_and(|p| p.kind == knight));
            let Some(sq) = sq else {
                problems.push(format!("{square} holds no knight"));
                continue;
            };
            match san::written_direction(v, sq, toward) {
                Some(direction) => set_facing(pos, sq, Some(direction)),
                None => problems.push(format!(
                    "{toward} is on no line or diagonal from {square} (LK-1)"
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
                "no direction is given for the knight on {one}, which faces none until it moves or turns"
            )),
            _ => problems.push(format!(
                "no direction is given for the knights on {}, which face none until they move or turn",
                san::list(&unset)
            )),
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        }
    }

    fn may_double_step(&self, v: &Variant, _pos: &Position, from: Sq, color: Color) -> bool {
        super::on_own_first_two_ranks(v, from, color)
    }

    /// LK-5: a piece an allied knight faces cannot be checked.
    fn can_be_checked(&self, v: &Variant, pos: &Position, king: Sq, _color: Color) -> bool {
        facers(v, pos, king).is_empty()
    }

    /// Every capture of a faced piece names the knight that swaps in (LK-2, LK-4); every
    /// knight move may end facing any direction, and a promotion to a knight must (LK-8),
    /// whichever event offered the move.
    fn attach_choices(&self, v: &Variant, pos: &Position, out: &mut Vec<Move>, start: usize) {
        let Some(knight) = knight_kind(v) else {
            return;
        };
        let generated: Vec<Move> = out.drain(start..).collect();
        for mv in generated {
            let turn =
                matches!(mv.special, Special::Event { number: NUMBER, data } if data != PROMOTE);
            // A piece another event puts on the board (#7's `N@e4`) is no knight move.
            let placed = mv.from == mv.to
                && mv.promotion.is_none()
                && matches!(mv.special, Special::Event { .. });
            if turn || placed || super::turn_in_parts(&mv) {
                out.push(mv);
                continue;
            }
            let mut swaps = vec![None];
            if let Some(target) = victim(v, pos, &mv) {
                let knights = facers(v, pos, target);
                if knights.nonempty() {
                    swaps = knights.map(Some).collect();
                }
            }
            for swap in swaps {
                let mv = Move { swap, ..mv };
                let becomes_knight = mv.promotion == Some(knight);
                if mv.piece.kind == knight && mv.promotion.is_none() {
                    out.push(mv);
                    let kept = facing(pos, mv.from);
                    for d in nameable(v, mv.to).filter(|&d| Some(d) != kept) {
                        out.push(Move {
                            faces: Some(d),
                            ..mv
                        });
                    }
                } else if becomes_knight {
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
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        _to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        if let Some(knight) = knight_kind(v) {
            for k in pos.pieces(pos.turn, knight) & from {
                let current = facing(pos, k);
                for d in nameable(v, k).filter(|&d| Some(d) != current) {
                    out.push(turn_move(pos, k, d));
                }
            }
        }
        // With #43 running, its stand-still promotions are these (LP-3).
        if !pos.events().iter().any(|e| e.number() == LINE_PUSHERS) {
            super::standing_promotions(v, pos, from, (NUMBER, PROMOTE), out);
        }
    }

    fn play_extra(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        let Special::Event { data, .. } = mv.special else {
            return;
        };
        if data == PROMOTE {
            super::promote_in_place(pos, mv);
        } else {
            set_facing(pos, mv.from, u8::try_from(data).ok().map(Direction));
        }
    }

    /// LK-2: the knight facing the victim (the capturer's choice among several, LK-4)
    /// takes its place, and is captured instead.
    fn before_capture(&self, v: &Variant, pos: &mut Position, mv: &Move, victim: Sq) -> Sq {
        let knights = facers(v, pos, victim);
        let chosen = mv
            .swap
            .filter(|k| knights.contains(*k))
            .or_else(|| knights.first());
        if let Some(knight) = chosen {
            let piece = pos.lift(victim).expect("a victim");
            let guard = pos.lift(knight).expect("a knight");
            let moved = piece.piece;
            pos.place(victim, guard);
            pos.place(knight, piece);
            if v.role(moved.kind) == Role::King {
                pos.set_castling(pos.castling & !pos.by_color(moved.color));
            }
            // A rook swapped off its corner may no longer castle.
            pos.set_castling(pos.castling & !victim.bit());
        }
        victim
    }

    fn after_landing(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        if let Some(direction) = mv.faces {
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
        // `Nxb8@g8->b9` (#126) takes the knight on b8: a turn in place puts nothing back.
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
                    "{toward} is on no line or diagonal from {}: a knight faces one of the eight directions (LK-1)",
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
                    "a pawn that becomes a knight must be given the direction it faces (LK-8): `{}->` and a square on its line",
                    san::written(written)
                ),
                None,
            )));
        }
        if let Some(refused) = self.unnamed_swap(v, pos, written) {
            return Some(Err(refused));
        }
        super::resolve_standing_promotion(
            v,
            pos,
            written,
            &super::StandingRules {
                cannot: "LK-7",
                in_check: "LK-6",
            },
        )
    }

    fn san(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        match mv.special {
            // The direction comes after, from `annotate` (LK-8).
            Special::Event { data: PROMOTE, .. } => {
                let letter = mv.promotion.map_or('?', |k| v.piece(k).letter);
                format!("{}={letter}", g.name(mv.from))
            }
            Special::Event { data, .. } => {
                let direction = Direction(u8::try_from(data).unwrap_or(0));
                let toward = arrow_square(v, mv.from, direction).unwrap_or_default();
                format!("N{}->{toward}", g.name(mv.from))
            }
            _ => String::new(),
        }
    }

    /// `->g2` after a knight move that changes its direction, `/g1` after a capture that
    /// several knights could take.
    fn annotate(&self, v: &Variant, pos: &Position, mv: &Move, out: &mut String) {
        if let Some(toward) = mv.faces.and_then(|d| arrow_square(v, mv.to, d)) {
            out.push_str("->");
            out.push_str(&toward);
        }
        if let Some(knight) = mv.swap
            && let Some(target) = victim(v, pos, mv)
            && facers(v, pos, target).has_more_than_one()
        {
            out.push('/');
            out.push_str(&v.geometry.name(knight));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    /// `fen` with #85 started and the knights' directions given (`Nb1->b2`).
    fn with_knights(fen: &str, facings: &str) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&LoyalKnights, None).unwrap();
        let command = crate::command::parse_event(&format!("85 {facings}"), 0).unwrap();
        let choices: Vec<Choice> = command.choices.iter().map(|c| c.node).collect();
        LoyalKnights.begin(v, &mut pos, &choices).unwrap();
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

    /// Found by tests/random_games.rs: with #68 Prince running too, a knight that
    /// captures a king is written `Nxe7K@g6->f8`, `K@` before `->` as the notation reads
    /// them, whichever event started first; every move's SAN reads back to it.
    #[test]
    fn a_knight_capturing_a_king_writes_the_king_before_the_facing() {
        let v = event_chess();
        let mut pos = with_knights("4k3/8/6p1/3N4/8/8/P7/K7 b - - 0 1", "Nd5->d6");
        pos.start_event(&crate::rules::events::Prince, None)
            .unwrap();
        let pawns =
            ["a2", "g6"].map(|s| Choice::Square(crate::notation::Square::parse(s).unwrap()));
        crate::rules::events::Prince
            .begin(v, &mut pos, &pawns)
            .unwrap();
        // A king that cannot be checked may step where the knight takes it (PR-1).
        play(&mut pos, "Ke7");
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        let turning = moves
            .iter()
            .map(|mv| san::san(v, &pos, mv))
            .find(|written| written.starts_with("Nxe7") && written.contains("->"));
        assert_eq!(turning.as_deref(), Some("Nxe7K@g6->f8+"));
        for mv in &moves {
            let written = san::san(v, &pos, mv);
            assert_eq!(resolve(&pos, &written), Ok(*mv), "{written}");
        }
    }

    /// Found by fuzzing: #85 reads `->`, so a push without its rook's square passed to the
    /// orthodox reader, which expected a square and panicked.
    #[test]
    fn a_push_without_line_pushers_is_refused() {
        let pos = with_knights("4k3/8/8/8/8/8/8/R3K1N1 w - - 0 1", "Ng1->g2");
        for written in ["R->h3", "R->a8+", "N->a4"] {
            let refused = resolve(&pos, written).unwrap_err();
            assert!(
                refused.reason.contains("names no square"),
                "{}",
                refused.reason
            );
        }
    }

    #[test]
    fn a_faced_piece_swaps_with_the_knight_which_is_captured() {
        let v = event_chess();
        // The knight on g2 faces the pawn on g4 up the file (seed example 4).
        let mut pos = with_knights("6k1/8/8/8/6Pr/8/6N1/K7 b - - 0 1", "Ng2->g3");
        assert_eq!(facers(v, &pos, sq("g4")), sq("g2").bit());
        play(&mut pos, "Rxg4");
        assert_eq!(
            pos.piece_at(sq("g2")).map(|p| v.role(p.kind)),
            Some(Role::Pawn)
        );
        assert_eq!(pos.by_kind(knight_kind(v).unwrap()), Bitboard::EMPTY);
        assert_eq!(pos.captures, [0, 1], "the knight was taken");
    }

    #[test]
    fn a_piece_in_between_blocks_the_view() {
        let v = event_chess();
        // Seed example 3: the pawn on h3 stands between the knight h2 and the pawn h4.
        let pos = with_knights("6k1/8/8/8/7P/7P/7N/K6r w - - 0 1", "Nh2->h3");
        assert_eq!(facers(v, &pos, sq("h4")), Bitboard::EMPTY);
        assert_eq!(facers(v, &pos, sq("h3")), sq("h2").bit());
    }

    #[test]
    fn several_facing_knights_are_the_capturers_choice() {
        // The knights on g1 and d1 both face the pawn on d4 (seed example 5).
        let pos = with_knights("3r2k1/8/8/8/3P4/8/8/K2N2N1 b - - 0 1", "Nd1->d2 Ng1->a7");
        let refused = resolve(&pos, "Rxd4").unwrap_err();
        assert_eq!(refused.kind, RejectionKind::Ambiguous, "{}", refused.reason);
        assert!(refused.reason.contains("LK-4"));
        let mut chosen = pos.clone();
        play(&mut chosen, "Rxd4/g1");
        let v = event_chess();
        assert_eq!(
            chosen.piece_at(sq("g1")).map(|p| v.role(p.kind)),
            Some(Role::Pawn)
        );
        assert!(
            chosen.piece_at(sq("d1")).is_some(),
            "the other knight stays"
        );
    }

    #[test]
    fn a_faced_king_cannot_be_checked() {
        let v = event_chess();
        // The rook on a8 attacks the king on h8, which the knight on h7 faces (LK-5).
        let fen = "R6k/7n/8/8/8/8/8/K7 b - - 0 1";
        let pos = with_knights(fen, "Nh7->h8");
        assert!(!pos.is_check(v));
        assert!(parse_fen(v, fen).unwrap().is_check(v), "without the event");
        // Turning away leaves the king in check (LK-6); staying faced, it may stay.
        assert!(resolve(&pos, "Nh7->h6").is_err());
        assert!(resolve(&pos, "Kg7").is_ok());
    }

    #[test]
    fn knights_turn_and_face_as_written() {
        let v = event_chess();
        let mut pos = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        let refused = resolve(&pos, "Ng1->g5").unwrap_err();
        assert!(refused.reason.contains("LK-8"), "{}", refused.reason);
        let before = pos.clone();
        let turn = play(&mut pos, "Ng1->h2");
        assert_eq!(san::san(v, &before, &turn), "Ng1->h2");
        assert_eq!(facing(&pos, sq("g1")), Some(Direction(1)));
        play(&mut pos, "Kd7");
        let before = pos.clone();
        let moved = play(&mut pos, "Nf3->d1");
        assert_eq!(san::san(v, &before, &moved), "Nf3->e2");
        assert_eq!(
            facing(&pos, sq("f3")),
            Some(Direction(5)),
            "the direction moved along"
        );
    }

    #[test]
    fn a_promotion_to_a_knight_needs_a_direction() {
        let pos = with_knights("4k3/P7/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        assert!(resolve(&pos, "a8=N").is_err());
        assert!(resolve(&pos, "a8=N->b8").is_ok());
        assert!(resolve(&pos, "a8=Q").is_ok());
    }

    /// Found by tests/random_games.rs: #5 started after #85 adds its moves through the
    /// passage after #85 has rerouted; the core attaches #85's choices once every event
    /// has rerouted, so a pawn that becomes a knight at the exit faces a direction (LK-8).
    #[test]
    fn a_promotion_through_a_passage_opened_later_faces_a_direction() {
        let v = event_chess();
        let mut pos = with_knights("6nk/8/8/8/8/8/P7/1N5K w - - 0 1", "Nb1->b2 Ng8->g7");
        pos.start_event(&crate::rules::events::HiddenPassage, None)
            .unwrap();
        let squares =
            ["a3", "a8"].map(|s| Choice::Square(crate::notation::Square::parse(s).unwrap()));
        crate::rules::events::HiddenPassage
            .begin(v, &mut pos, &squares)
            .unwrap();
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        let to_knight: Vec<&Move> = moves
            .iter()
            .filter(|mv| mv.promotion == knight_kind(v))
            .collect();
        assert!(!to_knight.is_empty());
        assert!(
            to_knight.iter().all(|mv| mv.faces.is_some()),
            "{to_knight:?}"
        );
        assert!(resolve(&pos, "a3-a8=N").is_err());
        play(&mut pos, "a3-a8=N->a7");
        let facing = facing(&pos, sq("a8")).expect("a direction");
        assert_eq!(arrow_square(v, sq("a8"), facing).as_deref(), Some("a7"));
    }

    /// A knight #7 Revival drops is a new piece with no direction (RV-3): the drop is
    /// listed once, with no arrow, as `N@e5` reads back.
    #[test]
    fn a_knight_revived_by_another_event_faces_no_direction() {
        let v = event_chess();
        let mut pos = with_knights(
            "1n2k3/pppp4/8/8/8/P7/1PPP4/1N2K3 b - - 0 1",
            "Nb1->b2 Nb8->b7",
        );
        pos.start_event(&crate::rules::events::revival::Revival, None)
            .unwrap();
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        let drops: Vec<&Move> = moves
            .iter()
            .filter(|mv| Some(mv.piece.kind) == knight_kind(v) && mv.to == sq("e5"))
            .collect();
        assert_eq!(drops.len(), 1, "{drops:?}");
        assert_eq!(drops[0].faces, None);
        play(&mut pos, "N@e5");
        assert_eq!(facing(&pos, sq("e5")), None);
    }

    #[test]
    fn a_direction_one_file_off_the_board_survives_the_fen() {
        let v = event_chess();
        // The knight on h1 faces north-east, off the board (`Nh1->i2`, LK-1): the
        // extended FEN keeps it (it was lost before).
        let pos = with_knights("4k3/8/8/8/8/8/8/n3K2N w - - 0 1", "Nh1->i2 Na1->b2");
        let fen = crate::rules::write_fen(v, &pos);
        assert!(fen.contains("Nh1->i2"), "{fen}");
        let read = parse_fen(v, &fen).unwrap();
        assert_eq!(facing(&read, sq("h1")), facing(&pos, sq("h1")));
        assert_eq!(crate::rules::write_fen(v, &read), fen);
    }
}
