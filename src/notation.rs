//! Move notation as written (syntax, not meaning).
//!
//! [`Notation`] records exactly what a move token says, for every form of
//! `spec/notation.md` sections 3 and 7, without deciding what it means: `Nc4xf6` is "a
//! knight letter, c4, a capture mark, f6" whether c4 turns out to be the origin (orthodox
//! long form) or a passage entry (#5 Hidden passage), and `R@h8` or `Qxe5,Qxe6#` mean
//! whatever a running event makes of them. Resolution against the legal moves of a
//! position gives the meaning, as shakmaty separates `San` from `Move`. Files a..p and
//! ranks 1..16 parse; whether a square exists is for the variant to say.

use std::fmt::{self, Write as _};

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, satisfy};
use nom::combinator::{opt, value};
use nom::{IResult, Parser};

/// A square with 0-based file (a = 0) and rank (1 = 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    pub file: u8,
    pub rank: u8,
}

impl Square {
    pub const fn new(file: u8, rank: u8) -> Square {
        Square { file, rank }
    }

    /// Reads a whole token as one square (`e4`, `j10`).
    pub fn parse(text: &str) -> Option<Square> {
        match square(text) {
            Ok(("", sq)) => Some(sq),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char(char::from(b'a' + self.file))?;
        write!(f, "{}", u32::from(self.rank) + 1)
    }
}

/// The square after `->`: it names a direction, so it may lie one step off the board
/// (`Nb1->a0`), which is rank index -1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Facing {
    pub file: i8,
    pub rank: i8,
}

impl fmt::Display for Facing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Files are written a..p, so a facing never has a negative file.
        f.write_char(char::from(b'a' + self.file.unsigned_abs()))?;
        write!(f, "{}", i32::from(self.rank) + 1)
    }
}

/// What stands before a written square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Separator {
    /// Nothing: the first square of `Nf3`, the second of `Ng1f3`.
    None,
    /// `-`: `Ng1-f3`, `Nxf6-c4`, `Ra1-e1-f10`.
    Dash,
    /// `x`: `Nxf6`, `Nc4xf6`.
    Capture,
}

/// A promotion piece, and whether `=` was written before it (`e8=Q` or `e8Q`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Promotion {
    /// The letter as an ASCII byte (`b'Q'`): a `char` would triple the size of every
    /// [`Target`], and moves are most of what a game holds.
    pub piece: u8,
    pub equals: bool,
}

/// One written square with what precedes and follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    pub separator: Separator,
    pub square: Square,
    /// `=Q` after this square; it may stand mid-move (`e10=Q-f1`).
    pub promotion: Option<Promotion>,
}

/// A lone file or rank before the first square: `Nbd7`, `R1e2`, the pawn file of `exd5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hint {
    File(u8),
    Rank(u8),
}

/// The written squares of a move in order, read as a slice. Nearly every move writes
/// one, a move with its origin or through a passage two or three (`c5-c4xg8`), kept
/// inline; a path (`Ke2-e4-e6-e8`, section 7) may write any number, kept on the heap.
/// Sixteen bytes: with the heap behind one thin pointer, a [`Notation`] is no larger
/// than when moves wrote three squares at most, and moves are most of what a game holds.
#[derive(Clone)]
pub struct Targets(Squares);

#[derive(Clone)]
enum Squares {
    Inline(Inline, [Target; 3]),
    #[expect(
        clippy::box_collection,
        reason = "a thin pointer keeps `Targets` at sixteen bytes"
    )]
    Heap(Box<Vec<Target>>),
}

/// How many inline squares are written: an enum, so that the spare values of its byte
/// tell the two kinds of [`Squares`] apart without a byte of their own.
#[derive(Clone, Copy)]
enum Inline {
    Zero,
    One,
    Two,
    Three,
}

/// What fills the inline squares not written.
const UNUSED: Target = Target {
    separator: Separator::None,
    square: Square::new(0, 0),
    promotion: None,
};

impl Targets {
    pub const fn new() -> Targets {
        Targets(Squares::Inline(Inline::Zero, [UNUSED; 3]))
    }

    /// The one square of nearly every move.
    #[inline(always)]
    pub const fn one(target: Target) -> Targets {
        Targets(Squares::Inline(Inline::One, [target, UNUSED, UNUSED]))
    }

    #[inline]
    pub fn push(&mut self, target: Target) {
        match &mut self.0 {
            Squares::Inline(count, squares) => {
                *count = match *count {
                    Inline::Zero => Inline::One,
                    Inline::One => Inline::Two,
                    Inline::Two => Inline::Three,
                    Inline::Three => {
                        let mut all = squares.to_vec();
                        all.push(target);
                        self.0 = Squares::Heap(Box::new(all));
                        return;
                    }
                };
                squares[*count as usize - 1] = target;
            }
            Squares::Heap(all) => all.push(target),
        }
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Target] {
        match &self.0 {
            Squares::Inline(count, squares) => &squares[..*count as usize],
            Squares::Heap(all) => all,
        }
    }

    /// Whether the squares are on the heap (more than three).
    #[inline(always)]
    pub fn spilled(&self) -> bool {
        matches!(self.0, Squares::Heap(_))
    }
}

impl Default for Targets {
    fn default() -> Targets {
        Targets::new()
    }
}

impl std::ops::Deref for Targets {
    type Target = [Target];

    #[inline(always)]
    fn deref(&self) -> &[Target] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a Targets {
    type Item = &'a Target;
    type IntoIter = std::slice::Iter<'a, Target>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl PartialEq for Targets {
    fn eq(&self, other: &Targets) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Targets {}

impl std::hash::Hash for Targets {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for Targets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// `[letter]@square`: after a move, what it puts on the square; as a whole move, a drop
/// or a square whose piece changes sides (`spec/notation.md` section 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// After a move, a piece of this letter appears (`Qxf7K@g7`: #68's king, `Rxd8Q@f7`),
    /// or with none the piece the move captured is put there (`Rxe1@h1`). As a whole
    /// move, the piece dropped (`R@h8`), or with none the piece on the square changes
    /// sides (`@f7`). An ASCII byte, as [`Promotion::piece`], to keep every move small.
    pub piece: Option<u8>,
    pub square: Square,
}

/// Every form that is not castling or a null move.
///
/// `repr(C)` puts the letter first: the values a `char` cannot take then lie at the front
/// of every [`Notation`], where the enums around it keep their tags, so that a PGN item
/// holding a move is no larger than the move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct PieceMove {
    /// The piece letter as written (`N`, `A`, `P`...); none for a pawn. Two letters
    /// (`RBa4`, a rook carrying a bishop under #115) are kept as one char outside the
    /// letters ([`PieceMove::letter`] and [`PieceMove::rider`] read them back), so no
    /// field is added to every move and a reader that knows no stacks sees no letter it
    /// knows.
    pub piece: Option<char>,
    pub hint: Option<Hint>,
    /// `K@g7`, `@h1`: what the move puts on a square besides its own piece.
    pub placed: Option<Placement>,
    /// `->a8`: a push (#43) or a knight facing (#85).
    pub arrow: Option<Facing>,
    /// `/g1`: the knight that swaps in (#85 Loyal Knights, LK-4).
    pub swap: Option<Square>,
    /// The written squares in order; empty only for a push without origin (`R->a4`).
    pub targets: Targets,
}

/// Where two piece letters are kept as one char (Supplementary Private Use Area-A).
const TWO_LETTERS: u32 = 0xF_0000;

/// `RB` of `RBa4` as one char for [`PieceMove::piece`].
fn two_letters(first: char, rider: char) -> char {
    char::from_u32(TWO_LETTERS + ((first as u32 & 0x7f) << 7) + (rider as u32 & 0x7f))
        .expect("a private-use char")
}

impl PieceMove {
    /// The first piece letter as written (`R` of `Ra4` and of `RBa4`).
    pub fn letter(&self) -> Option<char> {
        self.piece.map(|piece| match piece as u32 {
            code @ TWO_LETTERS.. => char::from(((code - TWO_LETTERS) >> 7) as u8),
            _ => piece,
        })
    }

