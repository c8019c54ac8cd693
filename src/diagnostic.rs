//! Diagnostics: what is wrong, where, why, and how to write it right.
//!
//! A [`Diagnostic`] is plain data so every reporter (human, JSON, GitHub) renders the
//! same facts; the command line's reporters turn it into a miette report for people.

use std::borrow::Cow;

use serde::Serialize;

use crate::span::Span;

/// How much a finding matters: an error makes a record wrong, a warning only unusual
/// or untidy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Every kind of finding, with a stable name that scripts and `--format json` use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// `{` with no `}` before the end of the game.
    UnterminatedComment,
    /// `[` tag pair that does not close on its line.
    UnterminatedTag,
    /// A tag pair without a name or without a quoted value.
    MalformedTag,
    /// A `[` tag pair after the moves had started, without a result before it.
    TagInMovetext,
    /// A token that is no move in any notation form.
    UnreadableMove,
    /// A character or token that has no place in movetext (`}`, `)` without `(`, `±`).
    UnexpectedToken,
    /// `(` with no `)` before the end of the game.
    UnclosedVariation,
    /// Variations nested deeper than [`crate::pgn::MAX_VARIATION_DEPTH`].
    VariationTooDeep,
    /// `$` without a number from 0 to 255.
    BadNag,
    /// A control character such as NUL inside the text.
    ControlCharacter,
    /// The game has no termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`).
    MissingResult,
    /// The `[Result]` tag and the termination marker disagree.
    ResultMismatch,
    /// Text that holds no tags, moves or result.
    EmptyGame,
    /// A game larger than [`crate::source::MAX_PART_BYTES`]: not read.
    GameTooLarge,
    /// A `[%event ...]` command that cannot be read.
    MalformedEventCommand,
    /// A JSON or YAML game document (`convert --to json`) that cannot be read.
    MalformedDocument,
    /// The input is not valid UTF-8: read as UTF-16 (by its byte order mark) or Windows-1252.
    NotUtf8,
    /// A move that no legal move of the position matches.
    IllegalMove,
    /// A move that several legal moves match.
    AmbiguousMove,
    /// A `[Variant]` (or `--variant`) that xpgn does not know.
    UnsupportedVariant,
    /// A piece the variant's source names without defining (the unicorn, SIP-7).
    UnsupportedPiece,
    /// An event (`[%event N]`) that xpgn does not know or cannot play yet.
    UnsupportedEvent,
    /// An event started against the meta rules: twice, a second by one player (EC-1), its
    /// Condition failing (EC-3), choices it does not take.
    EventRule,
    /// A move whose record contradicts the choices of a running event, or leaves out one
    /// the record must give; the event's message says which rule: a move written without
    /// the #5 passage it goes through, a plain landing on a square a later move reveals as
    /// a passage square (HP-8), a #68 king capture without `K@` or with it where no king
    /// comes back (PR-2, PR-4).
    EventChoice,
    /// A `[FEN]` tag that cannot be read or describes an impossible position.
    BadFen,
    /// A written `+` or `#` that the position after the move contradicts.
    WrongCheckMark,
    /// A null move (`--`, `Z0`) in the main line: replayed as a pass.
    NullMove,
    /// A result that contradicts a mate or stalemate on the board.
    ResultContradictsBoard,
    /// Transcript text with a move in it that is not read as a move: a move of the other
    /// side or of a non-player, a sentence with several moves, a retracted move.
    SkippedMoveText,
    /// A transcript's event announcement whose name is another event's than its number.
    EventNameMismatch,
    /// A transcript's `start event` that no announcement follows.
    EventNotAnnounced,
    // Style rules: `xpgn lint` only (src/lint/).
    /// Castling written with zeros (`0-0`).
    NonCanonicalCastling,
    /// A promotion written without `=` (`e8Q`).
    PromotionWithoutEquals,
    /// An origin written where the move needs none, or more of it than it needs (`Ng1f3`).
    OverDisambiguated,
    /// `x` on a move that captures nothing, or none on one that captures.
    WrongCaptureMark,
    /// Any other spelling that is not the canonical SAN (`Pe4`, `e2-e4`).
    NonCanonicalSan,
    /// A move that gives check or mate written without `+` or `#`.
    MissingCheckMark,
    /// A move number that does not match the ply it numbers.
    WrongMoveNumber,
    /// A tag of the Seven Tag Roster missing.
    MissingRosterTag,
    /// A `[Date]` that is not `YYYY.MM.DD` (with `??` for unknown parts).
    MalformedDate,
    /// A `[Result]` that is not `1-0`, `0-1`, `1/2-1/2` or `*`.
    MalformedResultTag,
    /// An `{xpgn: allow=...}` comment naming no rule xpgn has.
    BadSuppression,
    /// A transcript move in a forum spelling (`nf3`, `d5.`, `E5`, `1…Nf6`).
    ForumSpelling,
}

