//! Moves as the rules see them (what a move does, not how it was written), their
//! generation, legality, and playing them on a position.

use super::board::{Bitboard, Direction, Geometry, MAX_SQUARES, Sq};
use super::event::Reach;
use super::meta;
use super::piece::{Color, Kind, Piece, Role};
use super::position::Position;
use super::variant::{Castling, Variant};
use super::variant::{NO_LINE, SEVERAL_LINES};

/// What kind of move beyond "a piece goes from one square to another".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    Normal,
    /// A pawn's two-square step: sets the en-passant square.
    DoubleStep,
    /// A pawn captures the pawn that just double-stepped past `to`.
    EnPassant,
    /// The king goes from `from` to `to` and this rook from `rook_from` to `rook_to`.
    Castle {
        rook_from: Sq,
        rook_to: Sq,
    },
    /// Through a pass (Secret Invisible Pass, SIP-3) or a hidden passage (#5, HP-2): the
    /// piece ends its move on `hole` (capturing there in a passage) and goes on to the
    /// other end, `to`; a piece standing on a pass's hole transfers (then `hole` is
    /// `from`).
    Pass {
        hole: Sq,
    },
    /// A move an event added (a push, a turn, a promotion in place); the running event
    /// with this number plays it, reading `data` as it defined it.
    Event {
        number: u16,
        data: u16,
    },
}

/// A move in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub piece: Piece,
    pub from: Sq,
    /// Where the moving piece ends (for castling, the king's square).
    pub to: Sq,
    pub captured: Option<Piece>,
    pub promotion: Option<Kind>,
    pub special: Special,
    /// The direction a knight faces after the move, where #85 Loyal Knights has it
    /// change (LK-8); `None` keeps its direction.
    pub faces: Option<Direction>,
    /// The knight that swaps in to be captured instead, where the capturer chooses among
    /// several (LK-4).
    pub swap: Option<Sq>,
    /// A starting square on which a piece of the mover's that the variant's start
    /// position has there comes back after the move, where an event has the opponent
    /// choose one (#1: a check calls an ally back, CA-1).
    pub returned: Option<Sq>,
}

impl Move {
    pub fn is_capture(&self) -> bool {
        self.captured.is_some()
    }

    /// The square of the piece a move through a passage takes as it enters (HP-3): the
    /// entry's own piece, or the pawn an en-passant capture onto the entry takes, which
    /// leaves its own square (HP-9); `None` for any other move.
    pub fn entry_capture_square(&self, v: &Variant, pos: &Position) -> Option<Sq> {
        let Special::Pass { hole } = self.special else {
            return None;
        };
        if hole == self.from {
            return None;
        }
        if pos.piece_at(hole).is_some() {
            return Some(hole);
        }
        // A pawn moves aslant onto an empty square only en passant.
        let g = v.geometry;
        let aslant = v.role(self.piece.kind) == Role::Pawn && g.file(hole) != g.file(self.from);
        aslant
            .then(|| g.offset(hole, 0, -self.piece.color.forward()))
            .flatten()
    }

    /// The square the captured piece stood on (differs from `to` en passant).
    pub fn capture_square(&self, v: &Variant) -> Sq {
        match self.special {
            Special::EnPassant => v
                .geometry
                .offset(self.to, 0, -self.piece.color.forward())
                .expect("en passant captures a pawn on the board"),
            _ => self.to,
        }
    }
}

/// One castling move's geometry (see [`Variant::castling_path`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastlingPath {
    /// Written `O-O-O`.
    pub long: bool,
    pub king_to: Sq,
    pub rook_to: Sq,
    /// Squares that must be empty but for the castling king and rook.
    pub must_be_empty: Bitboard,
    /// Squares the king crosses or lands on (not its start), none of them attacked.
    pub king_passes: Bitboard,
}

impl CastlingPath {
    /// Castling by `color` with king and rook on `king` and `rook` (both on its castling
    /// rank); `None` for targets off the board.
    pub(crate) fn new(
        g: Geometry,
        castling: &Castling,
        color: Color,
        king: Sq,
        rook: Sq,
    ) -> Option<CastlingPath> {
        let rank = castling.rank[color.index()];
        let side = usize::from(g.file(rook) > g.file(king));
        let wing = castling.wings[color.index()][side];
        let king_to = g.sq(wing.king_to, rank)?;
        let rook_to = g.sq(wing.rook_to, rank)?;
        let king_passes = g.between(king, king_to) | king_to.bit();
        Some(CastlingPath {
            long: wing.long,
            king_to,
            rook_to,
            must_be_empty: king_passes | g.between(rook, rook_to) | rook_to.bit(),
            king_passes,
        })
    }
}

/// Facts about the side to move's king that decide most moves' legality at once.
struct KingSafety {
    in_check: bool,
    /// The king, when the side has exactly one and no event runs (else every move is
    /// played out).
    king: Option<Sq>,
    /// Our pieces that stand between our king and an enemy rider on its line, when
    /// worked out for all pieces at once (worth it for many moves, not for one).
    pinned: Option<Bitboard>,
    /// In check, where a move other than the king's must end: on the one checker or
    /// between it and the king (empty in double check).
    evasions: Bitboard,
}