    /// The second piece letter (`B` of `RBa4`): the piece riding on the first.
    pub fn rider(&self) -> Option<char> {
        self.piece.and_then(|piece| {
            (piece as u32)
                .checked_sub(TWO_LETTERS)
                .map(|code| char::from((code & 0x7f) as u8))
        })
    }

    /// A move with no event suffix (`@`, `->`, `/`).
    fn plain(piece: Option<char>, hint: Option<Hint>, targets: Targets) -> Self {
        PieceMove {
            piece,
            hint,
            targets,
            placed: None,
            arrow: None,
            swap: None,
        }
    }

    /// The square of `K@g7`: a king appears there (#68 Prince: a captured king comes
    /// back on the owner's chosen pawn).
    pub fn king_at(&self) -> Option<Square> {
        self.placed
            .filter(|placed| placed.piece == Some(b'K'))
            .map(|placed| placed.square)
    }
}

/// How castling was spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Castle {
    pub long: bool,
    /// The letter used: `O` (standard), `0` or `o` (accepted spellings).
    pub letter: char,
}

/// The two spellings of a null move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NullSpelling {
    /// `--` (ChessBase, python-chess).
    Dashes,
    /// `Z0` (ChessBase).
    Z0,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveBody {
    Castle(Castle),
    Null(NullSpelling),
    Piece(PieceMove),
    /// A whole move that only places: `R@h8` drops a rook (#7), `@f7` turns the piece on
    /// f7 to the mover's side (#16).
    Placement(Placement),
    /// One turn in parts joined by commas (`Qxe5,Qxe6#`, `e4,d4`: #13, #51, #102): two or
    /// more castlings, piece moves and placements. The check mark and assessment of the
    /// [`Notation`] belong to the last part.
    Turn(Box<[MoveBody]>),
    /// A capture by a piece of this letter with the captured square unsaid: the forum's
    /// `Ntakes` (`spec/notation.md` section 6), read where that piece has one capture; a
    /// small `b` (`btakes`) is the bishop's or the b-pawn's. Written `Nx`; an ASCII byte,
    /// as [`Promotion::piece`].
    UnsaidCapture(u8),
    /// `Bx@d6`, `RFire@d7`, `Ra1@a2`: the piece acts on the square and stays where it is
    /// (#47's mounted bishop shoots, #46's catapult fires or loads).
    Shot(Shot),
    /// `Ra7.5`, `Bef3.5`, `Rab1.0`: the piece stops on a half square, covering two or
    /// four squares (#87).
    Half(Half),
}

/// `Ra7.5`, `Bef3.5`, `Qab1.5`, `Rab1.0`, `Rh7a7.5`: a piece of the letter stops half a
/// square off a square, standing on the two or four squares around the point written
/// (#87 Occupying Multiple Squares, OM-2). Two adjacent file letters put the point between
/// those files, `.5` between the rank written and the next; `.0` says the rank is whole,
/// so that two files on one rank (`Rab1.0`) are not read as SAN's `Rab1`, a rook from the
/// a-file to b1. Never a capture: a piece that stops so takes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Half {
    /// The piece's letter, an ASCII byte as [`Promotion::piece`].
    pub piece: u8,
    /// Its square (`Rh7a7.5`), where two pieces could stop there.
    pub from: Option<Square>,
    /// The lowest of the covered squares: the first file written, the rank written.
    pub corner: Square,
    /// Two files written (`ef`): the next file is covered too.
    pub wide: bool,
    /// `.5`: the next rank is covered too.
    pub tall: bool,
}

/// `Bx@d6`, `Bh1x@d6`: a piece of the letter acts on the square from where it stands,
/// without moving: #47 Watch Tower's shot takes the piece there, #46 Sacrificial
/// Catapult's rook fires at it (`RFire@d7`) or loads the own piece there (`Ra1@a2`). Its
/// own form, not a capture with a placement: nothing is put on the square, and the piece
/// does not go there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shot {
    /// The acting piece's letter, an ASCII byte as [`Promotion::piece`].
    pub piece: u8,
    /// Its file or rank (`Bhx@d6`), where two pieces could act on the square.
    pub hint: Option<Hint>,
    /// Its square (`Bh1x@d6`).
    pub from: Option<Square>,
    /// What the piece does: the word between its origin and the `@`.
    pub verb: Verb,
    /// The square acted on.
    pub square: Square,
}

/// The word of a [`Shot`] before its `@`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verb {
    /// `x@`: takes the piece on the square (#47).
    Takes,
    /// `Fire@`: fires at the square (#46).
    Fires,
    /// A bare `@` after a written origin (`Ra@b1`, `Ra1@a2`): takes the own piece on the
    /// square onto itself (#46's load). Without an origin, `R@a2` is a drop's shape and
    /// stays a [`Placement`].
    Loads,
}

impl Verb {
    fn word(self) -> &'static str {
        match self {
            Verb::Takes => "x@",
            Verb::Fires => "Fire@",
            Verb::Loads => "@",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckMark {
    Check,
    Mate,
}

/// Move assessment glyphs written onto the move (`!?`); `$n` NAGs are separate tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Assessment {
    Good,
    Mistake,
    Brilliant,
    Blunder,
    Interesting,
    Dubious,
}

impl Assessment {
    pub const fn as_str(self) -> &'static str {
        match self {
            Assessment::Good => "!",
            Assessment::Mistake => "?",
            Assessment::Brilliant => "!!",
            Assessment::Blunder => "??",
            Assessment::Interesting => "!?",
            Assessment::Dubious => "?!",
        }
    }

    /// The NAG with the same meaning (PGN standard 10.1).
    pub const fn nag(self) -> u8 {
        match self {
            Assessment::Good => 1,
            Assessment::Mistake => 2,
            Assessment::Brilliant => 3,
            Assessment::Blunder => 4,
            Assessment::Interesting => 5,
            Assessment::Dubious => 6,
        }
    }
}

/// One move token exactly as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Notation {
    pub body: MoveBody,
    pub check: Option<CheckMark>,
    pub assessment: Option<Assessment>,
}

