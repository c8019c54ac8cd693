//! Event #87 Occupying Multiple Squares (catalogue; rulings OM-1 to OM-9 in
//! `docs/rules/event-87-occupying-multiple-squares.md`): a queen, rook or bishop may end
//! a move that takes nothing half a square short of or beyond a square it could stop on,
//! and then stands on the two or four squares around that point (`Ra7.5`, `Bef3.5`,
//! `Rab1.0`). Such a piece blocks and can be taken on every square it covers, and moves
//! and attacks as if from any of them.
//!
//! The core's board holds one piece per square, so the piece stays there on one square,
//! its anchor: the lowest of the squares it covers (first the rank, then the file). The
//! event's slot holds which squares belong together, as links: `boards[0]` holds every
//! covered square whose east neighbour is the same piece, `boards[1]` every one whose
//! north neighbour is. The other covered squares (its shadows) are empty on the core's
//! board; the hooks make them real: `reach` stops every line at a shadow, keeps pieces off
//! them and gives a covering piece the reach of each of its squares; `extra_moves` adds
//! the captures onto an enemy shadow and the stops on half squares; `before_capture`
//! takes the piece from its anchor whichever square it is taken on.

use crate::notation::{Hint, MoveBody, Notation, PieceMove, Separator};
use crate::rules::board::{Bitboard, Geometry, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState, Form, Overlay, Reach};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct MultipleSquares;

const NUMBER: u16 = 87;

/// The `data` of a move that stands the piece on one square again, its anchor (OM-6).
const GATHER: u16 = 0;
/// `data` bits of a stop on a half square: the squares it covers spread east, north.
const WIDE: u16 = 1;
const TALL: u16 = 2;

static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Occupying Multiple Squares",
    aliases: &["Occupying multiple squares"],
    types: &[],
    condition: Condition::NONE,
    rulings: &[
        "OM-1", "OM-2", "OM-3", "OM-4", "OM-5", "OM-6", "OM-7", "OM-8", "OM-9",
    ],
    page: "docs/rules/event-87-occupying-multiple-squares.md",
};

/// A piece standing on more than one square: its anchor (the lowest square, where the
/// core's board holds it) and which way its squares spread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Body {
    anchor: Sq,
    wide: bool,
    tall: bool,
}

impl Body {
    /// The squares it covers; `None` where one lies off the board.
    fn squares(self, g: Geometry) -> Option<Bitboard> {
        let mut out = self.anchor.bit();
        if self.wide {
            out.set(g.offset(self.anchor, 1, 0)?);
        }
        if self.tall {
            out.set(g.offset(self.anchor, 0, 1)?);
        }
        if self.wide && self.tall {
            out.set(g.offset(self.anchor, 1, 1)?);
        }
        Some(out)
    }

    fn covered(self, g: Geometry) -> Bitboard {
        self.squares(g).unwrap_or(self.anchor.bit())
    }

    fn data(self) -> u16 {
        (u16::from(self.wide) * WIDE) | (u16::from(self.tall) * TALL)
    }

    fn of_move(mv: &Move) -> Option<Body> {
        match mv.special {
            Special::Event { number, data } if number == NUMBER && data != GATHER => Some(Body {
                anchor: mv.to,
                wide: data & WIDE != 0,
                tall: data & TALL != 0,
            }),
            _ => None,
        }
    }

    /// The point as written: `a7.5`, `ef3.5`, `ab1.0` (OM-2).
    fn point(self, g: Geometry) -> String {
        let name = g.name(self.anchor);
        let file = char::from(b'a' + g.file(self.anchor));
        let rank = &name[1..];
        let second = if self.wide {
            char::from(b'a' + g.file(self.anchor) + 1).to_string()
        } else {
            String::new()
        };
        format!("{file}{second}{rank}.{}", if self.tall { 5 } else { 0 })
    }

    /// Links it into the slot (`on`) or out of it.
    fn link(self, g: Geometry, state: &mut EventState, on: bool) {
        let squares = self.covered(g);
        for sq in squares {
            let east = g.offset(sq, 1, 0).is_some_and(|e| squares.contains(e));
            let north = g.offset(sq, 0, 1).is_some_and(|n| squares.contains(n));
            for (board, linked) in [(0, east), (1, north)] {
                if linked && on {
                    state.boards[board].set(sq);
                } else if linked {
                    state.boards[board].clear(sq);
                }
            }
        }
    }
}

