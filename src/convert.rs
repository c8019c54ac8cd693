//! Converting a replayed game to other notations (`xpgn convert`): PGN with every move in
//! canonical SAN or long notation, UCI move lists, one FEN per ply, and JSON or YAML
//! documents. All but UCI and FEN keep tags, comments, NAGs and variations.

use std::borrow::Cow;

use compact_str::CompactString;
use serde::Serialize;

#[cfg(feature = "cli")]
use std::ops::Range;

#[cfg(feature = "cli")]
use crate::games::PlaysParts;
#[cfg(feature = "cli")]
use crate::layout::GameAsRead;
use crate::layout::SEVEN_TAG_ROSTER;
#[cfg(feature = "cli")]
use crate::notation::Notation;
use crate::pgn::{Game, Item, Outcome, Tag};
#[cfg(feature = "cli")]
use crate::pgn::{MoveSink, ParsedGame};
#[cfg(feature = "cli")]
use crate::replay::PlayAsRead;
// The main-line lists are what a replay can record alone; named here, where they are
// written.
pub use crate::replay::MainLine;
use crate::replay::{
    MoveDetail, Played, PlayedByOffset, PlayedMove, Recording, Replay, replay_respelling,
};
use crate::rules::Variants;
use crate::span::{Source, Span, Spanned};

/// How the moves of a PGN game are spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// Canonical SAN (`Nxf6-c4`).
    San,
    /// Long notation, every move with its origin (`Ng8xf6-c4`).
    Lan,
}

/// Why a game cannot be written in a notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unconvertible {
    pub ply: usize,
    pub reason: String,
}

/// The main line's moves that replayed, in order.
fn main_line(played: &Played) -> impl Iterator<Item = (&PlayedMove, &MoveDetail)> {
    played
        .moves
        .iter()
        .filter(|m| m.variation.is_empty())
        .filter_map(|m| Some((m, m.detail.as_deref()?)))
}

/// Appends `game` as PGN with every move that replayed spelled as asked, main line and
/// variations; a move that did not replay stays as written.
pub fn write_spelled(game: &Game, replay: &Replay, spelling: Spelling, out: &mut String) {
    write_respelled(game, replay, spelling, None, out);
}

/// [`write_spelled`] of a replay that may have left out the moves written as their
/// canonical SAN ([`Recording::Respellings`]), which are written from `source`, the text
/// the game was read from.
pub fn write_respelled(
    game: &Game,
    replay: &Replay,
    spelling: Spelling,
    source: Option<Source<'_>>,
    out: &mut String,
) {
    let by_offset = replay.played_by_offset();
    // Only where the replay says it left moves out: then every move replayed.
    let written = source.filter(|_| {
        replay
            .played
            .as_ref()
            .is_some_and(|p| p.recording == Recording::Respellings)
    });
    let spell = |span: Span| match by_offset.get(span.offset) {
        Some(m) => match spelling {
            Spelling::San => Some(m.san.as_str()),
            Spelling::Lan => m.detail.as_ref().map(|d| d.lan.as_str()),
        },
        None => {
            let written = written?;
            let from = span.offset.checked_sub(written.offset)?;
            written.text.get(from..from + span.len)
        }
    };
    crate::layout::write_game_spelled(game, out, spell);
}

/// Appends `game` in canonical form, as `xpgn fmt` prints it and `xpgn convert --to pgn`
/// writes it: replayed under `variants`, every move that replays in canonical SAN, the
/// rest as [`crate::layout`] lays it out. `source` is the text the game was read from.
pub fn write_canonical(game: &Game, source: Source<'_>, variants: &Variants, out: &mut String) {
    // SAN alone, and only of the moves not written so: the detail of every move would
    // cost the formatter most of its time.
    let replay = replay_respelling(game, variants, source);
    write_respelled(game, &replay, Spelling::San, Some(source), out);
}

