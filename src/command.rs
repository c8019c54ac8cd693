//! Comment commands: `[%event 5 c4 f6]` and the generic `[%name args]` of other tools.
//!
//! Event commands are read here as syntax (number and choices as written); whether the
//! event exists and its choices fit the position is for the rules layer to say.

use nom::Parser;
use nom::character::complete::{char, satisfy};

use crate::diagnostic::{Code, Diagnostic};
use crate::notation::{Facing, Square, facing, square};
use crate::scan::equal;
use crate::span::{Span, Spanned};

/// One choice of an event command as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// A passage square (#5) or a chosen pawn's square (#68).
    Square(Square),
    /// `?`: a secret choice the record does not tell, in its player's place
    /// (`[%event 68 ? g7]`: Black's pawn is g7, White's still secret).
    Secret,
    /// A knight and the direction it faces (#85): `Nb1->b2`.
    Facing {
        piece: char,
        square: Square,
        toward: Facing,
    },
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Choice::Square(square) => write!(f, "{square}"),
            Choice::Secret => f.write_str("?"),
            Choice::Facing {
                piece,
                square,
                toward,
            } => write!(f, "{piece}{square}->{toward}"),
        }
    }
}

/// Added to the number of an event the catalogue holds under the early numbering (`4*`:
/// the early "#4 Portal Chess", announced as #4 before the numbers were reorganised and
/// #4 became 5-check): its number inside xpgn, so that each number is one event (PC-9).
/// Never written: [`EventLabel`] shows it as `4*`.
pub const EARLY_NUMBERING: u16 = 1000;

/// An event's number as people read and write it: `43`, and `4*` for an event of the
/// early numbering ([`EARLY_NUMBERING`]). A JSON number, or the string `"4*"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventLabel(pub u16);

impl EventLabel {
    /// Reads `43` or `4*`; `None` for anything else (0, words, numbers past the
    /// catalogue's range that only the early numbering's internal ones use).
    pub fn parse(text: &str) -> Option<EventLabel> {
        let (digits, early) = match text.strip_suffix('*') {
            Some(digits) => (digits, true),
            None => (text, false),
        };
        let number = digits
            .parse::<u16>()
            .ok()
            .filter(|n| (1..EARLY_NUMBERING).contains(n))?;
        Some(EventLabel(if early {
            number + EARLY_NUMBERING
        } else {
            number
        }))
    }

    /// Whether it is an event of the early numbering (`4*`).
    pub fn is_early(self) -> bool {
        self.0 > EARLY_NUMBERING
    }

    /// The number as the catalogue's announcement gave it: 4 for `4*`.
    pub fn announced(self) -> u16 {
        if self.is_early() {
            self.0 - EARLY_NUMBERING
        } else {
            self.0
        }
    }

    /// Where it is listed: by its announced number, an early-numbered event after the
    /// event that holds that number now (`4`, `4*`, `5`).
    pub fn order(self) -> (u16, bool) {
        (self.announced(), self.is_early())
    }
}

impl std::fmt::Display for EventLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_early() {
            write!(f, "{}*", self.announced())
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// A number stays a JSON number, as before events of the early numbering existed; `4*`
/// is the string `"4*"`.
impl serde::Serialize for EventLabel {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.is_early() {
            serializer.collect_str(self)
        } else {
            serializer.serialize_u16(self.0)
        }
    }
}

/// `[%event N choices...]`: the side to move starts event N here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventCommand {
    /// The event's number inside xpgn (`4*` reads as [`EARLY_NUMBERING`] + 4).
    pub number: Spanned<u16>,
    /// `old` after the number: the event's older wording (`[%event 70 old]`).
    pub older: bool,
    pub choices: Vec<Spanned<Choice>>,
}

/// The command as PGN writes it: `[%event 5 c4 f6]`.
impl std::fmt::Display for EventCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[%event {}", EventLabel(self.number.node))?;
        if self.older {
            f.write_str(" old")?;
        }
        for choice in &self.choices {
            write!(f, " {}", choice.node)?;
        }
        f.write_str("]")
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Event(EventCommand),
    /// Any other command (`[%clk 0:03:00]`, `[%eval 0.17]`), kept as written.
    Other {
        name: String,
        args: String,
    },
}

/// Whether `text` holds an event command (`[%event`). Asked of every comment, most of
/// them short (`[%clk 0:03:00]`): the places a `[` could start one are looked at eight
/// at a time, which costs less there than a substring search or `memchr` (which first
/// set themselves up) and than a byte at a time.
pub fn mentions_event(text: &str) -> bool {
    const EVENT: &[u8] = b"[%event";
    let bytes = text.as_bytes();
    // Where one can start: a clock comment has eight such places, one word.
    let starts = bytes.len().saturating_sub(EVENT.len() - 1);
    let mut at = 0;
    while at < starts {
        let Some(word) = bytes.get(at..at + 8) else {
            // The last place, with fewer than eight bytes from it.
            return bytes[at..].starts_with(EVENT);
        };
        // Every `[` is flagged (and a few other bytes, which the comparison turns away).
        let mut flags = equal(u64::from_le_bytes(word.try_into().unwrap()), b'[');
        while flags != 0 {
            let candidate = at + flags.trailing_zeros() as usize / 8;
            if bytes[candidate..].starts_with(EVENT) {
                return true;
            }
            flags &= flags - 1;
        }
        at += 8;
    }
    false
}

