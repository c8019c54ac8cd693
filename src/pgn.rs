//! PGN syntax: games as written, with a span on every node, and error recovery that
//! reports every problem of a chunk instead of stopping at the first.
//!
//! The reader is lenient the way real files need (see `grammar/pgn.ebnf`): BOM, CR and
//! CRLF line ends, glued move numbers (`1.e4`), `1. ...`, `½-½`, a new game without a
//! result before it, unescaped quotes inside tag values.

use std::borrow::Cow;

use compact_str::CompactString;
use memchr::{memchr, memchr2};

use crate::diagnostic::{Code, Diagnostic};
use crate::notation::Notation;
use crate::scan::{HIGH, LOW, below, equal, find};
use crate::span::{Span, Spanned};

/// Variations nested deeper than this are reported and not read, so that no part of the
/// tool (reading, printing, dropping the tree) recurses without bound.
pub const MAX_VARIATION_DEPTH: usize = 256;

/// The most main-line items reserved up front (a long game grows past it).
const MAX_RESERVED_ITEMS: usize = 512;

/// A tag pair `[Name "value"]`; the value is unescaped. Common names are borrowed
/// rather than allocated for every game; a value is kept inline up to 24 bytes, as
/// nearly all are (dates, players, ratings, placeholders).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: Spanned<Cow<'static, str>>,
    pub value: Spanned<CompactString>,
    pub span: Span,
}

/// A tag value: `known` where the reader's fast path found it among the constants,
/// else a copy of `text` (which, unlike `known`, needs its character boundaries
/// checked).
#[inline(always)]
fn known_or_copied<'t>(
    known: Option<CompactString>,
    text: impl FnOnce() -> &'t str,
) -> CompactString {
    known.unwrap_or_else(|| CompactString::new(text()))
}

/// `known` when the text is one of the names or values kept as constants, else a copy
/// of `text`. Taken only for a copy: the reader's fast path looks names and values up as
/// bytes, and only a copy needs the `str` and its character boundaries.
#[inline(always)]
fn borrowed_or_copied<'t>(
    known: Option<&'static str>,
    text: impl FnOnce() -> &'t str,
) -> Cow<'static, str> {
    known.map_or_else(|| Cow::Owned(text().to_owned()), Cow::Borrowed)
}

/// The name as a constant when most games write it (the Seven Tag Roster, other
/// frequent names, those of the big servers' exports). Matched within its length: one
/// match over every name compares them one after another. Bytes, not `str`: the fast
/// path of the reader has not checked where characters start.
#[inline(always)]
fn known_tag_name(name: &[u8]) -> Option<&'static str> {
    Some(match name.len() {
        3 => match name {
            b"ECO" => "ECO",
            b"FEN" => "FEN",
            _ => return None,
        },
        4 => match name {
            b"Site" => "Site",
            b"Date" => "Date",
            b"Link" => "Link",
            _ => return None,
        },
        5 => match name {
            b"Event" => "Event",
            b"Round" => "Round",
            b"White" => "White",
            b"Black" => "Black",
            b"SetUp" => "SetUp",
            _ => return None,
        },
        6 => match name {
            b"Result" => "Result",
            b"ECOUrl" => "ECOUrl",
            _ => return None,
        },
        7 => match name {
            b"Opening" => "Opening",
            b"Variant" => "Variant",
            b"UTCDate" => "UTCDate",
            b"UTCTime" => "UTCTime",
            b"EndDate" => "EndDate",
            b"EndTime" => "EndTime",
            _ => return None,
        },
        8 => match name {
            b"WhiteElo" => "WhiteElo",
            b"BlackElo" => "BlackElo",
            b"PlyCount" => "PlyCount",
            b"Timezone" => "Timezone",
            _ => return None,
        },
        9 => match name {
            b"Variation" => "Variation",
            b"Annotator" => "Annotator",
            b"StartTime" => "StartTime",
            _ => return None,
        },
        10 => match name {
            b"WhiteTitle" => "WhiteTitle",
            b"BlackTitle" => "BlackTitle",
            _ => return None,
        },
        11 => match name {
            b"TimeControl" => "TimeControl",
            b"Termination" => "Termination",
            _ => return None,
        },
        15 => match name {
            b"CurrentPosition" => "CurrentPosition",
            b"WhiteRatingDiff" => "WhiteRatingDiff",
            b"BlackRatingDiff" => "BlackRatingDiff",
            _ => return None,
        },
        _ => return None,
    })
}

/// How a move number was written: `1` (no dots), `1.`, or `1...` / `1. ...`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dots {
    Missing,
    One,
    Three,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveNumber {
    pub number: u32,
    pub dots: Dots,
}

impl MoveNumber {
    /// The number PGN writes before the move that plays `ply` (0 for White's first).
    pub fn of_ply(ply: u32) -> MoveNumber {
        MoveNumber {
            number: ply / 2 + 1,
            dots: if ply.is_multiple_of(2) {
                Dots::One
            } else {
                Dots::Three
            },
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `{ ... }`
    Brace,
    /// `; ...` to the end of the line
    Line,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub kind: CommentKind,
    /// Kept inline up to 24 bytes, as nearly every comment of a game with clock times
    /// (`[%clk 0:09:57.1]`) is: reading allocates nothing for them.
    pub text: CompactString,
}

/// A forum transcript's event line: `start event`, or `Event #43 Line Pushers` with its
/// choices (on the same line or the next).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventLine {
    /// The whole line as written.
    pub text: String,
    /// The announced event; `None` for a bare `start event`. Boxed because it is rare and
    /// large, and every [`Item`] is as large as its largest kind.
    pub event: Option<Box<crate::command::EventCommand>>,
}

/// One element of a line of play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    MoveNumber(MoveNumber),
    Move(Notation),
    /// `$n`
    Nag(u8),
    Comment(Comment),
    /// `( ... )`: an alternative to the move before it.
    Variation(Vec<Spanned<Item>>),
    /// A `%` line, kept without its `%`.
    Escape(String),
    /// A token that could not be read (it has a diagnostic); kept so nothing is lost.
    Unreadable(String),
    /// Transcript prose: kept, skipped by the rules.
    Prose(String),
    /// Transcript event announcement.
    EventLine(EventLine),
}

/// The termination marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
    Unknown,
}

impl Outcome {
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }

    /// Reads a termination marker, lenient about `½-½`.
    pub fn parse(token: &str) -> Option<Outcome> {
        match token {
            "1-0" => Some(Outcome::WhiteWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" | "½-½" => Some(Outcome::Draw),
            "*" => Some(Outcome::Unknown),
            _ => None,
        }
    }
}

/// One game as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// Comments and escape lines before (or among) the tags.
    pub prelude: Vec<Spanned<Item>>,
    pub tags: Vec<Tag>,
    /// The main line, with its comments, NAGs and variations.
    pub moves: Vec<Spanned<Item>>,
    pub result: Option<Spanned<Outcome>>,
    /// Comments and escape lines after the result.
    pub trailing: Vec<Spanned<Item>>,
    pub span: Span,
    /// A transcript's lines as its reader took them (`--verbose`); empty for PGN.
    pub reading: Vec<Spanned<crate::transcript::LineReading>>,
}

impl Game {
    /// The value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name.node == name)
            .map(|t| t.value.node.as_ref())
    }

    /// The main-line moves, without numbers, comments or variations.
    pub fn main_line(&self) -> impl Iterator<Item = Spanned<&Notation>> {
        self.moves.iter().filter_map(|item| match &item.node {
            Item::Move(m) => Some(Spanned::new(m, item.span)),
            _ => None,
        })
    }
}

/// A game with the diagnostics found while reading it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedGame {
    pub game: Game,
    pub diagnostics: Vec<Diagnostic>,
    /// Whether the move list may hold an item that owns heap memory, which recycling
    /// must drop rather than forget.
    pub(crate) heap_items: HeapItems,
}

/// Whether a game's move list may hold an item that owns heap memory (a comment of more
/// than 24 bytes, a variation, an escape line, an unreadable token, a move with a path
/// of more than three squares or a turn in parts): what the PGN reader knows for
/// certain, as it makes each, and what every other reader assumes. Not part of what was
/// read, so it takes no part in equality.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) struct HeapItems(pub(crate) bool);

impl Default for HeapItems {
    fn default() -> HeapItems {
        HeapItems(true)
    }
}