/// `xpgn fmt`'s reader: the moves of orthodox games played as they are read, each game
/// laid out as it goes ([`GameAsRead`]) as [`write_canonical`] lays it out from its tree,
/// with no move kept in a tree (as `check` and `lint` play them). A part where a game
/// gives up is read again into trees.
#[cfg(feature = "cli")]
pub(crate) struct LayOutAsRead<'v> {
    playing: PlayAsRead<'v>,
    layout: GameAsRead,
    /// The chunk's parts laid out so far, each game after a line break.
    pub(crate) text: String,
    /// Where the part being read begins in `text`.
    pub(crate) part_start: usize,
    /// Where each game of the part is laid out in `text`; `None` for one not played here.
    pub(crate) games: Vec<Option<Range<usize>>>,
    /// Where the game being read begins in `text`, where it is played here.
    game_start: Option<usize>,
    /// Whether games are played here at all (`--write` verifies the trees).
    plays: bool,
}

#[cfg(feature = "cli")]
impl<'v> LayOutAsRead<'v> {
    /// `plays`: whether games are played here at all, under `variants`, which start no
    /// event where they are.
    pub(crate) fn new(text: String, variants: &'v Variants, plays: bool) -> LayOutAsRead<'v> {
        LayOutAsRead {
            playing: PlayAsRead::spelling(variants),
            layout: GameAsRead::default(),
            part_start: text.len(),
            text,
            games: Vec::new(),
            game_start: None,
            plays,
        }
    }
}

#[cfg(feature = "cli")]
impl MoveSink for LayOutAsRead<'_> {
    fn begin(&mut self, game: &Game) -> bool {
        self.game_start = None;
        if !self.plays || !self.playing.begin(game) {
            return false;
        }
        self.game_start = Some(self.text.len());
        self.text.push('\n');
        self.layout.begin(game, &mut self.text);
        true
    }

    fn play(&mut self, notation: &Notation, written: &str, span: Span, variation_may_follow: bool) {
        self.playing
            .play(notation, written, span, variation_may_follow);
        if let Some(spelled) = self.playing.spelled_last(written) {
            let assessment = notation.assessment.map_or("", |a| a.as_str());
            self.layout.played(&mut self.text, spelled, assessment);
        }
    }

    // Each move's text is what it is laid out as, where it is canonical.
    fn spells(&self) -> bool {
        true
    }

    // Laid out as they are read: the tree need not keep them.
    fn keeps_items(&self) -> bool {
        false
    }

    fn sees_items(&self) -> bool {
        true
    }

    fn item(&mut self, item: &Item) {
        if self.game_start.is_some() {
            self.layout.item(&mut self.text, item);
        }
    }

    fn comment(&mut self, text: &str, clock: bool) {
        if self.game_start.is_some() {
            self.layout.comment(&mut self.text, text, clock);
        }
    }

    fn open_variation(&mut self) {
        self.playing.open_variation();
        if self.game_start.is_some() {
            self.layout.open_variation(&mut self.text);
        }
    }

    fn close_variation(&mut self) {
        self.playing.close_variation();
        if self.game_start.is_some() {
            self.layout.close_variation(&mut self.text);
        }
    }

    fn give_up(&mut self) {
        self.playing.give_up();
    }

    fn finish_game(&mut self, game: &ParsedGame) {
        self.playing.finish_game(game);
        let played = self.playing.results.pop().flatten().is_some();
        let laid_out = match self.game_start.take() {
            Some(start) if played => {
                self.layout.finish(&game.game, &mut self.text);
                Some(start..self.text.len())
            }
            Some(start) => {
                self.text.truncate(start);
                None
            }
            None => None,
        };
        self.games.push(laid_out);
    }
}

#[cfg(feature = "cli")]
impl PlaysParts for LayOutAsRead<'_> {
    fn begin_part(&mut self) {
        self.part_start = self.text.len();
        self.games.clear();
    }

    fn take_gave_up(&mut self) -> bool {
        let gave_up = self.playing.take_gave_up();
        if gave_up {
            self.text.truncate(self.part_start);
            self.games.clear();
        }
        gave_up
    }
}

