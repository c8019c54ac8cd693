//! The hooks through which Event Chess events change the rules mid-game.
//!
//! Each event is one module implementing [`Event`]; the core calls the hooks of the
//! events running in a position (at most one per player, EC-1) at fixed points of move
//! generation and play, so an event never forks the move generator and never touches a
//! parser. `ARCHITECTURE.md` lists which event uses which hook.

use std::fmt;

use super::board::{Bitboard, Direction, Sq};
use super::moves::Move;
use super::piece::{Color, Kind, Piece};
use super::position::Position;
use super::san::Rejection;
use super::variant::Variant;
use crate::command::{Choice, EventLabel};
use crate::diagnostic::{Diagnostic, MoveRef};
use crate::notation::{Notation, PieceMove};
use crate::span::Span;

/// What the catalogue says of an event, as data: the meta rules (EC-3, EC-12), `xpgn
/// variants` and the test that holds the rules pages to the code all read it.
#[derive(Debug)]
pub struct EventInfo {
    /// The event's number (`43`).
    pub number: u16,
    /// The event's name (`Line Pushers`).
    pub name: &'static str,
    /// Other names forum games announce it by.
    pub aliases: &'static [&'static str],
    /// Two events that share a Type never run together (EC-12).
    pub types: &'static [EventType],
    pub condition: Condition,
    /// The ids of the rulings it follows: its own, then the meta rules that name it.
    pub rulings: &'static [&'static str],
    /// Its rules page, from the repository root.
    pub page: &'static str,
}

/// The Types of the catalogue: two events of one Type never run together (EC-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    RemoveCheck,
    RoyalModifier,
    RoyalQueen,
    RookCarrier,
    MoveLengthModifier,
    BoardModifier,
}

impl EventType {
    /// As the catalogue names it.
    pub const fn name(self) -> &'static str {
        match self {
            EventType::RemoveCheck => "Remove Check",
            EventType::RoyalModifier => "Royal modifier",
            EventType::RoyalQueen => "Royal queen",
            EventType::RookCarrier => "Rook carrier",
            EventType::MoveLengthModifier => "Move length modifier",
            EventType::BoardModifier => "Board modifier",
        }
    }
}

/// An event's Condition (EC-3): what must hold when it starts.
#[derive(Debug)]
pub struct Condition {
    /// Pieces each player needs, by letter: `('R', 1)` is a rook each.
    pub pieces_each: &'static [(char, u8)],
    /// Letters of which each player needs at least one piece, of any of them: `&['N',
    /// 'B']` is a knight or a bishop each (#76).
    pub one_of_each: &'static [char],
    /// Starting it may not leave either player in check.
    pub no_check: bool,
    /// Types it may not run beside, besides its own.
    pub not_with: &'static [EventType],
    /// Empty squares every rank needs (#83: two, so that the pushes from both edges
    /// never meet).
    pub empty_on_every_rank: u8,
}

impl Condition {
    /// No Condition.
    pub const NONE: Condition = Condition {
        pieces_each: &[],
        one_of_each: &[],
        no_check: false,
        not_with: &[],
        empty_on_every_rank: 0,
    };

    /// Pieces each player needs and nothing more.
    pub const fn pieces_each(pieces_each: &'static [(char, u8)]) -> Condition {
        Condition {
            pieces_each,
            one_of_each: &[],
            no_check: false,
            not_with: &[],
            empty_on_every_rank: 0,
        }
    }

    /// Why the board does not meet it, if it does not: the pieces each player needs,
    /// the empty squares of every rank.
    pub fn check_pieces(&self, v: &Variant, pos: &Position) -> Result<(), String> {
        for &(letter, count) in self.pieces_each {
            let Some(kind) = v.kind_of_letter(letter) else {
                return Err(format!("the variant has no piece `{letter}`"));
            };
            let name = v.pieces[kind.index()].name.as_str();
            for color in Color::BOTH {
                if pos.pieces(color, kind).count() < u32::from(count) {
                    return Err(if count == 1 {
                        format!("{color} has no {name}")
                    } else {
                        format!(
                            "{color} has fewer than {count} {}",
                            piece_word(letter, count)
                        )
                    });
                }
            }
        }
        if !self.one_of_each.is_empty() {
            let kinds: Vec<_> = self
                .one_of_each
                .iter()
                .filter_map(|&letter| v.kind_of_letter(letter))
                .collect();
            for color in Color::BOTH {
                if kinds.iter().all(|&kind| pos.pieces(color, kind).is_empty()) {
                    return Err(format!("{color} has no {}", one_of_words(self.one_of_each)));
                }
            }
        }
        let g = v.geometry;
        let wanted = u32::from(self.empty_on_every_rank);
        for rank in 0..g.height {
            let empty = (g.rank_mask(rank) & !pos.occupied()).count();
            if empty < wanted {
                return Err(format!(
                    "rank {} has {empty} empty square{} (fewer than {wanted})",
                    rank + 1,
                    if empty == 1 { "" } else { "s" }
                ));
            }
        }
        Ok(())
    }
}

/// `knight or bishop`: one piece of any of the letters, in words.
fn one_of_words(letters: &[char]) -> String {
    let words: Vec<String> = letters.iter().map(|&l| piece_word(l, 1)).collect();
    words.join(" or ")
}

impl fmt::Display for Condition {
    /// In words, for `xpgn variants` and the rules pages: `at least 1 rook each`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        for &(letter, count) in self.pieces_each {
            parts.push(format!(
                "at least {count} {} each",
                piece_word(letter, count)
            ));
        }
        if !self.one_of_each.is_empty() {
            parts.push(format!(
                "at least 1 {} each",
                one_of_words(self.one_of_each)
            ));
        }
        if self.empty_on_every_rank > 0 {
            parts.push(format!(
                "at least {} empty squares on every rank",
                self.empty_on_every_rank
            ));
        }
        for kind in self.not_with {
            parts.push(format!("not with a {} event", kind.name()));
        }
        if self.no_check {
            parts.push("starting it leaves nobody in check".to_owned());
        }
        if parts.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&parts.join("; "))
        }
    }
}