fn state(pos: &Position) -> EventState {
    pos.event_state(NUMBER).copied().unwrap_or_default()
}

/// The pieces standing on more than one square, those whose anchor is in `occupied`:
/// each linked square that no link reaches from the west or the south is an anchor. A
/// piece whose other squares are not all empty in `filled` stands on one square (OM-9:
/// another event put a piece there, and the slot is mended before the next move).
fn bodies(
    g: Geometry,
    state: &EventState,
    occupied: Bitboard,
    filled: Bitboard,
) -> impl Iterator<Item = Body> {
    let [east, north] = state.boards;
    ((east | north) & occupied)
        .filter(move |&sq| {
            !g.offset(sq, -1, 0).is_some_and(|w| east.contains(w))
                && !g.offset(sq, 0, -1).is_some_and(|s| north.contains(s))
        })
        .map(move |anchor| Body {
            anchor,
            wide: east.contains(anchor),
            tall: north.contains(anchor),
        })
        .filter(move |body| (body.covered(g) & !body.anchor.bit() & filled).is_empty())
}

/// The squares covered by pieces other than on their anchor, of the bodies whose anchor
/// is in `occupied`, of `color` or of both.
fn shadows(v: &Variant, pos: &Position, occupied: Bitboard, color: Option<Color>) -> Bitboard {
    let g = v.geometry;
    let st = state(pos);
    if st.boards[0].is_empty() && st.boards[1].is_empty() {
        return Bitboard::EMPTY;
    }
    let of = color.map_or(occupied, |c| occupied & pos.by_color(c));
    bodies(g, &st, of, pos.occupied()).fold(Bitboard::EMPTY, |out, body| {
        out | (body.covered(g) & !body.anchor.bit())
    })
}

/// The body that covers `sq`, on its anchor or a shadow.
fn body_on(v: &Variant, pos: &Position, sq: Sq) -> Option<Body> {
    let g = v.geometry;
    let st = state(pos);
    bodies(g, &st, pos.occupied(), pos.occupied()).find(|body| body.covered(g).contains(sq))
}

fn remove_body(v: &Variant, pos: &mut Position, body: Body) {
    let mut st = state(pos);
    body.link(v.geometry, &mut st, false);
    pos.set_event_state(NUMBER, st);
}

/// Whether the piece's kind stops on half squares (OM-1) and along which lines: its
/// rook lines, its bishop lines.
fn half_lines(v: &Variant, kind: Kind) -> Option<(bool, bool)> {
    let letter = v.pieces[kind.index()].letter;
    match letter {
        'Q' => Some((true, true)),
        'R' => Some((true, false)),
        'B' => Some((false, true)),
        _ => None,
    }
}

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The body around the point between the adjacent squares `a` and `b` (OM-3): two
/// squares along a rank or file, four around a diagonal's corner.
fn body_between(g: Geometry, a: Sq, b: Sq) -> Option<Body> {
    let (fa, ra, fb, rb) = (g.file(a), g.rank(a), g.file(b), g.rank(b));
    let anchor = g.sq(fa.min(fb), ra.min(rb))?;
    let body = Body {
        anchor,
        wide: fa != fb,
        tall: ra != rb,
    };
    body.squares(g).map(|_| body)
}

impl MultipleSquares {
    /// Where the `piece` standing as `body` goes from its squares other than the anchor,
    /// each as if it stood there alone with its other squares empty (OM-5): on a copy of
    /// the position where it stands on that square only.
    fn reach_of_shadows(
        v: &Variant,
        pos: &Position,
        body: Body,
        piece: Piece,
        occupied: Bitboard,
    ) -> Reach {
        let g = v.geometry;
        let squares = body.covered(g);
        let mut alone = pos.clone();
        remove_body(v, &mut alone, body);
        let mut out = Reach::default();
        for sq in squares & !body.anchor.bit() {
            let mut there = alone.clone();
            there.relocate(body.anchor, sq);
            let r = v.reach(&there, sq, piece, (occupied & !squares) | sq.bit());
            out.quiet |= r.quiet;
            out.attacks |= r.attacks;
        }
        out
    }