impl Variant {
    fn king_safety(&self, pos: &Position, all_pins: bool) -> KingSafety {
        let us = pos.turn;
        let kings = pos.checkable_kings(self, us);
        let king = if kings.has_more_than_one() || pos.has_events() {
            None
        } else {
            kings.first()
        };
        let Some(king) = king else {
            return KingSafety {
                in_check: pos.is_check(self),
                king: None,
                pinned: None,
                evasions: Bitboard::EMPTY,
            };
        };
        let in_check = pos
            .known_check()
            .unwrap_or_else(|| pos.is_attacked(self, king, us.other()));
        let evasions = if in_check {
            self.evasions(pos, king)
        } else {
            Bitboard::EMPTY
        };
        let pinned = all_pins.then(|| {
            let mut pinned = Bitboard::EMPTY;
            for (kinds, directions) in &self.tables.direction_groups {
                let riders = pos.kinds_in(*kinds) & pos.by_color(us.other());
                if riders.is_empty() {
                    continue;
                }
                for &d in directions {
                    if let Some(blocker) = self.pinned_on(pos, king, d, riders) {
                        pinned.set(blocker);
                    }
                }
            }
            pinned
        });
        KingSafety {
            in_check,
            king: Some(king),
            pinned,
            evasions,
        }
    }

    /// The squares that answer a single check by capture or interposition.
    fn evasions(&self, pos: &Position, king: Sq) -> Bitboard {
        let occupied = pos.occupied();
        let checkers = pos.attackers(self, king, pos.turn.other(), occupied);
        let Some(checker) = checkers.first().filter(|_| !checkers.has_more_than_one()) else {
            return Bitboard::EMPTY;
        };
        let t = &self.tables;
        let kind = pos.piece_at(checker).expect("a checker").kind;
        let between = t.rides[kind.index()]
            .iter()
            .map(|&d| self.ray_attacks(d, king, occupied))
            .find(|reach| reach.contains(checker))
            .unwrap_or(Bitboard::EMPTY);
        between | checker.bit()
    }

    /// The piece of ours pinned to `king` along direction `d` by one of `riders`.
    fn pinned_on(&self, pos: &Position, king: Sq, d: usize, riders: Bitboard) -> Option<Sq> {
        if (self.tables.ray(d, king) & riders).is_empty() {
            return None;
        }
        let occupied = pos.occupied();
        let blocker = (self.ray_attacks(d, king, occupied) & occupied).first()?;
        if !pos.by_color(pos.turn).contains(blocker) {
            return None;
        }
        (self.ray_attacks(d, blocker, occupied) & riders)
            .nonempty()
            .then_some(blocker)
    }

    /// Inlined: asked for nearly every move, and mostly answered by two look-ups.
    #[inline]
    fn is_pinned(&self, pos: &Position, safety: &KingSafety, king: Sq, from: Sq) -> bool {
        if let Some(pinned) = safety.pinned {
            return pinned.contains(from);
        }
        let t = &self.tables;
        match t.line_direction[king.index() * MAX_SQUARES + from.index()] {
            NO_LINE => false,
            SEVERAL_LINES => self.is_pinned_on_any_line(pos, king, from),
            d => {
                let d = usize::from(d);
                // Pinned only by an enemy rider beyond `from`: most pieces on a line
                // with their king have none there, which two look-ups tell.
                let beyond = t.ray(d, from) & pos.by_color(pos.turn.other());
                beyond.nonempty() && self.is_pinned_along(pos, king, from, d, beyond)
            }
        }
    }

    fn is_pinned_along(
        &self,
        pos: &Position,
        king: Sq,
        from: Sq,
        d: usize,
        beyond: Bitboard,
    ) -> bool {
        let riders = pos.kinds_in(self.tables.riders_by_direction[d]) & beyond;
        riders.nonempty() && self.pinned_on(pos, king, d, riders) == Some(from)
    }

    /// [`Variant::is_pinned`] where several of the variant's lines join king and piece.
    fn is_pinned_on_any_line(&self, pos: &Position, king: Sq, from: Sq) -> bool {
        let t = &self.tables;
        t.direction_groups.iter().any(|(kinds, directions)| {
            directions.iter().any(|&d| {
                t.ray(d, king).contains(from) && {
                    let riders = pos.kinds_in(*kinds) & pos.by_color(pos.turn.other());
                    self.pinned_on(pos, king, d, riders) == Some(from)
                }
            })
        })
    }

    /// Adds the moves of the side to move that start in `from` and end in `to`,
    /// ignoring whether they leave the king attacked.
    pub fn pseudo_moves(&self, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
        let start = out.len();
        let us = pos.turn;
        let t = &self.tables;
        if let Some(target) = to.first()
            && !to.has_more_than_one()
        {
            self.moves_to(pos, from, target, out);
        } else {
            self.moves_from(pos, from, to, out);
        }
        if let Some(king) = t.king
            && (pos.pieces(us, king) & from).nonempty()
        {
            self.castling_moves(pos, to, None, out);
        }
        if t.holes.nonempty() {
            self.pass_moves(pos, from, to, out);
        }
        if pos.has_events() {
            let extra_start = out.len();
            for event in pos.events() {
                event.extra_moves(self, pos, from, to, out);
            }
            // Hold every event to the asked squares, whatever it added.
            let extra = out.split_off(extra_start);
            out.extend(
                extra
                    .into_iter()
                    .filter(|mv| from.contains(mv.from) && to.contains(mv.to)),
            );
            for event in pos.events() {
                event.reroute(self, pos, from, to, out, start);
            }
            for event in pos.events() {
                event.attach_choices(self, pos, out, start);
            }
            for event in pos.events() {
                event.attach_outcomes(self, pos, out, start);
            }
        }
    }

