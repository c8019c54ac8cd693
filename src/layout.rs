//! Prints games back as PGN, losing nothing that was read: tags in the standard order,
//! moves as written (or as a caller spells them), canonical move numbers, comments, NAGs,
//! variations and escape lines in place, lines of at most 80 columns where tokens allow.

use std::fmt::Write as _;

use crate::pgn::{CommentKind, Game, Item, Tag};
use crate::span::{Span, Spanned};

/// The Seven Tag Roster, printed first and in this order (PGN standard 8.1.1).
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The longest line the printer makes, unless one token is longer.
pub const LINE_WIDTH: usize = 80;

/// The tags in printing order: the Seven Tag Roster first, then the rest as written.
pub fn ordered_tags(tags: &[Tag]) -> Vec<&Tag> {
    let roster = SEVEN_TAG_ROSTER
        .iter()
        .flat_map(|name| tags.iter().filter(move |t| t.name.node == *name));
    let others = tags
        .iter()
        .filter(|t| !SEVEN_TAG_ROSTER.contains(&t.name.node.as_ref()));
    roster.chain(others).collect()
}

/// Where a tag stands in printing order: its place in the Seven Tag Roster, or after it.
fn roster_place(name: &str) -> usize {
    match name {
        "Event" => 0,
        "Site" => 1,
        "Date" => 2,
        "Round" => 3,
        "White" => 4,
        "Black" => 5,
        "Result" => 6,
        _ => SEVEN_TAG_ROSTER.len(),
    }
}

/// Prints the tags in [`ordered_tags`]' order. Nearly every file writes them in that
/// order already: then they are printed as they stand, with no list made.
fn write_tags(tags: &[Tag], out: &mut String) {
    let mut place = 0;
    let in_order = tags.iter().all(|tag| {
        let here = roster_place(&tag.name.node);
        let follows = here >= place;
        place = here;
        follows
    });
    if in_order {
        tags.iter().for_each(|tag| write_tag(tag, out));
    } else {
        ordered_tags(tags)
            .into_iter()
            .for_each(|tag| write_tag(tag, out));
    }
}

fn write_tag(tag: &Tag, out: &mut String) {
    let value: &str = &tag.value.node;
    // Room for the line at once: a tag line is pushed in five pieces.
    out.reserve(tag.name.node.len() + value.len() + 6);
    out.push('[');
    out.push_str(&tag.name.node);
    out.push_str(" \"");
    if memchr::memchr2(b'"', b'\\', value.as_bytes()).is_some() {
        for c in value.chars() {
            if matches!(c, '"' | '\\') {
                out.push('\\');
            }
            out.push(c);
        }
    } else {
        out.push_str(value);
    }
    out.push_str("\"]\n");
}

/// Appends `game` to `out` as PGN, ending with a newline.
pub fn write_game(game: &Game, out: &mut String) {
    write_game_spelled(game, out, |_| None);
}

/// [`write_game`] with each move spelled as `spell` says from where it is written
/// (`xpgn fmt` and `xpgn convert` write canonical SAN or long notation); `None` keeps it
/// as written. A move's assessment (`!`, `?!`) is kept either way.
pub fn write_game_spelled<'s>(
    game: &Game,
    out: &mut String,
    spell: impl Fn(Span) -> Option<&'s str>,
) {
    let mut movetext = Lines::new(out, spell);
    movetext.head(game);
    movetext.line(&game.moves, first_ply(game.tag("FEN")));
    movetext.tail(game);
}

/// A game printed as [`write_game_spelled`] prints it, from its parts as a reader comes
/// to them: the prelude and tags when its moves begin, each move as it is played (spelled
/// by the caller), the other items of its movetext and its variations as they come, and
/// the result and what follows it at its end. For `xpgn fmt`, which plays the moves of
/// orthodox games as it reads them and keeps none.
#[cfg(feature = "cli")]
#[derive(Default)]
pub(crate) struct GameAsRead {
    column: usize,
    glue: bool,
    /// The line being printed, and the lines outside its variation.
    at: LineAt,
    outer: Vec<LineAt>,
}

