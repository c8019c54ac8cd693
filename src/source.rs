//! Bytes in: command-line paths to inputs, transparent decompression, decoding, and
//! splitting a PGN stream into chunks of whole games so a file of any size streams.

use crate::scan::{LOW, below, equal, find};
use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
    Bzip2,
}

impl Compression {
    /// What the first bytes of a stream say it is compressed with, whatever its name:
    /// `xpgn check - < games.pgn.zst` and a gzip file named `games.pgn` are read as what
    /// they hold.
    pub fn of(head: &[u8]) -> Compression {
        match head {
            [0x1F, 0x8B, ..] => Compression::Gzip,
            [0x28, 0xB5, 0x2F, 0xFD, ..] => Compression::Zstd,
            [b'B', b'Z', b'h', b'1'..=b'9', ..] => Compression::Bzip2,
            _ => Compression::None,
        }
    }
}

/// The bytes [`Compression::of`] looks at.
const MAGIC_BYTES: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    Pgn,
    /// A forum thread (`spec/notation.md` section 6).
    Transcript,
    /// Game documents as `xpgn convert --to json` writes them.
    Json,
    /// Game documents as `xpgn convert --to yaml` writes them.
    Yaml,
}

/// One thing to read: a file or standard input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The name as the user gave it (`-` for standard input).
    pub display: String,
    /// `None` for standard input.
    pub path: Option<PathBuf>,
    pub compression: Compression,
    pub format: InputFormat,
}

impl Input {
    pub fn stdin(format: InputFormat) -> Input {
        Input {
            display: "-".to_owned(),
            path: None,
            compression: Compression::None,
            format,
        }
    }

    /// Format from the name (`games.pgn.gz`, `thread.txt`, ...); compression from the
    /// first bytes of a regular file, else from the name (a pipe's bytes would be used
    /// up; a file that cannot be read says why when it is opened).
    pub fn from_path(path: &Path) -> Input {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let (named, stem) = [
            (".gz", Compression::Gzip),
            (".zst", Compression::Zstd),
            (".bz2", Compression::Bzip2),
        ]
        .into_iter()
        .find_map(|(ext, c)| name.strip_suffix(ext).map(|stem| (c, stem)))
        .unwrap_or((Compression::None, name.as_str()));
        let compression = if std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            File::open(path)
                .and_then(|mut file| read_head(&mut file, MAGIC_BYTES))
                .map_or(named, |head| Compression::of(&head))
        } else {
            named
        };
        let format = if stem.ends_with(".txt") {
            InputFormat::Transcript
        } else if [".json", ".jsonl", ".ndjson"]
            .iter()
            .any(|e| stem.ends_with(e))
        {
            InputFormat::Json
        } else if stem.ends_with(".yaml") || stem.ends_with(".yml") {
            InputFormat::Yaml
        } else {
            InputFormat::Pgn
        };
        Input {
            display: path.display().to_string(),
            path: Some(path.to_owned()),
            compression,
            format,
        }
    }
}

/// A path that cannot be read.
#[cfg(feature = "cli")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SourceError {
    pub path: String,
    pub message: String,
}

#[cfg(feature = "cli")]
impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

#[cfg(feature = "cli")]
impl std::error::Error for SourceError {}

#[cfg(feature = "cli")]
const WALKED_SUFFIXES: [&str; 5] = [".pgn", ".pgn.gz", ".pgn.zst", ".pgn.bz2", ".txt"];

/// Expands command-line paths: `-` is standard input, a directory is walked (sorted by
/// name, symlinked directories not followed) for game files, and a named file is taken
/// whatever its extension. A path or folder that cannot be read is listed among the
/// errors and the walk goes on past it, so one unreadable entry leaves the rest checked.
#[cfg(feature = "cli")]
pub(crate) fn collect_inputs(
    paths: &[PathBuf],
    format_override: Option<InputFormat>,
) -> (Vec<Input>, Vec<SourceError>) {
    let mut inputs = Vec::new();
    let mut unreadable = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Input::stdin(format_override.unwrap_or(InputFormat::Pgn)));
            continue;
        }
        let metadata = match std::fs::metadata(path) {
            Ok(metadata) => metadata,
            Err(e) => {
                unreadable.push(SourceError {
                    path: path.display().to_string(),
                    message: e.to_string(),
                });
                continue;
            }
        };
        if metadata.is_dir() {
            for entry in walkdir::WalkDir::new(path).sort_by_file_name() {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(e) => {
                        unreadable.push(SourceError {
                            path: e.path().unwrap_or(path).display().to_string(),
                            message: e
                                .io_error()
                                .map_or_else(|| e.to_string(), ToString::to_string),
                        });
                        continue;
                    }
                };
                let name = entry.file_name().to_string_lossy().to_lowercase();
                if entry.file_type().is_file() && WALKED_SUFFIXES.iter().any(|s| name.ends_with(s))
                {
                    inputs.push(Input::from_path(entry.path()));
                }
            }
        } else {
            inputs.push(Input::from_path(path));
        }
    }
    if let Some(format) = format_override {
        for input in &mut inputs {
            input.format = format;
        }
    }
    (inputs, unreadable)
}

/// The most a settings file (`--config`, `--variant-file`) may hold: real ones are a few
/// KB, and `/dev/zero` or a mistyped path to a game archive must not fill the memory.
#[cfg(feature = "cli")]
pub(crate) const MAX_SETTINGS_BYTES: usize = 4 << 20;

/// Reads a settings file whole, refusing one of more than [`MAX_SETTINGS_BYTES`].
#[cfg(feature = "cli")]
pub(crate) fn read_settings_file(path: &Path) -> io::Result<String> {
    let mut bytes = Vec::new();
    File::open(path)?
        .take(MAX_SETTINGS_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > MAX_SETTINGS_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "it holds more than {} MiB, more than a settings file needs; name the YAML file meant",
                MAX_SETTINGS_BYTES >> 20
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "it is not UTF-8; save it as UTF-8",
        )
    })
}

/// Opens the input, decompressing what its first bytes say is compressed, and refuses
/// binary data: a NUL byte in its first 8000 bytes, as git decides.
pub fn open(input: &Input) -> io::Result<Box<dyn BufRead + Send>> {
    let mut raw: Box<dyn Read + Send> = match &input.path {
        Some(path) => Box::new(File::open(path)?),
        None => Box::new(io::stdin()),
    };
    // Read ahead and put back: standard input cannot be reopened.
    let magic = read_head(&mut raw, MAGIC_BYTES)?;
    let compression = Compression::of(&magic);
    let mut decoded = decompressed(compression, io::Cursor::new(magic).chain(raw))?;
    let head = read_head(&mut decoded, BINARY_SNIFF_BYTES)?;
    if let Some(at) = binary_at(&head) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "binary data (a NUL byte at byte {at}), not game text; skipped (xpgn reads PGN, transcripts and game documents, plain or gzip, zstd or bzip2 compressed)"
            ),
        ));
    }
    Ok(Box::new(BufReader::with_capacity(
        BLOCK,
        io::Cursor::new(head).chain(decoded),
    )))
}

/// `raw` read through the decoder `compression` names.
#[cfg(feature = "compression")]
fn decompressed(
    compression: Compression,
    raw: impl Read + Send + 'static,
) -> io::Result<Box<dyn Read + Send>> {
    Ok(match compression {
        Compression::None => Box::new(raw),
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(raw)),
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::new(raw)?),
        Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(raw)),
    })
}