    /// Moves through a pass to its empty far end in `to` (SIP-3): every move of ours that
    /// could end on the empty hole goes on, and a piece standing on a hole transfers.
    /// Nothing is captured on either end, so a pass never captures (nor checks).
    fn pass_moves(&self, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
        let occupied = pos.occupied();
        for hole in self.tables.holes {
            let Some(end) = self.pass_end(hole) else {
                continue;
            };
            if !to.contains(end) || occupied.contains(end) {
                continue;
            }
            match pos.piece_at(hole) {
                Some(piece) if piece.color == pos.turn && from.contains(hole) => {
                    let transfer = Move {
                        piece,
                        from: hole,
                        to: end,
                        captured: None,
                        promotion: None,
                        special: Special::Pass { hole },
                        faces: None,
                        swap: None,
                        returned: None,
                    };
                    self.push_promotions(pos, transfer, out);
                }
                Some(_) => {}
                None => {
                    // The moves onto the hole, turned in place into moves through it.
                    let start = out.len();
                    self.moves_to(pos, from, hole, out);
                    let mut kept = start;
                    for read in start..out.len() {
                        let mv = out[read];
                        if mv.captured.is_none()
                            && matches!(mv.special, Special::Normal | Special::DoubleStep)
                        {
                            out[kept] = Move {
                                to: end,
                                special: Special::Pass { hole },
                                ..mv
                            };
                            kept += 1;
                        }
                    }
                    out.truncate(kept);
                    // A pawn whose promotion rank the far end is (not the hole) promotes
                    // there; rare, so it is taken out and added back with its promotions.
                    for i in (start..kept).rev() {
                        let mv = out[i];
                        if mv.promotion.is_none() && self.role(mv.piece.kind) == Role::Pawn {
                            out.remove(i);
                            self.push_promotions(pos, mv, out);
                        }
                    }
                }
            }
        }
    }

    /// Adds `mv`, or for a pawn landing where it promotes, its promotions (and `mv`
    /// itself where promoting is optional).
    pub(crate) fn push_promotions(&self, pos: &Position, mv: Move, out: &mut Vec<Move>) {
        let t = &self.tables;
        let us = mv.piece.color;
        let lands = mv.to;
        let is_pawn = self.role(mv.piece.kind) == Role::Pawn;
        let must = is_pawn && t.promotion_squares[us.index()].contains(lands);
        let may = is_pawn && t.optional_promotion_squares[us.index()].contains(lands);
        if !must {
            out.push(mv);
        }
        if must || may {
            for &kind in &self.pawn.promotes_to {
                if self.may_promote_to(pos, us, kind) {
                    out.push(Move {
                        promotion: Some(kind),
                        ..mv
                    });
                }
            }
        }
    }

    /// Where the `piece` on `from` goes with `occupied` in the way, as the variant's rules
    /// and then each running event that changes reaches
    /// ([`Event::reach`](super::event::Event::reach)) have it.
    pub fn reach(&self, pos: &Position, from: Sq, piece: Piece, occupied: Bitboard) -> Reach {
        let t = &self.tables;
        let mut reach = if self.role(piece.kind) == Role::Pawn {
            let color = piece.color;
            let mut quiet = Bitboard::EMPTY;
            if let Some(step) = t.pawn_step(color, from) {
                quiet.set(step);
                if let Some(double) = t.pawn_step(color, step) {
                    quiet.set(double);
                }
            }
            Reach {
                quiet,
                attacks: t.pawn_attacks[color.index()][from.index()],
            }
        } else {
            let attacks = self.attacks(piece.kind, piece.color, from, occupied);
            Reach {
                quiet: attacks & !occupied,
                attacks,
            }
        };
        for event in pos.events() {
            if event.changes_reach() {
                event.reach(self, pos, from, piece, occupied, &mut reach);
            }
        }
        reach
    }

    /// [`Variant::moves_from`] while an event changes where pieces go: each piece's
    /// moves from its [`Variant::reach`], a pawn's as the core makes them and then held
    /// to its reach.
    fn moves_by_reach(&self, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
        let us = pos.turn;
        let ours = pos.by_color(us);
        let theirs = pos.by_color(us.other());
        let occupied = pos.occupied();
        for sq in ours & from {
            let piece = pos.piece_at(sq).expect("our piece");
            let reach = self.reach(pos, sq, piece, occupied);
            if self.role(piece.kind) == Role::Pawn {
                let start = out.len();
                self.pawn_moves(pos, piece, sq, to, out);
                let mut kept = start;
                for read in start..out.len() {
                    let mv = out[read];
                    let allowed = if mv.captured.is_some() {
                        reach.attacks
                    } else {
                        reach.quiet
                    };
                    if allowed.contains(mv.to) {
                        out[kept] = mv;
                        kept += 1;
                    }
                }
                out.truncate(kept);
                continue;
            }
            let targets = ((reach.quiet & !occupied) | (reach.attacks & theirs)) & to;
            for target in targets {
                out.push(Move {
                    piece,
                    from: sq,
                    to: target,
                    captured: pos.piece_at(target),
                    promotion: None,
                    special: Special::Normal,
                    faces: None,
                    swap: None,
                    returned: None,
                });
            }
        }
    }

    /// The moves of our pieces on `from` to squares in `to`, square by square.
    fn moves_from(&self, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
        if pos.reach_changed() {
            return self.moves_by_reach(pos, from, to, out);
        }
        let us = pos.turn;
        let ours = pos.by_color(us);
        let occupied = pos.occupied();
        for sq in ours & from {
            let piece = pos.piece_at(sq).expect("our piece");
            match self.role(piece.kind) {
                Role::Pawn => self.pawn_moves(pos, piece, sq, to, out),
                _ => {
                    let targets = self.attacks(piece.kind, us, sq, occupied) & !ours & to;
                    for target in targets {
                        out.push(Move {
                            piece,
                            from: sq,
                            to: target,
                            captured: pos.piece_at(target),
                            promotion: None,
                            special: Special::Normal,
                            faces: None,
                            swap: None,
                            returned: None,
                        });
                    }
                }
            }
        }
    }

