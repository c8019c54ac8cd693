//! Forum transcripts (`spec/notation.md` section 6): a game thread as text, one post a
//! line or a few. Read line by line into the same [`Game`] tree as PGN: move lines give
//! moves, event lines give [`EventLine`]s, everything else is kept as prose.
//!
//! A line right after an `Event #N` line that holds only squares or knight facings, at
//! least two, is that event's choices (`c4 f6`, `Nb1->b2 Ng1->h3 ...`). Two bare pawn
//! moves alone on that line read as choices too, so transcripts should number such
//! moves (`3.c4 f6`); one (`c5`) is a move. Prose after the result is kept after it.

use std::borrow::Cow;

use crate::command::{EventCommand, parse_choices, parse_event, words};
use crate::diagnostic::Diagnostic;
use crate::notation::Notation;
use crate::pgn::{Dots, EventLine, Game, Item, MoveNumber, Outcome, ParsedGame, unreadable_move};
use crate::span::{Span, Spanned};

/// Reads a whole transcript that starts at offset 0.
pub fn parse_str(text: &str) -> ParsedGame {
    parse_chunk(text, 0)
}

/// Reads a transcript that starts at byte `offset` of its file (spans are absolute).
pub fn parse_chunk(text: &str, offset: usize) -> ParsedGame {
    let mut game = Game::default();
    let mut diagnostics = Vec::new();
    let mut previous_was_event = false;
    for (start, line) in lines(text) {
        let at = offset + start;
        let trimmed = line.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        if trimmed.is_empty() {
            continue;
        }
        let span = Span::new(at, line.len());
        if game.result.is_some() {
            game.trailing
                .push(Spanned::new(Item::Prose(line.to_owned()), span));
            continue;
        }
        if previous_was_event
            && let Some(choices) = choice_line(line, at)
            && let Some(Spanned {
                node:
                    Item::EventLine(EventLine {
                        text,
                        event: Some(event),
                    }),
                span: event_span,
            }) = game.moves.last_mut()
        {
            text.push('\n');
            text.push_str(line);
            event.choices.extend(choices);
            *event_span = event_span.to(span);
            previous_was_event = false;
            continue;
        }
        previous_was_event = false;
        if is_start_event(trimmed) {
            let item = Item::EventLine(EventLine {
                text: line.to_owned(),
                event: None,
            });
            game.moves.push(Spanned::new(item, span));
            continue;
        }
        if let Some(event) = event_line(line, at, &mut diagnostics) {
            let item = Item::EventLine(EventLine {
                text: line.to_owned(),
                event: Some(Box::new(event)),
            });
            game.moves.push(Spanned::new(item, span));
            previous_was_event = true;
            continue;
        }
        if !move_line(line, at, &mut game, &mut diagnostics) {
            game.moves
                .push(Spanned::new(Item::Prose(line.to_owned()), span));
        }
    }
    game.span = Span::new(offset, text.len());
    ParsedGame {
        game,
        diagnostics,
        heap_moves: crate::pgn::HeapMoves::default(),
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

fn is_start_event(line: &str) -> bool {
    line.trim_end_matches(['!', '.', ':'])
        .eq_ignore_ascii_case("start event")
}

/// The choices of the event announced on the line before: squares and facings only, at
/// least two (every event with choices has one per player).
fn choice_line(line: &str, at: usize) -> Option<Vec<Spanned<crate::command::Choice>>> {
    parse_choices(words(line, at))
        .ok()
        .filter(|choices| choices.len() >= 2)
}

/// `Event #43 Line Pushers`, `Event #5 Hidden passage c4 f6`, `Event #43: Line Pushers`,
/// `start event: Event #68 Prince` (both announcements in one post).
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
            Some(event)
        }
        Err(diagnostic) => {
            diagnostics.push(diagnostic);
            None
        }
    }
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

enum Token {
    Number(MoveNumber),
    Move(Notation),
    Result(Outcome),
}

/// Reads `token` as a move number (maybe glued to a move), a move or a result.
fn token(word: &str) -> Option<Vec<(Token, usize, usize)>> {
    if let Some(outcome) = Outcome::parse(word) {
        return Some(vec![(Token::Result(outcome), 0, word.len())]);
    }
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
                Token::Move(Notation::parse(rest).ok()?),
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
    Notation::parse(word)
        .ok()
        .map(|m| vec![(Token::Move(m), 0, word.len())])
}

/// Adds the line's moves to the game when it is a move line. A line that starts with a
/// move number is taken as moves even with a bad token, which is most likely a typo.
fn move_line(line: &str, at: usize, game: &mut Game, diagnostics: &mut Vec<Diagnostic>) -> bool {
    let words = move_words(line, at);
    let read: Vec<Option<Vec<(Token, usize, usize)>>> =
        words.iter().map(|(w, _)| token(w)).collect();
    let numbered =
        matches!(read.first(), Some(Some(tokens)) if matches!(tokens[0].0, Token::Number(..)));
    // A result alone on its line (`1-0`, `*`) ends the game as well.
    let has_move_or_result = read
        .iter()
        .flatten()
        .flatten()
        .any(|(t, _, _)| matches!(t, Token::Move(_) | Token::Result(_)));
    let all_read = read.iter().all(Option::is_some);
    if !(numbered || all_read && has_move_or_result) {
        return false;
    }
    for ((word, span), tokens) in words.iter().zip(read) {
        let Some(tokens) = tokens else {
            diagnostics.push(unreadable_move(word, *span));
            game.moves
                .push(Spanned::new(Item::Unreadable(word.to_string()), *span));
            continue;
        };
        for (token, from, to) in tokens {
            // A turn rejoined from its parts ends where its last part does.
            let to = if to == word.len() { span.len } else { to };
            let token_span = Span::new(span.offset + from, to - from);
            match token {
                Token::Number(number) if number.number == 0 => {
                    merge_dots(game, token_span);
                }
                Token::Number(number) => game
                    .moves
                    .push(Spanned::new(Item::MoveNumber(number), token_span)),
                Token::Move(m) => game.moves.push(Spanned::new(Item::Move(m), token_span)),
                Token::Result(outcome) => game.result = Some(Spanned::new(outcome, token_span)),
            }
        }
    }
    true
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

/// `1. ...`: the dots belong to the number before them.
fn merge_dots(game: &mut Game, span: Span) {
    if let Some(last) = game.moves.last_mut()
        && let Item::MoveNumber(number) = &mut last.node
    {
        number.dots = Dots::Three;
        last.span = last.span.to(span);
    }
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
        assert_eq!(events(&parsed.game), [None, Some((43, vec![]))]);
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
                None,
                Some((
                    85,
                    vec![
                        "Nb1->b2".into(),
                        "Ng1->h3".into(),
                        "Nb8->b7".into(),
                        "Ng8->f6".into()
                    ]
                ))
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
        assert_eq!(moves(game), ["e4", "e5", "Nf3", "Nc6", "Bb5", "c5"]);
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
            ["Alice - Bob", "nice move!", "0-0 I resign"]
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
    fn a_result_alone_on_its_line_ends_the_game() {
        let parsed = parse_str("1.e4 e5\n*\nthanks for the game\n");
        assert_eq!(parsed.game.result.as_ref().unwrap().node, Outcome::Unknown);
        assert_eq!(parsed.game.trailing.len(), 1);
    }
}
