//! Event #64 Soul Eater (catalogue; rulings SE-1 to SE-8 in
//! `docs/rules/event-64-soul-eater.md`): every enemy piece a player captures gives him a
//! soul of its type, and as his move he may spend one to move a king with that type's
//! movement. A king threatens every square its owner's souls would take it to.
//!
//! The souls are counts per player and piece kind in the event's slot: byte `kind` of
//! `boards[color]` (SE-7). A soul move is one of the event's own moves, `data` the kind
//! of the soul it spends.

use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState, Overlay};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct SoulEater;

const NUMBER: u16 = 64;

static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Soul Eater",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('K', 1)]),
    rulings: &[
        "SE-1", "SE-2", "SE-3", "SE-4", "SE-5", "SE-6", "SE-7", "SE-8",
    ],
    page: "docs/rules/event-64-soul-eater.md",
};

/// How many souls of `kind` `color` holds.
fn souls(pos: &Position, color: Color, kind: Kind) -> u8 {
    pos.event_state(NUMBER).map_or(0, |state| {
        (state.boards[color.index()].0 >> (8 * kind.index())) as u8
    })
}

/// Sets how many souls of `kind` `color` holds.
fn set_souls(pos: &mut Position, color: Color, kind: Kind, count: u8) {
    let mut state = pos.event_state(NUMBER).copied().unwrap_or_default();
    let shift = 8 * kind.index();
    let board = &mut state.boards[color.index()].0;
    *board = *board & !(0xff << shift) | u128::from(count) << shift;
    pos.set_event_state(NUMBER, state);
}

/// The kinds of which `color` holds a soul, each once.
fn soul_kinds<'a>(
    v: &'a Variant,
    pos: &'a Position,
    color: Color,
) -> impl Iterator<Item = Kind> + 'a {
    (0..v.pieces.len())
        .map(|i| Kind(i as u8))
        .filter(move |&kind| souls(pos, color, kind) > 0)
}

/// The king distance between two squares.
fn distance(v: &Variant, a: Sq, b: Sq) -> u8 {
    let g = v.geometry;
    g.file(a)
        .abs_diff(g.file(b))
        .max(g.rank(a).abs_diff(g.rank(b)))
}

/// The squares a soul of `kind` takes the `color` king on `king` to, with `occupied` in
/// the way, whatever stands there: SE-2 a piece's movement to squares two or more away
/// (the rest are the king's own steps); SE-3 a pawn's double step from the owner's first
/// two ranks over an empty square.
fn soul_reach(v: &Variant, kind: Kind, color: Color, king: Sq, occupied: Bitboard) -> Bitboard {
    let mut reach = Bitboard::EMPTY;
    if v.role(kind) == Role::Pawn {
        let t = &v.tables;
        if super::on_own_first_two_ranks(v, king, color)
            && let Some(step) = t.pawn_step(color, king)
            && !occupied.contains(step)
            && let Some(double) = t.pawn_step(color, step)
            && !occupied.contains(double)
        {
            reach.set(double);
        }
        return reach;
    }
    for to in v.attacks(kind, color, king, occupied) {
        if distance(v, king, to) >= 2 {
            reach.set(to);
        }
    }
    reach
}

/// The soul of the soul move `mv`.
fn spent(mv: &Move) -> Option<Kind> {
    match mv.special {
        Special::Event {
            number: NUMBER,
            data,
        } => Some(Kind(data as u8)),
        _ => None,
    }
}

/// The square a king's pawn-soul double step passes over (SE-4), if `mv` is one.
fn passed_square(v: &Variant, mv: &Move) -> Option<Sq> {
    let kind = spent(mv)?;
    (v.role(kind) == Role::Pawn)
        .then(|| v.tables.pawn_step(mv.piece.color, mv.from))
        .flatten()
}

/// The enemy pawns that could take a king en passant on `passed` after its double step
/// (SE-4).
fn en_passant_takers(v: &Variant, pos: &Position, passed: Sq, color: Color) -> Bitboard {
    match v.tables.pawn {
        Some(pawn) => {
            v.tables.pawn_attacks[color.index()][passed.index()] & pos.pieces(color.other(), pawn)
        }
        None => Bitboard::EMPTY,
    }
}

