//! Board diagrams of a position (`xpgn show`): a text board for terminals and an SVG
//! picture, both with the event state FEN does not hold drawn in (the #5 passage squares,
//! the #85 knights' directions, the known #68 chosen pawns) and the last move.
//!
//! The library never prints: both functions return the whole diagram as a string.

use std::fmt::Write;

use crate::replay::PlayedMove;
use crate::rules::event::Overlay as EventOverlay;
use crate::rules::{Color, Direction, Piece, Position, Sq, Variant, write_fen};

/// The Unicode glyph of an orthodox piece letter, white's then black's.
fn glyphs(letter: char) -> Option<(char, char)> {
    Some(match letter {
        'K' => ('♔', '♚'),
        'Q' => ('♕', '♛'),
        'R' => ('♖', '♜'),
        'B' => ('♗', '♝'),
        'N' => ('♘', '♞'),
        'P' => ('♙', '♟'),
        _ => return None,
    })
}

/// The square a [`PlayedMove`] names (`e4`, `j10`).
fn square_named(v: &Variant, name: &str) -> Option<Sq> {
    let g = v.geometry;
    g.all().find(|&sq| g.name(sq) == name)
}

/// What a diagram marks on the board besides the pieces.
struct Overlay {
    /// What the running events draw, with the variant's pass holes (Secret Invisible
    /// Pass) among the squares a piece may go through.
    events: EventOverlay,
    /// The squares of the last move: from, through, to.
    last: Vec<Sq>,
}

impl Overlay {
    fn of(v: &Variant, pos: &Position, last: Option<&PlayedMove>, ascii: bool) -> Overlay {
        let mut events = EventOverlay {
            ascii,
            ..EventOverlay::default()
        };
        for event in pos.events() {
            event.overlay(v, pos, &mut events);
        }
        for &(a, b) in &v.passes {
            events.doorways.extend([a, b]);
        }
        let last = last
            .and_then(|m| m.detail.as_deref())
            .map(|m| {
                [Some(&m.from), m.through.as_ref(), Some(&m.to)]
                    .into_iter()
                    .flatten()
                    .filter_map(|name| square_named(v, name))
                    .collect()
            })
            .unwrap_or_default();
        Overlay { events, last }
    }

    fn facing(&self, sq: Sq) -> Option<Direction> {
        self.events
            .arrows
            .iter()
            .find(|&&(at, _)| at == sq)
            .map(|&(_, d)| d)
    }
}

/// A piece as one character: its glyph, else its letter (upper case for white).
fn piece_char(v: &Variant, piece: Piece, ascii: bool) -> char {
    let letter = v.piece(piece.kind).letter;
    match (glyphs(letter), ascii, piece.color) {
        (Some((white, _)), false, Color::White) => white,
        (Some((_, black)), false, Color::Black) => black,
        (_, _, Color::White) => letter.to_ascii_uppercase(),
        (_, _, Color::Black) => letter.to_ascii_lowercase(),
    }
}

/// The last move as a reader looks for it: `23. Be7# (d6-e7)`, `3... Nxf6-c4 (g8-f6-c4)`.
fn last_move_line(pos: &Position, last: &PlayedMove) -> String {
    // `pos` is the position after the move: black to move means white just moved.
    let number = match pos.turn {
        Color::Black => format!("{}.", pos.fullmoves),
        Color::White => format!("{}...", pos.fullmoves.saturating_sub(1)),
    };
    match last.detail.as_deref() {
        Some(d) => {
            let squares: Vec<&str> = [Some(&d.from), d.through.as_ref(), Some(&d.to)]
                .into_iter()
                .flatten()
                .map(String::as_str)
                .collect();
            format!("last move: {number} {} ({})", last.san, squares.join("-"))
        }
        None => format!("last move: {number} {}", last.san),
    }
}