/// Without the `compression` feature a compressed input is refused by what it is,
/// rather than read as binary data.
#[cfg(not(feature = "compression"))]
fn decompressed(
    compression: Compression,
    raw: impl Read + Send + 'static,
) -> io::Result<Box<dyn Read + Send>> {
    let name = match compression {
        Compression::None => return Ok(Box::new(raw)),
        Compression::Gzip => "gzip",
        Compression::Zstd => "zstd",
        Compression::Bzip2 => "bzip2",
    };
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        format!(
            "{name}-compressed input, and this xpgn was built without the `compression` feature"
        ),
    ))
}

/// Up to `len` bytes from the start of `reader`, fewer only at its end.
fn read_head(reader: &mut impl Read, len: usize) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(len);
    reader.take(len as u64).read_to_end(&mut head)?;
    Ok(head)
}

/// How much of an input's (decompressed) start is looked at for binary data: as git
/// decides.
const BINARY_SNIFF_BYTES: usize = 8000;

/// Where the first NUL byte of an input's start is, when that makes it binary (an
/// executable, an image, a database), as git and ripgrep decide: no text format xpgn
/// reads holds one. UTF-16 text, which has NULs in every ASCII character, starts with
/// its byte order mark and is not binary.
///
/// A binary input is an error (exit status 2), not a warning a run passes with: it was
/// named, or walked to as a game file, and none of its games were checked.
fn binary_at(head: &[u8]) -> Option<usize> {
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        return None;
    }
    memchr::memchr(0, head)
}

const BLOCK: usize = 64 * 1024;

/// Decoded text of whole games, many at a time: a file of short games would otherwise pay
/// for a string, a decoding and a parse per game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    pub text: String,
    /// Byte offset of `text` in the decoded file: the sum of the earlier chunks' lengths.
    /// For UTF-8 input this is the file offset; for Windows-1252 input it counts the
    /// UTF-8 the file decodes to.
    pub offset: usize,
    /// `text` cut at the game boundaries the splitter found, in order and without gaps.
    pub parts: Vec<Part>,
}

/// The text between two game boundaries: one game, or one and the tagless games after
/// it. Each part is read and shown on its own, so a diagnostic's excerpt never shows a
/// neighbouring game and a part that is not UTF-8 leaves the others as they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Byte range of the part in the chunk's `text`.
    pub range: std::ops::Range<usize>,
    /// 0-based line of the part's first character in the file.
    pub line: usize,
    /// How its bytes were read, which is how they are written back.
    pub encoding: Encoding,
    /// Bytes of the part past [`MAX_PART_BYTES`] that were skipped unread: the text holds
    /// only its start, to show where it is. 0 for a part read whole.
    pub skipped: usize,
}

/// The largest part (a game, or one and the tagless games after it) that is read. A
/// larger one keeps only its start and is reported as too large, the rest skipped as it
/// streams by, so that memory stays bounded whatever one game holds (a 100 MB comment, a
/// million tags): a game's tree takes up to about 30 times its text. The largest game of
/// the shared corpus is 0.25 MB; a game of 100,000 plies is 0.75 MB.
pub const MAX_PART_BYTES: usize = 1 << 20;

/// The most text a YAML document may hold, its indentation included.
const MAX_INDENTED_PART_BYTES: usize = 64 * MAX_PART_BYTES;

/// How much of a part that is too large is kept to show where it starts.
const KEPT_OF_SKIPPED: usize = 200;

impl Chunk {
    pub fn part_text(&self, part: &Part) -> &str {
        &self.text[part.range.clone()]
    }
}

/// Text a chunk is cut at once it holds this much (else at the end of what was read):
/// enough games to make the costs per chunk negligible (with `--jobs`, each chunk's result
/// wakes the thread that writes: `check --jobs 2` on engine.pgn's 38 MB switched threads
/// 5,700 times with chunks of 16 KB, 2,900 with these), few enough that the threads share
/// a file's chunks evenly and memory stays flat.
const CHUNK_BYTES: usize = 64 * 1024;

/// Where the scanner is, kept between refills so no byte is scanned twice.
#[derive(Clone, Copy, Debug, Default)]
struct ScanState {
    within: Within,
    /// At a line start, possibly after blanks.
    line_start: bool,
    /// The pending part holds movetext (a boundary may follow).
    movetext: bool,
    /// The last byte was `\r` (a following `\n` ends the same line).
    after_cr: bool,
    /// Line breaks in the pending part up to the scan position.
    lines: usize,
}

/// What the scan is inside of: one thing at most, so one field (fewer registers for the
/// scan loop to keep than a flag each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Within {
    #[default]
    Nothing,
    /// A `{}` comment, which may span lines.
    Brace,
    /// A tag line, skipped to its end (and the tag lines right after it).
    TagLine,
    /// A `;` comment or a `%` escape line, skipped to its end.
    RestOfLine,
}

/// Splits a PGN stream into chunks of parts at game boundaries: a line whose first
/// non-blank character is `[` (not inside a `{}` comment) after movetext starts a new
/// part.
pub struct PgnChunks<R: Read> {
    reader: R,
    /// Read but not yet yielded bytes are `pending[start..filled]`; the front is dropped
    /// only when refilling, so yielding a chunk never moves the rest of the block. Past
    /// `filled`, room that the next read fills in place (zeroed once, when it grows).
    pending: Vec<u8>,
    filled: usize,
    start: usize,
    /// Where the part being scanned starts in `pending`.
    part_start: usize,
    /// The parts of the next chunk found so far, as byte ranges relative to `start`.
    parts: Vec<Part>,
    scanned: usize,
    state: ScanState,
    offset: usize,
    /// 0-based file line of `part_start`.
    line: usize,
    /// Once the part being scanned has passed [`MAX_PART_BYTES`]: the length of its
    /// start that is kept.
    kept: Option<usize>,
    /// Bytes of the part being scanned dropped since then.
    skipped: usize,
    eof: bool,
}

impl<R: Read> PgnChunks<R> {
    pub fn new(reader: R) -> Self {
        PgnChunks {
            reader,
            pending: Vec::new(),
            filled: 0,
            start: 0,
            part_start: 0,
            parts: Vec::new(),
            scanned: 0,
            state: ScanState {
                line_start: true,
                ..ScanState::default()
            },
            offset: 0,
            line: 0,
            kept: None,
            skipped: 0,
            eof: false,
        }
    }

