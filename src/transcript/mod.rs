//! Forum transcripts (`spec/notation.md` section 6): a game thread as text, one post a
//! line or a few, typed by hand or pasted from the browser with its page furniture. Read
//! line by line into the same [`Game`] tree as PGN: move lines give moves, event lines
//! give [`EventLine`]s, everything else is kept as prose.
//!
//! `thread` lays out a pasted page (post headers, authors, quotes, the players); this
//! module says what each line of a post means. Where the posts have authors, a move is
//! its poster's: a player's move posted while the other side is to move is no move of
//! this game (a retraction replaces the player's last move), and every line with a move
//! in it that is not read as moves gets a `skipped-move-text` warning, so a misread line
//! never hands later moves to the wrong side in silence.
//!
//! Choices follow an announcement: a line of squares (two or more, as a bare square is a
//! pawn move too) or knight facings, comma- or blank-separated, until the next move.

mod reveal;
mod spelling;
mod thread;

use std::borrow::Cow;

use compact_str::CompactString;

use crate::command::{Choice, EventCommand, EventLabel, parse_choices, parse_event};
use crate::diagnostic::{Code, Diagnostic};
use crate::notation::{Notation, Square};
use crate::pgn::{
    Dots, EventLine, Game, Item, MoveNumber, Outcome, ParsedGame, Tag, unreadable_move,
};
use crate::rules::Color;
use crate::span::{Span, Spanned};
use thread::{Layout, Thread, ThreadLine};

/// Reads a whole transcript that starts at offset 0.
pub fn parse_str(text: &str) -> ParsedGame {
    parse_chunk(text, 0)
}

/// Reads a transcript that starts at byte `offset` of its file (spans are absolute).
pub fn parse_chunk(text: &str, offset: usize) -> ParsedGame {
    let raw: Vec<(usize, &str)> = lines(text).collect();
    let trimmed: Vec<&str> = raw.iter().map(|(_, line)| trim_line(line)).collect();
    let thread = thread::lay_out(&trimmed);
    let mut reader = Reader::new(&thread);
    for (line, &(start, raw_line)) in thread.lines.iter().zip(&raw) {
        reader.line(line, offset + start, raw_line);
    }
    let mut parsed = reader.finish();
    parsed.game.span = Span::new(offset, text.len());
    parsed
}

/// What the reader made of one line, for `--verbose`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineReading {
    /// Moves of the game, with the player who posted them where the thread says.
    Moves { by: Option<String> },
    /// An event started, announced, or its choices.
    Event,
    /// Text that holds no move: kept and skipped.
    Prose,
    /// Page furniture: a title, a post header, a button.
    Page,
    /// A quoted post.
    Quote,
    /// Move-like text not read as moves, and why (it has a warning).
    Skipped(String),
    /// A secret choice told in words, and what it was read as (`White's: c4`).
    Reveal(String),
}

impl std::fmt::Display for LineReading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineReading::Moves { by: Some(by) } => write!(f, "moves by {by}"),
            LineReading::Moves { by: None } => f.write_str("moves"),
            LineReading::Event => f.write_str("event"),
            LineReading::Prose => f.write_str("prose"),
            LineReading::Page => f.write_str("page"),
            LineReading::Quote => f.write_str("quote"),
            LineReading::Skipped(why) => write!(f, "skipped ({why})"),
            LineReading::Reveal(what) => write!(f, "reveal ({what})"),
        }
    }
}

/// Lines with their byte offsets; `\n`, `\r\n` and a lone `\r` end a line.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let rest = &text[start..];
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = (start, &rest[..end]);
        start += end + usize::from(end < rest.len());
        if rest[end..].starts_with("\r\n") {
            start += 1;
        }
        Some(line)
    })
}

/// A line without the blanks and invisible characters around it.
fn trim_line(line: &str) -> &str {
    line.trim_matches(|c: char| c.is_whitespace() || spelling::is_invisible(c))
}

/// The words of a line with their spans: split at any blank (a pasted non-breaking
/// space too) and at zero-width characters.
fn words(text: &str, offset: usize) -> impl Iterator<Item = (&str, Span)> {
    text.split(|c: char| c.is_whitespace() || spelling::is_invisible(c))
        .filter(|word| !word.is_empty())
        .map(move |word| {
            let start = word.as_ptr() as usize - text.as_ptr() as usize;
            (word, Span::new(offset + start, word.len()))
        })
}

/// An event that a player started (`start event`) and the moderator may not have
/// announced yet.
#[derive(Debug)]
struct PendingStart {
    by: Color,
    span: Span,
    /// The item that holds the event once announced: the `start event` line where its
    /// writer was to move there, else a place before his next move.
    slot: Option<usize>,
    /// The announced event, while it waits for its writer's next move.
    command: Option<Box<EventCommand>>,
    announced: bool,
}

/// Where the choices of the last announced event go.
#[derive(Clone, Copy, Debug)]
enum ChoiceTarget {
    Item(usize),
    Pending(usize),
}

/// A move read, for retractions.
#[derive(Clone, Copy, Debug)]
struct MoveRead {
    /// Its item, and its number's where one was written before it.
    item: usize,
    number: Option<usize>,
    by: Option<Color>,
    /// The line it was read from: a retraction comes on a later one.
    line: usize,
}

struct Reader<'t, 'a> {
    thread: &'t Thread<'a>,
    game: Game,
    diagnostics: Vec<Diagnostic>,
    /// The ply of the next move of the main line.
    ply: u32,
    /// The players' names, White's first.
    players: [Option<Spanned<&'a str>>; 2],
    pending: Vec<PendingStart>,
    choices: Option<ChoiceTarget>,
    /// The post that announced an event: its other lines are the event's rules, whose
    /// examples are no moves of the game.
    announcing_post: Option<usize>,
    last_move: Option<MoveRead>,
    /// Whether the last line was an announcement: an event xpgn does not know may take
    /// choices on the line after it.
    previous_was_announcement: bool,
    /// Whether the announced event takes choices, so that they may come in later posts.
    choices_until_move: bool,
    /// The last announced event that takes choices: a secret one told in words later
    /// goes there.
    secret_choices: Option<ChoiceTarget>,
    /// Whether a line with text was read (the first names the players).
    seen_text: bool,
    /// Whose post the quote being read is (`Name wrote:`).
    quoted: Option<&'a str>,
    /// How many lines were read.
    lines_read: usize,
}

impl<'t, 'a> Reader<'t, 'a> {
    fn new(thread: &'t Thread<'a>) -> Self {
        Reader {
            thread,
            game: Game::default(),
            diagnostics: Vec::new(),
            ply: 0,
            players: [None, None],
            pending: Vec::new(),
            choices: None,
            announcing_post: None,
            last_move: None,
            previous_was_announcement: false,
            choices_until_move: false,
            secret_choices: None,
            seen_text: false,
            quoted: None,
            lines_read: 0,
        }
    }