    /// The stops on half squares of our `piece` on `from` (OM-1, OM-3, OM-4): along each
    /// of its lines from each square it covers, the points between two squares it passes
    /// (or its own square and the next), one of them a square it could stop on, with every
    /// square around the point empty (its own count as empty, OM-6). Each body once.
    fn half_stops(v: &Variant, pos: &Position, from: Sq, piece: Piece) -> Vec<Body> {
        let g = v.geometry;
        let Some((straight, diagonal)) = half_lines(v, piece.kind) else {
            return Vec::new();
        };
        let current = body_on(v, pos, from).filter(|b| b.anchor == from);
        let own = current.map_or(from.bit(), |b| b.covered(g));
        let occupied = pos.occupied();
        let blocked = (occupied | shadows(v, pos, occupied, None)) & !own;
        let stops = v.reach(pos, from, piece, occupied).quiet | own;
        let mut lines: Vec<(i32, i32)> = Vec::new();
        if straight {
            lines.extend(ORTHOGONAL);
        }
        if diagonal {
            lines.extend(DIAGONAL);
        }
        let mut out: Vec<Body> = Vec::new();
        for start in own {
            for &(df, dr) in &lines {
                let mut last = start;
                while let Some(next) = g.offset(last, df, dr)
                    && !blocked.contains(next)
                {
                    let reachable = stops.contains(next) || last != start && stops.contains(last);
                    if reachable
                        && let Some(body) = body_between(g, last, next)
                        && (body.covered(g) & blocked).is_empty()
                        && Some(body) != current
                        && !out.contains(&body)
                    {
                        out.push(body);
                    }
                    last = next;
                }
            }
        }
        out
    }

    fn event_move(piece: Piece, from: Sq, to: Sq, data: u16) -> Move {
        Move {
            piece,
            from,
            to,
            captured: None,
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

    /// `Ra7.5`, `Bef3.5`, `Rh7a7.5`: the stop of one of our pieces on that half square.
    fn resolve_half(v: &Variant, pos: &Position, written: &Notation) -> Result<Move, Rejection> {
        let MoveBody::Half(half) = &written.body else {
            return Err(san::illegal("not a half square".to_owned(), None));
        };
        let g = v.geometry;
        let text = half.to_string();
        let letter = char::from(half.piece);
        let kind = v.kind_of_letter(letter);
        let help = || san::legal_help(v, pos, &text, kind);
        let Some(kind) = kind.filter(|&k| half_lines(v, k).is_some()) else {
            return Err(san::illegal(
                format!(
                    "`{text}` stops a piece on a half square, and under event #87 Occupying Multiple Squares only queens, rooks and bishops do (OM-1)"
                ),
                help(),
            ));
        };
        let body = g.from_square(half.corner).map(|anchor| Body {
            anchor,
            wide: half.wide,
            tall: half.tall,
        });
        let Some(body) = body.filter(|b| b.squares(g).is_some()) else {
            return Err(san::illegal(
                format!(
                    "`{text}` names a half square whose squares are not all on the board, and no half square lies beyond the edge (OM-3)"
                ),
                help(),
            ));
        };
        let mut origins = pos.pieces(pos.turn, kind);
        if let Some(from) = half.from {
            origins &= g.from_square(from).map_or(Bitboard::EMPTY, Sq::bit);
        }
        let mut moves = Vec::new();
        v.legal_moves_between(pos, origins, body.anchor.bit(), &mut moves);
        moves.retain(|mv| Body::of_move(mv) == Some(body));
        match moves.as_slice() {
            [mv] => return Ok(*mv),
            [] => {}
            several => return Err(san::ambiguous(v, pos, several)),
        }
        let name = &v.pieces[kind.index()].name;
        let us = pos.turn;
        let squares: Vec<String> = body.covered(g).map(|sq| g.name(sq)).collect();
        let (straight, diagonal) = half_lines(v, kind).unwrap_or((false, false));
        let square_block = body.wide && body.tall;
        let reason = if square_block && !diagonal || !square_block && !straight {
            format!(
                "a {name} stops half a square along its own lines only: a rook between two squares of a rank or file, a bishop at the corner of four squares, so `{text}` ({}) is no {name}'s stop (OM-3)",
                san::list(&squares)
            )
        } else if origins
            .into_iter()
            .any(|from| body_on(v, pos, from) == Some(body))
        {
            format!(
                "the {us} {name} stands on {} already, and a stop on the squares it has is no move (OM-4)",
                san::list(&squares)
            )
        } else if let Some(sq) = body.covered(g).find(|&sq| {
            let filled =
                pos.piece_at(sq).is_some() || shadows(v, pos, pos.occupied(), None).contains(sq);
            filled
                && !body_on(v, pos, sq).is_some_and(|b| origins.contains(b.anchor))
                && !origins.contains(sq)
        }) {
            format!(
                "`{text}` would stand the {us} {name} on {}, and {} is not empty: every square a piece stops on around a half square must be empty, and such a stop takes nothing (OM-4)",
                san::list(&squares),
                g.name(sq)
            )
        } else {
            let mut pseudo = Vec::new();
            self::MultipleSquares.extra_moves(v, pos, origins, body.anchor.bit(), &mut pseudo);
            pseudo.retain(|mv| Body::of_move(mv) == Some(body));
            match pseudo.first() {
                Some(mv) => format!("{} (OM-5)", san::king_exposed(v, pos, mv)),
                None => format!(
                    "no {us} {name} can stop on {} ({}): a half square lies half a square short of or beyond a square the piece could stop on, along its line (OM-3)",
                    body.point(g),
                    san::list(&squares)
                ),
            }
        };
        Err(san::illegal(reason, help()))
    }
}

impl Event for MultipleSquares {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Half
    }

    /// The bodies, in the repetition key (OM-9): a rook on a7 and a8 is not one on a7.
    fn state_key(&self, state: &EventState) -> u64 {
        let fold = |b: Bitboard| (b.0 as u64) ^ ((b.0 >> 64) as u64).rotate_left(17);
        fold(state.boards[0]).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ fold(state.boards[1]).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
    }

    /// OM-9: each body as its point, `a7.5`, `ef3.5`, `ab1.0`.
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let st = state(pos);
        bodies(v.geometry, &st, pos.occupied(), pos.occupied())
            .map(|body| body.point(v.geometry))
            .collect()
    }

