//! Games of orthodox chess and Chess960 replayed on cozy-chess's 64-square board: nearly
//! every game a user checks, at the speed of a dedicated move generator.
//!
//! This replay only confirms: it takes a game whose every move, in the main line and in
//! its variations, is plain SAN naming exactly one legal move, with every written check
//! mark right and nothing in it that the rules core reads besides moves (no event command,
//! no null move, no unreadable token). Anything else makes it give up (`None`), and the
//! rules core replays the game from its start: that replay finds and explains every
//! problem. What the two replays conclude of a game they both take (the plies, how the
//! game ends) is the same: `tests::both_replays_agree_on_the_fixtures` and
//! `..._on_the_corpus` hold them to it.

use std::cell::Cell;
use std::sync::LazyLock;

use compact_str::CompactString;

use cozy_chess::{
    BitBoard, Board, Color as Side, File, Move, Piece, Rank, Square as BoardSquare,
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_pawn_quiets,
    get_rook_moves,
};

#[cfg(feature = "cli")]
use super::orthodox_start;
use super::variation_follows;
use crate::command::mentions_event;
use crate::notation::{CheckMark, Hint, MoveBody, Notation, PieceMove, Separator, Square};
use crate::pgn::Item;
#[cfg(feature = "cli")]
use crate::pgn::{Game, MoveNumber, MoveSink, ParsedGame};
use crate::replay::{MainLine, MoveDetail, PlayedMove, Recording};
#[cfg(feature = "cli")]
use crate::rules::Variants;
use crate::rules::ending::Ending;
use crate::rules::san::Gives;
use crate::rules::{Color, Position, Variant, write_fen};
use crate::span::{Source, Span, Spanned};

/// What the replay of a whole game concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// Main-line plies.
    pub plies: usize,
    pub ending: Option<Ending>,
}

/// Replays a game of orthodox chess from the start position; `None` where the rules core
/// must replay it (see the module's documentation).
pub(super) fn replay(
    mut board: Board,
    items: &[Spanned<Item>],
    mut recorder: Option<&mut Recorder<'_>>,
) -> Option<Replayed> {
    let mut keys = SPARE_KEYS.take();
    keys.clear();
    keys.reserve(items.len());
    if let Some(recorder) = recorder.as_deref_mut()
        && recorder.keeps_every_move()
    {
        // A move recorded for every item, nearly: grown once, not doubling.
        recorder.moves.reserve(items.len());
    }
    let halfmoves = u32::from(board.halfmove_clock());
    let plies = line(
        items,
        &mut board,
        Some(&mut keys),
        (0, halfmoves),
        &mut Vec::new(),
        recorder,
    );
    let replayed = plies.map(|plies| Replayed {
        plies,
        ending: ending(&board, &keys),
    });
    if keys.capacity() <= MAX_SPARE_KEYS {
        SPARE_KEYS.set(keys);
    }
    replayed
}

thread_local! {
    /// The repetition keys of the last game replayed on this thread, kept for the next
    /// one: a list of its own for each game was an allocation a game.
    static SPARE_KEYS: Cell<Vec<u64>> = const { Cell::new(Vec::new()) };
}

/// The most keys kept for the next game (256 KB): a game of more plies is rare, and
/// keeps its list to itself.
const MAX_SPARE_KEYS: usize = 1 << 15;

/// Games of orthodox chess replayed as the reader reads them ([`MoveSink`]), for
/// `check` and `lint`: each move is resolved and played as soon as it is read, and the
/// game tree never holds it (what a pgn-reader visitor does). A game this replay cannot
/// take the way [`replay`] takes it from the tree makes it give up, and the caller reads
/// that game's text again into a tree. [`replay`] and this conclude the same of every game
/// both take (`tests::playing_as_read_agrees_with_the_tree_...`).
#[cfg(feature = "cli")]
pub struct PlayAsRead<'v> {
    /// What the games are replayed under, which starts no event (as `check_game` chooses
    /// each game's variant and start from its tags).
    variants: &'v Variants,
    /// Whether the default variant is orthodox chess, from its usual start.
    default_is_orthodox: bool,
    /// The variant of the game being read.
    variant: &'static Variant,
    /// The ply of the game's first move, counted from 0 for White's first move of a game:
    /// move numbers are judged from it.
    first_ply: u32,
    board: Board,
    /// The position before the last move of the line being read, kept where a variation
    /// may replace that move (`has_before`). Not an `Option`: a board written into one
    /// was built on the stack first and copied in, a stall for each move.
    before: Board,
    has_before: bool,
    /// The lines outside the open variations: each one's position, the position before
    /// the move the variation replaces, and its count.
    outer: Vec<(Board, Board, LineCount)>,
    line: LineCount,
    /// Repetition keys of the main line's positions before each of its moves.
    keys: Vec<u64>,
    plies: usize,
    state: Playing,
    /// Whether moves and move numbers are judged as `lint` writes them down
    /// ([`Spellings`]); `check` needs neither.
    spelling: bool,
    /// The variations leading to the line being read, as [`PlayedMove::variation`] has
    /// them; kept only with `spelling`.
    path: Vec<(usize, usize)>,
    /// The canonical SAN of the move being played, before its mark where
    /// [`PlayAsRead::spell`] did not find it written so, then with it where
    /// [`PlayAsRead::respell`] spelled it (`respelled`).
    san: Spelling,
    respelled: bool,
    spellings: Spellings,
    /// What each game read concluded, in order: `None` where its moves are in the tree.
    pub results: Vec<Option<PlayedAsRead>>,
    /// Whether a game gave up since this was last cleared: its moves are neither
    /// played nor in the tree.
    pub gave_up: bool,
}

/// What the replay as read concluded of a game.
#[cfg(feature = "cli")]
#[derive(Clone, Debug)]
pub struct PlayedAsRead {
    pub variant: &'static Variant,
    pub replayed: Replayed,
    /// What `lint` finds in the writing of its moves, where anything
    /// ([`PlayAsRead::spelling`]).
    pub spellings: Option<Box<Spellings>>,
}

#[cfg(feature = "cli")]
impl PartialEq for PlayedAsRead {
    fn eq(&self, other: &PlayedAsRead) -> bool {
        // Variants are built once and never compared field by field.
        std::ptr::eq(self.variant, other.variant)
            && self.replayed == other.replayed
            && self.spellings == other.spellings
    }
}

/// What `lint` needs of the moves of a game played as read: the moves written otherwise
/// than as their canonical SAN, and the move numbers written otherwise than as PGN writes
/// them, which the tree's style walk finds (`lint::style`).
#[cfg(feature = "cli")]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spellings {
    /// Each such move as written, and as recorded ([`Recording::Respellings`]).
    pub moves: Vec<(Notation, PlayedMove)>,
    /// Each such number, where it is written, and the ply (from 0) of the move it numbers.
    pub numbers: Vec<(MoveNumber, Span, u32)>,
}

#[cfg(feature = "cli")]
impl Spellings {
    fn is_empty(&self) -> bool {
        self.moves.is_empty() && self.numbers.is_empty()
    }
}

/// Where a line being read stands, for [`PlayAsRead::spelling`].
#[cfg(feature = "cli")]
#[derive(Clone, Copy, Default)]
struct LineCount {
    /// Plies before the line's next move, counted from the game's start.
    ply: usize,
    /// Variations read since the line's last move.
    variations_here: usize,
    /// The move number read last, waiting for the move it numbers.
    number: Option<(MoveNumber, Span)>,
}

#[cfg(feature = "cli")]
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Playing {
    /// The moves of the game being read are kept in the tree.
    #[default]
    Off,
    On,
    GaveUp,
}

