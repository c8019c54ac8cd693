//! Event #46 Sacrificial Catapult (catalogue; rulings SC-1 to SC-8 in
//! `docs/rules/event-46-sacrificial-catapult.md`): an empty rook takes an own piece next to
//! it along a rank or file onto itself (`R@a2`, the passenger's square); the passenger no
//! longer moves. A loaded rook fires at a square two squares away along a rank or file,
//! over whatever stands between (`RFire@d7`): every piece on that square and its four
//! neighbours along the ranks and files is captured, and the passenger is spent.
//!
//! The rook stays the piece on the board and its passenger a mark on it, as the other
//! rook carriers keep their riders (`rook_stacks`), so the core carries the passenger with
//! the rook's every move and drops it when the rook is taken. Five kinds may ride, so the
//! passenger's kind is a number in three mark layers, which leaves room for an event of
//! four layers beside it (#85). A possible shot is a threat (SC-6): `extra_attackers`.

use super::rook_stacks::Carrier;
use crate::notation::{MoveBody, Notation, PieceMove, Shot, Verb};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState, EventType, Form, Overlay};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection, RejectionKind};
use crate::rules::variant::Variant;

pub struct SacrificialCatapult;

const NUMBER: u16 = 46;

static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Sacrificial Catapult",
    aliases: &[],
    types: &[EventType::RookCarrier],
    condition: Condition::pieces_each(&[('R', 1)]),
    rulings: &[
        "SC-1", "SC-2", "SC-3", "SC-4", "SC-5", "SC-6", "SC-7", "SC-8",
    ],
    page: "docs/rules/event-46-sacrificial-catapult.md",
};

const TITLE: &str = "#46 Sacrificial Catapult";

/// An empty rook takes the own piece on `to` onto itself (SC-1).
const LOAD: u16 = 0;
/// A loaded rook fires at `to` (SC-4).
const FIRE: u16 = 1;

/// The letters a passenger may have, its number in the mark layers being its place here
/// plus one (SC-1: no king).
const PASSENGERS: [char; 5] = ['P', 'N', 'B', 'R', 'Q'];
/// Mark layers holding the passenger's number in binary.
const LAYERS: usize = 3;

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

fn rook(v: &Variant) -> Option<Kind> {
    v.kind_of_letter('R')
}

fn word(letter: char) -> &'static str {
    match letter {
        'P' => "pawn",
        'N' => "knight",
        'B' => "bishop",
        'R' => "rook",
        _ => "queen",
    }
}

/// The squares of every loaded rook, of both sides.
fn loaded(pos: &Position) -> Bitboard {
    (0..LAYERS)
        .filter_map(|i| pos.mark_layer(NUMBER, i))
        .fold(Bitboard::EMPTY, |bb, layer| bb | pos.marked(layer))
}

/// The letter of the passenger on the rook on `sq`.
fn passenger(pos: &Position, sq: Sq) -> Option<char> {
    let code = (0..LAYERS)
        .filter(|&i| {
            pos.mark_layer(NUMBER, i)
                .is_some_and(|layer| pos.marked(layer).contains(sq))
        })
        .fold(0, |code, i| code | 1 << i);
    (code > 0).then(|| PASSENGERS.get(code - 1).copied())?
}

fn set_passenger(pos: &mut Position, sq: Sq, letter: Option<char>) {
    let code = letter
        .and_then(|l| PASSENGERS.iter().position(|&p| p == l))
        .map_or(0, |i| i + 1);
    for i in 0..LAYERS {
        if let Some(layer) = pos.mark_layer(NUMBER, i) {
            pos.set_mark(layer, sq, code & 1 << i != 0);
        }
    }
}

/// The squares two steps from `from` along a rank or file: where it may fire (SC-4).
fn targets(v: &Variant, from: Sq) -> impl Iterator<Item = Sq> + '_ {
    ORTHOGONAL
        .iter()
        .filter_map(move |&(df, dr)| v.geometry.offset(from, 2 * df, 2 * dr))
}