    fn side_to_move(&self) -> Color {
        if self.ply.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// A player's colour; in a game against a team (`Martin0 - the world`), everyone
    /// but the team's opponent posts for the team.
    fn colour_of(&self, name: &str) -> Option<Color> {
        let named = |c: Color| self.players[c.index()].map(|p| p.node);
        let player = [Color::White, Color::Black]
            .into_iter()
            .find(|&c| named(c) == Some(name));
        player.or_else(|| {
            [Color::White, Color::Black]
                .into_iter()
                .find(|&c| named(c).is_some_and(thread::is_team) && named(c.other()).is_some())
        })
    }

    fn note(&mut self, span: Span, reading: LineReading) {
        self.game.reading.push(Spanned::new(reading, span));
    }

    fn push(&mut self, item: Item, span: Span) -> usize {
        self.game.moves.push(Spanned::new(item, span));
        self.game.moves.len() - 1
    }

    fn prose(&mut self, raw: &str, span: Span, reading: LineReading) {
        self.push(Item::Prose(raw.to_owned()), span);
        self.note(span, reading);
    }

    fn skip(&mut self, raw: &str, span: Span, why: String, help: &str) {
        self.diagnostics.push(
            Diagnostic::new(
                Code::SkippedMoveText,
                span,
                format!(
                    "`{}` is not read as moves: {why}",
                    crate::pgn::truncate(raw.trim(), 60)
                ),
                "not read as moves",
            )
            .with_help(help.to_owned()),
        );
        self.prose(raw.trim(), span, LineReading::Skipped(why));
    }

    fn line(&mut self, line: &ThreadLine<'a>, at: usize, raw: &'a str) {
        self.lines_read += 1;
        if line.text.is_empty() {
            return;
        }
        let span = Span::new(at, raw.len());
        let text_at = at + (line.text.as_ptr() as usize - raw.as_ptr() as usize);
        // The title, or a plain transcript's first line: `Alice - Bob`.
        if !std::mem::replace(&mut self.seen_text, true)
            && let Some(players) = self.thread.title_players
        {
            for (slot, name) in self.players.iter_mut().zip(players) {
                let offset = name.as_ptr() as usize - line.text.as_ptr() as usize;
                *slot = Some(Spanned::new(name, Span::new(text_at + offset, name.len())));
            }
        }
        if self.game.result.is_some() {
            self.game
                .trailing
                .push(Spanned::new(Item::Prose(raw.to_owned()), span));
            self.note(span, LineReading::Prose);
            return;
        }
        match line.layout {
            Layout::Title | Layout::Chrome => return self.prose(raw, span, LineReading::Page),
            Layout::Quote { on_page: true } => {
                self.quoted = thread::quote_header(line.text);
                return self.prose(raw, span, LineReading::Quote);
            }
            // A player's moves quoted from a post that is not on the page are read
            // nowhere (a kibitzer's are no moves anyway).
            Layout::Quote { on_page: false } => {
                let by_player = self
                    .quoted
                    .is_some_and(|name| self.players.iter().flatten().any(|p| p.node == name));
                let moves =
                    words(line.text, text_at).any(|(word, _)| Word::read(word).is_move_or_result());
                if by_player && moves {
                    return self.skip(
                        raw,
                        span,
                        "it is quoted from a post that is not on this page".into(),
                        "paste the page that holds the quoted post, if its moves belong to this game",
                    );
                }
                return self.prose(raw, span, LineReading::Quote);
            }
            Layout::Text => {}
        }
        let author = self.thread.author(line);
        if self.announcing_post.is_some() && self.announcing_post != line.post {
            self.announcing_post = None;
        }
        if self.ply == 0 {
            self.colour_statement(line, author, text_at);
        }
        let right_after_announcement = std::mem::take(&mut self.previous_was_announcement);
        if let Some(target) = self.choices
            && (self.choices_until_move || right_after_announcement)
            && let Some(choices) = choice_line(line.text, text_at)
        {
            self.add_choices(target, choices);
            let item = Item::EventLine(EventLine {
                text: raw.to_owned(),
                event: None,
            });
            self.push(item, span);
            return self.note(span, LineReading::Event);
        }
        if is_start_event(line.text) {
            return self.start_event(raw, span, author);
        }
        if let Some(event) = event_line(line.text, text_at, &mut self.diagnostics) {
            return self.announcement(event, raw, span, line.post);
        }
        if self.reveal(line, raw, span, author) {
            return;
        }
        self.moves(line, raw, span, text_at, author);
    }

    /// `@Name will play white` and the like, before the first move.
    fn colour_statement(&mut self, line: &ThreadLine<'a>, author: Option<&'a str>, at: usize) {
        let known: Vec<&str> = self.thread.authors.clone();
        for (name, white) in thread::colour_statements(line.text, author, &known) {
            let colour = if white { Color::White } else { Color::Black };
            let span = match line.text.find(name) {
                Some(offset) => Span::new(at + offset, name.len()),
                None => Span::new(at, 0),
            };
            self.players[colour.index()] = Some(Spanned::new(name, span));
            let other = colour.other().index();
            if self.players[other].is_some_and(|p| p.node == name) {
                self.players[other] = None;
            }
            // The other player is the title's other name.
            if self.players[other].is_none()
                && let Some(title) = self.thread.title_players
                && let Some(rest) = title.into_iter().find(|p| *p != name)
            {
                self.players[other] = Some(Spanned::new(rest, Span::new(0, 0)));
            }
        }
    }

    /// The colour a post's author plays, where the thread says. An author who posts
    /// moves before anyone is named takes the first free colour.
    fn author_colour(&mut self, author: Option<&'a str>, span: Span) -> Result<Option<Color>, ()> {
        let Some(author) = author else {
            return Ok(None);
        };
        if let Some(colour) = self.colour_of(author) {
            return Ok(Some(colour));
        }
        let free = [Color::White, Color::Black]
            .into_iter()
            .find(|&c| self.players[c.index()].is_none());
        match free {
            Some(colour) if colour == self.side_to_move() => {
                self.players[colour.index()] =
                    Some(Spanned::new(author, Span::new(span.offset, 0)));
                Ok(Some(colour))
            }
            _ => Err(()),
        }
    }

    /// `start event`: its writer's, and a player who has no colour yet takes the one
    /// left (with none taken, the side to move).
    fn start_event(&mut self, raw: &str, span: Span, author: Option<&'a str>) {
        let by = match author {
            None => self.side_to_move(),
            Some(author) => match self.colour_of(author) {
                Some(colour) => colour,
                None => {
                    let free: Vec<Color> = [Color::White, Color::Black]
                        .into_iter()
                        .filter(|&c| self.players[c.index()].is_none())
                        .collect();
                    let colour = match free.as_slice() {
                        [only] => *only,
                        [_, _] => self.side_to_move(),
                        _ => return self.prose(raw, span, LineReading::Prose),
                    };
                    self.players[colour.index()] =
                        Some(Spanned::new(author, Span::new(span.offset, 0)));
                    colour
                }
            },
        };
        let item = self.push(
            Item::EventLine(EventLine {
                text: raw.to_owned(),
                event: None,
            }),
            span,
        );
        self.pending.push(PendingStart {
            by,
            span,
            slot: (by == self.side_to_move()).then_some(item),
            command: None,
            announced: false,
        });
        self.note(span, LineReading::Event);
    }

    /// `Event #43 Line Pushers`: the event of the oldest `start event` not announced
    /// yet, or, with none, of the side to move.
    fn announcement(&mut self, event: EventCommand, raw: &str, span: Span, post: Option<usize>) {
        self.announcing_post = post.filter(|_| self.thread.has_posts());
        self.previous_was_announcement = true;
        let takes_choices =
            crate::rules::events::find(event.number.node, event.older).map(|e| e.takes_choices());
        self.choices_until_move = takes_choices == Some(true);
        let choice_target = |target| (takes_choices != Some(false)).then_some(target);
        self.secret_choices = None;
        let waiting = self.pending.iter().position(|p| !p.announced);
        let Some(index) = waiting else {
            let item = self.push(
                Item::EventLine(EventLine {
                    text: raw.to_owned(),
                    event: Some(Box::new(event)),
                }),
                span,
            );
            self.choices = choice_target(ChoiceTarget::Item(item));
            self.secret_choices = self.choices.filter(|_| self.choices_until_move);
            return self.note(span, LineReading::Event);
        };
        let here = self.push(
            Item::EventLine(EventLine {
                text: raw.to_owned(),
                event: None,
            }),
            span,
        );
        self.note(span, LineReading::Event);
        let side_to_move = self.side_to_move();
        let pending = &mut self.pending[index];
        pending.announced = true;
        let slot = pending
            .slot
            .or((pending.by == side_to_move).then_some(here));
        match slot {
            Some(slot) => {
                pending.slot = Some(slot);
                if let Item::EventLine(line) = &mut self.game.moves[slot].node {
                    line.event = Some(Box::new(event));
                }
                self.choices = choice_target(ChoiceTarget::Item(slot));
            }
            None => {
                pending.command = Some(Box::new(event));
                self.choices = choice_target(ChoiceTarget::Pending(index));
            }
        }
        self.secret_choices = self.choices.filter(|_| self.choices_until_move);
    }

    fn command(&mut self, target: ChoiceTarget) -> Option<&mut Box<EventCommand>> {
        match target {
            ChoiceTarget::Item(item) => match &mut self.game.moves[item].node {
                Item::EventLine(EventLine {
                    event: Some(event), ..
                }) => Some(event),
                _ => None,
            },
            ChoiceTarget::Pending(index) => self.pending[index].command.as_mut(),
        }
    }

    fn add_choices(&mut self, target: ChoiceTarget, choices: Vec<Spanned<Choice>>) {
        if let Some(command) = self.command(target) {
            command.choices.extend(choices);
        }
    }

    /// `my square was c4`: a secret choice told in words goes into its player's place
    /// in the running event's command (`[%event 5 c4 ?]`), for the rules to check
    /// against the moves. Returns whether the line was one.
    fn reveal(
        &mut self,
        line: &ThreadLine<'a>,
        raw: &str,
        span: Span,
        author: Option<&'a str>,
    ) -> bool {
        let (Some(target), Some((whose, square))) =
            (self.secret_choices, reveal::reveal_in_words(line.text))
        else {
            return false;
        };
        // `my` in a transcript without authors is nobody's in particular: prose.
        let Some(colour) = whose.or_else(|| author.and_then(|name| self.colour_of(name))) else {
            return false;
        };
        let Some(command) = self.command(target) else {
            return false;
        };
        if command.choices.is_empty() {
            command.choices = vec![Spanned::new(Choice::Secret, span); 2];
        }
        let told = Spanned::new(Choice::Square(square), span);
        let number = EventLabel(command.number.node);
        let per_player = command.choices.len() == 2;
        let earlier = match command.choices.get_mut(colour.index()) {
            Some(slot) if per_player => match slot.node {
                Choice::Secret => {
                    *slot = told;
                    None
                }
                earlier => Some(earlier),
            },
            _ => {
                self.skip(
                    raw,
                    span,
                    format!("a choice told in words, and #{number} takes no choice per player"),
                    "leave it as a comment",
                );
                return true;
            }
        };
        match earlier {
            Some(earlier) if earlier != told.node => self.skip(
                raw,
                span,
                format!("it tells {colour}'s choice for #{number} as {square}, which the record gave as {earlier} before"),
                "keep one of the two",
            ),
            _ => self.prose(
                raw,
                span,
                LineReading::Reveal(format!("{colour}'s choice for #{number}: {square}")),
            ),
        }
        true
    }

    /// Before a move by `by`: the events he started that wait for his move.
    fn place_waiting_events(&mut self, by: Color, at: Span) {
        for index in 0..self.pending.len() {
            let pending = &self.pending[index];
            if pending.by != by || pending.slot.is_some() {
                continue;
            }
            let command = self.pending[index].command.take();
            let announced = command.is_some();
            let item = self.push(
                Item::EventLine(EventLine {
                    text: String::new(),
                    event: command,
                }),
                Span::new(at.offset, 0),
            );
            self.pending[index].slot = Some(item);
            for target in [&mut self.choices, &mut self.secret_choices] {
                if announced
                    && let Some(ChoiceTarget::Pending(i)) = *target
                    && i == index
                {
                    *target = Some(ChoiceTarget::Item(item));
                }
            }
        }
    }

    /// A line that is not an event line: moves (maybe with chatter after them), a
    /// sentence with one clear move in it, or prose.
    fn moves(
        &mut self,
        line: &ThreadLine<'a>,
        raw: &'a str,
        span: Span,
        at: usize,
        author: Option<&'a str>,
    ) {
        let words = split_glued_numbers(move_words(line.text, at));
        let read: Vec<Word> = words.iter().map(|(word, _)| Word::read(word)).collect();
        let run = read
            .iter()
            .take_while(|w| !matches!(w, Word::Chatter))
            .count();
        let opens = matches!(read.first(), Some(Word::Tokens(tokens)) if !tokens.is_empty());
        let numbered =
            matches!(read.first(), Some(Word::Tokens(t)) if matches!(t[0].0, Token::Number(_)));
        let has_move = read[..run].iter().any(Word::is_move_or_result);
        let move_like_after = read[run..]
            .iter()
            .any(|w| matches!(w, Word::MoveLike) || w.is_move_or_result());
        // A numbered line is a move line even with a typo in it (`12. Nf3 Bxq9`).
        let run = if numbered && move_like_after {
            read.len()
        } else {
            run
        };
        // `Nf3xx` alone is a move with a typo, as `12. Nf3xx` is.
        let typo_line = run == read.len()
            && matches!(read.first(), Some(Word::MoveLike))
            && looks_like_a_move(&words[0].0);
        if typo_line
            || run > 0 && opens && (numbered || has_move) && (run == read.len() || !move_like_after)
        {
            let chatter = words.get(run).map(|(_, first)| {
                let from = first.offset - span.offset;
                (
                    &raw[from..],
                    Span::new(first.offset, span.end() - first.offset),
                )
            });
            let run_span = match words.get(run) {
                Some((_, first)) => Span::new(span.offset, first.offset - span.offset),
                None => span,
            };
            self.move_run(&words[..run], read, raw, run_span, line, author);
            if let Some((text, chatter_span)) = chatter {
                self.push(Item::Prose(text.trim().to_owned()), chatter_span);
            }
            return;
        }
        self.sentence(line, raw, span, at, author);
    }

    /// Whether the line's moves may be read at all, and why not. A move number that
    /// goes back marks a quote or an illustration; one move numbered a move too low for
    /// the side to move is a slip (`1...Nc6` for Black's second), for lint to mend.
    fn refusal(
        &self,
        line: &ThreadLine<'a>,
        first_number: Option<MoveNumber>,
        moves: usize,
    ) -> Option<(String, &'static str)> {
        let current = self.ply / 2 + 1;
        let side_fits = |number: MoveNumber| match number.dots {
            Dots::One => self.side_to_move() == Color::White,
            Dots::Three => self.side_to_move() == Color::Black,
            Dots::Missing => true,
        };
        if let Some(number) = first_number
            && number.number != 0
            && number.number < current
            && (current - number.number >= 2 || moves > 1 || !side_fits(number))
        {
            return Some((
                format!(
                    "its move number {} goes back (the game is at move {current}): a quote or an illustration",
                    number.number
                ),
                "if these are the game's moves, number them from where the game stands",
            ));
        }
        self.announcing(line)
    }

    /// Lines of the post that announces an event are its rules and examples.
    fn announcing(&self, line: &ThreadLine<'a>) -> Option<(String, &'static str)> {
        (self.announcing_post.is_some() && self.announcing_post == line.post).then(|| {
            (
                "it is in the post that announces an event, whose rules and examples are no moves"
                    .into(),
                "post moves apart from the event's announcement",
            )
        })
    }

    /// Reads the moves of a move line, in turn order.
    #[allow(clippy::too_many_arguments)]
    fn move_run(
        &mut self,
        words: &[(Cow<'a, str>, Span)],
        read: Vec<Word>,
        raw: &'a str,
        span: Span,
        line: &ThreadLine<'a>,
        author: Option<&'a str>,
    ) {
        let first_number = read.first().and_then(|w| match w {
            Word::Tokens(tokens) => match tokens[0].0 {
                Token::Number(number) => Some(number),
                _ => None,
            },
            _ => None,
        });
        let raw_run = &raw[..span.len.min(raw.len())];
        let moves = read
            .iter()
            .map(|w| match w {
                Word::Tokens(tokens) => tokens
                    .iter()
                    .filter(|t| matches!(t.0, Token::Move(_)))
                    .count(),
                _ => 0,
            })
            .sum();
        if let Some((why, help)) = self.refusal(line, first_number, moves) {
            return self.skip(raw_run, span, why, help);
        }
        let colour = match self.author_colour(author, span) {
            Ok(colour) => colour,
            Err(()) => {
                let author = author.unwrap_or_default();
                return self.skip(
                    raw_run,
                    span,
                    format!(
                        "it is posted by {author}, who does not play in this game{}",
                        self.players_said()
                    ),
                    "moves are read from the players' posts only",
                );
            }
        };
        let by = author.map(str::to_owned);
        let mut number: Option<(MoveNumber, Span)> = None;
        let mut read_any = false;
        for ((word, word_span), word_read) in words.iter().zip(read) {
            let tokens = match word_read {
                Word::Tokens(tokens) => tokens,
                Word::MoveLike | Word::Chatter => {
                    self.diagnostics.push(unreadable_move(word, *word_span));
                    self.push(Item::Unreadable(word.to_string()), *word_span);
                    continue;
                }
            };
            for (token, from, to) in tokens {
                // A turn rejoined from its parts ends where its last part does.
                let to = if to == word.len() { word_span.len } else { to };
                let token_span = Span::new(word_span.offset + from, to - from);
                match token {
                    Token::Number(n) if n.number == 0 => {
                        if let Some((number, span)) = &mut number {
                            number.dots = Dots::Three;
                            *span = span.to(token_span);
                        }
                    }
                    Token::Number(n) => number = Some((n, token_span)),
                    Token::Result(outcome) => {
                        self.game.result = Some(Spanned::new(outcome, token_span));
                    }
                    Token::Move(notation) => {
                        if let Some(colour) = colour
                            && colour != self.side_to_move()
                            && !self.retract(colour, &notation, token_span)
                        {
                            let from = token_span.offset - span.offset;
                            let from = number.map_or(from, |(_, s)| s.offset - span.offset);
                            let rest = Span::new(span.offset + from, span.len - from);
                            let who = author.unwrap_or_default();
                            self.skip(
                                &raw_run[from..],
                                rest,
                                format!(
                                    "{who} plays {colour}, and it is {}'s move here",
                                    self.side_to_move()
                                ),
                                "a player posts his own moves; a move of the other side in his post is a quote or an illustration",
                            );
                            return self.moves_note(span, read_any, by);
                        }
                        self.place_waiting_events(self.side_to_move(), token_span);
                        let number_item = number
                            .take()
                            .map(|(n, s)| self.push(Item::MoveNumber(n), s));
                        let item = self.push(Item::Move(notation), token_span);
                        self.last_move = Some(MoveRead {
                            item,
                            number: number_item,
                            by: colour,
                            line: self.lines_read,
                        });
                        self.ply += 1;
                        self.choices = None;
                        read_any = true;
                    }
                }
                if self.game.result.is_some() {
                    break;
                }
            }
        }
        if let Some((n, s)) = number {
            self.push(Item::MoveNumber(n), s);
        }
        self.moves_note(span, true, by);
    }

    fn moves_note(&mut self, span: Span, read_any: bool, by: Option<String>) {
        if read_any {
            let by = by.map(|name| match self.colour_of(&name) {
                Some(colour) => format!("{name} ({colour})"),
                None => name,
            });
            self.note(span, LineReading::Moves { by });
        }
    }

    /// A player's second move for one turn, with no move of the other side between:
    /// the later replaces the earlier (a retraction), which gets a warning. The same move
    /// posted twice is read once. Returns whether the move may be read now.
    fn retract(&mut self, colour: Color, notation: &Notation, span: Span) -> bool {
        let Some(last) = self.last_move else {
            return false;
        };
        let last_is_latest = self.game.moves[last.item + 1..]
            .iter()
            .all(|item| matches!(item.node, Item::Prose(_)));
        if last.by != Some(colour) || !last_is_latest || last.line == self.lines_read {
            return false;
        }
        let Item::Move(earlier) = &self.game.moves[last.item].node else {
            return false;
        };
        let earlier_span = self.game.moves[last.item].span;
        let same = earlier == notation;
        let written = earlier.to_string();
        let message = if same {
            format!("`{written}` is posted again later for the same turn: read once, here")
        } else {
            format!(
                "`{written}` is retracted: the same player posts `{notation}` for this turn later, which is read instead"
            )
        };
        if same {
            self.diagnostics.push(
                Diagnostic::new(Code::SkippedMoveText, span, message, "posted again")
                    .with_help("leave the repeated move out, or quote it"),
            );
            return false;
        }
        self.diagnostics.push(
            Diagnostic::new(Code::SkippedMoveText, earlier_span, message, "retracted")
                .with_help("delete the retracted move, or write it as a comment"),
        );
        for item in [Some(last.item), last.number].into_iter().flatten() {
            let node = &mut self.game.moves[item].node;
            *node = Item::Prose(match node {
                Item::Move(m) => m.to_string(),
                Item::MoveNumber(n) => n.number.to_string(),
                _ => String::new(),
            });
        }
        self.ply -= 1;
        self.last_move = None;
        true
    }

    /// ` (White is A, Black is B)`, as far as the thread says.
    fn players_said(&self) -> String {
        match self.players {
            [Some(white), Some(black)] => {
                format!(" (White is {}, Black is {})", white.node, black.node)
            }
            _ => String::new(),
        }
    }

    /// A line of prose: a sentence with one clear move in it is read as that move
    /// (`I open with 1.e4 here.`); more than one, or a move of the wrong player, is
    /// skipped with a warning. A bare square (`e4`) in a sentence is as likely a square
    /// as a move, and a sentence of those is prose.
    fn sentence(
        &mut self,
        line: &ThreadLine<'a>,
        raw: &'a str,
        span: Span,
        at: usize,
        author: Option<&'a str>,
    ) {
        let mut clear: Vec<(&str, Span, Tokens)> = Vec::new();
        for (word, word_span) in words(line.text, at) {
            let inner = word
                .trim_start_matches(['(', '"', '\''])
                .trim_end_matches(['(', ')', '"', '\'', ',', ';', ':', '?', '!']);
            let inner = if inner.ends_with('.') && !inner.ends_with("..") {
                &inner[..inner.len() - 1]
            } else {
                inner
            };
            if inner.is_empty() || Square::parse(inner).is_some() {
                continue;
            }
            let Word::Tokens(tokens) = Word::read(inner) else {
                continue;
            };
            let numbered = matches!(tokens[0].0, Token::Number(_));
            let moves = tokens
                .iter()
                .filter(|t| matches!(t.0, Token::Move(_)))
                .count();
            let bare_square = tokens.iter().any(|t| {
                matches!(&t.0, Token::Move(_)) && Square::parse(&inner[t.1..t.2]).is_some()
            });
            // Unnumbered, a clear move starts as SAN does on our boards: a piece letter,
            // castling, or a pawn's file (a to j) and its capture (`mp3` is no move).
            let bytes = inner.as_bytes();
            let san_start = inner.starts_with(['K', 'Q', 'R', 'B', 'N', 'O', '0'])
                || inner.len() > 2
                    && b"kqrbn".contains(&bytes[0])
                    && (b'a'..=b'j').contains(&bytes[1])
                || inner.len() > 2 && (b'a'..=b'j').contains(&bytes[0]) && bytes[1] == b'x';
            if moves == 1 && (numbered || !bare_square && san_start) {
                let offset = inner.as_ptr() as usize - word.as_ptr() as usize;
                clear.push((
                    inner,
                    Span::new(word_span.offset + offset, inner.len()),
                    tokens,
                ));
            }
        }
        let Some((written, move_span, tokens)) = clear.pop() else {
            let typo = words(line.text, at)
                .map(|(word, _)| word.trim_end_matches([',', ';', ':', '!', '?', ')']))
                .find(|word| matches!(Word::read(word), Word::MoveLike) && looks_like_a_move(word));
            if let Some(typo) = typo {
                let why = format!("`{typo}` looks like a move, and reads as none");
                return self.skip(
                    raw,
                    span,
                    why,
                    "write the move as SAN on a line of its own (`12. Nf3`), or leave it",
                );
            }
            return self.prose(raw, span, LineReading::Prose);
        };
        if let Some((why, help)) = self.announcing(line) {
            return self.skip(raw, span, why, help);
        }
        // `What about Nf3?` asks; the move comes later, if at all.
        if line.text.trim_end().ends_with('?') {
            return self.skip(
                raw,
                span,
                "a question with a move in it".into(),
                "post the move you play on a line of its own",
            );
        }
        if !clear.is_empty() {
            return self.skip(
                raw,
                span,
                "a sentence with more than one move in it".into(),
                "post the move you play on a line of its own",
            );
        }
        let first_number = match tokens[0].0 {
            Token::Number(number) => Some(number),
            _ => None,
        };
        if let Some((why, help)) = self.refusal(line, first_number, 1) {
            return self.skip(raw, span, why, help);
        }
        let colour = match (author, self.author_colour(author, span)) {
            (_, Ok(colour)) => colour,
            (author, Err(())) => {
                let author = author.unwrap_or_default();
                return self.skip(
                    raw,
                    span,
                    format!(
                        "it is posted by {author}, who does not play in this game{}",
                        self.players_said()
                    ),
                    "moves are read from the players' posts only",
                );
            }
        };
        if colour.is_some_and(|c| c != self.side_to_move()) {
            return self.skip(
                raw,
                span,
                format!(
                    "a move in a sentence by {}, while it is {}'s move",
                    author.unwrap_or_default(),
                    self.side_to_move()
                ),
                "post the move you play on a line of its own",
            );
        }
        let before = move_span.offset - span.offset;
        if before > 0 {
            self.push(
                Item::Prose(raw[..before].trim().to_owned()),
                Span::new(span.offset, before),
            );
        }
        let words = vec![(Cow::Borrowed(written), move_span)];
        let read = vec![Word::Tokens(tokens)];
        self.move_run(
            &words,
            read,
            &raw[before..before + written.len()],
            move_span,
            line,
            author,
        );
        let after = before + written.len();
        if after < raw.len() {
            let rest = raw[after..].trim();
            if !rest.is_empty() {
                self.push(
                    Item::Prose(rest.to_owned()),
                    Span::new(span.offset + after, raw.len() - after),
                );
            }
        }
    }

    fn finish(mut self) -> ParsedGame {
        for pending in &self.pending {
            if !pending.announced {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::EventNotAnnounced,
                        pending.span,
                        format!(
                            "{} starts an event that the transcript never announces: the moves after it are checked without it",
                            if pending.by == Color::White { "White" } else { "Black" }
                        ),
                        "which event?",
                    )
                    .with_help("add the moderator's announcement (`Event #43 Line Pushers`) after this line"),
                );
            }
        }
        // Places kept for events that were never announced hold nothing.
        self.game
            .moves
            .retain(|item| !matches!(&item.node, Item::EventLine(EventLine { text, event: None }) if text.is_empty()));
        for (colour, name) in [("White", self.players[0]), ("Black", self.players[1])] {
            if let Some(name) = name {
                self.game.tags.push(Tag {
                    name: Spanned::new(Cow::Borrowed(colour), Span::new(name.span.offset, 0)),
                    value: Spanned::new(CompactString::new(name.node), name.span),
                    span: name.span,
                });
            }
        }
        ParsedGame {
            game: self.game,
            diagnostics: self.diagnostics,
            heap_items: crate::pgn::HeapItems::default(),
        }
    }
}

fn is_start_event(line: &str) -> bool {
    line.trim_end_matches(['!', '.', ':'])
        .eq_ignore_ascii_case("start event")
}

/// A line of choices only: knight facings, or two or more squares (one bare square is a
/// pawn move), comma- or blank-separated.
fn choice_line(line: &str, at: usize) -> Option<Vec<Spanned<Choice>>> {
    let words = words(line, at).flat_map(|(word, span)| {
        word.split(',')
            .filter(|part| !part.is_empty())
            .map(move |part| {
                let offset = part.as_ptr() as usize - word.as_ptr() as usize;
                (part, Span::new(span.offset + offset, part.len()))
            })
    });
    let choices = parse_choices(words).ok()?;
    let facings = choices
        .iter()
        .all(|c| matches!(c.node, Choice::Facing { .. }));
    (!choices.is_empty() && (facings || choices.len() >= 2)).then_some(choices)
}

/// `Event #43 Line Pushers`, `Event #5 Hidden passage c4 f6`, `Event #43: Line Pushers`,
/// `start event: Event #68 Prince` (both announcements in one post). A name that is
/// another event's in the catalogue wins over the number, with a warning: the numbers
/// were reorganised once (`spec/notation.md` section 6).
fn event_line(line: &str, at: usize, diagnostics: &mut Vec<Diagnostic>) -> Option<EventCommand> {
    let trimmed = line.trim_start();
    let announced = start_event_prefix(trimmed).unwrap_or(trimmed);
    let head = announced.get(..5)?;
    if !head.eq_ignore_ascii_case("event") {
        return None;
    }
    let after = announced[5..].trim_start();
    let number_text = after.strip_prefix('#')?;
    let number_at = at + (line.len() - number_text.len());
    let words: Vec<(&str, Span)> = words(number_text, number_at).collect();
    let (number, number_span) = *words.first()?;
    // Punctuation after the number (`#43:`) belongs to the sentence, not the number.
    let number = number.trim_end_matches([':', ',', '.', '!', '-']);
    // The name is free text; choices are the trailing words that read as choices.
    let choices_from = words[1..]
        .iter()
        .rposition(|(word, span)| parse_choices(std::iter::once((*word, *span))).is_err())
        .map_or(1, |i| i + 2);
    match parse_event(number, number_span.offset) {
        Ok(mut event) => {
            event.choices = parse_choices(words[choices_from..].iter().copied()).ok()?;
            if let Some((_, name_start)) = words.get(1) {
                let name_text = &line[name_start.offset - at..];
                check_name(&mut event, name_text, diagnostics);
            }
            // `Event #70 Ice (old wording)`: the catalogue's older wording, where xpgn
            // plays one.
            let says_old = words[1..choices_from.min(words.len())]
                .iter()
                .any(|(word, _)| {
                    let word = word.trim_matches(|c: char| !c.is_ascii_alphanumeric());
                    word.eq_ignore_ascii_case("old") || word.eq_ignore_ascii_case("older")
                });
            event.older |=
                says_old && crate::rules::events::find(event.number.node, true).is_some();
            Some(event)
        }
        Err(diagnostic) => {
            diagnostics.push(diagnostic);
            None
        }
    }
}

/// The announced name against the number: where the name is another event's, the
/// event is the named one. An event of the early numbering announced by the number it
/// had then (`Event #4 Portal Chess`, `4*` now) is read by its name without a word
/// (PC-9).
fn check_name(event: &mut EventCommand, name_text: &str, diagnostics: &mut Vec<Diagnostic>) {
    use crate::rules::events::catalogue;
    let number = event.number.node;
    let Some(named) = catalogue::named(name_text) else {
        return;
    };
    if named == number {
        return;
    }
    let early = EventLabel(named);
    if early.is_early() && early.announced() == number {
        event.number.node = named;
        return;
    }
    let (named, number) = (early, EventLabel(number));
    let name = catalogue::name(named.0).unwrap_or_default();
    let numbered = catalogue::name(number.0).map_or(String::new(), |n| format!(" ({n})"));
    diagnostics.push(
        Diagnostic::new(
            Code::EventNameMismatch,
            event.number.span,
            format!(
                "the announcement names event #{named} {name}, yet gives the number #{number}{numbered}: read as #{named}, by its name"
            ),
            "this number",
        )
        .with_help(format!("write `Event #{named} {name}`")),
    );
    event.number.node = named.0;
}

/// The rest of a line that opens with `start event` and goes on (`start event: Event
/// #5 ...`).
fn start_event_prefix(line: &str) -> Option<&str> {
    let head = line.get(..11)?;
    if !head.eq_ignore_ascii_case("start event") {
        return None;
    }
    let rest = line[11..].trim_start_matches(|c: char| c.is_whitespace() || "!.:,-".contains(c));
    (rest.len() < line.len() - 11 || rest.is_empty()).then_some(rest)
}

/// A word's tokens, with where each starts and ends in the word.
type Tokens = Vec<(Token, usize, usize)>;

enum Token {
    Number(MoveNumber),
    Move(Notation),
    Result(Outcome),
}

/// What a word of a line is.
enum Word {
    /// A move number, a move, a result, or a number glued to a move (`1.e4`).
    Tokens(Vec<(Token, usize, usize)>),
    /// No move as written, yet shaped like one (`Bxq9`): most likely a typo.
    MoveLike,
    /// A word of a sentence.
    Chatter,
}

impl Word {
    fn read(word: &str) -> Word {
        if let Some(tokens) = token(word) {
            return Word::Tokens(tokens);
        }
        let move_like = word.starts_with(|c: char| c.is_ascii_alphanumeric())
            && word.bytes().any(|b| b.is_ascii_digit())
            && word.bytes().any(|b| b.is_ascii_alphabetic())
            && word
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"x=+#!?>@,.-/".contains(&b));
        if move_like {
            Word::MoveLike
        } else {
            Word::Chatter
        }
    }