#[cfg(feature = "cli")]
impl<'v> PlayAsRead<'v> {
    /// A replay as read of the games `variants` replay on the 64-square board, which
    /// must start no event.
    pub fn new(variants: &'v Variants) -> PlayAsRead<'v> {
        PlayAsRead {
            variants,
            default_is_orthodox: variants.default.slug == "standard" && !variants.default.chess960,
            variant: variants.default,
            first_ply: 0,
            board: Board::default(),
            before: Board::default(),
            has_before: false,
            outer: Vec::new(),
            line: LineCount::default(),
            keys: Vec::new(),
            plies: 0,
            state: Playing::Off,
            spelling: false,
            path: Vec::new(),
            san: Spelling::new(),
            respelled: false,
            spellings: Spellings::default(),
            results: Vec::new(),
            gave_up: false,
        }
    }

    /// [`PlayAsRead::new`] that also writes down what `lint` finds in how moves and move
    /// numbers are written.
    pub fn spelling(variants: &'v Variants) -> PlayAsRead<'v> {
        PlayAsRead {
            spelling: true,
            ..PlayAsRead::new(variants)
        }
    }

    /// [`PlayAsRead::play_as`] spelling (`lint`, `fmt`), out of line.
    #[inline(never)]
    fn play_spelling(
        &mut self,
        notation: &Notation,
        written: &str,
        span: Span,
        variation_may_follow: bool,
    ) {
        self.play_as::<true>(notation, written, span, variation_may_follow);
    }

    /// [`MoveSink::play`], spelling each move where `SPELLING`.
    #[inline(always)]
    fn play_as<const SPELLING: bool>(
        &mut self,
        notation: &Notation,
        written: &str,
        span: Span,
        variation_may_follow: bool,
    ) {
        if self.state != Playing::On {
            return;
        }
        let Some(mv) = resolve(&self.board, notation) else {
            return self.give_up();
        };
        if self.outer.is_empty() {
            self.keys.push(key(&self.board));
            self.plies += 1;
        }
        self.respelled = false;
        let spelled = SPELLING.then(|| self.spell(mv, notation, written));
        self.has_before = variation_may_follow;
        if variation_may_follow {
            self.before = self.board.clone();
        }
        self.board.play_unchecked(mv);
        let mark = match spelled {
            Some(as_written) => {
                let mark = mark_of(gives(&self.board));
                if as_written.is_none() || notation.check != mark {
                    self.respell(as_written, mark, notation, (written, span));
                }
                mark
            }
            None if notation.check.is_some() => mark_of(gives(&self.board)),
            None => return,
        };
        if notation.check.is_some() && notation.check != mark {
            self.give_up();
        }
    }

    /// With `spelling`, the canonical SAN of the move played last, written as `written`,
    /// where the game is still played: `written` itself where it is that already.
    pub fn spelled_last<'a>(&'a self, written: &'a str) -> Option<&'a str> {
        if self.state != Playing::On || !self.spelling {
            return None;
        }
        Some(if self.respelled {
            self.san.as_str()
        } else {
            written
        })
    }

    /// With `spelling`, before `mv` is played: judges the move number written before it
    /// and spells it as the recorder does (`Recorder::spell`): where the written text is
    /// canonical SAN up to its check mark, how many bytes that takes; otherwise `None`,
    /// and the canonical SAN before its mark is kept in `san`.
    #[inline(always)]
    fn spell(&mut self, mv: Move, notation: &Notation, written: &str) -> Option<usize> {
        // Numbered from the game's first move, which a FEN may set later than the first.
        let ply = u32::try_from(self.line.ply)
            .unwrap_or(u32::MAX)
            .saturating_add(self.first_ply);
        if let Some((number, at)) = self.line.number.take()
            && number != MoveNumber::of_ply(ply)
        {
            self.spellings.numbers.push((number, at, ply));
        }
        self.line.ply += 1;
        self.line.variations_here = 0;
        let as_written = canonical_before_mark(&self.board, mv, notation, written.as_bytes());
        if as_written.is_none() {
            self.san = san(&self.board, mv, names_no_origin(notation));
        }
        as_written
    }

    /// With `spelling`, after a move is played that [`PlayAsRead::spell`] did not find
    /// written as its canonical SAN, or whose mark is not the one of what it gives
    /// (`mark`): the move as `Recorder::record` writes down a respelling, where its text
    /// is not its canonical SAN.
    #[inline(never)]
    fn respell(
        &mut self,
        as_written: Option<usize>,
        mark: Option<CheckMark>,
        notation: &Notation,
        (written, span): (&str, Span),
    ) {
        let mut san = match as_written {
            Some(body) => {
                let mut san = Spelling::new();
                written.as_bytes()[..body]
                    .iter()
                    .for_each(|&byte| san.push(char::from(byte)));
                san
            }
            None => self.san,
        };
        if let Some(mark) = mark {
            san.push(char::from(mark_byte(mark)));
        }
        self.san = san;
        self.respelled = true;
        if same_spelling(written.as_bytes(), san.as_bytes()) {
            return;
        }
        let played = PlayedMove {
            span,
            ply: self.line.ply,
            variation: self.path.clone(),
            san: san.as_str().into(),
            detail: None,
        };
        self.spellings.moves.push((notation.clone(), played));
    }
}

#[cfg(feature = "cli")]
impl MoveSink for PlayAsRead<'_> {
    fn begin(&mut self, game: &Game) -> bool {
        // Nearly every game names neither a variant nor a position: the usual start of
        // the default, found without building and moving a board through calls.
        let plain = self.default_is_orthodox
            && !game
                .tags
                .iter()
                .any(|tag| matches!(&*tag.name.node, "Variant" | "FEN"));
        if plain {
            (self.variant, self.first_ply) = (self.variants.default, 0);
            self.board = start();
        } else {
            // Any other start or variant is the rules core's.
            let Some((variant, board, first_ply)) = orthodox_start(game, self.variants) else {
                self.state = Playing::Off;
                return false;
            };
            (self.variant, self.board, self.first_ply) = (variant, board, first_ply);
        }
        self.has_before = false;
        self.outer.clear();
        self.line = LineCount::default();
        self.keys.clear();
        self.plies = 0;
        if self.spelling {
            self.path.clear();
            self.spellings = Spellings::default();
        }
        self.state = Playing::On;
        true
    }

    // Two copies of a move's play: `check`'s holds no spelling, so that the spelling
    // inlined into the other (`lint`'s and `fmt`'s) costs `check` nothing.
    fn play(&mut self, notation: &Notation, written: &str, span: Span, variation_may_follow: bool) {
        if self.spelling {
            self.play_spelling(notation, written, span, variation_may_follow);
        } else {
            self.play_as::<false>(notation, written, span, variation_may_follow);
        }
    }

    fn spells(&self) -> bool {
        self.spelling
    }

    // `lint`, which spells, reads comments and NAGs in the tree for its rules; `check`
    // reads only the tags and the result of a game played here.
    fn keeps_items(&self) -> bool {
        self.spelling
    }

    fn number(&mut self, number: MoveNumber, span: Span) {
        self.line.number = Some((number, span));
    }

    fn open_variation(&mut self) {
        if self.state != Playing::On {
            return;
        }
        // A variation replaces the move before it; at a line's start there is none.
        if !std::mem::take(&mut self.has_before) {
            return self.give_up();
        }
        let line = std::mem::replace(&mut self.board, self.before.clone());
        let mut count = self.line;
        if self.spelling {
            count.variations_here += 1;
            self.path.push((count.ply, count.variations_here));
        }
        self.outer.push((line, self.before.clone(), count));
        // The variation's first move plays the ply of the move it replaces.
        self.line = LineCount {
            ply: count.ply.saturating_sub(1),
            ..LineCount::default()
        };
    }

    fn close_variation(&mut self) {
        if self.state != Playing::On {
            return;
        }
        match self.outer.pop() {
            Some((board, before, count)) => {
                (self.board, self.before, self.line) = (board, before, count);
                // Another variation may replace the same move.
                self.has_before = true;
                self.path.pop();
            }
            None => self.give_up(),
        }
    }

    fn give_up(&mut self) {
        if self.state == Playing::On {
            self.state = Playing::GaveUp;
        }
    }

    fn finish_game(&mut self, _: &ParsedGame) {
        let result = match self.state {
            Playing::On if self.outer.is_empty() => Some(PlayedAsRead {
                variant: self.variant,
                replayed: Replayed {
                    plies: self.plies,
                    ending: ending(&self.board, &self.keys),
                },
                spellings: (!self.spellings.is_empty())
                    .then(|| Box::new(std::mem::take(&mut self.spellings))),
            }),
            Playing::Off => None,
            Playing::On | Playing::GaveUp => {
                self.gave_up = true;
                None
            }
        };
        self.results.push(result);
        self.state = Playing::Off;
    }
}

/// The start position of orthodox chess.
pub(super) fn start() -> Board {
    // Built once: setting up a board costs as much as replaying a few moves on it.
    static START: LazyLock<Board> = LazyLock::new(Board::default);
    START.clone()
}

/// The position the rules core read from a game's FEN, on the 64-square board; `None`
/// where cozy-chess would read it otherwise: castling rights it does not accept, an
/// en-passant square no pawn just passed, clocks out of its range, or, outside Chess960,
/// castling from anywhere but the king's and rooks' usual squares.
pub(super) fn board_from(v: &Variant, pos: &Position) -> Option<Board> {
    let g = v.geometry;
    let fen = write_fen(v, pos);
    let mut fields = fen.split(' ');
    let (placement, side) = (fields.next()?, fields.next()?);
    // Rights by their rooks' files (Shredder-FEN), as the core keeps them.
    let mut castling: String = pos
        .castling
        .map(|sq| {
            let file = char::from(b'a' + g.file(sq));
            if g.rank(sq) == 0 {
                file.to_ascii_uppercase()
            } else {
                file
            }
        })
        .collect();
    if castling.is_empty() {
        castling.push('-');
    }
    let ep = pos.ep.map_or_else(|| "-".to_owned(), |sq| g.name(sq));
    let (halfmoves, fullmoves) = (pos.halfmoves, pos.fullmoves);
    let board = Board::from_fen(
        &format!("{placement} {side} {castling} {ep} {halfmoves} {fullmoves}"),
        true,
    )
    .ok()?;
    (v.chess960 || usual_castling(&board)).then_some(board)
}

/// Whether every castling right is a king on its e-file square with a rook on its corner.
fn usual_castling(board: &Board) -> bool {
    [Side::White, Side::Black].into_iter().all(|side| {
        let rights = board.castle_rights(side);
        let king_home =
            board.king(side) == BoardSquare::new(File::E, Rank::First.relative_to(side));
        (rights.short.is_none() && rights.long.is_none())
            || (king_home
                && rights.short.is_none_or(|file| file == File::H)
                && rights.long.is_none_or(|file| file == File::A))
    })
}

/// Replays one line on `board`, pushing the repetition key of every position before a
/// move onto `keys` (the main line's); the number of plies it holds. `(ply, halfmoves)`:
/// the plies before the line's first move, and the halfmove clock of `board` (which
/// cozy-chess stops at 100). `path` leads to the line as in the rules core's records.
fn line(
    items: &[Spanned<Item>],
    board: &mut Board,
    mut keys: Option<&mut Vec<u64>>,
    (mut ply, mut halfmoves): (usize, u32),
    path: &mut Vec<(usize, usize)>,
    mut recorder: Option<&mut Recorder<'_>>,
) -> Option<usize> {
    let mut before: Option<(Board, u32)> = None;
    let mut plies = 0;
    let mut variations_here = 0;
    let counts_halfmoves = recorder.as_deref().is_some_and(Recorder::counts_halfmoves);
    for (index, item) in items.iter().enumerate() {
        match &item.node {
            Item::Move(notation) => {
                let mv = resolve(board, notation)?;
                ply += 1;
                variations_here = 0;
                if let Some(keys) = keys.as_deref_mut() {
                    keys.push(key(board));
                }
                // Written from the position before the move; the mark and the FEN after.
                if let Some(recorder) = recorder.as_deref_mut() {
                    recorder.spell(board, mv, notation, item.span);
                }
                // Kept only where a variation replaces this move, as the rules core does.
                before = variation_follows(&items[index + 1..]).then(|| (board.clone(), halfmoves));
                if counts_halfmoves {
                    halfmoves = if board.piece_on(mv.from) == Some(Piece::Pawn) || takes(board, mv)
                    {
                        0
                    } else {
                        halfmoves + 1
                    };
                }
                board.play_unchecked(mv);
                if notation.check.is_some() || recorder.is_some() {
                    let gives = gives(board);
                    if let Some(mark) = notation.check
                        && mark_of(gives) != Some(mark)
                    {
                        return None;
                    }
                    if let Some(recorder) = recorder.as_deref_mut() {
                        let at = (item.span, ply, path.as_slice());
                        recorder.record((board, halfmoves), gives, notation.check, at);
                    }
                }
                plies += 1;
            }
            Item::Variation(variation) => {
                let (mut start, start_halfmoves) = before.clone()?;
                variations_here += 1;
                path.push((ply, variations_here));
                line(
                    variation,
                    &mut start,
                    None,
                    (ply - 1, start_halfmoves),
                    path,
                    recorder.as_deref_mut().filter(|r| r.records_variations()),
                )?;
                path.pop();
            }
            // Left to the rules core, which the JSON report counts on
            // (`Replay::main_line_starts_no_event`).
            Item::Comment(comment) if mentions_event(&comment.text) => return None,
            Item::Unreadable(_) | Item::EventLine(_) => return None,
            _ => {}
        }
    }
    Some(plies)
}

/// Whether `notation` is a move written without an origin: resolved, it is the one move
/// of its kind of piece to its square, so its SAN needs no disambiguation.
fn names_no_origin(notation: &Notation) -> bool {
    matches!(&notation.body, MoveBody::Piece(m) if m.hint.is_none())
}

/// The one legal move `notation` names; `None` for any other form, or for a move that is
/// illegal or ambiguous.
fn resolve(board: &Board, notation: &Notation) -> Option<Move> {
    match &notation.body {
        MoveBody::Piece(m) => piece_move(board, m),
        MoveBody::Castle(castle) => castling(board, castle.long),
        _ => None,
    }
}

/// A piece or pawn move as the rules core reads SAN (`san::request`): the letter names
/// the piece (none, or `P`, a pawn), a hint narrows the origins, a pawn written with
/// neither letter nor hint moves along its file, and the capture sign is not judged.
fn piece_move(board: &Board, m: &PieceMove) -> Option<Move> {
    if m.placed.is_some() || m.arrow.is_some() || m.swap.is_some() {
        return None;
    }
    let [target] = m.targets.as_slice() else {
        return None;
    };
    if target.separator == Separator::Dash {
        return None;
    }
    let to = board_square(target.square)?;
    let us = board.side_to_move();
    // A king onto its own rook is how cozy-chess spells castling, which `Kg1` never means.
    if board.colors(us).has(to) {
        return None;
    }
    let piece = match m.piece {
        None | Some('P') => Piece::Pawn,
        Some(letter) => piece_of(u8::try_from(letter).ok()?)?,
    };
    let promotion = match target.promotion {
        None => None,
        Some(promotion) => match piece_of(promotion.piece)? {
            Piece::King | Piece::Pawn => return None,
            piece => Some(piece),
        },
    };
    let mut from = board.colored_pieces(us, piece);
    match m.hint {
        Some(Hint::File(file)) => from &= File::try_index(usize::from(file))?.bitboard(),
        Some(Hint::Rank(rank)) => from &= Rank::try_index(usize::from(rank))?.bitboard(),
        None if m.piece.is_none() => from &= to.file().bitboard(),
        None => {}
    }
    // The pieces that could reach `to` at all, each then judged by cozy-chess: cheaper
    // than generating their moves, and nearly always one.
    let occupied = board.occupied();
    from &= match piece {
        Piece::Pawn => get_pawn_attacks(to, !us) | to.file().bitboard(),
        Piece::Knight => get_knight_moves(to),
        Piece::Bishop => get_bishop_moves(to, occupied),
        Piece::Rook => get_rook_moves(to, occupied),
        Piece::Queen => get_bishop_moves(to, occupied) | get_rook_moves(to, occupied),
        Piece::King => get_king_moves(to),
    };
    // With the king out of check, a piece that shields nothing and makes a move of its
    // kind onto a square that is not its own side's moves legally: cheaper than cozy-chess
    // judging each move in full, which it still does for kings, for en passant (which
    // may uncover the king along the rank) and in check.
    let free = board.checkers().is_empty();
    let pinned = board.pinned();
    let last_rank = to.rank() == Rank::Eighth.relative_to(us);
    let takes = board.colors(!us).has(to);
    let en_passant = board.en_passant().is_some_and(|file| to.file() == file);
    let is_legal = |mv: Move| {
        if !free || pinned.has(mv.from) {
            return board.is_legal(mv);
        }
        match piece {
            Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen => promotion.is_none(),
            Piece::Pawn if last_rank != promotion.is_some() => false,
            Piece::Pawn if takes => get_pawn_attacks(mv.from, us).has(to),
            Piece::Pawn if en_passant => board.is_legal(mv),
            Piece::Pawn => get_pawn_quiets(mv.from, us, occupied).has(to),
            Piece::King => board.is_legal(mv),
        }
    };
    let mut found = None;
    for from in from {
        let mv = Move {
            from,
            to,
            promotion,
        };
        if is_legal(mv) && found.replace(mv).is_some() {
            return None;
        }
    }
    found
}

fn castling(board: &Board, long: bool) -> Option<Move> {
    let us = board.side_to_move();
    let rights = board.castle_rights(us);
    let rook = if long { rights.long } else { rights.short }?;
    let mv = Move {
        from: board.king(us),
        to: BoardSquare::new(rook, Rank::First.relative_to(us)),
        promotion: None,
    };
    board.is_legal(mv).then_some(mv)
}

fn piece_of(letter: u8) -> Option<Piece> {
    Some(match letter {
        b'P' => Piece::Pawn,
        b'N' => Piece::Knight,
        b'B' => Piece::Bishop,
        b'R' => Piece::Rook,
        b'Q' => Piece::Queen,
        b'K' => Piece::King,
        _ => return None,
    })
}

fn board_square(square: Square) -> Option<BoardSquare> {
    Some(BoardSquare::new(
        File::try_index(usize::from(square.file))?,
        Rank::try_index(usize::from(square.rank))?,
    ))
}

fn has_legal_move(board: &Board) -> bool {
    if board.checkers().is_empty() {
        return board.generate_moves(|_| true);
    }
    // In check, a step of the king first, a square at a time: most checks are answered
    // so, and cozy-chess judges every square the king could step to before it hands any
    // on. (Out of check, another piece nearly always moves, and is found first.)
    let us = board.side_to_move();
    let king = board.king(us);
    let steps = get_king_moves(king) & !board.colors(us);
    steps.into_iter().any(|to| {
        board.is_legal(Move {
            from: king,
            to,
            promotion: None,
        })
    }) || board.generate_moves_for(!king.bitboard(), |_| true)
}

/// What the move just played gives the side now to move.
fn gives(after: &Board) -> Gives {
    if after.checkers().is_empty() {
        Gives::Nothing
    } else if has_legal_move(after) {
        Gives::Check
    } else {
        Gives::Mate
    }
}

/// The mark SAN writes for what a move gives (a missing mark is no finding).
fn mark_of(gives: Gives) -> Option<CheckMark> {
    match gives {
        Gives::Nothing => None,
        Gives::Check => Some(CheckMark::Check),
        Gives::Mate => Some(CheckMark::Mate),
    }
}

/// The position's identity for repetition, as `Position::key` takes it: pieces, side to
/// move, castling rights, and the en-passant square only where a pawn stands ready to
/// take there (cozy-chess keeps it after every double step).
fn key(board: &Board) -> u64 {
    let Some(file) = board.en_passant() else {
        return board.hash();
    };
    let us = board.side_to_move();
    let square = BoardSquare::new(file, Rank::Sixth.relative_to(us));
    let takers = get_pawn_attacks(square, !us) & board.colored_pieces(us, Piece::Pawn);
    if takers.is_empty() {
        board.hash_without_ep()
    } else {
        board.hash()
    }
}

/// How the final position ends the game: `rules::ending::ending` for orthodox chess.
fn ending(board: &Board, keys: &[u64]) -> Option<Ending> {
    if !has_legal_move(board) {
        return Some(if board.checkers().is_empty() {
            Ending::Stalemate
        } else {
            Ending::Checkmate {
                winner: match board.side_to_move() {
                    Side::White => Color::Black,
                    Side::Black => Color::White,
                },
            }
        });
    }
    if insufficient_material(board) {
        return Some(Ending::InsufficientMaterial);
    }
    let key = key(board);
    if keys.iter().filter(|&&k| k == key).count() >= 2 {
        return Some(Ending::ThreefoldRepetition);
    }
    (board.halfmove_clock() >= 100).then_some(Ending::FiftyMoves)
}

/// Kings with at most one minor piece, or with bishops all on one shade.
fn insufficient_material(board: &Board) -> bool {
    let others = board.occupied() & !board.pieces(Piece::King);
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    if !(others & !knights & !bishops).is_empty() {
        return false;
    }
    others.len() <= 1
        || knights.is_empty()
            && (bishops.is_subset(BitBoard::DARK_SQUARES)
                || bishops.is_subset(BitBoard::LIGHT_SQUARES))
}

/// What the replay writes down of each move, as the rules core's `Played::record`
/// does: the same spellings, written from the 64-square board.
pub(super) struct Recorder<'t> {
    recording: Recording,
    chess960: bool,
    /// [`Recording::Respellings`]: the text the game is read from, whose moves written
    /// as their canonical SAN are left out.
    written: Option<Source<'t>>,
    pub moves: Vec<PlayedMove>,
    /// Plies of the main line recorded.
    pub main_plies: usize,
    /// The move spelled and not yet played, kept here rather than handed from spelling to
    /// recording (a copy of every field for every move).
    pending: Spelled,
    /// [`Recording::MainLine`]: the list, as [`crate::replay::Played::main_line`] holds it,
    /// all ASCII (made a `String` once, not a FEN at a time).
    main_line: Vec<u8>,
}

