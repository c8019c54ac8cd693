//! Games of one input, read chunk by chunk so a file of any size streams.

use crate::diagnostic::{Code, Diagnostic};
use crate::document::{Language, parse_documents};
#[cfg(feature = "cli")]
use crate::pgn::{MoveSink, parse_into_playing};
use crate::pgn::{ParsedGame, SpareGames, parse_into_reusing};
#[cfg(feature = "cli")]
use crate::replay::{PlayAsRead, PlayedAsRead};
use crate::span::Source;
use std::io::BufRead;

use crate::source::{
    Chunk, DocumentChunks, Encoding, Input, InputFormat, PgnChunks, open, read_whole,
    transcode_utf16,
};
use crate::span::Span;

/// The games read from one chunk of a file, with the chunk they came from.
pub struct ChunkGames {
    pub chunk: Chunk,
    pub games: Vec<ParsedGame>,
    /// For each part of the chunk, the index of its first game in `games`.
    first_games: Vec<usize>,
}

impl ChunkGames {
    /// Each part of the chunk, as the source its games report from, with its games.
    pub fn parts<'a>(
        &'a self,
        name: &'a str,
    ) -> impl Iterator<Item = (Source<'a>, &'a [ParsedGame])> {
        self.chunk
            .parts
            .iter()
            .enumerate()
            .map(move |(index, part)| {
                let first = self.first_games[index];
                let end = self
                    .first_games
                    .get(index + 1)
                    .map_or(self.games.len(), |&next| next);
                (
                    part_source(name, &self.chunk, part),
                    &self.games[first..end],
                )
            })
    }

    /// Every game with the source it reports from.
    pub fn games<'a>(
        &'a self,
        name: &'a str,
    ) -> impl Iterator<Item = (Source<'a>, &'a ParsedGame)> {
        self.parts(name)
            .flat_map(|(source, games)| games.iter().map(move |game| (source, game)))
    }
}

/// A chunk of text read from an input, not parsed yet: reading is sequential, parsing
/// and checking may run on other threads. The commands' plumbing (and `lint --fix`'s
/// input), kept public for the fuzz targets.
#[doc(hidden)]
pub struct PendingChunk {
    chunk: Chunk,
    format: InputFormat,
    /// Whether this chunk carries the file's one encoding warning (on its first part
    /// that is not UTF-8).
    warn_encoding: bool,
}

impl PendingChunk {
    /// The chunk's size in bytes of text.
    pub fn len(&self) -> usize {
        self.chunk.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.chunk.text.is_empty()
    }

    /// The text and its parts, as read.
    pub fn chunk(&self) -> &Chunk {
        &self.chunk
    }

    /// Parses the chunk's games, part by part.
    pub fn parse(self) -> ChunkGames {
        let PendingChunk {
            chunk,
            format,
            mut warn_encoding,
        } = self;
        // A part is nearly always one game: the list grows once or never.
        let mut games = Vec::with_capacity(chunk.parts.len());
        let mut first_games = Vec::with_capacity(chunk.parts.len());
        // The parts of a chunk share one game builder.
        let mut spare = SpareGames::default();
        for part in &chunk.parts {
            first_games.push(games.len());
            parse_part(
                &chunk,
                part,
                format,
                &mut warn_encoding,
                &mut games,
                &mut spare,
            );
        }
        ChunkGames {
            chunk,
            games,
            first_games,
        }
    }