#[cfg(feature = "cli")]
impl GameAsRead {
    /// Lines that print at the end of `out` from where the last part left off.
    fn lines<'o>(&self, out: &'o mut String) -> Lines<'o, fn(Span) -> Option<&'static str>> {
        Lines {
            column: self.column,
            glue: self.glue,
            ..Lines::new(out, |_| None)
        }
    }

    fn keep<Spell>(&mut self, lines: &Lines<'_, Spell>) {
        (self.column, self.glue) = (lines.column, lines.glue);
    }

    /// The game's moves begin: its prelude and tags.
    pub(crate) fn begin(&mut self, game: &Game, out: &mut String) {
        let mut lines = Lines::new(out, |_| None);
        lines.head(game);
        self.keep(&lines);
        self.at = LineAt::new(first_ply(game.tag("FEN")));
        self.outer.clear();
    }

    /// The next move, spelled `spelled`, with its `assessment` (`!?`).
    pub(crate) fn played(&mut self, out: &mut String, spelled: &str, assessment: &str) {
        let mut lines = self.lines(out);
        lines.number(self.at.ply, self.at.interrupted);
        lines.move_token(spelled, assessment);
        self.keep(&lines);
        self.at.moved();
    }

    /// An item of the movetext that is neither a move nor a variation.
    pub(crate) fn item(&mut self, out: &mut String, item: &Item) {
        let mut lines = self.lines(out);
        lines.item(&mut self.at, item);
        self.keep(&lines);
    }

    /// A brace comment of the movetext, as [`GameAsRead::item`] lays it out; `clock`
    /// as [`crate::pgn::MoveSink::comment`] says.
    pub(crate) fn comment(&mut self, out: &mut String, text: &str, clock: bool) {
        let mut lines = self.lines(out);
        lines.comment(text, clock);
        self.keep(&lines);
        self.at.interrupted = true;
    }

    pub(crate) fn open_variation(&mut self, out: &mut String) {
        let mut lines = self.lines(out);
        let inner = lines.open_variation(&self.at);
        self.keep(&lines);
        self.outer.push(std::mem::replace(&mut self.at, inner));
    }

    pub(crate) fn close_variation(&mut self, out: &mut String) {
        let Some(outer) = self.outer.pop() else {
            return;
        };
        self.at = outer;
        let mut lines = self.lines(out);
        lines.close_variation(&mut self.at);
        self.keep(&lines);
    }

    /// The game has ended: its result and what follows it.
    pub(crate) fn finish(&mut self, game: &Game, out: &mut String) {
        let mut lines = self.lines(out);
        lines.tail(game);
        self.keep(&lines);
    }
}

/// Where a line of movetext being printed stands.
#[derive(Clone, Copy, Debug, Default)]
struct LineAt {
    /// The ply of the line's next move.
    ply: u32,
    /// The ply of the move a variation here replaces: the last move printed.
    replaced: u32,
    /// Whether the next move follows something other than a move (or opens the line),
    /// and so takes its number even as Black's.
    interrupted: bool,
}

impl LineAt {
    fn new(ply: u32) -> LineAt {
        LineAt {
            ply,
            replaced: ply,
            interrupted: true,
        }
    }

    fn moved(&mut self) {
        *self = LineAt {
            ply: self.ply.saturating_add(1),
            replaced: self.ply,
            interrupted: false,
        };
    }
}

/// The ply of a game's first move, counting from 0 for White's first move of the game:
/// from the side to move and the move number of its `[FEN]` tag (PGN numbers moves the
/// same way), 0 without one. A FEN too broken to say counts from 0, as the rules then
/// replay nothing.
pub fn first_ply(fen: Option<&str>) -> u32 {
    let Some(fen) = fen else { return 0 };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let black = fields.get(1) == Some(&"b");
    let number = fields
        .get(5)
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(1);
    number
        .saturating_sub(1)
        .saturating_mul(2)
        .saturating_add(u32::from(black))
}

/// Prints every game, a blank line between games.
pub fn write_games<'a>(games: impl IntoIterator<Item = &'a Game>, out: &mut String) {
    for (i, game) in games.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_game(game, out);
    }
}

/// Fills lines token by token; `spell` is asked for each move's spelling (generic, so
/// that it is inlined: it is asked for nearly every token).
struct Lines<'a, Spell> {
    out: &'a mut String,
    spell: Spell,
    column: usize,
    /// No space before the next token (it follows an opening parenthesis).
    glue: bool,
    /// Kept for the tokens built from several parts that are not one line of ASCII.
    scratch: String,
}