/// A move written from the position before it, waiting for what it gives.
#[derive(Default)]
struct Spelled {
    /// Canonical SAN before its check mark; left empty where `as_written` says the text
    /// is that already.
    san: Spelling,
    /// [`Recording::Respellings`]: the written text is canonical SAN up to its check mark,
    /// which takes this many bytes.
    as_written: Option<usize>,
    /// Long notation, kept here until its check mark is known.
    lan: Option<Spelling>,
    detail: Option<Box<MoveDetail>>,
}

impl<'t> Recorder<'t> {
    /// `None` for [`Recording::Board`], which keeps a position of the rules core.
    /// `written` is the game's text for [`Recording::Respellings`] (without it, every
    /// move is recorded, as for [`Recording::Spellings`]).
    pub fn new(
        recording: Recording,
        chess960: bool,
        written: Option<Source<'t>>,
    ) -> Option<Recorder<'t>> {
        let written = written.filter(|_| recording == Recording::Respellings);
        let recording = match recording {
            Recording::Respellings if written.is_none() => Recording::Spellings,
            Recording::Board(_) => return None,
            recording => recording,
        };
        Some(Recorder {
            recording,
            chess960,
            written,
            moves: Vec::new(),
            main_plies: 0,
            pending: Spelled::default(),
            main_line: Vec::new(),
        })
    }

    pub fn recording(&self) -> Recording {
        self.recording
    }

    /// The main-line list recorded ([`Recording::MainLine`]), taken.
    pub fn take_main_line(&mut self) -> String {
        // Every byte pushed is ASCII: never the empty default.
        String::from_utf8(std::mem::take(&mut self.main_line)).unwrap_or_default()
    }

    /// Only a FEN needs the halfmove clock.
    fn counts_halfmoves(&self) -> bool {
        matches!(
            self.recording,
            Recording::Everything | Recording::MainLine(MainLine::Fen)
        )
    }

    /// Whether nearly every move gets its record in [`Recorder::moves`].
    fn keeps_every_move(&self) -> bool {
        !matches!(
            self.recording,
            Recording::Respellings | Recording::MainLine(_)
        )
    }

    /// A main-line list has no part in variations: they replay unrecorded.
    fn records_variations(&self) -> bool {
        !matches!(self.recording, Recording::MainLine(_))
    }

    /// The text of the move written at `span`, for [`Recording::Respellings`].
    fn written_at(&self, span: Span) -> Option<&'t [u8]> {
        let written = self.written?;
        let from = span.offset.checked_sub(written.offset)?;
        written.text.as_bytes().get(from..from + span.len)
    }

    /// `mv`, written at `span` as `notation`, spelled from `board`, the position before it.
    fn spell(&mut self, board: &Board, mv: Move, notation: &Notation, span: Span) {
        if self.written.is_some() {
            let as_written = self
                .written_at(span)
                .and_then(|text| canonical_before_mark(board, mv, notation, text));
            self.pending.as_written = as_written;
            if as_written.is_none() {
                self.pending.san = san(board, mv, names_no_origin(notation));
            }
            return;
        }
        let alone = names_no_origin(notation);
        // After the respellings, which fmt and lint take nearly every move through.
        match self.recording {
            Recording::MainLine(MainLine::Uci) => {
                if !self.main_line.is_empty() {
                    self.main_line.push(b' ');
                }
                self.main_line
                    .extend_from_slice(uci(board, mv, self.chess960).as_bytes());
                return;
            }
            Recording::MainLine(MainLine::Fen) => return,
            _ => {}
        }
        let detail = (self.recording != Recording::Spellings).then(|| {
            let (from, to, captured) = squares_and_capture(board, mv);
            Box::new(MoveDetail {
                lan: CompactString::default(),
                uci: Some(uci(board, mv, self.chess960).as_str().into()),
                from: square_name(from),
                through: None,
                to: square_name(to),
                captured,
                captured_through: None,
                promotion: mv.promotion.map(letter),
                event: None,
                swap: None,
                faces: None,
                placed: None,
                fen: None,
            })
        });
        self.pending = Spelled {
            san: san(board, mv, alone),
            as_written: None,
            lan: detail.is_some().then(|| lan(board, mv)),
            detail,
        };
    }

    /// `written_mark`: the check mark the move was written with.
    fn record(
        &mut self,
        (after, halfmoves): (&Board, u32),
        gives: Gives,
        written_mark: Option<CheckMark>,
        (span, ply, path): (Span, usize, &[(usize, usize)]),
    ) {
        if self.written.is_some() {
            self.main_plies += usize::from(path.is_empty());
            if self.pending.as_written.is_some() && written_mark == mark_of(gives) {
                return;
            }
        }
        if let Recording::MainLine(list) = self.recording {
            self.main_plies += 1;
            if list == MainLine::Fen {
                self.main_line.push(b'\n');
                push_fen(after, halfmoves, &mut self.main_line);
            }
            return;
        }
        let mut spelled = std::mem::take(&mut self.pending);
        if self.written.is_some() {
            let text = self.written_at(span);
            if let (Some(body), Some(text)) = (spelled.as_written, text) {
                // Canonical but for its mark: the SAN is the text before it, ASCII as
                // the canonical spelling it equals.
                spelled.san.clear();
                text[..body]
                    .iter()
                    .for_each(|&byte| spelled.san.push(char::from(byte)));
            }
        }
        let mark = match gives {
            Gives::Nothing => None,
            Gives::Check => Some('+'),
            Gives::Mate => Some('#'),
        };
        if let Some(mark) = mark {
            spelled.san.push(mark);
            if let Some(lan) = &mut spelled.lan {
                lan.push(mark);
            }
        }
        if self.written.is_some() {
            let text = self.written_at(span);
            if !text.is_some_and(|text| same_spelling(text, spelled.san.as_bytes())) {
                self.moves.push(PlayedMove {
                    span,
                    ply,
                    variation: path.to_vec(),
                    san: spelled.san.as_str().into(),
                    detail: None,
                });
            }
            return;
        }
        if let Some(detail) = &mut spelled.detail {
            if let Some(lan) = spelled.lan {
                detail.lan = lan.as_str().into();
            }
            if self.recording == Recording::Everything {
                detail.fen = Some(fen(after, halfmoves));
            }
        }
        self.main_plies += usize::from(path.is_empty());
        self.moves.push(PlayedMove {
            span,
            ply,
            variation: path.to_vec(),
            san: spelled.san.as_str().into(),
            detail: spelled.detail,
        });
    }
}

