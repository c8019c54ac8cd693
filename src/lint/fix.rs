//! `lint --fix`: a file rewritten part by part as it streams (so a file of any size
//! needs the memory of one part), each part fixed in rounds and verified before a byte
//! of it is written.
//!
//! What is verified, per part: the fixed text holds the same games (as many, replaying
//! the same moves, with no more errors); the bytes outside the fixed spans are the
//! original bytes, copied, not re-encoded; and the new bytes read back, as the reader
//! will read them, to exactly the text that was verified. A part too large to read is
//! copied through byte for byte, and a part with syntax errors keeps its text (where
//! its games begin and end is a guess). Anything that cannot be written back exactly
//! refuses the whole file, which is then left as it is.

use std::io::{self, Read, Write};
use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::games::PendingChunk;
use crate::pgn::ParsedGame;
use crate::replay::{Recording, Replay, check_game_recording};
use crate::rules::Variants;
use crate::source::{Encoding, InputFormat, decode};
use crate::span::Source;

use super::{Scope, Selection, lint_game, pick_fixes, splice_text};

/// Why a file was not rewritten.
#[derive(Debug)]
pub enum FixError {
    /// Reading the file failed.
    Read(io::Error),
    /// Writing the new file failed.
    Write(io::Error),
    /// The fixed file could not be written back exactly, or would not hold the same
    /// games: why, in words.
    Refused(String),
}

impl From<io::Error> for FixError {
    fn from(e: io::Error) -> Self {
        FixError::Write(e)
    }
}

/// What fixing a file did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fixed {
    /// Fixes applied, over all rounds.
    pub fixes: usize,
    /// Whether any byte changed: if not, the file need not be written.
    pub changed: bool,
}

/// Rounds of fixes per part: a fix can uncover another (a move number after a respelled
/// move), and overlapping fixes wait for the next round.
const ROUNDS: usize = 4;

/// Lints and fixes the games of one file.
pub struct Fixer<'a> {
    pub variants: &'a Variants,
    pub selection: &'a Selection,
    pub scope: Scope,
    /// PGN or a transcript (documents are not rewritten).
    pub format: InputFormat,
    /// The file's name, as reports show it.
    pub name: &'a str,
}

impl Fixer<'_> {
    /// The findings of one game, as `lint` reports them.
    pub fn lint(&self, source: Source<'_>, parsed: &ParsedGame) -> Replay {
        lint_game(parsed, source, self.variants, self.selection, self.scope)
    }

    /// Writes the fixed file to `out`. `chunks` are the file as read (decoded and split),
    /// `raw` its bytes from the start, read alongside: what is not fixed is copied from
    /// them.
    pub fn fix(
        &self,
        chunks: impl Iterator<Item = io::Result<PendingChunk>>,
        mut raw: impl Read,
        out: &mut dyn Write,
    ) -> Result<Fixed, FixError> {
        let mut fixed = Fixed::default();
        let mut original = Vec::new();
        // A UTF-16 file is only looked at: it is never written back, so its bytes are
        // not read alongside.
        let mut utf16 = false;
        for pending in chunks {
            let pending = pending.map_err(FixError::Read)?;
            let chunk = pending.chunk();
            for part in &chunk.parts {
                let text = chunk.part_text(part);
                let source = Source {
                    name: self.name,
                    text,
                    offset: chunk.offset + part.range.start,
                    line: part.line,
                };
                if matches!(part.encoding, Encoding::Utf16Le | Encoding::Utf16Be) {
                    if part.skipped == 0 && self.fixed_text(source)?.is_some() {
                        return Err(FixError::Refused(format!(
                            "is {}: --fix writes back UTF-8 and Windows-1252 files only (save it as UTF-8 to fix it)",
                            part.encoding.name()
                        )));
                    }
                    utf16 = true;
                    continue;
                }
                let len = raw_len(text, part.encoding) + part.skipped;
                if part.skipped > 0 {
                    copy_through(&mut raw, len, out)?;
                    continue;
                }
                original.clear();
                (&mut raw)
                    .take(len as u64)
                    .read_to_end(&mut original)
                    .map_err(FixError::Read)?;
                if original.len() != len || decode(&original, part.line).0 != text {
                    return Err(changed_while_read());
                }
                match self.fix_part(source, part.encoding, &original)? {
                    Some((bytes, fixes)) => {
                        out.write_all(&bytes)?;
                        fixed.fixes += fixes;
                        fixed.changed = true;
                    }
                    None => out.write_all(&original)?,
                }
            }
        }
        if utf16 {
            return Ok(fixed);
        }
        let mut rest = Vec::new();
        (&mut raw)
            .take(1)
            .read_to_end(&mut rest)
            .map_err(FixError::Read)?;
        if !rest.is_empty() {
            return Err(changed_while_read());
        }
        Ok(fixed)
    }

    fn parse(&self, text: &str, offset: usize) -> Vec<ParsedGame> {
        match self.format {
            InputFormat::Transcript => vec![crate::transcript::parse_chunk(text, offset)],
            _ => crate::pgn::parse_chunk(text, offset),
        }
    }

    /// The new bytes of one part with its fixes applied, and how many were, or `None`
    /// when it keeps its bytes. `original` holds the bytes `source.text` was read from.
    fn fix_part(
        &self,
        source: Source<'_>,
        encoding: Encoding,
        original: &[u8],
    ) -> Result<Option<(Vec<u8>, usize)>, FixError> {
        let Some(FixedText {
            text,
            pieces,
            fixes,
        }) = self.fixed_text(source)?
        else {
            return Ok(None);
        };
        let bytes = write_back(&pieces, source.text, original, encoding)?;
        let (read_back, read_as) = decode(&bytes, source.line);
        if read_back != text
            || std::mem::discriminant(&read_as) != std::mem::discriminant(&encoding)
        {
            return Err(FixError::Refused(format!(
                "the fixed part at line {} would not read back as fixed in {}: not fixed",
                source.line + 1,
                encoding.name()
            )));
        }
        Ok(Some((bytes, fixes)))
    }

    /// The text of one part with its fixes applied in rounds, verified to hold the same
    /// games, or `None` when nothing is fixed.
    fn fixed_text(&self, source: Source<'_>) -> Result<Option<FixedText>, FixError> {
        let before = self.parse(source.text, source.offset);
        if before
            .iter()
            .any(|g| g.diagnostics.iter().any(Diagnostic::is_error))
        {
            return Ok(None);
        }
        let mut pieces = vec![Piece::Kept(0..source.text.len())];
        let mut current = source.text.to_owned();
        let mut fixes = 0;
        for round in 0..ROUNDS {
            let at = Source {
                text: &current,
                ..source
            };
            let reparsed;
            let games = if round == 0 {
                &before
            } else {
                reparsed = self.parse(&current, source.offset);
                &reparsed
            };
            let replays: Vec<Replay> = games.iter().map(|game| self.lint(at, game)).collect();
            let picked = pick_fixes(
                &current,
                source.offset,
                replays.iter().flat_map(|r| &r.diagnostics),
            );
            if picked.is_empty() {
                break;
            }
            fixes += picked.len();
            pieces = splice(&pieces, &picked, current.len());
            current = splice_text(&current, &picked);
        }
        if fixes == 0 {
            return Ok(None);
        }
        let after = self.parse(&current, source.offset);
        same_games(self.variants, &before, &after).map_err(|why| {
            FixError::Refused(format!(
                "the fixes of the part at line {} {why}: not fixed",
                source.line + 1
            ))
        })?;
        Ok(Some(FixedText {
            text: current,
            pieces,
            fixes,
        }))
    }
}