/// A forum transcript's game made a PGN game of its own: the Seven Tag Roster, which the
/// PGN export format requires of every game and other tools expect, with the standard's
/// `?` for what a transcript does not say (a pasted thread names the players); a `[Variant]` tag when the game is not
/// orthodox chess (a transcript that starts events is Event Chess), so that the PGN
/// replays the same without the options the transcript was read with; and `*` when the
/// thread ends without a result. `replay` is the transcript's.
pub fn transcript_as_pgn(game: &Game, replay: &Replay, variants: &Variants) -> Game {
    let mut pgn = game.clone();
    let end = Span::new(game.span.end(), 0);
    let result = pgn
        .result
        .get_or_insert_with(|| Spanned::new(Outcome::Unknown, end))
        .node;
    let tag = |name: &'static str, value: CompactString| Tag {
        name: Spanned::new(Cow::Borrowed(name), end),
        value: Spanned::new(value, end),
        span: end,
    };
    for name in SEVEN_TAG_ROSTER {
        // The players a pasted thread names are tags of the transcript already.
        if game.tag(name).is_some() {
            continue;
        }
        let value = match name {
            "Date" => "????.??.??",
            "Result" => result.as_str(),
            _ => "?",
        };
        pgn.tags.push(tag(name, CompactString::const_new(value)));
    }
    if replay.variant != "standard" {
        let name = variants
            .find(&replay.variant)
            .map_or_else(|| replay.variant.to_string(), |v| v.name.clone());
        pgn.tags.push(tag("Variant", CompactString::from(name)));
    }
    pgn
}

/// The main line of a replayed game: its UCI moves on one line, or the start position
/// and then the position after each ply in FEN, one a line. Moves after one that did not
/// replay are left out (checking says why).
pub fn main_line_text(replay: &Replay, list: MainLine) -> Result<String, Unconvertible> {
    let Some(played) = &replay.played else {
        return Ok(String::new());
    };
    if played.recording == Recording::MainLine(list) {
        return Ok(match list {
            MainLine::Uci => played.main_line.clone(),
            MainLine::Fen => [&*played.start, &played.main_line].concat(),
        });
    }
    let mut out = String::new();
    match list {
        MainLine::Fen => {
            out.push_str(&played.start);
            for fen in main_line(played).filter_map(|(_, detail)| detail.fen.as_deref()) {
                out.push('\n');
                out.push_str(fen);
            }
        }
        MainLine::Uci => {
            for (i, (m, detail)) in main_line(played).enumerate() {
                let Some(uci) = &detail.uci else {
                    return Err(Unconvertible {
                        ply: m.ply,
                        reason: format!(
                            "`{}` has no UCI spelling (UCI cannot say a move goes through a pass or passage, pushes a line or turns a knight)",
                            m.san
                        ),
                    });
                };
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(uci);
            }
        }
    }
    Ok(out)
}

/// A game as a JSON or YAML document: tags, start position, and its moves as read, with
/// what the rules made of each, their comments, NAGs and variations.
#[derive(Debug, Serialize)]
pub struct Document<'a> {
    pub tags: Vec<(&'a str, &'a str)>,
    pub variant: &'a str,
    pub start: Option<&'a str>,
    /// Comments before the first move.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<Cow<'a, str>>,
    pub moves: Vec<DocumentMove<'a>>,
    pub result: Option<&'static str>,
}

/// One move of a [`Document`].
#[derive(Debug, Serialize)]
pub struct DocumentMove<'a> {
    /// Comments before the move, where no move comes before it in its line (the first
    /// move of a variation: `({[%event 43]} R->a8)`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<Cow<'a, str>>,
    /// As written.
    pub written: String,
    /// What the rules made of it; absent for a move that did not replay.
    #[serde(flatten)]
    pub played: Option<&'a PlayedMove>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nags: Vec<u8>,
    /// Comments after the move.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<Cow<'a, str>>,
    /// Variations that replace this move, each a list of moves.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<Vec<DocumentMove<'a>>>,
}