    /// Reads the chunk a few parts at a time, handing each part's games to `each` with
    /// the source they report from and the part, then giving their lists back to this
    /// thread's spare lists at once, while they are in cache; returns the chunk, whose
    /// text the part's findings quote.
    /// Games are handled in batches of about [`BATCH_BYTES`] of text, soon after they
    /// are read: their text and lists are still in cache (parsing a whole chunk first
    /// costs a cache miss on every list touched again), and the next batch is read into
    /// the lists of the games just handled, while reading and checking each run over a
    /// few games in turn rather than pushing each other's code out of the cache for
    /// every game of a file of short games.
    #[cfg(feature = "cli")]
    pub(crate) fn for_each_part<E>(
        self,
        name: &str,
        mut each: impl FnMut(Source<'_>, &crate::source::Part, &[ParsedGame]) -> Result<(), E>,
    ) -> Result<Chunk, E> {
        self.for_each_part_playing(name, None, |source, part, games, _| {
            each(source, part, games)
        })
    }

    /// [`PendingChunk::for_each_part`] with the moves of the PGN games `playing` takes
    /// played as they are read: `each` gets what it concluded of each game (`None` for
    /// a game whose moves are in its tree, as they all are without `playing`).
    #[cfg(feature = "cli")]
    pub(crate) fn for_each_part_playing<E>(
        self,
        name: &str,
        mut playing: Option<&mut PlayAsRead<'_>>,
        mut each: impl FnMut(
            Source<'_>,
            &crate::source::Part,
            &[ParsedGame],
            &[Option<PlayedAsRead>],
        ) -> Result<(), E>,
    ) -> Result<Chunk, E> {
        let (chunk, read) = self.with_spare_games(|chunk, format, warn_encoding, spare| {
            let mut games = Vec::new();
            // What `playing` concluded of each game of `games`.
            let mut played = Vec::new();
            // Where the games of each part of the batch start in `games`, and end.
            let mut bounds = vec![0];
            let mut batch_bytes = 0;
            for (index, part) in chunk.parts.iter().enumerate() {
                match playing.as_deref_mut() {
                    Some(playing) if format == InputFormat::Pgn && part.skipped == 0 => {
                        play_part(chunk, part, warn_encoding, &mut games, spare, playing);
                        played.append(&mut playing.results);
                    }
                    _ => parse_part(chunk, part, format, warn_encoding, &mut games, spare),
                }
                // Only parts read into trees leave games without a conclusion: the call
                // is made for those alone.
                if played.len() < games.len() {
                    played.resize(games.len(), None);
                }
                bounds.push(games.len());
                batch_bytes += part.range.len();
                if batch_bytes < BATCH_BYTES && index + 1 < chunk.parts.len() {
                    continue;
                }
                let parts = &chunk.parts[index + 2 - bounds.len()..=index];
                let result = parts
                    .iter()
                    .zip(bounds.windows(2))
                    .try_for_each(|(part, range)| {
                        let games = &mut games[range[0]..range[1]];
                        let source = part_source(name, chunk, part);
                        let handled = each(source, part, games, &played[range[0]..range[1]]);
                        spare.recycle(games);
                        handled
                    });
                games.clear();
                played.clear();
                bounds.truncate(1);
                batch_bytes = 0;
                result?;
            }
            Ok(())
        });
        read?;
        Ok(chunk)
    }
}

#[cfg(feature = "cli")]
impl PendingChunk {
    /// Reads the chunk with this thread's spare games: `read` is handed the chunk, its
    /// format, whether the file's encoding warning is still to be given, and the games.
    fn with_spare_games<R>(
        self,
        read: impl FnOnce(&Chunk, InputFormat, &mut bool, &mut SpareGames) -> R,
    ) -> (Chunk, R) {
        let PendingChunk {
            chunk,
            format,
            mut warn_encoding,
        } = self;
        let read = SPARE.with_borrow_mut(|spare| read(&chunk, format, &mut warn_encoding, spare));
        (chunk, read)
    }