/// A token that is not a move in any form; `at` is the byte offset in the token where
/// reading stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    pub at: usize,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a move (unreadable from byte {})", self.at)
    }
}

impl std::error::Error for NotationError {}

impl Notation {
    /// Reads one whole move token; anything left over is an error.
    #[inline(always)]
    pub fn parse(token: &str) -> Result<Notation, NotationError> {
        match plain_san(token.as_bytes()) {
            Some((notation, [])) => Ok(notation),
            _ => parse_any_form(token),
        }
    }

    /// Reads plain SAN or castling, the forms nearly every move takes, at the front of
    /// `text`; returns it and the bytes after it. As no byte it reads is a blank or PGN
    /// punctuation, a reader may run it before finding where the token ends. `None`, or
    /// bytes left in the token, leave the token to [`Notation::parse`].
    #[inline(always)]
    pub(crate) fn parse_plain_prefix(text: &[u8]) -> Option<(Notation, &[u8])> {
        plain_san(text)
    }

    /// [`Notation::parse_plain_prefix`] written into `self` field by field where it
    /// stands (a reader's list): a notation returned whole is built from narrow stores
    /// and then copied in wide loads, which those stores cannot forward to, a stall of
    /// some fifteen cycles for every move read. Returns the bytes after the move; on
    /// `None`, `self` holds some notation, not the text's. `self` must own no heap
    /// memory (as [`Notation::UNREAD`]): its body is forgotten, not dropped through a
    /// call for every move.
    #[inline(always)]
    pub(crate) fn read_plain_prefix_into<'t>(&mut self, text: &'t [u8]) -> Option<&'t [u8]> {
        debug_assert!(!self.owns_heap());
        // Each branch writes its own body: a body chosen between the two and written
        // after would be built in memory first.
        let rest = match text.first()? {
            b'O' | b'0' | b'o' => {
                let (body, rest) = plain_castle(text)?;
                std::mem::forget(std::mem::replace(&mut self.body, body));
                rest
            }
            _ => {
                let (body, rest) = plain_piece_move(text)?;
                std::mem::forget(std::mem::replace(&mut self.body, body));
                rest
            }
        };
        // Most moves end here, and the reader that runs past a move's end finds a
        // delimiter here rather than nothing: one test instead of every suffix's.
        if !matches!(rest.first(), Some(b'+' | b'#' | b'!' | b'?')) {
            self.check = None;
            self.assessment = None;
            return Some(rest);
        }
        let (check, rest) = check_byte(rest);
        let (assessment, rest) = match rest {
            [b'!', b'!', rest @ ..] => (Some(Assessment::Brilliant), rest),
            [b'?', b'?', rest @ ..] => (Some(Assessment::Blunder), rest),
            [b'!', b'?', rest @ ..] => (Some(Assessment::Interesting), rest),
            [b'?', b'!', rest @ ..] => (Some(Assessment::Dubious), rest),
            [b'!', rest @ ..] => (Some(Assessment::Good), rest),
            [b'?', rest @ ..] => (Some(Assessment::Mistake), rest),
            _ => (None, rest),
        };
        let (check, rest) = match check {
            Some(_) => (check, rest),
            None => check_byte(rest),
        };
        self.check = check;
        self.assessment = assessment;
        Some(rest)
    }

    /// What [`Notation::read_plain_prefix_into`] is first pushed as, to be written over.
    pub(crate) const UNREAD: Notation = Notation {
        body: MoveBody::Castle(Castle {
            long: false,
            letter: 'O',
        }),
        check: None,
        assessment: None,
    };

    pub fn is_null(&self) -> bool {
        matches!(self.body, MoveBody::Null(_))
    }

    /// Whether the notation holds memory of its own: only the rare forms that do not fit
    /// inline do (a path of more than three squares, a turn of several parts).
    #[inline]
    pub(crate) fn owns_heap(&self) -> bool {
        match &self.body {
            MoveBody::Piece(m) => m.targets.spilled(),
            MoveBody::Turn(_) => true,
            MoveBody::Castle(_)
            | MoveBody::Null(_)
            | MoveBody::Placement(_)
            | MoveBody::Shot(_)
            | MoveBody::Half(_)
            | MoveBody::UnsaidCapture(_) => false,
        }
    }
}

/// The full parser: every form of the notation table.
fn parse_any_form(token: &str) -> Result<Notation, NotationError> {
    match notation(token) {
        Ok(("", notation)) => Ok(notation),
        Ok((rest, _)) => Err(NotationError {
            at: token.len() - rest.len(),
        }),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(NotationError {
            at: token.len() - e.input.len(),
        }),
        Err(nom::Err::Incomplete(_)) => Err(NotationError { at: token.len() }),
    }
}

/// Plain SAN and castling, nearly every move of real games, read byte by byte: the
/// combinators cost more than the rest of reading a game. `None`, or bytes left after
/// the move, leave the token to [`parse_any_form`], and wherever this reads a whole
/// token the move is the one that gives. Whether bytes follow is for the caller to
/// judge: those that may are read only as a lookahead (a digit after a square, `@`
/// after a letter).
#[inline(always)]
fn plain_san(token: &[u8]) -> Option<(Notation, &[u8])> {
    let mut notation = Notation::UNREAD;
    let rest = notation.read_plain_prefix_into(token)?;
    Some((notation, rest))
}

#[inline(always)]
fn check_byte(rest: &[u8]) -> (Option<CheckMark>, &[u8]) {
    match rest {
        [b'+', rest @ ..] => (Some(CheckMark::Check), rest),
        [b'#', rest @ ..] => (Some(CheckMark::Mate), rest),
        _ => (None, rest),
    }
}

#[inline(always)]
fn plain_castle(token: &[u8]) -> Option<(MoveBody, &[u8])> {
    let [letter, b'-', second, rest @ ..] = token else {
        return None;
    };
    if second != letter {
        return None;
    }
    let (long, rest) = match rest {
        [b'-', third, rest @ ..] if third == letter => (true, rest),
        _ => (false, rest),
    };
    let castle = Castle {
        long,
        letter: char::from(*letter),
    };
    Some((MoveBody::Castle(castle), rest))
}