    /// Scans pending bytes, ending the parts of the chunk as it goes; returns the start of
    /// the next game when that ends the chunk or the part is too large.
    fn scan(&mut self) -> Option<usize> {
        let first_part = self.offset == 0 && self.parts.is_empty();
        let mut part_start = self.part_start;
        let bytes = &self.pending[..self.filled];
        // A copy in locals: the loop runs once or twice a line, and fields behind
        // `&mut self` would be written back to memory on every turn.
        let mut s = self.state;
        let mut i = self.scanned;
        let found = loop {
            let Some(&b) = bytes.get(i) else {
                break None;
            };
            if b == b'\n' || b == b'\r' {
                // A `\n` after `\r` ends the same line.
                if !(s.after_cr && b == b'\n') {
                    s.lines += 1;
                    if s.within != Within::Brace {
                        s.within = Within::Nothing;
                    }
                    s.line_start = true;
                }
                i += 1;
                // A `\r\n` is crossed in one turn, unless the read ends between the two.
                s.after_cr = b == b'\r';
                if s.after_cr && bytes.get(i) == Some(&b'\n') {
                    s.after_cr = false;
                    i += 1;
                }
                continue;
            }
            s.after_cr = false;
            if s.within == Within::Brace {
                if b == b'}' {
                    s.within = Within::Nothing;
                }
            } else if s.within != Within::Nothing {
            } else if s.line_start && (b == b' ' || b == b'\t') {
                i += 1;
                continue;
            } else if s.line_start && b == b'[' {
                if s.movetext {
                    let end = i - line_start_blanks(bytes, i);
                    if self.kept.is_some()
                        || end - part_start > MAX_PART_BYTES
                        || end - self.start >= CHUNK_BYTES
                    {
                        break Some(end);
                    }
                    // Ended here as `end_part` would, without leaving the loop: most
                    // games are a few lines.
                    self.parts.push(Part {
                        range: part_start - self.start..end - self.start,
                        line: self.line,
                        encoding: Encoding::Utf8,
                        skipped: 0,
                    });
                    self.line += s.lines;
                    part_start = end;
                    s = ScanState::default();
                }
                s.within = Within::TagLine;
            } else if s.line_start
                && b == b'%'
                && (i == part_start || matches!(bytes[i - 1], b'\n' | b'\r'))
            {
                s.within = Within::RestOfLine;
            } else if i == 0 && first_part && bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
                i += 3;
                s.line_start = true;
                continue;
            } else {
                match b {
                    b'{' => s.within = Within::Brace,
                    b';' => s.within = Within::RestOfLine,
                    _ => {}
                }
                if b != b' ' && b != b'\t' && b != b'\x0c' {
                    s.movetext = true;
                }
            }
            s.line_start = false;
            i += 1;
            // Inside a line or a comment only a few bytes matter: jump to the next one.
            let next = match s.within {
                Within::Brace => find(
                    bytes,
                    i,
                    |w| below(w, b'\r' + 1) | equal(w, b'}'),
                    |b| matches!(b, b'}' | b'\n' | b'\r'),
                ),
                Within::TagLine => {
                    // Tag lines come in runs: a `\n[` goes on to the next tag line in this
                    // turn (before movetext, a `[` at a line start opens a tag line).
                    // `\r\n[` too, for CRLF files.
                    // `find` stops at any byte up to `\r` (its first flag is sure); the
                    // match tells line breaks from the rest, each byte looked at once.
                    let mut from = i;
                    loop {
                        let found = find(bytes, from, |w| below(w, b'\r' + 1), |_| true);
                        let Some(n) = found else { break None };
                        match &bytes[n..] {
                            [b'\n', b'[', ..] => from = n + 2,
                            [b'\r', b'\n', b'[', ..] => from = n + 3,
                            [b'\n' | b'\r', ..] => break Some(n),
                            _ => {
                                from = n + 1;
                                continue;
                            }
                        }
                        s.lines += 1;
                    }
                }
                Within::RestOfLine => line_end(bytes, i),
                // A line without comments (most lines of most files) is crossed eight
                // bytes at a time; one with a comment, the rest of it at once.
                Within::Nothing if s.movetext => {
                    // `{` and `;` are the bytes that are `{` once bit 6 is set.
                    let found = find(
                        bytes,
                        i,
                        |w| below(w, b'\r' + 1) | equal(w | (LOW * 0x40), b'{'),
                        |b| matches!(b, b'\n' | b'\r' | b'{' | b';'),
                    );
                    match found {
                        Some(open) if bytes[open] == b'{' => {
                            Some(cross_movetext_comments(bytes, open, &mut s.within))
                        }
                        _ => found,
                    }
                }
                Within::Nothing => Some(i),
            };
            i = next.unwrap_or(bytes.len());
        };
        self.state = s;
        self.scanned = i;
        self.part_start = part_start;
        found
    }

    /// Ends the part being scanned at `end`; the scan state starts afresh for the next.
    fn end_part(&mut self, end: usize) {
        self.parts.push(Part {
            range: self.part_start - self.start..end - self.start,
            line: self.line,
            encoding: Encoding::Utf8,
            skipped: std::mem::take(&mut self.skipped),
        });
        self.kept = None;
        self.part_start = end;
        self.line += self.state.lines;
        self.state = ScanState {
            line_start: true,
            ..ScanState::default()
        };
    }

    /// Ends the part being scanned, grown past [`MAX_PART_BYTES`], after the last game
    /// that ends within that size: tagless games follow one another with no tag line to
    /// split at, and a megabyte of them is each game's to check, not one too large part.
    /// Only large parts pay for this second look, so the parts of ordinary files are
    /// those the scan finds. Returns whether a game ended there.
    fn end_tagless_game(&mut self) -> bool {
        let limit = self.scanned.min(self.part_start + MAX_PART_BYTES);
        let Some((end, lines)) = last_game_end(&self.pending[self.part_start..limit]) else {
            return false;
        };
        let end = self.part_start + end;
        self.state.lines = lines;
        self.end_part(end);
        // A result ends inside a line, and the scan goes on right after it.
        self.state.line_start = false;
        self.scanned = end;
        true
    }

    fn take_chunk(&mut self) -> Chunk {
        let bytes = self.pending[self.start..self.part_start].to_vec();
        self.start = self.part_start;
        // The next chunk's list as long as this one's: grown from empty, it was copied
        // eight times a chunk of short games.
        let next_parts = Vec::with_capacity(self.parts.len());
        let parts = std::mem::replace(&mut self.parts, next_parts);
        let chunk = decode_parts(bytes, parts, self.offset);
        let skipped: usize = chunk.parts.iter().map(|p| p.skipped).sum();
        self.offset += chunk.text.len() + skipped;
        chunk
    }

    /// Drops what was scanned of a part that is too large past its kept start (up to
    /// `until`, the next part's start, or all that was scanned); the scan state goes on,
    /// so the next game is found as if nothing had been dropped.
    fn skip_scanned(&mut self, kept: usize, until: usize) -> usize {
        let kept_end = self.part_start + kept;
        let cut = until.max(kept_end);
        self.pending.copy_within(cut..self.filled, kept_end);
        self.filled -= cut - kept_end;
        self.skipped += cut - kept_end;
        self.scanned -= cut - kept_end;
        until.min(kept_end)
    }
}

impl<R: Read> Iterator for PgnChunks<R> {
    type Item = io::Result<Chunk>;