impl PartialEq for HeapItems {
    fn eq(&self, _: &HeapItems) -> bool {
        true
    }
}

impl Eq for HeapItems {}

/// Reads every game of a whole text that starts at offset 0.
pub fn parse_str(text: &str) -> Vec<ParsedGame> {
    parse_chunk(text, 0)
}

/// Reads every game of `text`, which starts at byte `offset` of its file (spans are
/// absolute). Whitespace alone yields no game.
pub fn parse_chunk(text: &str, offset: usize) -> Vec<ParsedGame> {
    let mut games = Vec::new();
    parse_into(text, offset, &mut games);
    games
}

/// [`parse_chunk`] appending to `games`, so that the parts of a chunk share one list.
pub fn parse_into(text: &str, offset: usize, games: &mut Vec<ParsedGame>) {
    parse_into_reusing(text, offset, games, &mut SpareGames::default());
}

/// [`parse_into`] building the games in lists taken from `spare`.
pub(crate) fn parse_into_reusing(
    text: &str,
    offset: usize,
    games: &mut Vec<ParsedGame>,
    spare: &mut SpareGames,
) {
    read(text, offset, games, spare, None);
}

/// Where a reader can send the moves of a game instead of keeping them: a replay that
/// plays each move as it is read ([`parse_into_playing`]), as a validator built on a
/// visitor does, so that no move is written into the game tree and read back.
pub(crate) trait MoveSink {
    /// A game's moves begin, after its prelude and tags (in `game`): whether this sink
    /// plays them. Those it does not play are kept in the tree.
    fn begin(&mut self, game: &Game) -> bool;
    /// The next move of the line being read, at `span`; written as `written` where the
    /// sink [`MoveSink::spells`] (else empty). `variation_may_follow`: a variation may
    /// replace it (the text after it opens one, or a comment or NAG comes first).
    fn play(&mut self, notation: &Notation, written: &str, span: Span, variation_may_follow: bool);
    /// Whether the sink judges how moves are written: it is then handed the text of each
    /// move and every move number ([`MoveSink::number`]). Asked once a text: `check`'s
    /// sink does not, and finding each move's text cost it more than the rest of the call.
    fn spells(&self) -> bool {
        false
    }
    /// A move number of the line being read, where the sink spells.
    fn number(&mut self, _number: MoveNumber, _span: Span) {}
    /// Whether the caller reads the comments, NAGs and escape lines of a game played
    /// here from its tree (`lint`'s rules do). Where it does not, they are read, judged,
    /// handed to the sink where it [`MoveSink::sees_items`] and dropped: a comment kept
    /// cost `check`, which reads only tags and the result, more than the move it
    /// follows. Asked once a text.
    fn keeps_items(&self) -> bool {
        true
    }
    /// Whether the sink is handed the items of the games it plays ([`MoveSink::item`]).
    /// Where it is not and the tree does not keep them either, they are not even made.
    /// Asked once a text.
    fn sees_items(&self) -> bool {
        false
    }
    /// An item of a game it plays other than a move or move number (a comment, a NAG,
    /// an escape line; variations come as [`MoveSink::open_variation`] and its close),
    /// as the reader reads it, where the sink [`MoveSink::sees_items`].
    fn item(&mut self, _item: &Item) {}
    /// A brace comment of a game it plays, where the sink [`MoveSink::sees_items`] and
    /// the tree keeps none: its text, where [`MoveSink::item`] would be handed an item
    /// made for it (`fmt` lays out a clock comment after nearly every move of some
    /// files). A sink that sees items takes these too. `clock`: the text is known to be
    /// one clock command (`[%clk 0:09:57.1]`), so one line of printable ASCII without a
    /// `}`; `false` says nothing of it.
    fn comment(&mut self, _text: &str, _clock: bool) {}
    fn open_variation(&mut self);
    fn close_variation(&mut self);
    /// The game holds what only the tree can take (an unreadable token, an event, a
    /// lone `...`): the caller reads the text again without the sink.
    fn give_up(&mut self);
    /// The game read last (`game`) has ended, played here or not: called once for every
    /// game the reader adds to its list, in order.
    fn finish_game(&mut self, game: &ParsedGame);
}

/// [`parse_into_reusing`] handing the moves of the games `sink` takes to it rather than
/// keeping them: their move lists hold the rest (comments, NAGs, variations as items
/// without their moves), and move numbers go to the sink or nowhere.
#[cfg(feature = "cli")]
pub(crate) fn parse_into_playing(
    text: &str,
    offset: usize,
    games: &mut Vec<ParsedGame>,
    spare: &mut SpareGames,
    sink: &mut dyn MoveSink,
) {
    read(text, offset, games, spare, Some(sink));
}

fn read(
    text: &str,
    offset: usize,
    games: &mut Vec<ParsedGame>,
    spare: &mut SpareGames,
    sink: Option<&mut dyn MoveSink>,
) {
    // The builder is kept from one part to the next: building one and taking it apart
    // costs more than reading a part of one short game otherwise does. It is lent, not
    // moved in and out: it is large.
    let SpareGames { lists, builder } = spare;
    let sink_spells = sink.as_deref().is_some_and(|sink| sink.spells());
    let sink_keeps_items = sink.as_deref().is_none_or(|sink| sink.keeps_items());
    let sink_sees_items = sink.as_deref().is_some_and(|sink| sink.sees_items());
    Reader {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        offset,
        games,
        current: builder,
        spare: lists,
        sink,
        sink_spells,
        sink_keeps_items,
        sink_sees_items,
    }
    .run();
    builder.reset();
}

/// Games already read and reported, kept for their tag and move lists: reading the next
/// chunk into them allocates nothing for most games, where a game of short lists would
/// otherwise pay more to allocate and free them than to fill them.
#[derive(Default)]
pub(crate) struct SpareGames {
    lists: SpareLists,
    /// The game begun after the last one read, for the next part to go on with.
    builder: GameBuilder,
}

/// Kept apart rather than as whole games: a list moves in three words, a game in twenty.
#[derive(Default)]
struct SpareLists {
    tags: Vec<Vec<Tag>>,
    moves: Vec<Vec<Spanned<Item>>>,
}

// Only the command line's one-thread `check` hands games back.
#[cfg(feature = "cli")]
impl SpareGames {
    /// Keeps the lists of `games`, emptied, and empties `games`. Taken in place: moving
    /// each game out copies it twice.
    pub(crate) fn recycle(&mut self, games: &mut [ParsedGame]) {
        for parsed in games {
            self.lists.put(&mut parsed.game, parsed.heap_items.0);
        }
    }
}

impl SpareLists {
    #[cfg(feature = "cli")]
    fn put(&mut self, game: &mut Game, heap_items: bool) {
        let mut tags = std::mem::take(&mut game.tags);
        let mut moves = std::mem::take(&mut game.moves);
        if tags.capacity() > 0 {
            tags.clear();
            self.tags.push(tags);
        }
        if moves.capacity() > 0 {
            // Dropping an item that owns nothing is still a call: forgotten instead.
            if heap_items {
                for item in moves.drain(..) {
                    if owns_no_heap(&item) {
                        std::mem::forget(item);
                    }
                }
            } else {
                debug_assert!(moves.iter().all(owns_no_heap), "{moves:?}");
                // The reader saw none of them own memory: the list is emptied without
                // reading its items again (they have left the cache since they were read).
                // A forgotten `Drain` leaves its vector emptied; `clear` then has nothing
                // to drop, and would drop what some other `Drain` left.
                std::mem::forget(moves.drain(..));
                moves.clear();
            }
            self.moves.push(moves);
        }
    }
}

