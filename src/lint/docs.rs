//! What each rule is and why it exists, for `xpgn lint --explain CODE` and the README.

use crate::diagnostic::{Code, Severity};

/// The documentation of one code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleDoc {
    pub code: Code,
    /// What it finds, in one line.
    pub summary: &'static str,
    /// Why it matters.
    pub rationale: &'static str,
    /// A record it flags, and the record written right (`None` where no text shows it).
    pub example: Option<(&'static str, &'static str)>,
    /// Whether `xpgn lint --fix` rewrites it.
    pub fixable: bool,
}

impl RuleDoc {
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }

    /// The text `--explain` prints.
    pub fn render(&self) -> String {
        let mut out = format!(
            "{} ({}, {} by default{})\n\n{}\n\n{}\n",
            self.code.name(),
            self.code.category(),
            self.severity().as_str(),
            if self.fixable { ", fixable" } else { "" },
            self.summary,
            self.rationale
        );
        if let Some((bad, good)) = self.example {
            out.push_str(&format!(
                "\nFlagged:\n    {bad}\nWritten right:\n    {good}\n"
            ));
        }
        out
    }
}

/// The documentation of `code`.
pub const fn explain(code: Code) -> RuleDoc {
    let (summary, rationale, example, fixable): (&str, &str, Option<(&str, &str)>, bool) =
        match code {
            Code::UnterminatedComment => (
                "A `{` comment that does not close before the end of the game.",
                "Everything after it would be read as comment: moves and results vanish.",
                Some(("1. e4 {best by test 1-0", "1. e4 {best by test} 1-0")),
                false,
            ),
            Code::UnterminatedTag => (
                "A `[` tag pair that does not close on its line.",
                "A tag pair is one line; a broken one hides the tags and moves after it.",
                Some(("[White \"Kasparov\"", "[White \"Kasparov\"]")),
                false,
            ),
            Code::MalformedTag => (
                "A tag pair without a name or without a quoted value.",
                "Other tools drop or misread such tags.",
                Some(("[White Kasparov]", "[White \"Kasparov\"]")),
                false,
            ),
            Code::TagInMovetext => (
                "A tag pair after the moves started, with no result before it.",
                "Usually a game that lost its result; the tag is read as the next game's.",
                None,
                false,
            ),
            Code::UnreadableMove => (
                "A token that is no move in any notation form.",
                "Nothing after it can be placed: the game cannot be replayed past it.",
                Some(("1. e4 e5 2. Knight-f3", "1. e4 e5 2. Nf3")),
                false,
            ),
            Code::UnexpectedToken => (
                "A character or token that has no place in movetext.",
                "Stray brackets and symbols are what other readers choke on.",
                Some(("1. e4 ) e5", "1. e4 e5")),
                false,
            ),
            Code::UnclosedVariation => (
                "A `(` variation with no `)` before the end of the game.",
                "The rest of the game is read as part of the variation.",
                Some(("1. e4 (1. d4 d5 2. c4 e5", "1. e4 (1. d4 d5 2. c4) e5")),
                false,
            ),
            Code::VariationTooDeep => (
                "Variations nested deeper than xpgn follows (256 levels).",
                "Such nesting is a broken file, not analysis; xpgn skips what is deeper.",
                None,
                false,
            ),
            Code::BadNag => (
                "A `$` without a number from 0 to 255.",
                "NAGs are numbers; other readers drop or reject anything else.",
                Some(("1. e4 $300", "1. e4 $1")),
                false,
            ),
            Code::ControlCharacter => (
                "A control character such as NUL in the text.",
                "Invisible characters break other tools and diffs.",
                None,
                false,
            ),
            Code::MissingResult => (
                "A game without a termination marker.",
                "PGN ends every game with `1-0`, `0-1`, `1/2-1/2` or `*`.",
                Some(("1. e4 e5", "1. e4 e5 *")),
                false,
            ),
            Code::ResultMismatch => (
                "The `[Result]` tag and the termination marker disagree.",
                "One of them is wrong, and readers trust different ones.",
                Some(("[Result \"1-0\"] ... 0-1", "[Result \"0-1\"] ... 0-1")),
                false,
            ),
            Code::EmptyGame => (
                "Text that holds no tags, moves or result.",
                "Usually stray text between games.",
                None,
                false,
            ),
            Code::MalformedEventCommand => (
                "A `[%event ...]` command that cannot be read.",
                "The event does not start, so every move it allows is illegal.",
                Some(("{[%event five]}", "{[%event 5]}")),
                false,
            ),
            Code::MalformedDocument => (
                "A JSON or YAML game document that cannot be read.",
                "Documents are what `xpgn convert --to json` writes; a broken one holds no game.",
                None,
                false,
            ),
            Code::GameTooLarge => (
                "A game of more than 1 MiB of text, which xpgn skips.",
                "No real game is that large; such text is a broken file, and reading it whole would break the memory bound.",
                None,
                false,
            ),
            Code::NotUtf8 => (
                "The file is not UTF-8; it was read as UTF-16 (by its byte order mark) or as Windows-1252.",
                "Tools that assume UTF-8 show names with accents as garbage.",
                None,
                false,
            ),
            Code::IllegalMove => (
                "A move that no legal move of the position matches.",
                "The record is wrong from here on: every later position is unknown.",
                Some(("1. e4 e5 2. Ke3", "1. e4 e5 2. Ke2")),
                false,
            ),
            Code::AmbiguousMove => (
                "A move that several legal moves match.",
                "A reader cannot tell which piece moved.",
                Some(("Nd2 (knights on b1 and f3)", "Nbd2")),
                false,
            ),
            Code::UnsupportedVariant => (
                "A `[Variant]` (or `--variant`) xpgn does not know.",
                "Its moves cannot be checked; define it in YAML and pass --variant-file.",
                None,
                false,
            ),
            Code::UnsupportedPiece => (
                "A piece the variant's source names without defining.",
                "Moves of such a piece cannot be checked.",
                None,
                false,
            ),
            Code::UnsupportedEvent => (
                "An event xpgn does not know.",
                "Its moves cannot be checked.",
                Some(("{[%event 17]}", "an event `xpgn variants` lists")),
                false,
            ),
            Code::EventRule => (
                "An event started against the meta rules (EC-1..EC-4) or with wrong choices.",
                "The event cannot run as written, so the moves after it are in doubt.",
                None,
                false,
            ),
            Code::EventChoice => (
                "A move whose record contradicts a running event's choices, or leaves out one it must give: a #5 passage move written without the passage (HP-8), a #68 king capture without `K@` (PR-2, PR-4).",
                "The record must say what the event's rules make the move do.",
                Some(("3. c4 (white's passage square is c4, f6 empty)", "3. c4-f6")),
                false,
            ),
            Code::BadFen => (
                "A `[FEN]` tag that cannot be read or describes an impossible position.",
                "The game has no start position to replay from.",
                None,
                false,
            ),
            Code::WrongCheckMark => (
                "A written `+` or `#` that the position after the move contradicts.",
                "Readers trust the mark; a wrong one misleads.",
                Some(("Qh5+ (no check)", "Qh5")),
                true,
            ),
            Code::NullMove => (
                "A null move (`--`, `Z0`) in the main line.",
                "Odds games use them; elsewhere they are usually an error.",
                None,
                false,
            ),
            Code::ResultContradictsBoard => (
                "A result that contradicts a mate or stalemate on the board.",
                "The game ended otherwise than its result says.",
                None,
                false,
            ),
            Code::SkippedMoveText => (
                "Transcript text with a move in it that is not read as a move of the game.",
                "A move of the other side or of someone who does not play, a sentence with several moves, an illustration numbered backwards or a retracted move: read as moves, they would hand every later move to the wrong side.",
                Some(("1.e4 e5 2.Nf3 (posted by Black)", "2...Nc6")),
                false,
            ),
            Code::EventNameMismatch => (
                "An event announcement whose name is another event's than its number.",
                "The catalogue was renumbered once; the name is what the moderator read out, so it wins.",
                Some(("Event #5 Line Pushers", "Event #43 Line Pushers")),
                false,
            ),
            Code::EventNotAnnounced => (
                "A `start event` that no announcement of the event follows.",
                "The game is checked without the event, so moves legal under it may be reported illegal.",
                Some(("start event", "start event\nEvent #43 Line Pushers")),
                false,
            ),
            Code::NonCanonicalCastling => (
                "Castling written with zeros or small letters (`0-0`, `o-o`).",
                "SAN castles with the letter O; tools that compare or search records disagree on the rest.",
                Some(("5. 0-0", "5. O-O")),
                true,
            ),
            Code::PromotionWithoutEquals => (
                "A promotion written without `=` (`e8Q`).",
                "SAN writes `e8=Q`; the bare form is read differently by different tools.",
                Some(("40. e8Q", "40. e8=Q")),
                true,
            ),
            Code::OverDisambiguated => (
                "An origin written where the move needs none, or more of it than it needs.",
                "SAN writes as little origin as tells the move apart; more makes records harder to compare.",
                Some(("1. e4 e5 2. Ng1f3", "1. e4 e5 2. Nf3")),
                true,
            ),
            Code::WrongCaptureMark => (
                "`x` on a move that captures nothing, or no `x` on a move that captures.",
                "Readers scan for `x` to see exchanges; a wrong mark misleads them.",
                Some(("1. e4 d5 2. ed5", "1. e4 d5 2. exd5")),
                true,
            ),
            Code::NonCanonicalSan => (
                "A move spelled otherwise than SAN writes it (`Pe4`, `e2-e4`).",
                "One spelling per move keeps records comparable and diffs small.",
                Some(("1. Pe4", "1. e4")),
                true,
            ),
            Code::MissingCheckMark => (
                "A move that gives check or mate written without `+` or `#`.",
                "SAN marks checks; readers rely on it to follow the game.",
                Some(("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7", "4. Qxf7#")),
                true,
            ),
            Code::WrongMoveNumber => (
                "A move number that does not match the ply it numbers.",
                "Numbers that drift make a record hard to read and to cite.",
                Some(("1. e4 e5 3. Nf3", "1. e4 e5 2. Nf3")),
                true,
            ),
            Code::MissingRosterTag => (
                "A tag of the Seven Tag Roster (Event, Site, Date, Round, White, Black, Result) missing.",
                "PGN export format requires all seven; databases index games by them.",
                Some((
                    "[White \"A\"]",
                    "[Event \"?\"] [Site \"?\"] [Date \"????.??.??\"] ...",
                )),
                true,
            ),
            Code::MalformedDate => (
                "A `[Date]` that is not `YYYY.MM.DD` (with `??` where unknown).",
                "Databases sort and search by the PGN date form only.",
                Some(("[Date \"2024-03-05\"]", "[Date \"2024.03.05\"]")),
                true,
            ),
            Code::MalformedResultTag => (
                "A `[Result]` that is not `1-0`, `0-1`, `1/2-1/2` or `*`.",
                "Other values are not results to any PGN reader.",
                Some(("[Result \"½-½\"]", "[Result \"1/2-1/2\"]")),
                true,
            ),
            Code::ForumSpelling => (
                "A transcript move in a forum spelling: a trailing dot, a capital file, a small piece letter, the ellipsis character, a capture with its square unsaid (`Ntakes`).",
                "xpgn reads them, other tools do not; the canonical SAN reads everywhere.",
                Some(("nf3", "Nf3")),
                true,
            ),
            Code::BadSuppression => (
                "An `{xpgn: allow=...}` comment naming no rule xpgn has.",
                "It suppresses nothing, which is rarely what its writer meant.",
                Some((
                    "{xpgn: allow=castling}",
                    "{xpgn: allow=non-canonical-castling}",
                )),
                false,
            ),
        };
    RuleDoc {
        code,
        summary,
        rationale,
        example,
        fixable,
    }
}