    /// The squares in `among` that a piece of `kind` on `sq` attacks (not for pawns):
    /// [`Variant::attacks`] that skips every ray with nothing of `among` on it.
    fn attacks_among(&self, kind: Kind, sq: Sq, occupied: Bitboard, among: Bitboard) -> Bitboard {
        let t = &self.tables;
        let mut out = t.leaps[kind.index()][sq.index()] & among;
        for &d in &t.rides[kind.index()] {
            if (t.ray(d, sq) & among).nonempty() {
                out |= self.ray_attacks(d, sq, occupied) & among;
            }
        }
        out
    }

    /// Whether a piece of `kind` (not a pawn) on `from` attacks `to`: one leap-table
    /// look-up and at most one ray, found from the direction table. Inlined: every
    /// written move and every check test asks it.
    #[inline]
    fn reaches(&self, kind: Kind, from: Sq, to: Sq, occupied: Bitboard) -> bool {
        let t = &self.tables;
        if t.leaps[kind.index()][from.index()].contains(to) {
            return true;
        }
        match t.line_direction[from.index() * MAX_SQUARES + to.index()] {
            NO_LINE => false,
            SEVERAL_LINES => self
                .attacks_among(kind, from, occupied, to.bit())
                .nonempty(),
            d => {
                let d = usize::from(d);
                // Nothing may stand strictly between: the ray from `from` up to `to`
                // (its ray less `to`'s), without `to` itself. No bit scan needed.
                t.rides_mask[kind.index()] >> d & 1 != 0
                    && ((t.ray(d, from) ^ t.ray(d, to)) & occupied & !to.bit()).is_empty()
            }
        }
    }

    /// The moves of our pieces on `from` to the one square `target`: what a written
    /// move asks for. Movement atoms are symmetric, so a piece reaches `target` when its
    /// kind attacks the piece's square from `target`, which looks along one line only.
    pub(crate) fn moves_to(&self, pos: &Position, from: Bitboard, target: Sq, out: &mut Vec<Move>) {
        if pos.reach_changed() {
            return self.moves_by_reach(pos, from, target.bit(), out);
        }
        let us = pos.turn;
        let ours = pos.by_color(us);
        let occupied = pos.occupied();
        let captured = pos.piece_at(target);
        for sq in ours & from {
            let piece = pos.piece_at(sq).expect("our piece");
            if self.role(piece.kind) == Role::Pawn {
                self.pawn_moves(pos, piece, sq, target.bit(), out);
            } else if !ours.contains(target) && self.reaches(piece.kind, sq, target, occupied) {
                out.push(Move {
                    piece,
                    from: sq,
                    to: target,
                    captured,
                    promotion: None,
                    special: Special::Normal,
                    faces: None,
                    swap: None,
                    returned: None,
                });
            }
        }
    }

    fn pawn_moves(&self, pos: &Position, piece: Piece, sq: Sq, to: Bitboard, out: &mut Vec<Move>) {
        let g = self.geometry;
        let us = piece.color;
        let t = &self.tables;
        let occupied = pos.occupied();
        let promotes = t.promotion_squares[us.index()] | t.optional_promotion_squares[us.index()];
        let mut add = |target: Sq, captured: Option<Piece>, special: Special| {
            if to.contains(target) {
                let mv = Move {
                    piece,
                    from: sq,
                    to: target,
                    captured,
                    promotion: None,
                    special,
                    faces: None,
                    swap: None,
                    returned: None,
                };
                if promotes.contains(target) {
                    self.push_promotions(pos, mv, out);
                } else {
                    out.push(mv);
                }
            }
        };
        if let Some(step) = t.pawn_step(us, sq)
            && !occupied.contains(step)
        {
            add(step, None, Special::Normal);
            let may_double = t.double_step_squares[us.index()].contains(sq)
                || pos.has_events()
                    && pos
                        .events()
                        .iter()
                        .any(|e| e.may_double_step(self, pos, sq, us));
            if may_double
                && let Some(double) = t.pawn_step(us, step)
                && !occupied.contains(double)
            {
                add(double, None, Special::DoubleStep);
            }
        }
        let captures = t.pawn_attacks[us.index()][sq.index()];
        for target in captures & pos.by_color(us.other()) {
            add(target, pos.piece_at(target), Special::Normal);
        }
        if let Some(ep) = pos.ep
            && captures.contains(ep)
            && !occupied.contains(ep)
            && let Some(victim) = g.offset(ep, 0, -us.forward())
            && let Some(captured) = pos.piece_at(victim)
            && captured.color != us
            && self.role(captured.kind) == Role::Pawn
        {
            add(ep, Some(captured), Special::EnPassant);
        }
    }

    /// The king of `color` that may castle: on its castling rank and, outside Chess960,
    /// on its own file.
    pub(crate) fn castling_king(&self, pos: &Position, color: Color) -> Option<Sq> {
        let castling = self.castling?;
        let g = self.geometry;
        let back = g.rank_mask(castling.rank[color.index()]);
        let king = (pos.kings(self, color) & back).first()?;
        (self.chess960 || g.file(king) == castling.king_from[color.index()]).then_some(king)
    }