/// The squares a shot at `target` hits: it and its neighbours along the ranks and files,
/// cut off at the edge (SC-4).
fn cross(v: &Variant, target: Sq) -> Bitboard {
    let mut out = target.bit();
    for (df, dr) in ORTHOGONAL {
        if let Some(sq) = v.geometry.offset(target, df, dr) {
            out.set(sq);
        }
    }
    out
}

/// The pieces of `color` a shot may not hit and a load may not take: its kings and the
/// pieces an event makes royal (SC-1, SC-6).
fn royals(v: &Variant, pos: &Position, color: Color) -> Bitboard {
    let kings = pos.kings(v, color);
    kings
        | pos
            .events()
            .iter()
            .find_map(|e| e.royals(v, pos, color))
            .unwrap_or(kings)
}

/// The squares the loaded rook of `by` on `from` threatens: every square its possible
/// shots hit, a shot that would hit its own king excepted (SC-6).
fn threats(v: &Variant, pos: &Position, from: Sq, by: Color) -> Bitboard {
    let own = royals(v, pos, by);
    targets(v, from)
        .map(|t| cross(v, t))
        .filter(|hit| (*hit & own).is_empty())
        .fold(Bitboard::EMPTY, |bb, hit| bb | hit)
}

/// ` from the black rook on a1`: what checks the mover's king once `mv` is played.
fn checkers(v: &Variant, pos: &Position, mv: &Move) -> String {
    let us = mv.piece.color;
    let mut after = pos.clone();
    v.play(&mut after, mv);
    let found: Vec<String> = after
        .checkable_kings(v, us)
        .into_iter()
        .flat_map(|king| {
            after
                .attackers(v, king, us.other(), after.occupied())
                .into_iter()
        })
        .map(|sq| san::describe(v, &after, sq))
        .collect();
    if found.is_empty() {
        String::new()
    } else {
        format!(" from {}", san::list(&found))
    }
}

fn is_ours(mv: &Move, data: u16) -> bool {
    mv.special
        == Special::Event {
            number: NUMBER,
            data,
        }
}

fn event_move(piece: Piece, from: Sq, to: Sq, captured: Option<Piece>, data: u16) -> Move {
    Move {
        piece,
        from,
        to,
        captured,
        promotion: None,
        special: Special::Event {
            number: NUMBER,
            data,
        },
        faces: None,
        swap: None,
        returned: None,
    }
}

/// Whether the square holds a piece a load may take: an own piece that is no king or
/// royal piece and no loaded rook (SC-1).
fn boardable(v: &Variant, pos: &Position, sq: Sq, us: Color) -> bool {
    pos.piece_at(sq).is_some_and(|p| {
        p.color == us
            && PASSENGERS.contains(&v.piece(p.kind).letter)
            && !royals(v, pos, us).contains(sq)
            && !loaded(pos).contains(sq)
    })
}

fn ambiguous(v: &Variant, pos: &Position, moves: &[Move], doing: &str, rule: &str) -> Rejection {
    let g = v.geometry;
    let origins: Vec<String> = moves.iter().map(|mv| g.name(mv.from)).collect();
    let spellings: Vec<String> = moves.iter().map(|mv| san::san_plain(v, pos, mv)).collect();
    Rejection {
        kind: RejectionKind::Ambiguous,
        reason: format!(
            "ambiguous: the rooks on {} can {} {doing} {}: the rook's file, rank or square after its letter tells them apart ({rule})",
            san::list(&origins),
            if moves.len() == 2 { "both" } else { "all" },
            g.name(moves[0].to)
        ),
        help: Some(format!("write {}", spellings.join(" or "))),
    }
}

impl SacrificialCatapult {
    /// Whether another running event reads drops: then `R@e4` onto a square without an
    /// own piece is its drop, not a load (SC-2).
    fn drop_read_elsewhere(pos: &Position) -> bool {
        pos.events()
            .iter()
            .any(|e| e.number() != NUMBER && e.reads(Form::Drop))
    }