/// The orthodox name of a piece letter, for a Condition in words.
fn piece_word(letter: char, count: u8) -> String {
    let word = match letter {
        'K' => "king",
        'Q' => "queen",
        'R' => "rook",
        'B' => "bishop",
        'N' => "knight",
        'P' => "pawn",
        other => return format!("`{other}`"),
    };
    if count == 1 {
        word.to_owned()
    } else {
        format!("{word}s")
    }
}

/// Writes ruling ids with runs shortened: `HP-1..HP-8, EC-4`.
pub fn ruling_ranges(ids: &[&str]) -> String {
    let split = |id: &str| -> Option<(String, u32)> {
        let (prefix, n) = id.rsplit_once('-')?;
        Some((prefix.to_owned(), n.parse().ok()?))
    };
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while let (Some((p, n)), Some((q, m))) = (
            ids.get(j).and_then(|id| split(id)),
            ids.get(j + 1).and_then(|id| split(id)),
        ) {
            if p != q || m != n + 1 {
                break;
            }
            j += 1;
        }
        out.push(if j > i + 1 {
            format!("{}..{}", ids[i], ids[j])
        } else if j == i + 1 {
            format!("{}, {}", ids[i], ids[j])
        } else {
            ids[i].to_owned()
        });
        i = j + 1;
    }
    out.join(", ")
}

/// An event's rules. Every hook has the orthodox behaviour as its default.
pub trait Event: Send + Sync {
    /// What the catalogue says of it.
    fn info(&self) -> &'static EventInfo;

    /// Whether it is the older wording of its number, played where the command says so
    /// (`[%event 70 old]`); the newest wording is played otherwise.
    fn older_wording(&self) -> bool {
        false
    }

    /// The event's number (`#43`).
    fn number(&self) -> u16 {
        self.info().number
    }

    /// The event's number as people read and write it: `43`, `4*` for the early
    /// numbering's Portal Chess (PC-9).
    fn label(&self) -> EventLabel {
        EventLabel(self.number())
    }

