//! The style rules: what `xpgn lint` finds on top of `check`, each finding with the edit
//! that makes it right where there is one.

use crate::diagnostic::{Code, Diagnostic, MoveRef};
use crate::layout::{SEVEN_TAG_ROSTER, first_ply};
use crate::notation::{CheckMark, MoveBody, Notation, Separator};
use crate::pgn::{Dots, Game, Item, MoveNumber, Outcome, Tag};
#[cfg(feature = "cli")]
use crate::replay::Spellings;
use crate::replay::{PlayedByOffset, PlayedMove, Replay};
use crate::span::Source;
use crate::span::{Span, Spanned};
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, PoisonError};

/// Where the findings of a game are going: whether edits may be offered, and whether
/// the game is a PGN game (tags are a PGN matter; transcripts and documents have none
/// to speak of).
#[derive(Clone, Copy, Debug)]
pub struct Scope {
    pub fixable: bool,
    pub pgn: bool,
}

/// Every style finding of one game, in no particular order, in `found` (empty).
pub fn findings(
    game: &Game,
    replay: &Replay,
    source: Source<'_>,
    scope: Scope,
    mut found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let played = replay.played_by_offset();
    let first_ply = first_ply(game.tag("FEN"));
    let mut walker = Walker {
        played: &played,
        found: &mut found,
        // A transcript's reader reads forum spellings, which only its text shows.
        transcript: (!game.reading.is_empty()).then_some(source),
        source,
    };
    walker.line(&game.moves, first_ply);
    finish(game, source, scope, found)
}

/// [`findings`] of a game whose moves were played as they were read: what the walk of
/// the tree finds of its moves, made from what that replay wrote down of them.
#[cfg(feature = "cli")]
pub fn findings_played(
    game: &Game,
    spellings: Option<&Spellings>,
    source: Source<'_>,
    scope: Scope,
    mut found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    if let Some(spellings) = spellings {
        for &(number, span, ply) in &spellings.numbers {
            judge_move_number(&mut found, number, span, ply, None);
        }
        for (written, played) in &spellings.moves {
            respelled(&mut found, written, played.span, played, None);
        }
    }
    finish(game, source, scope, found)
}

/// The findings of the tags added to those of the moves, edits left out where none may
/// be offered.
fn finish(
    game: &Game,
    source: Source<'_>,
    scope: Scope,
    mut found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    if scope.pgn {
        tags(game, source, &mut found);
    }
    if !scope.fixable {
        for finding in &mut found {
            finding.fix = None;
        }
    }
    found
}

struct Walker<'a, 'b> {
    played: &'a PlayedByOffset<'b>,
    found: &'a mut Vec<Diagnostic>,
    transcript: Option<Source<'a>>,
    source: Source<'a>,
}

impl<'a> Walker<'a, '_> {
    /// The findings of a line whose first move plays `ply`.
    fn line(&mut self, items: &[Spanned<Item>], first: u32) {
        let mut ply = first;
        // The ply of the last move, which a variation replaces.
        let mut last = first;
        let mut pending_number: Option<(MoveNumber, crate::span::Span)> = None;
        for item in items {
            match &item.node {
                Item::MoveNumber(number) => pending_number = Some((*number, item.span)),
                Item::Move(notation) => {
                    if let Some((number, span)) = pending_number.take() {
                        self.move_number(number, span, ply);
                    }
                    if !self.played.is_empty()
                        && let Some(played) = self.played.get(item.span.offset)
                    {
                        self.spelling(notation, item.span, played);
                    }
                    last = ply;
                    ply = ply.saturating_add(1);
                }
                // A token that could not be read was most likely meant as a move (a
                // drop of a variant xpgn does not know, a typo): it takes its ply, as
                // the replay counts it.
                Item::Unreadable(text) if text.starts_with(|c: char| c.is_alphanumeric()) => {
                    if let Some((number, span)) = pending_number.take() {
                        self.move_number(number, span, ply);
                    }
                    last = ply;
                    ply = ply.saturating_add(1);
                }
                Item::Variation(variation) => self.line(variation, last),
                _ => {}
            }
        }
    }

    /// The text of `span` in a transcript.
    fn transcript_text(&self, span: Span) -> Option<&'a str> {
        text_of(self.transcript?, span)
    }

    /// Nearly every number is right, and only a transcript's may still be spelled with
    /// the ellipsis character: that answer takes no call.
    #[inline(always)]
    fn move_number(&mut self, written: MoveNumber, span: Span, ply: u32) {
        if self.transcript.is_none() && written == MoveNumber::of_ply(ply) {
            return;
        }
        let text = self.transcript_text(span);
        judge_move_number(self.found, written, span, ply, text);
    }

    /// A move that replayed, written otherwise than its canonical SAN.
    fn spelling(&mut self, written: &Notation, span: Span, played: &PlayedMove) {
        // Nearly every move is written as its canonical SAN: nothing to find or build.
        if text_of(self.source, span) == Some(played.san.as_str()) {
            return;
        }
        let text = self.transcript_text(span);
        respelled(self.found, written, span, played, text);
    }
}