/// `[piece] [file or rank hint] [x] square [promotion]`, with ranks 1..9 only.
#[inline(always)]
fn plain_piece_move(token: &[u8]) -> Option<(MoveBody, &[u8])> {
    let (piece, rest) = match token {
        // `O` and `Z` may begin castling or `Z0`: the full parser decides.
        [p @ b'A'..=b'Z', rest @ ..] if !matches!(p, b'O' | b'Z') => (Some(char::from(*p)), rest),
        _ => (None, token),
    };
    // A hint is a file or rank that a file or `x` follows, where a square cannot start.
    // The square right away, most moves, is tried first.
    let (hint, separator, rest) = match rest {
        [b'a'..=b'p', b'1'..=b'9', ..] => (None, Separator::None, rest),
        [b'x', rest @ ..] => (None, Separator::Capture, rest),
        [f @ b'a'..=b'p', b'x', rest @ ..] => {
            (Some(Hint::File(f - b'a')), Separator::Capture, rest)
        }
        [f @ b'a'..=b'p', b'a'..=b'p', ..] => {
            (Some(Hint::File(f - b'a')), Separator::None, &rest[1..])
        }
        [r @ b'1'..=b'9', b'x', rest @ ..] => {
            (Some(Hint::Rank(r - b'1')), Separator::Capture, rest)
        }
        [r @ b'1'..=b'9', b'a'..=b'p', ..] => {
            (Some(Hint::Rank(r - b'1')), Separator::None, &rest[1..])
        }
        _ => (None, Separator::None, rest),
    };
    let (square, rest) = match rest {
        [f @ b'a'..=b'p', r @ b'1'..=b'9', rest @ ..]
            if !rest.first().is_some_and(u8::is_ascii_digit) =>
        {
            (Square::new(f - b'a', r - b'1'), rest)
        }
        _ => return None,
    };
    let (promotion, rest) = match rest {
        [b'=', p, rest @ ..] if p.is_ascii_alphabetic() => (Some((*p, true)), rest),
        [p @ b'A'..=b'Z', rest @ ..] if rest.first() != Some(&b'@') => (Some((*p, false)), rest),
        _ => (None, rest),
    };
    let targets = Targets::one(Target {
        separator,
        square,
        promotion: promotion.map(|(p, equals)| Promotion { piece: p, equals }),
    });
    let body = MoveBody::Piece(PieceMove::plain(piece, hint, targets));
    Some((body, rest))
}

pub(crate) type Res<'a, T> = IResult<&'a str, T>;

fn file(i: &str) -> Res<'_, u8> {
    satisfy(|c| ('a'..='p').contains(&c))
        .map(|c| c as u8 - b'a')
        .parse(i)
}

/// Ranks 1..16; `10`..`16` are read greedily so `a10` is one square.
fn rank(i: &str) -> Res<'_, u8> {
    let (i, first) = satisfy(|c| ('1'..='9').contains(&c)).parse(i)?;
    if first == '1'
        && let Ok((rest, second)) =
            satisfy::<_, _, nom::error::Error<&str>>(|c| ('0'..='6').contains(&c)).parse(i)
    {
        return Ok((rest, 10 + (second as u8 - b'0') - 1));
    }
    Ok((i, first as u8 - b'1'))
}

/// Reads one square (`a1`..`p16`).
pub(crate) fn square(i: &str) -> Res<'_, Square> {
    (file, rank).map(|(f, r)| Square::new(f, r)).parse(i)
}

/// Reads the square after `->`, which may be one rank off the board.
pub(crate) fn facing(i: &str) -> Res<'_, Facing> {
    let off_board = value(-1i8, char('0'));
    let on_board = rank.map(|r| r as i8);
    (file, alt((on_board, off_board)))
        .map(|(f, r)| Facing {
            file: f as i8,
            rank: r,
        })
        .parse(i)
}

fn piece_letter(i: &str) -> Res<'_, char> {
    satisfy(|c| c.is_ascii_uppercase()).parse(i)
}

/// `=Q`, `=q`, or a bare uppercase letter that is not the `K` of `K@g7`.
fn promotion(i: &str) -> Res<'_, Promotion> {
    if let Ok((rest, _)) = char::<_, nom::error::Error<&str>>('=').parse(i) {
        return satisfy(|c| c.is_ascii_alphabetic())
            .map(|piece| Promotion {
                piece: piece as u8,
                equals: true,
            })
            .parse(rest);
    }
    let (rest, piece) = piece_letter(i)?;
    if rest.starts_with('@') {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Char,
        )));
    }
    Ok((
        rest,
        Promotion {
            piece: piece as u8,
            equals: false,
        },
    ))
}

fn target<'a>(
    first: bool,
) -> impl Parser<&'a str, Output = Target, Error = nom::error::Error<&'a str>> {
    move |i: &'a str| {
        let separators = if first {
            alt((
                value(Separator::Capture, char('x')),
                value(Separator::None, tag("")),
            ))
            .parse(i)
        } else {
            alt((
                value(Separator::Capture, char('x')),
                value(Separator::Dash, char('-')),
                value(Separator::None, tag("")),
            ))
            .parse(i)
        };
        let (i, separator) = separators?;
        let (i, square) = square(i)?;
        let (i, promotion) = if i.starts_with(|c: char| c == '=' || c.is_ascii_uppercase()) {
            opt(promotion).parse(i)?
        } else {
            (i, None)
        };
        Ok((
            i,
            Target {
                separator,
                square,
                promotion,
            },
        ))
    }
}

fn hint(i: &str) -> Res<'_, Hint> {
    alt((file.map(Hint::File), rank.map(Hint::Rank))).parse(i)
}

fn targets(i: &str) -> Res<'_, Targets> {
    let (mut i, first) = target(true).parse(i)?;
    let mut targets = Targets::one(first);
    // Peek before trying another square: most tokens end after one.
    while i.starts_with(|c: char| matches!(c, 'x' | '-' | 'a'..='p'))
        && let Ok((rest, next)) = target(false).parse(i)
    {
        targets.push(next);
        i = rest;
    }
    Ok((i, targets))
}

/// `R@h8`, `@f7`, and the `K@g7` or `@h1` after a move.
fn placement(i: &str) -> Res<'_, Placement> {
    (opt(piece_letter), char('@'), square)
        .map(|(piece, _, square)| Placement {
            piece: piece.map(|letter| letter as u8),
            square,
        })
        .parse(i)
}

fn piece_move(i: &str) -> Res<'_, PieceMove> {
    let (i, piece) = opt(piece_letter).parse(i)?;
    let (i, piece) = match piece {
        Some(first) => {
            let (i, rider) = opt(piece_letter).parse(i)?;
            (
                i,
                Some(rider.map_or(first, |rider| two_letters(first, rider))),
            )
        }
        None => (i, None),
    };
    let (i, (hint, targets)) = match targets(i) {
        Ok((rest, targets)) => (rest, (None, targets)),
        Err(nom::Err::Error(_)) => match (hint, targets).parse(i) {
            Ok((rest, (hint, targets))) => (rest, (Some(hint), targets)),
            // A push names no square before its arrow (`R->a4`).
            Err(nom::Err::Error(_)) if piece.is_some() && i.starts_with("->") => {
                (i, (None, Targets::new()))
            }
            Err(e) => return Err(e),
        },
        Err(e) => return Err(e),
    };
    if i.is_empty() {
        return Ok((i, PieceMove::plain(piece, hint, targets)));
    }
    let (i, placed) = opt(placement).parse(i)?;
    let (i, arrow) = opt((tag("->"), facing).map(|(_, f)| f)).parse(i)?;
    let (i, swap) = opt((char('/'), square).map(|(_, s)| s)).parse(i)?;
    Ok((
        i,
        PieceMove {
            piece,
            hint,
            targets,
            placed,
            arrow,
            swap,
        },
    ))
}