    /// The event's name (`Line Pushers`).
    fn name(&self) -> &'static str {
        self.info().name
    }

    /// How many layers of marks it keeps on pieces: bits that travel with their piece
    /// through every move (LK-1 a knight's direction, PR-4 the pawns that may be chosen).
    fn mark_layers(&self) -> usize {
        0
    }

    /// The part of its [`EventState`] that belongs to the position's identity (HP-7: a
    /// revealed passage; PR-1: who can be checked), as a hash; 0 for none.
    fn state_key(&self, _state: &EventState) -> u64 {
        0
    }

    /// Its state in the extended FEN, in the words of its `[%event]` command (`c4,f6!`);
    /// empty when it keeps none.
    fn write_fen(&self, _v: &Variant, _pos: &Position) -> Vec<String> {
        Vec::new()
    }

    /// Puts back its state from the words [`Event::write_fen`] wrote, once started; by
    /// default the words are its command's choices.
    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let text = words.join(" ");
        let choices: Vec<Choice> = crate::command::parse_choices(crate::command::words(&text, 0))
            .map(|choices| choices.into_iter().map(|c| c.node).collect())
            .map_err(|d| d.message)?;
        self.begin(v, pos, &choices)
    }

    /// What a board picture shows of it beyond the pieces: marked squares, arrows on
    /// pieces, lines of text under the board.
    fn overlay(&self, _v: &Variant, _pos: &Position, _out: &mut Overlay) {}

    /// A reader of the record for one line of a game from the move at `next_ply` on, when
    /// the event keeps choices a record may leave out and must not contradict (HP-8,
    /// PR-4).
    fn follower(
        &self,
        _v: &Variant,
        _pos: &Position,
        _next_ply: usize,
    ) -> Option<Box<dyn Follower>> {
        None
    }

    /// Whether a king may be captured while it runs (PR-2), so that a side may have no
    /// king left and no material is too little to end a game.
    fn captures_kings(&self) -> bool {
        false
    }

    /// Whether the event gives a side mating power beyond its pieces in `pos` (SE-7: a
    /// soul moves a king as a rook), so that bare kings or a lone minor piece are not
    /// too little material to mate.
    fn adds_mating_material(&self, _v: &Variant, _pos: &Position) -> bool {
        false
    }

    /// Why `color` may no longer castle, where the event took the right away (PR-5).
    fn why_no_castling(
        &self,
        _v: &Variant,
        _pos: &Position,
        _color: Color,
    ) -> Option<&'static str> {
        None
    }

    /// Choices for its command that fit `pos`, drawn with `pick` (which returns an index
    /// below the length it is given), as the words of `[%event N ...]`: random games in
    /// the tests start events with them. `None` when none fit.
    fn random_choices(
        &self,
        _v: &Variant,
        _pos: &Position,
        _pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<String> {
        Some(String::new())
    }

    /// Whether moves may take this form of event notation while the event runs; the
    /// core refuses a form no running event reads, naming the events that read it.
    fn reads(&self, _form: Form) -> bool {
        false
    }

    /// Whether `[%event N ...]` carries choices for this event (#5 squares, #68 pawns,
    /// #85 directions).
    fn takes_choices(&self) -> bool {
        false
    }

    /// Why the event cannot start in this position, if it cannot (EC-3); by default
    /// the pieces its Condition asks for.
    fn condition(&self, v: &Variant, pos: &Position) -> Result<(), String> {
        self.info().condition.check_pieces(v, pos)
    }

    /// Sets up what the event keeps in the position from the choices of its command, once
    /// [`Position::start_event`] has started it (HP-1 squares). `Err` says why the
    /// choices do not fit; the event runs all the same, as if they were not given.
    fn begin(&self, _v: &Variant, _pos: &mut Position, _choices: &[Choice]) -> Result<(), String> {
        Ok(())
    }

    /// Learns, once begun, what it needs of the game before it started (older #7: the men
    /// each side lost to the opponent, RVO-1): `history` holds every move of the line so
    /// far with the position before it, oldest first, back to the game's first position
    /// (a set-up position's past is unknown); `pos` is the position after the last. The
    /// replayer keeps the line's moves only in Event Chess games (an orthodox game that
    /// starts an event is replayed as one), so orthodox replay does not copy positions.
    fn learn_history(&self, _v: &Variant, _pos: &mut Position, _history: &[(Position, Move)]) {}

    /// Whether a pawn of `color` on `from` may step two squares even where the variant's
    /// pawn rules do not allow it (EC-4).
    fn may_double_step(&self, _v: &Variant, _pos: &Position, _from: Sq, _color: Color) -> bool {
        false
    }

    /// Whether the royal piece of `color` on `king` can be in check (PR-1, LK-5; EC-8
    /// combines events: a king no event frees can be checked).
    fn can_be_checked(&self, _v: &Variant, _pos: &Position, _king: Sq, _color: Color) -> bool {
        true
    }

    /// The pieces of `color` that are royal under this event instead of its kings (#57:
    /// the queens, LQ-1): they are the ones that can be in check and be mated, and the
    /// number of kings is free; `None` keeps the kings royal.
    fn royals(&self, _v: &Variant, _pos: &Position, _color: Color) -> Option<Bitboard> {
        None
    }

    /// Reads a written castling (`O-O`, `O-O-O` when `long`) where the event moves
    /// another piece than the king to castle (#57: the queen, LQ-3), as one of its own
    /// moves; `None` leaves it to the orthodox castling.
    fn resolve_castle(
        &self,
        _v: &Variant,
        _pos: &Position,
        _long: bool,
    ) -> Option<Result<Move, Rejection>> {
        None
    }

    /// Whether it changes where pieces go ([`Event::reach`]). While one such event runs,
    /// the core works out every piece's moves and attacks through [`Event::reach`].
    fn changes_reach(&self) -> bool {
        false
    }

    /// Rewrites where the `piece` on `from` goes, with `occupied` in the way: `reach`
    /// holds what the variant's rules and the events started before this one gave.
    /// Moves and attacks both follow it, so a square a piece no longer reaches it neither
    /// moves to nor checks (#71: a queen three squares away gives no check). A pawn's
    /// reach can only narrow (its double steps, en passant and promotions are the core's);
    /// an event gives pawns new moves with [`Event::extra_moves`].
    fn reach(
        &self,
        _v: &Variant,
        _pos: &Position,
        _from: Sq,
        _piece: Piece,
        _occupied: Bitboard,
        _reach: &mut Reach,
    ) {
    }

    /// The kind whose movement the `piece` on `from` has under this event where it is not
    /// its own (#76: a bishop on the enemy half moves as a knight, MT-1), so that an event
    /// that changes one kind's movement knows which pieces have it (DB-5); `None` keeps
    /// its own.
    fn moves_as(&self, _v: &Variant, _pos: &Position, _from: Sq, _piece: Piece) -> Option<Kind> {
        None
    }

    /// The ways the `piece` on `from` goes to `to` under this event, with `occupied` in
    /// the way, where it does not go along the straight line between them (#30: a
    /// bishop's bent path; #38: a wrapped one): each way is the squares it passes over in
    /// order, `to` last. Empty where the event does not take the piece there; the straight
    /// line (or a leap) holds then. So an event that stops moves on their way (#106's
    /// wall) sees the path the move really takes.
    fn routes(
        &self,
        _v: &Variant,
        _pos: &Position,
        _from: Sq,
        _piece: Piece,
        _to: Sq,
        _occupied: Bitboard,
    ) -> Vec<Vec<Sq>> {
        Vec::new()
    }

    /// Whether the side that waits may stand in check in a position under it (SB-3: the
    /// push at the start of #83 may check the starter's opponent before the starter
    /// moves), so that a FEN of such a position reads back.
    fn waiting_check_allowed(&self) -> bool {
        false
    }

    /// The squares the event takes off the board (#83: files a and h, SB-2): no piece
    /// stands, moves or attacks there, and events that run round the board's edges use
    /// the squares left (SB-6). The event itself keeps its moves and attacks off them.
    fn removed_squares(&self, _v: &Variant, _pos: &Position) -> Bitboard {
        Bitboard::EMPTY
    }

    /// Adds the moves this event makes possible for the side to move, from squares in
    /// `from` to squares in `to` (pushes, turns in place, promotion by standing still).
    /// They carry [`super::Special::Event`] with this event's number.
    fn extra_moves(
        &self,
        _v: &Variant,
        _pos: &Position,
        _from: Bitboard,
        _to: Bitboard,
        _out: &mut Vec<Move>,
    ) {
    }

    /// Rewrites the moves just generated, `out[start..]`, where landing on a square means
    /// more than standing there (HP-2: a move that ends on a passage square goes on
    /// through it), and adds the moves that end in `to` that way.
    fn reroute(
        &self,
        _v: &Variant,
        _pos: &Position,
        _from: Bitboard,
        _to: Bitboard,
        _out: &mut Vec<Move>,
        _start: usize,
    ) {
    }

    /// Adds to the moves just generated, `out[start..]`, the choices a move carries under
    /// this event (LK-4: the knight that swaps in; LK-8: the direction a knight ends
    /// facing). The core calls it once every event has rerouted, so moves another event
    /// added (through a passage, a promotion by standing still) carry them too.
    fn attach_choices(&self, _v: &Variant, _pos: &Position, _out: &mut Vec<Move>, _start: usize) {}

    /// Adds to the moves just generated, `out[start..]`, the choices that depend on what a
    /// move does once every event has attached its own (#1: the ally a check calls back
    /// depends on whether the move checks, which a knight's new facing decides, CA-4).
    /// The core calls it after every event's [`Event::attach_choices`].
    fn attach_outcomes(&self, _v: &Variant, _pos: &Position, _out: &mut Vec<Move>, _start: usize) {}

    /// The pieces of `by` that attack `sq` in ways the event adds (HP-7: through a
    /// revealed passage), with `occupied` in the way.
    fn extra_attackers(
        &self,
        _v: &Variant,
        _pos: &Position,
        _sq: Sq,
        _by: Color,
        _occupied: Bitboard,
    ) -> Bitboard {
        Bitboard::EMPTY
    }

    /// Whether a move that does not leave the mover's king attacked is legal all the same
    /// (HP-6: before the reveal it must also be legal as if there were no passage).
    fn allows(&self, _v: &Variant, _pos: &Position, _mv: &Move) -> bool {
        true
    }

    /// Why it does not allow `mv` ([`Event::allows`] said no), with the ruling, for the
    /// diagnostic of a move written so.
    fn why_refused(&self, _v: &Variant, _pos: &Position, _mv: &Move) -> String {
        format!(
            "event #{} {} does not allow this move",
            self.label(),
            self.name()
        )
    }

    /// Why, under this event, the `piece` on `from` does not reach `to` (the variant's own
    /// rules would let it), with the ruling; `None` when this event is not the reason.
    fn why_unreached(
        &self,
        _v: &Variant,
        _pos: &Position,
        _from: Sq,
        _piece: Piece,
        _to: Sq,
    ) -> Option<String> {
        None
    }

    /// Why, under this event, the `piece` on `from` attacks `to` where the variant's own
    /// rules would not have it attack, with the ruling (#76: a bishop on the enemy half
    /// attacks as a knight); `None` when this event is not the reason.
    fn why_attacks(
        &self,
        _v: &Variant,
        _pos: &Position,
        _from: Sq,
        _piece: Piece,
        _to: Sq,
    ) -> Option<String> {
        None
    }

    /// Plays one of this event's own moves (the core has cleared the en-passant square
    /// and will pass the turn).
    fn play_extra(&self, _v: &Variant, _pos: &mut Position, _mv: &Move) {}

    /// Runs after a moving piece has landed on `mv.to` (HP-2: on through a passage).
    fn after_landing(&self, _v: &Variant, _pos: &mut Position, _mv: &Move) {}

    /// Runs after every move, whatever its kind (castling and other events' own moves
    /// included), once it is on the board and before the turn passes and check is judged (#91: the pieces a
    /// player moved are frozen for his next turn, VA-1).
    fn before_turn_passes(&self, _v: &Variant, _pos: &mut Position, _mv: &Move) {}

    /// How many more events its starter may still start in its place, right after it on
    /// the same turn (#99 Double Trouble starts two: DT-1); EC-1 refuses them otherwise.
    fn starts_in_its_place(&self, _pos: &Position) -> u8 {
        0
    }

    /// Runs after every move (castling and events' own moves too) once the board is
    /// final and the turn has passed, `gives_check` saying whether the side now to move
    /// is in check (FC-1: a check counted toward a win). For the event's own state: the
    /// board is settled by then.
    fn after_move(&self, _v: &Variant, _pos: &mut Position, _mv: &Move, _gives_check: bool) {}

    /// Learns from a written move, before it is resolved, what the record had kept
    /// secret (PR-4: `K@g7` names the chosen pawn); `Err` when it cannot be so.
    fn reveal(
        &self,
        _v: &Variant,
        _pos: &mut Position,
        _written: &PieceMove,
    ) -> Result<(), Rejection> {
        Ok(())
    }

    /// The player who has won by this event's rules, the game being over (PR-2: a king
    /// captured with no chosen pawn left to replace it).
    fn winner(&self, _v: &Variant, _pos: &Position) -> Option<Color> {
        None
    }

    /// Whether the side to move, with no legal move and not in check, has lost by this
    /// event's rules instead of drawing (ST-7: no pawn next to his royal piece).
    fn stalemate_loses(&self, _v: &Variant, _pos: &Position) -> bool {
        false
    }

    /// Fixes the secret choices that explain a win the record claims for `mv`, about to
    /// be played in `pos`, where the board would show none: a `#` that mates nothing, or
    /// the game's result after its last move (TH-5: the move reaches a square that may be
    /// the loser's treasure). `true` when it did: playing `mv` then wins.
    fn explain_win(&self, _v: &Variant, _pos: &mut Position, _mv: &Move) -> bool {
        false
    }

    /// How the player [`Event::winner`] names has won: the ending's name for `--format
    /// json` (`king-captured`) and the words that tell a wrong result why.
    fn victory(&self, winner: Color) -> (&'static str, String) {
        (
            "event-win",
            format!(
                "{winner} has won by the rules of event #{} {}",
                self.label(),
                self.name()
            ),
        )
    }

    /// The direction the piece on `sq` faces under this event (LK-1), if it faces one.
    fn facing(&self, _pos: &Position, _sq: Sq) -> Option<Direction> {
        None
    }

    /// A piece that appears on a square as part of `mv`, besides the moving one: its
    /// letter and square (PR-2: the king that comes back on the chosen pawn, `K@g7`).
    fn placed(&self, _v: &Variant, _pos: &Position, _mv: &Move) -> Option<(char, Sq)> {
        None
    }

    /// The letter of the piece that rides on the piece on `sq` under this event, written
    /// after that piece's letter in its ordinary moves (#115: `RBa4`, the rook carrying a
    /// bishop); `None` where nothing rides there.
    fn rider(&self, _v: &Variant, _pos: &Position, _sq: Sq) -> Option<char> {
        None
    }

    /// Appends what this event adds to the canonical spelling of an ordinary move, before
    /// its check mark (PR-2: `K@g7` after a king capture).
    fn annotate(&self, _v: &Variant, _pos: &Position, _mv: &Move, _out: &mut String) {}

    /// Appends what this event adds after a whole turn in parts of another event
    /// (`e4,d4,N@g1`: #1's returned ally, CA-7), whose parts carry their own additions
    /// ([`Event::annotate`] is not asked for it).
    fn annotate_turn(&self, _v: &Variant, _pos: &Position, _mv: &Move, _out: &mut String) {}

    /// Reads a written move in a form this event defines (`R->a4`, `Nxf6-c4`,
    /// `Qxf7K@g7`); `None` leaves it to the orthodox reading.
    fn resolve(
        &self,
        _v: &Variant,
        _pos: &Position,
        _written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        None
    }

    /// Reads a written turn that is no single piece move, in a form the event reads: a
    /// whole move that places (`R@h8`, `@f7`), a turn in several parts (`Qxe5,Qxe6#`) or
    /// a shot (`Bx@d6`) or a stop on a half square (`Ra7.5`).
    /// It resolves to one of the event's own moves ([`super::Special::Event`]), which
    /// [`Event::play_extra`] plays whole, parts and all; `None` leaves it refused.
    fn resolve_turn(
        &self,
        _v: &Variant,
        _pos: &Position,
        _written: &Notation,
    ) -> Option<Result<Move, Rejection>> {
        None
    }

    /// Whether `pos` stands between the parts of one of this event's turns in several
    /// parts (#13, #51, #102): a position no record shows, in which the turn's mover
    /// chooses a part. Other events that make such turns start none there
    /// (`events::turns`).
    fn between_parts(&self, _pos: &Position) -> bool {
        false
    }

    /// Writes one of this event's own moves in canonical notation, without a check mark.
    fn san(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        format!("{}{}", v.geometry.name(mv.from), v.geometry.name(mv.to))
    }

    /// Writes one of this event's own moves in long notation (`--to lan`), without a
    /// check mark.
    fn lan(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        self.san(v, pos, mv)
    }

    /// Runs before the piece on `victim` is captured; returns the square whose piece is
    /// captured instead (LK-2: a facing knight swaps in).
    fn before_capture(&self, _v: &Variant, _pos: &mut Position, _mv: &Move, victim: Sq) -> Sq {
        victim
    }

    /// Runs as `mv` captures the piece on `victim`, still on the board with its marks,
    /// once every running event's [`Event::before_capture`] has had its say (older #7:
    /// which man the opponent took, RVO-1, RVO-2).
    fn on_capture(&self, _v: &Variant, _pos: &mut Position, _mv: &Move, _victim: Sq) {}
}

