//! Games read back from the JSON and YAML documents that `xpgn convert --to json|yaml`
//! writes ([`crate::convert::Document`]): tags, start position, and each move as written
//! with its NAGs, comments and variations. What the rules made of each move (`san`,
//! `fen`, ...) is ignored: the rules work it out again from what was written, so a
//! hand-edited document is checked as strictly as a PGN file.
//!
//! Documents carry no positions of their own, so each move's span is found in the text
//! by its `written` key (documents list moves depth first, as the tree is read); tags and
//! anything not found point at the document's first line.

use std::borrow::Cow;

use compact_str::CompactString;
use serde::Deserialize;

use crate::diagnostic::{Code, Diagnostic};
use crate::notation::Notation;
use crate::pgn::{Comment, CommentKind, Game, Item, Outcome, ParsedGame, Tag, unreadable_move};
use crate::rules::{Variant, write_fen};
use crate::span::{Span, Spanned};

/// One game as a document says it.
#[derive(Debug, Deserialize)]
struct GameDocument {
    #[serde(default)]
    tags: Vec<(String, String)>,
    variant: Option<String>,
    start: Option<String>,
    #[serde(default)]
    comments: Vec<String>,
    #[serde(default)]
    moves: Vec<MoveDocument>,
    result: Option<String>,
}

#[derive(Debug, Deserialize)]
struct MoveDocument {
    #[serde(default)]
    before: Vec<String>,
    written: String,
    #[serde(default)]
    nags: Vec<u8>,
    #[serde(default)]
    comments: Vec<String>,
    #[serde(default)]
    variations: Vec<Vec<MoveDocument>>,
}

/// Which document language a text is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// JSON values one after another: JSON Lines as `convert` writes them, or
    /// pretty-printed objects.
    Json,
    /// YAML documents separated by `---` lines.
    Yaml,
}

/// Reads every game document of `text`, which starts at byte `offset` of its file. A
/// document that cannot be read is one game with a `malformed-document` error, and
/// reading goes on at the next document.
pub fn parse_documents(text: &str, offset: usize, language: Language) -> Vec<ParsedGame> {
    let mut games = Vec::new();
    match language {
        Language::Json => {
            let mut start = 0;
            while start < text.len() {
                let rest = &text[start..];
                let (depth, too_deep_at) = json_depth(rest);
                if let Some(at) = too_deep_at {
                    let next = rest[at..].find('\n').map_or(rest.len(), |i| at + i + 1);
                    games.push(too_deep(&rest[..next], offset + start, at));
                    start += next;
                    continue;
                }
                let read = match on_stack_for(depth, || json_document(rest, offset + start)) {
                    Ok(read) => read,
                    // The document's end is unknown: the rest of the text is that game.
                    Err(reason) => Some((malformed(rest, offset + start, 0, &reason), rest.len())),
                };
                let Some((game, len)) = read else { break };
                games.push(game);
                start += len;
            }
        }
        Language::Yaml => {
            for (document_start, body) in yaml_documents(text) {
                if body.trim().is_empty() {
                    continue;
                }
                let at = offset + document_start;
                // Block YAML indents each level: the deepest indentation bounds the depth.
                let depth = body
                    .lines()
                    .map(|line| line.len() - line.trim_start_matches([' ', '-']).len())
                    .max()
                    .unwrap_or(0);
                games.push(
                    on_stack_for(depth, || yaml_document(body, at))
                        .unwrap_or_else(|reason| malformed(body, at, 0, &reason)),
                );
            }
        }
    }
    games
}

/// The first JSON document of `text` (at `offset` in the file) and the length of text it
/// takes, or `None` when only blanks are left.
fn json_document(text: &str, offset: usize) -> Option<(ParsedGame, usize)> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    // `json_depth` bounds the nesting as deep as PGN's variations go.
    deserializer.disable_recursion_limit();
    let mut stream = deserializer.into_iter::<GameDocument>();
    match stream.next()? {
        Ok(document) => {
            let end = stream.byte_offset();
            let skipped = text.len() - text.trim_start().len();
            let body = &text[skipped..end];
            Some((build(document, body, offset + skipped, Language::Json), end))
        }
        Err(error) => {
            // JSON Lines: the next line starts the next document.
            let at = line_column_offset(text, error.line(), error.column());
            let next = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
            let game = malformed(&text[..next], offset, at, &error.to_string());
            Some((game, next))
        }
    }
}

