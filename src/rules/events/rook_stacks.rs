//! The rook carriers (catalogue Type "Rook carrier"): #115 Piecebuilder, where a bishop
//! or a knight rides on an own rook and the two move as one stack. The rules are data
//! ([`Carrier`]: which pieces ride, whether a rook picks one up, the ruling ids), so the
//! older #37 Queenbuilder it replaced (only bishops, no picking up) can share them.
//!
//! The rook stays the piece on the board and its rider is a mark on it, one mark layer
//! per rider kind (as #78 keeps a king riding a rook), so the core carries the rider with
//! the rook through every move, castling included, and drops it when the rook is taken.
//! The stack's movement is the rook's reach joined with its rider's from the same square
//! (the stack's moves are the rook's ordinary moves, written `RBa4`); boarding, loading
//! and stepping off are the event's own moves. Each event names its rulings in [`Ids`].

use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{EventState, Overlay, Reach};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Kind, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

/// A rider ends its move on an own rook that carries none.
const BOARD: u16 = 0;
/// An empty rook moves onto an own rider and picks it up (#115).
const LOAD: u16 = 1;
/// The rider leaves its rook with a move of its own.
const STEP_OFF: u16 = 2;
/// The first `data` a carrier event may give moves of its own beside these (#47's shot).
pub(super) const OWN_MOVES: u16 = 3;

/// The ids of the rulings a carrier's rules and messages cite, clause by clause.
pub(super) struct Ids {
    /// Which pieces ride, and how they board.
    pub board: &'static str,
    /// Whether and how an empty rook picks up a rider.
    pub load: &'static str,
    /// How the stack moves, and how its moves are written.
    pub stack: &'static str,
    /// How the rider steps off.
    pub step_off: &'static str,
    /// The stack is one piece for check and pins.
    pub unit: &'static str,
}

/// One rook-carrier event's rules.
pub(super) struct Carrier {
    pub number: u16,
    /// `#115 Piecebuilder`, as messages name the event.
    pub title: &'static str,
    /// The letters of the pieces that may ride, one mark layer each.
    pub riders: &'static [char],
    /// Whether an empty rook may move onto an own rider to pick it up (#115).
    pub loads: bool,
    /// The one piece the stack moves as, where the rules name one (#37: a queen, its
    /// rook's lines joined with its bishop's); `None` names the rook and its rider.
    pub stack_as: Option<&'static str>,
    pub ids: Ids,
}

/// A rider's kind in words, for messages.
fn word(letter: char) -> &'static str {
    match letter {
        'B' => "bishop",
        'N' => "knight",
        _ => "piece",
    }
}

impl Carrier {
    pub fn mark_layers(&self) -> usize {
        self.riders.len()
    }

    fn rook(v: &Variant) -> Option<Kind> {
        v.kind_of_letter('R')
    }

    /// The squares of the rooks that carry a rider of `letter`.
    fn carrying(&self, pos: &Position, letter: char) -> Bitboard {
        self.riders
            .iter()
            .position(|&l| l == letter)
            .and_then(|i| pos.mark_layer(self.number, i))
            .map_or(Bitboard::EMPTY, |layer| pos.marked(layer))
    }

    /// The squares of every loaded rook, of both sides.
    pub fn loaded(&self, pos: &Position) -> Bitboard {
        self.riders
            .iter()
            .fold(Bitboard::EMPTY, |bb, &l| bb | self.carrying(pos, l))
    }

    /// The letter of the rider on the rook on `sq`, if one rides there.
    pub fn rider(&self, pos: &Position, sq: Sq) -> Option<char> {
        self.riders
            .iter()
            .copied()
            .find(|&l| self.carrying(pos, l).contains(sq))
    }

    /// The rider on `sq` as a piece of the rook's side.
    fn rider_piece(&self, v: &Variant, pos: &Position, sq: Sq) -> Option<Piece> {
        let letter = self.rider(pos, sq)?;
        let rook = pos.piece_at(sq)?;
        Some(Piece {
            color: rook.color,
            kind: v.kind_of_letter(letter)?,
        })
    }