/// The forms of event notation (`spec/notation.md` sections 3 and 7) that no orthodox
/// move takes: a move may take one only while an event that [`Event::reads`] it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `Qxf7K@g7`, `Rxd8Q@f7`: a piece of the letter (an ASCII byte) appears on the
    /// square as part of the move (#68 reads `K`).
    Appears(u8),
    /// `Rxe1@h1`, `Bxa6@b7`: the piece the move captured is put on the square; on the
    /// move's own landing square (`Ng5@g5`), the piece that lands falls into a pit (#9).
    CapturedTo,
    /// `/g1`: the knight that swaps in (#85).
    Swap,
    /// `->a8`: a push (#43) or a knight's direction (#85).
    Arrow,
    /// `Ke2-e4-e6-e8`: a move along a path of more than three squares.
    Path,
    /// `R@h8`: a whole move that drops a piece on the square.
    Drop,
    /// `@f7`: a whole move that turns the piece on the square to the mover's side.
    Convert,
    /// `Qxe5,Qxe6#`: one turn in several parts joined by commas.
    Turn,
    /// `O-O,R@a1+`, `e4,d4,P@e2`: a move, then after a comma a piece of the letter (an
    /// ASCII byte) that appears on the square once it is made (#1's ally, CA-7); also
    /// the placement written before the move (`N@g1,Kf8`), which #1 refuses.
    AppearsAfter(u8),
    /// `RBa4`: two piece letters, a piece and the one riding on it (#115's stacks).
    Stack,
    /// `Bx@d6`: a piece takes the one on the square without moving (#47's shot).
    Shot,
    /// `RFire@d7`: a piece fires at the square without moving (#46's catapult).
    Fire,
    /// `Ra@b1`: a piece with its origin written takes the own piece on the square onto
    /// itself (#46's load; `R@a2`, without the origin, is a [`Form::Drop`]).
    Load,
    /// `Ra7.5`, `Bef3.5`, `Rab1.0`: a piece stopping on a half square (#87).
    Half,
}