/// The soul moves of the side to move from its kings in `from` to squares in `to`
/// (SE-2, SE-3): onto an empty square or an enemy piece, never an own one.
fn soul_moves(v: &Variant, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
    let us = pos.turn;
    let occupied = pos.occupied();
    let open = to & !pos.by_color(us) & !super::removed_squares(v, pos);
    for king in pos.kings(v, us) & from {
        let piece = pos.piece_at(king).expect("a king");
        for kind in soul_kinds(v, pos, us) {
            for target in soul_reach(v, kind, us, king, occupied) & open {
                out.push(Move {
                    piece,
                    from: king,
                    to: target,
                    captured: pos.piece_at(target),
                    promotion: None,
                    special: Special::Event {
                        number: NUMBER,
                        data: u16::from(kind.0),
                    },
                    faces: None,
                    swap: None,
                    returned: None,
                });
            }
        }
    }
}

/// `rook soul`: a soul's name in words.
fn soul_name(v: &Variant, kind: Kind) -> String {
    format!("{} soul", v.piece(kind).name)
}

/// The soul type written after the square (`Ke4=R`, SE-6) as a kind, or why it names none.
fn written_soul(v: &Variant, letter: u8) -> Result<Kind, String> {
    let letter = char::from(letter);
    v.kind_of_letter(letter)
        .filter(|&kind| v.role(kind) != Role::King)
        .ok_or_else(|| {
            format!(
                "`={letter}` after a king's square names the soul it spends, and there is no `{letter}` soul: souls are of the pieces a player captures, pawn to queen (SE-1, SE-6)"
            )
        })
}