/// The legend lines for the event state, each only when it applies.
fn legend(v: &Variant, pos: &Position, overlay: &Overlay) -> Vec<String> {
    let g = v.geometry;
    let mut lines = Vec::new();
    if pos.has_events() {
        let running: Vec<String> = pos
            .running()
            .iter()
            .map(|running| {
                let by = running
                    .started_by
                    .map_or("from the start".to_owned(), |color| format!("by {color}"));
                format!(
                    "#{} {} ({by})",
                    running.event.number(),
                    running.event.name()
                )
            })
            .collect();
        lines.push(format!("events: {}", running.join(", ")));
    }
    lines.extend(overlay.events.lines.iter().cloned());
    if !v.passes.is_empty() {
        let pairs: Vec<String> = v
            .passes
            .iter()
            .map(|&(a, b)| format!("{} <-> {}", g.name(a), g.name(b)))
            .collect();
        lines.push(format!("passes: {} (marked *)", pairs.join(", ")));
    }
    lines
}

/// The position as a text board, white at the bottom, with coordinates, then the side
/// to move, the last move, the event state and the FEN. Each square is three
/// characters: a mark (`*` passage or pass square, `@` known chosen pawn), the piece
/// (Unicode glyphs, or letters with `ascii`; fairy pieces always as letters, upper case
/// for white) and a knight's direction arrow.
pub fn text_board(v: &Variant, pos: &Position, last: Option<&PlayedMove>, ascii: bool) -> String {
    let g = v.geometry;
    let overlay = Overlay::of(v, pos, last, ascii);
    let label_width = g.height.to_string().len();
    let mut out = String::new();
    for rank in (0..g.height).rev() {
        let mut line = format!("{:>label_width$} ", rank + 1);
        for file in 0..g.width {
            let sq = g.sq(file, rank).expect("on the board");
            let mark = if overlay.events.doorways.contains(&sq) {
                '*'
            } else if overlay.events.singled_out.contains(&sq) {
                '@'
            } else {
                ' '
            };
            let piece = match pos.piece_at(sq) {
                Some(piece) => piece_char(v, piece, ascii),
                None if ascii => '.',
                None => '·',
            };
            let facing = overlay.facing(sq).map_or(' ', |d| d.arrow(ascii));
            line.extend([mark, piece, facing]);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&" ".repeat(label_width + 1));
    for file in 0..g.width {
        let _ = write!(out, " {} ", char::from(b'a' + file));
    }
    out.truncate(out.trim_end().len());
    out.push_str("\n\n");
    let _ = write!(out, "{} to move", pos.turn);
    if pos.is_check(v) {
        out.push_str(", in check");
    }
    out.push('\n');
    if let Some(last) = last {
        out.push_str(&last_move_line(pos, last));
        out.push('\n');
    }
    for line in legend(v, pos, &overlay) {
        out.push_str(&line);
        out.push('\n');
    }
    let _ = writeln!(out, "FEN: {}", write_fen(v, pos));
    out
}

/// Side of a square in SVG user units, and the margin that holds the coordinates.
const SQUARE: i32 = 60;
const MARGIN: i32 = 24;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
/// Last-move squares: a yellow-green wash over the square colour.
const LAST_MOVE: &str = "#cdd16a";
const PASSAGE: &str = "#1e6fd9";
const PRINCE: &str = "#e0a800";
const ARROW: &str = "#d32f2f";
/// Fonts with the chess glyphs on common systems, then any sans-serif.
const FONTS: &str =
    "'DejaVu Sans', 'Noto Sans Symbols 2', 'Segoe UI Symbol', 'Arial Unicode MS', sans-serif";

/// The position as a self-contained SVG picture (no external fonts or images): the
/// board with coordinates, the last move's squares highlighted, passage and pass squares
/// ringed in blue, each piece a disc in its colour with its glyph or letter, a known
/// chosen pawn ringed in gold, a facing knight's direction as a red arrow, and a dot by
/// the side to move.
pub fn svg_board(v: &Variant, pos: &Position, last: Option<&PlayedMove>) -> String {
    let g = v.geometry;
    let overlay = Overlay::of(v, pos, last, false);
    let (width, height) = (i32::from(g.width), i32::from(g.height));
    let (total_width, total_height) = (2 * MARGIN + width * SQUARE, 2 * MARGIN + height * SQUARE);
    // The top-left corner of a square, white at the bottom.
    let corner = |sq: Sq| {
        (
            MARGIN + i32::from(g.file(sq)) * SQUARE,
            MARGIN + (height - 1 - i32::from(g.rank(sq))) * SQUARE,
        )
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{total_width}" height="{total_height}" viewBox="0 0 {total_width} {total_height}" font-family="{FONTS}">"#
    );
    let _ = writeln!(out, "<title>{}</title>", write_fen(v, pos));
    let _ = writeln!(
        out,
        r##"<rect width="{total_width}" height="{total_height}" fill="#ffffff"/>"##
    );
    for sq in g.all() {
        let (x, y) = corner(sq);
        let light = (g.file(sq) + g.rank(sq)) % 2 == 1;
        let fill = if light { LIGHT } else { DARK };
        let _ = writeln!(
            out,
            r#"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>"#
        );
        if overlay.last.contains(&sq) {
            let _ = writeln!(
                out,
                r#"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{LAST_MOVE}" fill-opacity="0.8"/>"#
            );
        }
        if overlay.events.doorways.contains(&sq) {
            let _ = writeln!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{PASSAGE}" stroke-width="4"/>"#,
                x + 3,
                y + 3,
                SQUARE - 6,
                SQUARE - 6
            );
        }
    }
    for file in 0..g.width {
        let x = MARGIN + i32::from(file) * SQUARE + SQUARE / 2;
        let y = MARGIN + height * SQUARE + MARGIN * 2 / 3;
        let _ = writeln!(
            out,
            r##"<text x="{x}" y="{y}" font-size="14" text-anchor="middle" fill="#444444">{}</text>"##,
            char::from(b'a' + file)
        );
    }
    for rank in 0..g.height {
        let x = MARGIN / 2;
        let y = MARGIN + (height - 1 - i32::from(rank)) * SQUARE + SQUARE / 2 + 5;
        let _ = writeln!(
            out,
            r##"<text x="{x}" y="{y}" font-size="14" text-anchor="middle" fill="#444444">{}</text>"##,
            rank + 1
        );
    }
    for sq in g.all() {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let (x, y) = corner(sq);
        let (cx, cy) = (x + SQUARE / 2, y + SQUARE / 2);
        if overlay.events.singled_out.contains(&sq) {
            let _ = writeln!(
                out,
                r#"<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{PRINCE}" stroke-width="4"/>"#,
                SQUARE * 46 / 100
            );
        }
        let _ = writeln!(out, "{}", piece_svg(v, piece, cx, cy));
    }
    for &(sq, direction) in &overlay.events.arrows {
        let (x, y) = corner(sq);
        let _ = writeln!(
            out,
            "{}",
            arrow_svg(x + SQUARE / 2, y + SQUARE / 2, direction)
        );
    }
    // The side to move: a dot in the right margin, on that side's edge of the board.
    let dot_y = match pos.turn {
        Color::White => MARGIN + height * SQUARE - MARGIN / 2,
        Color::Black => MARGIN + MARGIN / 2,
    };
    let (dot_fill, dot_stroke) = match pos.turn {
        Color::White => ("#ffffff", "#222222"),
        Color::Black => ("#222222", "#ffffff"),
    };
    let _ = writeln!(
        out,
        r#"<circle cx="{}" cy="{dot_y}" r="7" fill="{dot_fill}" stroke="{dot_stroke}" stroke-width="2"/>"#,
        MARGIN + width * SQUARE + MARGIN / 2
    );
    out.push_str("</svg>\n");
    out
}