    /// [`PendingChunk::for_each_part`] a part at a time, with the moves of the PGN games
    /// `sink` takes played as they are read: `each` gets the sink after each part, to
    /// take what it made of the part's games (nothing, where the part was read into
    /// trees).
    pub(crate) fn for_each_part_with<S: PlaysParts, E>(
        self,
        name: &str,
        sink: &mut S,
        mut each: impl FnMut(Source<'_>, &crate::source::Part, &[ParsedGame], &mut S) -> Result<(), E>,
    ) -> Result<Chunk, E> {
        let (chunk, read) = self.with_spare_games(|chunk, format, warn_encoding, spare| {
            let mut games = Vec::new();
            for part in &chunk.parts {
                sink.begin_part();
                if format == InputFormat::Pgn && part.skipped == 0 {
                    play_part(chunk, part, warn_encoding, &mut games, spare, sink);
                } else {
                    parse_part(chunk, part, format, warn_encoding, &mut games, spare);
                }
                let handled = each(part_source(name, chunk, part), part, &games, sink);
                spare.recycle(&mut games);
                games.clear();
                handled?;
            }
            Ok(())
        });
        read?;
        Ok(chunk)
    }
}

#[cfg(feature = "cli")]
thread_local! {
    /// The lists of the games this thread read last, for the next chunk it reads.
    static SPARE: std::cell::RefCell<SpareGames> = std::cell::RefCell::default();
}

/// A [`MoveSink`] that reads parts of a chunk, and may give up on one.
#[cfg(feature = "cli")]
pub(crate) trait PlaysParts: MoveSink {
    /// A part begins.
    fn begin_part(&mut self) {}
    /// Whether a game of the part read last gave up: what the sink made of that part is
    /// then dropped, and its games are read again into trees.
    fn take_gave_up(&mut self) -> bool;
}

#[cfg(feature = "cli")]
impl PlaysParts for PlayAsRead<'_> {
    fn take_gave_up(&mut self) -> bool {
        let gave_up = std::mem::take(&mut self.gave_up);
        if gave_up {
            self.results.clear();
        }
        gave_up
    }
}

/// About how much text [`PendingChunk::for_each_part`] reads before handing its games
/// on: a few games of a file of short ones, whose lists (some 18 times their text) stay
/// in the second-level cache.
#[cfg(feature = "cli")]
const BATCH_BYTES: usize = 2048;

/// Each part of `chunk` as the source its games report from.
#[cfg(feature = "cli")]
pub(crate) fn part_sources<'a>(
    chunk: &'a Chunk,
    name: &'a str,
) -> impl Iterator<Item = Source<'a>> {
    chunk
        .parts
        .iter()
        .map(move |part| part_source(name, chunk, part))
}

/// Appends the games of one part of `chunk` to `games`; the first part that is not UTF-8
/// gets the file's encoding warning while `warn_encoding` holds.
fn parse_part(
    chunk: &Chunk,
    part: &crate::source::Part,
    format: InputFormat,
    warn_encoding: &mut bool,
    games: &mut Vec<ParsedGame>,
    spare: &mut SpareGames,
) {
    let first = games.len();
    let text = chunk.part_text(part);
    let offset = chunk.offset + part.range.start;
    if part.skipped > 0 {
        games.push(too_large(text, offset, part));
        return;
    }
    match format {
        InputFormat::Pgn => parse_into_reusing(text, offset, games, spare),
        InputFormat::Transcript => games.push(crate::transcript::parse_chunk(text, offset)),
        InputFormat::Json => games.extend(parse_documents(text, offset, Language::Json)),
        InputFormat::Yaml => games.extend(parse_documents(text, offset, Language::Yaml)),
    }
    encoding_warning_once(text, offset, part, warn_encoding, &mut games[first..]);
}

/// The file's encoding warning, on the first game of the first part that is not UTF-8.
fn encoding_warning_once(
    text: &str,
    offset: usize,
    part: &crate::source::Part,
    warn_encoding: &mut bool,
    games: &mut [ParsedGame],
) {
    if *warn_encoding && part.encoding != Encoding::Utf8 {
        *warn_encoding = false;
        if let Some(first) = games.first_mut() {
            let warning = encoding_warning(text, offset, part.line, part.encoding);
            first.diagnostics.insert(0, warning);
        }
    }
}

/// [`parse_part`] of a PGN part with the moves of the games `playing` takes played as
/// they are read; where one gave up, the part is read again into trees.
#[cfg(feature = "cli")]
fn play_part(
    chunk: &Chunk,
    part: &crate::source::Part,
    warn_encoding: &mut bool,
    games: &mut Vec<ParsedGame>,
    spare: &mut SpareGames,
    playing: &mut impl PlaysParts,
) {
    let first = games.len();
    let text = chunk.part_text(part);
    let offset = chunk.offset + part.range.start;
    parse_into_playing(text, offset, games, spare, playing);
    if playing.take_gave_up() {
        games.truncate(first);
        parse_into_reusing(text, offset, games, spare);
    }
    encoding_warning_once(text, offset, part, warn_encoding, &mut games[first..]);
}