impl Event for SoulEater {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// SE-7: the souls each player holds are part of the position.
    fn state_key(&self, state: &EventState) -> u64 {
        let [white, black] = state.boards.map(|board| board.0);
        let mixed = white ^ black.rotate_left(61).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed as u64) ^ (mixed >> 64) as u64
    }

    /// SE-7: `wPN,bQQ`, a word per player who holds souls: his colour, then a letter
    /// per soul.
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let mut words = Vec::new();
        for (color, mark) in [(Color::White, 'w'), (Color::Black, 'b')] {
            let mut word = String::new();
            for kind in soul_kinds(v, pos, color) {
                for _ in 0..souls(pos, color, kind) {
                    word.push(v.piece(kind).letter);
                }
            }
            if !word.is_empty() {
                words.push(format!("{mark}{word}"));
            }
        }
        words
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        for word in words {
            let mut letters = word.chars();
            let color = match letters.next() {
                Some('w') => Color::White,
                Some('b') => Color::Black,
                _ => {
                    return Err(format!(
                        "`{word}` is no player's souls: `w` or `b`, then a letter per soul (SE-7)"
                    ));
                }
            };
            for letter in letters {
                let kind = u8::try_from(letter)
                    .map_err(|_| format!("`{letter}` is no soul"))
                    .and_then(|byte| written_soul(v, byte))?;
                let count = souls(pos, color, kind);
                set_souls(pos, color, kind, count.saturating_add(1));
            }
        }
        Ok(())
    }

    /// SE-7: a soul moves a king as a piece, so a side holding one has material to mate.
    fn adds_mating_material(&self, _v: &Variant, pos: &Position) -> bool {
        pos.event_state(NUMBER)
            .is_some_and(|state| state.boards.iter().any(|board| board.nonempty()))
    }

    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let held = |color: Color| {
            let list: Vec<String> = soul_kinds(v, pos, color)
                .map(|kind| format!("{} {}", souls(pos, color, kind), v.piece(kind).name))
                .collect();
            if list.is_empty() {
                "none".to_owned()
            } else {
                list.join(", ")
            }
        };
        out.lines.push(format!(
            "souls: white {}; black {}",
            held(Color::White),
            held(Color::Black)
        ));
    }

    /// SE-1: an enemy piece captured gives its captor a soul of the type it has as it
    /// is taken (a promoted piece its new one); an own piece or a king gives none.
    fn on_capture(&self, v: &Variant, pos: &mut Position, mv: &Move, victim: Sq) {
        let captor = mv.piece.color;
        let Some(taken) = pos.piece_at(victim) else {
            return;
        };
        if taken.color == captor || v.role(taken.kind) == Role::King {
            return;
        }
        let count = souls(pos, captor, taken.kind);
        set_souls(pos, captor, taken.kind, count.saturating_add(1));
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        soul_moves(v, pos, from, to, out);
    }

    /// SE-2: the soul is spent and the king moves as an ordinary move would take it
    /// there, capturing what stands on the square (which gives a soul, SE-1).
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let kind = spent(mv).expect("a soul move");
        let color = mv.piece.color;
        let count = souls(pos, color, kind);
        set_souls(pos, color, kind, count.saturating_sub(1));
        v.play_part(
            pos,
            &Move {
                special: Special::Normal,
                ..*mv
            },
        );
    }

    /// SE-5: a king attacks every square a soul its owner holds would take it to (a
    /// pawn soul's double step captures nothing and attacks nothing).
    fn extra_attackers(
        &self,
        v: &Variant,
        pos: &Position,
        sq: Sq,
        by: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        let mut found = Bitboard::EMPTY;
        let kinds: Vec<Kind> = soul_kinds(v, pos, by)
            .filter(|&kind| v.role(kind) != Role::Pawn)
            .collect();
        if kinds.is_empty() {
            return found;
        }
        for king in pos.kings(v, by) & occupied {
            if kinds
                .iter()
                .any(|&kind| soul_reach(v, kind, by, king, occupied).contains(sq))
            {
                found.set(king);
            }
        }
        found
    }

    fn why_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        if v.role(piece.kind) != Role::King {
            return None;
        }
        let kind = soul_kinds(v, pos, piece.color).find(|&kind| {
            v.role(kind) != Role::Pawn
                && soul_reach(v, kind, piece.color, from, pos.occupied()).contains(to)
        })?;
        Some(format!(
            "holding a {}, the {} king reaches {} from {} as a {} does: event #64 Soul Eater, SE-5",
            soul_name(v, kind),
            piece.color,
            v.geometry.name(to),
            v.geometry.name(from),
            v.piece(kind).name
        ))
    }

    /// SE-4: a king's double step past a square an enemy pawn attacks could be taken en
    /// passant, so it counts as standing in check.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        passed_square(v, mv)
            .is_none_or(|passed| en_passant_takers(v, pos, passed, mv.piece.color).is_empty())
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let passed = passed_square(v, mv).expect("only a double step is refused");
        let takers: Vec<String> = en_passant_takers(v, pos, passed, mv.piece.color)
            .map(|sq| san::describe(v, pos, sq))
            .collect();
        format!(
            "the {} king's double step with a pawn soul from {} to {} passes {}, where {} could take it en passant: under event #64 Soul Eater the king then counts as in check, so the move is illegal (SE-4)",
            mv.piece.color,
            g.name(mv.from),
            g.name(mv.to),
            g.name(passed),
            san::list(&takers)
        )
    }

    /// SE-6: `Kg5=N`, `Kxe4=R`: the king's move with the spent soul's letter after the
    /// square; `K` and a second king's file where another king could spend the same
    /// soul to go there.
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let kind = spent(mv).expect("a soul move");
        let mut others = Vec::new();
        soul_moves(
            v,
            pos,
            pos.kings(v, mv.piece.color),
            mv.to.bit(),
            &mut others,
        );
        others.retain(|other| other.from != mv.from && spent(other) == Some(kind));
        let mut out = String::from("K");
        if !others.is_empty() {
            out.push_str(&g.name(mv.from));
        }
        if mv.is_capture() {
            out.push('x');
        }
        out.push_str(&g.name(mv.to));
        out.push('=');
        out.push(v.piece(kind).letter);
        out
    }

    fn lan(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let kind = spent(mv).expect("a soul move");
        let mark = if mv.is_capture() { 'x' } else { '-' };
        format!(
            "K{}{mark}{}={}",
            g.name(mv.from),
            g.name(mv.to),
            v.piece(kind).letter
        )
    }

    /// SE-6: a king's move with a soul's letter after its square, or without one where
    /// only souls take the king there.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        if written.piece != Some('K') {
            return None;
        }
        let g = v.geometry;
        let (origin, last) = match written.targets.as_slice() {
            [last] => (None, last),
            [origin, last] => (Some(origin), last),
            _ => return None,
        };
        let to = g.from_square(last.square)?;
        let us = pos.turn;
        let mut from = san::hinted_origins(v, written.hint) & pos.kings(v, us);
        if let Some(origin) = origin {
            from &= g.from_square(origin.square)?.bit();
        }
        let soul = match last.promotion.map(|p| written_soul(v, p.piece)) {
            Some(Ok(kind)) => Some(kind),
            Some(Err(why)) => {
                return Some(Err(san::illegal(
                    why,
                    san::legal_help(v, pos, &san::written(written), None),
                )));
            }
            None => None,
        };
        let mut pseudo = Vec::new();
        soul_moves(v, pos, from, to.bit(), &mut pseudo);
        pseudo.retain(|mv| soul.is_none_or(|kind| spent(mv) == Some(kind)));
        if pseudo.is_empty() {
            return match soul {
                Some(kind) => Some(Err(self.why_no_soul_move(v, pos, from, to, kind, written))),
                None => self.why_no_soul_held(v, pos, from, to, written).map(Err),
            };
        }
        let mut legal = Vec::new();
        v.legal_moves_between(pos, from, to.bit(), &mut legal);
        // SE-8: without a letter, a move the king makes on its own (#62's leap) is its own.
        let own_move =
            |mv: &Move| spent(mv).is_none() && !matches!(mv.special, Special::Castle { .. });
        if soul.is_none() && legal.iter().any(own_move) {
            return None;
        }
        legal.retain(|mv| pseudo.contains(mv));
        Some(match legal.as_slice() {
            [mv] => Ok(*mv),
            [] => Err(san::illegal(
                match pos
                    .events()
                    .into_iter()
                    .find(|e| !e.allows(v, pos, &pseudo[0]))
                {
                    Some(event) => event.why_refused(v, pos, &pseudo[0]),
                    None => format!(
                        "{}: a king moving with a soul stays royal and may not end in check (SE-2)",
                        san::king_exposed(v, pos, &pseudo[0])
                    ),
                },
                san::legal_help(v, pos, &san::written(written), None),
            )),
            several if several.iter().all(|mv| spent(mv) == spent(&several[0])) => {
                Err(san::ambiguous(v, pos, several))
            }
            several => {
                let spellings: Vec<String> =
                    several.iter().map(|mv| self.san(v, pos, mv)).collect();
                Err(san::illegal(
                    format!(
                        "`{}` does not say which soul the {us} king spends: under event #64 Soul Eater the spent soul's letter follows the square where more than one could take the king there (SE-6)",
                        san::written(written)
                    ),
                    Some(format!("write {}", spellings.join(" or "))),
                ))
            }
        })
    }
}