/// Whether an item owns no heap memory, as move numbers, NAGs, nearly all moves (a
/// move's squares are inline up to three) and short comments do.
#[cfg_attr(not(any(feature = "cli", test)), allow(dead_code))]
fn owns_no_heap(item: &Spanned<Item>) -> bool {
    match &item.node {
        Item::Move(notation) => !notation.owns_heap(),
        Item::MoveNumber(_) | Item::Nag(_) => true,
        Item::Comment(comment) => !comment.text.is_heap_allocated(),
        _ => false,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Phase {
    #[default]
    Tags,
    Moves,
    After,
}

#[derive(Default)]
struct GameBuilder {
    game: Game,
    diagnostics: Vec<Diagnostic>,
    phase: Phase,
    /// Open variations: the line outside each and where its `(` stood. While a
    /// variation is open, `game.moves` holds it, so items always go to `game.moves`.
    stack: Vec<(Vec<Spanned<Item>>, Span)>,
    /// Where the game's first non-blank text starts, and where its last token ends.
    start: Option<usize>,
    end: usize,
    /// `(` tokens skipped past [`MAX_VARIATION_DEPTH`], and the span they cover.
    skipped_depth: usize,
    skipped: Option<Span>,
    /// Whether an item that owns heap memory went to the game's lists (plain SAN, move
    /// numbers, NAGs and short comments never do).
    heap_items: bool,
    /// Whether the reader's [`MoveSink`] plays this game's moves.
    played: bool,
    /// Whether a move or move number was read and not kept (it went to the sink).
    unkept: bool,
}

impl GameBuilder {
    fn touch(&mut self, span: Span) {
        self.start.get_or_insert(span.offset);
        self.end = self.end.max(span.end());
    }

    fn is_empty(&self) -> bool {
        self.start.is_none()
    }

    /// Forgets what was read after the last game (blanks, or what reports nothing but
    /// a diagnostic of its own), keeping the lists' room for the next part. Every field
    /// is listed, so that none stays stale.
    fn reset(&mut self) {
        let GameBuilder {
            game,
            diagnostics,
            phase: _,
            stack,
            start: _,
            end: _,
            skipped_depth,
            skipped,
            heap_items,
            played: _,
            unkept: _,
        } = self;
        // Cleared below, its moves dropped.
        *heap_items = false;
        let Game {
            prelude,
            tags,
            moves,
            result,
            trailing,
            span,
            reading,
        } = game;
        reading.clear();
        prelude.clear();
        tags.clear();
        moves.clear();
        *result = None;
        trailing.clear();
        *span = Span::default();
        diagnostics.clear();
        stack.clear();
        *skipped_depth = 0;
        *skipped = None;
        self.restart();
    }

    /// Starts the position in the text afresh: all a finished game leaves set, once its
    /// variations are closed and its skipped text reported. In place, as replacing the
    /// builder whole copies it out and in once a game.
    fn restart(&mut self) {
        debug_assert!(self.stack.is_empty() && self.skipped_depth == 0 && self.skipped.is_none());
        self.phase = Phase::default();
        self.start = None;
        self.end = 0;
        self.heap_items = false;
        self.played = false;
        self.unkept = false;
    }
}

struct Reader<'a, 'g, 's> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    offset: usize,
    games: &'g mut Vec<ParsedGame>,
    current: &'g mut GameBuilder,
    spare: &'g mut SpareLists,
    sink: Option<&'s mut dyn MoveSink>,
    /// Whether `sink` takes the text of each move and the move numbers of the games it
    /// plays ([`MoveSink::spells`]).
    sink_spells: bool,
    /// Whether the comments, NAGs and escape lines of the games `sink` plays go into
    /// their trees ([`MoveSink::keeps_items`]), and whether they go to `sink`
    /// ([`MoveSink::sees_items`]).
    sink_keeps_items: bool,
    sink_sees_items: bool,
}

/// Bytes that end a move token: control characters, blanks and PGN punctuation.
/// A table, since every byte of every token is looked up.
static DELIMITERS: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    let punctuation = b" {}()[];$*";
    let mut i = 0;
    while i < punctuation.len() {
        table[punctuation[i] as usize] = true;
        i += 1;
    }
    table
};

/// Whether a variation may replace the move whose text `after` follows: the next
/// token opens one, or is a comment, NAG or escape line that may come before one. A
/// move is said to have none only where the next token is sure to be something else.
fn variation_may_follow(after: &[u8]) -> bool {
    let next = after
        .iter()
        .find(|&&b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    matches!(next, Some(b'(' | b'{' | b';' | b'$' | b'%'))
}

fn is_delimiter(b: u8) -> bool {
    DELIMITERS[usize::from(b)]
}

/// Bytes of a tag name: letters, digits, `_` and `-`. A table, as for [`DELIMITERS`]:
/// every game's tag names are read byte by byte.
static TAG_NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-';
        b += 1;
    }
    table
};

fn is_tag_name_byte(b: u8) -> bool {
    TAG_NAME_BYTES[usize::from(b)]
}