/// The length of `written`'s text before its check mark where that text is exactly the
/// canonical SAN of `mv` (read as `notation`, played from `board`) and the mark is all
/// that follows: decided from what resolving the notation proved, without spelling the
/// SAN, for nearly every move. `None` where it is not so, or where only spelling can say
/// (a piece written with its origin, whose disambiguation may be more than SAN needs).
#[inline(always)]
fn canonical_before_mark(
    board: &Board,
    mv: Move,
    notation: &Notation,
    written: &[u8],
) -> Option<usize> {
    if notation.assessment.is_some() {
        return None;
    }
    let body = match notation.check {
        None => written.len(),
        Some(mark) => {
            let (&last, body) = written.split_last()?;
            if last != mark_byte(mark) {
                return None;
            }
            body.len()
        }
    };
    let to = [b'a' + mv.to.file() as u8, b'1' + mv.to.rank() as u8];
    // Matched against the few shapes canonical SAN takes, byte by byte: cheaper than
    // spelling it and comparing.
    let canonical = match (&notation.body, &written[..body]) {
        (MoveBody::Castle(castle), b"O-O") => !castle.long,
        (MoveBody::Castle(castle), b"O-O-O") => castle.long,
        (MoveBody::Piece(PieceMove { piece: None, .. }), written) => {
            let (square, promotion) = match (written, mv.promotion) {
                ([square @ .., b'=', piece], Some(promotion)) => {
                    (square, *piece == letter(promotion) as u8)
                }
                (square, None) => (square, true),
                _ => return None,
            };
            let from = b'a' + mv.from.file() as u8;
            promotion
                && match square {
                    [file, rank] => from == to[0] && [*file, *rank] == to,
                    [origin, b'x', file, rank] => {
                        from != to[0] && *origin == from && [*file, *rank] == to
                    }
                    _ => false,
                }
        }
        // Resolved without a hint, the piece is the one of its kind that reaches the
        // square: SAN writes no origin.
        (
            MoveBody::Piece(PieceMove {
                piece: Some(piece @ ('N' | 'B' | 'R' | 'Q' | 'K')),
                hint: None,
                ..
            }),
            [letter, rest @ ..],
        ) => {
            let takes = board.colors(!board.side_to_move()).has(mv.to);
            u32::from(*letter) == u32::from(*piece)
                && mv.promotion.is_none()
                && match rest {
                    [file, rank] => !takes && [*file, *rank] == to,
                    [b'x', file, rank] => takes && [*file, *rank] == to,
                    _ => false,
                }
        }
        _ => false,
    };
    canonical.then_some(body)
}