/// A part's text with its fixes applied.
struct FixedText {
    text: String,
    /// What of it is kept from the original text, what fixes wrote.
    pieces: Vec<Piece>,
    fixes: usize,
}

fn changed_while_read() -> FixError {
    FixError::Refused("changed while it was read: not fixed (run --fix again)".to_owned())
}

/// Copies `len` bytes from `raw` to `out`, telling a read error from a write error.
fn copy_through(raw: &mut impl Read, mut len: usize, out: &mut dyn Write) -> Result<(), FixError> {
    let mut buffer = vec![0; len.min(64 * 1024)];
    while len > 0 {
        let want = len.min(buffer.len());
        let n = match raw.read(&mut buffer[..want]) {
            Ok(0) => return Err(changed_while_read()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(FixError::Read(e)),
        };
        out.write_all(&buffer[..n])?;
        len -= n;
    }
    Ok(())
}

/// Whether `after` holds the games of `before`: as many, each replaying the same moves
/// (main line and variations, by their canonical SAN), with no more errors. `Err` says
/// how they differ, to follow "the fixes of ...".
pub fn same_games(
    variants: &Variants,
    before: &[ParsedGame],
    after: &[ParsedGame],
) -> Result<(), String> {
    if before.len() != after.len() {
        return Err(format!(
            "would turn {} games into {}",
            before.len(),
            after.len()
        ));
    }
    for (number, (old, new)) in before.iter().zip(after).enumerate() {
        let old_replay = check_game_recording(old, variants, Recording::Spellings);
        let new_replay = check_game_recording(new, variants, Recording::Spellings);
        let moves = |replay: &Replay| {
            replay.played.as_ref().map_or_else(Vec::new, |played| {
                played
                    .moves
                    .iter()
                    .map(|m| (m.ply, m.variation.clone(), m.san.clone()))
                    .collect::<Vec<_>>()
            })
        };
        if moves(&old_replay) != moves(&new_replay) {
            return Err(format!("would change the moves of its game {}", number + 1));
        }
        let errors = |parsed: &ParsedGame, replay: &Replay| {
            parsed
                .diagnostics
                .iter()
                .chain(&replay.diagnostics)
                .filter(|d| d.is_error())
                .count()
        };
        if errors(new, &new_replay) > errors(old, &old_replay) {
            return Err(format!("would add an error to its game {}", number + 1));
        }
    }
    Ok(())
}

/// A stretch of a part's fixed text: kept from the original text (a range of it), or
/// written by a fix.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Kept(Range<usize>),
    Added(String),
}