    /// OM-9: the points [`MultipleSquares::write_fen`] wrote, each with a queen, rook or
    /// bishop on its lowest square and its other squares empty.
    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let g = v.geometry;
        let mut st = EventState::default();
        let mut taken = Bitboard::EMPTY;
        for word in words
            .iter()
            .flat_map(|w| w.split(','))
            .filter(|w| !w.is_empty())
        {
            let half = match Notation::parse(&format!("Q{word}")).map(|n| n.body) {
                Ok(MoveBody::Half(half)) if half.from.is_none() => half,
                _ => {
                    return Err(format!(
                        "`{word}` is not a half square (`a7.5`, `ef3.5`, `ab1.0`)"
                    ));
                }
            };
            let body = g
                .from_square(half.corner)
                .map(|anchor| Body {
                    anchor,
                    wide: half.wide,
                    tall: half.tall,
                })
                .filter(|b| b.squares(g).is_some())
                .ok_or_else(|| format!("`{word}` lies off the board (OM-3)"))?;
            let squares = body.covered(g);
            let standing = pos
                .piece_at(body.anchor)
                .is_some_and(|p| half_lines(v, p.kind).is_some());
            if !standing {
                return Err(format!(
                    "`{word}`: no queen, rook or bishop stands on {}, the lowest square it covers (OM-9)",
                    g.name(body.anchor)
                ));
            }
            if (squares & !body.anchor.bit() & pos.occupied()).nonempty()
                || (squares & taken).nonempty()
            {
                return Err(format!(
                    "`{word}` covers a square that is not empty beside its lowest (OM-9)"
                ));
            }
            taken |= squares;
            body.link(g, &mut st, true);
        }
        pos.set_event_state(NUMBER, st);
        Ok(())
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// OM-4, OM-5, OM-8: lines stop at every covered square (a piece may take there but
    /// not stop or pass), and a piece on several squares reaches from each of them.
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        let st = state(pos);
        if st.boards[0].is_empty() && st.boards[1].is_empty() {
            return;
        }
        let g = v.geometry;
        let own = bodies(g, &st, occupied, pos.occupied())
            .find(|body| body.anchor == from && pos.piece_at(from) == Some(piece));
        let own_squares = own.map_or(from.bit(), |body| body.covered(g));
        let blockers = shadows(v, pos, occupied, None) & !own_squares;
        if blockers.nonempty() {
            let cut: Bitboard = (reach.quiet | reach.attacks)
                .filter(|&to| (g.between(from, to) & blockers).nonempty())
                .collect();
            reach.quiet &= !(cut | blockers);
            reach.attacks &= !cut;
        }
        if let Some(body) = own {
            let more = Self::reach_of_shadows(v, pos, body, piece, occupied);
            reach.quiet |= more.quiet & !body.anchor.bit();
            reach.attacks |= more.attacks & !own_squares;
        }
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let g = v.geometry;
        let occupied = pos.occupied();
        let own = body_on(v, pos, from).map_or(from.bit(), |b| b.covered(g));
        let blockers = shadows(v, pos, occupied, None) & !own;
        let sq = if blockers.contains(to) {
            to
        } else {
            (g.between(from, to) & blockers).first()?
        };
        let body = body_on(v, pos, sq)?;
        let what = if sq == to
            && pos
                .piece_at(body.anchor)
                .is_some_and(|p| p.color == piece.color)
        {
            "stands on it"
        } else if sq == to {
            "stands on it, which a piece may take there but not stop on quietly"
        } else {
            "stands on it, and no line passes a covered square"
        };
        Some(format!(
            "{} covers {} at {} and {what} (event #87 Occupying Multiple Squares, OM-8)",
            san::describe(v, pos, body.anchor),
            g.name(sq),
            body.point(g)
        ))
    }

    fn why_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        _piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let g = v.geometry;
        let body = body_on(v, pos, from).filter(|b| b.anchor == from)?;
        let squares: Vec<String> = body.covered(g).map(|sq| g.name(sq)).collect();
        Some(format!(
            "it stands on {} at {} and attacks {} as if from any of them (event #87 Occupying Multiple Squares, OM-5)",
            san::list(&squares),
            body.point(g),
            g.name(to)
        ))
    }

    /// OM-1, OM-3: the stops on half squares; OM-6: a piece on several squares gathers on
    /// its anchor; OM-7: any piece of ours takes an enemy piece on a square it covers.
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        let us = pos.turn;
        let occupied = pos.occupied();
        let theirs = shadows(v, pos, occupied, Some(us.other()));
        let in_parts = pos.events().iter().any(|e| e.between_parts(pos));
        for sq in pos.by_color(us) & from {
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            if theirs.nonempty() {
                let reach = v.reach(pos, sq, piece, occupied);
                for target in reach.attacks & theirs & to {
                    let victim = body_on(v, pos, target).and_then(|b| pos.piece_at(b.anchor));
                    let mv = Move {
                        piece,
                        from: sq,
                        to: target,
                        captured: victim,
                        promotion: None,
                        special: Special::Normal,
                        faces: None,
                        swap: None,
                        returned: None,
                    };
                    v.push_promotions(pos, mv, out);
                }
            }
            // OM-1: a whole move of its own, never a part of another event's turn.
            if half_lines(v, piece.kind).is_none() || in_parts {
                continue;
            }
            for body in Self::half_stops(v, pos, sq, piece) {
                if to.contains(body.anchor) {
                    out.push(Self::event_move(piece, sq, body.anchor, body.data()));
                }
            }
            if let Some(body) = body_on(v, pos, sq).filter(|b| b.anchor == sq)
                && to.contains(sq)
                && Self::reach_of_shadows(v, pos, body, piece, occupied)
                    .quiet
                    .contains(sq)
            {
                out.push(Self::event_move(piece, sq, sq, GATHER));
            }
        }
    }

    /// A stop on a half square or the gathering on the anchor (OM-3, OM-6).
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        if let Some(old) = body_on(v, pos, mv.from).filter(|b| b.anchor == mv.from) {
            remove_body(v, pos, old);
        }
        if mv.from != mv.to {
            pos.relocate(mv.from, mv.to);
        }
        if let Some(body) = Body::of_move(mv) {
            let mut st = state(pos);
            body.link(v.geometry, &mut st, true);
            pos.set_event_state(NUMBER, st);
        }
    }

    /// OM-6: a piece that moves to a whole square stands on that square only.
    fn after_landing(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let st = state(pos);
        let left = Body {
            anchor: mv.from,
            wide: st.boards[0].contains(mv.from),
            tall: st.boards[1].contains(mv.from),
        };
        if (left.wide || left.tall) && !pos.occupied().contains(mv.from) {
            remove_body(v, pos, left);
        }
    }

    /// OM-7: a piece taken on any square it covers is taken from its anchor, and stands
    /// on none of them any more.
    fn before_capture(&self, v: &Variant, pos: &mut Position, _mv: &Move, victim: Sq) -> Sq {
        match body_on(v, pos, victim) {
            Some(body) => {
                remove_body(v, pos, body);
                body.anchor
            }
            None => victim,
        }
    }

    /// OM-9: whatever another event's move does to a piece on several squares (moves it,
    /// takes it, puts a piece on a square it covers), it stands on one square after.
    fn before_turn_passes(&self, v: &Variant, pos: &mut Position, _mv: &Move) {
        let g = v.geometry;
        let st = state(pos);
        let all: Vec<Body> = bodies(g, &st, g.all(), Bitboard::EMPTY).collect();
        for body in all {
            let anchor = body.anchor;
            let squares = body.covered(g);
            let standing = pos
                .piece_at(anchor)
                .is_some_and(|p| half_lines(v, p.kind).is_some());
            if !standing || (squares & !anchor.bit() & pos.occupied()).nonempty() {
                remove_body(v, pos, body);
            }
        }
    }

    /// OM-2: castling over a covered square is not allowed (OM-8: it blocks).
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        castling_over(v, pos, mv).is_none()
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let sq = castling_over(v, pos, mv).unwrap_or(mv.to);
        format!(
            "event #87 Occupying Multiple Squares: castling would take the king or the rook over {}, which {} covers (OM-8)",
            g.name(sq),
            body_on(v, pos, sq).map_or("a piece".to_owned(), |b| san::describe(v, pos, b.anchor))
        )
    }

    /// OM-6: `Ra6` for a rook on a6 and a7 gathering on a6, its own square; OM-2: `Rab1`
    /// where no rook of the a-file goes to b1 but one may stand on a1 and b1, which is
    /// written `Rab1.0`.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        // `Ra6`, or in long notation `Ra6-a6`.
        let (target, long) = match written.targets.as_slice() {
            [target] => (target, false),
            [origin, target] if origin.square == target.square => (target, true),
            _ => return None,
        };
        if target.separator == Separator::Capture
            || target.promotion.is_some()
            || written.rider().is_some()
            || written.placed.is_some()
            || written.arrow.is_some()
        {
            return None;
        }
        let kind = v.kind_of_letter(written.letter()?)?;
        half_lines(v, kind)?;
        let g = v.geometry;
        let to = g.from_square(target.square)?;
        let us = pos.turn;
        let name = &v.pieces[kind.index()].name;
        let text = san::written(written);
        let ours = pos.piece_at(to) == Some(Piece { color: us, kind });
        if let Some(body) = body_on(v, pos, to).filter(|b| b.anchor == to && ours)
            && san::hinted_origins(v, written.hint).contains(to)
        {
            let mut moves = Vec::new();
            v.legal_moves_between(pos, to.bit(), to.bit(), &mut moves);
            moves.retain(|mv| Body::of_move(mv).is_none() && mv.special != Special::Normal);
            let squares: Vec<String> = body.covered(g).map(|sq| g.name(sq)).collect();
            return Some(match moves.first() {
                Some(mv) => Ok(*mv),
                None => Err(san::illegal(
                    format!(
                        "the {us} {name} on {} may stand on {} alone only where it could move there from one of its other squares, and here it cannot (OM-6)",
                        san::list(&squares),
                        g.name(to)
                    ),
                    san::legal_help(v, pos, &text, Some(kind)),
                )),
            });
        }
        let Some(Hint::File(file)) = written.hint.filter(|_| !long) else {
            return None;
        };
        if file + 1 != target.square.file {
            return None;
        }
        let mut moves = Vec::new();
        v.legal_moves_between(
            pos,
            pos.pieces(us, kind) & g.file_mask(file),
            to.bit(),
            &mut moves,
        );
        if moves.iter().any(|mv| mv.special == Special::Normal) {
            return None;
        }
        let body = Body {
            anchor: g.sq(file, g.rank(to))?,
            wide: true,
            tall: false,
        };
        v.legal_moves_between(pos, pos.pieces(us, kind), body.anchor.bit(), &mut moves);
        let stop = moves.iter().find(|mv| Body::of_move(mv) == Some(body))?;
        Some(Err(san::illegal(
            format!(
                "`{text}` is SAN for a {name} from the {}-file to {}, and none goes there; a {name} standing on {} and {} is written with `.0` after the rank (OM-2)",
                char::from(b'a' + file),
                g.name(to),
                g.name(body.anchor),
                g.name(to)
            ),
            Some(format!("write {}", self.san(v, pos, stop))),
        )))
    }

    fn resolve_turn(
        &self,
        v: &Variant,
        pos: &Position,
        written: &Notation,
    ) -> Option<Result<Move, Rejection>> {
        matches!(written.body, MoveBody::Half(_)).then(|| Self::resolve_half(v, pos, written))
    }

    /// `Ra7.5`, `Bef3.5`, `Rab1.0`; the origin square where another piece of the letter
    /// makes the same stop (OM-2); `Ra7` for a gathering on the anchor.
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let letter = v.pieces[mv.piece.kind.index()].letter;
        let Some(body) = Body::of_move(mv) else {
            return format!("{letter}{}", g.name(mv.to));
        };
        let mut same = Vec::new();
        v.legal_moves_between(
            pos,
            pos.pieces(pos.turn, mv.piece.kind),
            mv.to.bit(),
            &mut same,
        );
        let origin = if same
            .iter()
            .any(|other| other.from != mv.from && other.special == mv.special)
        {
            g.name(mv.from)
        } else {
            String::new()
        };
        format!("{letter}{origin}{}", body.point(g))
    }

    fn lan(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let letter = v.pieces[mv.piece.kind.index()].letter;
        let to = Body::of_move(mv).map_or_else(|| g.name(mv.to), |body| body.point(g));
        format!("{letter}{}-{to}", g.name(mv.from))
    }

    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let g = v.geometry;
        let st = state(pos);
        for body in bodies(g, &st, pos.occupied(), pos.occupied()) {
            let squares: Vec<String> = body.covered(g).map(|sq| g.name(sq)).collect();
            out.lines.push(format!(
                "{} stands on {} ({})",
                san::describe(v, pos, body.anchor),
                body.point(g),
                squares.join(", ")
            ));
        }
    }
}