/// The finding of a move number written at `span` that is not the one PGN writes for the
/// move of `ply` after it, or is spelled as a forum writes it; `transcript_text`: its text
/// in a transcript.
#[inline(never)]
fn judge_move_number(
    found: &mut Vec<Diagnostic>,
    written: MoveNumber,
    span: Span,
    ply: u32,
    transcript_text: Option<&str>,
) {
    let white = ply.is_multiple_of(2);
    let number = ply / 2 + 1;
    // Built only for a finding: nearly every number is right.
    let right = || {
        if white {
            format!("{number}.")
        } else {
            format!("{number}...")
        }
    };
    let dots_fit = match written.dots {
        Dots::One => white,
        Dots::Three => !white,
        Dots::Missing => false,
    };
    if written.number == number && dots_fit {
        if let Some(text) = transcript_text
            && text.contains('…')
        {
            found.push(
                Diagnostic::new(
                    Code::ForumSpelling,
                    span,
                    format!("`{text}` is written with the ellipsis character"),
                    "forum spelling",
                )
                .with_help(format!("write `{}`", right()))
                .with_fix(span, right()),
            );
        }
        return;
    }
    let side = if white { "White" } else { "Black" };
    let shown = match written.dots {
        Dots::Missing => written.number.to_string(),
        Dots::One => format!("{}.", written.number),
        Dots::Three => format!("{}...", written.number),
    };
    found.push(
        Diagnostic::new(
            Code::WrongMoveNumber,
            span,
            format!("`{shown}` numbers {side}'s move {number}"),
            "move number",
        )
        .with_help(format!("write `{}`", right()))
        .with_fix(span, right()),
    );
}

/// The findings of a move that replayed as `played`, written at `span` as `written`,
/// which is not its canonical SAN; `transcript_text`: its text in a transcript.
fn respelled(
    found: &mut Vec<Diagnostic>,
    written: &Notation,
    span: Span,
    played: &PlayedMove,
    transcript_text: Option<&str>,
) {
    let Ok(canonical) = Notation::parse(&played.san) else {
        return;
    };
    let assessment = written.assessment.map_or("", |a| a.as_str());
    let right = format!("{}{assessment}", played.san);
    let at = MoveRef {
        ply: played.ply,
        written: written.to_string(),
        variation: played.variation.clone(),
    };
    let finding = |code: Code, message: String, label: &'static str| {
        Diagnostic::new(code, span, message, label)
            .with_help(format!("write `{right}`"))
            .with_fix(span, right.clone())
            .at_move(at.clone())
    };
    let shown = written.to_string();
    if let Some(text) = transcript_text
        && text != shown
    {
        found.push(finding(
            Code::ForumSpelling,
            format!(
                "`{text}` at ply {} is a forum spelling of `{right}`",
                played.ply
            ),
            "forum spelling",
        ));
        return;
    }
    if written.body != canonical.body {
        let (code, why) = spelling_rule(&written.body, &canonical.body);
        found.push(finding(
            code,
            format!("`{shown}` at ply {}: {why}", played.ply),
            "not canonical SAN",
        ));
    }
    if written.check.is_none()
        && let Some(mark) = canonical.check
    {
        let gives = match mark {
            CheckMark::Check => "check",
            CheckMark::Mate => "mate",
        };
        found.push(finding(
            Code::MissingCheckMark,
            format!(
                "`{shown}` at ply {} gives {gives} without saying so",
                played.ply
            ),
            "no check mark",
        ));
    }
}

/// The text of `span` in `source`.
fn text_of(source: Source<'_>, span: Span) -> Option<&str> {
    let from = span.offset.checked_sub(source.offset)?;
    source.text.get(from..from + span.len)
}