    fn next(&mut self) -> Option<io::Result<Chunk>> {
        loop {
            if let Some(end) = self.scan() {
                if self.kept.is_none()
                    && end - self.part_start > MAX_PART_BYTES
                    && self.end_tagless_game()
                {
                    return Some(Ok(self.take_chunk()));
                }
                if self.kept.is_none() && end - self.part_start > MAX_PART_BYTES {
                    self.kept = Some(kept_len(&self.pending[self.part_start..end]));
                }
                if let Some(kept) = self.kept {
                    let end = self.skip_scanned(kept, end);
                    self.end_part(end);
                    // The skipped bytes are in no chunk's text: the next chunk's offset
                    // counts them, so no part may follow this one in its chunk.
                    return Some(Ok(self.take_chunk()));
                }
                self.end_part(end);
                if end - self.start >= CHUNK_BYTES {
                    return Some(Ok(self.take_chunk()));
                }
                continue;
            }
            if self.kept.is_none() && self.scanned - self.part_start > MAX_PART_BYTES {
                if self.end_tagless_game() {
                    return Some(Ok(self.take_chunk()));
                }
                self.kept = Some(kept_len(&self.pending[self.part_start..self.filled]));
            }
            if let Some(kept) = self.kept {
                self.skip_scanned(kept, self.scanned);
            }
            if self.eof {
                if self.part_start < self.filled {
                    self.end_part(self.filled);
                }
                if self.parts.is_empty() {
                    return None;
                }
                return Some(Ok(self.take_chunk()));
            }
            if !self.parts.is_empty() {
                // Yielded before refilling, so that the refill moves at most one game.
                return Some(Ok(self.take_chunk()));
            }
            if self.start > 0 {
                self.pending.copy_within(self.start..self.filled, 0);
                self.filled -= self.start;
                self.scanned -= self.start;
                self.part_start -= self.start;
                self.start = 0;
            }
            // A whole block of room: a `BufReader` then reads into it directly instead of
            // through its own buffer.
            if self.pending.len() < self.filled + BLOCK {
                self.pending.resize(self.filled + BLOCK, 0);
            }
            match self.reader.read(&mut self.pending[self.filled..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// From a `{` that opens a comment in a line of movetext, the next byte the scan must
/// look at: the line's end (or the end of what was read), with `within` saying whether
/// a comment is still open there, or a `;` outside comments, which comments out the
/// rest of the line. Inside a line of movetext only braces and `;` matter, so the line
/// is crossed by `memchr` (many bytes a step) rather than comment by comment: a line
/// of chess.com movetext has a clock comment after every move.
fn cross_movetext_comments(bytes: &[u8], open: usize, within: &mut Within) -> usize {
    let end = memchr::memchr2(b'\n', b'\r', &bytes[open..]).map_or(bytes.len(), |n| open + n);
    // `from` is a `{` outside comments.
    let mut from = open;
    loop {
        let semicolon = memchr::memchr(b';', &bytes[from..end]).map_or(end, |n| from + n);
        // Found: `bytes[from]` is one.
        let last_brace =
            memchr::memrchr2(b'{', b'}', &bytes[from..semicolon]).map_or(from, |n| from + n);
        if bytes[last_brace] == b'}' {
            return semicolon;
        }
        // A comment is open at `semicolon`: to the line's end, or past the `;` in it.
        let close = memchr::memchr(b'}', &bytes[semicolon..end]).map(|n| semicolon + n);
        let Some(close) = close.filter(|_| semicolon < end) else {
            *within = Within::Brace;
            return end;
        };
        match memchr::memchr2(b'{', b';', &bytes[close + 1..end]).map(|n| close + 1 + n) {
            Some(next) if bytes[next] == b'{' => from = next,
            Some(semicolon) => return semicolon,
            None => return end,
        }
    }
}

/// The next `\n` or `\r` from `from` on.
#[inline(always)]
fn line_end(bytes: &[u8], from: usize) -> Option<usize> {
    find(
        bytes,
        from,
        |w| below(w, b'\r' + 1),
        |b| b == b'\n' || b == b'\r',
    )
}

/// In the text of a part, the end of the last game a result token (`1-0`, `0-1`,
/// `1/2-1/2`, `*`) ends outside comments, tag lines, escape lines and variations, with
/// the line breaks before it; the token must be followed by a delimiter, so that one cut
/// by the end of `bytes` is not taken for a whole one.
fn last_game_end(bytes: &[u8]) -> Option<(usize, usize)> {
    let is_delimiter =
        |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'(' | b')' | b'{' | b';');
    let mut found = None;
    let mut lines = 0;
    let mut depth = 0usize;
    let mut line_start = true;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let skip_to = match b {
            b'\n' | b'\r' => {
                if !(b == b'\n' && i > 0 && bytes[i - 1] == b'\r') {
                    lines += 1;
                }
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' => {
                i += 1;
                continue;
            }
            b'{' => {
                let end = memchr::memchr(b'}', &bytes[i..]).map_or(bytes.len(), |n| i + n + 1);
                lines += line_breaks_in(&bytes[i..end]);
                end
            }
            b';' => line_end(bytes, i).unwrap_or(bytes.len()),
            b'%' | b'[' if line_start => line_end(bytes, i).unwrap_or(bytes.len()),
            b'(' => {
                depth += 1;
                i + 1
            }
            b')' => {
                depth = depth.saturating_sub(1);
                i + 1
            }
            _ => {
                let end = bytes[i..]
                    .iter()
                    .position(is_delimiter)
                    .map_or(bytes.len(), |n| i + n);
                if depth == 0
                    && end < bytes.len()
                    && matches!(&bytes[i..end], b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
                {
                    found = Some((end, lines));
                }
                end
            }
        };
        line_start = false;
        i = skip_to;
    }
    found
}

/// Line breaks in `bytes`, a `\r\n` counting once.
fn line_breaks_in(bytes: &[u8]) -> usize {
    let mut count = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\r' || (b == b'\n' && (i == 0 || bytes[i - 1] != b'\r')) {
            count += 1;
        }
    }
    count
}

/// How much of a part that is too large is kept to show where it starts: its first line,
/// at most [`KEPT_OF_SKIPPED`] bytes of it, not cut inside a UTF-8 sequence.
fn kept_len(part: &[u8]) -> usize {
    let mut end = part.len().min(KEPT_OF_SKIPPED);
    if let Some(line_end) = memchr::memchr2(b'\n', b'\r', &part[..end]) {
        end = line_end;
    }
    while end > 0 && end < part.len() && part[end] & 0xC0 == 0x80 {
        end -= 1;
    }
    end
}

/// Blanks between the line start and position `i`.
fn line_start_blanks(bytes: &[u8], i: usize) -> usize {
    bytes[..i]
        .iter()
        .rev()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count()
}

/// Splits a stream of game documents (JSON or YAML, as `xpgn convert` writes them) into
/// chunks of parts of one document each, so that the size limit holds per document and
/// a file of any number of them streams. A JSON document ends at the end of the line
/// where its braces close; a line starting with `{` while one is still open starts the
/// next one (the open one is malformed, and is reported so). A YAML document starts at
/// a `---` line.
pub struct DocumentChunks<R: BufRead> {
    reader: R,
    yaml: bool,
    /// The text of the chunk being read: its parts, then the part being read.
    bytes: Vec<u8>,
    parts: Vec<Part>,
    part_start: usize,
    /// 0-based file line of `part_start`, and the line breaks read since.
    line: usize,
    part_lines: usize,
    /// The part being read holds more than blanks.
    content: bool,
    /// Bytes of the part being read that count towards [`MAX_PART_BYTES`].
    counted: usize,
    /// JSON brackets open at the end of what was read of the part.
    depth: usize,
    /// Bytes of the part being read dropped past [`MAX_PART_BYTES`].
    skipped: usize,
    offset: usize,
    /// A line that starts the next chunk's first part.
    carried: Option<(Vec<u8>, usize)>,
    eof: bool,
}

impl<R: BufRead> DocumentChunks<R> {
    pub fn new(reader: R, yaml: bool) -> Self {
        DocumentChunks {
            reader,
            yaml,
            bytes: Vec::new(),
            parts: Vec::new(),
            part_start: 0,
            line: 0,
            part_lines: 0,
            content: false,
            counted: 0,
            depth: 0,
            skipped: 0,
            offset: 0,
            carried: None,
            eof: false,
        }
    }

    /// The next line, of which at most [`MAX_PART_BYTES`] and a byte are kept, with its
    /// whole length; an empty line at the end of the input.
    fn read_line(&mut self) -> io::Result<(Vec<u8>, usize)> {
        let mut line = Vec::new();
        (&mut self.reader)
            .take(MAX_PART_BYTES as u64 + 1)
            .read_until(b'\n', &mut line)?;
        let mut len = line.len();
        if len > MAX_PART_BYTES && !line.ends_with(b"\n") {
            // The rest of an overlong line, counted and dropped a block at a time.
            loop {
                let buffer = self.reader.fill_buf()?;
                if buffer.is_empty() {
                    break;
                }
                let (used, ended) = match memchr::memchr(b'\n', buffer) {
                    Some(n) => (n + 1, true),
                    None => (buffer.len(), false),
                };
                self.reader.consume(used);
                len += used;
                if ended {
                    line.push(b'\n');
                    break;
                }
            }
        }
        Ok((line, len))
    }

    /// Whether `line` starts a new document rather than going on with the open one.
    fn starts_document(&self, line: &[u8]) -> bool {
        if self.yaml {
            line.starts_with(b"---") && matches!(line.get(3), None | Some(b' ' | b'\n' | b'\r'))
        } else {
            line.first() == Some(&b'{') && (self.depth > 0 || self.skipped > 0)
        }
    }

    /// Adds a line (`len` bytes long in the input) to the part being read.
    fn add_line(&mut self, line: &[u8], len: usize) {
        self.part_lines += line_breaks_in(line);
        if self.skipped > 0 {
            self.skipped += len;
            return;
        }
        let part_len = self.bytes.len() - self.part_start + len;
        // YAML indents each level of a document, and nested variations indent more and
        // more: indentation does not count (what the parser builds is as large as the
        // rest), up to a bound on the text held.
        let indentation = if self.yaml {
            line.iter().take_while(|&&b| b == b' ').count()
        } else {
            0
        };
        self.counted += len - indentation;
        if self.counted > MAX_PART_BYTES || part_len > MAX_INDENTED_PART_BYTES {
            // Only the part's first line is kept, at most `KEPT_OF_SKIPPED` bytes of it.
            self.bytes
                .extend_from_slice(&line[..line.len().min(KEPT_OF_SKIPPED)]);
            let kept = kept_len(&self.bytes[self.part_start..]);
            self.skipped = part_len - kept;
            self.bytes.truncate(self.part_start + kept);
            return;
        }
        self.bytes.extend_from_slice(line);
        self.content |= line.iter().any(|b| !b.is_ascii_whitespace());
        if !self.yaml {
            let mut in_string = false;
            let mut escaped = false;
            for &b in line {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' if in_string => escaped = true,
                    b'"' => in_string = !in_string,
                    b'{' | b'[' if !in_string => self.depth += 1,
                    b'}' | b']' if !in_string => self.depth = self.depth.saturating_sub(1),
                    _ => {}
                }
            }
        }
    }

    fn end_part(&mut self) {
        self.parts.push(Part {
            range: self.part_start..self.bytes.len(),
            line: self.line,
            encoding: Encoding::Utf8,
            skipped: std::mem::take(&mut self.skipped),
        });
        self.part_start = self.bytes.len();
        self.line += std::mem::take(&mut self.part_lines);
        self.content = false;
        self.counted = 0;
        self.depth = 0;
    }

    fn take_chunk(&mut self) -> Chunk {
        let parts = std::mem::take(&mut self.parts);
        let skipped: usize = parts.iter().map(|p| p.skipped).sum();
        self.part_start = 0;
        let chunk = decode_parts(std::mem::take(&mut self.bytes), parts, self.offset);
        self.offset += chunk.text.len() + skipped;
        chunk
    }
}

impl<R: BufRead> Iterator for DocumentChunks<R> {
    type Item = io::Result<Chunk>;

