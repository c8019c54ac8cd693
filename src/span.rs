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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub const fn new(node: T, span: Span) -> Spanned<T> {
        Spanned { node, span }
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
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    LineColumn {
        line: first_line + line_breaks(before) + 1,
        column: before[line_start..].chars().count() + 1,
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
}