/// Which rule a spelling breaks, and why in words, from the most specific to the most
/// general.
fn spelling_rule(written: &MoveBody, canonical: &MoveBody) -> (Code, String) {
    match (written, canonical) {
        (MoveBody::Castle(castle), _) if castle.letter != 'O' => (
            Code::NonCanonicalCastling,
            format!(
                "castling is written with the letter O, not `{}`",
                castle.letter
            ),
        ),
        (MoveBody::Piece(w), MoveBody::Piece(c)) => {
            let promotion_without_equals = w
                .targets
                .iter()
                .any(|t| t.promotion.is_some_and(|p| !p.equals));
            let captures = |m: &crate::notation::PieceMove| {
                m.targets
                    .iter()
                    .filter(|t| t.separator == Separator::Capture)
                    .count()
            };
            let origin =
                |m: &crate::notation::PieceMove| usize::from(m.hint.is_some()) + m.targets.len();
            if promotion_without_equals {
                (
                    Code::PromotionWithoutEquals,
                    "a promotion is written with `=` before the piece".to_owned(),
                )
            } else if captures(w) != captures(c) {
                let why = if captures(w) > captures(c) {
                    "`x` marks a capture, and this move captures nothing there"
                } else {
                    "this move captures: SAN marks it with `x`"
                };
                (Code::WrongCaptureMark, why.to_owned())
            } else if origin(w) > origin(c) {
                (
                    Code::OverDisambiguated,
                    "SAN writes only as much of the origin as tells the move apart".to_owned(),
                )
            } else {
                (
                    Code::NonCanonicalSan,
                    "this is not how SAN writes the move".to_owned(),
                )
            }
        }
        _ => (
            Code::NonCanonicalSan,
            "this is not how SAN writes the move".to_owned(),
        ),
    }
}

/// The tag lines of the Seven Tag Roster with their placeholder values (PGN standard
/// 8.1.1), in roster order; the result's line is made from the game's result.
const ROSTER_LINES: [&str; 6] = [
    "[Event \"?\"]",
    "[Site \"?\"]",
    "[Date \"????.??.??\"]",
    "[Round \"?\"]",
    "[White \"?\"]",
    "[Black \"?\"]",
];

/// What the texts of a roster finding are made of: which tags are missing (a bit each, in
/// roster order), the result the `[Result]` line takes, the line break, and where the new
/// lines go (after tags, or before the moves with or without a break first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct RosterKey {
    missing: u8,
    result: &'static str,
    newline: &'static str,
    after_tags: bool,
    break_first: bool,
}

/// A roster finding's message, help and inserted text.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RosterTexts {
    message: String,
    help: String,
    insert: String,
}

/// Every roster finding's texts made so far, by what they are made of: made once a run
/// and kept to its end (a file of bare movetext has the same finding in every game, and
/// building its texts a tag line at a time was a tenth of `lint`'s work there; copying
/// them for each game, and comparing them to the last game's to reuse its JSON, was
/// much of what remained). At most a few thousand kinds: 128 sets of missing tags, four
/// results, two line breaks, three places.
static ROSTER_TEXTS: LazyLock<Mutex<HashMap<RosterKey, &'static RosterTexts>>> =
    LazyLock::new(Mutex::default);

thread_local! {
    /// The kind of roster finding this thread made last, and its texts: found without the
    /// lock, for nearly every game.
    static LAST_ROSTER_TEXTS: Cell<Option<(RosterKey, &'static RosterTexts)>> =
        const { Cell::new(None) };
}

impl RosterKey {
    fn missing(&self) -> impl Iterator<Item = usize> + '_ {
        (0..SEVEN_TAG_ROSTER.len()).filter(|index| self.missing & 1 << index != 0)
    }

    fn texts(&self) -> &'static RosterTexts {
        if let Some((key, texts)) = LAST_ROSTER_TEXTS.get()
            && key == *self
        {
            return texts;
        }
        // A poisoned lock means another thread panicked while inserting: what the map
        // holds is still whole.
        let mut made = ROSTER_TEXTS.lock().unwrap_or_else(PoisonError::into_inner);
        let texts = *made
            .entry(*self)
            .or_insert_with(|| Box::leak(Box::new(self.build())));
        LAST_ROSTER_TEXTS.set(Some((*self, texts)));
        texts
    }

    // Built with pushes of whole lines, not `format!`.
    fn build(&self) -> RosterTexts {
        let newline = self.newline;
        let push_line = |out: &mut String, index: usize| match ROSTER_LINES.get(index) {
            Some(line) => out.push_str(line),
            None => {
                out.push_str("[Result \"");
                out.push_str(self.result);
                out.push_str("\"]");
            }
        };
        let count = self.missing.count_ones() as usize;
        let mut insert = String::with_capacity(24 * count + 8);
        if self.after_tags {
            for index in self.missing() {
                insert.push_str(newline);
                push_line(&mut insert, index);
            }
        } else {
            if self.break_first {
                insert.push_str(newline);
            }
            for index in self.missing() {
                push_line(&mut insert, index);
                insert.push_str(newline);
            }
            insert.push_str(newline);
        }
        let mut message = String::with_capacity(28 + 10 * count);
        message.push_str("the Seven Tag Roster lacks ");
        let mut help = String::with_capacity(insert.len() + 24);
        help.push_str("add ");
        for (i, index) in self.missing().enumerate() {
            if i > 0 {
                message.push_str(", ");
                help.push(' ');
            }
            message.push('`');
            message.push_str(SEVEN_TAG_ROSTER[index]);
            message.push('`');
            push_line(&mut help, index);
        }
        help.push_str(" (`?` where unknown)");
        RosterTexts {
            message,
            help,
            insert,
        }
    }
}