    /// `R@a2`, `Ra@b1`: the rook next to the own piece on the square takes it on (SC-2).
    fn resolve_load(
        v: &Variant,
        pos: &Position,
        letter: u8,
        origins: Bitboard,
        square: crate::notation::Square,
        text: &str,
        drop_shaped: bool,
    ) -> Option<Result<Move, Rejection>> {
        let us = pos.turn;
        let elsewhere = drop_shaped && Self::drop_read_elsewhere(pos);
        let to = match san::on_board(v, square) {
            Ok(to) => to,
            Err(_) if elsewhere => return None,
            Err(why) => return Some(Err(why)),
        };
        let own = pos.piece_at(to).is_some_and(|p| p.color == us);
        if elsewhere && (letter != b'R' || !own) {
            return None;
        }
        let help = || san::legal_help(v, pos, text, rook(v));
        if letter != b'R' {
            return Some(Err(san::illegal(
                format!(
                    "`{text}`: under event {TITLE} a load is written with the letter of the rook that takes the piece on, and the square of that piece (`R@a2`); `{}` is no rook's (SC-2)",
                    char::from(letter)
                ),
                help(),
            )));
        }
        let rooks = rook(v).map_or(Bitboard::EMPTY, |r| pos.pieces(us, r)) & origins;
        let mut moves = Vec::new();
        v.legal_moves_between(pos, rooks, to.bit(), &mut moves);
        moves.retain(|mv| is_ours(mv, LOAD));
        Some(match moves.as_slice() {
            [mv] => Ok(*mv),
            [] => Err(Self::why_no_load(v, pos, rooks, to, text, elsewhere)),
            several => Err(ambiguous(v, pos, several, "load", "SC-2")),
        })
        .map(|r| {
            r.map_err(|mut rejection| {
                if rejection.help.is_none() {
                    rejection.help = help();
                }
                rejection
            })
        })
    }

    fn why_no_load(
        v: &Variant,
        pos: &Position,
        rooks: Bitboard,
        to: Sq,
        text: &str,
        drop_read: bool,
    ) -> Rejection {
        let g = v.geometry;
        let us = pos.turn;
        let at = g.name(to);
        let reason = match pos.piece_at(to) {
            None => format!(
                "`{text}` is a load under event {TITLE}: a rook takes the own piece on the square written onto itself, and {at} is empty (SC-2)"
            ),
            Some(p) if p.color != us => format!(
                "a rook loads only an own piece, and {} stands on {at} (SC-1)",
                san::describe_piece(v, pos, to)
            ),
            Some(_) if royals(v, pos, us).contains(to) => format!(
                "the {us} king on {at} never rides a rook: under event {TITLE} a rook loads any own piece but the king (SC-1)"
            ),
            Some(_) if loaded(pos).contains(to) => format!(
                "the {us} rook on {at} carries a {}, and under event {TITLE} a loaded rook is no passenger (SC-1)",
                word(passenger(pos, to).unwrap_or('P'))
            ),
            Some(_) => {
                let mut pseudo = Vec::new();
                SacrificialCatapult.extra_moves(v, pos, rooks, to.bit(), &mut pseudo);
                pseudo.retain(|mv| is_ours(mv, LOAD));
                let next: Bitboard = ORTHOGONAL
                    .iter()
                    .filter_map(|&(df, dr)| g.offset(to, df, dr))
                    .map(Sq::bit)
                    .fold(Bitboard::EMPTY, |bb, b| bb | b);
                let full = (next & rooks & loaded(pos)).first();
                let mut own_square = Vec::new();
                SacrificialCatapult.extra_moves(v, pos, to.bit(), g.all(), &mut own_square);
                own_square.retain(|mv| is_ours(mv, LOAD));
                if let Some(mv) = pseudo.first() {
                    format!(
                        "loading {} on {at} onto the rook on {} would leave the {us} king in check{} (SC-1)",
                        san::describe_piece(v, pos, to),
                        g.name(mv.from),
                        checkers(v, pos, mv)
                    )
                } else if let Some(mine) = own_square.first() {
                    format!(
                        "`{text}` names the rook's own square: under event {TITLE} a load names the square of the piece the rook takes on, as `R@{}` (SC-2)",
                        g.name(mine.to)
                    )
                } else if let Some(full) = full {
                    format!(
                        "the {us} rook on {} carries a {} already, and under event {TITLE} a rook carries one passenger, so it loads no second until it fires (SC-1)",
                        g.name(full),
                        word(passenger(pos, full).unwrap_or('P'))
                    )
                } else {
                    format!(
                        "no {us} rook stands next to {at} along a rank or file{}: under event {TITLE} a rook loads only a piece on a square next to its own (SC-1)",
                        if rooks == rook(v).map_or(Bitboard::EMPTY, |r| pos.pieces(us, r)) {
                            ""
                        } else {
                            " where the origin written says"
                        }
                    )
                }
            }
        };
        if drop_read {
            // Beside #7 the token onto an own piece is no drop either (SC-2).
            return san::illegal(
                format!(
                    "{reason}; nor is it a drop, as a piece is dropped only on an empty square"
                ),
                None,
            );
        }
        san::illegal(reason, None)
    }