/// A piece as a disc in its colour with its glyph (orthodox pieces) or letter (fairy
/// pieces) in the other colour: readable on either square colour, and still a piece when
/// a viewer lacks the glyph.
fn piece_svg(v: &Variant, piece: Piece, cx: i32, cy: i32) -> String {
    let (disc, ink) = match piece.color {
        Color::White => ("#fafafa", "#222222"),
        Color::Black => ("#222222", "#fafafa"),
    };
    let letter = v.piece(piece.kind).letter;
    // The solid glyphs read best filled in either colour; U+FE0E asks for the text
    // presentation of the pawn, which some browsers would otherwise draw as an emoji.
    let (symbol, size) = match glyphs(letter) {
        Some((_, '♟')) => ("♟\u{FE0E}".to_owned(), SQUARE * 6 / 10),
        Some((_, solid)) => (solid.to_string(), SQUARE * 6 / 10),
        None => (letter.to_ascii_uppercase().to_string(), SQUARE / 2),
    };
    // The baseline sits about a third of the font size below the centre.
    let baseline = cy + size * 35 / 100;
    let radius = SQUARE * 40 / 100;
    format!(
        r#"<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{disc}" stroke="{ink}" stroke-width="2"/><text x="{cx}" y="{baseline}" font-size="{size}" font-weight="bold" text-anchor="middle" fill="{ink}">{symbol}</text>"#
    )
}

