//! Games of one input, read chunk by chunk so a file of any size streams.

use std::io::BufRead;

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

/// Opens `input` and reads it as its format says: PGN game by game, a transcript whole.
pub fn read_games(
    input: &Input,
) -> std::io::Result<Box<dyn Iterator<Item = std::io::Result<ChunkGames>> + Send>> {
    let reader = open(input)?;
    Ok(match input.format {
        InputFormat::Pgn => Box::new(GameChunks {
            chunks: PgnChunks::new(reader),
            warned_encoding: false,
        }),
        InputFormat::Transcript => Box::new(transcript_game(reader).into_iter()),
    })
}

fn transcript_game(reader: Box<dyn BufRead + Send>) -> Option<std::io::Result<ChunkGames>> {
    Some(read_whole(reader).map(|chunk| {
        let mut game = crate::transcript::parse_chunk(&chunk.text, chunk.offset);
        if let Some(line) = chunk.cp1252_line {
            game.diagnostics.insert(0, encoding_warning(&chunk, line));
        }
        ChunkGames {
            chunk,
            games: vec![game],
        }
    }))
}

struct GameChunks<R: BufRead> {
    chunks: PgnChunks<R>,
    /// The encoding warning is given once per file, at the first line that needed it.
    warned_encoding: bool,
}

impl<R: BufRead> Iterator for GameChunks<R> {
    type Item = std::io::Result<ChunkGames>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let chunk = match self.chunks.next()? {
                Ok(chunk) => chunk,
                Err(e) => return Some(Err(e)),
            };
            let mut games = parse_chunk(&chunk.text, chunk.offset);
            if let Some(line) = chunk.cp1252_line
                && !self.warned_encoding
                && let Some(first) = games.first_mut()
            {
                self.warned_encoding = true;
                first.diagnostics.insert(0, encoding_warning(&chunk, line));
            }
            if !games.is_empty() {
                return Some(Ok(ChunkGames { chunk, games }));
            }
        }
    }
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