fn tags(game: &Game, source: Source<'_>, found: &mut Vec<Diagnostic>) {
    let first_tag_finding = found.len();
    // One look at each tag: which of the roster it is, and whether its value is right
    // where the tag has a form. The names are matched written out, which compiles to a
    // few word comparisons where a search of the roster compares through `memcmp`.
    let mut present = 0u8;
    for tag in &game.tags {
        let value = tag.value.node.as_ref();
        let roster_index = match tag.name.node.as_ref() {
            "Event" => 0,
            "Site" => 1,
            "Date" => {
                if !is_pgn_date(value) {
                    found.push(malformed_date(tag, value));
                }
                2
            }
            "Round" => 3,
            "White" => 4,
            "Black" => 5,
            "Result" => {
                if Outcome::parse(value).is_none_or(|o| o.as_str() != value) {
                    found.push(malformed_result(game, tag, value));
                }
                6
            }
            _ => continue,
        };
        debug_assert_eq!(SEVEN_TAG_ROSTER[roster_index], tag.name.node);
        present |= 1 << roster_index;
    }
    let missing = !present & ((1 << SEVEN_TAG_ROSTER.len()) - 1);
    if missing != 0 {
        // Each new tag on a line of its own right after the last tag, so nothing is ever
        // put after movetext, whether the tags end their line or the moves follow on it
        // (`[Event "a"] [White "x"] 1. e4 *`); with no tags, a tag section of its own
        // before the moves, starting on a line of its own.
        let (span, at, break_first) = match game.tags.last() {
            Some(last) => {
                // Tags that start inside the line of the game before it are left alone:
                // new tag lines there would start a game of their own when the file is
                // read again, taking the next game's tags.
                let at = starts_line(source, game.tags[0].span.offset)
                    .then(|| Span::new(last.span.end(), 0));
                (last.span, at, false)
            }
            None => {
                let start = game.span.offset;
                (
                    Span::new(start, first_line_len(source, start)),
                    Some(Span::new(start, 0)),
                    !starts_line(source, start),
                )
            }
        };
        let key = RosterKey {
            missing,
            result: game.result.as_ref().map_or("*", |r| r.node.as_str()),
            newline: line_break(source.text),
            after_tags: !game.tags.is_empty(),
            break_first,
        };
        let texts = key.texts();
        let finding = Diagnostic::new(Code::MissingRosterTag, span, texts.message.as_str(), "tags")
            .with_help(texts.help.as_str());
        // The roster's finding comes before those of the tags' values.
        let finding = match at {
            Some(at) => finding.with_fix(at, texts.insert.as_str()),
            None => finding,
        };
        found.insert(first_tag_finding, finding);
    }
}

fn malformed_date(tag: &Tag, value: &str) -> Diagnostic {
    let mut finding = Diagnostic::new(
        Code::MalformedDate,
        tag.value.span,
        format!("`{value}` is not a PGN date"),
        "date",
    )
    .with_help("write `YYYY.MM.DD`, with `??` for what is unknown (`1992.??.??`)");
    if let Some(date) = dotted_date(value) {
        finding = finding
            .with_help(format!("write `{date}`"))
            .with_fix(tag.value.span, date);
    }
    finding
}

fn malformed_result(game: &Game, tag: &Tag, value: &str) -> Diagnostic {
    let right = Outcome::parse(value).or(game.result.as_ref().map(|r| r.node));
    let mut finding = Diagnostic::new(
        Code::MalformedResultTag,
        tag.value.span,
        format!("`{value}` is not a PGN result"),
        "result",
    )
    .with_help("a result is `1-0`, `0-1`, `1/2-1/2` or `*`");
    if let Some(right) = right {
        finding = finding
            .with_help(format!("write `{}`", right.as_str()))
            .with_fix(tag.value.span, right.as_str());
    }
    finding
}