impl Piece {
    fn len(&self) -> usize {
        match self {
            Piece::Kept(range) => range.len(),
            Piece::Added(text) => text.len(),
        }
    }
}

/// The pieces of the text that `picked` (ranges of the text `pieces` make, `len` bytes
/// long, in order and apart) makes of it.
fn splice(pieces: &[Piece], picked: &[(Range<usize>, &str)], len: usize) -> Vec<Piece> {
    let starts: Vec<usize> = pieces
        .iter()
        .scan(0, |at, piece| {
            let start = *at;
            *at += piece.len();
            Some(start)
        })
        .collect();
    let mut out = Vec::with_capacity(pieces.len() + 2 * picked.len());
    let mut at = 0;
    for (range, replacement) in picked {
        slice(pieces, &starts, at..range.start, &mut out);
        if !replacement.is_empty() {
            out.push(Piece::Added((*replacement).to_owned()));
        }
        at = range.end;
    }
    slice(pieces, &starts, at..len, &mut out);
    out
}

/// Appends the pieces of `range` of the text that `pieces` (starting at `starts`) make.
fn slice(pieces: &[Piece], starts: &[usize], range: Range<usize>, out: &mut Vec<Piece>) {
    if range.is_empty() {
        return;
    }
    let mut i = starts
        .partition_point(|&s| s <= range.start)
        .saturating_sub(1);
    while i < pieces.len() && starts[i] < range.end {
        let start = starts[i];
        let from = range.start.max(start) - start;
        let to = range.end.min(start + pieces[i].len()) - start;
        if from < to {
            out.push(match &pieces[i] {
                Piece::Kept(kept) => Piece::Kept(kept.start + from..kept.start + to),
                Piece::Added(text) => Piece::Added(text[from..to].to_owned()),
            });
        }
        i += 1;
    }
}

/// The bytes of the fixed part: what was kept copied from `original` (the bytes `text`
/// was read from), what fixes wrote encoded as the part was.
fn write_back(
    pieces: &[Piece],
    text: &str,
    original: &[u8],
    encoding: Encoding,
) -> Result<Vec<u8>, FixError> {
    let mut bytes = Vec::with_capacity(original.len() + 256);
    // Kept pieces come in the order of the text: its offsets are turned into offsets of
    // the bytes by counting on from the last one.
    let (mut text_at, mut raw_at) = (0, 0);
    let mut raw_offset = |offset: usize| {
        raw_at += raw_len(&text[text_at..offset], encoding);
        text_at = offset;
        raw_at
    };
    for piece in pieces {
        match piece {
            Piece::Kept(range) => {
                let start = raw_offset(range.start);
                let end = raw_offset(range.end);
                bytes.extend_from_slice(&original[start..end]);
            }
            Piece::Added(new) => {
                let encoded = encoding.encode(new).ok_or_else(|| {
                    FixError::Refused(format!(
                        "a fix writes `{}`, which {} cannot hold: not fixed",
                        new.trim(),
                        encoding.name()
                    ))
                })?;
                bytes.extend_from_slice(&encoded);
            }
        }
    }
    Ok(bytes)
}

/// How many bytes of the file `text` was read from (UTF-16 is never written back).
fn raw_len(text: &str, encoding: Encoding) -> usize {
    match encoding {
        Encoding::Windows1252 { .. } => text
            .chars()
            .map(|c| if c == '\u{feff}' { 3 } else { 1 })
            .sum(),
        _ => text.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_follow_fixes_across_rounds() {
        let text = "abcdefgh";
        let first = [(1..3, "XY"), (5..5, "+")];
        let pieces = splice(&[Piece::Kept(0..8)], &first, 8);
        let current = splice_text(text, &first);
        assert_eq!(current, "aXYde+fgh");
        let second = [(2..5, ""), (6..9, "Z")];
        let pieces = splice(&pieces, &second, current.len());
        let current = splice_text(&current, &second);
        assert_eq!(current, "aX+Z");
        assert_eq!(
            pieces,
            [
                Piece::Kept(0..1),
                Piece::Added("X".into()),
                Piece::Added("+".into()),
                Piece::Added("Z".into())
            ]
        );
        let written = write_back(&pieces, text, text.as_bytes(), Encoding::Utf8).unwrap();
        assert_eq!(written, current.as_bytes());
    }

    #[test]
    fn kept_windows_1252_bytes_are_copied_and_new_text_encoded() {
        let original = b"\xEF\xBB\xBFCaf\xE9 \x81 e4";
        let (text, encoding) = decode(original, 0);
        let at = text.find("e4").unwrap();
        let pieces = splice(
            &[Piece::Kept(0..text.len())],
            &[(at..at + 2, "é5")],
            text.len(),
        );
        let written = write_back(&pieces, &text, original, encoding).unwrap();
        assert_eq!(written, b"\xEF\xBB\xBFCaf\xE9 \x81 \xE95");
        let refused = splice(&[Piece::Kept(0..text.len())], &[(at..at, "Ж")], text.len());
        assert!(matches!(
            write_back(&refused, &text, original, encoding),
            Err(FixError::Refused(_))
        ));
    }
}