/// The source a part's games report from.
fn part_source<'a>(name: &'a str, chunk: &'a Chunk, part: &crate::source::Part) -> Source<'a> {
    Source {
        name,
        text: chunk.part_text(part),
        offset: chunk.offset + part.range.start,
        line: part.line,
    }
}

/// Opens `input` and splits it as its format says: PGN game by game, anything else whole.
pub(crate) fn read_chunks(
    input: &Input,
) -> std::io::Result<Box<dyn Iterator<Item = std::io::Result<PendingChunk>> + Send>> {
    chunks_of(open(input)?, input.format)
}

/// `read_chunks` of an opened (decompressed) input: for the fuzz targets, which read
/// from memory.
#[doc(hidden)]
pub fn chunks_of(
    reader: Box<dyn BufRead + Send>,
    format: InputFormat,
) -> std::io::Result<Box<dyn Iterator<Item = std::io::Result<PendingChunk>> + Send>> {
    let (reader, file_encoding) = transcode_utf16(reader)?;
    let chunks: Box<dyn Iterator<Item = std::io::Result<Chunk>> + Send> = match format {
        InputFormat::Pgn => Box::new(PgnChunks::new(reader)),
        // A document at a time: the size limit holds per game, not per file.
        InputFormat::Json => Box::new(DocumentChunks::new(reader, false)),
        InputFormat::Yaml => Box::new(DocumentChunks::new(reader, true)),
        // A transcript is one game.
        InputFormat::Transcript => Box::new(std::iter::once(read_whole(reader))),
    };
    let mut warned = false;
    Ok(Box::new(chunks.map(move |chunk| {
        chunk.map(|mut chunk| {
            // Transcoded, every part reads as UTF-8: it is told where it came from.
            if file_encoding != Encoding::Utf8 {
                for part in &mut chunk.parts {
                    part.encoding = file_encoding;
                }
            }
            let warn_encoding = !warned && chunk.parts.iter().any(|p| p.encoding != Encoding::Utf8);
            warned |= warn_encoding;
            PendingChunk {
                chunk,
                format,
                warn_encoding,
            }
        })
    })))
}

/// Opens `input` and reads its games chunk by chunk (chunks without games are skipped).
pub fn read_games(
    input: &Input,
) -> std::io::Result<impl Iterator<Item = std::io::Result<ChunkGames>> + Send> {
    Ok(parsed(read_chunks(input)?))
}

/// [`read_games`] of a reader of plain (not compressed) text in `format`: a string's
/// bytes, a socket, a decompressor of the caller's choosing.
pub fn read_games_from(
    reader: impl BufRead + Send + 'static,
    format: InputFormat,
) -> std::io::Result<impl Iterator<Item = std::io::Result<ChunkGames>> + Send> {
    Ok(parsed(chunks_of(Box::new(reader), format)?))
}

/// The games of each chunk, parsed as it comes; chunks without games are skipped.
fn parsed(
    chunks: impl Iterator<Item = std::io::Result<PendingChunk>> + Send,
) -> impl Iterator<Item = std::io::Result<ChunkGames>> + Send {
    chunks.filter_map(|pending| match pending {
        Ok(pending) => {
            let games = pending.parse();
            (!games.games.is_empty()).then_some(Ok(games))
        }
        Err(e) => Some(Err(e)),
    })
}

/// A part past [`crate::source::MAX_PART_BYTES`], of which `text` is the kept start: one
/// game holding only the diagnostic that says it was not read.
fn too_large(text: &str, offset: usize, part: &crate::source::Part) -> ParsedGame {
    let span = Span::new(offset, text.len());
    let size = text.len() + part.skipped;
    let diagnostic = Diagnostic::new(
        Code::GameTooLarge,
        span,
        format!(
            "the game starting at line {} holds {size} bytes, more than the {} MiB xpgn reads in one game; it is not read",
            part.line + 1,
            crate::source::MAX_PART_BYTES >> 20
        ),
        "this game",
    )
    .with_help("split it into several games, or move long comments out of it");
    let game = crate::pgn::Game {
        span,
        ..Default::default()
    };
    ParsedGame {
        heap_items: crate::pgn::HeapItems::default(),
        game,
        diagnostics: vec![diagnostic],
    }
}