    /// `RFire@d7`, `RaFire@d7`, `Ra5Fire@d7`: a loaded rook's shot (SC-4, SC-5).
    fn resolve_fire(
        v: &Variant,
        pos: &Position,
        shot: &Shot,
        text: &str,
    ) -> Result<Move, Rejection> {
        let g = v.geometry;
        let us = pos.turn;
        let help = || san::legal_help(v, pos, text, rook(v));
        let to = san::on_board(v, shot.square)?;
        if shot.piece != b'R' {
            return Err(san::illegal(
                format!(
                    "`{text}` fires with a piece that is no rook: under event {TITLE} only a rook carrying a piece fires (SC-4)"
                ),
                help(),
            ));
        }
        let mut origins = san::hinted_origins(v, shot.hint);
        if let Some(from) = shot.from {
            origins &= g.from_square(from).map_or(Bitboard::EMPTY, Sq::bit);
        }
        let mine = loaded(pos) & pos.by_color(us) & origins;
        let mut moves = Vec::new();
        v.legal_moves_between(pos, mine, to.bit(), &mut moves);
        moves.retain(|mv| is_ours(mv, FIRE));
        match moves.as_slice() {
            [mv] => Ok(*mv),
            [] => Err(Self::why_no_fire(v, pos, mine, to, text, help())),
            several => Err(ambiguous(v, pos, several, "fire at", "SC-5")),
        }
    }

    fn why_no_fire(
        v: &Variant,
        pos: &Position,
        mine: Bitboard,
        to: Sq,
        text: &str,
        help: Option<String>,
    ) -> Rejection {
        let g = v.geometry;
        let us = pos.turn;
        let in_range: Vec<Sq> = mine
            .into_iter()
            .filter(|&r| targets(v, r).any(|t| t == to))
            .collect();
        let mut pseudo = Vec::new();
        SacrificialCatapult.extra_moves(v, pos, mine, to.bit(), &mut pseudo);
        pseudo.retain(|mv| is_ours(mv, FIRE));
        let hit_own = cross(v, to) & royals(v, pos, us);
        let reason = if mine.is_empty() {
            format!(
                "`{text}` is a shot, and under event {TITLE} only a rook carrying a piece fires; no {us} rook {} (SC-4)",
                if (loaded(pos) & pos.by_color(us)).is_empty() {
                    "carries one: load it first, `R@` and the square of the own piece next to it"
                } else {
                    "carrying one matches the origin written"
                }
            )
        } else if in_range.is_empty() {
            let names: Vec<String> = mine.into_iter().map(|sq| g.name(sq)).collect();
            format!(
                "{} is out of range: a loaded rook ({}) fires at a square exactly two squares away along a rank or file (SC-4)",
                g.name(to),
                san::list(&names)
            )
        } else if let Some(king) = hit_own.first() {
            format!(
                "a shot at {} hits {} and the four squares next to it along the ranks and files, and the {us} king stands on {}: under event {TITLE} no shot may hit its own king (SC-6)",
                g.name(to),
                g.name(to),
                g.name(king)
            )
        } else if let Some(mv) = pseudo.first() {
            format!(
                "the shot at {} would leave the {us} king in check{} (SC-4)",
                g.name(to),
                checkers(v, pos, mv)
            )
        } else {
            format!("`{text}` fires at nothing a loaded rook of {us} may fire at (SC-4)")
        };
        san::illegal(reason, help)
    }