    /// Where castling with the rook on `rook` takes king and rook, and which squares it
    /// needs; `None` for targets off the board. King and rook stand on `color`'s
    /// castling rank.
    pub(crate) fn castling_path(&self, color: Color, king: Sq, rook: Sq) -> Option<CastlingPath> {
        let g = self.geometry;
        let width = usize::from(g.width);
        let index =
            (color.index() * width + usize::from(g.file(king))) * width + usize::from(g.file(rook));
        self.tables.castling_paths.get(index).copied().flatten()
    }

    /// Adds the castling moves of the side to move whose king lands in `to`, only those
    /// written `O-O-O` (`Some(true)`) or `O-O` (`Some(false)`) if `long` says so.
    fn castling_moves(
        &self,
        pos: &Position,
        to: Bitboard,
        long: Option<bool>,
        out: &mut Vec<Move>,
    ) {
        let Some(castling) = self.castling else {
            return;
        };
        let us = pos.turn;
        let back = self.geometry.rank_mask(castling.rank[us.index()]);
        let Some(king) = self.castling_king(pos, us) else {
            return;
        };
        let piece = pos.piece_at(king).expect("king");
        let occupied = pos.occupied();
        let has_events = pos.has_events();
        let known_check = pos
            .known_check()
            .filter(|_| !pos.kings(self, us).has_more_than_one());
        for rook in pos.castling & pos.by_color(us) & back {
            let Some(path) = self.castling_path(us, king, rook) else {
                continue;
            };
            if !to.contains(path.king_to) || long.is_some_and(|long| long != path.long) {
                continue;
            }
            let others = occupied ^ king.bit() ^ rook.bit();
            if (path.must_be_empty & others).nonempty() {
                continue;
            }
            // With events running, the landing square is judged by playing the move (a
            // knight may face the king there, LK-5), and a square counts only where the
            // king could be checked standing on it (PR-1, LK-5) and is attacked with the
            // king standing on it (TI-4: an enemy king attacks no king).
            let tested = if has_events {
                (path.king_passes & !path.king_to.bit()) | king.bit()
            } else {
                // Whether the side to move is in check is nearly always known, and with
                // one king it is whether this king is attacked.
                match known_check {
                    Some(true) => return,
                    Some(false) => path.king_passes,
                    None => path.king_passes | king.bit(),
                }
            };
            if tested.into_iter().any(|sq| {
                pos.is_attacked_through(self, sq, us.other(), others)
                    && (!has_events || self.checked_on(pos, king, sq, others))
            }) {
                continue;
            }
            out.push(Move {
                piece,
                from: king,
                to: path.king_to,
                captured: None,
                promotion: None,
                special: Special::Castle {
                    rook_from: rook,
                    rook_to: path.rook_to,
                },
                faces: None,
                swap: None,
                returned: None,
            });
        }
    }

    /// Whether the king on `king` would be in check standing on the empty `sq` (or its
    /// own square), as running events judge it, with `others` in the way: it can be
    /// checked there and an enemy piece attacks it there.
    fn checked_on(&self, pos: &Position, king: Sq, sq: Sq, others: Bitboard) -> bool {
        let checkable = pos.checkable_kings(self, pos.turn).contains(king);
        if sq == king {
            return checkable
                && pos.is_attacked_through(self, sq, pos.turn.other(), others | sq.bit());
        }
        if pos.piece_at(sq).is_some() {
            return checkable;
        }
        let mut there = pos.clone();
        there.relocate(king, sq);
        there.checkable_kings(self, pos.turn).contains(sq)
            && there.is_attacked_through(self, sq, pos.turn.other(), others | sq.bit())
    }

    /// Keeps the moves that do not leave the mover's king attacked.
    fn retain_legal(&self, pos: &Position, moves: &mut Vec<Move>) {
        if moves.is_empty() {
            return;
        }
        let safety = self.king_safety(pos, moves.len() > 2);
        moves.retain(|mv| self.is_legal_with(pos, mv, &safety));
        if self.events && meta::capture_limited(self, pos) {
            moves.retain(|mv| !meta::breaks_capture_limit(self, pos, mv));
        }
    }

    /// Inlined: the one legality question of nearly every written move.
    #[inline]
    fn is_legal_with(&self, pos: &Position, mv: &Move, safety: &KingSafety) -> bool {
        let Some(king) = safety.king else {
            return !self.leaves_king_attacked(pos, mv)
                && pos.events().iter().all(|e| e.allows(self, pos, mv));
        };
        match mv.special {
            Special::Normal | Special::DoubleStep => {}
            // Only `castling_moves` makes these, and only with the king's square, path
            // and landing unattacked with king and rook lifted off; castled, they only
            // block more, and with one king and no event no other king can be attacked.
            Special::Castle { .. } => return true,
            _ => return !self.leaves_king_attacked(pos, mv),
        }
        if safety.in_check && mv.from != king && !safety.evasions.contains(mv.to) {
            return false;
        }
        if mv.from == king {
            // The king steps: is its new square attacked once it has left the old one?
            let occupied = pos.occupied() ^ king.bit();
            return !pos.is_attacked_through(self, mv.to, mv.piece.color.other(), occupied);
        }
        !self.is_pinned(pos, safety, king, mv.from) || !self.leaves_king_attacked(pos, mv)
    }

    /// Plays `mv` on a copy and looks at the mover's kings. A move that wins the game
    /// outright (capturing the last king, PR-2) is not held back by them.
    pub fn leaves_king_attacked(&self, pos: &Position, mv: &Move) -> bool {
        let mut after = pos.clone();
        self.play(&mut after, mv);
        let us = mv.piece.color;
        if after.has_events() && self.winner(&after) == Some(us) {
            return false;
        }
        after
            .checkable_kings(self, us)
            .into_iter()
            .any(|king| after.is_attacked(self, king, us.other()))
    }