impl<'a, 's, Spell: Fn(Span) -> Option<&'s str>> Lines<'a, Spell> {
    fn new(out: &'a mut String, spell: Spell) -> Lines<'a, Spell> {
        Lines {
            out,
            spell,
            column: 0,
            glue: false,
            scratch: String::new(),
        }
    }

    fn end_line(&mut self) {
        if self.column > 0 {
            self.out.push('\n');
            self.column = 0;
        }
        self.glue = false;
    }

    /// A token made of `parts`, placed as [`Lines::token`] places their concatenation.
    /// Moves, numbers and clock comments, nearly every token, are one line of ASCII:
    /// those are written straight from their parts.
    fn token_of(&mut self, parts: &[&str]) {
        if !parts.iter().all(|part| is_printable_ascii(part)) {
            let mut token = std::mem::take(&mut self.scratch);
            token.clear();
            token.extend(parts.iter().copied());
            self.token(&token);
            self.scratch = token;
            return;
        }
        let width = parts.iter().map(|part| part.len()).sum();
        self.space_for(width);
        // Each copy of a few bytes is a call to `memcpy`: none for an empty part.
        for part in parts.iter().filter(|part| !part.is_empty()) {
            self.out.push_str(part);
        }
        self.column += width;
        self.glue = false;
    }

    /// A move spelled `spelled` with its `assessment` (`!?`, printable ASCII): nearly
    /// every token, so placed without [`Lines::token_of`]'s loops over parts.
    fn move_token(&mut self, spelled: &str, assessment: &str) {
        if !is_printable_ascii(spelled) {
            self.token_of(&[spelled, assessment]);
            return;
        }
        self.ascii_token(spelled, assessment.len());
        if !assessment.is_empty() {
            self.out.push_str(assessment);
        }
    }

    /// Places `text`, one line of printable ASCII, and leaves room in the column count
    /// for `more` bytes of it the caller appends at once.
    fn ascii_token(&mut self, text: &str, more: usize) {
        let width = text.len() + more;
        self.space_for(width);
        self.out.push_str(text);
        self.column += width;
        self.glue = false;
    }

    /// The space or line break before a token whose first line is `width` wide.
    fn space_for(&mut self, width: usize) {
        if self.column > 0 && !self.glue {
            if self.column + 1 + width > LINE_WIDTH {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
    }

    fn token(&mut self, text: &str) {
        if is_printable_ascii(text) {
            self.token_of(&[text]);
            return;
        }
        let one_line = !text.bytes().any(|b| b == b'\n' || b == b'\r');
        let width = if one_line && text.is_ascii() {
            text.len()
        } else {
            text.lines().next().map_or(0, |l| l.chars().count())
        };
        self.space_for(width);
        self.out.push_str(text);
        let last_break = if one_line {
            None
        } else {
            text.rfind(['\n', '\r'])
        };
        self.column = match last_break {
            Some(i) => text[i + 1..].chars().count(),
            None => self.column + width,
        };
        self.glue = false;
    }

    /// The prelude, tags and the blank line after them.
    fn head(&mut self, game: &Game) {
        self.line(&game.prelude, 0);
        self.end_line();
        write_tags(&game.tags, self.out);
        if !game.tags.is_empty() {
            self.out.push('\n');
        }
    }

    /// The result and what follows it.
    fn tail(&mut self, game: &Game) {
        if let Some(result) = &game.result {
            self.token(result.node.as_str());
        }
        self.line(&game.trailing, 0);
        self.end_line();
    }

    /// Prints a line of play whose first move plays `ply`, numbering its moves as the
    /// PGN export format does: before every White move, and before a Black move that
    /// opens the line or follows a comment, NAG or variation. Numbers as written are left
    /// out.
    fn line(&mut self, items: &[Spanned<Item>], ply: u32) {
        let mut buffer = String::new();
        let mut at = LineAt::new(ply);
        for item in items {
            match &item.node {
                Item::Move(m) => {
                    self.number(at.ply, at.interrupted);
                    match (self.spell)(item.span) {
                        Some(spelled) => {
                            let assessment = m.assessment.map_or("", |a| a.as_str());
                            self.move_token(spelled, assessment);
                        }
                        None => {
                            buffer.clear();
                            let _ = write!(buffer, "{m}");
                            self.token(&buffer);
                        }
                    }
                    at.moved();
                }
                Item::Variation(line) => {
                    let inner = self.open_variation(&at);
                    self.line(line, inner.ply);
                    self.close_variation(&mut at);
                }
                other => self.item(&mut at, other),
            }
        }
    }

    /// An item of the line `at` that is neither a move nor a variation (those are the
    /// caller's).
    fn item(&mut self, at: &mut LineAt, item: &Item) {
        match item {
            Item::Move(_) | Item::Variation(_) | Item::MoveNumber(_) => return,
            // A word that could not be read stands where a move would (the replay
            // gives it that ply too); stray symbols are no moves.
            Item::Unreadable(text) if text.starts_with(|c: char| c.is_alphanumeric()) => {
                self.number(at.ply, at.interrupted);
                self.token(text);
                at.moved();
                return;
            }
            Item::Unreadable(text) => self.token(text),
            Item::Nag(n) => {
                let mut token = arrayvec::ArrayString::<16>::new();
                token.push('$');
                push_decimal(&mut token, u32::from(*n));
                self.ascii_token(&token, 0);
            }
            Item::Comment(c) => match c.kind {
                CommentKind::Brace => self.comment(&c.text, false),
                CommentKind::Line => self.line_comment(&c.text),
            },
            Item::Escape(text) => {
                self.end_line();
                self.out.push('%');
                self.out.push_str(text);
                self.out.push('\n');
            }
            // Transcript lines become comments so a PGN reader keeps them.
            Item::Prose(text) => self.comment(text, false),
            Item::EventLine(line) => match &line.event {
                Some(event) => self.comment(&event.to_string(), false),
                None => self.comment(&line.text, false),
            },
        }
        at.interrupted = true;
    }

    /// Opens a variation on the line `at`: the line inside it, which replays the move it
    /// replaces.
    fn open_variation(&mut self, at: &LineAt) -> LineAt {
        self.token("(");
        self.glue = true;
        LineAt::new(at.replaced)
    }

    /// Closes the variation opened on the line `outer`.
    fn close_variation(&mut self, outer: &mut LineAt) {
        self.glue = false;
        // The closing parenthesis sticks to what it closes.
        self.out.push(')');
        self.column += 1;
        outer.interrupted = true;
    }

    /// The move number before the move playing `ply`, where one belongs: before every
    /// other move, so inlined, with numbers past the table out of line.
    #[inline(always)]
    fn number(&mut self, ply: u32, interrupted: bool) {
        let white = ply.is_multiple_of(2);
        if white || interrupted {
            let number = ply / 2 + 1;
            let dots = if white { 1 } else { 3 };
            match tabled_number(number, dots) {
                Some(text) => self.ascii_token(text, 0),
                None => self.untabled_number(number, dots),
            }
        }
    }

    #[cold]
    fn untabled_number(&mut self, number: u32, dots: usize) {
        let mut token = arrayvec::ArrayString::<16>::new();
        push_decimal(&mut token, number);
        token.push_str(&"..."[..dots]);
        self.ascii_token(&token, 0);
    }

    /// A brace comment; text that holds a `}` (transcript prose, which is one line) can
    /// only be a rest-of-line comment.
    /// `clock`: the text is known to be one line of printable ASCII without a `}`, as
    /// the reader found a clock command to be.
    fn comment(&mut self, text: &str, clock: bool) {
        // Nearly every comment (`[%clk 0:09:57.1]`) is printable ASCII without a `}`:
        // judged in one pass (unless the reader knows it) and written straight, without
        // `token_of`'s loops over parts. Every byte compared, without an early exit the
        // compiler could not vectorize.
        let plain = clock
            || text.bytes().fold(true, |plain, b| {
                plain & (b.wrapping_sub(b' ') < 0x5f) & (b != b'}')
            });
        if plain {
            let width = text.len() + 2;
            self.space_for(width);
            self.out.reserve(width);
            self.out.push('{');
            self.out.push_str(text);
            self.out.push('}');
            self.column += width;
            self.glue = false;
            return;
        }
        let closes = text.bytes().fold(false, |found, b| found | (b == b'}'));
        if closes && !text.contains(['\n', '\r']) {
            self.line_comment(text);
            return;
        }
        self.token_of(&["{", text, "}"]);
    }

    fn line_comment(&mut self, text: &str) {
        self.token_of(&[";", text]);
        self.end_line();
    }
}

/// Whether every byte of `text` is printable ASCII, so one line one column a byte wide:
/// nearly every token. Every byte is compared, without an early exit the compiler could
/// not vectorize.
fn is_printable_ascii(text: &str) -> bool {
    text.bytes().fold(true, |printable, b| {
        printable & (b.wrapping_sub(b' ') < 0x5f)
    })
}

/// Appends `n` in decimal, as `{n}` would, without the formatting machinery.
fn push_decimal(out: &mut arrayvec::ArrayString<16>, n: u32) {
    if n >= 10 {
        push_decimal(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// Move numbers below this come from [`NUMBERS`]: a number is written for every other ply,
/// and building each one digit by digit cost a tenth of `xpgn fmt`'s layout.
const TABLED_NUMBERS: u32 = 1000;
/// Bytes a number takes in [`NUMBERS`]: `999...`.
const NUMBER_SLOT: usize = 6;

/// `n...` for every `n` below [`TABLED_NUMBERS`], each left-aligned in a slot of
/// [`NUMBER_SLOT`] bytes padded with spaces: `n.` is the start of `n...`.
static NUMBER_BYTES: [u8; TABLED_NUMBERS as usize * NUMBER_SLOT] = number_bytes();
static NUMBERS: &str = match std::str::from_utf8(&NUMBER_BYTES) {
    Ok(text) => text,
    Err(_) => panic!("move numbers are ASCII"),
};

const fn number_bytes() -> [u8; TABLED_NUMBERS as usize * NUMBER_SLOT] {
    let mut bytes = [b' '; TABLED_NUMBERS as usize * NUMBER_SLOT];
    let mut n = 0;
    while n < TABLED_NUMBERS as usize {
        let slot = n * NUMBER_SLOT;
        let digits = decimal_digits(n as u32);
        let mut rest = n;
        let mut i = digits;
        while i > 0 {
            i -= 1;
            bytes[slot + i] = b'0' + (rest % 10) as u8;
            rest /= 10;
        }
        let mut dot = 0;
        while dot < 3 {
            bytes[slot + digits + dot] = b'.';
            dot += 1;
        }
        n += 1;
    }
    bytes
}

const fn decimal_digits(n: u32) -> usize {
    if n < 10 {
        1
    } else if n < 100 {
        2
    } else {
        3
    }
}

/// `number` followed by `dots` dots, from the table where it is there.
fn tabled_number(number: u32, dots: usize) -> Option<&'static str> {
    if number >= TABLED_NUMBERS {
        return None;
    }
    let slot = number as usize * NUMBER_SLOT;
    NUMBERS.get(slot..slot + decimal_digits(number) + dots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::parse_str;

    fn format(text: &str) -> String {
        let games = parse_str(text);
        let mut out = String::new();
        write_games(games.iter().map(|g| &g.game), &mut out);
        out
    }

    #[test]
    fn a_clock_comment_known_to_the_reader_is_laid_out_as_any_other() {
        for (column, text) in [(0, "[%clk 0:09:57.1]"), (70, " [%clk 0:03:00] "), (3, "x")] {
            let laid_out = |clock| {
                let mut out = String::new();
                let mut lines = Lines::new(&mut out, |_| None);
                lines.column = column;
                lines.comment(text, clock);
                let at = (lines.column, lines.glue);
                (out, at)
            };
            assert_eq!(laid_out(true), laid_out(false), "{text:?} at {column}");
        }
    }

    #[test]
    fn tags_in_roster_order_then_the_rest() {
        let out = format("[Foo \"x\"]\n[White \"W\"]\n[Event \"E \\\"q\\\"\"]\n1. e4 *");
        assert_eq!(
            out,
            "[Event \"E \\\"q\\\"\"]\n[White \"W\"]\n[Foo \"x\"]\n\n1. e4 *\n"
        );
    }

    proptest::proptest! {
        // Tags printed as they stand when in order are printed as the general sort
        // prints them, whatever the order written (duplicates and other tags included).
        #[test]
        fn tags_print_in_roster_order_however_written(
            tags in proptest::strategy::Strategy::prop_shuffle(proptest::strategy::Just(vec![
                "[Event \"a\"]",
                "[Event \"b\"]",
                "[Site \"s\"]",
                "[Result \"*\"]",
                "[ECO \"C20\"]",
                "[Annotator \"x \\\"y\\\"\"]",
                "[White \"w\"]",
            ]))
        ) {
            let games = parse_str(&format!("{}\n\n1. e4 *\n", tags.join("\n")));
            let tags = &games[0].game.tags;
            let mut printed = String::new();
            write_tags(tags, &mut printed);
            let mut sorted = String::new();
            ordered_tags(tags).into_iter().for_each(|tag| write_tag(tag, &mut sorted));
            proptest::prop_assert_eq!(printed, sorted);
        }
    }

    #[test]
    fn everything_read_is_printed() {
        let text = "% head\n{pre}\n[Event \"a\"]\n\n1.e4 {c} e5 $1 2. Nf3!? (2. f4 exf4 (2...d5)) ; rest\n2... Nc6 1-0 {post}\n";
        assert_eq!(
            format(text),
            "% head\n{pre}\n[Event \"a\"]\n\n1. e4 {c} 1... e5 $1 2. Nf3!? (2. f4 exf4 (2... d5)) ; rest\n2... Nc6 1-0 {post}\n"
        );
    }

    #[test]
    fn lines_wrap_at_80_columns_and_games_are_separated() {
        let moves: String = (1..=30).map(|n| format!("{n}. Nf3 Nf6 ")).collect();
        let out = format(&format!("{moves}*\n\n1. d4 *"));
        assert!(
            out.lines().all(|l| l.chars().count() <= LINE_WIDTH),
            "{out}"
        );
        assert!(out.ends_with("*\n\n1. d4 *\n"));
    }

    #[test]
    fn move_numbers_are_canonical_whatever_was_written() {
        assert_eq!(
            format("7. e4 7... e5 Nf3 $2 Nc6 {c} 9. Bb5 (Bc4 {x} Bc5 (3... Nf6)) a6 *"),
            "1. e4 e5 2. Nf3 $2 2... Nc6 {c} 3. Bb5 (3. Bc4 {x} 3... Bc5 (3... Nf6)) 3... a6\n*\n"
        );
        // Black to move at move 20: the first move is 20..., the next white move 21.
        let fen = "[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 20\"]\n\n1. Kd7 Kd2 (Ke2 Ke7) *";
        assert!(
            format(fen).ends_with("\n\n20... Kd7 21. Kd2 (21. Ke2 Ke7) *\n"),
            "{}",
            format(fen)
        );
        assert_eq!(first_ply(Some("8/8/8/8/8/8/8/8 w - - 0 1")), 0);
        assert_eq!(first_ply(Some("not a fen")), 0);
        assert_eq!(
            first_ply(Some("8/8/8/8/8/8/8/8 b - - 0 4294967295")),
            u32::MAX,
            "saturates (issue 20)"
        );
    }

    #[test]
    fn tabled_numbers_are_the_numbers_written_out() {
        for number in 0..TABLED_NUMBERS {
            assert_eq!(
                tabled_number(number, 1),
                Some(format!("{number}.").as_str())
            );
            assert_eq!(
                tabled_number(number, 3),
                Some(format!("{number}...").as_str())
            );
        }
        assert_eq!(tabled_number(TABLED_NUMBERS, 1), None);
        let fen = "[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 1234\"]\n\n1. Kd7 Kd2 *";
        assert!(
            format(fen).ends_with("\n\n1234... Kd7 1235. Kd2 *\n"),
            "{}",
            format(fen)
        );
    }

    #[test]
    fn prose_with_a_closing_brace_is_a_line_comment() {
        let mut game = parse_str("1. e4 *").remove(0).game;
        let prose = Spanned::new(Item::Prose("nice :}".into()), crate::span::Span::new(0, 0));
        game.moves.insert(0, prose);
        let mut out = String::new();
        write_game(&game, &mut out);
        assert_eq!(out, ";nice :}\n1. e4 *\n");
    }

    #[test]
    fn printing_is_lossless_and_idempotent() {
        let text = "[Event \"a\"]\n1. e4 (1. d4 {x} (1. c4) ; y\n) 1... e5 2. Xx9 } *\n% z\n";
        let once = format(text);
        let parsed_again: Vec<_> = parse_str(&once).into_iter().map(|g| g.game).collect();
        let parsed: Vec<_> = parse_str(text).into_iter().map(|g| g.game).collect();
        assert_eq!(parsed, parsed_again);
        assert_eq!(format(&once), once);
    }
}