fn castle(i: &str) -> Res<'_, Castle> {
    let (i, letter) = satisfy(|c| matches!(c, 'O' | '0' | 'o')).parse(i)?;
    let (i, _) = (char('-'), char(letter)).parse(i)?;
    let (i, long) = opt((char('-'), char(letter))).parse(i)?;
    Ok((
        i,
        Castle {
            long: long.is_some(),
            letter,
        },
    ))
}

fn body(i: &str) -> Res<'_, MoveBody> {
    alt((
        value(MoveBody::Null(NullSpelling::Dashes), tag("--")),
        value(MoveBody::Null(NullSpelling::Z0), tag("Z0")),
        // Before the other forms, so that their errors say where a move went wrong.
        shot.map(MoveBody::Shot),
        unsaid_capture,
        turn_part,
    ))
    .parse(i)
}

/// `Nx`: a capture whose square the position tells (a small `b`: bishop or b-pawn);
/// only marks may follow it (`Nx+`), not a square (`Nxf3` is a piece move).
fn unsaid_capture(i: &str) -> Res<'_, MoveBody> {
    let (rest, piece) = satisfy(|c| c.is_ascii_uppercase() || c == 'b').parse(i)?;
    let (rest, _) = char('x').parse(rest)?;
    if !(rest.is_empty() || rest.starts_with(['+', '#', '!', '?'])) {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Char,
        )));
    }
    Ok((rest, MoveBody::UnsaidCapture(piece as u8)))
}

/// `Bx@d6`, `Bh1x@d6`, `Bhx@d6`, `RFire@d7`, `RaFire@d7`, `Ra@b1`: a piece acting on a
/// square, whose origin may be written as a move's is. A bare `@` needs the origin: `R@a2`
/// alone is a drop's shape, read as a [`Placement`].
fn shot(i: &str) -> Res<'_, Shot> {
    let (i, piece) = piece_letter(i)?;
    let (i, from) = opt(square).parse(i)?;
    let (i, hint) = match from {
        Some(_) => (i, None),
        None => opt(hint).parse(i)?,
    };
    let (i, verb) = if from.is_some() || hint.is_some() {
        alt((
            value(Verb::Takes, tag("x@")),
            value(Verb::Fires, tag("Fire@")),
            value(Verb::Loads, tag("@")),
        ))
        .parse(i)?
    } else {
        alt((
            value(Verb::Takes, tag("x@")),
            value(Verb::Fires, tag("Fire@")),
        ))
        .parse(i)?
    };
    let start = i;
    let (i, square) = square(i)?;
    // `Nf3@f3` is a move onto a square with something found there (#9's pit), not a load:
    // a load's rook and passenger stand on two squares.
    if verb == Verb::Loads && from == Some(square) {
        return Err(nom::Err::Error(nom::error::Error::new(
            start,
            nom::error::ErrorKind::Verify,
        )));
    }
    Ok((
        i,
        Shot {
            piece: piece as u8,
            hint,
            from,
            verb,
            square,
        },
    ))
}

/// `Ra7.5`, `Bef3.5`, `Rab1.0`, `Rh7a7.5`, `Rh7-a7.5`: a stop on a half square, with
/// the piece's square before it where written.
fn half(i: &str) -> Res<'_, Half> {
    let (i, piece) = piece_letter(i)?;
    let origin = (square, opt(char('-')), half_point).parse(i);
    let (i, from, (corner, wide, tall)) = match origin {
        Ok((rest, (from, _, point))) => (rest, Some(from), point),
        Err(_) => {
            let (rest, point) = half_point(i)?;
            (rest, None, point)
        }
    };
    Ok((
        i,
        Half {
            piece: piece as u8,
            from,
            corner,
            wide,
            tall,
        },
    ))
}

/// `a7.5`, `ef3.5`, `ab1.0`: the lowest covered square, whether the point lies between
/// two files and whether between two ranks. Two file letters are adjacent and in order;
/// one file with `.0` is a whole square, no half point.
fn half_point(i: &str) -> Res<'_, (Square, bool, bool)> {
    let fail = |at| nom::Err::Error(nom::error::Error::new(at, nom::error::ErrorKind::Char));
    let (rest, first) = file(i)?;
    let (rest, second) = opt(file).parse(rest)?;
    if second.is_some_and(|second| second != first + 1) {
        return Err(fail(i));
    }
    let (rest, rank) = rank(rest)?;
    let (rest, _) = char('.').parse(rest)?;
    let (rest, tall) = alt((value(true, char('5')), value(false, char('0')))).parse(rest)?;
    if second.is_none() && !tall {
        return Err(fail(i));
    }
    Ok((rest, (Square::new(first, rank), second.is_some(), tall)))
}

/// What a turn of several parts may hold: anything but a null move.
fn turn_part(i: &str) -> Res<'_, MoveBody> {
    alt((
        castle.map(MoveBody::Castle),
        placement.map(MoveBody::Placement),
        half.map(MoveBody::Half),
        piece_move.map(MoveBody::Piece),
    ))
    .parse(i)
}

/// The parts after the first of a turn (`,Qxe6` of `Qxe5,Qxe6#`), at `i`'s comma.
fn turn(mut i: &str, first: MoveBody) -> Res<'_, MoveBody> {
    if matches!(
        first,
        MoveBody::Null(_) | MoveBody::UnsaidCapture(_) | MoveBody::Shot(_)
    ) {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Char,
        )));
    }
    let mut parts = vec![first];
    while let Some(rest) = i.strip_prefix(',') {
        let (rest, part) = turn_part(rest)?;
        parts.push(part);
        i = rest;
    }
    Ok((i, MoveBody::Turn(parts.into_boxed_slice())))
}

fn check_mark(i: &str) -> Res<'_, CheckMark> {
    alt((
        value(CheckMark::Check, char('+')),
        value(CheckMark::Mate, char('#')),
    ))
    .parse(i)
}

fn assessment(i: &str) -> Res<'_, Assessment> {
    alt((
        value(Assessment::Brilliant, tag("!!")),
        value(Assessment::Blunder, tag("??")),
        value(Assessment::Interesting, tag("!?")),
        value(Assessment::Dubious, tag("?!")),
        value(Assessment::Good, tag("!")),
        value(Assessment::Mistake, tag("?")),
    ))
    .parse(i)
}

fn notation(i: &str) -> Res<'_, Notation> {
    let (i, body) = body(i)?;
    let (i, body) = if i.starts_with(',') {
        turn(i, body)?
    } else {
        (i, body)
    };
    if i.is_empty() {
        return Ok((
            i,
            Notation {
                body,
                check: None,
                assessment: None,
            },
        ));
    }
    let (i, check) = opt(check_mark).parse(i)?;
    let (i, assessment) = opt(assessment).parse(i)?;
    // Some writers put the glyph before the check mark (`Nf3!+`); read it, print it
    // in the usual order.
    let (i, check) = match check {
        Some(_) => (i, check),
        None => opt(check_mark).parse(i)?,
    };
    Ok((
        i,
        Notation {
            body,
            check,
            assessment,
        },
    ))
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_body(f, &self.body)?;
        match self.check {
            Some(CheckMark::Check) => f.write_char('+')?,
            Some(CheckMark::Mate) => f.write_char('#')?,
            None => {}
        }
        if let Some(a) = self.assessment {
            f.write_str(a.as_str())?;
        }
        Ok(())
    }
}

