//! Diagnostics: what is wrong, where, why, and how to write it right.
//!
//! A [`Diagnostic`] is plain data so every reporter (human, JSON, GitHub) renders the
//! same facts; [`crate::report`] turns it into a miette report for people.

use serde::Serialize;

use crate::span::Span;

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
    /// The input is not valid UTF-8 and was read as Windows-1252.
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
    /// A move whose record contradicts the #5 Hidden passage squares: it ends on a passage
    /// square yet is written without the passage, or it ended plainly on a square that a
    /// later move reveals as a passage square (HP-8).
    HiddenPassage,
    /// A king capture written against #68 Prince: without `K@` while the chosen pawn
    /// stands, or with `K@` on a square where no king comes back (PR-2, PR-4).
    Prince,
    /// A `[FEN]` tag that cannot be read or describes an impossible position.
    BadFen,
    /// A written `+` or `#` that the position after the move contradicts.
    WrongCheckMark,
    /// A null move (`--`, `Z0`) in the main line: replayed as a pass.
    NullMove,
    /// A result that contradicts a mate or stalemate on the board.
    ResultContradictsBoard,
}

impl Code {
    /// Every code, for documentation and for tests that each has a fixture.
    pub const ALL: [Code; 28] = [
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
        Code::NotUtf8,
        Code::IllegalMove,
        Code::AmbiguousMove,
        Code::UnsupportedVariant,
        Code::UnsupportedPiece,
        Code::UnsupportedEvent,
        Code::EventRule,
        Code::HiddenPassage,
        Code::Prince,
        Code::BadFen,
        Code::WrongCheckMark,
        Code::NullMove,
        Code::ResultContradictsBoard,
    ];

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
            Code::NotUtf8 => "not-utf8",
            Code::IllegalMove => "illegal-move",
            Code::AmbiguousMove => "ambiguous-move",
            Code::UnsupportedVariant => "unsupported-variant",
            Code::UnsupportedPiece => "unsupported-piece",
            Code::UnsupportedEvent => "unsupported-event",
            Code::EventRule => "event-rule",
            Code::HiddenPassage => "hidden-passage",
            Code::Prince => "prince",
            Code::BadFen => "bad-fen",
            Code::WrongCheckMark => "wrong-check-mark",
            Code::NullMove => "null-move",
            Code::ResultContradictsBoard => "result-contradicts-board",
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
            | Code::HiddenPassage
            | Code::Prince
            | Code::BadFen
            | Code::WrongCheckMark
            | Code::NullMove
            | Code::ResultContradictsBoard => "rules",
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
            | Code::ResultContradictsBoard => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

/// One finding about one place in one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// What is wrong, in a sentence.
    pub message: String,
    pub span: Span,
    /// What the caret under the span says.
    pub label: String,
    /// How to write it right.
    pub help: Option<String>,
    /// For findings about a move: where it stands in the game (boxed: most diagnostics
    /// of reading have none, and they travel in `Result`s).
    pub at_move: Option<Box<MoveRef>>,
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
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            span,
            label: label.into(),
            help: None,
            at_move: None,
        }
    }

    pub fn at_move(mut self, at: MoveRef) -> Self {
        self.at_move = Some(Box::new(at));
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