/// The first covered square a castling's king or rook passes over or lands on (OM-8).
fn castling_over(v: &Variant, pos: &Position, mv: &Move) -> Option<Sq> {
    let Special::Castle { rook_from, rook_to } = mv.special else {
        return None;
    };
    let g = v.geometry;
    let path =
        g.between(mv.from, mv.to) | mv.to.bit() | g.between(rook_from, rook_to) | rook_to.bit();
    (path & shadows(v, pos, pos.occupied(), None)).first()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, write_fen};

    fn started(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        if !pos.has_events() {
            pos.start_event(&MultipleSquares, Some(pos.turn)).unwrap();
        }
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    fn play(pos: &mut Position, token: &str) -> Move {
        let mv = resolve(pos, token).unwrap_or_else(|r| panic!("{token}: {}", r.reason));
        event_chess().play(pos, &mv);
        mv
    }

    fn legal_sans(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves.iter().map(|mv| san::san_plain(v, pos, mv)).collect()
    }

    #[test]
    fn a_rook_stops_between_two_squares_of_its_line_and_stands_on_both() {
        let v = event_chess();
        let mut pos = started("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        // OM-3: half a square short of a5 or beyond a4; OM-2: written `Ra4.5`.
        let mv = play(&mut pos, "Ra4.5");
        assert_eq!(
            san::san_plain(v, &started("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), &mv),
            "Ra4.5"
        );
        assert_eq!(
            pos.piece_at(sq("a4")).map(|p| p.kind),
            v.kind_of_letter('R')
        );
        assert!(
            pos.piece_at(sq("a5")).is_none(),
            "the core holds it on its anchor"
        );
        let fen = write_fen(v, &pos);
        assert!(fen.ends_with("events(87w:a4.5)"), "{fen}");
        // OM-9: the FEN reads back.
        assert_eq!(write_fen(v, &parse_fen(v, &fen).unwrap()), fen);
        // OM-2: two squares of a rank are `Rab1.0`; `Rab1` stays SAN's rook from a1.
        let rank = started("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert_eq!(
            resolve(&rank, "Rab1.0").map(|m| m.special),
            Ok(Special::Event {
                number: NUMBER,
                data: WIDE
            })
        );
        assert_eq!(
            resolve(&rank, "Rab1").map(|m| m.special),
            Ok(Special::Normal)
        );
        // The rook on b2 is pinned, but standing on b2 and c2 it still shields its king.
        let pinned = started("4k3/8/8/8/3K4/8/1R6/b7 w - - 0 1");
        let refused = resolve(&pinned, "Rbc2").unwrap_err();
        assert!(refused.reason.contains("OM-2"), "{}", refused.reason);
        assert_eq!(refused.help.as_deref(), Some("write Rbc2.0"));
        // OM-3: a rook never stands on four squares, a bishop never on two.
        let refused = resolve(&rank, "Rab1.5").unwrap_err();
        assert!(refused.reason.contains("OM-3"), "{}", refused.reason);
        let bishop = started("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        assert!(resolve(&bishop, "Bef3.5").is_ok());
        assert!(
            resolve(&bishop, "Bcd1.5").is_ok(),
            "half a square off its own square"
        );
        assert!(resolve(&bishop, "Bd2.5").is_err());
    }

    #[test]
    fn a_piece_on_two_squares_moves_and_attacks_from_either() {
        let v = event_chess();
        // OM-5: the rook on a7 and a8 checks along the eighth rank from a8 and holds the
        // seventh from a7: one rook mates.
        let mut pos = started("7k/8/8/8/8/8/8/R3K3 w - - 0 1");
        play(&mut pos, "Ra7.5");
        assert!(pos.is_check(v));
        assert!(legal_sans(&pos).is_empty());
        let mut pos = started("7k/8/8/8/8/8/8/R3K3 w - - 0 1");
        play(&mut pos, "Ra6.5");
        assert_eq!(legal_sans(&pos), ["Kg8"]);
        play(&mut pos, "Kg8");
        // OM-6: it moves from either square, to one square again (its own other square
        // too), on to another half square, or gathers on its anchor.
        for token in ["Rg6", "Rb7", "Ra8", "Ra7", "Ra6", "Ra5.5", "Rab7.0"] {
            assert!(resolve(&pos, token).is_ok(), "{token}");
        }
        let mut gathered = pos.clone();
        play(&mut gathered, "Ra8+");
        assert!(
            write_fen(v, &gathered).ends_with("events(87w)"),
            "{}",
            write_fen(v, &gathered)
        );
    }

    #[test]
    fn covered_squares_block_and_are_taken_on_any_of_them() {
        let v = event_chess();
        // A black rook on d3 and e3.
        let pos = started("4k3/8/8/8/8/3r4/3PP3/4K2R w K - 0 1 events(87b:de3.0)");
        // OM-8: the e-pawn neither steps onto e3 nor passes it.
        assert!(resolve(&pos, "e3").is_err());
        let refused = resolve(&pos, "e4").unwrap_err();
        assert!(refused.reason.contains("OM-8"), "{}", refused.reason);
        // OM-7: the d-pawn takes the rook on e3, landing there.
        let mut taken = pos.clone();
        let mv = play(&mut taken, "dxe3");
        assert_eq!(mv.to, sq("e3"));
        assert!(
            taken.piece_at(sq("d3")).is_none(),
            "the rook left both squares"
        );
        assert!(
            write_fen(v, &taken).contains("events(87b;"),
            "{}",
            write_fen(v, &taken)
        );
        // A rook on h3 is stopped at e3 (where it may take) and cannot pass it.
        let line = started("4k3/8/8/8/8/3r3R/8/6K1 w - - 0 1 events(87b:de3.0)");
        assert!(resolve(&line, "Rxe3").is_ok());
        assert!(resolve(&line, "Rf3").is_ok());
        assert!(resolve(&line, "Rxd3").is_err());
    }

    #[test]
    fn castling_does_not_pass_a_covered_square() {
        // Black's own bishop on f7, g7, f8 and g8.
        let pos = started("r3k2r/5b2/8/8/8/8/8/4K3 b kq - 0 1 events(87b:fg7.5)");
        let refused = resolve(&pos, "O-O").unwrap_err();
        assert!(refused.reason.contains("OM-8"), "{}", refused.reason);
        assert!(resolve(&pos, "O-O-O").is_ok());
    }
}