    /// The legal moves from `from` to `to`.
    pub fn legal_moves_between(
        &self,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        out.clear();
        if pos.has_events() && self.winner(pos).is_some() {
            return;
        }
        self.pseudo_moves(pos, from, to, out);
        self.retain_legal(pos, out);
    }

    /// The first legal castle of the side to move written `O-O-O` (`long`) or `O-O` with
    /// the king landing in `to`, the one [`Variant::legal_moves_between`] lists first.
    /// Only without events: then nothing but [`Variant::castling_moves`] makes castles,
    /// so the king's other moves need not be generated.
    pub(crate) fn legal_castle(&self, pos: &Position, to: Bitboard, long: bool) -> Option<Move> {
        debug_assert!(!pos.has_events());
        let mut moves = Vec::new();
        self.castling_moves(pos, to, Some(long), &mut moves);
        // With one king and no event a castle that `castling_moves` makes is legal (see
        // `is_legal_with`): no king safety to work out.
        if pos.kings(self, pos.turn).has_more_than_one() {
            self.retain_legal(pos, &mut moves);
        }
        moves.first().copied()
    }

    /// The player who has won by a running event's rules (PR-2), the game being over.
    pub fn winner(&self, pos: &Position) -> Option<Color> {
        pos.events().iter().find_map(|e| e.winner(self, pos))
    }

    /// The one legal move without promotion of our pieces on `from` to `to`, found
    /// without listing candidates: what nearly every written move asks. Answers only
    /// where the case is plain (no event nor EC-2 limit, one king, not in check, no
    /// castling, en passant or promotion to consider); `None` there or when not exactly
    /// one move fits leaves the question to [`Variant::legal_moves_between`].
    #[inline]
    pub(crate) fn sole_plain_move_to(
        &self,
        pos: &Position,
        from: Bitboard,
        to: Sq,
    ) -> Option<Move> {
        if pos.has_events() || self.events && meta::capture_limited(self, pos) {
            return None;
        }
        let us = pos.turn;
        let t = &self.tables;
        let kings = pos.kings(self, us);
        let king = kings.first().filter(|_| !kings.has_more_than_one())?;
        let in_check = pos
            .known_check()
            .unwrap_or_else(|| pos.is_attacked(self, king, us.other()));
        let ours = pos.by_color(us);
        let movers = ours & from;
        if in_check || ours.contains(to) || movers.is_empty() {
            return None;
        }
        if movers.contains(king) && (pos.castling & ours).nonempty() {
            return None;
        }
        let safety = KingSafety {
            in_check: false,
            king: Some(king),
            pinned: None,
            evasions: Bitboard::EMPTY,
        };
        let occupied = pos.occupied();
        let captured = pos.piece_at(to);
        let mut found = None;
        let mut several = false;
        let mut consider = |mv: Move| {
            if self.is_legal_with(pos, &mv, &safety) {
                several |= found.replace(mv).is_some();
            }
        };
        for sq in movers {
            let piece = pos.piece_at(sq).expect("our piece");
            let mv = |special| Move {
                piece,
                from: sq,
                to,
                captured,
                promotion: None,
                special,
                faces: None,
                swap: None,
                returned: None,
            };
            if self.role(piece.kind) != Role::Pawn {
                if self.reaches(piece.kind, sq, to, occupied) {
                    consider(mv(Special::Normal));
                }
                continue;
            }
            if t.promotion_squares[us.index()].contains(to) || pos.ep == Some(to) {
                return None;
            }
            let step = t.pawn_step(us, sq).filter(|&step| !occupied.contains(step));
            if step == Some(to) {
                consider(mv(Special::Normal));
            }
            if let Some(step) = step
                && t.double_step_squares[us.index()].contains(sq)
                && t.pawn_step(us, step) == Some(to)
                && !occupied.contains(to)
            {
                consider(mv(Special::DoubleStep));
            }
            if t.pawn_attacks[us.index()][sq.index()].contains(to) && captured.is_some() {
                consider(mv(Special::Normal));
            }
        }
        if several { None } else { found }
    }