impl fmt::Display for Form {
    /// The form as diagnostics name it: how it is written, then what it says.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Form::Appears(letter) => write!(
                f,
                "`{}@` (a piece of that letter appearing on the square)",
                char::from(letter)
            ),
            Form::CapturedTo => f.write_str(
                "`@square` after a move (the captured piece put there, or the piece that lands there falling into a pit)",
            ),
            Form::Swap => f.write_str("`/square` (a knight swapping in)"),
            Form::Arrow => f.write_str("`->` (a line push or a knight facing)"),
            Form::Path => f.write_str("a path of more than three squares"),
            Form::Drop => f.write_str(
                "`X@square` as a whole move (a piece dropped on the square, or a rook loading the own piece there)",
            ),
            Form::Convert => {
                f.write_str("`@square` as a whole move (the piece there changing sides)")
            }
            Form::Turn => f.write_str("a turn in parts joined by commas"),
            Form::AppearsAfter(letter) => write!(
                f,
                "`,{}@` after a move (a piece of that letter appearing once the move is made)",
                char::from(letter)
            ),
            Form::Stack => {
                f.write_str("two piece letters (`RBa4`: a piece and the one riding on it)")
            }
            Form::Shot => f.write_str("`x@square` (a piece shooting the one on the square)"),
            Form::Fire => f.write_str("`Fire@square` (a piece firing at the square)"),
            Form::Load => f.write_str(
                "`X` with its origin and `@square` (a piece taking the own one on the square onto itself)",
            ),
            Form::Half => f.write_str(
                "a half square (`Ra7.5`, `Bef3.5`, `Rab1.0`: a piece standing on two or four squares)",
            ),
        }
    }
}

/// What a board picture shows of the running events beyond the pieces
/// ([`Event::overlay`]).
#[derive(Debug, Default)]
pub struct Overlay {
    /// Squares a piece may go on through (a passage): framed, `*` on a text board.
    pub doorways: Vec<Sq>,
    /// Pieces an event singles out (a known chosen pawn): ringed, `@` on a text board.
    pub singled_out: Vec<Sq>,
    /// Pieces that face a direction (a knight's, LK-1): an arrow on the piece.
    pub arrows: Vec<(Sq, Direction)>,
    /// Lines under a text board: `passage: c4 <-> f6, revealed (marked *)`.
    pub lines: Vec<String>,
    /// Whether the lines are for a board drawn in ASCII.
    pub ascii: bool,
}