impl Reader<'_, '_, '_> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.offset + start, end - start)
    }

    fn at_line_start(&self, pos: usize) -> bool {
        pos == 0 || matches!(self.bytes[pos - 1], b'\n' | b'\r')
    }

    /// Skips the blank or line end (`\r\n` too) that nearly always follows a word, a
    /// comment or a tag pair, on this turn of the loop rather than the next.
    #[inline(always)]
    fn skip_separator(&mut self) {
        match self.bytes.get(self.pos) {
            Some(b' ' | b'\n') => self.pos += 1,
            Some(b'\r') => {
                self.pos += 1;
                if self.bytes.get(self.pos) == Some(&b'\n') {
                    self.pos += 1;
                }
            }
            _ => {}
        }
    }

    // Inlined into `read`, its one caller: out of line, each plain move read was
    // dropped through a call (1% more instructions on openings.pgn).
    #[inline(always)]
    fn run(&mut self) {
        while self.pos < self.bytes.len() {
            let start = self.pos;
            let b = self.bytes[start];
            // Tokens and single blanks between them are nearly all there is.
            if b.is_ascii_alphanumeric() {
                self.word();
                self.skip_separator();
                continue;
            }
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => self.pos += 1,
                b'%' if self.at_line_start(start) => self.escape_line(),
                b'{' => {
                    self.brace_comment();
                    self.skip_separator();
                }
                b';' => self.line_comment(),
                b'[' => self.tag_pairs(),
                b'(' => self.open_variation(),
                b')' => self.close_variation(),
                b'$' => self.nag(),
                b'*' => {
                    self.pos += 1;
                    self.result(Outcome::Unknown, self.span(start, start + 1));
                }
                b'}' | b']' => {
                    self.pos += 1;
                    let span = self.span(start, start + 1);
                    let what = char::from(b);
                    self.unexpected(
                        span,
                        &what.to_string(),
                        format!("`{what}` without an opening bracket"),
                    );
                }
                _ if b < 0x20 => self.control_character(),
                0xEF if self.text[start..].starts_with('\u{feff}') => self.pos += 3,
                _ => self.word(),
            }
        }
        self.finish_game();
    }

    /// Adds an item to the line being read (the innermost open variation).
    #[inline(always)]
    fn push(&mut self, item: Item, span: Span) {
        let current = &mut self.current;
        // Nearly every item is a move or a move number amid the moves.
        if current.phase == Phase::Moves && current.skipped_depth == 0 {
            current.touch(span);
            if current.played {
                return self.push_played(item, span);
            }
            current.game.moves.push(Spanned::new(item, span));
        } else {
            self.push_outside_moves(item, span);
        }
    }

    /// [`Reader::push`] of a move number: in a game the sink plays, handed on where it
    /// spells and else dropped, with no item made (an item dropped is a call).
    #[inline(always)]
    fn push_number(&mut self, number: MoveNumber, span: Span) {
        let current = &mut *self.current;
        if current.played && current.phase == Phase::Moves && current.skipped_depth == 0 {
            current.touch(span);
            current.unkept = true;
            if self.sink_spells
                && let Some(sink) = self.sink.as_deref_mut()
            {
                sink.number(number, span);
            }
            return;
        }
        self.push(Item::MoveNumber(number), span);
    }

    /// [`Reader::push`] in a game whose moves go to the sink: moves are played, move
    /// numbers handed on or dropped, and what the replay of the tree would not take makes it give up
    /// (as `replay::orthodox::line` does). A lone `...` finds no number to join and ends
    /// here as an unreadable token: the game is read again with its numbers.
    fn push_played(&mut self, item: Item, span: Span) {
        let Some(sink) = self.sink.as_deref_mut() else {
            return;
        };
        match &item {
            Item::MoveNumber(number) => {
                self.current.unkept = true;
                if self.sink_spells {
                    sink.number(*number, span);
                }
                return;
            }
            Item::Move(notation) => {
                self.current.unkept = true;
                // Every span the reader makes lies in its text.
                let start = span.offset.saturating_sub(self.offset);
                let end = span.end().saturating_sub(self.offset);
                let written = match self.sink_spells {
                    true => self.text.get(start..end).unwrap_or_default(),
                    false => "",
                };
                let after = self.bytes.get(end..).unwrap_or_default();
                sink.play(notation, written, span, variation_may_follow(after));
                return;
            }
            Item::Unreadable(_) | Item::EventLine(_) => sink.give_up(),
            Item::Comment(comment) if crate::command::mentions_event(&comment.text) => {
                sink.give_up();
            }
            _ => {
                if self.sink_sees_items {
                    sink.item(&item);
                }
                if !self.sink_keeps_items {
                    return self.drop_played(span);
                }
            }
        }
        self.current.game.moves.push(Spanned::new(item, span));
    }

    /// Whether an item read now would be dropped by [`Reader::push_played`] once made,
    /// unseen: the reader then need not make it.
    fn drops_played_items(&self) -> bool {
        self.unkept_played_items() && !self.sink_sees_items
    }

    /// Whether an item read now would go no further than the sink, if that: the game is
    /// played and its tree keeps no item.
    fn unkept_played_items(&self) -> bool {
        let current = &*self.current;
        !self.sink_keeps_items
            && current.played
            && current.phase == Phase::Moves
            && current.skipped_depth == 0
    }

    /// An item of a played game that its tree does not keep, read at `span`.
    fn drop_played(&mut self, span: Span) {
        self.current.touch(span);
        self.current.unkept = true;
    }

    /// The game's moves begin: the sink, if there is one, says whether it plays them.
    fn begin_moves(&mut self) {
        self.current.phase = Phase::Moves;
        if let Some(sink) = self.sink.as_deref_mut() {
            self.current.played = sink.begin(&self.current.game);
        }
    }

    /// In a game the sink plays, variations left open cannot be closed as the tree
    /// closes them.
    fn give_up_on_open_variations(&mut self) {
        if self.current.played
            && !self.current.stack.is_empty()
            && let Some(sink) = self.sink.as_deref_mut()
        {
            sink.give_up();
        }
    }

    fn push_outside_moves(&mut self, item: Item, span: Span) {
        if self.current.skipped_depth > 0 {
            return self.skip(span);
        }
        match self.current.phase {
            Phase::After => {
                if matches!(item, Item::Comment(_) | Item::Escape(_)) {
                    self.current.touch(span);
                    self.current.game.trailing.push(Spanned::new(item, span));
                    return;
                }
                // Moves after a result begin the next (tagless) game.
                self.finish_game();
                self.begin_moves();
            }
            Phase::Tags => {
                if matches!(item, Item::Comment(_) | Item::Escape(_))
                    && self.current.game.moves.is_empty()
                {
                    // Text before the tags, or a comment between tags and moves: only the
                    // former is prelude; a comment after the tags opens the movetext.
                    if self.current.game.tags.is_empty() || matches!(item, Item::Escape(_)) {
                        self.current.touch(span);
                        self.current.game.prelude.push(Spanned::new(item, span));
                        return;
                    }
                }
                self.begin_moves();
            }
            Phase::Moves => {}
        }
        let moves = &mut self.current.game.moves;
        // A game whose moves and items all go to the sink needs no list.
        let listed = self.sink_keeps_items || !self.current.played;
        if listed && moves.is_empty() && self.current.stack.is_empty() {
            // The list of the game handled last, still in cache.
            if moves.capacity() == 0
                && let Some(spare) = self.spare.moves.pop()
            {
                *moves = spare;
            }
            // Movetext averages over three bytes an item: reserve once, not while doubling.
            // The rest of the chunk may hold many tagless games, hence the cap. A spare
            // list serves when it fits the estimate, however much more it holds (a game
            // followed by others in its part gives the excess back when it ends).
            let estimate = ((self.bytes.len() - self.pos) / 3 + 1).min(MAX_RESERVED_ITEMS);
            if moves.capacity() < estimate {
                *moves = Vec::with_capacity(estimate);
            }
        }
        self.current.touch(span);
        if self.current.played {
            return self.push_played(item, span);
        }
        self.current.game.moves.push(Spanned::new(item, span));
    }

    /// [`Reader::push`] of an item that may own heap memory: the game it went to is
    /// marked as one whose items recycling must ask (the item may have begun a game).
    fn push_owning(&mut self, item: Item, span: Span, owns_heap: bool) {
        self.push(item, span);
        self.current.heap_items |= owns_heap;
    }

    fn skip(&mut self, span: Span) {
        self.current.touch(span);
        let skipped = self.current.skipped.map_or(span, |s| s.to(span));
        self.current.skipped = Some(skipped);
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.current.diagnostics.push(diagnostic);
    }

    /// Keeps a token that cannot be read, and says so. The token is pushed first: after a
    /// result it begins the next game, which its diagnostic belongs to.
    fn unreadable(&mut self, text: &str, span: Span, diagnostic: Diagnostic) {
        self.push_owning(Item::Unreadable(text.to_owned()), span, true);
        self.diagnostic(diagnostic);
    }

    fn unexpected(&mut self, span: Span, text: &str, message: String) {
        let diagnostic = Diagnostic::new(Code::UnexpectedToken, span, message, "not expected here")
            .with_help("remove it, or put it inside a `{...}` comment");
        self.unreadable(text, span, diagnostic);
    }

    fn line_end(&self, from: usize) -> usize {
        memchr2(b'\n', b'\r', &self.bytes[from..]).map_or(self.bytes.len(), |i| from + i)
    }

    fn escape_line(&mut self) {
        let start = self.pos;
        let end = self.line_end(start);
        self.pos = end;
        let item = Item::Escape(self.text[start + 1..end].to_owned());
        self.push_owning(item, self.span(start, end), true);
    }

    fn brace_comment(&mut self) {
        let start = self.pos;
        let from = start + 1;
        let clock_end = clock_comment_end(self.bytes, from);
        let (end, mentions_event) = match clock_end {
            // Digits and signs: no control character, no event command.
            Some(end) => (end, false),
            None => match memchr(b'}', &self.bytes[from..]) {
                Some(i) => {
                    let end = from + i;
                    self.check_control_characters(from, end);
                    (end, crate::command::mentions_event(&self.text[from..end]))
                }
                None => return self.unterminated_comment(start),
            },
        };
        self.pos = end + 1;
        let text = &self.text[from..end];
        if mentions_event {
            self.event_commands(text, from);
        } else if self.unkept_played_items() {
            if self.sink_sees_items
                && let Some(sink) = self.sink.as_deref_mut()
            {
                sink.comment(text, clock_end.is_some());
            }
            return self.drop_played(self.span(start, end + 1));
        }
        let comment = Comment {
            kind: CommentKind::Brace,
            text: CompactString::new(text),
        };
        let owns_heap = comment.text.is_heap_allocated();
        self.push_owning(Item::Comment(comment), self.span(start, end + 1), owns_heap);
    }

    #[inline(never)]
    fn unterminated_comment(&mut self, start: usize) {
        let end = self.bytes.len();
        self.pos = end;
        let span = self.span(start, end);
        self.diagnostic(
            Diagnostic::new(
                Code::UnterminatedComment,
                self.span(start, start + 1),
                "comment is never closed: `{` has no matching `}`",
                "this comment runs to the end of the game",
            )
            .with_help("close the comment with `}`"),
        );
        self.check_control_characters(start + 1, end);
        let comment = Comment {
            kind: CommentKind::Brace,
            text: CompactString::new(&self.text[start + 1..end]),
        };
        let owns_heap = comment.text.is_heap_allocated();
        self.push_owning(Item::Comment(comment), span, owns_heap);
    }

    /// Reports the `[%event ...]` commands of a comment that mentions one and cannot be
    /// read; well-formed ones are read again by the rules layer from the comment text.
    fn event_commands(&mut self, text: &str, at: usize) {
        let (_, diagnostics) = crate::command::parse_commands(text, self.offset + at);
        self.current.diagnostics.extend(diagnostics);
    }

    fn line_comment(&mut self) {
        let start = self.pos;
        let end = self.line_end(start);
        self.pos = end;
        self.check_control_characters(start + 1, end);
        let text = &self.text[start + 1..end];
        if self.drops_played_items() && !crate::command::mentions_event(text) {
            return self.drop_played(self.span(start, end));
        }
        let comment = Comment {
            kind: CommentKind::Line,
            text: CompactString::new(text),
        };
        let owns_heap = comment.text.is_heap_allocated();
        self.push_owning(Item::Comment(comment), self.span(start, end), owns_heap);
    }

    // Inlined, with the report out of line: a call per comment cost more than the test.
    #[inline(always)]
    fn check_control_characters(&mut self, start: usize, end: usize) {
        if may_hold_control_character(&self.bytes[start..end]) {
            self.report_control_character(start, end);
        }
    }

    #[inline(never)]
    fn report_control_character(&mut self, start: usize, end: usize) {
        let bad = self.text[start..end]
            .char_indices()
            .find(|&(_, c)| is_control_character(c));
        if let Some((i, c)) = bad {
            let at = start + i;
            let span = self.span(at, at + c.len_utf8());
            self.diagnostic(control_character_diagnostic(span, c));
        }
    }

    fn control_character(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let span = self.span(start, start + 1);
        let c = char::from(self.bytes[start]);
        self.unreadable(&c.to_string(), span, control_character_diagnostic(span, c));
    }

    fn open_variation(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let span = self.span(start, start + 1);
        if self.current.phase == Phase::After {
            self.finish_game();
        }
        if self.current.phase != Phase::Moves {
            self.begin_moves();
        }
        self.current.touch(span);
        if self.current.skipped_depth > 0 || self.current.stack.len() >= MAX_VARIATION_DEPTH {
            self.current.skipped_depth += 1;
            return self.skip(span);
        }
        let outer = std::mem::take(&mut self.current.game.moves);
        self.current.stack.push((outer, span));
        if self.current.played
            && let Some(sink) = self.sink.as_deref_mut()
        {
            sink.open_variation();
        }
    }

    fn close_variation(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let span = self.span(start, start + 1);
        if self.current.skipped_depth > 0 {
            self.current.skipped_depth -= 1;
            self.skip(span);
            if self.current.skipped_depth == 0 {
                report_skipped(self.current);
            }
            return;
        }
        match self.current.stack.pop() {
            Some((outer, open)) => {
                if self.current.played
                    && let Some(sink) = self.sink.as_deref_mut()
                {
                    sink.close_variation();
                }
                let inner = std::mem::replace(&mut self.current.game.moves, outer);
                self.current.touch(span);
                self.current.heap_items = true;
                self.current
                    .game
                    .moves
                    .push(Spanned::new(Item::Variation(inner), open.to(span)));
            }
            None => self.unexpected(span, ")", "`)` without an opening `(`".into()),
        }
    }

    fn nag(&mut self) {
        let start = self.pos;
        let digits = self.bytes[start + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let mut end = start + 1 + digits;
        // A NAG glued to junk (`$1x`) is reported whole.
        while end < self.bytes.len() && !is_delimiter(self.bytes[end]) {
            end += 1;
        }
        self.pos = end;
        let span = self.span(start, end);
        let text = &self.text[start..end];
        match text[1..].parse::<u8>() {
            Ok(n) if digits == end - start - 1 => self.push(Item::Nag(n), span),
            _ => {
                let diagnostic = Diagnostic::new(
                    Code::BadNag,
                    span,
                    format!("`{text}` is not a NAG"),
                    "expected `$` and a number from 0 to 255",
                )
                .with_help("write a NAG as `$1` .. `$255`, or put the text in a `{...}` comment");
                self.unreadable(text, span, diagnostic);
            }
        }
    }

    // Inlined in the reading loop: a call per word cost more than its fast paths, and
    // the rare words go out of line.
    #[inline(always)]
    fn word(&mut self) {
        let start = self.pos;
        let bytes = self.bytes;
        // Most words are moves in plain SAN or move numbers, and neither holds a
        // delimiter: read one before finding the word's end, and keep it if the word
        // ends there.
        match bytes[start] {
            b'a'..=b'z' | b'A'..=b'Z' => {
                let current = &mut *self.current;
                if current.played
                    && current.phase == Phase::Moves
                    && current.skipped_depth == 0
                    && let Some(sink) = self.sink.as_deref_mut()
                {
                    // Read into a notation that stays where it is read, and played from
                    // there: nothing is stored, nothing copied (see
                    // `Notation::read_plain_prefix_into`).
                    let mut notation = Notation::UNREAD;
                    if let Some(rest) = notation.read_plain_prefix_into(&bytes[start..])
                        && rest.first().is_none_or(|&b| is_delimiter(b))
                    {
                        let end = bytes.len() - rest.len();
                        let span = Span::new(self.offset + start, end - start);
                        current.touch(span);
                        current.unkept = true;
                        self.pos = end;
                        // A token starts and ends next to ASCII: on character boundaries.
                        let written = match self.sink_spells {
                            true => self.text.get(start..end).unwrap_or_default(),
                            false => "",
                        };
                        sink.play(&notation, written, span, variation_may_follow(rest));
                        // Plain SAN owns no heap memory: forgotten rather than dropped
                        // through a call for every move.
                        debug_assert!(!notation.owns_heap());
                        std::mem::forget(notation);
                        return;
                    }
                } else if current.phase == Phase::Moves && current.skipped_depth == 0 {
                    // Read where it will stand, as `push` would put it: see
                    // `Notation::read_plain_prefix_into`.
                    let moves = &mut current.game.moves;
                    moves.push(Spanned::new(Item::Move(Notation::UNREAD), Span::new(0, 0)));
                    if let Some(item) = moves.last_mut()
                        && let Item::Move(notation) = &mut item.node
                        && let Some(rest) = notation.read_plain_prefix_into(&bytes[start..])
                        && rest.first().is_none_or(|&b| is_delimiter(b))
                    {
                        let end = bytes.len() - rest.len();
                        let span = Span::new(self.offset + start, end - start);
                        item.span = span;
                        current.touch(span);
                        self.pos = end;
                        return;
                    }
                    moves.pop();
                } else if let Some((notation, rest)) = Notation::parse_plain_prefix(&bytes[start..])
                    && rest.first().is_none_or(|&b| is_delimiter(b))
                {
                    let end = bytes.len() - rest.len();
                    self.pos = end;
                    return self.push(Item::Move(notation), self.span(start, end));
                }
            }
            b'0'..=b'9' => {
                if let Some((number, len)) = self.move_number(start) {
                    let after = start + len;
                    match bytes.get(after) {
                        Some(&b) if !is_delimiter(b) => {
                            // `12.e4`, as TWIC and many older files write every move: the
                            // number now and the move as the next word, which reads it
                            // as `numbered_word` would after finding the word's end and
                            // reading the number again.
                            if number.dots != Dots::Missing && b.is_ascii_alphabetic() {
                                self.pos = after;
                                return self.push_number(number, self.span(start, after));
                            }
                        }
                        _ => {
                            self.pos = after;
                            return self.push_number(number, self.span(start, after));
                        }
                    }
                }
            }
            _ => {}
        }
        let mut end = start;
        while let Some(&b) = bytes.get(end)
            && !is_delimiter(b)
        {
            end += 1;
        }
        self.pos = end;
        // Results and dots begin with a digit, `½` or `.`.
        match bytes[start] {
            b'0'..=b'9' => self.numbered_word(start, end),
            b'a'..=b'z' | b'A'..=b'Z' => self.other_move_token(start, end),
            _ => self.other_word(start, end),
        }
    }

    /// A word that begins with a digit and is no lone move number: a result, a move
    /// number with a move glued on (`12.e4`), or a move token (`0-0`).
    #[inline(never)]
    fn numbered_word(&mut self, start: usize, end: usize) {
        // Only `1-0`, `0-1` and `1/2-1/2` can be results; move numbers are not.
        if matches!(self.bytes.get(start + 1), Some(b'-' | b'/'))
            && let Some(outcome) = Outcome::parse(&self.text[start..end])
        {
            return self.result(outcome, self.span(start, end));
        }
        match self.move_number(start) {
            // Digits glued to something else than dots are a move token (`0-0`).
            Some((number, len)) if number.dots != Dots::Missing || start + len == end => {
                self.push_number(number, self.span(start, start + len));
                if start + len < end {
                    self.move_token(start + len, end);
                }
            }
            _ => self.move_token(start, end),
        }
    }

    /// A word that begins with neither a letter nor a digit: `½-½`, a lone `...`, or
    /// whatever else, read as a move token.
    #[inline(never)]
    fn other_word(&mut self, start: usize, end: usize) {
        let word = &self.text[start..end];
        if word.starts_with('½')
            && let Some(outcome) = Outcome::parse(word)
        {
            return self.result(outcome, self.span(start, end));
        }
        if word.bytes().all(|b| b == b'.') {
            return self.dots(start, end);
        }
        self.move_token(start, end);
    }

    /// Reads `12`, `12.`, `12...` at `start`, and how many bytes it takes; `None` for a
    /// number past `u32`, no move number. Digits and dots are no delimiters, so this
    /// reads the same before the word's end is found as after.
    #[inline(always)]
    fn move_number(&self, start: usize) -> Option<(MoveNumber, usize)> {
        let text = &self.bytes[start..];
        let mut number = 0u32;
        let mut digits = 0;
        while let Some(&d) = text.get(digits)
            && d.is_ascii_digit()
        {
            number = number.checked_mul(10)?.checked_add(u32::from(d - b'0'))?;
            digits += 1;
        }
        let mut len = digits;
        while text.get(len) == Some(&b'.') {
            len += 1;
        }
        let dots = match len - digits {
            0 => Dots::Missing,
            1 => Dots::One,
            _ => Dots::Three,
        };
        Some((MoveNumber { number, dots }, len))
    }

    /// A lone `...`: the black half of `1. ... e5`.
    fn dots(&mut self, start: usize, end: usize) {
        let span = self.span(start, end);
        if let Some(last) = self.current.game.moves.last_mut()
            && let Item::MoveNumber(number) = &mut last.node
            && number.dots != Dots::Three
        {
            number.dots = Dots::Three;
            last.span = last.span.to(span);
            self.current.touch(span);
            return;
        }
        let text = self.text[start..end].to_owned();
        self.unexpected(
            span,
            &text,
            format!("`{text}` without a move number before it"),
        );
    }

    // Inlined with `push` and the plain SAN reader: a move copied through calls costs
    // more than reading it.
    #[inline(always)]
    fn move_token(&mut self, start: usize, end: usize) {
        let span = self.span(start, end);
        match Notation::parse_plain_prefix(&self.bytes[start..end]) {
            Some((notation, [])) => self.push(Item::Move(notation), span),
            _ => self.other_move_token(start, end),
        }
    }

    /// A move token that is not plain SAN: the full parser reads it, or says why not.
    #[inline(never)]
    fn other_move_token(&mut self, start: usize, end: usize) {
        let token = &self.text[start..end];
        let span = self.span(start, end);
        match Notation::parse(token) {
            Ok(notation) => {
                let owns_heap = notation.owns_heap();
                self.push_owning(Item::Move(notation), span, owns_heap)
            }
            Err(_) => self.unreadable(token, span, unreadable_move(token, span)),
        }
    }

    fn result(&mut self, outcome: Outcome, span: Span) {
        if self.current.skipped_depth > 0 {
            return self.skip(span);
        }
        // A result while variations are open most likely lacks its `)`s: close them.
        self.give_up_on_open_variations();
        close_open_variations(self.current);
        if self.current.phase == Phase::After {
            // A second result: the first ended a game, this one ends an empty tagless one.
            self.finish_game();
        }
        self.current.touch(span);
        self.current.game.result = Some(Spanned::new(outcome, span));
        self.current.phase = Phase::After;
    }

    /// Reads the tag pair at the current position and those on the lines right after it.
    // Out of line, with all it calls inlined: nearly every game has a few tag pairs,
    // and the reading loop stays small enough to inline the rest.
    #[inline(never)]
    fn tag_pairs(&mut self) {
        let start = self.pos;
        loop {
            self.tag_pair();
            let end = self.pos;
            self.skip_separator();
            if self.bytes.get(self.pos) != Some(&b'[') {
                // Touched once for all the pairs, which lie one after another: the game's
                // span grows as it would pair by pair.
                self.current.touch(self.span(start, end));
                return;
            }
        }
    }

    #[inline(always)]
    fn tag_pair(&mut self) {
        let start = self.pos;
        if self.current.phase != Phase::Tags {
            if self.current.phase == Phase::Moves && !self.at_line_start_ignoring_blanks(start) {
                let span = self.span(start, start + 1);
                self.diagnostic(
                    Diagnostic::new(
                        Code::TagInMovetext,
                        span,
                        "tag pair inside the moves",
                        "a new game starts here",
                    )
                    .with_help("end the game with a result (`1-0`, `0-1`, `1/2-1/2`, `*`) and start the tags on a new line"),
                );
            }
            self.finish_game();
        }
        match read_plain_tag(&self.bytes[start..]) {
            Some(plain) => self.plain_tag(start, plain),
            None => self.other_tag(start),
        }
    }

    /// Keeps a tag pair [`read_plain_tag`] read at `start`.
    #[inline(always)]
    fn plain_tag(&mut self, start: usize, plain: PlainTag) {
        let end = start + plain.len;
        let name = start + plain.name.start..start + plain.name.end;
        let value = start + plain.value.start..start + plain.value.end;
        self.pos = end;
        let span = self.span(start, end);
        let name = Spanned::new(
            borrowed_or_copied(plain.known_name, || &self.text[name.clone()]),
            self.span(name.start, name.end),
        );
        let value = Spanned::new(
            known_or_copied(plain.known_value, || &self.text[value.clone()]),
            self.span(value.start, value.end),
        );
        self.push_tag(Tag { name, value, span });
    }

    /// Reads a tag pair that is not plain, with its problem if it has one.
    fn other_tag(&mut self, start: usize) {
        let (tag, consumed, problem) = read_tag(&self.text[start..self.line_end(start)]);
        self.pos = start + consumed;
        self.check_control_characters(start, start + consumed);
        let span = self.span(start, start + consumed);
        if let Some((code, message, help)) = problem {
            self.diagnostic(
                Diagnostic::new(code, span, message, "in this tag pair").with_help(help),
            );
        }
        if let Some(RawTag { name, value }) = tag {
            let name_text = &self.text[start + name.start..start + name.end];
            let tag = Tag {
                name: Spanned::new(
                    borrowed_or_copied(known_tag_name(name_text.as_bytes()), || name_text),
                    self.span(start + name.start, start + name.end),
                ),
                value: Spanned::new(
                    value.text,
                    self.span(start + value.range.start, start + value.range.end),
                ),
                span,
            };
            self.push_tag(tag);
        }
    }

    #[inline(always)]
    fn push_tag(&mut self, tag: Tag) {
        let tags = &mut self.current.game.tags;
        if tags.capacity() == 0 {
            match self.spare.tags.pop() {
                Some(spare) => *tags = spare,
                // The Seven Tag Roster and one more, without growing on the way.
                None => tags.reserve(8),
            }
        }
        tags.push(tag);
    }

    fn at_line_start_ignoring_blanks(&self, pos: usize) -> bool {
        let blanks = self.bytes[..pos]
            .iter()
            .rev()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        self.at_line_start(pos - blanks)
    }

    fn finish_game(&mut self) {
        let builder = &mut *self.current;
        // Nothing read since the last game: it holds no more than the diagnostics of
        // what comes next.
        if builder.is_empty() {
            return;
        }
        // Both are rare: tested here rather than called for every game.
        if builder.skipped_depth > 0 || builder.skipped.is_some() {
            report_skipped(builder);
        }
        if !builder.stack.is_empty() {
            self.give_up_on_open_variations();
            close_open_variations(self.current);
        }
        let builder = &mut *self.current;
        // Give back what the estimate reserved beyond the moves read, when it is much and
        // another game of the part follows: the part's games are held together. The last
        // (nearly always the only) one keeps its list, which goes back to the spare lists
        // warm in cache; shrinking it copied every game's items to fresh memory.
        let more_games_follow = self.pos < self.bytes.len();
        if more_games_follow && builder.game.moves.capacity() > 2 * builder.game.moves.len() + 32 {
            builder.game.moves.shrink_to_fit();
        }
        let start = builder.start.unwrap_or(builder.end);
        builder.game.span = Span::new(start, builder.end - start);
        check_result(builder);
        // The next game takes spare lists when it reads its first tag or move: by then
        // this one's lists are back among them, warm in cache (taken now, two sets of
        // lists would take turns, each cold when its turn came).
        let game = std::mem::take(&mut self.current.game);
        let diagnostics = std::mem::take(&mut self.current.diagnostics);
        let heap_items = HeapItems(self.current.heap_items);
        self.current.restart();
        self.games.push(ParsedGame {
            game,
            diagnostics,
            heap_items,
        });
        if let Some(sink) = self.sink.as_deref_mut()
            && let Some(game) = self.games.last()
        {
            sink.finish_game(game);
        }
    }
}

