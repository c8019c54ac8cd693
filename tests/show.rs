//! `xpgn show`: the board diagrams of a game of each rule set in every format
//! (snapshots), the pictures drawn to pixels and read back (the SVG through the library's
//! rasteriser, the PNG and GIF as the command writes them, for a game of every fixture
//! folder), and the usage errors.

mod common;

use common::{stderr, stdout, xpgn};
use std::path::Path;

use resvg::tiny_skia;
use xpgn::board_view::raster::Rasteriser;
use xpgn::board_view::{PictureOptions, svg_board};
use xpgn::games::read_games;
use xpgn::replay::{PlayedMove, Recording, replay_recording};
use xpgn::rules::events::{hidden_passage, loyal_knights};
use xpgn::rules::{Position, Sq, Variant, Variants};
use xpgn::source::Input;

/// One position of a game of each rule set: name, file, game (1-based), ply (`None`: the
/// last).
const CASES: [(&str, &str, usize, Option<usize>); 9] = [
    ("standard", "fixtures/games/clean.pgn", 1, None),
    ("chess960", "fixtures/games/chess960.pgn", 1, None),
    ("capablanca", "fixtures/games/capablanca.pgn", 1, None),
    // 10x10 with the passes, right after one went through.
    (
        "secret-invisible-pass",
        "fixtures/sip/sip-3-pass.pgn",
        1,
        None,
    ),
    // A revealed passage, right after the move that went through it.
    (
        "hidden-passage",
        "fixtures/passage/hp-seed-example-1.pgn",
        1,
        Some(6),
    ),
    // Both chosen pawns known, before the king capture.
    (
        "prince",
        "fixtures/prince/pr-seed-example-1.pgn",
        1,
        Some(8),
    ),
    // Every knight facing, one just turned.
    (
        "loyal-knights",
        "fixtures/knights/lk-seed-example-1.pgn",
        1,
        None,
    ),
    (
        "line-pushers",
        "fixtures/events/lp-seed-example-1.pgn",
        1,
        Some(1),
    ),
    // A known chosen pawn became the king; the other is still marked.
    (
        "prince-after-capture",
        "fixtures/prince/pr-seed-example-1.pgn",
        1,
        Some(10),
    ),
];