/// A knight's direction: a red arrow from over the disc to the square's edge, haloed in
/// white to stand out on either disc colour.
fn arrow_svg(cx: i32, cy: i32, direction: Direction) -> String {
    let (df, dr) = direction.step();
    // SVG's y axis points down the board.
    let (dx, dy) = (f64::from(df), -f64::from(dr));
    let length = dx.hypot(dy);
    let (ux, uy) = (dx / length, dy / length);
    let half = f64::from(SQUARE) / 2.0;
    let (cx, cy) = (f64::from(cx), f64::from(cy));
    let (start_x, start_y) = (cx + ux * half * 0.35, cy + uy * half * 0.35);
    // The tip reaches the square's edge, or near its corner on a diagonal.
    let end = half * if length > 1.0 { 1.25 } else { 0.95 };
    let (tip_x, tip_y) = (cx + ux * end, cy + uy * end);
    let head = half * 0.4;
    let (base_x, base_y) = (tip_x - ux * head, tip_y - uy * head);
    // The arrowhead's two back corners, either side of the shaft.
    let (side_x, side_y) = (-uy * head * 0.55, ux * head * 0.55);
    let shaft = format!(r#"x1="{start_x:.1}" y1="{start_y:.1}" x2="{base_x:.1}" y2="{base_y:.1}""#);
    let points = format!(
        "{tip_x:.1},{tip_y:.1} {:.1},{:.1} {:.1},{:.1}",
        base_x + side_x,
        base_y + side_y,
        base_x - side_x,
        base_y - side_y,
    );
    format!(
        r##"<g><line {shaft} stroke="#ffffff" stroke-width="8" stroke-linecap="round"/><polygon points="{points}" fill="#ffffff" stroke="#ffffff" stroke-width="3" stroke-linejoin="round"/><line {shaft} stroke="{ARROW}" stroke-width="4" stroke-linecap="round"/><polygon points="{points}" fill="{ARROW}"/></g>"##
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    fn standard() -> &'static Variant {
        Variant::by_name("standard").unwrap()
    }

    #[test]
    fn the_start_position_in_ascii() {
        let v = standard();
        let board = text_board(v, v.start_position(), None, true);
        assert!(board.starts_with("8  r  n  b  q  k  b  n  r\n"), "{board}");
        assert!(board.contains("\n1  R  N  B  Q  K  B  N  R\n   a  b  c  d  e  f  g  h\n"));
        assert!(board.contains("white to move\n"));
    }

    #[test]
    fn fairy_pieces_are_letters_and_ten_ranks_fit() {
        let v = Variant::by_name("secret-invisible-pass").unwrap();
        let board = text_board(v, v.start_position(), None, false);
        assert!(board.starts_with("10 "), "{board}");
        // Chancellor, archbishop, fil: letters, lower case for black.
        let mut lines = board.lines();
        assert!(lines.next().unwrap().contains(" c *· *·  a"), "{board}");
        assert!(lines.next().unwrap().contains(" f  ♚  ♛  f "), "{board}");
        assert!(board.contains("passes: e1 <-> f10, f1 <-> e10 (marked *)"));
    }

    #[test]
    fn a_check_is_told() {
        let v = standard();
        let pos = parse_fen(v, "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1").unwrap();
        assert!(text_board(v, &pos, None, true).contains("black to move, in check\n"));
    }

    #[test]
    fn arrows_point_their_way() {
        let svg = arrow_svg(100, 100, Direction(2));
        // East: the tip is right of the centre, on the same height.
        assert!(svg.contains(r#"points="128.5,100.0 "#), "{svg}");
        let svg = arrow_svg(100, 100, Direction(5));
        // South-west: left of and below the centre (SVG's y grows downwards).
        assert!(svg.contains(r#"points="73.5,126.5 "#), "{svg}");
    }
}