/// Names the encoding a part that is not UTF-8 was read in, pointing at its first line
/// that is not UTF-8; `text` starts at byte `offset` and line `first_line` of the file.
fn encoding_warning(
    text: &str,
    offset: usize,
    first_line: usize,
    encoding: Encoding,
) -> Diagnostic {
    let line = match encoding {
        Encoding::Windows1252 { line } => line,
        _ => first_line,
    };
    let message = match encoding {
        Encoding::Windows1252 { .. } => format!(
            "the file is not UTF-8; read as Windows-1252 from line {}",
            line + 1
        ),
        other => format!(
            "the file is {} (by its byte order mark), not UTF-8",
            other.name()
        ),
    };
    let mut start = 0;
    for _ in first_line..line {
        match text[start..].find(['\n', '\r']) {
            Some(i) => {
                start += i + 1;
                if text[start - 1..].starts_with("\r\n") {
                    start += 1;
                }
            }
            None => break,
        }
    }
    let len = text[start..]
        .find(['\n', '\r'])
        .unwrap_or(text.len() - start);
    Diagnostic::new(
        Code::NotUtf8,
        Span::new(offset + start, len),
        message,
        "first line that is not UTF-8",
    )
    .with_help("save the file as UTF-8 so every tool reads the same characters")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_is_read_game_by_game_placed_as_a_file_is() {
        let text = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n";
        let chunks: Vec<ChunkGames> = read_games_from(text.as_bytes(), InputFormat::Pgn)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let games: Vec<(Source<'_>, &ParsedGame)> =
            chunks.iter().flat_map(|c| c.games("memory")).collect();
        let lines: Vec<usize> = games
            .iter()
            .map(|(source, parsed)| source.line_column(parsed.game.span.offset).line)
            .collect();
        assert_eq!(lines, [1, 5]);
        assert!(games.iter().all(|(source, _)| source.name == "memory"));
    }

    /// Short games, many to a batch, around one that fills a batch alone.
    #[cfg(feature = "cli")]
    fn games_of_many_batches() -> Vec<u8> {
        let mut text = String::new();
        for n in 0..300 {
            text += &format!("[Event \"{n}\"]\n\n1. e4 e5 *\n\n");
        }
        let comment = "x".repeat(3 * BATCH_BYTES);
        text += &format!("[Event \"long\"]\n\n{{{comment}}} 1. d4 *\n\n");
        for n in 300..310 {
            text += &format!("[Event \"{n}\"]\n\n1. c4 *\n\n");
        }
        text.into_bytes()
    }

    #[cfg(feature = "cli")]
    fn pending_chunks(text: Vec<u8>) -> impl Iterator<Item = PendingChunk> {
        chunks_of(Box::new(std::io::Cursor::new(text)), InputFormat::Pgn)
            .unwrap()
            .map(Result::unwrap)
    }

    #[cfg(feature = "cli")]
    #[test]
    fn each_part_is_handed_on_once_in_order_with_its_own_games() {
        let mut events = Vec::new();
        let mut parts = 0;
        for pending in pending_chunks(games_of_many_batches()) {
            let result = pending.for_each_part("memory", |source, part, games| {
                parts += 1;
                assert_eq!(source.text.len(), part.range.len());
                for parsed in games {
                    let span = parsed.game.span;
                    assert!(source.offset <= span.offset);
                    assert!(span.end() <= source.offset + source.text.len());
                    events.push(parsed.game.tag("Event").unwrap().to_owned());
                }
                Ok::<(), ()>(())
            });
            assert!(result.is_ok());
        }
        let expected: Vec<String> = (0..300)
            .map(|n| n.to_string())
            .chain(["long".to_owned()])
            .chain((300..310).map(|n| n.to_string()))
            .collect();
        assert_eq!(events, expected);
        assert_eq!(parts, 311);
    }

    #[cfg(feature = "cli")]
    #[test]
    fn a_failing_part_stops_the_rest() {
        let mut handed = 0;
        let pending = pending_chunks(games_of_many_batches()).next().unwrap();
        let result = pending.for_each_part("memory", |_, _, _| {
            handed += 1;
            if handed == 5 { Err(handed) } else { Ok(()) }
        });
        assert_eq!(result.err(), Some(5));
        assert_eq!(handed, 5);
    }
}
