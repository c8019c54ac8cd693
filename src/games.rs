//! Games of one input, read chunk by chunk so a file of any size streams.

use crate::diagnostic::{Code, Diagnostic};
use crate::pgn::{ParsedGame, parse_chunk};
use crate::report::Source;
use crate::source::{Chunk, Input, InputFormat, PgnChunks, open, read_whole};
use crate::span::Span;

/// The games read from one chunk of a file, with the chunk they came from.
pub struct ChunkGames {
    pub chunk: Chunk,
    pub games: Vec<ParsedGame>,
}

impl ChunkGames {
    pub fn source<'a>(&'a self, name: &'a str) -> Source<'a> {
        Source {
            name,
            text: &self.chunk.text,
            offset: self.chunk.offset,
            line: self.chunk.line,
        }
    }
}

/// A chunk of text read from an input, not parsed yet: reading is sequential, parsing
/// and checking may run on other threads.
pub struct PendingChunk {
    chunk: Chunk,
    format: InputFormat,
    /// Whether this chunk carries the file's one encoding warning.
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

    /// Parses the chunk's games.
    pub fn parse(self) -> ChunkGames {
        let PendingChunk {
            chunk,
            format,
            warn_encoding,
        } = self;
        let mut games = match format {
            InputFormat::Pgn => parse_chunk(&chunk.text, chunk.offset),
            InputFormat::Transcript => {
                vec![crate::transcript::parse_chunk(&chunk.text, chunk.offset)]
            }
        };
        if warn_encoding
            && let Some(line) = chunk.cp1252_line
            && let Some(first) = games.first_mut()
        {
            first.diagnostics.insert(0, encoding_warning(&chunk, line));
        }
        ChunkGames { chunk, games }
    }
}

/// Opens `input` and splits it as its format says: PGN game by game, a transcript whole.
pub fn read_chunks(
    input: &Input,
) -> std::io::Result<Box<dyn Iterator<Item = std::io::Result<PendingChunk>> + Send>> {
    let reader = open(input)?;
    Ok(match input.format {
        InputFormat::Pgn => {
            let mut warned = false;
            Box::new(PgnChunks::new(reader).map(move |chunk| {
                chunk.map(|chunk| {
                    let warn_encoding = chunk.cp1252_line.is_some() && !warned;
                    warned |= warn_encoding;
                    PendingChunk {
                        chunk,
                        format: InputFormat::Pgn,
                        warn_encoding,
                    }
                })
            }))
        }
        InputFormat::Transcript => Box::new(std::iter::once(read_whole(reader).map(|chunk| {
            PendingChunk {
                chunk,
                format: InputFormat::Transcript,
                warn_encoding: true,
            }
        }))),
    })
}

/// Opens `input` and reads its games chunk by chunk (chunks without games are skipped).
pub fn read_games(
    input: &Input,
) -> std::io::Result<impl Iterator<Item = std::io::Result<ChunkGames>> + Send> {
    Ok(read_chunks(input)?.filter_map(|pending| match pending {
        Ok(pending) => {
            let games = pending.parse();
            (!games.games.is_empty()).then_some(Ok(games))
        }
        Err(e) => Some(Err(e)),
    }))
}

/// Points at the first line that is not UTF-8 (`line` is 0-based in the file).
fn encoding_warning(chunk: &Chunk, line: usize) -> Diagnostic {
    let text = &chunk.text;
    let mut start = 0;
    for _ in chunk.line..line {
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
        Span::new(chunk.offset + start, len),
        format!(
            "the file is not UTF-8; read as Windows-1252 from line {}",
            line + 1
        ),
        "first line that is not UTF-8",
    )
    .with_help("save the file as UTF-8 so every tool reads the same characters")
}
