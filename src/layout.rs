//! Prints games back as PGN, losing nothing that was read: tags in the standard order,
//! moves as written, comments, NAGs, variations and escape lines in place, lines of at
//! most 80 columns where tokens allow.

use std::fmt::Write as _;

use crate::pgn::{CommentKind, Dots, Game, Item, Tag};
use crate::span::Spanned;

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

/// Appends `game` to `out` as PGN, ending with a newline.
pub fn write_game(game: &Game, out: &mut String) {
    write_game_spelled(game, out, &|_| None);
}

/// [`write_game`] with each move spelled as `spell` says from its offset in the text
/// (`xpgn convert` writes canonical SAN or long notation); `None` keeps it as written.
pub fn write_game_spelled(game: &Game, out: &mut String, spell: &dyn Fn(usize) -> Option<String>) {
    let mut movetext = Lines::new(out, spell);
    movetext.items(&game.prelude);
    movetext.end_line();
    for tag in ordered_tags(&game.tags) {
        movetext.out.push('[');
        movetext.out.push_str(&tag.name.node);
        movetext.out.push_str(" \"");
        for c in tag.value.node.chars() {
            if matches!(c, '"' | '\\') {
                movetext.out.push('\\');
            }
            movetext.out.push(c);
        }
        movetext.out.push_str("\"]\n");
    }
    if !game.tags.is_empty() {
        movetext.out.push('\n');
    }
    movetext.items(&game.moves);
    if let Some(result) = &game.result {
        movetext.token(result.node.as_str());
    }
    movetext.items(&game.trailing);
    movetext.end_line();
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

/// Fills lines token by token.
struct Lines<'a> {
    out: &'a mut String,
    spell: &'a dyn Fn(usize) -> Option<String>,
    column: usize,
    /// No space before the next token (it follows an opening parenthesis).
    glue: bool,
}

impl<'a> Lines<'a> {
    fn new(out: &'a mut String, spell: &'a dyn Fn(usize) -> Option<String>) -> Lines<'a> {
        Lines {
            out,
            spell,
            column: 0,
            glue: false,
        }
    }

    fn end_line(&mut self) {
        if self.column > 0 {
            self.out.push('\n');
            self.column = 0;
        }
        self.glue = false;
    }

    fn token(&mut self, text: &str) {
        let width = text.lines().next().map_or(0, |l| l.chars().count());
        if self.column > 0 && !self.glue {
            if self.column + 1 + width > LINE_WIDTH {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
        self.out.push_str(text);
        self.column = match text.rfind(['\n', '\r']) {
            Some(i) => text[i + 1..].chars().count(),
            None => self.column + width,
        };
        self.glue = false;
    }

    fn items(&mut self, items: &[Spanned<Item>]) {
        let mut buffer = String::new();
        for item in items {
            buffer.clear();
            match &item.node {
                Item::MoveNumber(n) => {
                    let dots = match n.dots {
                        Dots::Missing => "",
                        Dots::One => ".",
                        Dots::Three => "...",
                    };
                    let _ = write!(buffer, "{}{dots}", n.number);
                    self.token(&buffer);
                }
                Item::Move(m) => {
                    match (self.spell)(item.span.offset) {
                        Some(spelled) => buffer.push_str(&spelled),
                        None => {
                            let _ = write!(buffer, "{m}");
                        }
                    }
                    self.token(&buffer);
                }
                Item::Nag(n) => {
                    let _ = write!(buffer, "${n}");
                    self.token(&buffer);
                }
                Item::Comment(c) => match c.kind {
                    CommentKind::Brace => self.comment(&c.text),
                    CommentKind::Line => {
                        buffer.push(';');
                        buffer.push_str(&c.text);
                        self.token(&buffer);
                        self.end_line();
                    }
                },
                Item::Variation(line) => {
                    self.token("(");
                    self.glue = true;
                    self.items(line);
                    self.glue = false;
                    // The closing parenthesis sticks to what it closes.
                    self.out.push(')');
                    self.column += 1;
                }
                Item::Escape(text) => {
                    self.end_line();
                    self.out.push('%');
                    self.out.push_str(text);
                    self.out.push('\n');
                }
                Item::Unreadable(text) => self.token(text),
                // Transcript lines become comments so a PGN reader keeps them.
                Item::Prose(text) => self.comment(text),
                Item::EventLine(line) => match &line.event {
                    Some(event) => {
                        let _ = write!(buffer, "[%event {}", event.number.node);
                        for choice in &event.choices {
                            let _ = write!(buffer, " {}", choice.node);
                        }
                        buffer.push(']');
                        self.comment(&buffer.clone());
                    }
                    None => self.comment(&line.text),
                },
            }
        }
    }

    fn comment(&mut self, text: &str) {
        let mut token = String::with_capacity(text.len() + 2);
        token.push('{');
        token.push_str(text);
        token.push('}');
        self.token(&token);
    }
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
    fn tags_in_roster_order_then_the_rest() {
        let out = format("[Foo \"x\"]\n[White \"W\"]\n[Event \"E \\\"q\\\"\"]\n1. e4 *");
        assert_eq!(
            out,
            "[Event \"E \\\"q\\\"\"]\n[White \"W\"]\n[Foo \"x\"]\n\n1. e4 *\n"
        );
    }

    #[test]
    fn everything_read_is_printed() {
        let text = "% head\n{pre}\n[Event \"a\"]\n\n1.e4 {c} e5 $1 2. Nf3!? (2. f4 exf4 (2...d5)) ; rest\n2... Nc6 1-0 {post}\n";
        assert_eq!(
            format(text),
            "% head\n{pre}\n[Event \"a\"]\n\n1. e4 {c} e5 $1 2. Nf3!? (2. f4 exf4 (2... d5)) ; rest\n2... Nc6 1-0 {post}\n"
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
    fn printing_is_lossless_and_idempotent() {
        let text = "[Event \"a\"]\n1. e4 (1. d4 {x} (1. c4) ; y\n) 1... e5 2. Xx9 } *\n% z\n";
        let once = format(text);
        let parsed_again: Vec<_> = parse_str(&once).into_iter().map(|g| g.game).collect();
        let parsed: Vec<_> = parse_str(text).into_iter().map(|g| g.game).collect();
        assert_eq!(parsed, parsed_again);
        assert_eq!(format(&once), once);
    }
}