/// The document of a replayed game ([`crate::replay::replay_recording`]).
pub fn document<'a>(game: &'a Game, replay: &'a Replay) -> Document<'a> {
    let by_offset = replay.played_by_offset();
    let mut comments = Vec::new();
    let moves = line(&game.moves, &by_offset, &mut comments);
    Document {
        tags: game
            .tags
            .iter()
            .map(|t| (t.name.node.as_ref(), t.value.node.as_ref()))
            .collect(),
        variant: &replay.variant,
        start: replay.played.as_ref().map(|p| &*p.start),
        comments,
        moves,
        result: game.result.as_ref().map(|r| r.node.as_str()),
    }
}

/// The moves of one line; comments before its first move go to `leading`.
fn line<'a>(
    items: &'a [Spanned<Item>],
    played: &PlayedByOffset<'a>,
    leading: &mut Vec<Cow<'a, str>>,
) -> Vec<DocumentMove<'a>> {
    let mut moves: Vec<DocumentMove<'a>> = Vec::new();
    for item in items {
        match &item.node {
            Item::Move(notation) => moves.push(DocumentMove {
                before: Vec::new(),
                written: notation.to_string(),
                played: played.get(item.span.offset),
                nags: Vec::new(),
                comments: Vec::new(),
                variations: Vec::new(),
            }),
            // Kept as written, so that reading the document back finds it again.
            Item::Unreadable(token) => moves.push(DocumentMove {
                before: Vec::new(),
                written: token.clone(),
                played: None,
                nags: Vec::new(),
                comments: Vec::new(),
                variations: Vec::new(),
            }),
            Item::Comment(comment) => {
                comment_after(&mut moves, leading, Cow::Borrowed(&comment.text));
            }
            // A transcript's lines are kept as comments, as `convert --to pgn` keeps them:
            // an event line as its `[%event ...]` command, so the document replays alike.
            Item::Prose(text) => comment_after(&mut moves, leading, Cow::Borrowed(text)),
            Item::EventLine(event_line) => {
                let text = match &event_line.event {
                    Some(event) => Cow::Owned(event.to_string()),
                    None => Cow::Borrowed(event_line.text.as_str()),
                };
                comment_after(&mut moves, leading, text);
            }
            Item::Nag(nag) => {
                if let Some(last) = moves.last_mut() {
                    last.nags.push(*nag);
                }
            }
            Item::Variation(variation) => {
                let mut inner_leading = Vec::new();
                let inner = line(variation, played, &mut inner_leading);
                if let Some(last) = moves.last_mut() {
                    let mut inner = inner;
                    if let Some(first) = inner.first_mut() {
                        first.before = inner_leading;
                    }
                    last.variations.push(inner);
                }
            }
            _ => {}
        }
    }
    moves
}

