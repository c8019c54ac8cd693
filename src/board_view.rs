//! Board diagrams of a position (`xpgn show`): a text board for terminals and an SVG
//! picture, both with the event state FEN does not hold drawn in (the #5 passage squares,
//! the #85 knights' directions, the known #68 chosen pawns) and the last move; the
//! picture as a PNG, or a game as an animated GIF (`raster`, with the `pictures`
//! feature).
//!
//! The library never prints: the diagrams are returned as strings, the images written to
//! the writer given.

mod pieces;
#[cfg(feature = "pictures")]
pub mod raster;

use compact_str::CompactString;
use std::fmt::Write;

use pieces::Drawing;

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
                .map(CompactString::as_str)
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
                format!("#{} {} ({by})", running.event.label(), running.event.name())
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

/// How a board picture is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PictureOptions {
    /// Black at the bottom.
    pub flip: bool,
    /// The picture's width in pixels, its height in proportion; `None`: 60 a square.
    pub width: Option<u32>,
    /// Legend rows to keep at least, so that every frame of an animation has the size
    /// of the one with the longest legend ([`legend_rows`]).
    pub legend_rows: usize,
}

/// Side of a square in SVG user units, and the margin that holds the coordinates.
const SQUARE: i32 = 60;
const MARGIN: i32 = 24;
/// The legend under the board: its rows, its text and the column of its markers.
const ROW: i32 = 20;
const FONT_SIZE: i32 = 13;
const MARKER_COLUMN: i32 = 26;
/// About the widest a character of the legend's font is, in user units: lines are
/// wrapped to the board's width by it, as a picture cannot wrap text itself.
const CHAR_WIDTH: f64 = FONT_SIZE as f64 * 0.62;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
/// Last-move squares: a yellow-green wash over the square colour.
const LAST_MOVE: &str = "#cdd16a";
/// The last move's arrow: green, see-through enough to show the piece under it.
const MOVE_ARROW: &str = "#15781b";
const PASSAGE: &str = "#1e6fd9";
const RING: &str = "#e0a800";
const ARROW: &str = "#d32f2f";
/// The bundled font of PNG and GIF pictures first, then what a browser likely has.
const FONTS: &str = "'DejaVu Sans', Verdana, Arial, sans-serif";

/// What a legend row's marker shows: a sample of the marking its text explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    Turn(Color),
    LastMove,
    Doorway,
    Ring,
    Facing,
    Plain,
}

/// The picture's words for the text board's marks.
const MARKS: [(&str, &str, Marker); 3] = [
    ("(marked *)", "(framed in blue)", Marker::Doorway),
    ("(framed *)", "(framed in blue)", Marker::Doorway),
    ("(marked @)", "(ringed in gold)", Marker::Ring),
];

/// The legend of a picture: each marking on the board with a sample of it, the side to
/// move, the last move, the running events and their state, the fairy pieces' drawings.
fn legend_entries(
    v: &Variant,
    pos: &Position,
    overlay: &Overlay,
    last: Option<&PlayedMove>,
) -> Vec<(Marker, String)> {
    let mut entries = Vec::new();
    let mut turn = format!("{} to move", pos.turn);
    if pos.is_check(v) {
        turn.push_str(", in check");
    }
    entries.push((Marker::Turn(pos.turn), turn));
    if let Some(last) = last {
        // A knight turning where it stands (#85) moves nowhere: its squares are tinted.
        let marker = if overlay.last.first() != overlay.last.last() {
            Marker::LastMove
        } else {
            Marker::Plain
        };
        entries.push((marker, last_move_line(pos, last)));
    }
    let text = legend(v, pos, overlay);
    let facing_arrows: Vec<char> = Direction::ALL.iter().map(|d| d.arrow(false)).collect();
    let mut explained = Vec::new();
    for line in text {
        let mut marker = Marker::Plain;
        let mut line = line;
        for (mark, words, kind) in MARKS {
            if line.contains(mark) {
                line = line.replace(mark, words);
                marker = kind;
            }
        }
        if marker == Marker::Plain
            && !overlay.events.arrows.is_empty()
            && line.contains(facing_arrows.as_slice())
        {
            line.push_str(" (red arrows)");
            marker = Marker::Facing;
        }
        explained.push(marker);
        entries.push((marker, line));
    }
    let unexplained = [
        (
            !overlay.events.doorways.is_empty(),
            Marker::Doorway,
            "a square an event marks",
        ),
        (
            !overlay.events.singled_out.is_empty(),
            Marker::Ring,
            "a piece an event singles out",
        ),
        (
            !overlay.events.arrows.is_empty(),
            Marker::Facing,
            "the way a piece faces",
        ),
    ];
    for (drawn, marker, words) in unexplained {
        if drawn && !explained.contains(&marker) {
            entries.push((marker, words.to_owned()));
        }
    }
    let mut fairy: Vec<(char, String)> = Vec::new();
    for sq in pos.occupied() {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let def = v.piece(piece.kind);
        let letter = def.letter.to_ascii_uppercase();
        if fairy.iter().any(|(l, _)| *l == letter) {
            continue;
        }
        let drawn = Drawing::of(letter)
            .map_or(Some("a disc with its letter".to_owned()), |d| d.described());
        if let Some(drawn) = drawn {
            fairy.push((letter, format!("{letter} {} ({drawn})", def.name)));
        }
    }
    if !fairy.is_empty() {
        fairy.sort();
        let named: Vec<String> = fairy.into_iter().map(|(_, words)| words).collect();
        entries.push((Marker::Plain, format!("pieces: {}", named.join(", "))));
    }
    entries
}