/// Reads the commands inside a comment's text; `offset` is where the text starts in the
/// file, so spans are absolute. Text around the commands is ordinary comment text.
pub fn parse_commands(comment: &str, offset: usize) -> (Vec<Spanned<Command>>, Vec<Diagnostic>) {
    let mut commands = Vec::new();
    let mut diagnostics = Vec::new();
    let mut rest = comment;
    while let Some(start) = rest.find("[%") {
        let at = offset + (comment.len() - rest.len()) + start;
        let body = &rest[start + 2..];
        let name_len = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(body.len());
        let name = &body[..name_len];
        let Some(close) = body.find(']') else {
            if name == "event" {
                diagnostics.push(
                    Diagnostic::new(
                        Code::MalformedEventCommand,
                        Span::new(at, comment.len() - (at - offset)),
                        "event command without a closing `]`",
                        "opened here",
                    )
                    .with_help("write it as `[%event 5 c4 f6]`"),
                );
            }
            break;
        };
        let args = &body[name_len..close];
        let span = Span::new(at, close + 3);
        if name == "event" {
            match parse_event(args, at + 2 + name_len) {
                Ok(event) => commands.push(Spanned::new(Command::Event(event), span)),
                Err(diagnostic) => diagnostics.push(diagnostic),
            }
        } else {
            commands.push(Spanned::new(
                Command::Other {
                    name: name.to_owned(),
                    args: args.trim().to_owned(),
                },
                span,
            ));
        }
        rest = &body[close + 1..];
    }
    (commands, diagnostics)
}

/// Reads `N choices...`, the words after `event` (also after `Event #` in transcripts).
pub fn parse_event(args: &str, offset: usize) -> Result<EventCommand, Diagnostic> {
    let mut words = words(args, offset);
    let Some((number_text, number_span)) = words.next() else {
        return Err(Diagnostic::new(
            Code::MalformedEventCommand,
            Span::new(offset, args.len()),
            "event command without an event number",
            "number expected here",
        )
        .with_help("write the event number first: `[%event 43]`"));
    };
    let number = EventLabel::parse(number_text)
        .ok_or_else(|| {
            Diagnostic::new(
                Code::MalformedEventCommand,
                number_span,
                format!("`{number_text}` is not an event number"),
                "not a number",
            )
            .with_help(if number_text.parse::<u16>().is_ok_and(|n| n >= EARLY_NUMBERING) {
                "the catalogue's numbers stay below 1000; an event of its early numbering takes a `*`, as in `[%event 4*]` (PC-9)"
            } else {
                "events are numbered from 1, as in `[%event 5 c4 f6]`"
            })
        })?
        .0;
    let mut words = words.peekable();
    let older = words.next_if(|(word, _)| *word == "old").is_some();
    let choices = parse_choices(words)?;
    Ok(EventCommand {
        number: Spanned::new(number, number_span),
        older,
        choices,
    })
}

/// Reads the choices of an event: squares and knight facings, separated by blanks.
pub fn parse_choices<'a>(
    words: impl Iterator<Item = (&'a str, Span)>,
) -> Result<Vec<Spanned<Choice>>, Diagnostic> {
    words
        .map(|(word, span)| {
            choice(word).map(|c| Spanned::new(c, span)).ok_or_else(|| {
                Diagnostic::new(
                    Code::MalformedEventCommand,
                    span,
                    format!("`{word}` is not an event choice"),
                    "expected a square, `?` or a knight facing",
                )
                .with_help("choices are squares (`c4 f6`), `?` for one still secret (`c4 ?`), or knight facings (`Nb1->b2`)")
            })
        })
        .collect()
}

/// Splits on blanks, with the span of each word.
pub fn words(text: &str, offset: usize) -> impl Iterator<Item = (&str, Span)> {
    text.split_ascii_whitespace().map(move |word| {
        let start = word.as_ptr() as usize - text.as_ptr() as usize;
        (word, Span::new(offset + start, word.len()))
    })
}