fn write_body(f: &mut fmt::Formatter<'_>, body: &MoveBody) -> fmt::Result {
    match body {
        MoveBody::Castle(castle) => {
            let l = castle.letter;
            write!(f, "{l}-{l}")?;
            if castle.long {
                write!(f, "-{l}")?;
            }
            Ok(())
        }
        MoveBody::Null(NullSpelling::Dashes) => f.write_str("--"),
        MoveBody::Null(NullSpelling::Z0) => f.write_str("Z0"),
        MoveBody::Piece(m) => write_piece_move(f, m),
        MoveBody::Placement(placed) => write!(f, "{placed}"),
        MoveBody::UnsaidCapture(piece) => write!(f, "{}x", char::from(*piece)),
        MoveBody::Shot(shot) => write!(f, "{shot}"),
        MoveBody::Half(half) => write!(f, "{half}"),
        MoveBody::Turn(parts) => {
            for (k, part) in parts.iter().enumerate() {
                if k > 0 {
                    f.write_char(',')?;
                }
                write_body(f, part)?;
            }
            Ok(())
        }
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(piece) = self.piece {
            f.write_char(char::from(piece))?;
        }
        write!(f, "@{}", self.square)
    }
}

impl fmt::Display for Shot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char(char::from(self.piece))?;
        match (self.from, self.hint) {
            (Some(from), _) => write!(f, "{from}")?,
            (None, Some(Hint::File(file))) => f.write_char(char::from(b'a' + file))?,
            (None, Some(Hint::Rank(rank))) => write!(f, "{}", u32::from(rank) + 1)?,
            (None, None) => {}
        }
        write!(f, "{}{}", self.verb.word(), self.square)
    }
}

impl fmt::Display for Half {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char(char::from(self.piece))?;
        if let Some(from) = self.from {
            write!(f, "{from}")?;
        }
        f.write_char(char::from(b'a' + self.corner.file))?;
        if self.wide {
            f.write_char(char::from(b'a' + self.corner.file + 1))?;
        }
        let half = if self.tall { '5' } else { '0' };
        write!(f, "{}.{half}", u32::from(self.corner.rank) + 1)
    }
}