fn mark_byte(mark: CheckMark) -> u8 {
    match mark {
        CheckMark::Check => b'+',
        CheckMark::Mate => b'#',
    }
}

/// Byte equality of two spellings of a few bytes, compared inline: a call to `memcmp`
/// for each move cost more than the comparison.
fn same_spelling(written: &[u8], canonical: &[u8]) -> bool {
    written.len() == canonical.len()
        && written
            .iter()
            .zip(canonical)
            .fold(true, |same, (w, c)| same & (w == c))
}

/// Whether `mv` castles (cozy-chess moves the king onto its rook), and which way.
fn castles_long(board: &Board, mv: Move) -> Option<bool> {
    let us = board.side_to_move();
    (board.king(us) == mv.from && board.colors(us).has(mv.to))
        .then(|| mv.to.file() < mv.from.file())
}

/// Whether `mv` takes a piece, en passant included.
fn takes(board: &Board, mv: Move) -> bool {
    board.colors(!board.side_to_move()).has(mv.to)
        || (board.piece_on(mv.from) == Some(Piece::Pawn) && mv.from.file() != mv.to.file())
}

/// Where the moving piece starts and ends (a castling king on its own square, not on
/// the rook's), and the letter of what it takes.
fn squares_and_capture(board: &Board, mv: Move) -> (BoardSquare, BoardSquare, Option<char>) {
    if let Some(long) = castles_long(board, mv) {
        let file = if long { File::C } else { File::G };
        return (mv.from, BoardSquare::new(file, mv.from.rank()), None);
    }
    let captured = match board.piece_on(mv.to) {
        Some(piece) => Some(letter(piece)),
        None if takes(board, mv) => Some('P'),
        None => None,
    };
    (mv.from, mv.to, captured)
}

/// A move of 64-square chess spelled on the stack, copied once into what is recorded: at
/// most nine characters (`Qa1xb2=Q#`, `Ra1xh8=Q+` in long notation).
type Spelling = arrayvec::ArrayString<16>;

/// Canonical SAN before its check mark: `san::san_plain` of the rules core.
fn san(board: &Board, mv: Move, alone: bool) -> Spelling {
    let mut out = Spelling::new();
    push_san(board, mv, alone, &mut out);
    out
}

/// [`san`] appended to `out`.
fn push_san(board: &Board, mv: Move, alone: bool, out: &mut Spelling) {
    if let Some(long) = castles_long(board, mv) {
        out.push_str(if long { "O-O-O" } else { "O-O" });
        return;
    }
    // What `takes` asks, answered from the piece already looked up: a pawn takes when
    // it changes file (en passant included), a piece when an enemy stands on its square.
    match board.piece_on(mv.from) {
        Some(Piece::Pawn) | None => {
            if mv.from.file() != mv.to.file() || board.colors(!board.side_to_move()).has(mv.to) {
                out.push(file_letter(mv.from.file()));
                out.push('x');
            }
        }
        Some(piece) => {
            out.push(letter(piece));
            if !alone {
                push_disambiguation(board, mv, piece, out);
            }
            if board.colors(!board.side_to_move()).has(mv.to) {
                out.push('x');
            }
        }
    }
    push_square(out, mv.to);
    if let Some(piece) = mv.promotion {
        out.push('=');
        out.push(letter(piece));
    }
}

/// The origin's file, rank or square when another piece of the kind could move to the
/// same square, as the rules core chooses it.
fn push_disambiguation(board: &Board, mv: Move, piece: Piece, out: &mut Spelling) {
    let occupied = board.occupied();
    let reach = match piece {
        Piece::Knight => get_knight_moves(mv.to),
        Piece::Bishop => get_bishop_moves(mv.to, occupied),
        Piece::Rook => get_rook_moves(mv.to, occupied),
        Piece::Queen => get_bishop_moves(mv.to, occupied) | get_rook_moves(mv.to, occupied),
        Piece::King | Piece::Pawn => return,
    };
    let us = board.side_to_move();
    let candidates = board.colored_pieces(us, piece) & reach & !mv.from.bitboard();
    let (mut same_file, mut same_rank, mut any) = (false, false, false);
    for from in candidates {
        if board.is_legal(Move {
            from,
            to: mv.to,
            promotion: None,
        }) {
            any = true;
            same_file |= from.file() == mv.from.file();
            same_rank |= from.rank() == mv.from.rank();
        }
    }
    if !any {
        return;
    }
    if !same_file {
        out.push(file_letter(mv.from.file()));
    } else if !same_rank {
        out.push(rank_digit(mv.from.rank()));
    } else {
        push_square(out, mv.from);
    }
}

/// Long notation before its check mark: `san::lan_giving` of the rules core.
fn lan(board: &Board, mv: Move) -> Spelling {
    if castles_long(board, mv).is_some() {
        return san(board, mv, true);
    }
    let mut out = Spelling::new();
    if let Some(piece) = board.piece_on(mv.from).filter(|&p| p != Piece::Pawn) {
        out.push(letter(piece));
    }
    push_square(&mut out, mv.from);
    out.push(if takes(board, mv) { 'x' } else { '-' });
    push_square(&mut out, mv.to);
    if let Some(piece) = mv.promotion {
        out.push('=');
        out.push(letter(piece));
    }
    out
}

/// UCI: castling as the king to its square, or onto its rook in Chess960.
fn uci(board: &Board, mv: Move, chess960: bool) -> Spelling {
    let (from, to, _) = squares_and_capture(board, mv);
    let mut out = Spelling::new();
    push_square(&mut out, from);
    push_square(&mut out, if chess960 { mv.to } else { to });
    if let Some(piece) = mv.promotion {
        out.push(letter(piece).to_ascii_lowercase());
    }
    out
}

/// The position in FEN as `rules::write_fen` writes it: castling rights as X-FEN (`K`
/// and `Q` for the outermost rooks, else the rook's file), the en-passant square after
/// every double step.
fn fen(board: &Board, halfmoves: u32) -> String {
    let mut out = Vec::new();
    push_fen(board, halfmoves, &mut out);
    // Every byte pushed is ASCII: never the empty default.
    String::from_utf8(out).unwrap_or_default()
}

/// Appends [`fen`] to `out` as bytes, all ASCII. Written on the stack and copied once: a
/// push per character onto a `String` or `Vec` cost most of a conversion to FEN.
fn push_fen(board: &Board, halfmoves: u32, out: &mut Vec<u8>) {
    let mut fen = FenBytes {
        bytes: [0; 128],
        len: 0,
    };
    // Each square's letter from the twelve sets of pieces: cheaper than asking every
    // square for its piece and colour.
    let mut letters = [0u8; 64];
    let white = board.colors(Side::White);
    for piece in Piece::ALL {
        let upper = letter(piece) as u8;
        for square in board.pieces(piece) {
            letters[square as usize] = if white.has(square) {
                upper
            } else {
                upper.to_ascii_lowercase()
            };
        }
    }
    // Rank by rank from the occupied squares: a step a piece, not a square.
    let occupied = board.occupied().0;
    for rank in (0..8).rev() {
        let mut row = (occupied >> (rank * 8)) as u8;
        let mut file = 0;
        while row != 0 {
            let next = row.trailing_zeros() as u8;
            if next > file {
                fen.push(b'0' + next - file);
            }
            fen.push(letters[rank * 8 + usize::from(next)]);
            file = next + 1;
            row &= row - 1;
        }
        if file < 8 {
            fen.push(b'0' + 8 - file);
        }
        if rank > 0 {
            fen.push(b'/');
        }
    }
    let us = board.side_to_move();
    fen.extend(if us == Side::White { b" w " } else { b" b " });
    let mut castling = 0;
    for side in [Side::White, Side::Black] {
        let rights = board.castle_rights(side);
        let rooks =
            board.colored_pieces(side, Piece::Rook) & Rank::First.relative_to(side).bitboard();
        let outer = |file: File, higher: bool| {
            rooks
                .into_iter()
                .all(|rook| rook.file() == file || (rook.file() > file) != higher)
        };
        let letters = [
            rights.short.map(|file| {
                if outer(file, true) {
                    b'K'
                } else {
                    file_letter(file).to_ascii_uppercase() as u8
                }
            }),
            rights.long.map(|file| {
                if outer(file, false) {
                    b'Q'
                } else {
                    file_letter(file).to_ascii_uppercase() as u8
                }
            }),
        ];
        for letter in letters.into_iter().flatten() {
            castling += 1;
            fen.push(match side {
                Side::White => letter,
                Side::Black => letter.to_ascii_lowercase(),
            });
        }
    }
    if castling == 0 {
        fen.push(b'-');
    }
    match board.en_passant() {
        Some(file) => {
            let rank = Rank::Sixth.relative_to(us);
            fen.extend(&[b' ', file_letter(file) as u8, rank_digit(rank) as u8, b' ']);
        }
        None => fen.extend(b" - "),
    }
    let (digits, first) = decimal(halfmoves);
    fen.extend(&digits[first..]);
    fen.push(b' ');
    let (digits, first) = decimal(u32::from(board.fullmove_number()));
    fen.extend(&digits[first..]);
    out.extend_from_slice(fen.as_bytes());
}