    fn is_move_or_result(&self) -> bool {
        matches!(self, Word::Tokens(tokens) if tokens.iter().any(|(t, _, _)| matches!(t, Token::Move(_) | Token::Result(_))))
    }
}

/// Reads `word` as a move number (maybe glued to a move), a move or a result, in its
/// forum spellings (`1…Nf6`, `d5.`, `nf3`).
fn token(word: &str) -> Option<Vec<(Token, usize, usize)>> {
    if let Some(outcome) = Outcome::parse(word) {
        return Some(vec![(Token::Result(outcome), 0, word.len())]);
    }
    // `…` is as long in UTF-8 as `...`, so the offsets hold.
    let word: Cow<'_, str> = if word.contains('…') {
        Cow::Owned(word.replace('…', "..."))
    } else {
        Cow::Borrowed(word)
    };
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
    if digits > 0 && dots > 0 {
        let number = MoveNumber {
            number: word[..digits].parse().ok()?,
            dots: if dots == 1 { Dots::One } else { Dots::Three },
        };
        let mut tokens = vec![(Token::Number(number), 0, digits + dots)];
        let rest = &word[digits + dots..];
        if !rest.is_empty() {
            tokens.push((
                Token::Move(spelling::forum_move(rest)?.0),
                digits + dots,
                word.len(),
            ));
        }
        return Some(tokens);
    }
    if word.bytes().all(|b| b == b'.') {
        return Some(vec![(
            Token::Number(MoveNumber {
                number: 0,
                dots: Dots::Three,
            }),
            0,
            word.len(),
        )]);
    }
    spelling::forum_move(&word).map(|(m, _)| vec![(Token::Move(m), 0, word.len())])
}

