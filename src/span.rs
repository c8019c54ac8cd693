//! Byte spans into the decoded text of an input file.
//!
//! Spans are deliberately left out of equality (as in kdl-rs): two trees parsed from
//! differently laid-out text compare equal when they say the same thing.

use std::fmt;

/// A byte range `offset..offset + len` in the decoded text of one input file.
#[derive(Clone, Copy, Default, Debug)]
pub struct Span {
    pub offset: usize,
    pub len: usize,
}

impl Span {
    pub const fn new(offset: usize, len: usize) -> Span {
        Span { offset, len }
    }

    pub const fn end(self) -> usize {
        self.offset + self.len
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        let start = self.offset.min(other.offset);
        Span::new(start, self.end().max(other.end()) - start)
    }
}

/// Every span equals every other: spans locate nodes, they are not what the nodes say.
impl PartialEq for Span {
    fn eq(&self, _: &Span) -> bool {
        true
    }
}

impl Eq for Span {}

/// A node with the place it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub const fn new(node: T, span: Span) -> Spanned<T> {
        Spanned { node, span }
    }
}

/// The text a game was read from: one chunk of a file, placed in it by offset and line.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The file name as the user named it (`-` for standard input).
    pub name: &'a str,
    pub text: &'a str,
    /// Byte offset of `text` in the decoded file.
    pub offset: usize,
    /// 0-based line of `text`'s first character in the file.
    pub line: usize,
}

impl Source<'_> {
    /// 1-based line and column of an absolute offset.
    pub fn line_column(&self, offset: usize) -> LineColumn {
        line_column(self.text, self.line, offset.saturating_sub(self.offset))
    }
}

/// 1-based line and column (in characters) of a byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineColumn {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for LineColumn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Counts line breaks the way the reader does: `\n`, `\r\n` and a lone `\r` are one each.
pub fn line_breaks(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut count = 0;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\n' => count += 1,
            b'\r' if bytes.get(i + 1) != Some(&b'\n') => count += 1,
            _ => {}
        }
    }
    count
}

/// Line and column of `offset` in `text`, where `text` starts at 0-based line `first_line`.
pub fn line_column(text: &str, first_line: usize, offset: usize) -> LineColumn {
    LineCursor::default().locate(text, first_line, offset)
}

/// Finds the line and column of offsets into one text that come in increasing order (a
/// game's findings in file order), each from where the one before was found: a game
/// with 100,000 findings is located in one pass over its text, not one pass a finding.
/// An offset before the last starts again from the text's start.
#[derive(Clone, Copy, Debug, Default)]
pub struct LineCursor {
    offset: usize,
    /// Line breaks before `offset`, a `\r\n` counted at its `\n`.
    breaks: usize,
    /// Characters from the last line break before `offset` to `offset`.
    column: usize,
}

impl LineCursor {
    /// As [`line_column`], for `text` that this cursor has located in before (or none).
    pub fn locate(&mut self, text: &str, first_line: usize, offset: usize) -> LineColumn {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        if offset < self.offset {
            *self = LineCursor::default();
        }
        let bytes = text.as_bytes();
        let mut last_break = None;
        for i in memchr::memchr2_iter(b'\n', b'\r', &bytes[self.offset..offset]) {
            let at = self.offset + i;
            if bytes[at] == b'\n' || bytes.get(at + 1) != Some(&b'\n') {
                self.breaks += 1;
            }
            last_break = Some(at);
        }
        self.column = match last_break {
            Some(at) => text[at + 1..offset].chars().count(),
            None => self.column + text[self.offset..offset].chars().count(),
        };
        self.offset = offset;
        // A `\r` right before the offset ends a line though its `\n` comes after.
        let split_crlf =
            bytes[..offset].last() == Some(&b'\r') && bytes.get(offset) == Some(&b'\n');
        LineColumn {
            line: first_line + self.breaks + usize::from(split_crlf) + 1,
            column: self.column + 1,
        }
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_do_not_take_part_in_equality() {
        assert_eq!(
            Spanned::new(1, Span::new(0, 1)),
            Spanned::new(1, Span::new(9, 4))
        );
        assert_ne!(
            Spanned::new(1, Span::new(0, 1)),
            Spanned::new(2, Span::new(0, 1))
        );
    }

    #[test]
    fn line_column_counts_every_line_break_style() {
        let text = "a\r\nb\rc\nd é x";
        assert_eq!(line_column(text, 0, 0), LineColumn { line: 1, column: 1 });
        assert_eq!(line_column(text, 0, 3), LineColumn { line: 2, column: 1 });
        assert_eq!(line_column(text, 0, 5), LineColumn { line: 3, column: 1 });
        assert_eq!(
            line_column(text, 10, text.len() - 1),
            LineColumn {
                line: 14,
                column: 5
            }
        );
    }

    #[test]
    fn a_cursor_finds_what_line_column_finds_in_any_order() {
        let text = "a\r\nb\rc\nd é x\r\n\r\r\n\nyz é\r";
        let offsets: Vec<usize> = (0..=text.len() + 2).collect();
        let mut cursor = LineCursor::default();
        for &offset in offsets.iter().chain(offsets.iter().rev()).chain(&offsets) {
            let whole = &text[..floor_char_boundary(text, offset.min(text.len()))];
            let line_start = whole.rfind(['\n', '\r']).map_or(0, |i| i + 1);
            let expected = LineColumn {
                line: 3 + line_breaks(whole) + 1,
                column: whole[line_start..].chars().count() + 1,
            };
            assert_eq!(cursor.locate(text, 3, offset), expected, "offset {offset}");
        }
    }
}