/// A FEN's bytes: at most 104 (71 of placement, two ten-digit counters).
struct FenBytes {
    bytes: [u8; 128],
    len: u8,
}

impl FenBytes {
    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len).min(self.bytes.len())]
    }

    /// Stored at the length masked into the array, which is longer than a FEN: a store
    /// and an increment, no test.
    fn push(&mut self, byte: u8) {
        self.bytes[usize::from(self.len) & 127] = byte;
        self.len = self.len.wrapping_add(1);
    }

    fn extend(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&byte| self.push(byte));
    }
}

/// The digits of `n` in decimal, from the index returned, without the formatting
/// machinery.
fn decimal(mut n: u32) -> ([u8; 10], usize) {
    let mut digits = [0u8; 10];
    let mut first = digits.len();
    loop {
        first -= 1;
        digits[first] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return (digits, first);
        }
    }
}

/// Appends `n` in decimal without the formatting machinery, which took a FEN's time
/// twice over.
fn letter(piece: Piece) -> char {
    match piece {
        Piece::Pawn => 'P',
        Piece::Knight => 'N',
        Piece::Bishop => 'B',
        Piece::Rook => 'R',
        Piece::Queen => 'Q',
        Piece::King => 'K',
    }
}

fn file_letter(file: File) -> char {
    char::from(b'a' + file as u8)
}

fn rank_digit(rank: Rank) -> char {
    char::from(b'1' + rank as u8)
}

fn push_square(out: &mut Spelling, square: BoardSquare) {
    out.push(file_letter(square.file()));
    out.push(rank_digit(square.rank()));
}