fn close_open_variations(builder: &mut GameBuilder) {
    while let Some((outer, open)) = builder.stack.pop() {
        builder.diagnostics.push(
            Diagnostic::new(
                Code::UnclosedVariation,
                open,
                "variation is never closed: `(` has no matching `)`",
                "opened here",
            )
            .with_help("close the variation with `)` before the result"),
        );
        let inner = std::mem::replace(&mut builder.game.moves, outer);
        let span = open.to(inner.last().map_or(open, |i| i.span));
        builder.heap_items = true;
        builder
            .game
            .moves
            .push(Spanned::new(Item::Variation(inner), span));
    }
}

fn report_skipped(builder: &mut GameBuilder) {
    builder.skipped_depth = 0;
    if let Some(span) = builder.skipped.take() {
        builder.diagnostics.push(
            Diagnostic::new(
                Code::VariationTooDeep,
                Span::new(span.offset, 1),
                format!(
                    "variations nested deeper than {MAX_VARIATION_DEPTH} levels were not read ({} bytes)",
                    span.len
                ),
                "the first level too deep opens here",
            )
            .with_help("flatten the analysis: no record needs this depth"),
        );
    }
}

fn check_result(builder: &mut GameBuilder) {
    let game = &builder.game;
    if game.tags.is_empty() && game.moves.is_empty() && !builder.unkept && game.result.is_none() {
        builder.diagnostics.push(Diagnostic::new(
            Code::EmptyGame,
            game.span,
            "no tags, moves or result here, only comments",
            "outside any game",
        ));
        return;
    }
    match &game.result {
        None => {
            let end = Span::new(game.span.end(), 0);
            builder.diagnostics.push(
                Diagnostic::new(
                    Code::MissingResult,
                    end,
                    "the game has no result at its end",
                    "result expected here",
                )
                .with_help(match game.tag("Result").and_then(Outcome::parse) {
                    Some(o) => {
                        format!("end the moves with `{}` as the Result tag says", o.as_str())
                    }
                    None => "end the moves with `1-0`, `0-1`, `1/2-1/2` or `*`".to_owned(),
                }),
            );
        }
        Some(result) => {
            let tag = game.tags.iter().find(|t| t.name.node == "Result");
            if let Some(tag) = tag
                && let Some(tagged) = Outcome::parse(&tag.value.node)
                && tagged != result.node
            {
                builder.diagnostics.push(
                    Diagnostic::new(
                        Code::ResultMismatch,
                        result.span,
                        format!(
                            "the result `{}` contradicts the Result tag `{}`",
                            result.node.as_str(),
                            tagged.as_str()
                        ),
                        "termination marker",
                    )
                    .with_help("make the Result tag and the marker after the moves agree"),
                );
            }
        }
    }
}

