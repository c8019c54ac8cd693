//! The pieces of a board picture as vector drawings: Alexis Luengas's Chessnut set
//! (Apache-2.0, `assets/pieces/chessnut/`, its files as published), with the fairy pieces
//! of the 10x10 variants made from its pieces. No font is needed to draw them.

use std::fmt::Write;

use crate::rules::Color;

/// The side of the square the set's drawings fill (their `viewBox` is 800 by 800).
pub const DRAWING_SIDE: f64 = 800.0;

/// The set's drawings by colour and letter, as published.
const CHESSNUT: [(char, &str, &str); 6] = [
    (
        'K',
        include_str!("../../assets/pieces/chessnut/wK.svg"),
        include_str!("../../assets/pieces/chessnut/bK.svg"),
    ),
    (
        'Q',
        include_str!("../../assets/pieces/chessnut/wQ.svg"),
        include_str!("../../assets/pieces/chessnut/bQ.svg"),
    ),
    (
        'R',
        include_str!("../../assets/pieces/chessnut/wR.svg"),
        include_str!("../../assets/pieces/chessnut/bR.svg"),
    ),
    (
        'B',
        include_str!("../../assets/pieces/chessnut/wB.svg"),
        include_str!("../../assets/pieces/chessnut/bB.svg"),
    ),
    (
        'N',
        include_str!("../../assets/pieces/chessnut/wN.svg"),
        include_str!("../../assets/pieces/chessnut/bN.svg"),
    ),
    (
        'P',
        include_str!("../../assets/pieces/chessnut/wP.svg"),
        include_str!("../../assets/pieces/chessnut/bP.svg"),
    ),
];

/// The clip paths that cut a drawing into its left and right halves, for the compound
/// pieces; defined once per picture that has one.
pub const HALVES: &str = r#"<clipPath id="xpgn-left-half"><rect width="400" height="800"/></clipPath><clipPath id="xpgn-right-half"><rect x="400" width="400" height="800"/></clipPath>"#;

/// How a piece letter is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawing {
    /// One of the set's pieces.
    Orthodox(char),
    /// The left half of one piece beside the right half of another: the archbishop is
    /// knight and bishop, the chancellor knight and rook, as they move.
    Halves(char, char),
    /// A piece turned upside down, the fairy-chess diagram's way of telling a related
    /// piece: the fil (alfil), a diagonal leaper, is the bishop turned over.
    Turned(char),
}

impl Drawing {
    /// The drawing of a piece letter (`A`, `C` and `F` as the 10x10 variants define
    /// them), none for a letter the set has no drawing for.
    pub fn of(letter: char) -> Option<Drawing> {
        let letter = letter.to_ascii_uppercase();
        Some(match letter {
            'K' | 'Q' | 'R' | 'B' | 'N' | 'P' => Drawing::Orthodox(letter),
            'A' => Drawing::Halves('N', 'B'),
            'C' => Drawing::Halves('N', 'R'),
            'F' => Drawing::Turned('B'),
            _ => return None,
        })
    }

    /// How the legend names the drawing of a fairy piece; none for an orthodox one.
    pub fn described(self) -> Option<String> {
        let name = |letter: char| match letter {
            'R' => "rook",
            'B' => "bishop",
            _ => "knight",
        };
        match self {
            Drawing::Orthodox(_) => None,
            Drawing::Halves(left, right) => Some(format!("{}|{}", name(left), name(right))),
            Drawing::Turned(letter) => Some(format!("upside-down {}", name(letter))),
        }
    }

    /// Whether the drawing needs [`HALVES`].
    pub fn needs_halves(self) -> bool {
        matches!(self, Drawing::Halves(..))
    }

    /// The drawing's SVG in the set's 800-unit square.
    pub fn svg(self, color: Color) -> String {
        match self {
            Drawing::Orthodox(letter) => orthodox(letter, color),
            Drawing::Halves(left, right) => format!(
                r#"<g clip-path="url(#xpgn-left-half)">{}</g><g clip-path="url(#xpgn-right-half)">{}</g><line x1="400" y1="150" x2="400" y2="690" stroke="{}" stroke-width="12"/>"#,
                orthodox(left, color),
                orthodox(right, color),
                match color {
                    Color::White => "#000000",
                    Color::Black => "#f2f2f2",
                }
            ),
            Drawing::Turned(letter) => format!(
                r#"<g transform="rotate(180 400 400)">{}</g>"#,
                orthodox(letter, color)
            ),
        }
    }
}

/// The set's drawing of an orthodox piece: the file's groups and shapes, without its XML
/// prologue and its `id`s (a picture holds each drawing more than once).
fn orthodox(letter: char, color: Color) -> String {
    let (_, white, black) = CHESSNUT
        .iter()
        .find(|(l, _, _)| *l == letter)
        .expect("an orthodox letter");
    let file = match color {
        Color::White => white,
        Color::Black => black,
    };
    let start = file.find("<g").expect("a drawing in a group");
    let end = file.rfind("</g>").expect("a drawing in a group") + "</g>".len();
    let mut out = String::with_capacity(end - start);
    let mut rest = &file[start..end];
    while let Some(at) = rest.find(" id=\"") {
        out.push_str(&rest[..at]);
        let value = &rest[at + " id=\"".len()..];
        let close = value.find('"').expect("a quoted id");
        rest = &value[close + 1..];
    }
    out.push_str(rest);
    // Illustrator wraps long attributes over lines; one line per drawing reads better.
    let mut flat = String::with_capacity(out.len());
    for line in out.lines() {
        let _ = write!(flat, "{} ", line.trim());
    }
    flat.truncate(flat.trim_end().len());
    flat
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_drawing_is_one_line_of_shapes_without_ids() {
        for (letter, _, _) in CHESSNUT {
            for color in Color::BOTH {
                let svg = orthodox(letter, color);
                assert!(svg.starts_with("<g") && svg.ends_with("</g>"), "{svg}");
                assert!(!svg.contains(" id=") && !svg.contains('\n'), "{svg}");
                assert!(svg.contains("<path"), "{letter}");
            }
        }
    }

    #[test]
    fn fairy_pieces_are_made_of_orthodox_ones() {
        assert_eq!(Drawing::of('a'), Some(Drawing::Halves('N', 'B')));
        assert_eq!(
            Drawing::of('C').and_then(Drawing::described),
            Some("knight|rook".to_owned())
        );
        assert_eq!(
            Drawing::of('F').and_then(Drawing::described),
            Some("upside-down bishop".to_owned())
        );
        assert_eq!(Drawing::of('U'), None);
        let archbishop = Drawing::of('A').unwrap().svg(Color::Black);
        assert!(archbishop.contains("url(#xpgn-left-half)"));
        assert!(archbishop.contains(&orthodox('B', Color::Black)));
    }
}