/// Reads the record of one line of a game for an event whose choices a record may keep
/// secret: what each move tells of them, and where the record contradicts them (HP-8,
/// PR-2, PR-4). The replayer keeps one per running event and line.
pub trait Follower: Send {
    /// A copy for a variation that replaces the move at `ply`: what the moves before it
    /// told.
    fn fork(&self, ply: usize) -> Box<dyn Follower>;

    /// Reads a move that replayed, pushing what the record gets wrong to `out`; `false`
    /// when the line cannot go on (the record leaves out a choice the next moves need).
    fn follow(&mut self, v: &Variant, moved: &Moved<'_>, out: &mut Vec<Diagnostic>) -> bool;

    /// What the line told of the choices, for `--format json`: a key and its value.
    fn report(&self, _v: &Variant, _pos: &Position) -> Option<(&'static str, serde_json::Value)> {
        None
    }
}

/// A move that replayed, as a [`Follower`] reads it.
pub struct Moved<'a> {
    pub before: &'a Position,
    pub after: &'a Position,
    pub mv: &'a Move,
    pub written: &'a Notation,
    pub span: Span,
    /// Where the move stands, built only for a diagnostic.
    pub at: &'a dyn Fn() -> MoveRef,
    /// How many moves follow it in its line (for "the N moves after it are not checked").
    pub later: &'a dyn Fn() -> usize,
}

/// An event to start, with the choices its command gives (`[%event 5 c4 f6]`).
#[derive(Clone)]
pub struct EventStart {
    pub event: &'static dyn Event,
    pub choices: Vec<Choice>,
}

impl fmt::Debug for EventStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.event.label())?;
        for choice in &self.choices {
            write!(f, " {choice}")?;
        }
        Ok(())
    }
}

/// What a running event keeps in the position: its choices, what the record has told of
/// its secrets, its counters. The core stores it for the event and hashes what the
/// event says belongs to the position's identity ([`Event::state_key`]); only the event
/// reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventState {
    pub boards: [Bitboard; 2],
    pub words: [u16; 4],
}

/// Where a piece goes from its square ([`Event::reach`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// The squares it may move to when they are empty.
    pub quiet: Bitboard,
    /// The squares it attacks: it captures an enemy piece there and checks a king there.
    pub attacks: Bitboard,
}

/// A running event as a position holds it.
#[derive(Clone, Copy)]
pub struct Running {
    pub event: &'static dyn Event,
    /// The player who started it (EC-1), or `None` when it ran from the start.
    pub started_by: Option<Color>,
    /// The first of its [`Event::mark_layers`] among the position's mark layers.
    pub first_mark: u8,
}

impl PartialEq for Running {
    fn eq(&self, other: &Running) -> bool {
        self.event.number() == other.event.number() && self.started_by == other.started_by
    }
}

impl Eq for Running {}