/// The diagnostic for a token that is no move in any form; transcripts use it too.
pub(crate) fn unreadable_move(token: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::UnreadableMove,
        span,
        format!("`{}` is not a move", truncate(token, 40)),
        "not a move in any notation form",
    )
    .with_help(
        "write moves in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`) or an extended form \
         (`Nxf6-c4`, `Re1-f10`, `Qxf7K@g7+`, `R->a4`, `Nf3->g2`); put other text in a `{...}` comment",
    )
}

/// Whether `text` may hold a control character: a byte below 0x20, DEL, or any byte of a
/// character past ASCII (C1 controls are two bytes in UTF-8). Most comments are ASCII
/// and hold none, which a scan eight bytes at a time without an early exit finds fastest
/// (every flag is sure but those above a sure one; the last word may overlap the one
/// before it).
#[inline(always)]
fn may_hold_control_character(text: &[u8]) -> bool {
    let flags = |w: &[u8; 8]| {
        let w = u64::from_le_bytes(*w);
        below(w, 0x20) | equal(w, 0x7f) | (w & HIGH)
    };
    let (words, rest) = text.as_chunks::<8>();
    let flagged = words.iter().fold(0, |any, w| any | flags(w));
    match text.last_chunk::<8>() {
        Some(last) if !rest.is_empty() => flagged | flags(last) != 0,
        Some(_) => flagged != 0,
        None => rest.iter().any(|b| !(0x20..0x7f).contains(b)),
    }
}