    fn next(&mut self) -> Option<io::Result<Chunk>> {
        loop {
            let (line, len) = match self.carried.take() {
                Some(carried) => carried,
                None if self.eof => (Vec::new(), 0),
                None => match self.read_line() {
                    Ok(read) => read,
                    Err(e) => return Some(Err(e)),
                },
            };
            if len == 0 {
                self.eof = true;
                if self.bytes.len() > self.part_start || self.skipped > 0 {
                    self.end_part();
                }
                return (!self.parts.is_empty()).then(|| Ok(self.take_chunk()));
            }
            if self.starts_document(&line) && (self.content || self.skipped > 0) {
                // The skipped bytes are in no chunk's text: the next chunk's offset
                // counts them, so no part may follow this one in its chunk.
                let last_of_chunk = self.skipped > 0;
                self.end_part();
                if last_of_chunk || self.bytes.len() >= CHUNK_BYTES {
                    self.carried = Some((line, len));
                    return Some(Ok(self.take_chunk()));
                }
            }
            self.add_line(&line, len);
            if !self.yaml && self.content && self.depth == 0 && self.skipped == 0 {
                self.end_part();
                if self.bytes.len() >= CHUNK_BYTES {
                    return Some(Ok(self.take_chunk()));
                }
            }
        }
    }
}

/// A transcript is one game: the whole input as one chunk of one part, of which at most
/// [`MAX_PART_BYTES`] are read (a larger one keeps only its start, as a PGN part does).
pub fn read_whole(mut reader: impl BufRead) -> io::Result<Chunk> {
    let mut bytes = Vec::new();
    (&mut reader)
        .take(MAX_PART_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    let mut skipped = 0;
    if bytes.len() > MAX_PART_BYTES {
        let kept_end = kept_len(&bytes);
        skipped = bytes.len() - kept_end + io::copy(&mut reader, &mut io::sink())? as usize;
        bytes.truncate(kept_end);
    }
    let whole = Part {
        range: 0..bytes.len(),
        line: 0,
        encoding: Encoding::Utf8,
        skipped,
    };
    Ok(decode_parts(bytes, vec![whole], 0))
}

/// Decodes the parts of a chunk. A chunk is nearly always UTF-8 and checked as a whole;
/// otherwise each part is decoded on its own, so that only the parts that are not UTF-8
/// are read as Windows-1252, as they would be if each part were a chunk.
fn decode_parts(bytes: Vec<u8>, mut parts: Vec<Part>, offset: usize) -> Chunk {
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let bytes = e.into_bytes();
            let mut text = String::with_capacity(bytes.len());
            for part in &mut parts {
                let start = text.len();
                let (decoded, encoding) = decode(&bytes[part.range.clone()], part.line);
                text.push_str(&decoded);
                part.range = start..text.len();
                part.encoding = encoding;
            }
            text
        }
    };
    Chunk {
        text,
        offset,
        parts,
    }
}

/// How the bytes of a part were read, and so how its text is written back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    #[default]
    Utf8,
    /// A part that is not valid UTF-8, even by one stray byte: each byte is read as its
    /// Windows-1252 character (all 256 have one, and each character has one byte), so the
    /// text goes back to exactly the bytes it came from. A UTF-8 byte order mark at the
    /// part's start stays one (U+FEFF). `line`: the 0-based file line of the first byte
    /// that is not UTF-8.
    Windows1252 { line: usize },
    /// A file that starts with the UTF-16 byte order mark `FF FE`, transcoded to UTF-8
    /// as it is read (every part of it).
    Utf16Le,
    /// A file that starts with `FE FF`.
    Utf16Be,
}

/// The UTF-8 byte order mark.
const UTF8_BOM: &[u8] = &[0xEF, 0xBB, 0xBF];

impl Encoding {
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Windows1252 { .. } => "Windows-1252",
            Encoding::Utf16Le => "UTF-16LE",
            Encoding::Utf16Be => "UTF-16BE",
        }
    }

    /// The bytes `text` is written as, or `None` when some character has no bytes in
    /// this encoding. UTF-16 is never written: its parts are transcoded as they stream
    /// and do not know their place in the file's bytes.
    pub fn encode(self, text: &str) -> Option<Cow<'_, [u8]>> {
        match self {
            Encoding::Utf8 => Some(Cow::Borrowed(text.as_bytes())),
            Encoding::Windows1252 { .. } => {
                let (bom, rest) = match text.strip_prefix('\u{feff}') {
                    Some(rest) => (UTF8_BOM, rest),
                    None => (&[][..], text),
                };
                let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(rest);
                if unmappable {
                    return None;
                }
                Some(if bom.is_empty() {
                    bytes
                } else {
                    Cow::Owned([bom, &bytes].concat())
                })
            }
            Encoding::Utf16Le | Encoding::Utf16Be => None,
        }
    }
}