    fn keep_castling(pos: &mut Position, kept: Bitboard) {
        if kept.nonempty() {
            let mut state = pos.event_state(NUMBER).copied().unwrap_or_default();
            state.boards[0] = kept;
            pos.set_event_state(NUMBER, state);
        }
    }
}

impl Event for SacrificialCatapult {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// The passengers' kinds, a number in three layers (SC-8).
    fn mark_layers(&self) -> usize {
        LAYERS
    }

    /// `R@a2` (a drop's shape, SC-2), `Ra@b1` (a load with its rook's origin), `RFire@d7`
    /// (SC-5).
    fn reads(&self, form: Form) -> bool {
        matches!(form, Form::Drop | Form::Load | Form::Fire)
    }

    /// SC-1 loads, SC-4 shots.
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        let Some(rook_kind) = rook(v) else {
            return;
        };
        let g = v.geometry;
        let us = pos.turn;
        let piece = Piece {
            color: us,
            kind: rook_kind,
        };
        let full = loaded(pos);
        let rooks = pos.pieces(us, rook_kind);
        for origin in rooks & !full & from {
            for (df, dr) in ORTHOGONAL {
                if let Some(next) = g.offset(origin, df, dr)
                    && to.contains(next)
                    && boardable(v, pos, next, us)
                {
                    out.push(event_move(piece, origin, next, None, LOAD));
                }
            }
        }
        let own = royals(v, pos, us);
        for origin in rooks & full & from {
            for target in targets(v, origin) {
                if to.contains(target) && (cross(v, target) & own).is_empty() {
                    let captured = pos.piece_at(target).filter(|p| p.color != us);
                    out.push(event_move(piece, origin, target, captured, FIRE));
                }
            }
        }
    }

    /// A load lifts the passenger onto its rook; a shot takes every piece it hits and
    /// spends the passenger. The rook moves in neither, so it keeps its castling right
    /// (SC-3), which the core takes from an event's squares: it is given back before the
    /// turn passes.
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let kept = pos.castling & mv.from.bit();
        if is_ours(mv, LOAD) {
            if let Some(rider) = pos.remove(mv.to) {
                set_passenger(pos, mv.from, Some(v.piece(rider.kind).letter));
            }
        } else if is_ours(mv, FIRE) {
            set_passenger(pos, mv.from, None);
            let hit = cross(v, mv.to);
            // Enemy pieces through the core's capture, so every event's capture hooks
            // and EC-2's count see them (SC-4); own pieces are lost, not captured by
            // their owner for EC-2.
            for sq in hit {
                match pos.piece_at(sq) {
                    Some(p) if p.color != mv.piece.color => {
                        v.capture(pos, mv, sq);
                    }
                    Some(_) => {
                        pos.remove(sq);
                    }
                    None => {}
                }
            }
            pos.set_castling(pos.castling & !hit);
        }
        Self::keep_castling(pos, kept);
    }

    /// SC-3: the rook's castling right, kept through its load or shot.
    fn before_turn_passes(&self, _v: &Variant, pos: &mut Position, _mv: &Move) {
        let Some(&state) = pos.event_state(NUMBER) else {
            return;
        };
        if state.boards[0].nonempty() {
            pos.set_castling(pos.castling | state.boards[0]);
            pos.set_event_state(NUMBER, EventState::default());
        }
    }

    /// SC-6: a loaded rook threatens every square its possible shots hit.
    fn extra_attackers(
        &self,
        v: &Variant,
        pos: &Position,
        sq: Sq,
        by: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        let mut found = Bitboard::EMPTY;
        for rook_sq in loaded(pos) & pos.by_color(by) & occupied {
            if threats(v, pos, rook_sq, by).contains(sq) {
                found.set(rook_sq);
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
        let letter = passenger(pos, from)?;
        (threats(v, pos, from, piece.color).contains(to)).then(|| {
            format!(
                "it carries a {}, and under event {TITLE} a shot two squares along a rank or file hits {} (SC-6)",
                word(letter),
                v.geometry.name(to)
            )
        })
    }

    /// SC-3: no castling with a loaded rook; SC-8: no other event's move puts a piece on
    /// an own loaded rook (#78's king boarding it).
    fn allows(&self, _v: &Variant, pos: &Position, mv: &Move) -> bool {
        let full = loaded(pos) & pos.by_color(mv.piece.color);
        match mv.special {
            Special::Castle { rook_from, .. } => !full.contains(rook_from),
            Special::Event { number, .. } if number != NUMBER && mv.to != mv.from => {
                !full.contains(mv.to)
            }
            _ => true,
        }
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        match mv.special {
            Special::Castle { rook_from, .. } => format!(
                "the {} rook on {} carries a {}, and under event {TITLE} a loaded rook does not castle (SC-3)",
                mv.piece.color,
                g.name(rook_from),
                word(passenger(pos, rook_from).unwrap_or('P'))
            ),
            _ => format!(
                "the {} rook on {} carries a {}, and under event {TITLE} a rook carries one piece (SC-8)",
                mv.piece.color,
                g.name(mv.to),
                word(passenger(pos, mv.to).unwrap_or('P'))
            ),
        }
    }

    /// SC-7: the passenger is taken with its rook, a second piece for EC-2 unless a pawn.
    fn on_capture(&self, _v: &Variant, pos: &mut Position, mv: &Move, victim: Sq) {
        if passenger(pos, victim).is_some_and(|l| l != 'P') {
            let count = &mut pos.captures[mv.piece.color.index()];
            *count = count.saturating_add(1);
        }
    }

    /// A move of a piece that rides a rook, where no piece of its letter on the board
    /// could have been meant: a passenger does not move (SC-1).
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let letter = written.letter()?;
        if written.rider().is_some() || !PASSENGERS.contains(&letter) {
            return None;
        }
        let kind = v.kind_of_letter(letter)?;
        let us = pos.turn;
        let mut origins = san::hinted_origins(v, written.hint);
        if let [origin, _, ..] = written.targets.as_slice() {
            origins &= v
                .geometry
                .from_square(origin.square)
                .map_or(Bitboard::EMPTY, Sq::bit);
        }
        if (pos.pieces(us, kind) & origins).nonempty() {
            return None;
        }
        let carrier = (loaded(pos) & pos.by_color(us))
            .into_iter()
            .find(|&sq| passenger(pos, sq) == Some(letter))?;
        let text = san::written(written);
        Some(Err(san::illegal(
            format!(
                "the {us} {} rides the rook on {}, and under event {TITLE} a passenger does not move: it leaves the rook only as the rook's shot (SC-1)",
                word(letter),
                v.geometry.name(carrier)
            ),
            san::legal_help(v, pos, &text, None),
        )))
    }

    fn resolve_turn(
        &self,
        v: &Variant,
        pos: &Position,
        written: &Notation,
    ) -> Option<Result<Move, Rejection>> {
        match &written.body {
            MoveBody::Placement(placed) => {
                let letter = placed.piece?;
                let text = placed.to_string();
                Self::resolve_load(v, pos, letter, v.geometry.all(), placed.square, &text, true)
            }
            MoveBody::Shot(shot) if shot.verb == Verb::Loads => {
                let g = v.geometry;
                let mut origins = san::hinted_origins(v, shot.hint);
                if let Some(from) = shot.from {
                    origins &= g.from_square(from).map_or(Bitboard::EMPTY, Sq::bit);
                }
                let text = shot.to_string();
                Self::resolve_load(v, pos, shot.piece, origins, shot.square, &text, false)
            }
            MoveBody::Shot(shot) if shot.verb == Verb::Fires => {
                Some(Self::resolve_fire(v, pos, shot, &shot.to_string()))
            }
            _ => None,
        }
    }

    /// `R@a2`, `Ra@b1` (SC-2); `RFire@d7`, `RaFire@d7` (SC-5).
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let data = if is_ours(mv, LOAD) { LOAD } else { FIRE };
        let rooks = loaded(pos) & pos.by_color(mv.piece.color);
        let rooks = if data == LOAD {
            pos.pieces(mv.piece.color, mv.piece.kind) & !rooks
        } else {
            rooks
        };
        let mut rivals = Vec::new();
        v.legal_moves_between(pos, rooks, mv.to.bit(), &mut rivals);
        rivals.retain(|r| is_ours(r, data));
        format!(
            "R{}{}{}",
            Carrier::disambiguation(v, mv, &rivals),
            if data == LOAD { "@" } else { "Fire@" },
            v.geometry.name(mv.to)
        )
    }

    /// `Ra1@a2`, `Rd5Fire@d7`.
    fn lan(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        format!(
            "R{}{}{}",
            g.name(mv.from),
            if is_ours(mv, LOAD) { "@" } else { "Fire@" },
            g.name(mv.to)
        )
    }

    /// `Pa1`: the passenger's letter and its rook's square (SC-8).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        loaded(pos)
            .into_iter()
            .filter_map(|sq| Some(format!("{}{}", passenger(pos, sq)?, v.geometry.name(sq))))
            .collect()
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        for word in words {
            let mut chars = word.chars();
            let letter = chars.next().unwrap_or(' ');
            if !PASSENGERS.contains(&letter) {
                return Err(format!(
                    "`{word}` names no passenger: a loaded rook is written with its passenger's letter (P, N, B, R or Q) and the rook's square (Pa1)"
                ));
            }
            let sq = super::fen_square(v, chars.as_str())?;
            if pos.piece_at(sq).map(|p| p.kind) != rook(v) {
                return Err(format!("{word}: no rook stands there to carry a passenger"));
            }
            if passenger(pos, sq).is_some() {
                return Err(format!(
                    "{word}: the rook there carries a passenger already"
                ));
            }
            set_passenger(pos, sq, Some(letter));
        }
        Ok(())
    }

    /// The loaded rooks, ringed, and listed under the board with their passengers.
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        out.singled_out.extend(loaded(pos));
        let words = self.write_fen(v, pos);
        out.lines.push(if words.is_empty() {
            "rooks carrying a passenger: none".to_owned()
        } else {
            format!(
                "rooks carrying a passenger (marked @): {}",
                words.join(", ")
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::{parse_fen, write_fen};
    use crate::rules::san::{resolve, san};

    fn at(fen: &str) -> Position {
        parse_fen(event_chess(), fen).unwrap()
    }

    fn legal(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves.iter().map(|mv| san(v, pos, mv)).collect()
    }

    fn play(pos: &mut Position, written: &str) {
        let v = event_chess();
        let mv = resolve(v, pos, &Notation::parse(written).unwrap()).unwrap();
        v.play(pos, &mv);
    }

    fn refused(pos: &Position, written: &str) -> String {
        resolve(event_chess(), pos, &Notation::parse(written).unwrap())
            .unwrap_err()
            .reason
    }

    #[test]
    fn a_rook_loads_a_neighbour_and_fires_it_over_pieces() {
        let v = event_chess();
        let mut pos = at("4k3/8/2pnp3/3p4/8/8/3Q4/3RK3 w - - 0 1 events(46-)");
        let moves = legal(&pos);
        // SC-1: the queen next to the rook; the king is no passenger.
        assert!(moves.contains(&"R@d2".to_owned()), "{moves:?}");
        assert!(!moves.contains(&"R@e1".to_owned()), "{moves:?}");
        play(&mut pos, "R@d2");
        assert_eq!(passenger(&pos, sq("d1")), Some('Q'));
        assert_eq!(pos.piece_at(sq("d2")), None);
        assert!(write_fen(v, &pos).contains("events(46-:Qd1)"), "SC-8");
        play(&mut pos, "Ke7");
        play(&mut pos, "Rd4");
        play(&mut pos, "Kf7");
        // SC-4: d6 over d5; the cross d6, d5, d7, c6, e6 is emptied.
        play(&mut pos, "RFire@d6");
        for gone in ["d6", "d5", "c6", "e6"] {
            assert_eq!(pos.piece_at(sq(gone)), None, "{gone}");
        }
        assert_eq!(passenger(&pos, sq("d4")), None, "SC-4: spent");
        assert_eq!(
            pos.captures,
            [1, 0],
            "SC-4: the knight counts, not the pawns"
        );
    }

    #[test]
    fn a_possible_shot_is_check_but_never_one_that_hits_its_own_king() {
        let v = event_chess();
        // SC-6: a shot at e6, over the pawn on e5, would hit the king.
        let pos = at("8/8/4k3/4p3/4R3/8/8/K7 b - - 0 1 events(46-:Pe4)");
        assert!(pos.is_check(v));
        let pos = at("8/8/4k3/4p3/4R3/8/8/K7 b - - 0 1 events(46-)");
        assert!(!pos.is_check(v));
        // The white king on d6 is in the cross of e6: that shot is never fired.
        let pos = at("k7/8/3K4/8/4R3/8/8/8 w - - 0 1 events(46-:Pe4)");
        let reason = refused(&pos, "RFire@e6");
        assert!(reason.contains("SC-6"), "{reason}");
        assert!(refused(&pos, "RFire@e7").contains("SC-4"));
    }

    #[test]
    fn a_loaded_rook_moves_but_does_not_castle_and_keeps_its_right() {
        let mut pos = at("4k3/8/8/8/8/8/7P/4K2R w K - 0 1 events(46-)");
        play(&mut pos, "R@h2");
        play(&mut pos, "Kd7");
        assert!(!legal(&pos).contains(&"O-O".to_owned()), "SC-3");
        assert!(refused(&pos, "O-O").contains("SC-3"));
        play(&mut pos, "RFire@h3");
        play(&mut pos, "Ke7");
        assert!(legal(&pos).contains(&"O-O".to_owned()), "SC-3: right kept");
    }

    #[test]
    fn two_rooks_are_told_apart_and_a_drop_stays_revivals() {
        let v = event_chess();
        let pos = at("4k3/8/8/8/8/8/8/RNR1K3 w - - 0 1 events(46-)");
        assert!(refused(&pos, "R@b1").contains("ambiguous"));
        let load = resolve(v, &pos, &Notation::parse("Rc@b1").unwrap()).unwrap();
        assert_eq!(load.from, sq("c1"));
        assert_eq!(san(v, &pos, &load), "Rc@b1");
        assert_eq!(SacrificialCatapult.lan(v, &pos, &load), "Rc1@b1");
        assert!(refused(&pos, "R@e4").contains("empty"), "SC-2");
        assert!(refused(&pos, "R@e1").contains("king"), "SC-1");
    }

    #[test]
    fn taking_a_loaded_rook_takes_its_passenger() {
        let mut pos = at("3rk3/8/8/8/8/8/8/3RK3 b - - 0 1 events(46-:Nd1)");
        play(&mut pos, "Rxd1+");
        assert_eq!(pos.captures, [0, 2], "SC-7");
        assert_eq!(passenger(&pos, sq("d1")), None);
    }
}