    /// Every legal move.
    pub fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        let all = self.geometry.all();
        self.legal_moves_between(pos, all, all, out);
    }

    pub fn has_legal_move(&self, pos: &Position) -> bool {
        if pos.has_events() && self.winner(pos).is_some() {
            return false;
        }
        if self.events && meta::capture_limited(self, pos) {
            // Rare enough to list the moves: the shortcuts below know nothing of EC-2.
            let mut moves = Vec::new();
            self.legal_moves(pos, &mut moves);
            return !moves.is_empty();
        }
        if self.has_free_leaper(pos) {
            return true;
        }
        let mut moves = Vec::new();
        let all = self.geometry.all();
        let safety = self.king_safety(pos, false);
        // Piece by piece, so a position with a legal move answers after the first one:
        // in check the king first (its steps are the likeliest answers), else last, and
        // leapers (knights) first, whose moves are one look-up and seldom all blocked.
        let kings = pos.kings(self, pos.turn);
        let others = pos.by_color(pos.turn) & !kings;
        let leapers = self
            .tables
            .leapers
            .iter()
            .fold(Bitboard::EMPTY, |bb, &kind| bb | pos.by_kind(kind))
            & others;
        let order = if safety.in_check {
            [kings, others, Bitboard::EMPTY]
        } else {
            [leapers, others & !leapers, kings]
        };
        let ours = pos.by_color(pos.turn);
        let occupied = pos.occupied();
        order.into_iter().flatten().any(|from| {
            // Out of check, a piece (not a pawn, not the king) has a legal move when it
            // has a square to go to and is not pinned: no need to list them. Without a
            // square it has none, pinned or not (the cheaper question first).
            if !safety.in_check
                && let Some(king) = safety.king
                && from != king
                && let Some(piece) = pos.piece_at(from)
                && self.role(piece.kind) == Role::Piece
            {
                let reach = self.attacks(piece.kind, piece.color, from, occupied) & !ours;
                if reach.is_empty() {
                    return false;
                }
                if !self.is_pinned(pos, &safety, king, from) {
                    return true;
                }
            }
            // In check, other pieces only matter where they capture or block (or take
            // en passant, which the en-passant square stands for).
            let targets = match safety.king {
                Some(king) if safety.in_check && from != king => {
                    safety.evasions | pos.ep.map_or(Bitboard::EMPTY, Sq::bit)
                }
                _ => all,
            };
            moves.clear();
            self.pseudo_moves(pos, from.bit(), targets, &mut moves);
            moves.iter().any(|mv| self.is_legal_with(pos, mv, &safety))
        }) || pos.has_events() && {
            // Events' moves that start where the mover has no piece: a drop on an empty
            // square (RV-4), an enemy pawn turned (SY-4).
            moves.clear();
            self.pseudo_moves(pos, all & !ours, all, &mut moves);
            moves.iter().any(|mv| self.is_legal_with(pos, mv, &safety))
        }
    }

    /// Whether the side to move, not in check, has a leaper (a knight) that nothing can
    /// pin, with a square to go to: then it has a legal move, known before the king's
    /// safety is worked out (most positions that end a game). A pin needs an enemy rider
    /// on a line through the king, and a piece on that line.
    fn has_free_leaper(&self, pos: &Position) -> bool {
        let us = pos.turn;
        let kings = pos.kings(self, us);
        let Some(king) = kings.first() else {
            return false;
        };
        if pos.has_events() || kings.has_more_than_one() || pos.is_check(self) {
            return false;
        }
        let ours = pos.by_color(us);
        let occupied = pos.occupied();
        let t = &self.tables;
        let riders = t
            .direction_groups
            .iter()
            .fold(Bitboard::EMPTY, |bb, (kinds, _)| bb | pos.kinds_in(*kinds))
            & pos.by_color(us.other());
        let lines = t.lines[king.index()];
        let unpinnable = if (riders & lines).is_empty() {
            ours & !kings
        } else {
            ours & !kings & !lines
        };
        t.leapers.iter().any(|&kind| {
            (pos.by_kind(kind) & unpinnable)
                .into_iter()
                .any(|from| (self.attacks(kind, us, from, occupied) & !ours).nonempty())
        })
    }

    /// Plays a (pseudo-legal) move.
    /// The captures of a move through a pass or passage, before its piece lands; the
    /// squares whose castling rights they take.
    fn capture_through(&self, pos: &mut Position, mv: &Move) -> Bitboard {
        let mut lost_rights = Bitboard::EMPTY;
        // The piece a passage takes as it is entered (HP-3), or en passant as it is
        // entered (HP-9), kept to stand in for it below.
        let mut entered = None;
        if let Some(victim) = mv.entry_capture_square(self, pos) {
            entered = pos.piece_at(victim).map(|piece| (victim, piece));
            self.capture(pos, mv, victim);
            lost_rights |= victim.bit();
        }
        // Not "whatever stands there": a piece going through a passage may end on the
        // square it left.
        if mv.captured.is_some() {
            // A second capture is judged on the board as it stood before the move
            // (LK-10, EC-11): the entry's piece stands in its place meanwhile.
            if let Some((sq, piece)) = entered {
                pos.put(sq, piece);
            }
            lost_rights |= self.capture(pos, mv, mv.capture_square(self)).bit();
            if let Some((sq, _)) = entered {
                pos.remove(sq);
            }
        }
        lost_rights
    }

    pub fn play(&self, pos: &mut Position, mv: &Move) {
        let us = mv.piece.color;
        pos.halfmoves = pos.halfmoves.saturating_add(1);
        self.play_on_board(pos, mv);
        if us == Color::Black {
            pos.fullmoves = pos.fullmoves.saturating_add(1);
        }
        if pos.has_events() {
            self.pass_turn_with_events(pos, mv);
            return;
        }
        pos.set_turn(us.other());
        let in_check = self.gives_check(pos, mv);
        pos.remember_check(in_check);
    }

    /// Plays one part of a turn in several parts (#13, #51, #102) as [`Variant::play`]
    /// plays a move, but only on the board: the turn, the move counters and the hooks
    /// that end a turn (`before_turn_passes`, `after_move`) wait for the whole turn,
    /// which the event plays as one of its own moves.
    pub fn play_part(&self, pos: &mut Position, mv: &Move) {
        self.play_on_board(pos, mv);
    }

    /// What a move does to the board: pieces, captures, promotion, the en-passant square,
    /// castling rights, the halfmove clock's reset.
    #[inline(always)]
    fn play_on_board(&self, pos: &mut Position, mv: &Move) {
        let us = mv.piece.color;
        let g = self.geometry;
        pos.ep = None;
        let mut lost_rights = mv.from.bit() | mv.to.bit();
        match mv.special {
            Special::Castle { rook_from, rook_to } => {
                // Both lifted first: in Chess960 one may land where the other stood.
                let rook = pos.lift(rook_from).expect("castling rook");
                let king = pos.lift(mv.from).expect("castling king");
                if mv.captured.is_some() {
                    // The king or rook went on through a passage and takes at its exit
                    // (HP-9, HP-3): the one of the two squares that is not empty.
                    let exit = if pos.piece_at(mv.to).is_some() {
                        mv.to
                    } else {
                        rook_to
                    };
                    lost_rights |= self.capture(pos, mv, exit).bit();
                }
                pos.place(mv.to, king);
                pos.place(rook_to, rook);
                lost_rights |= rook_from.bit();
                if pos.has_events() {
                    for event in pos.events() {
                        event.after_landing(self, pos, mv);
                    }
                }
            }
            Special::Event { number, .. } => {
                if let Some(event) = pos.events().into_iter().find(|e| e.number() == number) {
                    event.play_extra(self, pos, mv);
                }
            }
            _ => {
                if let Special::Pass { .. } = mv.special {
                    lost_rights |= self.capture_through(pos, mv);
                } else if mv.captured.is_some() {
                    lost_rights |= self.capture(pos, mv, mv.capture_square(self)).bit();
                }
                match mv.promotion {
                    None => pos.relocate(mv.from, mv.to),
                    Some(kind) => {
                        pos.remove(mv.from);
                        pos.put(mv.to, Piece { color: us, kind });
                    }
                }
                if pos.has_events() {
                    for event in pos.events() {
                        event.after_landing(self, pos, mv);
                    }
                }
                if self.role(mv.piece.kind) == Role::Pawn {
                    pos.halfmoves = 0;
                }
                if mv.special == Special::DoubleStep {
                    pos.ep = self.tables.pawn_step(us, mv.from);
                }
            }
        }
        if self.role(mv.piece.kind) == Role::King
            && let Some(castling) = self.castling
        {
            lost_rights |= pos.castling & g.rank_mask(castling.rank[us.index()]);
        }
        if (pos.castling & lost_rights).nonempty() {
            pos.set_castling(pos.castling & !lost_rights);
        }
    }

    /// The end of [`Variant::play`] while events run: each event settles the board before
    /// the turn passes (#91 freezes what moved), then learns whether the move checks
    /// (#4 counts it). The check is remembered before the events hear of it: one that
    /// puts a piece down then (#1's returned ally, which may block the check, CA-1) makes
    /// the board ask again. Out of line, so orthodox play pays one branch for it.
    #[inline(never)]
    fn pass_turn_with_events(&self, pos: &mut Position, mv: &Move) {
        for event in pos.events() {
            event.before_turn_passes(self, pos, mv);
        }
        pos.set_turn(mv.piece.color.other());
        let in_check = pos.is_check(self);
        pos.remember_check(in_check);
        for event in pos.events() {
            event.after_move(self, pos, mv, in_check);
        }
    }

    /// Takes the piece on `victim` (or whichever a running event puts in its place,
    /// LK-2) for `mv`, counting it (EC-2); returns the square emptied. Events whose own
    /// moves capture (#115's rider stepping off) take their victims through it too.
    pub(crate) fn capture(&self, pos: &mut Position, mv: &Move, mut victim: Sq) -> Sq {
        if pos.has_events() {
            for event in pos.events() {
                victim = event.before_capture(self, pos, mv, victim);
            }
            for event in pos.events() {
                event.on_capture(self, pos, mv, victim);
            }
        }
        if let Some(taken) = pos.remove(victim) {
            pos.halfmoves = 0;
            if self.role(taken.kind) != Role::Pawn {
                let count = &mut pos.captures[mv.piece.color.index()];
                *count = count.saturating_add(1);
            }
        }
        victim
    }

    /// Whether `mv`, just played on `pos`, checks the side now to move. For an ordinary
    /// move only two things can check: the moved piece itself, and a rider of ours
    /// uncovered on the line through the square it left. Anything else asks the full
    /// question.
    fn gives_check(&self, pos: &Position, mv: &Move) -> bool {
        let them = pos.turn;
        let kings = pos.checkable_kings(self, them);
        if pos.has_events()
            || kings.has_more_than_one()
            || !matches!(mv.special, Special::Normal | Special::DoubleStep)
        {
            return pos.is_check(self);
        }
        let Some(king) = kings.first() else {
            return false;
        };
        let t = &self.tables;
        let us = mv.piece.color;
        let occupied = pos.occupied();
        let kind = mv.promotion.unwrap_or(mv.piece.kind);
        let direct = if self.role(kind) == Role::Pawn {
            t.pawn_attacks[us.index()][mv.to.index()].contains(king)
        } else {
            self.reaches(kind, mv.to, king, occupied)
        };
        if direct {
            return true;
        }
        if !t.lines[king.index()].contains(mv.from) {
            return false;
        }
        t.direction_groups.iter().any(|(kinds, directions)| {
            let riders = pos.kinds_in(*kinds) & pos.by_color(us);
            riders.nonempty()
                && directions.iter().any(|&d| {
                    t.ray(d, king).contains(mv.from)
                        && (self.ray_attacks(d, king, occupied) & riders).nonempty()
                })
        })
    }

    /// Passes the turn (a null move `--`, as odds games and analysis use it).
    pub fn play_null(&self, pos: &mut Position) {
        pos.ep = None;
        pos.halfmoves = pos.halfmoves.saturating_add(1);
        if pos.turn == Color::Black {
            pos.fullmoves = pos.fullmoves.saturating_add(1);
        }
        pos.set_turn(pos.turn.other());
    }

    /// Counts the leaf nodes of the legal move tree `depth` plies deep.
    pub fn perft(&self, pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::with_capacity(64);
        self.legal_moves(pos, &mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|mv| {
                let mut next = pos.clone();
                self.play(&mut next, mv);
                self.perft(&next, depth - 1)
            })
            .sum()
    }
}