fn show(file: &str, game: usize, ply: Option<usize>, extra: &[&str]) -> String {
    let game = game.to_string();
    let ply = ply.map(|p| p.to_string());
    let mut args = vec!["show", file, "--game", &game];
    if let Some(ply) = &ply {
        args.extend(["--ply", ply]);
    }
    args.extend(extra);
    let output = xpgn(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    stdout(&output)
}

#[test]
fn every_format_for_a_game_of_each_rule_set() {
    for (name, file, game, ply) in CASES {
        insta::assert_snapshot!(format!("{name}-text"), show(file, game, ply, &[]));
        insta::assert_snapshot!(format!("{name}-ascii"), show(file, game, ply, &["--ascii"]));
        insta::assert_snapshot!(
            format!("{name}-svg"),
            without_piece_drawings(&show(file, game, ply, &["--format", "svg"]))
        );
    }
}

/// An SVG with each piece drawing cut to its id: the set's paths are the set's (checked
/// as pixels below), the rest of the picture is the snapshot's.
fn without_piece_drawings(svg: &str) -> String {
    svg.lines()
        .map(|line| match line.strip_prefix(r#"<g id=""#) {
            Some(rest) => format!(r#"<g id="{}">...</g>"#, &rest[..rest.find('"').unwrap()]),
            None if line.starts_with("<clipPath") => "<clipPath>...".to_owned(),
            None => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn secret_choices_are_told_as_secret() {
    // The squares of #5 and the pawns of #68 kept secret; the event runs from ply 5.
    let passage = show("fixtures/passage/hp-seed-example-1.pgn", 3, Some(5), &[]);
    assert!(passage.contains("\npassage: c4 <-> f6, revealed (marked *)\n"));
    let pawns = show(
        "fixtures/prince/pr-seed-example-1.pgn",
        3,
        Some(7),
        &["--ascii"],
    );
    insta::assert_snapshot!("prince-secret-ascii", pawns);
}

/// An event command after a move starts the event in the position after that move: the
/// board shown there has it running (`{[%event 5 c4 f6]}` follows 2... Na5, ply 4).
#[test]
fn an_event_started_after_a_ply_runs_on_its_board() {
    let file = "fixtures/passage/hp-seed-example-1.pgn";
    let before = show(file, 1, Some(3), &[]);
    assert!(!before.contains("events:"), "{before}");
    let started = show(file, 1, Some(4), &[]);
    assert!(
        started.contains("events: #5 Hidden passage (by white)"),
        "{started}"
    );
    assert!(started.contains("passage: c4 <-> f6"), "{started}");
    assert!(started.contains(" events(5w:c4,f6)"), "{started}");
}

#[test]
fn usage_errors_say_what_there_is() {
    let output = xpgn(&["show", "fixtures/games/clean.pgn", "--game", "3"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "xpgn: --game 3: fixtures/games/clean.pgn holds 2 games\n"
    );
    let output = xpgn(&["show", "fixtures/games/clean.pgn", "--ply", "46"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "xpgn: --ply 46: the main line of game 1 replays 45 plies (--ply 0 is the start)\n"
    );
    let output = xpgn(&["show", "fixtures/games/clean.pgn", "--game", "0"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("games count from 1"));
    let output = xpgn(&["show", "fixtures/rules/unsupported-variant.pgn"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("nothing to show: ")
            && stderr(&output).contains("xpgn does not support the variant `Crazyhouse`"),
        "{}",
        stderr(&output)
    );
    let output = xpgn(&["show", "no/such/file.pgn"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_game_with_an_illegal_move_is_drawn_up_to_it() {
    let output = xpgn(&["show", "--ascii", "fixtures/rules/pinned.pgn"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("`Nc5` at ply 6: the black knight on d7 is pinned"),
        "{}",
        stderr(&output)
    );
    assert!(stdout(&output).contains("last move: 3. Nf3 (g1-f3)\n"));
    let output = xpgn(&["show", "fixtures/rules/pinned.pgn", "--ply", "6"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("replays 5 plies, where an error stops it"));
}

#[test]
fn the_start_is_ply_0_with_no_last_move() {
    let text = show("fixtures/games/clean.pgn", 2, Some(0), &["--ascii"]);
    assert!(text.starts_with("8  r  n  b  q  k  b  n  r\n"), "{text}");
    assert!(!text.contains("last move"));
    assert!(text.ends_with("FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"));
}

/// The position after `ply` plies of a game's main line, with its variant and last move.
fn position(
    file: &str,
    game: usize,
    ply: Option<usize>,
) -> (&'static Variant, Position, Option<PlayedMove>) {
    let variants = Variants::with_default(Variant::by_name("standard").unwrap());
    let input = Input::from_path(&Path::new(env!("CARGO_MANIFEST_DIR")).join(file));
    let chunk = read_games(&input)
        .unwrap()
        .next()
        .expect("a chunk")
        .unwrap();
    let (_, parsed) = chunk.games(file).nth(game - 1).expect("the game");
    let replay = replay_recording(&parsed.game, &variants, Recording::Board(ply));
    let v = variants.find(&replay.variant).unwrap();
    let (position, last) = *replay.played.unwrap().board.unwrap();
    (v, position, last)
}

/// An RGB colour, for comparing pixels.
type Rgb = [u8; 3];

fn rgb(hex: &str) -> Rgb {
    let channel = |i: usize| u8::from_str_radix(&hex[1 + 2 * i..3 + 2 * i], 16).unwrap();
    [channel(0), channel(1), channel(2)]
}

fn brightness(c: Rgb) -> u32 {
    c.iter().map(|&x| u32::from(x)).sum::<u32>() / 3
}

/// A picture's pixels, opaque RGBA, as the library draws them or the command wrote them.
struct Pixels {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

/// The picture's layout at 60 units a square: the margins that hold the coordinates.
const SQUARE: f64 = 60.0;
const MARGIN: f64 = 24.0;

impl Pixels {
    fn of(pixmap: &tiny_skia::Pixmap) -> Pixels {
        Pixels {
            width: pixmap.width(),
            height: pixmap.height(),
            rgba: pixmap.data().to_vec(),
        }
    }

    fn png(bytes: &[u8]) -> Pixels {
        Pixels::of(&tiny_skia::Pixmap::decode_png(bytes).expect("a PNG"))
    }

    fn at(&self, x: u32, y: u32) -> Rgb {
        let i = 4 * (y * self.width + x) as usize;
        // An opaque picture: premultiplied is straight.
        assert_eq!(self.rgba[i + 3], 255, "({x}, {y}) is opaque");
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2]]
    }

    /// The pixels of a square, `inset` (in units) from its edges, with their distance
    /// from its centre in units; the picture's width gives its scale.
    fn square(&self, v: &Variant, sq: Sq, flip: bool, inset: f64) -> Vec<(Rgb, f64)> {
        let g = v.geometry;
        let scale = f64::from(self.width) / (2.0 * MARGIN + SQUARE * f64::from(g.width));
        let (file, rank) = (f64::from(g.file(sq)), f64::from(g.rank(sq)));
        let (column, row) = if flip {
            (f64::from(g.width) - 1.0 - file, rank)
        } else {
            (file, f64::from(g.height) - 1.0 - rank)
        };
        let (left, top) = (MARGIN + column * SQUARE, MARGIN + row * SQUARE);
        let first = ((left + inset) * scale).ceil() as u32;
        let last = ((left + SQUARE - inset) * scale).floor() as u32;
        let (top_first, top_last) = (
            ((top + inset) * scale).ceil() as u32,
            ((top + SQUARE - inset) * scale).floor() as u32,
        );
        let centre = (left + SQUARE / 2.0, top + SQUARE / 2.0);
        let mut pixels = Vec::new();
        for y in top_first..top_last {
            for x in first..last {
                let (ux, uy) = ((f64::from(x) + 0.5) / scale, (f64::from(y) + 0.5) / scale);
                pixels.push((self.at(x, y), (ux - centre.0).hypot(uy - centre.1)));
            }
        }
        pixels
    }
}

/// How many pixels of two pictures of a square differ visibly (drawing the same piece at
/// another place may change its edges' antialiasing by a shade).
fn unlike(a: &[(Rgb, f64)], b: &[(Rgb, f64)]) -> usize {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .filter(|((x, _), (y, _))| x.iter().zip(y).any(|(p, q)| p.abs_diff(*q) > 24))
        .count()
}

/// The last move's arrow: its green, over any square or piece colour.
fn is_arrow(c: Rgb) -> bool {
    let [r, g, b] = c.map(i32::from);
    g > r + 40 && g > b + 40
}

/// How many of a square's pixels the last move's arrow covers.
fn arrow_pixels(picture: &Pixels, v: &Variant, sq: Sq, flip: bool) -> usize {
    picture
        .square(v, sq, flip, 0.0)
        .iter()
        .filter(|&&(c, _)| is_arrow(c))
        .count()
}

/// The squares of a move's detail (from, through, to) when it goes somewhere: a knight
/// that turns where it stands (#85) has no arrow.
fn move_squares(v: &Variant, last: Option<&PlayedMove>) -> Vec<Sq> {
    let g = v.geometry;
    last.and_then(|m| m.detail.as_deref())
        .map(|m| {
            [Some(&m.from), m.through.as_ref(), Some(&m.to)]
                .into_iter()
                .flatten()
                .map(|name| g.all().find(|&sq| g.name(sq) == *name).unwrap())
                .collect::<Vec<Sq>>()
        })
        .filter(|squares| squares.first() != squares.last())
        .unwrap_or_default()
}

#[test]
fn svg_renders_the_board_and_its_pieces() {
    let light = rgb("#f0d9b5");
    let dark = rgb("#b58863");
    let rasteriser = Rasteriser::new();
    for (name, file, game, ply) in CASES {
        let (v, pos, last) = position(file, game, ply);
        let svg = svg_board(v, &pos, last.as_ref(), &PictureOptions::default());
        let picture = Pixels::of(&rasteriser.pixmap(&svg).unwrap());
        let g = v.geometry;
        assert_eq!(picture.width, 48 + 60 * u32::from(g.width), "{name}");
        // The legend under the board: at least the side to move.
        assert!(
            picture.height >= 48 + 60 * u32::from(g.height) + 20,
            "{name}"
        );
        let moved = move_squares(v, last.as_ref());
        // The arrow may cross any square between the move's first and last.
        let crossed = |sq: Sq| {
            let files = moved.iter().map(|&s| g.file(s));
            let ranks = moved.iter().map(|&s| g.rank(s));
            let (f, r) = (g.file(sq), g.rank(sq));
            !moved.is_empty()
                && (files.clone().min().unwrap()..=files.max().unwrap()).contains(&f)
                && (ranks.clone().min().unwrap()..=ranks.max().unwrap()).contains(&r)
        };
        let passage: Vec<Sq> = hidden_passage::passage(&pos)
            .and_then(|p| p.squares())
            .into_iter()
            .flatten()
            .chain(v.passes.iter().flat_map(|&(a, b)| [a, b]))
            .collect();
        let mut pieces = 0;
        for sq in g.all() {
            let context = format!("{name}: {}", g.name(sq));
            let pixels = picture.square(v, sq, false, 6.0);
            let square = if (g.file(sq) + g.rank(sq)) % 2 == 1 {
                light
            } else {
                dark
            };
            let marked =
                crossed(sq) || passage.contains(&sq) || loyal_knights::facing(&pos, sq).is_some();
            let share = |test: fn(Rgb) -> bool| {
                pixels.iter().filter(|&&(c, _)| test(c)).count() * 100 / pixels.len()
            };
            match pos.piece_at(sq) {
                None if !marked => assert!(
                    pixels.iter().all(|&(c, _)| c == square),
                    "{context}: an empty square is its colour alone"
                ),
                None => {}
                Some(piece) => {
                    pieces += 1;
                    // Every piece of the set has a black outline; a white one is white
                    // inside it, a black one black.
                    let ink = share(|c| brightness(c) < 60);
                    let paper = share(|c| brightness(c) > 235);
                    if crossed(sq) {
                        // Under the see-through arrow: the outline still shows.
                        assert!(ink >= 5, "{context}: a piece under the arrow, {ink}% ink");
                    } else if piece.color == xpgn::rules::Color::White {
                        assert!(
                            ink >= 5 && paper >= 12,
                            "{context}: white piece {ink}% ink, {paper}% white"
                        );
                    } else {
                        assert!(ink >= 20, "{context}: black piece {ink}% ink");
                    }
                }
            }
            let whole = picture.square(v, sq, false, 0.0);
            let count = |hex: &str| whole.iter().filter(|&&(c, _)| c == rgb(hex)).count();
            if passage.contains(&sq) {
                assert!(count("#1e6fd9") > 100, "{context}: a passage frame");
            }
            if loyal_knights::facing(&pos, sq).is_some() {
                assert!(count("#d32f2f") > 30, "{context}: a knight's arrow");
            }
        }
        assert_eq!(pieces, pos.occupied().count(), "{name}");
        for &sq in &moved {
            assert!(
                arrow_pixels(&picture, v, sq, false) > 40,
                "{name}: the last move's arrow on {}",
                g.name(sq)
            );
        }
    }
}

/// Every frame of a GIF as shown: each drawn over the one before (its transparent pixels
/// keep what was there), as a viewer does.
fn gif_frames(bytes: &[u8]) -> Vec<(Pixels, u16)> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let (width, height) = (u32::from(decoder.width()), u32::from(decoder.height()));
    assert_eq!(decoder.repeat(), gif::Repeat::Infinite, "it loops");
    let mut canvas = vec![0u8; (width * height * 4) as usize];
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        for (i, pixel) in frame.buffer.chunks_exact(4).enumerate() {
            if pixel[3] == 0 {
                continue;
            }
            let x = u32::from(frame.left) + i as u32 % u32::from(frame.width);
            let y = u32::from(frame.top) + i as u32 / u32::from(frame.width);
            let at = (4 * (y * width + x)) as usize;
            canvas[at..at + 4].copy_from_slice(pixel);
        }
        let pixels = Pixels {
            width,
            height,
            rgba: canvas.clone(),
        };
        frames.push((pixels, frame.delay));
    }
    frames
}

/// The fixture folders of rule sets and events (not those of syntax, lint and rulings),
/// each with its shortest game that replays cleanly: the file, the variant, the moves.
fn a_game_of_each_fixture_folder() -> Vec<(String, &'static Variant, Vec<Option<PlayedMove>>)> {
    let variants = Variants::with_default(Variant::by_name("standard").unwrap());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut folders: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .filter(|path| {
            !["lint", "rules", "syntax"].contains(&path.file_name().unwrap().to_str().unwrap())
        })
        .collect();
    folders.sort();
    let mut games = Vec::new();
    for folder in folders {
        let mut files: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "pgn"))
            .collect();
        files.sort_by_key(|path| (std::fs::metadata(path).unwrap().len(), path.clone()));
        let chosen = files.iter().find_map(|path| {
            let file = path
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned();
            let chunk = read_games(&Input::from_path(path)).ok()?.next()?.ok()?;
            let (_, parsed) = chunk.games(&file).next()?;
            let clean = |ply: usize| {
                let replay = replay_recording(&parsed.game, &variants, Recording::Board(Some(ply)));
                let errors = replay
                    .diagnostics
                    .iter()
                    .chain(&parsed.diagnostics)
                    .any(|d| d.is_error());
                (!errors).then_some(replay)
            };
            let plies = clean(0)?.played?.main_plies;
            if plies < 2 {
                return None;
            }
            let v = variants.find(&clean(0)?.variant)?;
            let moves: Option<Vec<Option<PlayedMove>>> = (1..=plies)
                .map(|ply| Some(clean(ply)?.played?.board?.1))
                .collect();
            Some((file, v, moves?))
        });
        if let Some(chosen) = chosen {
            games.push(chosen);
        }
    }
    games
}

fn picture_bytes(args: &[&str]) -> Vec<u8> {
    let output = xpgn(args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{args:?}: {}",
        stderr(&output)
    );
    output.stdout
}

#[test]
fn png_and_gif_of_a_game_of_each_fixture_folder() {
    let games = a_game_of_each_fixture_folder();
    // Every folder of rule sets and events but `threads` and `variants` (no PGN there).
    assert!(games.len() >= 50, "{} folders", games.len());
    for (file, v, moves) in games {
        let g = v.geometry;
        let width = 48 + 60 * u32::from(g.width);
        let last = moves.last().unwrap().as_ref();
        let png = Pixels::png(&picture_bytes(&["show", &file, "--format", "png"]));
        assert_eq!(png.width, width, "{file}");
        for sq in move_squares(v, last) {
            assert!(
                arrow_pixels(&png, v, sq, false) > 40,
                "{file}: the arrow on {}",
                g.name(sq)
            );
        }
        let frames = gif_frames(&picture_bytes(&["show", &file, "--format", "gif"]));
        assert_eq!(
            frames.len(),
            moves.len() + 1,
            "{file}: a frame a ply and the start"
        );
        assert!(
            frames
                .iter()
                .all(|(f, _)| f.width == width && f.height >= png.height),
            "{file}"
        );
        let delays: Vec<u16> = frames.iter().map(|&(_, delay)| delay).collect();
        assert!(
            delays[..moves.len()].iter().all(|&d| d == 100),
            "{file}: {delays:?}"
        );
        assert_eq!(delays[moves.len()], 300, "{file}: the end is held");
        for (ply, played) in moves.iter().enumerate() {
            let squares = move_squares(v, played.as_ref());
            let (before, after) = (&frames[ply].0, &frames[ply + 1].0);
            for &sq in squares.first().into_iter().chain(squares.last()) {
                assert_ne!(
                    before.square(v, sq, false, 4.0),
                    after.square(v, sq, false, 4.0),
                    "{file}: ply {}: {} changes",
                    ply + 1,
                    g.name(sq)
                );
                assert!(
                    arrow_pixels(after, v, sq, false) > 40,
                    "{file}: ply {}: the arrow on {}",
                    ply + 1,
                    g.name(sq)
                );
            }
        }
    }
}

#[test]
fn a_flipped_picture_has_black_at_the_bottom() {
    let file = "fixtures/games/clean.pgn";
    let (v, start, _) = position(file, 1, Some(0));
    let (_, _, last) = position(file, 1, None);
    let g = v.geometry;
    let png = |ply: Option<&str>, flip: bool| {
        let mut args = vec!["show", file, "--format", "png"];
        args.extend(ply.map(|ply| ["--ply", ply]).into_iter().flatten());
        if flip {
            args.push("--flip");
        }
        Pixels::png(&picture_bytes(&args))
    };
    let (upright, flipped) = (png(Some("0"), false), png(Some("0"), true));
    assert_eq!(
        (upright.width, upright.height),
        (flipped.width, flipped.height)
    );
    for sq in g.all() {
        // The picture turned half round, the pieces kept upright: each square's drawing
        // is where the square turned half round is.
        let turned = g
            .sq(g.width - 1 - g.file(sq), g.height - 1 - g.rank(sq))
            .unwrap();
        assert!(
            unlike(
                &upright.square(v, sq, false, 0.0),
                &flipped.square(v, sq, true, 0.0)
            ) == 0,
            "{}: drawn where it belongs",
            g.name(sq)
        );
        if start.piece_at(sq) != start.piece_at(turned) {
            let pixels = upright.square(v, sq, false, 0.0);
            assert!(
                unlike(&pixels, &flipped.square(v, sq, false, 0.0)) * 10 > pixels.len(),
                "{}: the flipped picture shows {} there",
                g.name(sq),
                g.name(turned)
            );
        }
    }
    // The last move's arrow is on its squares where the flipped board has them.
    let flipped = png(None, true);
    for sq in move_squares(v, last.as_ref()) {
        assert!(arrow_pixels(&flipped, v, sq, true) > 40, "{}", g.name(sq));
        assert_eq!(arrow_pixels(&flipped, v, sq, false), 0, "{}", g.name(sq));
    }
}

#[test]
fn size_sets_the_width_and_the_height_follows() {
    let file = "fixtures/passage/hp-seed-example-1.pgn";
    let natural = Pixels::png(&picture_bytes(&[
        "show", file, "--ply", "6", "--format", "png",
    ]));
    let sized = Pixels::png(&picture_bytes(&[
        "show", file, "--ply", "6", "--format", "png", "--size", "300",
    ]));
    assert_eq!(sized.width, 300);
    let expected = f64::from(natural.height) * 300.0 / f64::from(natural.width);
    assert_eq!(sized.height, expected.round() as u32);
    // The passage's frame and the arrow scale with it.
    let (v, _, last) = position(file, 1, Some(6));
    for sq in move_squares(v, last.as_ref()) {
        assert!(
            arrow_pixels(&sized, v, sq, false) > 10,
            "{}",
            v.geometry.name(sq)
        );
    }
    let svg = show(file, 1, Some(6), &["--format", "svg", "--size", "300"]);
    assert!(svg.starts_with(&format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="{}" viewBox="0 0 {} {}""#,
        sized.height, natural.width, natural.height
    )), "{svg}");
    let output = xpgn(&["show", file, "--format", "png", "--size", "10"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("64..=4096"), "{}", stderr(&output));
}

#[test]
fn flip_and_size_are_for_pictures() {
    for flag in [&["--flip"][..], &["--size", "400"]] {
        let mut args = vec!["show", "fixtures/games/clean.pgn"];
        args.extend(flag);
        let output = xpgn(&args);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(
            stderr(&output),
            "xpgn: --flip and --size draw pictures: add --format svg, png or gif\n"
        );
    }
}

#[test]
fn the_legend_explains_each_marking() {
    let passage = show(
        "fixtures/passage/hp-seed-example-1.pgn",
        1,
        Some(6),
        &["--format", "svg"],
    );
    for words in [
        "white to move",
        "last move: 3... Nxf6-c4 (g8-f6-c4)",
        "events: #5 Hidden passage (by white)",
        "passage: c4 &lt;-&gt; f6, revealed (framed in blue)",
    ] {
        assert!(
            passage.contains(&format!(">{words}</text>")),
            "{words}: {passage}"
        );
    }
    let knights = show(
        "fixtures/knights/lk-seed-example-1.pgn",
        1,
        None,
        &["--format", "svg", "--flip"],
    );
    // Flipped, the arrows of the legend turn with the board's.
    assert!(
        knights.contains("knights facing: white Nb1-&gt;b2 ↓"),
        "{knights}"
    );
    let sip = show("fixtures/sip/sip-3-pass.pgn", 1, None, &["--format", "svg"]);
    assert!(
        sip.contains("pieces: A archbishop (knight|bishop), C chancellor (knight|rook), F fil"),
        "{sip}"
    );
}

/// The README's picture is the one `show` draws today (`docs/pictures/`), remade with
/// `xpgn show fixtures/passage/hp-seed-example-1.pgn --ply 6 --format png` when the
/// drawing changes.
#[test]
fn the_readme_picture_is_what_show_draws() {
    let file = "fixtures/passage/hp-seed-example-1.pgn";
    let drawn = Pixels::png(&picture_bytes(&[
        "show", file, "--ply", "6", "--format", "png",
    ]));
    let kept = Pixels::png(
        &std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/pictures/hidden-passage.png"),
        )
        .unwrap(),
    );
    assert_eq!((drawn.width, drawn.height), (kept.width, kept.height));
    let differing = drawn
        .rgba
        .chunks_exact(4)
        .zip(kept.rgba.chunks_exact(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(p, q)| p.abs_diff(*q) > 24))
        .count();
    assert!(
        differing < 50,
        "{differing} pixels differ: remake the picture"
    );
    let frames = gif_frames(
        &std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/pictures/hidden-passage.gif"),
        )
        .unwrap(),
    );
    let (_, _, last) = position(file, 1, None);
    assert_eq!(frames.len(), last.unwrap().ply + 1);
}

#[test]
fn a_flipped_sized_svg() {
    // Black at the bottom: rank 8's labels and pieces first from the bottom, the
    // knights' arrows and the legend's turned; 400 pixels wide, the units unchanged.
    let svg = show(
        "fixtures/knights/lk-seed-example-1.pgn",
        1,
        None,
        &["--format", "svg", "--flip", "--size", "400"],
    );
    insta::assert_snapshot!("loyal-knights-svg-flip-size", without_piece_drawings(&svg));
}
