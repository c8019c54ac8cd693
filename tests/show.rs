//! `xpgn show`: the board diagrams of a game of each rule set in every format
//! (snapshots), the SVG rendered to pixels by a real renderer (resvg), and the usage
//! errors.

mod common;

use common::{stderr, stdout, xpgn};
use std::path::Path;

use resvg::{tiny_skia, usvg};
use xpgn::board_view::svg_board;
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
            show(file, game, ply, &["--format", "svg"])
        );
    }
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
    let (position, last) = replay.played.unwrap().board.unwrap();
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

/// The picture as resvg draws it, and whether a font with the chess glyphs was there.
fn render(svg: &str) -> (tiny_skia::Pixmap, bool) {
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let glyph_font = options
        .fontdb
        .faces()
        .any(|face| face.families.iter().any(|(name, _)| name == "DejaVu Sans"));
    let tree = usvg::Tree::from_str(svg, &options).expect("valid SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    (pixmap, glyph_font)
}

/// The pixels of a square, `inset` from its edges (neighbours' arrows may reach them),
/// with their distance from the square's centre.
fn square_pixels(pixmap: &tiny_skia::Pixmap, v: &Variant, sq: Sq, inset: u32) -> Vec<(Rgb, f64)> {
    const SQUARE: u32 = 60;
    const MARGIN: u32 = 24;
    let g = v.geometry;
    let left = MARGIN + u32::from(g.file(sq)) * SQUARE;
    let top = MARGIN + u32::from(g.height - 1 - g.rank(sq)) * SQUARE;
    let centre = f64::from(SQUARE) / 2.0;
    let mut pixels = Vec::new();
    for y in inset..SQUARE - inset {
        for x in inset..SQUARE - inset {
            let p = pixmap.pixel(left + x, top + y).unwrap();
            // An opaque background: premultiplied is straight.
            assert_eq!(p.alpha(), 255);
            let distance = (f64::from(x) + 0.5 - centre).hypot(f64::from(y) + 0.5 - centre);
            pixels.push(([p.red(), p.green(), p.blue()], distance));
        }
    }
    pixels
}

#[test]
fn svg_renders_the_board_and_its_pieces() {
    let light = rgb("#f0d9b5");
    let dark = rgb("#b58863");
    for (name, file, game, ply) in CASES {
        let (v, pos, last) = position(file, game, ply);
        let svg = svg_board(v, &pos, last.as_ref());
        let (pixmap, glyph_font) = render(&svg);
        let g = v.geometry;
        assert_eq!(
            (pixmap.width(), pixmap.height()),
            (48 + 60 * u32::from(g.width), 48 + 60 * u32::from(g.height)),
            "{name}"
        );
        let last_squares: Vec<&String> = last
            .iter()
            .filter_map(|m| m.detail.as_deref())
            .flat_map(|m| [Some(&m.from), m.through.as_ref(), Some(&m.to)])
            .flatten()
            .collect();
        let passage: Vec<Sq> = hidden_passage::passage(&pos)
            .and_then(|p| p.squares())
            .into_iter()
            .flatten()
            .chain(v.passes.iter().flat_map(|&(a, b)| [a, b]))
            .collect();
        let mut pieces = 0;
        for sq in g.all() {
            let context = format!("{name}: {}", g.name(sq));
            let pixels = square_pixels(&pixmap, v, sq, 6);
            let square = if (g.file(sq) + g.rank(sq)) % 2 == 1 {
                light
            } else {
                dark
            };
            let marked = last_squares.contains(&&g.name(sq))
                || passage.contains(&sq)
                || loyal_knights::facing(&pos, sq).is_some();
            match pos.piece_at(sq) {
                None if !marked => assert!(
                    pixels.iter().all(|&(c, _)| c == square),
                    "{context}: an empty square is its colour alone"
                ),
                None => {}
                Some(piece) => {
                    pieces += 1;
                    let white = piece.color == xpgn::rules::Color::White;
                    let is_disc = |c: Rgb| {
                        if white {
                            brightness(c) > 235
                        } else {
                            brightness(c) < 50
                        }
                    };
                    let disc = pixels.iter().filter(|&&(c, _)| is_disc(c)).count();
                    assert!(
                        disc * 4 > pixels.len(),
                        "{context}: the piece's disc ({disc} of {} pixels)",
                        pixels.len()
                    );
                    if glyph_font {
                        // The glyph or letter: ink of the other colour inside the disc's rim.
                        let inside: Vec<Rgb> = pixels
                            .iter()
                            .filter(|&&(_, d)| d < 18.0)
                            .map(|&(c, _)| c)
                            .collect();
                        let ink = inside.iter().filter(|&&c| !is_disc(c)).count();
                        assert!(
                            ink * 10 > inside.len(),
                            "{context}: the piece's glyph ({ink} of {} pixels)",
                            inside.len()
                        );
                    }
                }
            }
            let whole = square_pixels(&pixmap, v, sq, 0);
            let count = |hex: &str| whole.iter().filter(|&&(c, _)| c == rgb(hex)).count();
            if passage.contains(&sq) {
                assert!(count("#1e6fd9") > 100, "{context}: a passage ring");
            }
            if loyal_knights::facing(&pos, sq).is_some() {
                assert!(count("#d32f2f") > 30, "{context}: a knight's arrow");
            }
        }
        assert_eq!(pieces, pos.occupied().count(), "{name}");
    }
    let fonts = render("<svg xmlns=\"http://www.w3.org/2000/svg\"/>").1;
    if !fonts {
        eprintln!("no DejaVu Sans among the system fonts: glyphs not checked");
    }
}
