//! A position as data: pieces, side to move, castling rights, en passant, clocks and a
//! Zobrist hash. What the pieces may do is the variant's business ([`Variant`]); the
//! position only stores and updates.

use arrayvec::ArrayVec;

use super::board::{Bitboard, MAX_SQUARES, Sq};
use super::event::{Event, EventState, Running};
use super::piece::{Color, Kind, Piece, Role};
use super::variant::{MAX_KINDS, Variant};

/// A position of some variant; every method takes the [`Variant`] it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; MAX_KINDS],
    /// 0 for an empty square, else `1 + kind`, plus [`BLACK_BIT`] for black.
    mailbox: [u8; MAX_SQUARES],
    pub turn: Color,
    /// The rooks that may still castle, by square.
    pub castling: Bitboard,
    /// The square a pawn skipped with its double step on the last move.
    pub ep: Option<Sq>,
    /// Plies since the last capture or pawn move (the 50-move rule).
    pub halfmoves: u32,
    pub fullmoves: u32,
    /// Zobrist hash of pieces, side to move, castling rights and running events; see
    /// [`Position::key`].
    hash: u64,
    /// The events running, in the order they started (Event Chess; empty otherwise).
    events: ArrayVec<Running, MAX_EVENTS>,
    /// Non-pawn pieces each side has captured (EC-2 limits them before an event).
    pub captures: [u8; 2],
    /// Whether a running event changes where pieces go ([`Event::changes_reach`]).
    reach_changed: bool,
    /// What each running event keeps ([`Running`] by index); boxed and absent until an
    /// event starts, so orthodox positions copy no more.
    event_states: Option<Box<[EventState; MAX_EVENTS]>>,
    /// What travels with pieces as they move, for the events that need it.
    marks: Option<Box<Marks>>,
    /// Whether the side to move is in check, as the move that led here worked out;
    /// any other change to the position forgets it.
    check: KnownCheck,
}

/// A remembered answer to "is the side to move in check?"; not part of what a position
/// is, so it takes no part in equality.
#[derive(Clone, Copy, Debug, Default)]
struct KnownCheck(Option<bool>);

impl PartialEq for KnownCheck {
    fn eq(&self, _: &KnownCheck) -> bool {
        true
    }
}

impl Eq for KnownCheck {}

/// Facts that belong to pieces rather than squares (a knight's direction, LK-1; a
/// possible chosen pawn, PR-4): one bitboard per layer, each bit moving with its piece.
/// Each running event owns [`Event::mark_layers`] of them, from [`Running::first_mark`].
/// Boxed and absent until an event marks a piece, so orthodox positions copy no more.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Marks {
    layers: [Bitboard; MARK_LAYERS],
}

/// The most mark layers the running events may own together.
pub const MARK_LAYERS: usize = 8;

/// A piece lifted off the board with its marks, to be put down elsewhere.
#[derive(Clone, Copy, Debug)]
pub struct Lifted {
    pub piece: Piece,
    marks: u8,
}

/// Each player starts at most one event (EC-1); #99 Double Trouble, one player's start,
/// starts two more in its place (DT-1).
pub const MAX_EVENTS: usize = 4;

const BLACK_BIT: u8 = 0x80;