/// `YYYY.MM.DD` with `?` for unknown digits (a whole field unknown or known).
fn is_pgn_date(value: &str) -> bool {
    let &[y0, y1, y2, y3, b'.', m0, m1, b'.', d0, d1] = value.as_bytes() else {
        return false;
    };
    let field = |digits: &[u8], max: u32| {
        digits.iter().all(|&b| b == b'?')
            || digits.iter().all(u8::is_ascii_digit) && {
                let n = digits
                    .iter()
                    .fold(0, |n, &digit| n * 10 + u32::from(digit - b'0'));
                (digits.len() == 4 || n >= 1) && n <= max
            }
    };
    field(&[y0, y1, y2, y3], 9999) && field(&[m0, m1], 12) && field(&[d0, d1], 31)
}

/// A date written with `-` or `/` between its fields, dotted.
fn dotted_date(value: &str) -> Option<String> {
    let dotted = value.replace(['-', '/'], ".");
    (dotted != value && is_pgn_date(&dotted)).then_some(dotted)
}

/// Whether only blanks stand between the start of its line and `offset`.
fn starts_line(source: Source<'_>, offset: usize) -> bool {
    let local = offset.saturating_sub(source.offset).min(source.text.len());
    source.text[..local]
        .bytes()
        .rev()
        .take_while(|&b| b != b'\n' && b != b'\r')
        .all(|b| b == b' ' || b == b'\t')
}

/// The line break a text uses: `\r\n`, a lone `\r` (old Mac files), or `\n`.
fn line_break(text: &str) -> &'static str {
    match memchr::memchr(b'\r', text.as_bytes()) {
        Some(i) if text.as_bytes().get(i + 1) == Some(&b'\n') => "\r\n",
        Some(_) if !text.contains('\n') => "\r",
        _ => "\n",
    }
}

fn first_line_len(source: Source<'_>, offset: usize) -> usize {
    let local = offset.saturating_sub(source.offset).min(source.text.len());
    source.text[local..]
        .find(['\r', '\n'])
        .unwrap_or(source.text.len() - local)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_dates_are_digits_or_question_marks_in_range() {
        for date in [
            "2026.11.23",
            "????.??.??",
            "1992.??.??",
            "0000.12.31",
            "2026.01.??",
        ] {
            assert!(is_pgn_date(date), "{date}");
        }
        for date in [
            "2026.13.01",
            "2026.00.10",
            "2026.11.32",
            "2026.1.23",
            "2026-11-23",
            "2026.+1.23",
            "2026.1?.23",
            "2026.11.23.",
            "",
            "２０２６.11.23",
        ] {
            assert!(!is_pgn_date(date), "{date}");
        }
    }

    #[test]
    fn the_right_number_of_each_ply() {
        let number = |number, dots| MoveNumber { number, dots };
        assert_eq!(MoveNumber::of_ply(0), number(1, Dots::One));
        assert_eq!(MoveNumber::of_ply(1), number(1, Dots::Three));
        assert_eq!(MoveNumber::of_ply(40), number(21, Dots::One));
        assert_eq!(
            MoveNumber::of_ply(u32::MAX),
            number(u32::MAX / 2 + 1, Dots::Three)
        );
    }

    // The last texts kept are given only for the same key: each key's texts are the ones
    // built for it, whichever key came before.
    #[test]
    fn roster_texts_are_the_built_ones_whatever_came_before() {
        let key = RosterKey {
            missing: 0b011_1111,
            result: "*",
            newline: "\n",
            after_tags: true,
            break_first: false,
        };
        let keys = [
            key,
            RosterKey {
                missing: 0b111_1111,
                ..key
            },
            RosterKey {
                missing: 0b100_0001,
                result: "1-0",
                ..key
            },
            RosterKey {
                newline: "\r\n",
                ..key
            },
            RosterKey {
                after_tags: false,
                ..key
            },
            RosterKey {
                after_tags: false,
                break_first: true,
                ..key
            },
        ];
        for before in keys {
            for key in keys {
                before.texts();
                assert_eq!(*key.texts(), key.build(), "{key:?} after {before:?}");
            }
        }
        assert!(keys[4].build().insert.ends_with("[Black \"?\"]\n\n"));
        assert!(keys[2].build().help.contains("[Result \"1-0\"]"));
    }
}