/// The game of one YAML document `body`, at `offset` in the file.
fn yaml_document(body: &str, offset: usize) -> ParsedGame {
    let options = serde_saphyr::options! {
        budget: serde_saphyr::budget! { max_depth: MAX_DOCUMENT_DEPTH },
    };
    match serde_saphyr::from_str_with_options::<GameDocument>(body, options) {
        Ok(document) => build(document, body, offset, Language::Yaml),
        Err(error) => {
            let place = error.location().map_or(0, |l| {
                line_column_offset(body, l.line() as usize, l.column() as usize)
            });
            let message = error.without_snippet().to_string();
            let reason = message.rsplit_once(": ").map_or(&*message, |(_, r)| r);
            malformed(body, offset, place, reason)
        }
    }
}

/// Nesting a thread's own stack reads (a worker thread has 2 MiB): the parsers recurse
/// once or more per level, and a debug build's frames are large.
const SHALLOW_DEPTH: usize = 48;

/// Stack for reading a document nested up to [`MAX_DOCUMENT_DEPTH`] (only the pages used
/// are touched).
const DEEP_STACK_BYTES: usize = 256 << 20;

/// Runs `read` here for a shallow document, and on a thread of its own with a stack for
/// [`MAX_DOCUMENT_DEPTH`] levels for a deeper one (`depth` counts levels, or columns of
/// indentation, which are more). Where the system starts no such thread, says why.
fn on_stack_for<T: Send>(depth: usize, read: impl FnOnce() -> T + Send) -> Result<T, String> {
    if depth <= SHALLOW_DEPTH {
        return Ok(read());
    }
    std::thread::scope(|scope| {
        let reader = std::thread::Builder::new()
            .stack_size(DEEP_STACK_BYTES)
            .spawn_scoped(scope, read)
            .map_err(|e| format!("no thread could be started to read it this deep ({e})"))?;
        Ok(reader
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

/// How deep a document's lists and maps may nest: as deep as PGN reads variations. A
/// variation is three levels (the move's `variations`, the variation, its move) below
/// the document and its `moves`, and a few more for what a move holds.
const MAX_DOCUMENT_DEPTH: usize = 3 * crate::pgn::MAX_VARIATION_DEPTH + 8;

/// How deep the first JSON value of `text` nests, and where it passes
/// [`MAX_DOCUMENT_DEPTH`] if it does: the parser would otherwise recurse as deep as the
/// input goes.
fn json_depth(text: &str) -> (usize, Option<usize>) {
    let mut depth = 0usize;
    let mut deepest = 0;
    let mut in_string = false;
    let mut escaped = false;
    for (i, b) in text.bytes().enumerate() {
        match b {
            _ if escaped => escaped = false,
            b'\\' if in_string => escaped = true,
            b'"' => in_string = !in_string,
            _ if in_string => {}
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
                if depth > MAX_DOCUMENT_DEPTH {
                    return (deepest, Some(i));
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
    (deepest, None)
}

/// A document nested deeper than [`MAX_DOCUMENT_DEPTH`], at byte `at` of `body`.
fn too_deep(body: &str, offset: usize, at: usize) -> ParsedGame {
    let mut game = malformed(
        body,
        offset,
        at,
        &format!(
            "variations nest deeper than the {} levels xpgn reads",
            crate::pgn::MAX_VARIATION_DEPTH
        ),
    );
    game.diagnostics[0].help = Some(
        "move the deepest variations into games of their own, as a PGN file would need too".into(),
    );
    game
}

/// Splits YAML text at its `---` lines: each document with its offset in `text`.
fn yaml_documents(text: &str) -> Vec<(usize, &str)> {
    let mut documents = Vec::new();
    let mut start = 0;
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if content == "---" || content.starts_with("--- ") {
            documents.push((start, &text[start..line_start]));
            start = line_start;
        }
        line_start += line.len();
    }
    documents.push((start, &text[start..]));
    documents
}

/// The byte offset of a 1-based line and column (as serde_json counts them) in `text`,
/// moved back to the start of the character it falls in: a parser may point inside one
/// (a document cut in the middle of `ü`).
fn line_column_offset(text: &str, line: usize, column: usize) -> usize {
    let line_start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    text.floor_char_boundary(line_start + column.saturating_sub(1))
}

/// A document that cannot be read: one game holding the diagnostic.
fn malformed(body: &str, offset: usize, at: usize, reason: &str) -> ParsedGame {
    // The diagnostic shows the place; the parsers' own line numbers count from the
    // document, not the file.
    let reason = reason.split(" at line ").next().unwrap_or(reason);
    let line_len = body[at..].find(['\n', '\r']).unwrap_or(body.len() - at);
    let diagnostic = Diagnostic::new(
        Code::MalformedDocument,
        Span::new(offset + at, line_len.max(1).min(body.len() - at)),
        format!("this game document cannot be read: {reason}"),
        "unreadable here",
    )
    .with_help(
        "a game document is what `xpgn convert --to json` (or `yaml`) writes: `tags`, `moves` \
         with a `written` move each, `comments`, `nags`, `variations`, `result`",
    );
    ParsedGame {
        heap_items: crate::pgn::HeapItems::default(),
        game: Game {
            span: Span::new(offset, body.len()),
            ..Game::default()
        },
        diagnostics: vec![diagnostic],
    }
}

/// The game a document describes, with spans into `body` (at `offset` in the file).
fn build(document: GameDocument, body: &str, offset: usize, language: Language) -> ParsedGame {
    let first_line = body.find(['\n', '\r']).unwrap_or(body.len());
    let whole = Span::new(offset, first_line);
    let mut finder = WrittenFinder {
        body,
        offset,
        from: 0,
        language,
        fallback: whole,
    };
    let mut diagnostics = Vec::new();
    let mut tags: Vec<Tag> = document
        .tags
        .into_iter()
        .map(|(name, value)| tag(name, value, whole))
        .collect();
    let has_tag = |tags: &[Tag], name: &str| tags.iter().any(|t| t.name.node == name);
    let variant = document.variant.as_deref().and_then(Variant::by_name);
    // What the tags do not say: a game checked with `--variant` or `--events`, say.
    let unsaid_start = document.start.filter(|start| {
        !has_tag(&tags, "FEN") && variant.is_none_or(|v| write_fen(v, v.start_position()) != *start)
    });
    // Orthodox chess that starts an event is Event Chess without a tag saying so.
    if !has_tag(&tags, "Variant")
        && let Some(variant) = variant
        && variant.slug != "standard"
        && (variant.slug != "event-chess" || unsaid_start.is_some())
    {
        tags.push(tag("Variant".to_owned(), variant.slug.to_owned(), whole));
    }
    if let Some(start) = unsaid_start {
        tags.push(tag("SetUp".to_owned(), "1".to_owned(), whole));
        tags.push(tag("FEN".to_owned(), start, whole));
    }
    let mut moves: Vec<Spanned<Item>> = document
        .comments
        .into_iter()
        .map(|text| Spanned::new(brace_comment(text), whole))
        .collect();
    line(document.moves, &mut finder, &mut moves, &mut diagnostics);
    let result = match document.result {
        None => None,
        Some(text) => match Outcome::parse(&text) {
            Some(outcome) => Some(Spanned::new(outcome, whole)),
            None => {
                diagnostics.push(
                    Diagnostic::new(
                        Code::MalformedDocument,
                        whole,
                        format!("`{text}` is not a result"),
                        "in this game",
                    )
                    .with_help("a result is `1-0`, `0-1`, `1/2-1/2` or `*`"),
                );
                None
            }
        },
    };
    ParsedGame {
        heap_items: crate::pgn::HeapItems::default(),
        game: Game {
            prelude: Vec::new(),
            tags,
            moves,
            result,
            trailing: Vec::new(),
            span: Span::new(offset, body.len()),
            reading: Vec::new(),
        },
        diagnostics,
    }
}

fn tag(name: String, value: String, span: Span) -> Tag {
    Tag {
        name: Spanned::new(Cow::Owned(name), span),
        value: Spanned::new(CompactString::from(value), span),
        span,
    }
}

fn brace_comment(text: String) -> Item {
    Item::Comment(Comment {
        kind: CommentKind::Brace,
        text: text.into(),
    })
}

/// Appends the items of a line of moves to `items` (the layout numbers them).
fn line(
    moves: Vec<MoveDocument>,
    finder: &mut WrittenFinder<'_>,
    items: &mut Vec<Spanned<Item>>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for document in moves {
        let span = finder.next(&document.written);
        items.extend(
            document
                .before
                .into_iter()
                .map(|text| Spanned::new(brace_comment(text), span)),
        );
        match Notation::parse(document.written.trim()) {
            Ok(notation) => items.push(Spanned::new(Item::Move(notation), span)),
            Err(_) => {
                diagnostics.push(unreadable_move(&document.written, span));
                items.push(Spanned::new(Item::Unreadable(document.written), span));
            }
        }
        items.extend(
            document
                .nags
                .into_iter()
                .map(|nag| Spanned::new(Item::Nag(nag), span)),
        );
        items.extend(
            document
                .comments
                .into_iter()
                .map(|text| Spanned::new(brace_comment(text), span)),
        );
        for variation in document.variations {
            let mut inner = Vec::new();
            line(variation, finder, &mut inner, diagnostics);
            items.push(Spanned::new(Item::Variation(inner), span));
        }
    }
}

/// Finds each move's `written` value in a document's text, in the order the moves come.
struct WrittenFinder<'a> {
    body: &'a str,
    offset: usize,
    /// Where the search goes on.
    from: usize,
    language: Language,
    /// The span of a move whose key is not found (a document written by hand, say).
    fallback: Span,
}

impl WrittenFinder<'_> {
    fn next(&mut self, written: &str) -> Span {
        let key = match self.language {
            Language::Json => "\"written\"",
            Language::Yaml => "written:",
        };
        let mut search = self.from;
        while let Some(found) = self.body[search..].find(key) {
            let after_key = search + found + key.len();
            search = after_key;
            let rest = &self.body[after_key..];
            let value_start = after_key + (rest.len() - rest.trim_start_matches([' ', ':']).len());
            let value = &self.body[value_start..];
            let value_len = match self.language {
                Language::Json => json_string_len(value, written),
                Language::Yaml => yaml_scalar_len(value, written),
            };
            if let Some(len) = value_len {
                self.from = value_start + len;
                return Span::new(self.offset + value_start, len);
            }
        }
        self.fallback
    }
}

/// The length of the JSON string literal that starts `text`, if it says `expected`.
fn json_string_len(text: &str, expected: &str) -> Option<usize> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<String>();
    match stream.next() {
        Some(Ok(value)) if value == expected => Some(stream.byte_offset()),
        _ => None,
    }
}

/// The length of the YAML scalar on the rest of the line that starts `text`, if it says
/// `expected` (plain, or in single or double quotes).
fn yaml_scalar_len(text: &str, expected: &str) -> Option<usize> {
    let line = text[..text.find(['\n', '\r']).unwrap_or(text.len())].trim_end();
    let unquoted = line
        .strip_prefix('"')
        .and_then(|l| l.strip_suffix('"'))
        .or_else(|| line.strip_prefix('\'').and_then(|l| l.strip_suffix('\'')))
        .unwrap_or(line);
    (unquoted == expected).then_some(line.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(game: &Game) -> Vec<String> {
        game.main_line().map(|m| m.node.to_string()).collect()
    }

    #[test]
    fn json_lines_give_one_game_each_with_spans_on_moves() {
        let text = concat!(
            r#"{"tags":[["White","A"]],"variant":"standard","moves":[{"written":"e4","san":"e4","comments":["c"]},{"written":"e5","variations":[[{"written":"c5"}]]}],"result":"*"}"#,
            "\n",
            r#"{"moves":[{"written":"Nf3","nags":[1]}],"result":"1-0"}"#,
            "\n"
        );
        let games = parse_documents(text, 100, Language::Json);
        assert_eq!(games.len(), 2);
        let first = &games[0].game;
        assert!(games[0].diagnostics.is_empty());
        assert_eq!(first.tag("White"), Some("A"));
        assert_eq!(moves(first), ["e4", "e5"]);
        let spans: Vec<&str> = first
            .main_line()
            .map(|m| &text[m.span.offset - 100..m.span.end() - 100])
            .collect();
        assert_eq!(spans, ["\"e4\"", "\"e5\""]);
        let mut pgn = String::new();
        crate::layout::write_game(first, &mut pgn);
        assert_eq!(pgn, "[White \"A\"]\n\n1. e4 {c} 1... e5 (1... c5) *\n");
        let Some(Item::Variation(variation)) = first.moves.last().map(|i| &i.node) else {
            panic!("{:?}", first.moves);
        };
        let c5 = variation[0].span;
        assert_eq!(&text[c5.offset - 100..c5.end() - 100], "\"c5\"");
        let second = &games[1].game;
        assert_eq!(second.span.offset, 100 + text.find("{\"moves").unwrap());
        let mut pgn = String::new();
        crate::layout::write_game(second, &mut pgn);
        assert_eq!(pgn, "1. Nf3 $1 1-0\n");
        assert_eq!(second.result.as_ref().unwrap().node, Outcome::WhiteWins);
    }

    #[test]
    fn a_broken_json_line_is_reported_and_the_next_one_read() {
        let text = "{\"moves\": [{\"written\": }]}\n{\"moves\":[{\"written\":\"d4\"}]}\n";
        let games = parse_documents(text, 0, Language::Json);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].diagnostics[0].code, Code::MalformedDocument);
        assert_eq!(games[0].diagnostics[0].span.offset, text.find('}').unwrap());
        assert_eq!(moves(&games[1].game), ["d4"]);
    }

    #[test]
    fn yaml_documents_and_unreadable_moves() {
        let text = "---\ntags: []\nmoves:\n- written: e4\n- written: 'Zz9'\nresult: '*'\n---\nmoves:\n- written: \"d4\"\n";
        let games = parse_documents(text, 0, Language::Yaml);
        assert_eq!(games.len(), 2);
        assert_eq!(moves(&games[0].game), ["e4"]);
        let unreadable = &games[0].diagnostics[0];
        assert_eq!(unreadable.code, Code::UnreadableMove);
        assert_eq!(
            &text[unreadable.span.offset..unreadable.span.end()],
            "'Zz9'"
        );
        assert_eq!(moves(&games[1].game), ["d4"]);
        let d4 = games[1].game.main_line().next().unwrap().span;
        assert_eq!(&text[d4.offset..d4.end()], "\"d4\"");
    }

    #[test]
    fn documents_cut_inside_a_character_are_reported_not_a_panic() {
        let json = r#"{"tags":[["White","Jürgen Müller"]],"moves":[{"written":"e4","comments":["gut ♔"]}]}"#;
        let yaml = "tags:\n- [White, \"Jürgen Mü♔\"]\nmoves:\n- written: e4\n";
        for (text, language) in [(json, Language::Json), (yaml, Language::Yaml)] {
            for (end, _) in text.char_indices().skip(1) {
                let games = parse_documents(&text[..end], 0, language);
                assert_eq!(games.len(), 1, "{language:?} cut at {end}");
            }
        }
        assert_eq!(line_column_offset("aé", 1, 3), 1, "inside `é`: its start");
        assert_eq!(line_column_offset("a\nb", 9, 9), 3, "past the end: the end");
    }

    #[test]
    fn a_start_the_tags_do_not_give_becomes_a_fen_tag() {
        let start = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1";
        let text =
            format!(r#"{{"variant":"standard","start":"{start}","moves":[{{"written":"e4"}}]}}"#);
        let game = &parse_documents(&text, 0, Language::Json)[0].game;
        assert_eq!(game.tag("FEN"), Some(start));
        let usual = Variant::by_name("standard").unwrap();
        let usual = write_fen(usual, usual.start_position());
        let text = format!(r#"{{"variant":"standard","start":"{usual}","moves":[]}}"#);
        let game = &parse_documents(&text, 0, Language::Json)[0].game;
        assert_eq!(game.tag("FEN"), None, "the usual start needs no tag");
    }
}