/// The closing `}` of a brace comment that is one clock command and nothing else,
/// `[%clk 0:09:57.1]` as chess.com writes it after every move (lichess with a blank on
/// either side), read from `from`, after the `{`; `None` for any other comment. Such a
/// comment is known to hold no event command and no control character without looking
/// for either (`memchr` for the end and each look cost some 150 instructions a comment).
#[inline(always)]
fn clock_comment_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from + usize::from(bytes.get(from) == Some(&b' '));
    let clock: &[u8; 22] = bytes.get(at..at + 22)?.try_into().unwrap();
    let (command, time) = clock.split_at(6);
    if command != b"[%clk " {
        return None;
    }
    // The time's length by the first byte in it that is no digit, `:` or `.`, found in
    // two words without a branch: a loop saved as many instructions and no time, its
    // end at a length that changes from move to move (`0:10:00`, `0:09:57.1`).
    let word = |k: usize| u64::from_le_bytes(time[k..k + 8].try_into().unwrap());
    let others =
        u128::from(!time_bytes(word(0)) & HIGH) | u128::from(!time_bytes(word(8)) & HIGH) << 64;
    let len = others.trailing_zeros() as usize / 8;
    if len == 0 || time.get(len) != Some(&b']') {
        return None;
    }
    at += 6 + len + 1;
    at += usize::from(bytes.get(at) == Some(&b' '));
    (bytes.get(at) == Some(&b'}')).then_some(at)
}

/// Flags (sets the high bit of) exactly the bytes of `w` that are digits, `:` or `.`,
/// with no false flags: the high bits are cleared before adding, so no sum carries into
/// the next byte.
#[inline(always)]
fn time_bytes(w: u64) -> u64 {
    let low7 = w & !HIGH;
    // The high bit of `low7 + (0x80 - n)` is set where the byte is at least `n`.
    let at_least = |n: u8| low7 + LOW * u64::from(0x80 - n);
    let not = |b: u8| (low7 ^ (LOW * u64::from(b))) + LOW * 0x7f;
    at_least(b'.') & !at_least(b':' + 1) & not(b'/') & !w & HIGH
}

/// The characters that have no place in a PGN file's text: controls (C0, DEL, C1) but
/// tab, line breaks and form feed, which PGN readers take as blanks. They can steer a
/// terminal that shows the text (ESC, OSC, BEL, the one-byte CSI 0x9B).
pub(crate) fn is_control_character(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c')
}

fn control_character_diagnostic(span: Span, c: char) -> Diagnostic {
    let name = if c.is_ascii() {
        format!("0x{:02X}", u32::from(c))
    } else {
        format!("U+{:04X}", u32::from(c))
    };
    Diagnostic::new(
        Code::ControlCharacter,
        span,
        format!("control character {name} in the text"),
        "invisible character",
    )
    .with_help("remove it: PGN is printable text")
}