/// UTF-8 when valid; otherwise Windows-1252 (see [`Encoding::Windows1252`]). `first_line`
/// is the file line the bytes start on.
pub fn decode(bytes: &[u8], first_line: usize) -> (Cow<'_, str>, Encoding) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (Cow::Borrowed(text), Encoding::Utf8),
        Err(e) => {
            let bad = e.valid_up_to();
            let line =
                first_line + crate::span::line_breaks(&String::from_utf8_lossy(&bytes[..bad]));
            // Without the byte order mark sniffing of `Encoding::decode`, which would read
            // a UTF-8 or UTF-16 mark as a switch to that encoding.
            let (bom, rest) = match bytes.strip_prefix(UTF8_BOM) {
                Some(rest) => ("\u{feff}", rest),
                None => ("", bytes),
            };
            let text = encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(rest)
                .0
                .into_owned();
            (
                Cow::Owned(format!("{bom}{text}")),
                Encoding::Windows1252 { line },
            )
        }
    }
}

/// Transcodes a UTF-16 stream (told by its byte order mark, which is dropped) to UTF-8,
/// so that the splitter, which looks for ASCII bytes, reads it as any other. Returns
/// the reader to read and the encoding of the whole file (`Utf8` for anything else,
/// whose parts are decoded on their own).
pub fn transcode_utf16(
    mut reader: Box<dyn BufRead + Send>,
) -> io::Result<(Box<dyn BufRead + Send>, Encoding)> {
    let (encoding, utf16) = match reader.fill_buf()? {
        [0xFF, 0xFE, ..] => (Encoding::Utf16Le, encoding_rs::UTF_16LE),
        [0xFE, 0xFF, ..] => (Encoding::Utf16Be, encoding_rs::UTF_16BE),
        _ => return Ok((reader, Encoding::Utf8)),
    };
    let decoded = encoding_rs_io::DecodeReaderBytesBuilder::new()
        .encoding(Some(utf16))
        .strip_bom(true)
        .build(reader);
    Ok((Box::new(BufReader::with_capacity(BLOCK, decoded)), encoding))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(bytes: &[u8]) -> Vec<Chunk> {
        PgnChunks::new(bytes).map(Result::unwrap).collect()
    }

    fn parts(bytes: &[u8]) -> Vec<(String, usize, usize, Encoding)> {
        parts_read_by(64 * 1024, bytes)
    }

    fn texts(bytes: &[u8]) -> Vec<String> {
        parts(bytes).into_iter().map(|(text, ..)| text).collect()
    }

    #[test]
    fn games_split_at_tag_lines_after_movetext() {
        assert_eq!(
            texts(b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n1. d4 0-1\n"),
            [
                "[Event \"a\"]\n\n1. e4 1-0\n\n",
                "[Event \"b\"]\n1. d4 0-1\n"
            ]
        );
        assert_eq!(
            texts(b"[Event \"a\"]\n1. e4 1-0\n  [Event \"b\"]\n*"),
            ["[Event \"a\"]\n1. e4 1-0\n", "  [Event \"b\"]\n*"]
        );
    }

    #[test]
    fn brackets_in_comments_tags_and_escapes_do_not_split() {
        assert_eq!(texts(b"1. e4 {see\n[Event x] here} *\n").len(), 1);
        assert_eq!(texts(b"[Event \"a {b\"]\n[Site \"c\"]\n1. e4 *\n").len(), 1);
        assert_eq!(texts(b"1. e4 ; {\n[Event \"b\"]\n*").len(), 2);
        assert_eq!(texts(b"% header\n[Event \"a\"]\n*").len(), 1);
    }

    /// Each text splits in two, the second part starting on line 3 (0-based), however
    /// small the reads.
    fn assert_second_part_on_line_3(texts: [&[u8]; 2], reads: [usize; 2]) {
        for text in texts {
            let whole = parts(text);
            assert_eq!(whole.len(), 2);
            assert_eq!(whole[1].2, 3);
            for read in reads {
                assert_eq!(parts_read_by(read, text), whole);
            }
        }
    }

    #[test]
    fn a_brace_comment_outlasts_its_lines_and_a_line_comment_ends_with_its_line() {
        assert_second_part_on_line_3(
            [
                b"1. e4 {a\n;b\n[X] } e5 ; [\n[Event \"b\"]\n%x\n*",
                b"1. e4 {a\r\n;b\r\n[X] } e5 ; [\r\n[Event \"b\"]\r\n%x\r\n*",
            ],
            [1, 3],
        );
    }

    #[test]
    fn comments_closed_on_their_line_are_crossed_whole() {
        // What a comment closed on its own line holds (`;`, `[`, `{`) changes nothing; one
        // still open at the line's end holds the tag line after it.
        assert_second_part_on_line_3(
            [
                b"1. e4 {[%clk 0:10:00]} e5 {;} {{[} \n2. Nf3 {a\n[Event \"x\"]} *\n[Event \"b\"]\n*",
                b"1. e4 {[%clk 0:10:00]} e5 {;} {{[} \r\n2. Nf3 {a\r\n[Event \"x\"]} *\r\n[Event \"b\"]\r\n*",
            ],
            [1, 7],
        );
    }

    /// Where each part after the first starts, found a byte at a time by the rule the
    /// splitter's fast paths must keep: a line whose first non-blank character is `[`,
    /// outside a `{}` comment, after movetext.
    fn part_starts_byte_by_byte(bytes: &[u8]) -> Vec<usize> {
        let mut starts = Vec::new();
        let (mut within, mut line_start, mut movetext) = (Within::Nothing, true, false);
        let mut blanks = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' || b == b'\r' {
                if within != Within::Brace {
                    within = Within::Nothing;
                }
                (line_start, blanks) = (true, 0);
                continue;
            }
            match within {
                Within::Brace if b == b'}' => within = Within::Nothing,
                Within::Nothing if line_start && (b == b' ' || b == b'\t') => {
                    blanks += 1;
                    continue;
                }
                Within::Nothing if line_start && b == b'[' => {
                    if movetext {
                        starts.push(i - blanks);
                        movetext = false;
                    }
                    within = Within::TagLine;
                }
                Within::Nothing if line_start && b == b'%' && blanks == 0 => {
                    within = Within::RestOfLine;
                }
                Within::Nothing => {
                    match b {
                        b'{' => within = Within::Brace,
                        b';' => within = Within::RestOfLine,
                        _ => {}
                    }
                    movetext |= !matches!(b, b' ' | b'\t' | b'\x0c');
                }
                _ => {}
            }
            line_start = false;
        }
        starts
    }

    proptest::proptest! {
        #[test]
        fn the_split_is_the_byte_by_byte_rule_however_the_text_is_read(
            bytes in proptest::collection::vec(
                proptest::sample::select(b"{{}};;[[%\n\r ae\t".to_vec()),
                0..300,
            ),
            read in 1usize..40,
        ) {
            let starts = part_starts_byte_by_byte(&bytes);
            for capacity in [read, 64 * 1024] {
                let found: Vec<usize> =
                    parts_read_by(capacity, &bytes).iter().skip(1).map(|part| part.1).collect();
                proptest::prop_assert_eq!(&found, &starts);
            }
        }
    }

    #[test]
    fn a_tab_in_a_tag_line_neither_ends_it_nor_its_run() {
        assert_second_part_on_line_3(
            [
                b"[A \"x\ty\"]\n[B \"\x0c\"]\n1. e4 *\n[C \"3\"]\n*",
                b"[A \"x\ty\"]\r\n[B \"\x0c\"]\r\n1. e4 *\r\n[C \"3\"]\r\n*",
            ],
            [1, 5],
        );
    }

    #[test]
    fn offsets_and_lines_across_line_break_styles_and_tiny_reads() {
        for text in [
            &b"[A \"1\"]\r\n1. e4 *\r\n[B \"2\"]\r\n*"[..],
            b"[A \"1\"]\r1. e4 *\r[B \"2\"]\r*",
            b"[A \"1\"]\n1. e4 *\n[B \"2\"]\n*",
            // A lone `\r` after LF lines, and a CRLF tag run.
            b"[A \"1\"]\n1. e4 {c} e5\r[B \"2\"]\r\n[C \"3\"]\n1. d4 {x}\r\n*",
        ] {
            let whole = parts(text);
            assert_eq!(whole.len(), 2);
            assert_eq!(whole[1].2, 2);
            assert_eq!(whole[1].1, whole[0].0.len());
            assert_eq!(parts_read_by(1, text), whole);
        }
    }

    /// Gives at most `size` bytes a read, as a pipe may.
    struct Trickle<'a> {
        bytes: &'a [u8],
        size: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.size).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// Every part of every chunk read `capacity` bytes at a time: its text, file offset,
    /// file line and first line that is not UTF-8.
    fn parts_read_by(capacity: usize, bytes: &[u8]) -> Vec<(String, usize, usize, Encoding)> {
        PgnChunks::new(Trickle {
            bytes,
            size: capacity,
        })
        .map(Result::unwrap)
        .flat_map(|chunk| {
            let offset = chunk.offset;
            chunk
                .parts
                .iter()
                .map(|part| {
                    let text = chunk.part_text(part).to_owned();
                    (text, offset + part.range.start, part.line, part.encoding)
                })
                .collect::<Vec<_>>()
        })
        .collect()
    }

    #[test]
    fn many_games_share_a_chunk_and_chunks_follow_each_other() {
        let game = b"[Event \"a\"]\r\n1. e4 *\r\n\n";
        let text = game.repeat(3 * CHUNK_BYTES / game.len());
        let all = chunks(&text);
        assert!(all.len() > 1 && all.len() < text.len() / game.len() / 10);
        let mut offset = 0;
        let mut line = 0;
        for chunk in &all {
            assert_eq!(chunk.offset, offset);
            offset += chunk.text.len();
            assert_eq!(chunk.parts.first().map(|p| p.range.start), Some(0));
            assert_eq!(
                chunk.parts.last().map(|p| p.range.end),
                Some(chunk.text.len())
            );
            for (part, next) in chunk.parts.iter().zip(&chunk.parts[1..]) {
                assert_eq!(part.range.end, next.range.start);
            }
            for part in &chunk.parts {
                assert_eq!(chunk.part_text(part).as_bytes(), game);
                assert_eq!(part.line, line);
                line += 3;
            }
        }
        assert_eq!(offset, text.len());
        assert_eq!(parts_read_by(7, &text), parts(&text));
    }

    #[test]
    fn a_part_past_the_limit_keeps_its_start_and_later_parts_their_place() {
        let big = format!(
            "[Event \"big\"]\n1. e4 {{{}}} *\n",
            "c".repeat(MAX_PART_BYTES)
        );
        let text = format!("[Event \"a\"]\n*\n{big}  [Event \"b\"]\n*\n");
        for capacity in [64 * 1024, 1000, 7] {
            let all = parts_read_by(capacity, text.as_bytes());
            let texts: Vec<&str> = all.iter().map(|(text, ..)| text.as_str()).collect();
            assert_eq!(
                texts,
                [
                    "[Event \"a\"]\n*\n",
                    "[Event \"big\"]",
                    "  [Event \"b\"]\n*\n"
                ]
            );
            assert_eq!(
                all[2].1,
                text.len() - all[2].0.len(),
                "the offset counts what was skipped"
            );
            assert_eq!(all[2].2, 4, "so does the line");
        }
        let skipped: Vec<usize> = chunks(text.as_bytes())
            .iter()
            .flat_map(|c| c.parts.iter().map(|p| p.skipped))
            .collect();
        assert_eq!(skipped, [0, big.len() - "[Event \"big\"]".len(), 0]);
    }

    #[test]
    fn tagless_games_past_the_part_limit_are_split_at_their_results() {
        // Results in comments, variations and tag lines end no game.
        let game = "1. e4 {1-0 (} e5 (1... c5 *) 2. Nf3 ; 0-1\n% *\n2... Nc6 1/2-1/2\r\n";
        let text = format!(
            "[Event \"a\"]\n[Result \"*\"]\n{}",
            game.repeat(3 * MAX_PART_BYTES / game.len())
        );
        for capacity in [64 * 1024, 1000] {
            let all = parts_read_by(capacity, text.as_bytes());
            assert!(all.len() >= 3, "{}", all.len());
            let mut offset = 0;
            for (part, file_offset, line, _) in &all {
                assert!(part.len() <= MAX_PART_BYTES);
                assert_eq!(*file_offset, offset);
                assert_eq!(*line, line_breaks_in(&text.as_bytes()[..offset]));
                offset += part.len();
            }
            assert_eq!(offset, text.len());
            for (part, ..) in &all[..all.len() - 1] {
                assert!(part.ends_with("1/2-1/2"), "{:?}", &part[part.len() - 20..]);
            }
        }
        let none = last_game_end(b"1. e4 (1. d4 *) {*} e5 1-");
        assert_eq!(
            none, None,
            "a result cut by the end of the text is not one yet"
        );
        assert_eq!(last_game_end(b"1. e4 *\r\n1. d4 0-1 1."), Some((18, 1)));
    }

    #[test]
    fn documents_are_parts_of_their_own() {
        let json = "{\"moves\":[{\"written\":\"e4 {\\\"\"}]}\n{\n  \"moves\": [\n  ]\n}\n{\"moves\": [\n{\"result\":\"*\"}\n";
        let read: Vec<Chunk> = DocumentChunks::new(json.as_bytes(), false)
            .map(Result::unwrap)
            .collect();
        let parts: Vec<(&str, usize)> = read
            .iter()
            .flat_map(|c| c.parts.iter().map(|p| (c.part_text(p), p.line)))
            .collect();
        assert_eq!(
            parts,
            [
                ("{\"moves\":[{\"written\":\"e4 {\\\"\"}]}\n", 0),
                ("{\n  \"moves\": [\n  ]\n}\n", 1),
                ("{\"moves\": [\n", 5),
                ("{\"result\":\"*\"}\n", 6),
            ],
            "a line opening a document ends one left open"
        );
        let yaml = "# x\n---\nmoves: []\n--- \nresult: '*'\n---a: b\n";
        let read: Vec<Chunk> = DocumentChunks::new(yaml.as_bytes(), true)
            .map(Result::unwrap)
            .collect();
        let texts: Vec<&str> = read
            .iter()
            .flat_map(|c| c.parts.iter().map(|p| c.part_text(p)))
            .collect();
        assert_eq!(
            texts,
            ["# x\n", "---\nmoves: []\n", "--- \nresult: '*'\n---a: b\n"]
        );
    }

    #[test]
    fn a_document_past_the_limit_keeps_its_start_and_the_next_its_place() {
        let big = format!(
            "{{\"moves\": [\n{}]}}\n",
            "  {\"written\": \"e4\"},\n".repeat(MAX_PART_BYTES / 10)
        );
        let text = format!("{{}}\n{big}{{}}\n");
        let read: Vec<Chunk> = DocumentChunks::new(text.as_bytes(), false)
            .map(Result::unwrap)
            .collect();
        let parts: Vec<(&str, usize, usize, usize)> = read
            .iter()
            .flat_map(|c| {
                c.parts
                    .iter()
                    .map(move |p| (c.part_text(p), c.offset + p.range.start, p.line, p.skipped))
            })
            .collect();
        let lines = big.matches('\n').count();
        assert_eq!(
            parts,
            [
                ("{}\n", 0, 0, 0),
                ("{\"moves\": [", 3, 1, big.len() - "{\"moves\": [".len()),
                ("{}\n", 3 + big.len(), 1 + lines, 0),
            ]
        );
        // An endless line is read a block at a time, not whole.
        let endless = io::BufReader::new(io::repeat(b'x').take(3 * MAX_PART_BYTES as u64));
        let read: Vec<Chunk> = DocumentChunks::new(endless, true)
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            read[0].parts[0].skipped,
            3 * MAX_PART_BYTES - KEPT_OF_SKIPPED
        );
    }

    #[test]
    #[cfg(feature = "compression")]
    fn compression_and_binary_data_are_told_by_the_bytes() {
        use std::io::Write;
        let text = b"[Event \"a\"]\n1. e4 *\n";
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(text).unwrap();
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        bz.write_all(text).unwrap();
        let dir = std::env::temp_dir().join(format!("xpgn-magic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, bytes, compression) in [
            ("gzip.pgn", gz.finish().unwrap(), Compression::Gzip),
            (
                "zstd.pgn",
                zstd::encode_all(&text[..], 0).unwrap(),
                Compression::Zstd,
            ),
            ("bzip2.pgn", bz.finish().unwrap(), Compression::Bzip2),
            ("plain.pgn.gz", text.to_vec(), Compression::None),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            let input = Input::from_path(&path);
            assert_eq!(input.compression, compression, "{name}");
            let mut read = Vec::new();
            open(&input).unwrap().read_to_end(&mut read).unwrap();
            assert_eq!(read, text, "{name}");
        }
        for (name, bytes) in [
            ("elf.pgn", &b"\x7fELF\x02\x01\x01\x00\x00"[..]),
            ("nul.pgn", b"[Event \"a\"]\n\x001. e4 *"),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            let Err(error) = open(&Input::from_path(&path)) else {
                panic!("{name} was read");
            };
            assert!(
                error
                    .to_string()
                    .starts_with("binary data (a NUL byte at byte"),
                "{error}"
            );
        }
        let utf16 = dir.join("utf16.pgn");
        std::fs::write(&utf16, b"\xFF\xFE[\x00E\x00").unwrap();
        assert!(open(&Input::from_path(&utf16)).is_ok(), "UTF-16 is text");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    #[cfg(feature = "cli")]
    fn settings_files_are_read_up_to_a_bound() {
        let error = read_settings_file(Path::new("/dev/zero")).unwrap_err();
        assert!(error.to_string().contains("more than 4 MiB"), "{error}");
    }

    #[test]
    fn bom_stays_and_is_not_movetext() {
        let all = texts(b"\xEF\xBB\xBF[Event \"a\"]\n*\n[Event \"b\"]\n*");
        assert_eq!(all.len(), 2);
        assert!(all[0].starts_with('\u{feff}'));
    }

    #[test]
    fn windows_1252_is_decoded_part_by_part_with_the_line_of_the_first_bad_byte() {
        let all = parts(
            b"[Event \"\xC3\xA9\"]\n*\n[Event \"b\"]\n[Site \"Caf\xE9\"]\n*\n[Event \"c\"]\n*",
        );
        assert_eq!(all.len(), 3);
        assert_eq!(all[0].3, Encoding::Utf8);
        assert!(all[0].0.contains('é'), "a UTF-8 part stays UTF-8");
        assert_eq!(all[1].3, Encoding::Windows1252 { line: 3 });
        assert!(all[1].0.contains("Café"));
        assert_eq!(all[2].3, Encoding::Utf8);
        assert_eq!(all[2].1, all[0].0.len() + all[1].0.len());
    }

    #[test]
    fn windows_1252_text_goes_back_to_the_bytes_it_was_read_from() {
        let every_byte: Vec<u8> = (0..=255).collect();
        let stray_after_bom = b"\xEF\xBB\xBF[Event \"J\xC3\xBCrgen \x81\xFC\"]\r\n*";
        for bytes in [&every_byte[..], stray_after_bom] {
            let (text, encoding) = decode(bytes, 0);
            assert!(matches!(encoding, Encoding::Windows1252 { .. }));
            assert_eq!(encoding.encode(&text).as_deref(), Some(bytes));
        }
        let (text, _) = decode(stray_after_bom, 0);
        assert!(text.starts_with("\u{feff}[Event"), "the mark stays one");
        let cp1252 = Encoding::Windows1252 { line: 0 };
        assert_eq!(cp1252.encode("Ж"), None, "no byte for it");
        assert_eq!(Encoding::Utf16Le.encode("a"), None);
    }

    #[test]
    fn utf16_is_transcoded_before_the_splitter_reads_it() {
        let text = "[Event \"Жук\"]\r\n1. e4 *\r\n[Event \"b\"]\r\n*\r\n";
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        for (bytes, expected) in [(le, Encoding::Utf16Le), (be, Encoding::Utf16Be)] {
            let reader: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(bytes));
            let (reader, encoding) = transcode_utf16(reader).unwrap();
            assert_eq!(encoding, expected);
            let read: Vec<Chunk> = PgnChunks::new(reader).map(Result::unwrap).collect();
            let whole: String = read.iter().map(|c| c.text.as_str()).collect();
            assert_eq!(whole, text);
            assert_eq!(read.iter().map(|c| c.parts.len()).sum::<usize>(), 2);
        }
    }

    #[test]
    #[cfg(feature = "cli")]
    fn compressed_inputs_and_walked_directories() {
        use std::io::Write;
        let dir = std::env::temp_dir().join(format!("xpgn-source-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let text = b"[Event \"a\"]\n1. e4 *\n";
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(text).unwrap();
        std::fs::write(dir.join("a.pgn.gz"), gz.finish().unwrap()).unwrap();
        std::fs::write(
            dir.join("sub/b.pgn.zst"),
            zstd::encode_all(&text[..], 0).unwrap(),
        )
        .unwrap();
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        bz.write_all(text).unwrap();
        std::fs::write(dir.join("sub/c.PGN.bz2"), bz.finish().unwrap()).unwrap();
        std::fs::write(dir.join("d.txt"), "1.e4").unwrap();
        std::fs::write(dir.join("notes.md"), "no").unwrap();
        let (inputs, unreadable) = collect_inputs(std::slice::from_ref(&dir), None);
        assert!(unreadable.is_empty());
        let names: Vec<_> = inputs
            .iter()
            .map(|i| {
                i.path
                    .as_ref()
                    .unwrap()
                    .strip_prefix(&dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(
            names,
            ["a.pgn.gz", "d.txt", "sub/b.pgn.zst", "sub/c.PGN.bz2"]
        );
        assert_eq!(inputs[1].format, InputFormat::Transcript);
        for input in inputs.iter().filter(|i| i.format == InputFormat::Pgn) {
            let read: Vec<Chunk> = PgnChunks::new(open(input).unwrap())
                .map(Result::unwrap)
                .collect();
            assert_eq!(read[0].text.as_bytes(), text, "{}", input.display);
        }
        let (inputs, unreadable) = collect_inputs(&[dir.join("nope.pgn"), dir.join("d.txt")], None);
        assert_eq!(inputs.len(), 1, "the walk goes on past what it cannot read");
        assert!(unreadable[0].path.ends_with("nope.pgn"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