/// Adds a comment after the last move of a line, or to `leading` before its first.
fn comment_after<'a>(
    moves: &mut [DocumentMove<'a>],
    leading: &mut Vec<Cow<'a, str>>,
    text: Cow<'a, str>,
) {
    match moves.last_mut() {
        Some(last) => last.comments.push(text),
        None => leading.push(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::parse_str;
    use crate::replay::{Recording, replay_recording};
    use crate::rules::{Variant, Variants};

    fn replayed(text: &str) -> (Game, Replay) {
        let game = parse_str(text).remove(0).game;
        let standard = Variants::with_default(Variant::by_name("standard").unwrap());
        let replay = replay_recording(&game, &standard, Recording::Everything);
        (game, replay)
    }

    fn spelled(text: &str, spelling: Spelling) -> String {
        let (game, replay) = replayed(text);
        let mut out = String::new();
        write_spelled(&game, &replay, spelling, &mut out);
        out
    }

    #[test]
    fn games_in_san_and_long_notation_keep_everything_else() {
        let text = "1. e4 e5 2. Ng1f3 {dev} Nc6 3. Bb5 a6 (3... Nf6 $1) 4. Bxc6 dxc6 5. O-O 1-0";
        assert_eq!(
            spelled(text, Spelling::San),
            "1. e4 e5 2. Nf3 {dev} 2... Nc6 3. Bb5 a6 (3... Nf6 $1) 4. Bxc6 dxc6 5. O-O 1-0\n"
        );
        assert_eq!(
            spelled(text, Spelling::Lan),
            "1. e2-e4 e7-e5 2. Ng1-f3 {dev} 2... Nb8-c6 3. Bf1-b5 a7-a6 (3... Ng8-f6 $1) 4.\nBb5xc6 d7xc6 5. O-O 1-0\n"
        );
    }

    #[test]
    fn main_lines_as_uci_and_fen() {
        let (_, replay) = replayed("1. e4 e5 2. Nf3 (2. f4) Nc6 3. O-O?? *");
        assert_eq!(
            main_line_text(&replay, MainLine::Uci).unwrap(),
            "e2e4 e7e5 g1f3 b8c6",
            "the illegal castling ends the list"
        );
        let fens = main_line_text(&replay, MainLine::Fen).unwrap();
        assert_eq!(fens.lines().count(), 5, "the start and four plies");
        assert!(
            fens.lines()
                .last()
                .unwrap()
                .starts_with("r1bqkbnr/pppp1ppp/2n5")
        );
    }

    #[test]
    fn a_move_without_uci_is_named() {
        let (_, replay) = replayed("[Variant \"Event Chess\"]\n\n{[%event 5 c4 f6]} 1. c4-f6 *");
        let refused = main_line_text(&replay, MainLine::Uci).unwrap_err();
        assert_eq!(refused.ply, 1);
        assert!(refused.reason.contains("`c4-f6`"), "{}", refused.reason);
    }

    #[test]
    fn documents_keep_comments_nags_and_variations() {
        let text = "[Event \"e\"]\n\n{intro} 1. e4 $1 {best} e5 ({open} 1... c5 {sicilian} 2. Nf3) 2. Nf3 *";
        let (game, replay) = replayed(text);
        let doc = document(&game, &replay);
        let json = serde_json::to_value(&doc).unwrap();
        assert_eq!(json["comments"], serde_json::json!(["intro"]));
        assert_eq!(json["moves"][0]["san"], "e4");
        assert_eq!(json["moves"][0]["nags"], serde_json::json!([1]));
        assert_eq!(json["moves"][0]["comments"], serde_json::json!(["best"]));
        let variation = &json["moves"][1]["variations"][0];
        assert_eq!(variation[0]["lan"], "c7-c5");
        assert_eq!(variation[0]["before"], serde_json::json!(["open"]));
        assert_eq!(variation[0]["comments"], serde_json::json!(["sicilian"]));
        assert_eq!(variation[1]["variation"], serde_json::json!([[2, 1]]));
        assert_eq!(
            json["moves"][2]["fen"].as_str().unwrap().split(' ').nth(1),
            Some("b")
        );
    }

    #[test]
    fn documents_say_what_events_made_of_a_move() {
        let text = "[Variant \"Event Chess\"]\n[FEN \"4k3/6p1/8/8/8/8/2P5/4Q1K1 b - - 0 1\"]\n[SetUp \"1\"]\n\n{[%event 68 c2 g7]} 1... g6 2. Qxe8K@g6 (2. Qd1) *";
        let (game, replay) = replayed(text);
        assert!(replay.diagnostics.is_empty(), "{:?}", replay.diagnostics);
        let json = serde_json::to_value(document(&game, &replay)).unwrap();
        assert_eq!(json["moves"][1]["san"], "Qxe8K@g6+");
        assert_eq!(
            json["moves"][1]["placed"], "K@g6",
            "the chosen pawn went along"
        );
        assert!(json["moves"][0].get("placed").is_none());
    }
}