/// `text` cut after `max_chars` characters, with `…` where it was cut.
pub(crate) fn truncate(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

struct TagValue {
    text: CompactString,
    range: std::ops::Range<usize>,
}

struct RawTag {
    name: std::ops::Range<usize>,
    value: TagValue,
}

type TagProblem = (Code, String, &'static str);

/// Where [`read_plain_tag`] found the name and value, and how many bytes it took.
struct PlainTag {
    name: std::ops::Range<usize>,
    known_name: Option<&'static str>,
    value: std::ops::Range<usize>,
    known_value: Option<CompactString>,
    len: usize,
}

/// Bytes that end a plain tag value: its closing quote, or what [`read_tag`] must read
/// (an escape, a line end). A table, as for [`DELIMITERS`].
static TAG_VALUE_STOPS: [bool; 256] = {
    let mut table = [false; 256];
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    // Line breaks end the line; other controls (a tab, an ESC) leave the value to
    // `read_tag`, which reports controls. So does 0xC2, the first byte of a C1 control
    // (and of a few signs such as `°` or a non-breaking space, rare in tag values).
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[0x7f] = true;
    table[0xc2] = true;
    table
};

/// The well-formed tag pair nearly every game is made of, `[Name "value"]` with nothing
/// to unescape, read from the start of `bytes` without first finding the end of its
/// line. `None` leaves every other case to [`read_tag`], which reads this one the same.
#[inline(always)]
fn read_plain_tag(bytes: &[u8]) -> Option<PlainTag> {
    // Exactly `[Name "value"]`: blanks anywhere else are `read_tag`'s.
    let name_start = 1;
    let (known_name, name_end) = match roster_name(bytes) {
        Some((name, len)) => (Some(name), name_start + len),
        None => {
            // A name ends at the blank or quote after it; only a name that is not a known
            // one needs its bytes checked one by one.
            let name_end = find(bytes, name_start, |w| below(w, b'"' + 1), |b| b <= b'"')?;
            let name = &bytes[name_start..name_end];
            let known_name = known_tag_name(name);
            if known_name.is_none()
                && (name.is_empty() || !name.iter().all(|&b| is_tag_name_byte(b)))
            {
                return None;
            }
            if bytes.get(name_end..name_end + 2) != Some(b" \"") {
                return None;
            }
            (known_name, name_end)
        }
    };
    let value_start = name_end + 2;
    if let Some((value, len)) = placeholder_value(bytes, value_start) {
        let value_end = value_start + len;
        return Some(PlainTag {
            name: name_start..name_end,
            known_name,
            value: value_start..value_end,
            known_value: Some(value),
            len: value_end + 2,
        });
    }
    let value_end = find(
        bytes,
        value_start,
        |w| equal(w, b'"') | equal(w, b'\\') | below(w, 0x20) | equal(w, 0x7f) | equal(w, 0xc2),
        |b| TAG_VALUE_STOPS[usize::from(b)],
    )?;
    if bytes.get(value_end..value_end + 2) != Some(b"\"]") {
        return None;
    }
    Some(PlainTag {
        name: name_start..name_end,
        known_name,
        value: value_start..value_end,
        known_value: None,
        len: value_end + 2,
    })
}

/// Up to eight bytes as one little-endian word, zero-padded.
const fn word(text: &[u8]) -> u64 {
    let mut w = 0;
    let mut i = text.len();
    while i > 0 {
        i -= 1;
        w = w << 8 | text[i] as u64;
    }
    w
}

/// The bytes of a word that hold the first `n` bytes of the text.
const fn mask(n: u32) -> u64 {
    if n >= 8 { u64::MAX } else { (1 << (8 * n)) - 1 }
}

/// The name of a Seven Tag Roster pair `[Name "` and the name's length, matched as one
/// word: most tag pairs are these, and one comparison costs less than finding where the
/// name ends and matching it. `None` leaves the name to be found byte by byte, which
/// reads these the same.
#[inline(always)]
fn roster_name(bytes: &[u8]) -> Option<(&'static str, usize)> {
    // Each name with the ` "` after it.
    const fn entry(name: &'static str) -> (&'static str, u64, u64) {
        let n = name.len() as u32 + 2;
        let mut text = [b'"'; 8];
        let mut i = 0;
        while i < name.len() {
            text[i] = name.as_bytes()[i];
            i += 1;
        }
        text[name.len()] = b' ';
        (name, word(&text) & mask(n), mask(n))
    }
    const EVENT: (&str, u64, u64) = entry("Event");
    const SITE: (&str, u64, u64) = entry("Site");
    const DATE: (&str, u64, u64) = entry("Date");
    const ROUND: (&str, u64, u64) = entry("Round");
    const WHITE: (&str, u64, u64) = entry("White");
    const BLACK: (&str, u64, u64) = entry("Black");
    const RESULT: (&str, u64, u64) = entry("Result");
    let w = u64::from_le_bytes(bytes.get(1..9)?.try_into().unwrap());
    // The first byte tells them apart but for `Round` and `Result`.
    let (name, pattern, used) = match w as u8 {
        b'E' => EVENT,
        b'S' => SITE,
        b'D' => DATE,
        b'W' => WHITE,
        b'B' => BLACK,
        b'R' if w & mask(2) == word(b"Ro") => ROUND,
        b'R' => RESULT,
        _ => return None,
    };
    (w & used == pattern).then_some((name, name.len()))
}

/// A placeholder or result value closed by `"]` at `start`, and its length: most values
/// of files exported without details. `None` leaves the value to be found byte by byte,
/// which reads these the same. Each value a constant, made at compile time: copying
/// one is a store of its 24 bytes, where making it from its text took some 40
/// instructions (openings.pgn has seven such values a game).
#[inline(always)]
fn placeholder_value(bytes: &[u8], start: usize) -> Option<(CompactString, usize)> {
    let w = u64::from_le_bytes(bytes.get(start..start + 8)?.try_into().unwrap());
    let (value, len) = match w as u8 {
        b'?' if w & mask(3) == word(b"?\"]") => (CompactString::const_new("?"), 1),
        b'?' if w == word(b"????.??.") && bytes.get(start + 8..start + 12) == Some(b"??\"]") => {
            (CompactString::const_new("????.??.??"), 10)
        }
        b'*' if w & mask(3) == word(b"*\"]") => (CompactString::const_new("*"), 1),
        b'-' if w & mask(3) == word(b"-\"]") => (CompactString::const_new("-"), 1),
        b'1' if w & mask(5) == word(b"1-0\"]") => (CompactString::const_new("1-0"), 3),
        b'1' if w == word(b"1/2-1/2\"") && bytes.get(start + 8) == Some(&b']') => {
            (CompactString::const_new("1/2-1/2"), 7)
        }
        b'0' if w & mask(5) == word(b"0-1\"]") => (CompactString::const_new("0-1"), 3),
        _ => return None,
    };
    Some((value, len))
}

/// Reads one tag pair from the start of `line` (which begins with `[`). Returns the tag
/// when a name and a value could be made out, how many bytes it took, and a problem.
fn read_tag(line: &str) -> (Option<RawTag>, usize, Option<TagProblem>) {
    let bytes = line.as_bytes();
    let mut i = 1;
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    let name_start = i;
    while i < bytes.len() && is_tag_name_byte(bytes[i]) {
        i += 1;
    }
    let name = name_start..i;
    let to_close = |from: usize| line[from..].find(']').map_or(line.len(), |c| from + c + 1);
    if name.is_empty() {
        return (
            None,
            to_close(i),
            Some((
                Code::MalformedTag,
                "tag pair without a name".into(),
                "write a tag pair as `[Name \"value\"]`",
            )),
        );
    }
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    if bytes.get(i) != Some(&b'"') {
        let end = to_close(i);
        let raw = line[i..end].trim_end_matches(']').trim();
        let problem = if raw.is_empty() {
            format!("tag `{}` has no value", &line[name.clone()])
        } else {
            format!(
                "the value of tag `{}` is not in double quotes",
                &line[name.clone()]
            )
        };
        let value = TagValue {
            text: CompactString::new(raw),
            range: i..i + raw.len(),
        };
        let problem = Some((
            Code::MalformedTag,
            problem,
            "write a tag pair as `[Name \"value\"]`",
        ));
        return (Some(RawTag { name, value }), end, problem);
    }
    let value_start = i + 1;
    let mut text = String::new();
    // Text from `copied` on is still to be appended; only quotes and backslashes matter.
    let mut copied = value_start;
    let mut j = value_start;
    while let Some(k) = memchr2(b'"', b'\\', &bytes[j..]) {
        let at = j + k;
        j = at + 1;
        if bytes[at] == b'\\' {
            if let Some(&e @ (b'"' | b'\\')) = bytes.get(j) {
                text.push_str(&line[copied..at]);
                text.push(char::from(e));
                j += 1;
                copied = j;
            }
        } else if let blanks = bytes[j..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
            && bytes.get(j + blanks) == Some(&b']')
        {
            // A quote ends the value only where `]` follows; other quotes are part of it.
            let text = if copied == value_start {
                CompactString::new(&line[value_start..at])
            } else {
                text.push_str(&line[copied..at]);
                CompactString::from(text)
            };
            let close = j + blanks + 1;
            let value = TagValue {
                text,
                range: value_start..at,
            };
            return (Some(RawTag { name, value }), close, None);
        }
    }
    text.push_str(&line[copied..]);
    let value = TagValue {
        text: CompactString::new(text.trim_end_matches([']', '"'])),
        range: value_start..line.len(),
    };
    (
        Some(RawTag { name, value }),
        line.len(),
        Some((
            Code::UnterminatedTag,
            "tag pair does not end on its line: `\"]` is missing".into(),
            "close the value with `\"` and the tag pair with `]` on the same line",
        )),
    )
}

#[cfg(test)]
mod tests;