impl Position {
    /// An empty board, white to move.
    pub fn empty() -> Position {
        Position {
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; MAX_KINDS],
            mailbox: [0; MAX_SQUARES],
            turn: Color::White,
            castling: Bitboard::EMPTY,
            ep: None,
            halfmoves: 0,
            fullmoves: 1,
            hash: 0,
            events: ArrayVec::new(),
            captures: [0; 2],
            reach_changed: false,
            event_states: None,
            marks: None,
            check: KnownCheck(None),
        }
    }

    /// What the last [`Variant::play`] found about check, if nothing changed since.
    pub(crate) fn known_check(&self) -> Option<bool> {
        self.check.0
    }

    pub(crate) fn remember_check(&mut self, in_check: bool) {
        self.check = KnownCheck(Some(in_check));
    }

    /// The events running in this position (a copy, so hooks may change the position
    /// while their callers walk the list).
    pub fn events(&self) -> ArrayVec<&'static dyn Event, MAX_EVENTS> {
        self.events.iter().map(|r| r.event).collect()
    }

    /// The events running, with who started each.
    pub fn running(&self) -> &[Running] {
        &self.events
    }

    pub fn has_events(&self) -> bool {
        !self.events.is_empty()
    }

    /// Whether a running event changes where pieces go: then moves and attacks are
    /// worked out piece by piece through [`Variant::reach`].
    #[inline]
    pub fn reach_changed(&self) -> bool {
        self.reach_changed
    }

    /// The event `color` started, if any.
    pub fn event_started_by(&self, color: Color) -> Option<&'static dyn Event> {
        self.events
            .iter()
            .find(|r| r.started_by == Some(color))
            .map(|r| r.event)
    }

    /// Starts an event, by a player or (`None`) from the start position; it runs to the
    /// end of the game (EC-1). Fails when two already run.
    pub fn start_event(
        &mut self,
        event: &'static dyn Event,
        started_by: Option<Color>,
    ) -> Result<(), String> {
        let first_mark: usize = self.events.iter().map(|r| r.event.mark_layers()).sum();
        if first_mark + event.mark_layers() > MARK_LAYERS {
            return Err(format!(
                "the events running keep more than {MARK_LAYERS} marks on pieces"
            ));
        }
        self.events
            .try_push(Running {
                event,
                started_by,
                first_mark: first_mark as u8,
            })
            .map_err(|_| format!("at most {MAX_EVENTS} events run in one game"))?;
        self.event_states.get_or_insert_default()[self.events.len() - 1] = EventState::default();
        self.hash ^= zobrist::event(event.number());
        self.reach_changed |= event.changes_reach();
        self.check = KnownCheck(None);
        Ok(())
    }

    /// What the running event with this number keeps in the position.
    pub fn event_state(&self, number: u16) -> Option<&EventState> {
        let index = self
            .events
            .iter()
            .position(|r| r.event.number() == number)?;
        self.event_states.as_ref().map(|states| &states[index])
    }

    /// Sets what the running event with this number keeps; the part that belongs to the
    /// position's identity ([`Event::state_key`]) goes into the hash.
    pub fn set_event_state(&mut self, number: u16, state: EventState) {
        let Some(index) = self.events.iter().position(|r| r.event.number() == number) else {
            return;
        };
        let event = self.events[index].event;
        let slot = &mut self.event_states.get_or_insert_default()[index];
        self.hash ^= event.state_key(slot) ^ event.state_key(&state);
        *slot = state;
        self.check = KnownCheck(None);
    }

    /// The mark layer `index` of the running event with this number.
    pub fn mark_layer(&self, number: u16, index: usize) -> Option<usize> {
        self.events
            .iter()
            .find(|r| r.event.number() == number)
            .map(|r| usize::from(r.first_mark) + index)
    }

    pub fn piece_at(&self, sq: Sq) -> Option<Piece> {
        let code = self.mailbox[sq.index()];
        (code != 0).then(|| Piece {
            color: if code & BLACK_BIT != 0 {
                Color::Black
            } else {
                Color::White
            },
            kind: Kind((code & !BLACK_BIT) - 1),
        })
    }

    pub fn put(&mut self, sq: Sq, piece: Piece) {
        debug_assert!(self.mailbox[sq.index()] == 0, "square is empty");
        self.check = KnownCheck(None);
        self.by_color[piece.color.index()].set(sq);
        self.by_kind[piece.kind.index()].set(sq);
        self.mailbox[sq.index()] = piece.kind.0
            + 1
            + if piece.color == Color::Black {
                BLACK_BIT
            } else {
                0
            };
        self.hash ^= zobrist::piece(piece, sq);
    }

    /// Takes the piece off `sq`; its marks go with it.
    #[inline]
    pub fn remove(&mut self, sq: Sq) -> Option<Piece> {
        if self.marks.is_none() {
            return self.take(sq);
        }
        self.lift(sq).map(|lifted| lifted.piece)
    }

    /// Takes the piece off `sq` with its marks, for [`Position::place`].
    pub fn lift(&mut self, sq: Sq) -> Option<Lifted> {
        let marks = match &mut self.marks {
            None => 0,
            Some(m) => {
                let mut bits = 0;
                for (i, layer) in m.layers.iter_mut().enumerate() {
                    if layer.contains(sq) {
                        layer.clear(sq);
                        bits |= 1 << i;
                    }
                }
                bits
            }
        };
        let piece = self.take(sq)?;
        Some(Lifted { piece, marks })
    }

    /// Puts a lifted piece on the empty `sq`, its marks with it.
    pub fn place(&mut self, sq: Sq, lifted: Lifted) {
        self.put(sq, lifted.piece);
        if lifted.marks != 0 {
            let layers = &mut self.marks.get_or_insert_default().layers;
            for (i, layer) in layers.iter_mut().enumerate() {
                if lifted.marks >> i & 1 != 0 {
                    layer.set(sq);
                }
            }
        }
    }

    /// Moves the piece on `from` to the empty `to`, with its marks.
    #[inline]
    pub fn relocate(&mut self, from: Sq, to: Sq) {
        if self.marks.is_none() {
            if let Some(piece) = self.take(from) {
                self.put(to, piece);
            }
        } else if let Some(lifted) = self.lift(from) {
            self.place(to, lifted);
        }
    }

    /// The squares marked in `layer`.
    pub fn marked(&self, layer: usize) -> Bitboard {
        self.marks
            .as_ref()
            .map_or(Bitboard::EMPTY, |m| m.layers[layer])
    }

    /// Marks or unmarks the piece on `sq` in `layer`.
    pub fn set_mark(&mut self, layer: usize, sq: Sq, on: bool) {
        if !on && self.marks.is_none() {
            return;
        }
        let layers = &mut self.marks.get_or_insert_default().layers;
        if on {
            layers[layer].set(sq);
        } else {
            layers[layer].clear(sq);
        }
    }

    #[inline]
    fn take(&mut self, sq: Sq) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.check = KnownCheck(None);
        self.by_color[piece.color.index()].clear(sq);
        self.by_kind[piece.kind.index()].clear(sq);
        self.mailbox[sq.index()] = 0;
        self.hash ^= zobrist::piece(piece, sq);
        Some(piece)
    }

    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    pub fn by_kind(&self, kind: Kind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    pub fn pieces(&self, color: Color, kind: Kind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// The squares of `color`'s royal pieces.
    pub fn kings(&self, v: &Variant, color: Color) -> Bitboard {
        match v.tables.king {
            Some(king) => self.pieces(color, king),
            None => Bitboard::EMPTY,
        }
    }

    pub fn set_turn(&mut self, color: Color) {
        if self.turn != color {
            self.check = KnownCheck(None);
            self.hash ^= zobrist::TURN;
            self.turn = color;
        }
    }

    pub fn set_castling(&mut self, rights: Bitboard) {
        for sq in self.castling ^ rights {
            self.hash ^= zobrist::castling(sq);
        }
        self.castling = rights;
    }

    /// The pieces of `by` that attack `sq` with `occupied` in the way, the ways running
    /// events add included (HP-7).
    pub fn attackers(&self, v: &Variant, sq: Sq, by: Color, occupied: Bitboard) -> Bitboard {
        let mut found = self.direct_attackers(v, sq, by, occupied);
        if self.has_events() {
            for event in self.events() {
                found |= event.extra_attackers(v, self, sq, by, occupied);
            }
        }
        found
    }

    /// The pieces of `by` whose own movement attacks `sq`, with `occupied` in the way.
    pub fn direct_attackers(&self, v: &Variant, sq: Sq, by: Color, occupied: Bitboard) -> Bitboard {
        if self.reach_changed {
            return self.attackers_by_reach(v, sq, by, occupied);
        }
        let t = &v.tables;
        let theirs = self.by_color(by) & occupied;
        let mut found = Bitboard::EMPTY;
        for &kind in &t.leapers {
            found |= t.leaps[kind.index()][sq.index()] & self.by_kind(kind) & theirs;
        }
        for (kinds, directions) in &t.direction_groups {
            let riders = self.kinds_in(*kinds) & theirs;
            if riders.is_empty() {
                continue;
            }
            for &d in directions {
                if (t.ray(d, sq) & riders).is_empty() {
                    continue;
                }
                // A ray's reach ends at its first blocker, so at most one square remains.
                found |= v.ray_attacks(d, sq, occupied) & riders;
            }
        }
        if let Some(pawn) = t.pawn {
            found |= t.pawn_attacks[by.other().index()][sq.index()] & self.by_kind(pawn) & theirs;
        }
        found
    }

    /// The squares of every piece whose kind is in the bit mask `kinds`.
    #[inline]
    pub fn kinds_in(&self, mut kinds: u16) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        while kinds != 0 {
            out |= self.by_kind[kinds.trailing_zeros() as usize];
            kinds &= kinds - 1;
        }
        out
    }

    pub fn is_attacked(&self, v: &Variant, sq: Sq, by: Color) -> bool {
        self.is_attacked_through(v, sq, by, self.occupied())
    }

    /// Whether any piece of `by` attacks `sq` with `occupied` in the way: [`attackers`]
    /// that stops at the first one found (the test that every move's legality asks).
    ///
    /// [`attackers`]: Position::attackers
    pub fn is_attacked_through(&self, v: &Variant, sq: Sq, by: Color, occupied: Bitboard) -> bool {
        self.is_attacked_directly(v, sq, by, occupied)
            || self.has_events()
                && self
                    .events()
                    .iter()
                    .any(|e| e.extra_attackers(v, self, sq, by, occupied).nonempty())
    }

    /// [`Position::is_attacked_through`] by the pieces' own movement only.
    pub fn is_attacked_directly(&self, v: &Variant, sq: Sq, by: Color, occupied: Bitboard) -> bool {
        if self.reach_changed {
            return self.attackers_by_reach(v, sq, by, occupied).nonempty();
        }
        let t = &v.tables;
        let theirs = self.by_color(by) & occupied;
        if let Some(pawn) = t.pawn
            && (t.pawn_attacks[by.other().index()][sq.index()] & self.by_kind(pawn) & theirs)
                .nonempty()
        {
            return true;
        }
        for &kind in &t.leapers {
            if (t.leaps[kind.index()][sq.index()] & self.by_kind(kind) & theirs).nonempty() {
                return true;
            }
        }
        t.direction_groups.iter().any(|(kinds, directions)| {
            let riders = self.kinds_in(*kinds) & theirs;
            riders.nonempty()
                && directions.iter().any(|&d| {
                    (t.ray(d, sq) & riders).nonempty()
                        && (v.ray_attacks(d, sq, occupied) & riders).nonempty()
                })
        })
    }

    /// The pieces of `by` whose reach, as the running events have it, attacks `sq`: each
    /// piece asked in turn, as no table knows reaches that events change.
    fn attackers_by_reach(&self, v: &Variant, sq: Sq, by: Color, occupied: Bitboard) -> Bitboard {
        let mut found = Bitboard::EMPTY;
        for from in self.by_color(by) & occupied {
            let piece = self.piece_at(from).expect("a piece of `by`");
            if v.reach(self, from, piece, occupied).attacks.contains(sq) {
                found.set(from);
            }
        }
        found
    }

    #[inline]
    /// The royal pieces of `color` that can be in check: its kings, or the pieces a
    /// running event makes royal instead (LQ-1), all of them unless a running event frees
    /// one (PR-1, LK-5, EC-8).
    pub fn checkable_kings(&self, v: &Variant, color: Color) -> Bitboard {
        let kings = self.kings(v, color);
        if self.events.is_empty() {
            return kings;
        }
        let royals = self
            .events()
            .iter()
            .find_map(|e| e.royals(v, self, color))
            .unwrap_or(kings);
        royals
            .filter(|&king| {
                self.events()
                    .iter()
                    .all(|e| e.can_be_checked(v, self, king, color))
            })
            .collect()
    }

    /// The enemy pieces giving check to the side to move.
    pub fn checkers(&self, v: &Variant) -> Bitboard {
        let mut found = Bitboard::EMPTY;
        for king in self.checkable_kings(v, self.turn) {
            found |= self.attackers(v, king, self.turn.other(), self.occupied());
        }
        found
    }

    pub fn is_check(&self, v: &Variant) -> bool {
        if let Some(known) = self.known_check() {
            return known;
        }
        let them = self.turn.other();
        self.checkable_kings(v, self.turn)
            .into_iter()
            .any(|king| self.is_attacked(v, king, them))
    }

    /// The en-passant square if a pawn of the side to move stands ready to capture there
    /// (so two positions that differ only in an unusable en-passant square repeat).
    pub fn ep_capturable(&self, v: &Variant) -> Option<Sq> {
        let ep = self.ep?;
        let pawn = v.tables.pawn?;
        let capturers = v.tables.pawn_attacks[self.turn.other().index()][ep.index()]
            & self.pieces(self.turn, pawn);
        capturers.nonempty().then_some(ep)
    }

    /// The identity of the position for repetition: pieces, side to move, castling
    /// rights and a usable en-passant square.
    pub fn key(&self, v: &Variant) -> u64 {
        let hash = match &self.marks {
            // Knight directions are part of the position (LK-9); rare, so not kept
            // up to date move by move but folded in here.
            Some(marks) => marks
                .layers
                .iter()
                .enumerate()
                .fold(self.hash, |h, (i, layer)| {
                    layer.into_iter().fold(h, |h, sq| h ^ zobrist::mark(i, sq))
                }),
            None => self.hash,
        };
        match self.ep_capturable(v) {
            Some(ep) => hash ^ zobrist::ep(v.geometry.file(ep)),
            None => hash,
        }
    }

    /// Every piece of `role` that `color` has.
    pub fn with_role(&self, v: &Variant, color: Color, role: Role) -> Bitboard {
        v.kinds_with(role)
            .fold(Bitboard::EMPTY, |bb, k| bb | self.pieces(color, k))
    }
}