impl SoulEater {
    /// Why a king's move written without a soul, which neither its own steps nor the
    /// souls its owner holds make, is refused, where a soul he does not hold would take
    /// the king there (SE-1, SE-2); `None` leaves it to the orthodox reading.
    fn why_no_soul_held(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Sq,
        written: &PieceMove,
    ) -> Option<Rejection> {
        let us = pos.turn;
        let mut legal = Vec::new();
        v.legal_moves_between(pos, from, to.bit(), &mut legal);
        if !legal.is_empty() || pos.piece_at(to).is_some_and(|p| p.color == us) {
            return None;
        }
        let kind = (0..v.pieces.len()).map(|i| Kind(i as u8)).find(|&kind| {
            v.role(kind) != Role::King
                && souls(pos, us, kind) == 0
                && from
                    .into_iter()
                    .any(|king| soul_reach(v, kind, us, king, pos.occupied()).contains(to))
        })?;
        Some(san::illegal(
            format!(
                "no {us} king can reach {} with its own step, and {us} holds no {} to take it there: under event #64 Soul Eater a player gains a soul of each enemy piece he captures (SE-1, SE-2)",
                v.geometry.name(to),
                soul_name(v, kind)
            ),
            san::legal_help(v, pos, &san::written(written), None),
        ))
    }