/// The words of a line, with a turn's parts joined again where a blank follows a comma
/// (`Qxe5, Qxe6#`, `spec/notation.md` section 7) and the whole reads as one turn.
fn move_words(line: &str, at: usize) -> Vec<(Cow<'_, str>, Span)> {
    let mut out: Vec<(Cow<'_, str>, Span)> = Vec::new();
    let mut run: Vec<(&str, Span)> = Vec::new();
    for (word, span) in words(line, at) {
        run.push((word, span));
        if word.ends_with(',') {
            continue;
        }
        push_run(&mut run, &mut out);
    }
    push_run(&mut run, &mut out);
    out
}

/// A word shaped like a move that a reader would take for one: a piece letter (after
/// its move number, if any) and a digit (`Nf3xx`, `12.Bxq9`), not `2nd` or `mp3`.
fn looks_like_a_move(word: &str) -> bool {
    let piece = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    piece.starts_with(['K', 'Q', 'R', 'B', 'N']) && piece.bytes().any(|b| b.is_ascii_digit())
}

/// `12.Nf3xx` as `12.` and `Nf3xx`: a move number glued to a word shaped like a move
/// that does not read, so that the line is a numbered move line with a typo in it, and
/// not prose.
fn split_glued_numbers(words: Vec<(Cow<'_, str>, Span)>) -> Vec<(Cow<'_, str>, Span)> {
    let mut out = Vec::with_capacity(words.len());
    for (word, span) in words {
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let number = digits + word[digits..].bytes().take_while(|&b| b == b'.').count();
        if digits == 0 || number == digits || number == word.len() || token(&word).is_some() {
            out.push((word, span));
            continue;
        }
        let rest = &word[number..];
        if !matches!(Word::read(rest), Word::MoveLike) {
            out.push((word, span));
            continue;
        }
        out.push((
            Cow::Owned(word[..number].to_owned()),
            Span::new(span.offset, number),
        ));
        out.push((
            Cow::Owned(rest.to_owned()),
            Span::new(span.offset + number, span.len - number),
        ));
    }
    out
}

/// Adds words that end in commas and the word after them, as one word if that reads.
fn push_run<'a>(run: &mut Vec<(&'a str, Span)>, out: &mut Vec<(Cow<'a, str>, Span)>) {
    if let [(_, first), .., (_, last)] = run.as_slice() {
        let joined: String = run.iter().map(|(word, _)| *word).collect();
        if token(&joined).is_some() {
            out.push((Cow::Owned(joined), first.to(*last)));
            run.clear();
        }
    }
    out.extend(
        run.drain(..)
            .map(|(word, span)| (Cow::Borrowed(word), span)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Code;

    fn moves(game: &Game) -> Vec<String> {
        game.main_line().map(|m| m.node.to_string()).collect()
    }

    fn events(game: &Game) -> Vec<Option<(u16, Vec<String>)>> {
        game.moves
            .iter()
            .filter_map(|i| match &i.node {
                Item::EventLine(line) => Some(line.event.as_ref().map(|e| {
                    (
                        e.number.node,
                        e.choices.iter().map(|c| c.node.to_string()).collect(),
                    )
                })),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_notation_example_reads_as_moves_events_and_prose() {
        let parsed = parse_str(
            "1.e4\nstart event\nEvent #43 Line Pushers\n1...c5\n2.Nf3 d6\nwfb\n3.R->a1\n",
        );
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        assert_eq!(moves(&parsed.game), ["e4", "c5", "Nf3", "d6", "R->a1"]);
        // The event sits where Black started it, before his move; the announcement
        // line is kept where it was written.
        assert_eq!(events(&parsed.game), [Some((43, vec![])), None]);
        assert!(
            parsed
                .game
                .moves
                .iter()
                .any(|i| i.node == Item::Prose("wfb".into()))
        );
    }

    #[test]
    fn a_turn_in_parts_may_have_blanks_after_its_commas() {
        let text = "1. e4, d4 e5\n2.Qxe5,  Qxe6# b8=Q,h8=Q#\n3. e4, then d4\n";
        let parsed = parse_str(text);
        let written: Vec<(String, &str)> = parsed
            .game
            .main_line()
            .map(|m| (m.node.to_string(), &text[m.span.offset..m.span.end()]))
            .collect();
        assert_eq!(
            written,
            [
                ("e4,d4".to_owned(), "e4, d4"),
                ("e5".to_owned(), "e5"),
                ("Qxe5,Qxe6#".to_owned(), "Qxe5,  Qxe6#"),
                ("b8=Q,h8=Q#".to_owned(), "b8=Q,h8=Q#"),
                ("d4".to_owned(), "d4"),
            ]
        );
        // Words that do not read as one turn stay apart: `e4,` alone is no move.
        let unreadable: Vec<&Item> = parsed
            .game
            .moves
            .iter()
            .map(|i| &i.node)
            .filter(|node| matches!(node, Item::Unreadable(_)))
            .collect();
        assert_eq!(
            unreadable,
            [
                &Item::Unreadable("e4,".into()),
                &Item::Unreadable("then".into())
            ]
        );
    }

    #[test]
    fn choices_on_the_same_line_and_on_the_next() {
        let game = parse_str("Event #5 Hidden passage c4 f6\n1. c4").game;
        assert_eq!(events(&game), [Some((5, vec!["c4".into(), "f6".into()]))]);
        let game = parse_str(
            "Start Event!\r\nEvent #85 Loyal Knights\r\nNb1->b2 Ng1->h3 Nb8->b7 Ng8->f6\r\n0-0 c5",
        )
        .game;
        assert_eq!(
            events(&game),
            [
                Some((
                    85,
                    vec![
                        "Nb1->b2".into(),
                        "Ng1->h3".into(),
                        "Nb8->b7".into(),
                        "Ng8->f6".into()
                    ]
                )),
                None,
                None
            ]
        );
        assert_eq!(moves(&game), ["0-0", "c5"]);
    }

    #[test]
    fn a_numbered_line_with_a_typo_is_a_diagnostic() {
        let text = "I'll play the Reti\n12. Nf3 Bxq9\n";
        let parsed = parse_chunk(text, 100);
        assert_eq!(parsed.diagnostics.len(), 1);
        let d = &parsed.diagnostics[0];
        assert_eq!(d.code, Code::UnreadableMove);
        assert_eq!(d.span, Span::new(100 + text.find("Bxq9").unwrap(), 4));
        let nf3 = parsed.game.main_line().next().unwrap();
        assert_eq!(nf3.span.offset, 100 + text.find("Nf3").unwrap());
        assert!(matches!(parsed.game.moves[0].node, Item::Prose(_)));
    }

    #[test]
    fn results_end_the_moves_and_bad_events_are_reported() {
        let parsed = parse_str("1. e4 e5 1-0\n2. d4\nEvent #x Foo\n");
        assert_eq!(moves(&parsed.game), ["e4", "e5"]);
        assert_eq!(
            parsed.game.result.as_ref().unwrap().node,
            Outcome::WhiteWins
        );
        let parsed = parse_str("Event #zz Foo\n\0\n");
        assert_eq!(parsed.diagnostics[0].code, Code::MalformedEventCommand);
        assert!(matches!(parsed.game.moves[0].node, Item::Prose(_)));
    }

    #[test]
    fn forum_habits_read_as_moves_events_results_and_prose() {
        let text = "Alice - Bob\n1. e4 e5\nNf3\nnice move!\n1...Nc6\nstart event: Event #43: Line Pushers\nBb5\nEvent #68 Prince\nc5\n0-0 I resign\n1-0\ngg\n";
        let parsed = parse_str(text);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let game = &parsed.game;
        // `1...Nc6` numbers Black's second move one too low: a slip, read (lint mends it).
        // A move line with chatter after it reads like `e4 lol`.
        assert_eq!(moves(game), ["e4", "e5", "Nf3", "Nc6", "Bb5", "c5", "0-0"]);
        assert_eq!(
            events(game),
            [Some((43, vec![])), Some((68, vec![]))],
            "one bare move after an event line is a move, not a choice"
        );
        assert_eq!(game.result.as_ref().unwrap().node, Outcome::WhiteWins);
        let prose = |items: &[Spanned<Item>]| -> Vec<String> {
            items
                .iter()
                .filter_map(|i| match &i.node {
                    Item::Prose(text) => Some(text.clone()),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(
            prose(&game.moves),
            ["Alice - Bob", "nice move!", "I resign"]
        );
        assert_eq!(prose(&game.trailing), ["gg"], "after the result");
        let number = game
            .moves
            .iter()
            .find_map(|i| match &i.node {
                Item::EventLine(line) => line.event.as_ref().map(|e| e.number.span),
                _ => None,
            })
            .unwrap();
        assert_eq!(&text[number.offset..number.end()], "43");
    }

    #[test]
    fn an_announcement_may_name_the_older_wording() {
        let older = |text: &str| {
            let game = parse_str(text).game;
            game.moves.iter().find_map(|i| match &i.node {
                Item::EventLine(EventLine {
                    event: Some(event), ..
                }) => Some((event.number.node, event.older)),
                _ => None,
            })
        };
        assert_eq!(older("Event #70 Ice (old wording)\n"), Some((70, true)));
        assert_eq!(older("Event #7 Revival, older wording\n"), Some((7, true)));
        assert_eq!(older("Event #70 Ice\n"), Some((70, false)));
        // #43 has one wording only.
        assert_eq!(older("Event #43 Line Pushers (old)\n"), Some((43, false)));
    }

    #[test]
    fn the_early_numbering_is_read_by_name() {
        // PC-9: `Event #4 Portal Chess` is the early numbering's #4, read as `4*` without a
        // finding; #4 alone, or named 5-check, stays 5-check; another number with the name
        // is the usual mismatch.
        let read = |text: &str| {
            let parsed = parse_str(text);
            let number = parsed.game.moves.iter().find_map(|i| match &i.node {
                Item::EventLine(EventLine {
                    event: Some(event), ..
                }) => Some(EventLabel(event.number.node).to_string()),
                _ => None,
            });
            let codes: Vec<Code> = parsed.diagnostics.iter().map(|d| d.code).collect();
            (number, codes)
        };
        let portal = Some("4*".to_owned());
        assert_eq!(read("Event #4 Portal Chess\n"), (portal.clone(), vec![]));
        assert_eq!(read("Event #4*: Portal Chess\n"), (portal.clone(), vec![]));
        assert_eq!(read("Event #4 5-check\n"), (Some("4".to_owned()), vec![]));
        assert_eq!(read("Event #4\n"), (Some("4".to_owned()), vec![]));
        assert_eq!(
            read("Event #36 Portal Chess\n"),
            (portal, vec![Code::EventNameMismatch])
        );
    }

    #[test]
    fn a_result_alone_on_its_line_ends_the_game() {
        let parsed = parse_str("1.e4 e5\n*\nthanks for the game\n");
        assert_eq!(parsed.game.result.as_ref().unwrap().node, Outcome::Unknown);
        assert_eq!(parsed.game.trailing.len(), 1);
    }
}