fn write_piece_move(f: &mut fmt::Formatter<'_>, m: &PieceMove) -> fmt::Result {
    if let Some(letter) = m.letter() {
        f.write_char(letter)?;
    }
    if let Some(rider) = m.rider() {
        f.write_char(rider)?;
    }
    match m.hint {
        Some(Hint::File(file)) => f.write_char(char::from(b'a' + file))?,
        Some(Hint::Rank(rank)) => write!(f, "{}", u32::from(rank) + 1)?,
        None => {}
    }
    for target in &m.targets {
        match target.separator {
            Separator::None => {}
            Separator::Dash => f.write_char('-')?,
            Separator::Capture => f.write_char('x')?,
        }
        write!(f, "{}", target.square)?;
        if let Some(p) = target.promotion {
            if p.equals {
                f.write_char('=')?;
            }
            f.write_char(char::from(p.piece))?;
        }
    }
    if let Some(placed) = m.placed {
        write!(f, "{placed}")?;
    }
    if let Some(facing) = m.arrow {
        write!(f, "->{facing}")?;
    }
    if let Some(square) = m.swap {
        write!(f, "/{square}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let (rest, s) = square(name).expect("square");
        assert!(rest.is_empty());
        s
    }

    fn piece_move(token: &str) -> PieceMove {
        match Notation::parse(token).expect(token).body {
            MoveBody::Piece(m) => m,
            other => panic!("{token}: {other:?}"),
        }
    }

    #[test]
    fn every_form_of_the_notation_table_prints_back_as_written() {
        for token in [
            "e4",
            "Nf3",
            "exd5",
            "Nbd7",
            "R1e2",
            "Qh4xe1",
            "e8=Q",
            "O-O",
            "O-O-O",
            "0-0",
            "0-0-0",
            "e8Q",
            "Ng1f3",
            "Ng1-f3",
            "--",
            "Z0",
            "Nxf6-c4",
            "Bxc4-f6",
            "Nc4xf6",
            "c4-g8=Q+",
            "c8-c1",
            "Bxc4xf6",
            "c5-c4xg8",
            "Ng8xf6-c4",
            "Ra1-e1-f10",
            "Re1-f10",
            "Cf1-e10+",
            "e10=Q-f1",
            "e1=Q-f10",
            "Qxf7K@g7+",
            "R->a4",
            "R->d8",
            "Rc8->a8",
            "Ra3->a8",
            "a8=Q",
            "Nf3->g2",
            "Nxe5->e6",
            "e8=N->e7",
            "Nf3->f5",
            "Rxd4/g1",
            "Nb1->a0",
            "Bc4xf6K@g7",
            "e4!",
            "e4?",
            "Nf3!!",
            "Qh5??",
            "Bb5!?",
            "a3?!",
            "Qxf7#",
            "Qh4+!?",
            "p16",
            "Ap16xo15",
            "R16a1",
            "e8=q",
            "o-o",
            "U->p1",
            "Pe4",
            // Section 7: the catalogue's forms.
            "Bx@d6",
            "Ra7.5",
            "Bef3.5+",
            "Qab1.5",
            "Rab1.0",
            "Rh7a7.5",
            "Bh1x@d6+",
            "Bhx@h3",
            "B1x@c3#",
            "Rxd8Q@f7",
            "Qxf7K@g7",
            "Rxe1@h1",
            "Bxa6@b7",
            "R@h8",
            "N@h6#",
            "@f7",
            "@f7#",
            "Qxe5,Qxe6#",
            "e4,d4",
            "b8=Q,h8=Q#",
            "O-O,Kf1",
            "R@a2,@f7,Qxe3xf3!?",
            "g2-g1",
            "h2-g2",
            "h2-f1",
            "g3-c8=Q+",
            "Ke2-e4-e6-e8",
            "h7-f5-d3-f1-d1-b1=Q",
            "Qxe3xf3",
            "d8=K",
        ] {
            let parsed = Notation::parse(token).unwrap_or_else(|e| panic!("{token}: {e}"));
            assert_eq!(parsed.to_string(), token);
        }
    }

    #[test]
    fn squares_cover_sixteen_files_and_ranks() {
        assert_eq!(sq("a1"), Square::new(0, 0));
        assert_eq!(sq("a10"), Square::new(0, 9));
        assert_eq!(sq("p16"), Square::new(15, 15));
        assert!(square("q1").is_err());
        assert!(square("a0").is_err());
    }

    #[test]
    fn long_forms_keep_every_square_and_separator() {
        let m = piece_move("c5-c4xg8");
        assert_eq!(m.piece, None);
        let written: Vec<_> = m.targets.iter().map(|t| (t.separator, t.square)).collect();
        assert_eq!(
            written,
            [
                (Separator::None, sq("c5")),
                (Separator::Dash, sq("c4")),
                (Separator::Capture, sq("g8")),
            ]
        );
        let m = piece_move("e10=Q-f1");
        assert_eq!(
            m.targets[0].promotion,
            Some(Promotion {
                piece: b'Q',
                equals: true
            })
        );
        assert_eq!(m.targets[1].square, sq("f1"));
    }

    #[test]
    fn hints_and_disambiguation() {
        assert_eq!(piece_move("Nbd7").hint, Some(Hint::File(1)));
        assert_eq!(piece_move("R1e2").hint, Some(Hint::Rank(0)));
        assert_eq!(piece_move("R10e2").hint, Some(Hint::Rank(9)));
        let m = piece_move("exd5");
        assert_eq!((m.piece, m.hint), (None, Some(Hint::File(4))));
        assert_eq!(m.targets[0].separator, Separator::Capture);
    }

    #[test]
    fn event_forms() {
        let m = piece_move("Qxf7K@g7+");
        assert_eq!(m.king_at(), Some(sq("g7")));
        let m = piece_move("R->a4");
        assert!(m.targets.is_empty());
        assert_eq!(m.arrow, Some(Facing { file: 0, rank: 3 }));
        assert_eq!(
            piece_move("Nb1->a0").arrow,
            Some(Facing { file: 0, rank: -1 })
        );
        assert_eq!(piece_move("Rxd4/g1").swap, Some(sq("g1")));
        let promoted = piece_move("e8=N->e7");
        assert_eq!(promoted.targets[0].promotion.map(|p| p.piece), Some(b'N'));
        assert_eq!(promoted.arrow, Some(Facing { file: 4, rank: 6 }));
    }

    #[test]
    fn a_half_square_names_its_lowest_square_and_which_way_it_spreads() {
        let half = |token: &str| match Notation::parse(token).map(|n| n.body) {
            Ok(MoveBody::Half(half)) => Some(half),
            _ => None,
        };
        assert_eq!(
            half("Bef3.5"),
            Some(Half {
                piece: b'B',
                from: None,
                corner: sq("e3"),
                wide: true,
                tall: true,
            })
        );
        let rook = half("Ra7.5").unwrap();
        assert_eq!((rook.corner, rook.wide, rook.tall), (sq("a7"), false, true));
        let rank = half("Rab1.0").unwrap();
        assert_eq!((rank.corner, rank.wide, rank.tall), (sq("a1"), true, false));
        let origin = half("Rh7-a7.5").unwrap();
        assert_eq!(origin.from, Some(sq("h7")));
        assert_eq!(origin.to_string(), "Rh7a7.5");
        // `Rab1` stays SAN's rook from the a-file; a file pair must be adjacent and in
        // order; one file needs `.5`; a half square takes nothing.
        assert!(matches!(
            Notation::parse("Rab1").unwrap().body,
            MoveBody::Piece(_)
        ));
        for bad in ["Rac1.0", "Rba1.0", "Ra1.0", "Ra1.7", "Rxa7.5", "Ra7.5.5"] {
            assert!(half(bad).is_none(), "{bad}");
        }
        // A part of a turn, as #1 writes the ally a check calls back after it.
        let MoveBody::Turn(parts) = Notation::parse("Qgh4.5,P@c2+").unwrap().body else {
            panic!("a turn");
        };
        assert!(matches!(parts[0], MoveBody::Half(_)));
    }

    #[test]
    fn a_shot_is_its_own_form_with_an_origin_as_a_move_writes_it() {
        let n = Notation::parse("Bh1x@h3+").unwrap();
        assert_eq!(
            n.body,
            MoveBody::Shot(Shot {
                piece: b'B',
                hint: None,
                from: Some(sq("h1")),
                verb: Verb::Takes,
                square: sq("h3"),
            })
        );
        assert_eq!(n.check, Some(CheckMark::Check));
        let MoveBody::Shot(shot) = Notation::parse("Bdx@d6").unwrap().body else {
            panic!("a shot");
        };
        assert_eq!(shot.hint, Some(Hint::File(3)));
        // `Bx` alone is the unsaid capture; `x@` with no square, or `@` without `x`,
        // is no shot.
        assert_eq!(
            Notation::parse("Bx").unwrap().body,
            MoveBody::UnsaidCapture(b'B')
        );
        assert!(Notation::parse("Bx@").is_err());
        assert!(!matches!(
            Notation::parse("B@d6").map(|n| n.body),
            Ok(MoveBody::Shot(_))
        ));
    }

    #[test]
    fn a_catapult_fires_and_loads_in_the_shot_form_and_a_bare_drop_stays_a_drop() {
        let shot = |text: &str| match Notation::parse(text).map(|n| n.body) {
            Ok(MoveBody::Shot(shot)) => Some(shot),
            _ => None,
        };
        let fire = shot("RFire@d7").unwrap();
        assert_eq!((fire.verb, fire.square), (Verb::Fires, sq("d7")));
        assert_eq!(shot("Ra5Fire@a7").unwrap().from, Some(sq("a5")));
        assert_eq!(shot("RaFire@a7").unwrap().hint, Some(Hint::File(0)));
        let load = shot("R1@b1").unwrap();
        assert_eq!((load.verb, load.hint), (Verb::Loads, Some(Hint::Rank(0))));
        assert_eq!(shot("Ra1@a2").unwrap().verb, Verb::Loads);
        for written in [
            "RFire@d7+",
            "RaFire@a7",
            "Ra5Fire@a7",
            "R1@b1",
            "Ra@b1",
            "Ra1@a2",
        ] {
            assert_eq!(Notation::parse(written).unwrap().to_string(), written);
        }
        // `R@a2` keeps the drop's shape (#7 reads it too); `Nf3@f3` stays #9's move with
        // a pit found on its square.
        assert!(matches!(
            Notation::parse("R@a2").unwrap().body,
            MoveBody::Placement(_)
        ));
        assert!(shot("Nf3@f3").is_none());
        assert!(shot("RFire@").is_none());
    }

    #[test]
    fn paths_of_any_length_keep_their_squares_and_stay_inline_up_to_three() {
        let m = piece_move("h7-f5-d3-f1-d1-b1=Q");
        let squares: Vec<String> = m.targets.iter().map(|t| t.square.to_string()).collect();
        assert_eq!(squares, ["h7", "f5", "d3", "f1", "d1", "b1"]);
        assert!(
            m.targets[1..]
                .iter()
                .all(|t| t.separator == Separator::Dash)
        );
        assert_eq!(m.targets[5].promotion.map(|p| p.piece), Some(b'Q'));
        assert!(Notation::parse("h7-f5-d3-f1-d1-b1=Q").unwrap().owns_heap());
        for token in ["e4", "Ng1-f3", "c5-c4xg8", "Qxe3xf3"] {
            assert!(!Notation::parse(token).unwrap().owns_heap(), "{token}");
        }
    }

    #[test]
    fn placements_after_a_move_name_the_piece_or_the_captured_one() {
        let m = piece_move("Rxd8Q@f7");
        assert_eq!(m.targets.len(), 1);
        assert_eq!(m.targets[0].promotion, None, "the Q of Q@ is no promotion");
        assert_eq!(
            m.placed,
            Some(Placement {
                piece: Some(b'Q'),
                square: sq("f7")
            })
        );
        assert_eq!(m.king_at(), None);
        let m = piece_move("Rxe1@h1");
        assert_eq!(
            m.placed,
            Some(Placement {
                piece: None,
                square: sq("h1")
            })
        );
        let m = piece_move("e8=Q@f7");
        assert_eq!(m.targets[0].promotion.map(|p| p.piece), Some(b'Q'));
        assert_eq!(m.placed.map(|p| p.square), Some(sq("f7")));
    }

    #[test]
    fn drops_and_at_squares_are_whole_moves() {
        let n = Notation::parse("N@h6#").unwrap();
        assert_eq!(
            n.body,
            MoveBody::Placement(Placement {
                piece: Some(b'N'),
                square: sq("h6")
            })
        );
        assert_eq!(n.check, Some(CheckMark::Mate));
        let n = Notation::parse("@f7").unwrap();
        assert_eq!(
            n.body,
            MoveBody::Placement(Placement {
                piece: None,
                square: sq("f7")
            })
        );
        assert!(!n.owns_heap());
    }

    #[test]
    fn a_turn_of_several_parts_keeps_its_marks_for_the_last() {
        let n = Notation::parse("b8=Q,h8=Q#").unwrap();
        assert_eq!(n.check, Some(CheckMark::Mate));
        let MoveBody::Turn(parts) = &n.body else {
            panic!("{:?}", n.body)
        };
        let parts: Vec<String> = parts
            .iter()
            .map(|part| {
                Notation {
                    body: part.clone(),
                    check: None,
                    assessment: None,
                }
                .to_string()
            })
            .collect();
        assert_eq!(parts, ["b8=Q", "h8=Q"]);
        let n = Notation::parse("O-O,R@h8,@f7").unwrap();
        assert!(matches!(
            &n.body,
            MoveBody::Turn(parts) if matches!(
                &parts[..],
                [MoveBody::Castle(_), MoveBody::Placement(_), MoveBody::Placement(_)]
            )
        ));
        assert!(n.owns_heap());
    }

    #[test]
    fn suffixes_in_either_order_read_the_same() {
        let a = Notation::parse("Nf3+!").unwrap();
        let b = Notation::parse("Nf3!+").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.check, Some(CheckMark::Check));
        assert_eq!(a.assessment, Some(Assessment::Good));
    }

    #[test]
    fn castling_spellings() {
        for (token, long, letter) in [
            ("O-O", false, 'O'),
            ("0-0-0", true, '0'),
            ("o-o-o", true, 'o'),
        ] {
            assert_eq!(
                Notation::parse(token).unwrap().body,
                MoveBody::Castle(Castle { long, letter })
            );
        }
        assert!(Notation::parse("O-0").is_err());
    }

    /// Checks that the byte-level reader, where it gives a move, gives the full
    /// parser's; returns whether it gave one.
    fn plain_agrees(token: &str) -> bool {
        let plain = match plain_san(token.as_bytes()) {
            Some((notation, [])) => Some(notation),
            _ => None,
        };
        if let Some(plain) = &plain {
            assert_eq!(Ok(plain), parse_any_form(token).as_ref(), "{token}");
        }
        // Run past the token's end, as the PGN reader does, it stops at the delimiter.
        for delimiter in [" ", ")", "{", "\n"] {
            let text = format!("{token}{delimiter}");
            let prefix = match plain_san(text.as_bytes()) {
                Some((notation, rest)) if rest == delimiter.as_bytes() => Some(notation),
                _ => None,
            };
            assert_eq!(prefix, plain, "{token}");
        }
        plain.is_some()
    }

    #[test]
    fn plain_san_reads_like_the_full_parser() {
        for line in include_str!("../grammar/notation.ebnf").lines() {
            if let Some(example) = line
                .strip_prefix("(* ok move: ")
                .or_else(|| line.strip_prefix("(* bad move: "))
            {
                plain_agrees(example.trim_end_matches(" *)"));
            }
        }
        for token in [
            "e4", "Nf3", "exd5", "Nbd7", "R1e2", "R1xe2", "Nbxd7", "e8=Q", "bxa1N", "O-O", "O-O-O",
            "0-0", "o-o-o", "Qxf7#", "Bb5!?", "Nf3!+", "O-O+", "Pe4", "Af3", "p9",
        ] {
            assert!(plain_agrees(token), "{token} takes the full parser");
        }
        let mut plain = 0;
        // Every short token over the bytes that matter to either reader.
        let alphabet = [
            "N", "O", "Z", "K", "a", "h", "p", "q", "x", "o", "0", "1", "6", "8", "9", "-", "=",
            "Q", "@", "+", "#", "!", "?", "/", ">",
        ];
        let mut tokens = vec![String::new()];
        for _ in 0..4 {
            tokens = tokens
                .iter()
                .flat_map(|t| alphabet.iter().map(move |a| format!("{t}{a}")))
                .collect();
            plain += tokens.iter().filter(|t| plain_agrees(t)).count();
        }
        // Longer tokens built from the parts of a move, well formed and not.
        let pieces = ["", "N", "K", "P", "A", "O", "Z", "o", "0"];
        let hints = ["", "b", "h", "p", "q", "1", "8", "9", "10", "x", "-"];
        let separators = ["", "x", "-", "="];
        let squares = [
            "e4", "a1", "p9", "h8", "a10", "p16", "q1", "a0", "e", "e19", "-O",
        ];
        let after = [
            "", "=Q", "Q", "=q", "=", "=1", "K@g7", "K", "N", "->e7", "/g1", "-f3", "xd5", "e5",
            "-O", "-0",
        ];
        let suffixes = [
            "", "+", "#", "!", "?", "!!", "??", "!?", "?!", "+!", "!+", "+#", "#?!", "?!#", "!!+",
            "++", "!!!", "x",
        ];
        for piece in pieces {
            for hint in hints {
                for separator in separators {
                    for square in squares {
                        for after in after {
                            for suffix in suffixes {
                                let token =
                                    format!("{piece}{hint}{separator}{square}{after}{suffix}");
                                plain += usize::from(plain_agrees(&token));
                            }
                        }
                    }
                }
            }
        }
        assert!(
            plain > 20_000,
            "only {plain} tokens took the byte-level reader"
        );
    }

    #[test]
    fn not_moves() {
        for (token, at) in [
            ("", 0),
            ("Nx5", 1),
            ("x", 0),
            ("Ke2-e4-", 6),
            ("R->", 1),
            ("e4+#", 3),
            ("Nb", 2),
            ("e9=", 2),
            ("K@", 1),
            ("@", 0),
            ("Qxe5,", 5),
            (",e4", 0),
            ("--,e4", 2),
            ("e4,--", 3),
            ("e4+,d4", 3),
            ("Qxf7K@g7@g6", 8),
            ("1-0", 1),
        ] {
            let err = Notation::parse(token).expect_err(token);
            assert_eq!(err.at, at, "{token}");
        }
    }
}