    /// Why no king of the side to move in `from` may spend a soul of `kind` to go to `to`.
    fn why_no_soul_move(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Sq,
        kind: Kind,
        written: &PieceMove,
    ) -> Rejection {
        let g = v.geometry;
        let us = pos.turn;
        let help = san::legal_help(v, pos, &san::written(written), None);
        let soul = soul_name(v, kind);
        let reason = if souls(pos, us, kind) == 0 {
            format!(
                "{us} holds no {soul}: under event #64 Soul Eater a player gains a soul of each enemy piece he captures, and spends it to move a king (SE-1, SE-2)"
            )
        } else if from.into_iter().any(|king| distance(v, king, to) <= 1) {
            format!(
                "{} is next to the {us} king: under event #64 Soul Eater a soul is spent only on a move of two squares or more, the squares next to the king being its own steps (SE-2)",
                g.name(to)
            )
        } else if v.role(kind) == Role::Pawn {
            format!(
                "a pawn soul does not take the {us} king to {}: under event #64 Soul Eater it moves the king two squares straight ahead, in its owner's pawn direction, from his first or second rank, over an empty square onto an empty one (SE-3)",
                g.name(to)
            )
        } else if pos.piece_at(to).is_some_and(|p| p.color == us) {
            format!(
                "{} holds a {us} piece: under event #64 Soul Eater a king moving with a soul ends on an empty square or captures an enemy piece (SE-2)",
                g.name(to)
            )
        } else {
            format!(
                "a {soul} does not take the {us} king to {}: under event #64 Soul Eater it moves the king as a {} moves, a slide stopping at the first piece in its way (SE-2)",
                g.name(to),
                v.piece(kind).name
            )
        };
        san::illegal(reason, help)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::parse_fen;
    use crate::rules::san::{resolve, san};

    fn play(pos: &mut Position, written: &str) {
        let v = event_chess();
        let mv = resolve(v, pos, &Notation::parse(written).unwrap()).unwrap();
        v.play(pos, &mv);
    }

    fn kind(letter: char) -> Kind {
        event_chess().kind_of_letter(letter).unwrap()
    }

    #[test]
    fn captures_give_souls_that_a_king_spends() {
        let v = event_chess();
        let mut pos = parse_fen(v, "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1").unwrap();
        pos.start_event(&SoulEater, None).unwrap();
        play(&mut pos, "Kxd2");
        assert_eq!(souls(&pos, Color::White, kind('N')), 1, "SE-1");
        let before = pos.key(v);
        play(&mut pos, "Kd7");
        play(&mut pos, "Ke4=N");
        assert_eq!(
            pos.piece_at(sq("e4")).map(|p| v.role(p.kind)),
            Some(Role::King)
        );
        assert_eq!(souls(&pos, Color::White, kind('N')), 0, "SE-2: spent");
        assert_ne!(before, pos.key(v));
    }

    #[test]
    fn souls_travel_in_the_fen_and_tell_positions_apart() {
        let v = event_chess();
        let fen = "6k1/8/8/8/8/8/8/K7 w - - 0 1 events(64-:wPPN,bQ)";
        let pos = parse_fen(v, fen).unwrap();
        assert_eq!(souls(&pos, Color::White, kind('P')), 2);
        assert_eq!(crate::rules::write_fen(v, &pos), fen, "SE-7");
        let fewer = parse_fen(v, "6k1/8/8/8/8/8/8/K7 w - - 0 1 events(64-:wPN,bQ)").unwrap();
        assert_ne!(pos.key(v), fewer.key(v), "SE-7");
    }

    #[test]
    fn a_soul_move_is_written_with_its_soul() {
        let v = event_chess();
        let pos = parse_fen(v, "6k1/8/8/8/8/8/8/K7 w - - 0 1 events(64-:wRQ)").unwrap();
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        let written: Vec<String> = moves.iter().map(|mv| san(v, &pos, mv)).collect();
        assert!(written.contains(&"Ka3=R".to_owned()), "{written:?}");
        assert!(written.contains(&"Kc3=Q".to_owned()), "{written:?}");
        assert!(
            !written.contains(&"Ka2=R".to_owned()),
            "SE-2: a step spends none"
        );
        let ambiguous = resolve(v, &pos, &Notation::parse("Ka3").unwrap()).unwrap_err();
        assert_eq!(
            ambiguous.help.as_deref(),
            Some("write Ka3=R or Ka3=Q"),
            "SE-6"
        );
    }
}