    fn set_rider(&self, pos: &mut Position, sq: Sq, letter: char, on: bool) {
        let i = self
            .riders
            .iter()
            .position(|&l| l == letter)
            .expect("a rider's letter");
        let layer = pos.mark_layer(self.number, i).expect("started");
        pos.set_mark(layer, sq, on);
    }

    fn letter(v: &Variant, kind: Kind) -> char {
        v.piece(kind).letter
    }

    /// The stack moves and attacks as its rook and as its rider from the same square
    /// (PB-3: a bishop on a rook makes a queen).
    pub fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if Self::rook(v) != Some(piece.kind) || pos.piece_at(from) != Some(piece) {
            return;
        }
        if let Some(rider) = self.rider_piece(v, pos, from) {
            let its = v.reach(pos, from, rider, occupied);
            reach.quiet |= its.quiet;
            reach.attacks |= its.attacks;
        }
    }

    pub fn event_move(
        &self,
        piece: Piece,
        from: Sq,
        to: Sq,
        captured: Option<Piece>,
        data: u16,
    ) -> Move {
        Move {
            piece,
            from,
            to,
            captured,
            promotion: None,
            special: Special::Event {
                number: self.number,
                data,
            },
            faces: None,
            swap: None,
            returned: None,
        }
    }

    /// The event's own moves of the side to move from `from` to `to`: riders boarding an
    /// empty own rook (from the board or from another rook), empty rooks picking up a
    /// rider (#115), riders stepping off.
    pub fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        let us = pos.turn;
        let Some(rook_kind) = Self::rook(v) else {
            return;
        };
        let occupied = pos.occupied();
        let loaded = self.loaded(pos);
        let rooks = pos.pieces(us, rook_kind);
        let empty_rooks = rooks & !loaded;
        let theirs = pos.by_color(us.other());
        for &letter in self.riders {
            let Some(kind) = v.kind_of_letter(letter) else {
                continue;
            };
            let piece = Piece { color: us, kind };
            let free = pos.pieces(us, kind);
            let riding = self.carrying(pos, letter) & rooks;
            // Boarding (PB-1): a move the rider could make onto the rook's square were it
            // empty; it does not pass through the rook.
            for origin in (free | riding) & from {
                for target in empty_rooks & to {
                    if target == origin {
                        continue;
                    }
                    let reach = v.reach(pos, origin, piece, occupied & !target.bit());
                    if reach.quiet.contains(target) {
                        out.push(self.event_move(piece, origin, target, None, BOARD));
                    }
                }
            }
            // Stepping off (PB-4): the rider's own move from the rook's square.
            for origin in riding & from {
                let reach = v.reach(pos, origin, piece, occupied);
                for target in reach.quiet & to {
                    out.push(self.event_move(piece, origin, target, None, STEP_OFF));
                }
                for target in reach.attacks & theirs & to {
                    let captured = pos.piece_at(target);
                    out.push(self.event_move(piece, origin, target, captured, STEP_OFF));
                }
            }
            // Loading (PB-2): an empty rook's move onto the own rider's square were it
            // empty.
            if self.loads {
                let rook = Piece {
                    color: us,
                    kind: rook_kind,
                };
                for origin in empty_rooks & from {
                    for target in free & to {
                        let reach = v.reach(pos, origin, rook, occupied & !target.bit());
                        if reach.quiet.contains(target) {
                            out.push(self.event_move(rook, origin, target, None, LOAD));
                        }
                    }
                }
            }
        }
    }

    pub fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let Special::Event { data, .. } = mv.special else {
            return;
        };
        let letter = Self::letter(v, mv.piece.kind);
        // A rook's castling right stays with it while riders come and go (PB-7); the core
        // takes the rights of both squares after an event's move, so they are put back
        // before the turn passes.
        let mut kept = pos.castling & (mv.from.bit() | mv.to.bit());
        match data {
            BOARD => {
                if let Some(rider) = self.rider(pos, mv.from) {
                    self.set_rider(pos, mv.from, rider, false);
                } else {
                    kept &= mv.to.bit();
                    pos.remove(mv.from);
                }
                self.set_rider(pos, mv.to, letter, true);
            }
            LOAD => {
                let rider = pos.remove(mv.to).expect("a rider to pick up");
                pos.relocate(mv.from, mv.to);
                self.set_rider(pos, mv.to, Self::letter(v, rider.kind), true);
                kept = Bitboard::EMPTY;
            }
            _ => {
                self.set_rider(pos, mv.from, letter, false);
                kept &= mv.from.bit();
                if mv.captured.is_some() {
                    v.capture(pos, mv, mv.to);
                }
                pos.put(mv.to, mv.piece);
            }
        }
        self.keep_castling(pos, kept);
    }

    /// Keeps the castling rights `kept` through an event's move, which costs the rights
    /// of its squares in the core: [`Carrier::before_turn_passes`] gives them back.
    pub fn keep_castling(&self, pos: &mut Position, kept: Bitboard) {
        if kept.nonempty() {
            let mut state = pos.event_state(self.number).copied().unwrap_or_default();
            state.boards[0] = kept;
            pos.set_event_state(self.number, state);
        }
    }

    /// Gives back the castling rights [`Carrier::play_extra`] kept.
    pub fn before_turn_passes(&self, pos: &mut Position) {
        let Some(&state) = pos.event_state(self.number) else {
            return;
        };
        if state.boards[0].nonempty() {
            pos.set_castling(pos.castling | state.boards[0]);
            pos.set_event_state(self.number, EventState::default());
        }
    }

    /// PB-1: a rook carries one rider, so another event's move that would put a piece on
    /// an own loaded rook (#78's king boarding it) is refused.
    pub fn allows(&self, pos: &Position, mv: &Move) -> bool {
        match mv.special {
            // A rider is off the board and leaves it facing nothing (#85's direction).
            Special::Event { number, .. } if number == self.number => mv.faces.is_none(),
            Special::Event { number, .. } if number != self.number && mv.to != mv.from => {
                !(self.loaded(pos) & pos.by_color(mv.piece.color)).contains(mv.to)
            }
            _ => true,
        }
    }

    pub fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        format!(
            "the {} rook on {} carries a {}, and under event {} a rook carries one piece ({})",
            mv.piece.color,
            v.geometry.name(mv.to),
            word(self.rider(pos, mv.to).unwrap_or('B')),
            self.title,
            self.ids.board
        )
    }

    /// PB-6: the rider goes with its rook, and counts as a second piece taken (EC-2).
    pub fn on_capture(&self, pos: &mut Position, mv: &Move, victim: Sq) {
        if self.rider(pos, victim).is_some() {
            let count = &mut pos.captures[mv.piece.color.index()];
            *count = count.saturating_add(1);
        }
    }

    /// The moves `written` with the letter of `letter` that end on `to` from `from`:
    /// ordinary moves of such pieces on the board, and the event's moves of such riders.
    fn written_as(
        &self,
        v: &Variant,
        pos: &Position,
        kind: Kind,
        from: Bitboard,
        to: Sq,
    ) -> Vec<Move> {
        let mut moves = Vec::new();
        let letter = Self::letter(v, kind);
        let origins = (pos.pieces(pos.turn, kind) | self.carrying(pos, letter)) & from;
        v.legal_moves_between(pos, origins, to.bit(), &mut moves);
        moves.retain(|mv| mv.piece.kind == kind && self.written_with_letter(mv));
        moves
    }

    /// Whether a move of a piece is written with its letter alone: an ordinary move, a
    /// rider boarding or stepping off (not a rook picking one up, nor an event's own
    /// move such as #47's shot, `Bx@d6`).
    fn written_with_letter(&self, mv: &Move) -> bool {
        match mv.special {
            Special::Normal => true,
            Special::Event { number, data } => {
                number == self.number && matches!(data, BOARD | STEP_OFF)
            }
            _ => false,
        }
    }

    /// The file, rank or square that tells `mv` from `rivals` (minimal, as SAN does).
    pub fn disambiguation(v: &Variant, mv: &Move, rivals: &[Move]) -> String {
        let g = v.geometry;
        let rivals: Vec<&Move> = rivals.iter().filter(|r| r.from != mv.from).collect();
        if rivals.is_empty() {
            return String::new();
        }
        if !rivals.iter().any(|r| g.file(r.from) == g.file(mv.from)) {
            char::from(b'a' + g.file(mv.from)).to_string()
        } else if !rivals.iter().any(|r| g.rank(r.from) == g.rank(mv.from)) {
            (g.rank(mv.from) + 1).to_string()
        } else {
            g.name(mv.from)
        }
    }

    /// `Be4` (boarding), `Bxb2` / `Bdb2` (stepping off), `Rxe4` (picking up).
    pub fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let us = mv.piece.color;
        let rivals = if matches!(mv.special, Special::Event { data: LOAD, .. }) {
            let mut loads = Vec::new();
            let rooks = pos.pieces(us, mv.piece.kind) & !self.loaded(pos);
            v.legal_moves_between(pos, rooks, mv.to.bit(), &mut loads);
            loads.retain(|r| r.special == mv.special);
            loads
        } else {
            let mut all = self.written_as(v, pos, mv.piece.kind, g.all(), mv.to);
            // A move written without its origin names a piece on the board before a
            // rider (PB-4): a piece on the board competes only with pieces on the board.
            if self.rider(pos, mv.from).is_none() {
                all.retain(|r| self.rider(pos, r.from).is_none());
            }
            all
        };
        let mut out = String::new();
        out.push(Self::letter(v, mv.piece.kind));
        out.push_str(&Self::disambiguation(v, mv, &rivals));
        if matches!(mv.special, Special::Event { data: LOAD, .. }) || mv.is_capture() {
            out.push('x');
        }
        out.push_str(&g.name(mv.to));
        out
    }

    pub fn lan(&self, v: &Variant, mv: &Move) -> String {
        let g = v.geometry;
        let capture = matches!(mv.special, Special::Event { data: LOAD, .. }) || mv.is_capture();
        format!(
            "{}{}{}{}",
            Self::letter(v, mv.piece.kind),
            g.name(mv.from),
            if capture { 'x' } else { '-' },
            g.name(mv.to)
        )
    }

    /// Reads `RBa4` (a stack's move), `Ra4` (an empty rook's), `Rxe4` (a rook picking up
    /// its rider), `Be4` (boarding) and `Bb2` (stepping off); `None` leaves a move that
    /// involves no stack to the orthodox reader.
    pub fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let letter = written.letter()?;
        let targets = written.targets.as_slice();
        if targets.len() > 2 || written.placed.is_some() || written.arrow.is_some() {
            return None;
        }
        let last = targets.last()?;
        if last.promotion.is_some() {
            return None;
        }
        let to = g.from_square(last.square)?;
        let mut from = san::hinted_origins(v, written.hint);
        if let [origin, _] = targets {
            from &= g.from_square(origin.square)?.bit();
        }
        if let Some(rider) = written.rider() {
            return Some(self.resolve_stack(v, pos, written, letter, rider, from, to));
        }
        if letter == 'R' {
            return self.resolve_rook(v, pos, written, from, to);
        }
        if self.riders.contains(&letter) {
            return self.resolve_rider(v, pos, written, letter, from, to);
        }
        self.no_rider(v, pos, written, letter, to)
    }

    /// A piece that may not ride, written onto an own rook: refused, naming the riders.
    fn no_rider(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
        letter: char,
        to: Sq,
    ) -> Option<Result<Move, Rejection>> {
        let rook = Self::rook(v)?;
        let kind = v.kind_of_letter(letter)?;
        let us = pos.turn;
        if pos.piece_at(to)
            != Some(Piece {
                color: us,
                kind: rook,
            })
        {
            return None;
        }
        let text = san::written(written);
        Some(Err(san::illegal(
            format!(
                "`{text}` ends on the {us} rook on {}: under event {} only {} rides a rook, and a {} may not ({})",
                v.geometry.name(to),
                self.title,
                self.rider_words(),
                v.piece(kind).name,
                self.ids.board
            ),
            san::legal_help(v, pos, &text, Some(kind)),
        )))
    }

    #[allow(clippy::too_many_arguments)]
    fn resolve_stack(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
        letter: char,
        rider: char,
        from: Bitboard,
        to: Sq,
    ) -> Result<Move, Rejection> {
        let text = san::written(written);
        let us = pos.turn;
        let help = || san::legal_help(v, pos, &text, Self::rook(v));
        if letter != 'R' || !self.riders.contains(&rider) {
            return Err(san::illegal(
                format!(
                    "`{text}` names a stack of `{letter}` carrying `{rider}`: under event {} only a rook carries a rider ({}) ({})",
                    self.title,
                    self.rider_words(),
                    self.ids.board
                ),
                help(),
            ));
        }
        let stacks = self.carrying(pos, rider) & pos.by_color(us) & from;
        let mut moves = Vec::new();
        v.legal_moves_between(pos, stacks, to.bit(), &mut moves);
        moves.retain(|mv| mv.special == Special::Normal);
        match moves.as_slice() {
            [mv] => Ok(*mv),
            [] => Err(self.why_no_stack_move(v, pos, stacks, rider, to, &text)),
            several => Err(san::ambiguous(v, pos, several)),
        }
        .map_err(|mut rejection| {
            if rejection.help.is_none() {
                rejection.help = help();
            }
            rejection
        })
    }

    fn rider_words(&self) -> String {
        match self.riders {
            [one] => format!("a {}", word(*one)),
            _ => "a bishop or a knight".to_owned(),
        }
    }

    fn why_no_stack_move(
        &self,
        v: &Variant,
        pos: &Position,
        stacks: Bitboard,
        rider: char,
        to: Sq,
        text: &str,
    ) -> Rejection {
        let g = v.geometry;
        let us = pos.turn;
        let Some(stack) = stacks.first() else {
            return san::illegal(
                format!(
                    "`{text}`: no {us} rook carrying a {} can make this move (under event {} a stack is written with both letters, {})",
                    word(rider),
                    self.title,
                    self.ids.stack
                ),
                None,
            );
        };
        let mut pseudo = Vec::new();
        v.pseudo_moves(pos, stacks, to.bit(), &mut pseudo);
        pseudo.retain(|mv| mv.special == Special::Normal);
        match pseudo.first() {
            Some(mv) => san::illegal(
                format!(
                    "{}: the rook and its {} are one piece for check and pins under event {} ({})",
                    san::king_exposed(v, pos, mv),
                    word(rider),
                    self.title,
                    self.ids.unit
                ),
                None,
            ),
            None => {
                let (moves_as, reaches) = match self.stack_as {
                    Some(one) => (format!("a {one}"), "it does not reach"),
                    None => (format!("a rook or as a {}", word(rider)), "neither reaches"),
                };
                san::illegal(
                    format!(
                        "the {us} rook on {} carries a {}, and under event {} the stack moves as {moves_as} from its square; {reaches} {} ({})",
                        g.name(stack),
                        word(rider),
                        self.title,
                        g.name(to),
                        self.ids.stack
                    ),
                    None,
                )
            }
        }
    }

    /// `Ra4`: an empty rook; `Rxe4` onto an own rider: picking it up (#115).
    fn resolve_rook(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
        from: Bitboard,
        to: Sq,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let us = pos.turn;
        let rook = Self::rook(v)?;
        let text = san::written(written);
        let loaded = self.loaded(pos);
        let rooks = pos.pieces(us, rook) & from;
        let target = pos.piece_at(to);
        if let Some(piece) = target.filter(|p| p.color == us)
            && self.riders.contains(&Self::letter(v, piece.kind))
        {
            if !self.loads {
                return Some(Err(san::illegal(
                    format!(
                        "`{text}` moves a rook onto the {us} {} on {}: under event {} only a {} joins a rook, by its own move onto it; a rook never picks one up ({})",
                        word(Self::letter(v, piece.kind)),
                        g.name(to),
                        self.title,
                        word(self.riders[0]),
                        self.ids.load
                    ),
                    san::legal_help(v, pos, &text, Some(rook)),
                )));
            }
            let mut moves = Vec::new();
            v.legal_moves_between(pos, rooks & !loaded, to.bit(), &mut moves);
            moves.retain(|mv| {
                matches!(mv.special, Special::Event { number, data: LOAD } if number == self.number)
            });
            return Some(match moves.as_slice() {
                [mv] => Ok(*mv),
                [] => Err(self.why_no_load(v, pos, rooks, to, &text)),
                several => Err(san::ambiguous(v, pos, several)),
            });
        }
        let mut moves = Vec::new();
        v.legal_moves_between(pos, rooks, to.bit(), &mut moves);
        moves.retain(|mv| mv.special == Special::Normal);
        let (stacks, empty): (Vec<Move>, Vec<Move>) =
            moves.into_iter().partition(|mv| loaded.contains(mv.from));
        if stacks.is_empty() {
            return None;
        }
        Some(match (empty.as_slice(), stacks.first()) {
            ([mv], _) => Ok(*mv),
            ([], Some(stack)) => {
                let rider = self.rider(pos, stack.from).unwrap_or('B');
                Err(san::illegal(
                    format!(
                        "the {us} rook on {} carries a {}: under event {} it never moves without its rider, and the stack's move is written with both letters ({})",
                        g.name(stack.from),
                        word(rider),
                        self.title,
                        self.ids.stack
                    ),
                    Some(format!("write {}", san::san_plain(v, pos, stack))),
                ))
            }
            (several, _) => Err(san::ambiguous(v, pos, several)),
        })
    }

    fn why_no_load(
        &self,
        v: &Variant,
        pos: &Position,
        rooks: Bitboard,
        to: Sq,
        text: &str,
    ) -> Rejection {
        let g = v.geometry;
        let us = pos.turn;
        let mut pseudo = Vec::new();
        v.pseudo_moves(pos, rooks, to.bit(), &mut pseudo);
        pseudo.retain(|mv| {
            matches!(mv.special, Special::Event { number, data: LOAD } if number == self.number)
        });
        let help = san::legal_help(v, pos, text, None);
        let loaded = self.loaded(pos) & rooks;
        let full = loaded.into_iter().find(|&rook| {
            let piece = pos.piece_at(rook).expect("a rook");
            v.reach(pos, rook, piece, pos.occupied() & !to.bit())
                .quiet
                .contains(to)
        });
        match (pseudo.first(), full) {
            (Some(mv), _) => san::illegal(
                format!("{} ({})", san::king_exposed(v, pos, mv), self.ids.load),
                help,
            ),
            (None, Some(rook)) => san::illegal(
                format!(
                    "the {us} rook on {} carries a {} already, and under event {} a rook carries one rider, so it picks up no second ({})",
                    g.name(rook),
                    word(self.rider(pos, rook).unwrap_or('B')),
                    self.title,
                    self.ids.load
                ),
                help,
            ),
            (None, None) => san::illegal(
                format!(
                    "no {us} rook can pick up the piece on {}: under event {} an empty rook picks up an own {} with a rook move it could make to that square were it empty ({})",
                    g.name(to),
                    self.title,
                    self.rider_words().trim_start_matches("a "),
                    self.ids.load
                ),
                help,
            ),
        }
    }

    /// `Be4` onto an own empty rook (boarding), `Bb2` from a rook (stepping off); a move
    /// written without its origin names a piece on the board before a rider (PB-4).
    fn resolve_rider(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
        letter: char,
        from: Bitboard,
        to: Sq,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let us = pos.turn;
        let kind = v.kind_of_letter(letter)?;
        let rook = Self::rook(v)?;
        let text = san::written(written);
        let moves = self.written_as(v, pos, kind, from, to);
        let (riders, free): (Vec<Move>, Vec<Move>) = moves
            .into_iter()
            .partition(|mv| self.rider(pos, mv.from).is_some());
        let chosen = if free.is_empty() { riders } else { free };
        let onto_own_rook = pos.piece_at(to)
            == Some(Piece {
                color: us,
                kind: rook,
            });
        let marks_capture = written
            .targets
            .last()
            .is_some_and(|t| t.separator == Separator::Capture);
        if onto_own_rook
            && marks_capture
            && let Some(mv) = chosen.first()
        {
            // Boarding takes nothing (PB-1): `Nxg8` onto an own rook is left to an event
            // under which a piece takes its own (#23's knights), or refused.
            return Some(Err(san::illegal(
                format!(
                    "`{text}` writes a capture onto the {us} rook on {}: boarding it captures nothing ({})",
                    g.name(to),
                    self.ids.board
                ),
                Some(format!("write `{}`", san::san(v, pos, mv))),
            )));
        }
        if !chosen.is_empty() {
            if chosen.iter().all(|mv| mv.special == Special::Normal) {
                return None;
            }
            return Some(match chosen.as_slice() {
                [mv] => Ok(*mv),
                several => Err(san::ambiguous(v, pos, several)),
            });
        }
        // Nothing legal: explain it where a move of ours was meant.
        let mut pseudo = Vec::new();
        let origins = (pos.pieces(us, kind) | self.carrying(pos, letter)) & from;
        self.extra_moves(v, pos, origins, to.bit(), &mut pseudo);
        pseudo.retain(|mv| mv.piece.kind == kind && mv.special != Special::Normal);
        let boarding = pos.piece_at(to)
            == Some(Piece {
                color: us,
                kind: rook,
            });
        let help = san::legal_help(v, pos, &text, None);
        if let Some(mv) = pseudo.first() {
            let rule = if boarding {
                self.ids.board
            } else {
                self.ids.step_off
            };
            return Some(Err(san::illegal(
                format!("{} ({rule})", san::king_exposed(v, pos, mv)),
                help,
            )));
        }
        if boarding {
            let why = if self.loaded(pos).contains(to) {
                format!(
                    "the {us} rook on {} carries a rider already, and under event {} a rook carries one ({})",
                    g.name(to),
                    self.title,
                    self.ids.board
                )
            } else {
                format!(
                    "no {us} {} can end a move on the rook on {}: under event {} a {} boards an own rook only with a move it could make to that square were it empty, not through other pieces ({})",
                    word(letter),
                    g.name(to),
                    self.title,
                    word(letter),
                    self.ids.board
                )
            };
            return Some(Err(san::illegal(why, help)));
        }
        // Only riders could have meant it: say how a rider leaves (PB-4), where the
        // orthodox reader would find no such piece on the board.
        let riding = self.carrying(pos, letter) & pos.by_color(us) & from;
        if (pos.pieces(us, kind) & from).is_empty()
            && let Some(rook_sq) = riding.first()
        {
            return Some(Err(san::illegal(
                format!(
                    "the {us} {} on the rook on {} does not reach {}: under event {} a rider leaves its rook with its own move from the rook's square ({})",
                    word(letter),
                    g.name(rook_sq),
                    g.name(to),
                    self.title,
                    self.ids.step_off
                ),
                help,
            )));
        }
        None
    }

    /// `Bd4`, `Na1`: the rooks that carry a rider, each with its rider's letter.
    pub fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let mut words = Vec::new();
        for sq in self.loaded(pos) {
            if let Some(letter) = self.rider(pos, sq) {
                words.push(format!("{letter}{}", v.geometry.name(sq)));
            }
        }
        words
    }

    pub fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        for word in words {
            let mut chars = word.chars();
            let letter = chars.next().unwrap_or(' ');
            if !self.riders.contains(&letter) {
                return Err(format!(
                    "`{word}` names no rider: a rook's rider is written with its letter and the rook's square ({}d4)",
                    self.riders[0]
                ));
            }
            let sq = super::fen_square(v, chars.as_str())?;
            if pos.piece_at(sq).map(|p| p.kind) != Self::rook(v) {
                return Err(format!("{word}: no rook stands there to carry a rider"));
            }
            if self.rider(pos, sq).is_some() {
                return Err(format!("{word}: the rook there carries a rider already"));
            }
            self.set_rider(pos, sq, letter, true);
        }
        Ok(())
    }

    /// The loaded rooks, ringed, and listed under the board with their riders.
    pub fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let loaded = self.loaded(pos);
        out.singled_out.extend(loaded);
        let words = self.write_fen(v, pos);
        out.lines.push(if words.is_empty() {
            "rooks carrying a rider: none".to_owned()
        } else {
            format!("rooks carrying a rider (marked @): {}", words.join(", "))
        });
    }
}