/// Zobrist keys from a fixed seed, so hashes are the same in every run.
mod zobrist {
    use super::super::board::{MAX_SQUARES, Sq};
    use super::super::piece::Piece;
    use super::MAX_KINDS;

    const PIECE_KEYS: usize = 2 * MAX_KINDS * MAX_SQUARES;
    static KEYS: [u64; PIECE_KEYS + MAX_SQUARES + 16] = generate();
    pub const TURN: u64 = 0x9d39_247e_3377_6d41;
    const fn generate<const N: usize>() -> [u64; N] {
        let mut keys = [0u64; N];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut i = 0;
        while i < N {
            // splitmix64
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            keys[i] = z ^ (z >> 31);
            i += 1;
        }
        keys
    }

    pub fn piece(piece: Piece, sq: Sq) -> u64 {
        KEYS[(piece.color.index() * MAX_KINDS + piece.kind.index()) * MAX_SQUARES + sq.index()]
    }

    pub fn castling(sq: Sq) -> u64 {
        KEYS[PIECE_KEYS + sq.index()]
    }

    pub fn ep(file: u8) -> u64 {
        KEYS[PIECE_KEYS + MAX_SQUARES + usize::from(file)]
    }

    /// Event numbers run past the table, so their keys are mixed from the number.
    pub fn event(number: u16) -> u64 {
        mix(u64::from(number))
    }

    /// A mark of `layer` on `sq` ([`super::Marks`]), mixed from both.
    pub fn mark(layer: usize, sq: Sq) -> u64 {
        mix(0x1_0000 + (layer * MAX_SQUARES + sq.index()) as u64)
    }

    fn mix(value: u64) -> u64 {
        let mut z = value.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}