impl Code {
    /// Every code, for documentation and for tests that each has a fixture.
    pub const ALL: [Code; 43] = [
        Code::UnterminatedComment,
        Code::UnterminatedTag,
        Code::MalformedTag,
        Code::TagInMovetext,
        Code::UnreadableMove,
        Code::UnexpectedToken,
        Code::UnclosedVariation,
        Code::VariationTooDeep,
        Code::BadNag,
        Code::ControlCharacter,
        Code::MissingResult,
        Code::ResultMismatch,
        Code::EmptyGame,
        Code::GameTooLarge,
        Code::MalformedEventCommand,
        Code::MalformedDocument,
        Code::NotUtf8,
        Code::IllegalMove,
        Code::AmbiguousMove,
        Code::UnsupportedVariant,
        Code::UnsupportedPiece,
        Code::UnsupportedEvent,
        Code::EventRule,
        Code::EventChoice,
        Code::BadFen,
        Code::WrongCheckMark,
        Code::NullMove,
        Code::ResultContradictsBoard,
        Code::SkippedMoveText,
        Code::EventNameMismatch,
        Code::EventNotAnnounced,
        Code::NonCanonicalCastling,
        Code::PromotionWithoutEquals,
        Code::OverDisambiguated,
        Code::WrongCaptureMark,
        Code::NonCanonicalSan,
        Code::MissingCheckMark,
        Code::WrongMoveNumber,
        Code::MissingRosterTag,
        Code::MalformedDate,
        Code::MalformedResultTag,
        Code::BadSuppression,
        Code::ForumSpelling,
    ];

    /// The code with this name (`illegal-move`), or with a name it had before.
    pub fn from_name(name: &str) -> Option<Code> {
        Code::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .or(match name {
                // One event's codes before every event shared `event-choice`.
                "hidden-passage" | "prince" => Some(Code::EventChoice),
                // The transcript reader reports such lines itself now.
                "prose-like-move" => Some(Code::SkippedMoveText),
                _ => None,
            })
    }

    /// Whether only `xpgn lint` reports it.
    pub const fn is_style(self) -> bool {
        matches!(
            self,
            Code::NonCanonicalCastling
                | Code::PromotionWithoutEquals
                | Code::OverDisambiguated
                | Code::WrongCaptureMark
                | Code::NonCanonicalSan
                | Code::MissingCheckMark
                | Code::WrongMoveNumber
                | Code::MissingRosterTag
                | Code::MalformedDate
                | Code::MalformedResultTag
                | Code::BadSuppression
                | Code::ForumSpelling
        )
    }