impl fmt::Debug for Running {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} {}", self.event.label(), self.event.name())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::notation::MoveBody;
    use crate::rules::{Special, parse_fen, san};

    /// A toy event that uses every hook, to show the core calls them: pawns double-step
    /// from anywhere, kings cannot be checked, a king may pass (written `K->e2`, as a
    /// drop on its own square `K@e1`, or as a turn of king steps back to it `Kd2,Ke1`),
    /// a piece landing on d5 is put on d4, and captures are counted.
    struct Toy {
        captures: AtomicUsize,
    }

    static TOY: Toy = Toy {
        captures: AtomicUsize::new(0),
    };

    impl Event for Toy {
        fn info(&self) -> &'static EventInfo {
            &EventInfo {
                number: 999,
                name: "Toy",
                aliases: &[],
                types: &[],
                condition: Condition::NONE,
                rulings: &[],
                page: "",
            }
        }
        fn reads(&self, form: Form) -> bool {
            matches!(form, Form::Arrow | Form::Drop | Form::Turn)
        }
        fn may_double_step(&self, _: &Variant, _: &Position, _: Sq, _: Color) -> bool {
            true
        }
        fn can_be_checked(&self, _: &Variant, _: &Position, _: Sq, _: Color) -> bool {
            false
        }
        fn extra_moves(
            &self,
            v: &Variant,
            pos: &Position,
            from: Bitboard,
            _: Bitboard,
            out: &mut Vec<Move>,
        ) {
            for king in pos.kings(v, pos.turn) & from {
                out.push(Move {
                    piece: pos.piece_at(king).unwrap(),
                    from: king,
                    to: king,
                    captured: None,
                    promotion: None,
                    special: Special::Event {
                        number: 999,
                        data: 0,
                    },
                    faces: None,
                    swap: None,
                    returned: None,
                });
            }
        }
        fn after_landing(&self, v: &Variant, pos: &mut Position, mv: &Move) {
            let g = v.geometry;
            let (d5, d4) = (g.sq(3, 4).unwrap(), g.sq(3, 3).unwrap());
            if mv.to == d5 && pos.piece_at(d4).is_none() {
                let piece = pos.remove(d5).unwrap();
                pos.put(d4, piece);
            }
        }
        fn before_capture(&self, _: &Variant, _: &mut Position, _: &Move, victim: Sq) -> Sq {
            self.captures.fetch_add(1, Ordering::Relaxed);
            victim
        }
        fn resolve(
            &self,
            v: &Variant,
            pos: &Position,
            written: &PieceMove,
        ) -> Option<Result<Move, Rejection>> {
            (written.piece == Some('K') && written.arrow.is_some()).then(|| self.pass(v, pos))
        }
        fn resolve_turn(
            &self,
            v: &Variant,
            pos: &Position,
            written: &Notation,
        ) -> Option<Result<Move, Rejection>> {
            let g = v.geometry;
            let king = pos.kings(v, pos.turn).first()?;
            let ends_on_king = match &written.body {
                MoveBody::Placement(placed) => {
                    placed.piece == Some(b'K') && g.from_square(placed.square) == Some(king)
                }
                MoveBody::Turn(parts) => {
                    parts
                        .iter()
                        .all(|part| matches!(part, MoveBody::Piece(m) if m.piece == Some('K')))
                        && matches!(parts.last(), Some(MoveBody::Piece(last))
                    if g.from_square(last.targets.last()?.square) == Some(king))
                }
                _ => false,
            };
            Some(if ends_on_king {
                self.pass(v, pos)
            } else {
                Err(san::illegal(
                    "the toy reads only a king's pass".to_owned(),
                    None,
                ))
            })
        }
    }

    impl Toy {
        fn pass(&self, v: &Variant, pos: &Position) -> Result<Move, Rejection> {
            let mut moves = Vec::new();
            self.extra_moves(v, pos, v.geometry.all(), v.geometry.all(), &mut moves);
            Ok(moves[0])
        }
    }

    #[test]
    fn metadata_reads_as_words() {
        assert_eq!(
            ruling_ranges(&["HP-1", "HP-2", "HP-3", "EC-4"]),
            "HP-1..HP-3, EC-4"
        );
        assert_eq!(
            ruling_ranges(&["LK-9", "LK-10", "EC-8"]),
            "LK-9, LK-10, EC-8"
        );
        assert_eq!(ruling_ranges(&["PR-2", "PR-4"]), "PR-2, PR-4");
        let condition = Condition {
            pieces_each: &[('B', 2), ('K', 1)],
            one_of_each: &[],
            no_check: true,
            not_with: &[EventType::RoyalQueen],
            empty_on_every_rank: 0,
        };
        assert_eq!(
            condition.to_string(),
            "at least 2 bishops each; at least 1 king each; not with a Royal queen event; \
             starting it leaves nobody in check"
        );
        assert_eq!(Condition::NONE.to_string(), "none");
        let v = Variant::by_name("standard").unwrap();
        let one_bishop = parse_fen(v, "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1").unwrap();
        assert_eq!(
            condition.check_pieces(v, &one_bishop),
            Err("black has fewer than 2 bishops".to_owned())
        );
        let minor = Condition {
            one_of_each: &['N', 'B'],
            ..Condition::NONE
        };
        assert_eq!(minor.to_string(), "at least 1 knight or bishop each");
        assert_eq!(
            minor.check_pieces(v, &one_bishop),
            Err("black has no knight or bishop".to_owned())
        );
        let knight_against_bishop = parse_fen(v, "4kn2/8/8/8/8/8/8/2B1K3 w - - 0 1").unwrap();
        assert_eq!(minor.check_pieces(v, &knight_against_bishop), Ok(()));
    }

    fn written(token: &str) -> Notation {
        Notation::parse(token).unwrap()
    }

    #[test]
    fn forms_no_running_event_reads_are_refused_naming_the_events_that_do() {
        let v = Variant::by_name("event-chess").unwrap();
        let pos = parse_fen(v, "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let refused = |token: &str| {
            san::resolve(v, &pos, &written(token))
                .expect_err(token)
                .reason
        };
        let nowhere = "is allowed by no running event, and no event xpgn plays reads it";
        for (token, reason) in [
            (
                "Rxa8K@e4",
                "`K@` (a piece of that letter appearing on the square) belongs to event #68 Prince, which is not running here".to_owned(),
            ),
            (
                "Rxa8B@e4",
                "`B@` (a piece of that letter appearing on the square) belongs to event #1 Check for allies, which is not running here".to_owned(),
            ),
            (
                "Rxa8A@e4",
                format!("`A@` (a piece of that letter appearing on the square) {nowhere}"),
            ),
            (
                "O-O-O,N@b1",
                "`,N@` after a move (a piece of that letter appearing once the move is made) belongs to event #1 Check for allies, which is not running here".to_owned(),
            ),
            (
                "Rxa8@h1",
                "`@square` after a move (the captured piece put there, or the piece that lands there falling into a pit) belongs to events #126 Callback Orders, #3 Save the king!, #9 Pit Traps and #122 Swapping Knights, none of which is running here".to_owned(),
            ),
            (
                "Ra1-a3-a5-a7",
                "a path of more than three squares belongs to events #67 Emperor and #14 Chinese Checkers, neither of which is running here".to_owned(),
            ),
            (
                "R@h8",
                "`X@square` as a whole move (a piece dropped on the square, or a rook loading the own piece there) belongs to events #7 Revival and #46 Sacrificial Catapult, neither of which is running here".to_owned(),
            ),
            (
                "RFire@d7",
                "`Fire@square` (a piece firing at the square) belongs to event #46 Sacrificial Catapult, which is not running here".to_owned(),
            ),
            (
                "@a8#",
                "`@square` as a whole move (the piece there changing sides) belongs to event #16 Spies, which is not running here".to_owned(),
            ),
            (
                "Ra2,Ra3",
                "a turn in parts joined by commas belongs to events #13 Pawn March, #51 Monster Queen, #102 Running kings, #23 Hungry horses and #74 Army Movement, none of which is running here".to_owned(),
            ),
            (
                "Rxa8/b8",
                "`/square` (a knight swapping in) belongs to event #85 Loyal Knights, which is not running here".to_owned(),
            ),
        ] {
            assert_eq!(refused(token), reason);
        }
        let help = san::resolve(v, &pos, &written("R@h8")).unwrap_err().help;
        assert!(help.is_some_and(|h| h.starts_with("closest legal moves")));
    }

    /// A toy event that keeps state the way a plug-in does: a count of captures per
    /// player in its slot, a mark on every piece that has captured (which travels with
    /// it), its state in the FEN and on the board.
    struct Tally;

    static TALLY: Tally = Tally;

    impl Event for Tally {
        fn info(&self) -> &'static EventInfo {
            &EventInfo {
                number: 998,
                name: "Tally",
                aliases: &[],
                types: &[],
                condition: Condition::NONE,
                rulings: &[],
                page: "",
            }
        }
        fn mark_layers(&self) -> usize {
            1
        }
        fn state_key(&self, state: &EventState) -> u64 {
            u64::from(state.words[0]) << 32 | u64::from(state.words[1])
        }
        fn after_landing(&self, _: &Variant, pos: &mut Position, mv: &Move) {
            if mv.captured.is_some() {
                let mut state = *pos.event_state(998).unwrap();
                state.words[mv.piece.color.index()] += 1;
                pos.set_event_state(998, state);
                let layer = pos.mark_layer(998, 0).unwrap();
                pos.set_mark(layer, mv.to, true);
            }
        }
        fn write_fen(&self, _: &Variant, pos: &Position) -> Vec<String> {
            let state = pos.event_state(998).unwrap();
            vec![state.words[0].to_string(), state.words[1].to_string()]
        }
        fn overlay(&self, _: &Variant, pos: &Position, out: &mut Overlay) {
            let layer = pos.mark_layer(998, 0).unwrap();
            out.singled_out.extend(pos.marked(layer));
            out.lines.push(format!(
                "tally: {:?}",
                &pos.event_state(998).unwrap().words[..2]
            ));
        }
    }

    #[test]
    fn an_event_keeps_its_state_in_its_slot_and_its_marks_on_pieces() {
        let v = Variant::by_name("event-chess").unwrap();
        let mut pos = parse_fen(v, "4k3/8/8/5p2/4P3/8/8/4K3 w - - 0 1").unwrap();
        pos.start_event(&TOY, None).unwrap();
        pos.start_event(&TALLY, Some(Color::White)).unwrap();
        assert_eq!(pos.mark_layer(998, 0), Some(0), "the toy keeps no marks");
        let before = pos.key(v);
        let exf5 = san::resolve(v, &pos, &written("exf5")).unwrap();
        v.play(&mut pos, &exf5);
        assert_eq!(pos.event_state(998).unwrap().words[..2], [1, 0]);
        assert_ne!(pos.key(v), before);
        let king = san::resolve(v, &pos, &written("Kd7")).unwrap();
        v.play(&mut pos, &king);
        let f6 = san::resolve(v, &pos, &written("f6")).unwrap();
        v.play(&mut pos, &f6);
        let g = v.geometry;
        let layer = pos.mark_layer(998, 0).unwrap();
        assert_eq!(
            pos.marked(layer),
            g.sq(5, 5).unwrap().bit(),
            "the mark went with the pawn from f5 to f6"
        );
        let fen = crate::rules::write_fen(v, &pos);
        assert!(fen.ends_with("events(999-;998w:1,0)"), "{fen}");
        let board = crate::board_view::text_board(v, &pos, None, true);
        assert!(board.contains("tally: [1, 0]"), "{board}");
        assert!(
            board.contains("@P"),
            "the marked pawn is singled out: {board}"
        );
    }

    #[test]
    fn the_core_calls_every_hook_of_a_running_event() {
        let v = Variant::by_name("standard").unwrap();
        // White: king e1, pawn e3; black: king e8, rook a1 giving check along the rank.
        let mut pos = parse_fen(v, "4k3/8/8/8/8/4P3/8/r3K3 w - - 0 1").unwrap();
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        assert_eq!(moves.len(), 3, "in check: Kd2, Ke2, Kf2 only");

        let before = pos.key(v);
        pos.start_event(&TOY, None).unwrap();
        assert_ne!(
            pos.key(v),
            before,
            "a running event is part of the position"
        );
        assert!(!pos.is_check(v), "kings cannot be checked");
        v.legal_moves(&pos, &mut moves);
        let sans: Vec<String> = moves.iter().map(|m| san::san_plain(v, &pos, m)).collect();
        assert!(
            sans.contains(&"e5".to_owned()),
            "double step from e3: {sans:?}"
        );
        assert!(
            sans.contains(&"Kd1".to_owned()),
            "the king may stay attacked"
        );
        assert!(
            sans.contains(&"e1e1".to_owned()),
            "the extra move, written by the hook"
        );
        // 5 king steps + e4 + e5 + the pass; no castling.
        assert_eq!(moves.len(), 8);

        let pass = san::resolve(v, &pos, &written("K->e2")).unwrap();
        assert_eq!(
            pass.special,
            Special::Event {
                number: 999,
                data: 0
            }
        );
        let mut after = pos.clone();
        v.play(&mut after, &pass);
        assert_eq!(after.turn, Color::Black);
        // A drop and a turn in two parts, forms the event reads, reach its hook.
        for token in ["K@e1", "Kd2,Ke1", "Kf2,Ke1+"] {
            assert_eq!(san::resolve(v, &pos, &written(token)), Ok(pass), "{token}");
        }
        let refused = san::resolve(v, &pos, &written("Kd2,Kd1")).unwrap_err();
        assert_eq!(refused.reason, "the toy reads only a king's pass");
        // A form it does not read is refused before any event sees it.
        let refused = san::resolve(v, &pos, &written("@e1")).unwrap_err();
        assert_eq!(
            refused.reason,
            "`@square` as a whole move (the piece there changing sides) belongs to event #16 Spies, which is not running here"
        );

        let e5 = san::resolve(v, &pos, &written("e5")).unwrap();
        v.play(&mut pos, &e5);
        let rook_takes = san::resolve(v, &pos, &written("Rxe1")).unwrap();
        // Resolution judged legality by playing on copies, which calls hooks too.
        let counted = TOY.captures.load(Ordering::Relaxed);
        v.play(&mut pos, &rook_takes);
        assert_eq!(TOY.captures.load(Ordering::Relaxed), counted + 1);
        let g = v.geometry;
        // A pawn reaching d5 is put on d4 by the landing hook.
        let mut pos = parse_fen(v, "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1").unwrap();
        pos.start_event(&TOY, None).unwrap();
        let d2d4 = san::resolve(v, &pos, &written("d4")).unwrap();
        v.play(&mut pos, &d2d4);
        let black_king = san::resolve(v, &pos, &written("Kd8")).unwrap();
        v.play(&mut pos, &black_king);
        let d5 = san::resolve(v, &pos, &written("d5")).unwrap();
        v.play(&mut pos, &d5);
        assert!(pos.piece_at(g.sq(3, 3).unwrap()).is_some(), "back on d4");
        assert!(pos.piece_at(g.sq(3, 4).unwrap()).is_none());
    }
}