/// Words wrapped to lines of at most `columns` characters (a longer word stands alone).
fn wrap(text: &str, columns: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > columns {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// The legend as drawn: each entry's marker on its first line.
fn legend_lines(v: &Variant, entries: Vec<(Marker, String)>) -> Vec<(Marker, String)> {
    let board_width = i32::from(v.geometry.width) * SQUARE;
    let columns = (f64::from(board_width - MARKER_COLUMN) / CHAR_WIDTH) as usize;
    entries
        .into_iter()
        .flat_map(|(marker, text)| {
            wrap(&text, columns)
                .into_iter()
                .enumerate()
                .map(move |(i, line)| (if i == 0 { marker } else { Marker::Plain }, line))
        })
        .collect()
}

/// How many rows the legend of a position's picture takes: the most over a game's
/// positions is the [`PictureOptions::legend_rows`] of its animation.
pub fn legend_rows(v: &Variant, pos: &Position, last: Option<&PlayedMove>) -> usize {
    let overlay = Overlay::of(v, pos, last, false);
    legend_lines(v, legend_entries(v, pos, &overlay, last)).len()
}

/// Text escaped for SVG.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The position as a self-contained SVG picture (no fonts needed for the pieces, no
/// external images): the board with coordinates on its edge, the pieces (Chessnut's
/// drawings), the last move as a green arrow over its tinted squares, passage and pass
/// squares framed in blue, pieces an event singles out ringed in gold, a facing knight's
/// direction as a red arrow, a dot by the side to move, and under the board a legend
/// that explains each marking and tells the event state.
pub fn svg_board(
    v: &Variant,
    pos: &Position,
    last: Option<&PlayedMove>,
    options: &PictureOptions,
) -> String {
    let g = v.geometry;
    let overlay = Overlay::of(v, pos, last, false);
    let legend = legend_lines(v, legend_entries(v, pos, &overlay, last));
    let rows = i32::try_from(legend.len().max(options.legend_rows)).unwrap_or(i32::MAX);
    let (width, height) = (i32::from(g.width), i32::from(g.height));
    let board_bottom = MARGIN + height * SQUARE;
    let legend_top = board_bottom + MARGIN + 4;
    let total_width = 2 * MARGIN + width * SQUARE;
    let total_height = legend_top
        .saturating_add(rows.saturating_mul(ROW))
        .saturating_add(8);
    let (pixel_width, pixel_height) = match options.width {
        Some(w) => (
            w,
            (f64::from(w) * f64::from(total_height) / f64::from(total_width)).round() as u32,
        ),
        None => (total_width as u32, total_height as u32),
    };
    // Where a file and a rank are drawn: white at the bottom, or black when flipped.
    let column = |file: u8| {
        let file = i32::from(file);
        if options.flip { width - 1 - file } else { file }
    };
    let row = |rank: u8| {
        let rank = i32::from(rank);
        if options.flip {
            rank
        } else {
            height - 1 - rank
        }
    };
    let corner = |sq: Sq| {
        (
            MARGIN + column(g.file(sq)) * SQUARE,
            MARGIN + row(g.rank(sq)) * SQUARE,
        )
    };
    let centre = |sq: Sq| {
        let (x, y) = corner(sq);
        (f64::from(x + SQUARE / 2), f64::from(y + SQUARE / 2))
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{pixel_width}" height="{pixel_height}" viewBox="0 0 {total_width} {total_height}" font-family="{FONTS}">"#
    );
    let _ = writeln!(out, "<title>{}</title>", write_fen(v, pos));
    out.push_str(&piece_defs(v, pos));
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
            let _ = writeln!(out, "{}", doorway_svg(x + 3, y + 3, SQUARE - 6));
        }
    }
    for file in 0..g.width {
        let x = MARGIN + column(file) * SQUARE + SQUARE / 2;
        let y = board_bottom + MARGIN * 2 / 3;
        let _ = writeln!(
            out,
            r##"<text x="{x}" y="{y}" font-size="14" text-anchor="middle" fill="#444444">{}</text>"##,
            char::from(b'a' + file)
        );
    }
    for rank in 0..g.height {
        let x = MARGIN / 2;
        let y = MARGIN + row(rank) * SQUARE + SQUARE / 2 + 5;
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
        if overlay.events.singled_out.contains(&sq) {
            let _ = writeln!(
                out,
                "{}",
                ring_svg(x + SQUARE / 2, y + SQUARE / 2, SQUARE * 46 / 100)
            );
        }
        let _ = writeln!(out, "{}", piece_svg(v, piece, x, y));
    }
    let path: Vec<(f64, f64)> = overlay.last.iter().map(|&sq| centre(sq)).collect();
    if let Some(arrow) = move_arrow_svg(&path, f64::from(SQUARE)) {
        let _ = writeln!(out, "{arrow}");
    }
    for &(sq, direction) in &overlay.events.arrows {
        let (x, y) = corner(sq);
        let direction = if options.flip {
            Direction((direction.0 + 4) % 8)
        } else {
            direction
        };
        let _ = writeln!(
            out,
            "{}",
            arrow_svg(x + SQUARE / 2, y + SQUARE / 2, direction)
        );
    }
    // The side to move: a dot in the right margin, on that side's edge of the board.
    let turn_at_bottom = (pos.turn == Color::White) != options.flip;
    let dot_y = if turn_at_bottom {
        board_bottom - MARGIN / 2
    } else {
        MARGIN + MARGIN / 2
    };
    let _ = writeln!(
        out,
        "{}",
        turn_dot_svg(MARGIN + width * SQUARE + MARGIN / 2, dot_y, 7, pos.turn)
    );
    // A flipped board turns the arrows the legend names the knights' directions by.
    let legend_arrow = |c: char| match Direction::ALL.iter().find(|d| d.arrow(false) == c) {
        Some(d) if options.flip => Direction((d.0 + 4) % 8).arrow(false),
        _ => c,
    };
    for ((marker, text), top) in legend.iter().zip((legend_top..).step_by(ROW as usize)) {
        let text: String = text.chars().map(legend_arrow).collect();
        let middle = top + ROW / 2;
        if let Some(sample) = marker_svg(*marker, MARGIN + 10, middle) {
            let _ = writeln!(out, "{sample}");
        }
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" font-size="{FONT_SIZE}" fill="#222222">{}</text>"##,
            MARGIN + MARKER_COLUMN,
            middle + FONT_SIZE * 35 / 100,
            escaped(&text)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The drawings of the pieces on the board, each defined once and scaled to a square.
fn piece_defs(v: &Variant, pos: &Position) -> String {
    let mut drawn: Vec<(Color, char, Drawing)> = Vec::new();
    for sq in pos.occupied() {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let letter = v.piece(piece.kind).letter.to_ascii_uppercase();
        if let Some(drawing) = Drawing::of(letter)
            && !drawn.contains(&(piece.color, letter, drawing))
        {
            drawn.push((piece.color, letter, drawing));
        }
    }
    if drawn.is_empty() {
        return String::new();
    }
    drawn.sort_by_key(|&(color, letter, _)| (color.index(), letter));
    let mut out = String::from("<defs>\n");
    if drawn.iter().any(|(_, _, d)| d.needs_halves()) {
        out.push_str(pieces::HALVES);
        out.push('\n');
    }
    let scale = f64::from(SQUARE) / pieces::DRAWING_SIDE;
    for (color, letter, drawing) in drawn {
        let _ = writeln!(
            out,
            r#"<g id="{}" transform="scale({scale})">{}</g>"#,
            piece_id(color, letter),
            drawing.svg(color)
        );
    }
    out.push_str("</defs>\n");
    out
}

/// The id of a piece's drawing in a picture: `xpgn-wK`, `xpgn-bA`.
fn piece_id(color: Color, letter: char) -> String {
    let side = match color {
        Color::White => 'w',
        Color::Black => 'b',
    };
    format!("xpgn-{side}{letter}")
}

/// A piece on the square whose top-left corner is (x, y): its drawing, or for a letter
/// the set has no drawing for, a disc in its colour with the letter in the other.
fn piece_svg(v: &Variant, piece: Piece, x: i32, y: i32) -> String {
    let letter = v.piece(piece.kind).letter.to_ascii_uppercase();
    if Drawing::of(letter).is_some() {
        return format!(
            r##"<use href="#{}" x="{x}" y="{y}"/>"##,
            piece_id(piece.color, letter)
        );
    }
    let (disc, ink) = match piece.color {
        Color::White => ("#fafafa", "#222222"),
        Color::Black => ("#222222", "#fafafa"),
    };
    let (cx, cy) = (x + SQUARE / 2, y + SQUARE / 2);
    let size = SQUARE / 2;
    // The baseline sits about a third of the font size below the centre.
    let baseline = cy + size * 35 / 100;
    let radius = SQUARE * 40 / 100;
    format!(
        r#"<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{disc}" stroke="{ink}" stroke-width="2"/><text x="{cx}" y="{baseline}" font-size="{size}" font-weight="bold" text-anchor="middle" fill="{ink}">{letter}</text>"#
    )
}

fn doorway_svg(x: i32, y: i32, side: i32) -> String {
    format!(
        r#"<rect x="{x}" y="{y}" width="{side}" height="{side}" fill="none" stroke="{PASSAGE}" stroke-width="4"/>"#
    )
}

fn ring_svg(cx: i32, cy: i32, r: i32) -> String {
    format!(r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="{RING}" stroke-width="4"/>"#)
}

fn turn_dot_svg(cx: i32, cy: i32, r: i32, turn: Color) -> String {
    let fill = match turn {
        Color::White => "#ffffff",
        Color::Black => "#222222",
    };
    format!(
        r##"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="#222222" stroke-width="2"/>"##
    )
}

/// A legend row's sample of its marking, centred on (cx, cy).
fn marker_svg(marker: Marker, cx: i32, cy: i32) -> Option<String> {
    Some(match marker {
        Marker::Turn(color) => turn_dot_svg(cx, cy, 6, color),
        Marker::LastMove => {
            let (cx, cy) = (f64::from(cx), f64::from(cy));
            move_arrow_svg(&[(cx - 9.0, cy), (cx + 9.0, cy)], 16.0)?
        }
        Marker::Doorway => format!(
            r#"<rect x="{}" y="{}" width="14" height="14" fill="{LIGHT}"/>{}"#,
            cx - 7,
            cy - 7,
            doorway_svg(cx - 7, cy - 7, 14).replace(r#"stroke-width="4""#, r#"stroke-width="3""#)
        ),
        Marker::Ring => ring_svg(cx, cy, 6).replace(r#"stroke-width="4""#, r#"stroke-width="3""#),
        Marker::Facing => arrow_svg(cx - 16, cy, Direction(2)),
        Marker::Plain => return None,
    })
}

/// The last move as an arrow from the centre of its first square to that of its last,
/// sized for squares of `side` units; none for a path of one point. A move through a
/// square (a passage, a pass) goes there solid, then dashed where it jumps.
fn move_arrow_svg(path: &[(f64, f64)], side: f64) -> Option<String> {
    let (&(tip_x, tip_y), rest) = path.split_last()?;
    let &(back_x, back_y) = rest.last()?;
    let (dx, dy) = (tip_x - back_x, tip_y - back_y);
    let length = dx.hypot(dy);
    if length == 0.0 {
        return None;
    }
    let (ux, uy) = (dx / length, dy / length);
    let head = side * 0.42;
    let (base_x, base_y) = (tip_x - ux * head, tip_y - uy * head);
    let (side_x, side_y) = (-uy * side * 0.3, ux * side * 0.3);
    let width = side * 0.18;
    let mut shafts = String::new();
    if rest.len() > 1 {
        let walked: Vec<String> = rest.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let _ = write!(
            shafts,
            r#"<polyline points="{}" fill="none" stroke="{MOVE_ARROW}" stroke-width="{width:.1}" stroke-linejoin="round"/>"#,
            walked.join(" ")
        );
    }
    let dashes = if rest.len() > 1 {
        format!(r#" stroke-dasharray="{:.1} {:.1}""#, width, width * 0.8)
    } else {
        String::new()
    };
    let _ = write!(
        shafts,
        r#"<line x1="{back_x:.1}" y1="{back_y:.1}" x2="{base_x:.1}" y2="{base_y:.1}" stroke="{MOVE_ARROW}" stroke-width="{width:.1}"{dashes}/>"#
    );
    // One group at 80% opacity: the shafts and the head do not darken where they meet.
    Some(format!(
        r#"<g opacity="0.8">{shafts}<polygon points="{tip_x:.1},{tip_y:.1} {:.1},{:.1} {:.1},{:.1}" fill="{MOVE_ARROW}"/></g>"#,
        base_x + side_x,
        base_y + side_y,
        base_x - side_x,
        base_y - side_y,
    ))
}

/// A knight's direction: a red arrow from over the piece to the square's edge, haloed in
/// white to stand out on either colour.
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