    pub const fn name(self) -> &'static str {
        match self {
            Code::UnterminatedComment => "unterminated-comment",
            Code::UnterminatedTag => "unterminated-tag",
            Code::MalformedTag => "malformed-tag",
            Code::TagInMovetext => "tag-in-movetext",
            Code::UnreadableMove => "unreadable-move",
            Code::UnexpectedToken => "unexpected-token",
            Code::UnclosedVariation => "unclosed-variation",
            Code::VariationTooDeep => "variation-too-deep",
            Code::BadNag => "bad-nag",
            Code::ControlCharacter => "control-character",
            Code::MissingResult => "missing-result",
            Code::ResultMismatch => "result-mismatch",
            Code::EmptyGame => "empty-game",
            Code::GameTooLarge => "game-too-large",
            Code::MalformedEventCommand => "malformed-event-command",
            Code::MalformedDocument => "malformed-document",
            Code::NotUtf8 => "not-utf8",
            Code::IllegalMove => "illegal-move",
            Code::AmbiguousMove => "ambiguous-move",
            Code::UnsupportedVariant => "unsupported-variant",
            Code::UnsupportedPiece => "unsupported-piece",
            Code::UnsupportedEvent => "unsupported-event",
            Code::EventRule => "event-rule",
            Code::EventChoice => "event-choice",
            Code::BadFen => "bad-fen",
            Code::WrongCheckMark => "wrong-check-mark",
            Code::NullMove => "null-move",
            Code::ResultContradictsBoard => "result-contradicts-board",
            Code::NonCanonicalCastling => "non-canonical-castling",
            Code::PromotionWithoutEquals => "promotion-without-equals",
            Code::OverDisambiguated => "over-disambiguated",
            Code::WrongCaptureMark => "wrong-capture-mark",
            Code::NonCanonicalSan => "non-canonical-san",
            Code::MissingCheckMark => "missing-check-mark",
            Code::WrongMoveNumber => "wrong-move-number",
            Code::MissingRosterTag => "missing-roster-tag",
            Code::MalformedDate => "malformed-date",
            Code::MalformedResultTag => "malformed-result-tag",
            Code::BadSuppression => "bad-suppression",
            Code::ForumSpelling => "forum-spelling",
            Code::SkippedMoveText => "skipped-move-text",
            Code::EventNameMismatch => "event-name-mismatch",
            Code::EventNotAnnounced => "event-not-announced",
        }
    }

    /// The family a code belongs to; the miette code is `xpgn::<category>::<name>`.
    pub const fn category(self) -> &'static str {
        match self {
            Code::NotUtf8 => "input",
            Code::IllegalMove
            | Code::AmbiguousMove
            | Code::UnsupportedVariant
            | Code::UnsupportedPiece
            | Code::UnsupportedEvent
            | Code::EventRule
            | Code::EventChoice
            | Code::BadFen
            | Code::WrongCheckMark
            | Code::NullMove
            | Code::ResultContradictsBoard => "rules",
            code if code.is_style() => "style",
            _ => "syntax",
        }
    }

    /// Severity policy of `spec/cli.md`: errors make a record wrong or unreadable,
    /// warnings are what a careful keeper would fix while the game stands.
    pub const fn severity(self) -> Severity {
        match self {
            Code::MissingResult
            | Code::ResultMismatch
            | Code::EmptyGame
            | Code::NotUtf8
            | Code::WrongCheckMark
            | Code::NullMove
            | Code::ResultContradictsBoard
            | Code::SkippedMoveText
            | Code::EventNameMismatch => Severity::Warning,
            code if code.is_style() => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

/// One finding about one place in one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// What is wrong, in a sentence (a constant, not allocated, where a finding repeats
    /// in every game: see `lint`'s roster finding).
    pub message: Cow<'static, str>,
    pub span: Span,
    /// What the caret under the span says (nearly always a constant: not allocated).
    pub label: Cow<'static, str>,
    /// How to write it right.
    pub help: Option<Cow<'static, str>>,
    /// For findings about a move: where it stands in the game (boxed: most diagnostics
    /// of reading have none, and they travel in `Result`s).
    pub at_move: Option<Box<MoveRef>>,
    /// The edit that makes the text right, for `xpgn lint --fix`.
    pub fix: Option<Box<Fix>>,
}

/// Replace the text of `span` with `replacement` (an empty span inserts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub span: Span,
    pub replacement: Cow<'static, str>,
}

/// Which move a diagnostic is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRef {
    /// 1-based ply in its line, counted from the game's start.
    pub ply: usize,
    /// The move as written.
    pub written: String,
    /// Empty in the main line; else, level by level, the ply the variation replaces and
    /// which of the variations at that ply (1-based) it is.
    pub variation: Vec<(usize, usize)>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity.
    pub fn new(
        code: Code,
        span: Span,
        message: impl Into<Cow<'static, str>>,
        label: impl Into<Cow<'static, str>>,
    ) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            span,
            label: label.into(),
            help: None,
            at_move: None,
            fix: None,
        }
    }

    pub fn with_fix(mut self, span: Span, replacement: impl Into<Cow<'static, str>>) -> Self {
        self.fix = Some(Box::new(Fix {
            span,
            replacement: replacement.into(),
        }));
        self
    }

    pub fn at_move(mut self, at: MoveRef) -> Self {
        self.at_move = Some(Box::new(at));
        self
    }

    pub fn with_help(mut self, help: impl Into<Cow<'static, str>>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

#[cfg(test)]
mod tests {
    use super::Code;

    #[test]
    fn code_names_are_lowercase_words_and_hyphens() {
        // The JSON reports write them without escaping.
        for code in Code::ALL {
            let name = code.name();
            assert!(
                !name.is_empty()
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{name}"
            );
        }
    }

    #[test]
    fn codes_are_found_by_their_names_and_by_the_names_they_had() {
        for code in Code::ALL {
            assert_eq!(Code::from_name(code.name()), Some(code));
        }
        assert_eq!(Code::from_name("hidden-passage"), Some(Code::EventChoice));
        assert_eq!(Code::from_name("prince"), Some(Code::EventChoice));
        assert_eq!(Code::from_name("passage"), None);
    }
}