fn square_name(square: BoardSquare) -> CompactString {
    let mut out = Spelling::new();
    push_square(&mut out, square);
    out.as_str().into()
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::super::{MainLine, Recording, Replay, replay_orthodox, replay_under};
    use crate::convert::main_line_text;
    use crate::games::read_games;
    use crate::pgn::{Game, parse_str};
    #[cfg(feature = "cli")]
    use crate::pgn::{ParsedGame, SpareGames, parse_into_playing};
    use crate::rules::{Variant, Variants};
    use crate::source::Input;
    use crate::span::Source;

    fn standard() -> &'static Variant {
        Variant::by_name("standard").expect("built in")
    }

    /// The variant `game` replays under, as `replay::replay_as` finds it.
    fn variant_of(game: &Game) -> Option<&'static Variant> {
        match game.tags.iter().find(|t| t.name.node == "Variant") {
            None => Some(standard()),
            Some(tag) => Variants::with_default(standard()).find(&tag.value.node),
        }
    }

    /// A game with the text it was read from, as lint and fmt hand it to the replay.
    struct Written {
        game: Game,
        text: String,
        offset: usize,
    }

    /// Replays `game` both ways where this replay takes it; whether it did. With the
    /// game's text, [`Recording::Respellings`] must keep exactly the moves of
    /// [`Recording::Spellings`] whose text is not their SAN.
    fn agree_written(written: &Written, name: &str) -> bool {
        let game = &written.game;
        if !agree(game, name) {
            return false;
        }
        let variant = variant_of(game).expect("agree found it");
        let source = Source {
            name,
            text: &written.text,
            offset: written.offset,
            line: 0,
        };
        let played = |record| {
            replay_orthodox(game, variant, Some(record))
                .and_then(|replay| replay.played)
                .expect("taken as without recording")
        };
        let all = played((Recording::Spellings, None));
        let respelled = played((Recording::Respellings, Some(source)));
        let text_of = |span: crate::span::Span| {
            &written.text[span.offset - written.offset..span.end() - written.offset]
        };
        let differing: Vec<_> = all
            .moves
            .iter()
            .filter(|m| text_of(m.span) != m.san)
            .cloned()
            .collect();
        assert_eq!(respelled.moves, differing, "{name}: respellings");
        assert_eq!(respelled.recording, Recording::Respellings);
        assert_eq!(respelled.main_plies, all.main_plies, "{name}: main plies");
        true
    }

    /// Replays `game` both ways where this replay takes it; whether it did.
    fn agree(game: &Game, name: &str) -> bool {
        let Some(variant) = variant_of(game) else {
            return false;
        };
        let Some(fast) = replay_orthodox(game, variant, None) else {
            return false;
        };
        let core = replay_under(game, variant, &[], None).expect("no event starts");
        // What the JSON report then skips reading.
        assert!(fast.main_line_starts_no_event, "{name}");
        #[cfg(feature = "cli")]
        assert!(
            crate::report::main_line_events(game).is_empty(),
            "{name}: events"
        );
        // Otherwise the core's: it does not vouch.
        let as_core = |replay: Replay| Replay {
            main_line_starts_no_event: false,
            ..replay
        };
        assert_eq!(as_core(fast), core, "{name}: the replays disagree");
        // What lint and the conversions record, written from either board.
        for recording in [
            Recording::Spellings,
            Recording::Moves,
            Recording::Everything,
        ] {
            let fast = as_core(
                replay_orthodox(game, variant, Some((recording, None)))
                    .expect("taken as without recording"),
            );
            let core = replay_under(game, variant, &[], Some(recording)).expect("no event starts");
            let moves = |replay: &super::super::Replay| {
                replay
                    .played
                    .as_ref()
                    .map(|p| p.moves.clone())
                    .unwrap_or_default()
            };
            // The first move written otherwise, rather than two whole games.
            for (fast, core) in moves(&fast).iter().zip(&moves(&core)) {
                assert_eq!(
                    fast, core,
                    "{name}: the recordings disagree ({recording:?})"
                );
            }
            assert_eq!(
                fast, core,
                "{name}: the recordings disagree ({recording:?})"
            );
        }
        // The main-line lists, written as the replay goes, against the ones made from
        // the core's records of every move.
        for list in [MainLine::Uci, MainLine::Fen] {
            let recording = Recording::MainLine(list);
            let fast = replay_orthodox(game, variant, Some((recording, None)))
                .expect("taken as without recording");
            let core = replay_under(game, variant, &[], Some(recording)).expect("no event starts");
            let recorded = |replay: &super::super::Replay| {
                replay.played.as_ref().map(|played| played.recording)
            };
            assert_eq!(recorded(&fast), Some(recording));
            assert_ne!(recorded(&core), Some(recording), "the core keeps moves");
            assert_eq!(
                main_line_text(&fast, list),
                main_line_text(&core, list),
                "{name}: the {list:?} lists disagree"
            );
        }
        assert!(replay_orthodox(game, variant, Some((Recording::Board(None), None))).is_none());
        true
    }

    fn pgn_files(dir: &Path) -> Vec<PathBuf> {
        walkdir::WalkDir::new(dir)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .map(|e| e.into_path())
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
            .collect()
    }

    /// The first `limit` games of `path`, each with the text of the part it was read
    /// from.
    fn games(path: &Path, limit: usize) -> Vec<Written> {
        let mut games = Vec::new();
        for chunk in read_games(&Input::from_path(path)).expect("readable") {
            let chunk = chunk.expect("readable");
            for (source, parsed) in chunk.games("") {
                games.push(Written {
                    game: parsed.game.clone(),
                    text: source.text.to_owned(),
                    offset: source.offset,
                });
                if games.len() == limit {
                    return games;
                }
            }
        }
        games
    }

    #[test]
    fn both_replays_agree_on_the_fixtures() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let (mut taken, mut given_up) = (0, 0);
        for file in pgn_files(&fixtures) {
            for written in games(&file, usize::MAX) {
                if agree_written(&written, &file.display().to_string()) {
                    taken += 1;
                } else {
                    given_up += 1;
                }
            }
        }
        // The fixtures hold clean games and every kind of finding.
        assert!(taken >= 30, "{taken} games taken");
        assert!(given_up >= 30, "{given_up} games given up");
    }

    /// The standard files, and the Chess960 games of other projects' suites, where FEN
    /// tags and castling rights by file are the rule.
    #[test]
    fn both_replays_agree_on_the_corpus() {
        let Some(corpus) = corpus() else { return };
        for (dir, least_taken) in [("standard", 0.9), ("variants/chess960", 0.5)] {
            for file in pgn_files(&corpus.join(dir)) {
                let games = games(&file, 4000);
                let taken = games
                    .iter()
                    .filter(|written| agree_written(written, &file.display().to_string()))
                    .count();
                assert_taken(&file, taken, games.len(), least_taken);
            }
        }
    }

    /// The shared corpus; `None`, said on standard error, where it is absent.
    fn corpus() -> Option<PathBuf> {
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
        if !corpus.exists() {
            eprintln!("skipped: {} is absent", corpus.display());
            return None;
        }
        Some(corpus)
    }

    /// That a replay took at least the share `least` of the `of` games (or parts) of
    /// `file` it was given.
    fn assert_taken(file: &Path, taken: usize, of: usize, least: f64) {
        assert!(
            taken as f64 >= of as f64 * least,
            "{}: {taken} of {of} taken",
            file.display()
        );
    }

    fn replayed(text: &str) -> Option<super::Replayed> {
        let games = parse_str(text);
        let [parsed] = games.as_slice() else {
            panic!("one game")
        };
        assert!(
            agree(&parsed.game, text) || replay_orthodox(&parsed.game, standard(), None).is_none()
        );
        super::replay(super::start(), &parsed.game.moves, None)
    }

    #[test]
    fn endings_are_the_cores() {
        use crate::rules::{Color, ending::Ending};
        let ending = |text| replayed(text).map(|r| r.ending);
        assert_eq!(
            ending("1. f3 e5 2. g4 Qh4# 0-1"),
            Some(Some(Ending::Checkmate {
                winner: Color::Black
            }))
        );
        // The knights dance back: the start position stands a third time. The double
        // step's en-passant square is no part of it, as no pawn can take there.
        assert_eq!(
            ending("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"),
            Some(Some(Ending::ThreefoldRepetition))
        );
        assert_eq!(
            ending("1. e4 Nf6 2. Nf3 Ng8 3. Ng1 Nf6 4. Nf3 Ng8 5. Ng1 *"),
            Some(Some(Ending::ThreefoldRepetition))
        );
        assert_eq!(ending("1. e4 e5 *"), Some(None));
    }

    #[test]
    fn what_the_core_must_explain_is_given_up() {
        for text in [
            "1. e4 e5 2. Ke3 *",
            "1. Nc3 Nc6 2. Nf3 Nf6 3. Ne4 Ne5 4. Ng5 *",
            "1. e4+ e5 *",
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+ *",
            "1. e4 {[%event 5]} e5 *",
            "1. e4 -- 2. d4 *",
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5 d5 5. exd5 Nxd5 6. Nxf7 Kxf7 7. Qf3+ Ke6 8. Nc3 Nb4 9. O-O-O *",
            "1. e4 (e5) e5 *",
        ] {
            assert!(replayed(text).is_none(), "{text}");
        }
    }
    /// What a text read with its moves played as read concluded: the games, what was
    /// concluded of each, and whether one gave up.
    #[cfg(feature = "cli")]
    type PlayedText = (Vec<ParsedGame>, Vec<Option<super::PlayedAsRead>>, bool);

    /// `text` read with moves played as read ([`super::PlayAsRead`], as `check` plays
    /// them, or with `spelling` as `lint` does).
    #[cfg(feature = "cli")]
    fn played_as_read(text: &str, offset: usize, spelling: bool) -> PlayedText {
        let mut games = Vec::new();
        let variants = Variants::with_default(standard());
        let mut playing = if spelling {
            super::PlayAsRead::spelling(&variants)
        } else {
            super::PlayAsRead::new(&variants)
        };
        parse_into_playing(
            text,
            offset,
            &mut games,
            &mut SpareGames::default(),
            &mut playing,
        );
        (games, playing.results, playing.gave_up)
    }

    /// Reads `text` both ways and checks every game as `check` would each way, and lints
    /// it as `lint` would: where no game gave up, the reports agree, game by game.
    /// Whether none did.
    #[cfg(feature = "cli")]
    fn playing_agrees(text: &str, offset: usize, name: &str) -> bool {
        use crate::replay::{check_game, check_game_played};
        let variants = Variants::with_default(standard());
        let (played, results, gave_up) = played_as_read(text, offset, false);
        let tree = crate::pgn::parse_chunk(text, offset);
        let spelled = played_as_read(text, offset, true);
        assert_eq!(
            spelled.2, gave_up,
            "{name}: spelling gives up as playing does"
        );
        if gave_up {
            return false;
        }
        lint_agrees(text, offset, name, &spelled, &tree);
        layout_agrees(text, offset, name, &tree);
        assert_eq!(played.len(), tree.len(), "{name}: games");
        assert_eq!(results.len(), tree.len(), "{name}: one result a game");
        for ((played, result), tree) in played.iter().zip(&results).zip(&tree) {
            assert_eq!(played.diagnostics, tree.diagnostics, "{name}: reading");
            assert_eq!(played.game.tags, tree.game.tags, "{name}: tags");
            assert_eq!(played.game.result, tree.game.result, "{name}: result");
            assert_eq!(played.game.span, tree.game.span, "{name}: span");
            match result {
                Some(result) => assert_eq!(
                    check_game_played(played, result),
                    check_game(tree, &variants),
                    "{name}: the checks disagree"
                ),
                // Kept whole in the tree.
                None => assert_eq!(played, tree, "{name}: the tree"),
            }
        }
        true
    }

    /// Every game of `text` linted from what the replay as read with `spelling` wrote
    /// down (`spelled`) and from the tree: the same findings, edits included.
    #[cfg(feature = "cli")]
    fn lint_agrees(
        text: &str,
        offset: usize,
        name: &str,
        spelled: &PlayedText,
        tree: &[ParsedGame],
    ) {
        use crate::lint::{Scope, Selection, lint_game, lint_game_played};
        let variants = Variants::with_default(standard());
        let selection = Selection::default();
        let source = crate::span::Source {
            name,
            text,
            offset,
            line: 1,
        };
        let scope = Scope {
            fixable: true,
            pgn: true,
        };
        let (games, results, _) = spelled;
        for ((played, result), tree) in games.iter().zip(results).zip(tree) {
            let from_tree = lint_game(tree, source, &variants, &selection, scope);
            let linted = match result {
                Some(result) => {
                    let settings = (&selection, scope);
                    lint_game_played(played, result, source, settings, Vec::new())
                }
                None => lint_game(played, source, &variants, &selection, scope),
            };
            assert_eq!(linted, from_tree, "{name}: the lints disagree");
        }
    }

    /// Every game of `text` laid out as `fmt` lays it out as it reads it
    /// ([`crate::convert::LayOutAsRead`]) and from the tree: the same text. How many
    /// were laid out as read.
    #[cfg(feature = "cli")]
    fn layout_agrees(text: &str, offset: usize, name: &str, tree: &[ParsedGame]) -> usize {
        use crate::convert::{LayOutAsRead, write_canonical};
        use crate::games::PlaysParts;
        let variants = Variants::with_default(standard());
        let mut sink = LayOutAsRead::new(String::new(), &variants, true);
        let mut games = Vec::new();
        sink.begin_part();
        parse_into_playing(
            text,
            offset,
            &mut games,
            &mut SpareGames::default(),
            &mut sink,
        );
        assert!(!sink.take_gave_up(), "{name}: gave up");
        assert_eq!(sink.games.len(), tree.len(), "{name}: games");
        let source = crate::span::Source {
            name,
            text,
            offset,
            line: 1,
        };
        for (laid_out, tree) in sink.games.iter().zip(tree) {
            let mut expected = String::from("\n");
            write_canonical(&tree.game, source, &variants, &mut expected);
            if let Some(range) = laid_out {
                assert_eq!(
                    sink.text[range.clone()],
                    expected,
                    "{name}: the layouts differ"
                );
            }
        }
        sink.games.iter().flatten().count()
    }

    /// The text of every part of `path`'s first `limit` games, once each.
    #[cfg(feature = "cli")]
    fn parts(path: &Path, limit: usize) -> Vec<(String, usize)> {
        let mut parts: Vec<(String, usize)> = Vec::new();
        for written in games(path, limit) {
            if parts
                .last()
                .is_none_or(|(_, offset)| *offset != written.offset)
            {
                parts.push((written.text, written.offset));
            }
        }
        parts
    }

    #[cfg(feature = "cli")]
    #[test]
    fn playing_as_read_agrees_with_the_tree_on_the_fixtures() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let (mut taken, mut given_up) = (0, 0);
        for file in pgn_files(&fixtures) {
            for (text, offset) in parts(&file, usize::MAX) {
                if playing_agrees(&text, offset, &file.display().to_string()) {
                    taken += 1;
                } else {
                    given_up += 1;
                }
            }
        }
        assert!(taken >= 30, "{taken} parts taken");
        assert!(given_up >= 30, "{given_up} parts given up");
    }

    #[cfg(feature = "cli")]
    #[test]
    fn playing_as_read_agrees_with_the_tree_on_the_corpus() {
        let Some(corpus) = corpus() else { return };
        // Chess960 games carry a Variant tag and start from their FEN.
        for (dir, least_taken) in [("standard", 0.9), ("variants/chess960", 0.9)] {
            for file in pgn_files(&corpus.join(dir)) {
                let parts = parts(&file, 4000);
                let taken = parts
                    .iter()
                    .filter(|(text, offset)| {
                        playing_agrees(text, *offset, &file.display().to_string())
                    })
                    .count();
                assert_taken(&file, taken, parts.len(), least_taken);
            }
        }
    }

    #[cfg(feature = "cli")]
    #[test]
    fn played_moves_and_numbers_are_not_kept() {
        let (games, results, gave_up) = played_as_read("1. e4 e5 2. Nf3 {good} $1 *", 0, true);
        assert!(!gave_up);
        let [game] = games.as_slice() else {
            panic!("one game")
        };
        // The comment and the NAG stay; moves and numbers went to the replay.
        assert_eq!(game.game.moves.len(), 2);
        assert_eq!(results[0].as_ref().map(|r| r.replayed.plies), Some(3));
        // Every move and number is as PGN writes it: nothing to write down.
        assert_eq!(
            results[0].as_ref().map(|r| r.spellings.is_none()),
            Some(true)
        );
    }

    #[cfg(feature = "cli")]
    #[test]
    fn check_keeps_no_comment_of_a_game_it_plays() {
        let text = "1. e4 {[%clk 0:10:00]} e5 ; a line comment\n% an escape\n2. Nf3 $1 *";
        let (games, results, gave_up) = played_as_read(text, 0, false);
        assert!(!gave_up);
        // `check` reads only the tags and the result: nothing went into the tree.
        assert!(games[0].game.moves.is_empty());
        assert!(games[0].diagnostics.is_empty());
        assert_eq!(games[0].game.span, crate::span::Span::new(0, text.len()));
        assert_eq!(results[0].as_ref().map(|r| r.replayed.plies), Some(3));
        // `lint` keeps them for its rules.
        let (games, _, _) = played_as_read(text, 0, true);
        assert_eq!(games[0].game.moves.len(), 4);
        // A comment that mentions an event is still the tree's, and still judged.
        let (games, results, gave_up) = played_as_read("1. e4 {[%event x]} e5 *", 0, false);
        assert!(gave_up && results[0].is_none());
        assert!(!games[0].diagnostics.is_empty());
        // Comments alone after the tags are still a game's, not an empty one.
        let (games, _, _) = played_as_read("[White \"a\"]\n\n{only this} *", 0, false);
        assert!(games[0].diagnostics.is_empty());
    }

    #[cfg(feature = "cli")]
    #[test]
    fn variations_are_played_from_the_move_they_replace() {
        // Two variations on White's first move, one inside another on Black's.
        let text = "1. e4 (1. d4 d5 (1... Nf6 2. c4)) (1. c4) 1... e5 2. Nf3 *";
        let (_, results, gave_up) = played_as_read(text, 0, false);
        assert!(!gave_up);
        assert_eq!(results[0].as_ref().map(|r| r.replayed.plies), Some(3));
        assert!(playing_agrees(text, 0, "nested"));
        // An illegal move in a variation is the tree's to explain.
        assert!(!playing_agrees("1. e4 (1. e5) e5 *", 0, "illegal"));
    }

    #[cfg(feature = "cli")]
    #[test]
    fn what_only_the_tree_takes_gives_up() {
        for text in [
            // As `what_the_core_must_explain_is_given_up`.
            "1. e4 e5 2. Ke3 *",
            "1. e4+ e5 *",
            "1. e4 {[%event 5]} e5 *",
            "1. e4 -- 2. d4 *",
            "1. e4 (e5) e5 *",
            // What the reader keeps only in the tree: a lone `...` (whose number was not
            // kept), variations left open, a variation with no move to replace.
            "1. e4 1. ... e5 *",
            "1. e4 (1. d4 *",
            "(1. d4) 1. e4 *",
            "1. e4 Xy9 *",
        ] {
            for spelling in [false, true] {
                let (_, _, gave_up) = played_as_read(text, 0, spelling);
                assert!(gave_up, "{text}");
            }
        }
    }

    #[cfg(feature = "cli")]
    #[test]
    fn games_the_replay_does_not_take_are_kept_whole() {
        // Chess960 needs its FEN; a variant xpgn does not know is the rules core's to report.
        let text = "[Variant \"Chess960\"]\n\n1. e4 e5 *\n\n[Variant \"Nonesuch\"]\n\n1. Kb1 *";
        let (games, results, gave_up) = played_as_read(text, 0, true);
        assert!(!gave_up);
        assert_eq!(results, [None, None]);
        assert_eq!(games, crate::pgn::parse_chunk(text, 0));
    }

    #[cfg(feature = "cli")]
    #[test]
    fn moves_alone_are_a_game_without_a_result() {
        use crate::diagnostic::Code;
        let (games, _, gave_up) = played_as_read("e4 e5", 0, false);
        assert!(!gave_up);
        let codes: Vec<Code> = games[0].diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, [Code::MissingResult]);
        assert!(playing_agrees("e4 e5", 0, "moves alone"));
    }

    #[cfg(feature = "cli")]
    #[test]
    fn spellings_are_written_down_as_lint_finds_them_in_the_tree() {
        use crate::diagnostic::Code;
        use crate::pgn::Dots;
        // An origin SAN leaves out, a number with no dots and one for the wrong side, a
        // mate without its mark, in the main line and in variations, nested.
        let text = "1. e4 e5 2. Ngf3 Nc6 3 Bc4 (3. Bb5 a6 4... Ba4 (4. Bxc6 dxc6 5. Nfxe5) \
                    4... Nf6) 3... Nf6 *\n\n1. f4 e5 2. g4 Qh4 0-1\n";
        let (games, results, gave_up) = played_as_read(text, 0, true);
        assert!(!gave_up);
        let spellings = |game: usize| results[game].as_ref().and_then(|r| r.spellings.clone());
        let first = spellings(0).expect("spellings of the first game");
        let sans: Vec<&str> = first.moves.iter().map(|(_, m)| m.san.as_str()).collect();
        let plies: Vec<usize> = first.moves.iter().map(|(_, m)| m.ply).collect();
        let paths: Vec<&[(usize, usize)]> = first
            .moves
            .iter()
            .map(|(_, m)| m.variation.as_slice())
            .collect();
        assert_eq!(sans, ["Nf3", "Nxe5"]);
        assert_eq!(plies, [3, 9]);
        assert_eq!(paths, [&[][..], &[(5, 1), (7, 1)][..]]);
        let numbers: Vec<(u32, Dots, u32)> = first
            .numbers
            .iter()
            .map(|&(number, _, ply)| (number.number, number.dots, ply))
            .collect();
        assert_eq!(numbers, [(3, Dots::Missing, 4), (4, Dots::Three, 6)]);
        let second = spellings(1).expect("spellings of the second game");
        assert_eq!(second.moves[0].1.san, "Qh4#");
        // What lint makes of them is what it makes of the tree.
        assert!(playing_agrees(text, 0, "spellings"));
        let source = crate::span::Source {
            name: "spellings",
            text,
            offset: 0,
            line: 1,
        };
        let scope = crate::lint::Scope {
            fixable: true,
            pgn: false,
        };
        let settings = (&crate::lint::Selection::default(), scope);
        let codes = |game: usize| -> Vec<Code> {
            let played = results[game].as_ref().expect("played");
            crate::lint::lint_game_played(&games[game], played, source, settings, Vec::new())
                .diagnostics
                .iter()
                .map(|d| d.code)
                .collect()
        };
        assert_eq!(
            codes(0),
            [
                Code::OverDisambiguated,
                Code::WrongMoveNumber,
                Code::WrongMoveNumber,
                Code::OverDisambiguated,
            ]
        );
        assert_eq!(codes(1), [Code::MissingCheckMark]);
    }

    #[cfg(feature = "cli")]
    #[test]
    fn games_are_laid_out_as_read_as_from_their_trees() {
        // A comment before the tags, tags out of roster order, comments, a NAG and an
        // assessment, nested variations, an escape line, a rest-of-line comment, a move
        // respelled, a missing check mark, and a comment after the result.
        let text = "{before}\n[White \"a\"]\n[Event \"x\"]\n\n1. e4 {c} $1 (1. d4 d5 \
                    (1... Nf6 2. c4) 2. c4) 1... e5!?\n% escape\n2. Ngf3 Nc6 ; rest\n\
                    3. Bb5 a6 4. Bxc6 dxc6 5. Nxe5 Qd4 6. Nf3 Qxe4 1-0 {after}\n\n\
                    1. f4 e5 2. g4 Qh4 0-1\n";
        let tree = crate::pgn::parse_chunk(text, 0);
        assert_eq!(layout_agrees(text, 0, "laid out", &tree), 2);
        assert!(playing_agrees(text, 0, "laid out"));
    }

    #[cfg(feature = "cli")]
    #[test]
    fn games_with_a_fen_or_a_variant_of_orthodox_chess_are_played() {
        use crate::diagnostic::Code;
        // Standard chess by another name, a position (Black to move at move 10, where a
        // number is judged from), and Chess960 from its position, castling included.
        let text = "[Variant \"normal\"]\n\n1. e4 e5 *\n\n\
                    [FEN \"8/8/8/8/8/8/8/K6k b - - 0 10\"]\n\n10. Kg1 11. Kb2 *\n\n\
                    [Variant \"fischerandom\"]\n[FEN \"rqbknnrb/pppppppp/8/8/8/8/PPPPPPPP/RQBKNNRB w KQkq - 0 1\"]\n\n\
                    1. Ne3 Ne6 2. Nf3 Nf6 3. O-O O-O *\n";
        let (games, results, gave_up) = played_as_read(text, 0, true);
        assert!(!gave_up);
        let slugs: Vec<&str> = results
            .iter()
            .map(|r| r.as_ref().map_or("", |r| &*r.variant.slug))
            .collect();
        assert_eq!(slugs, ["standard", "standard", "chess960"]);
        let numbers = results[1].as_ref().and_then(|r| r.spellings.as_ref());
        assert_eq!(numbers.map(|s| s.numbers[0].2), Some(19));
        assert!(playing_agrees(text, 0, "positions"));
        let tree = crate::pgn::parse_chunk(text, 0);
        assert_eq!(layout_agrees(text, 0, "positions", &tree), 3);
        let codes: Vec<Code> = games[1].diagnostics.iter().map(|d| d.code).collect();
        assert!(codes.is_empty(), "{codes:?}");
    }
}