fn choice(word: &str) -> Option<Choice> {
    if word == "?" {
        return Some(Choice::Secret);
    }
    if let Ok(("", s)) = square(word) {
        return Some(Choice::Square(s));
    }
    let mut facing_choice = (
        satisfy(|c: char| c.is_ascii_uppercase()),
        square,
        char('-'),
        char('>'),
        facing,
    );
    match facing_choice.parse(word) {
        Ok(("", (piece, square, _, _, toward))) => Some(Choice::Facing {
            piece,
            square,
            toward,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(text: &str) -> EventCommand {
        let (commands, diagnostics) = parse_commands(text, 0);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        match &commands[..] {
            [
                Spanned {
                    node: Command::Event(e),
                    ..
                },
            ] => e.clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn event_commands_with_and_without_choices() {
        assert_eq!(event("[%event 43]").number.node, 43);
        let passage = event("[%event 5 c4 f6]");
        let squares: Vec<String> = passage.choices.iter().map(|c| c.node.to_string()).collect();
        assert_eq!(squares, ["c4", "f6"]);
        let knights = event("[%event 85 Nb1->b2 Ng1->h3 Nb8->b7 Ng8->f6]");
        assert_eq!(knights.choices.len(), 4);
        assert_eq!(knights.choices[3].node.to_string(), "Ng8->f6");
        assert_eq!(knights.choices[3].span, Span::new(35, 7));
    }

    #[test]
    fn old_after_the_number_names_the_older_wording() {
        let ice = event("[%event 70 old]");
        assert!(ice.older && ice.choices.is_empty());
        assert_eq!(ice.to_string(), "[%event 70 old]");
        let treasure = event("[%event 88 old c4 f6]");
        assert!(treasure.older);
        assert_eq!(treasure.choices.len(), 2);
        assert_eq!(treasure.to_string(), "[%event 88 old c4 f6]");
        assert!(!event("[%event 88 c4 f6]").older);
    }

    #[test]
    fn a_star_after_the_number_names_the_early_numbering() {
        let portal = event("[%event 4*]");
        assert_eq!(portal.number.node, EARLY_NUMBERING + 4);
        assert_eq!(portal.to_string(), "[%event 4*]");
        assert_eq!(event("[%event 4]").number.node, 4);
        assert_eq!(EventLabel(1004).to_string(), "4*");
        assert_eq!(EventLabel(43).to_string(), "43");
        assert_eq!(EventLabel::parse("4*"), Some(EventLabel(1004)));
        for refused in ["1004", "0*", "*", "4**", "1000"] {
            assert_eq!(EventLabel::parse(refused), None, "{refused}");
        }
        assert_eq!(serde_json::to_string(&EventLabel(1004)).unwrap(), r#""4*""#);
        assert_eq!(serde_json::to_string(&EventLabel(43)).unwrap(), "43");
        assert!(EventLabel(4).order() < EventLabel(1004).order());
        assert!(EventLabel(1004).order() < EventLabel(5).order());
    }

    #[test]
    fn event_commands_are_found_among_other_brackets() {
        assert!(mentions_event("[%event 43]"));
        assert!(mentions_event("[x] [%clk 0:03:00] [[%event 5 c4 f6]"));
        assert!(!mentions_event("[%clk 0:03:00] [%even] [% event 5] %event"));
        assert!(!mentions_event("[%event"[..6].as_ref()));
        // At every place it can start, in texts of every length around a word's.
        for len in 7..=24 {
            for at in 0..=len - 7 {
                let mut text = "x".repeat(len);
                text.replace_range(at..at + 7, "[%event");
                assert!(mentions_event(&text), "{text}");
                text.replace_range(at + 6..at + 7, "s");
                assert!(!mentions_event(&text), "{text}");
            }
        }
        // `[` right before, and `Z` (flagged with a `[` before it) in it.
        assert!(mentions_event("[[%event 5]"));
        assert!(mentions_event("[Z[%eventZ"));
    }

    #[test]
    fn other_commands_and_text_are_kept_apart() {
        let (commands, diagnostics) =
            parse_commands("good move [%clk 0:03:00] [%event 68 c2 g7]", 100);
        assert!(diagnostics.is_empty());
        assert_eq!(
            commands[0].node,
            Command::Other {
                name: "clk".into(),
                args: "0:03:00".into()
            }
        );
        assert_eq!(commands[1].span.offset, 125);
        assert!(matches!(commands[1].node, Command::Event(_)));
    }

    #[test]
    fn malformed_event_commands_are_diagnostics() {
        for (text, offset) in [
            ("[%event]", 7),
            ("[%event x]", 8),
            ("[%event 0]", 8),
            ("[%event 1004]", 8),
            ("[%event 5 c4 zz]", 13),
            ("[%event 5 c4", 0),
        ] {
            let (commands, diagnostics) = parse_commands(text, 0);
            assert!(commands.is_empty(), "{text}");
            assert_eq!(diagnostics.len(), 1, "{text}");
            assert_eq!(diagnostics[0].code, Code::MalformedEventCommand);
            assert_eq!(diagnostics[0].span.offset, offset, "{text}");
        }
    }
}
