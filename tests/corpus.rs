//! Real files from `../shared/corpus`: every game prints back without loss, `fmt` is
//! idempotent, and malformed files from other projects' suites give diagnostics, never
//! a panic or a hang; every orthodox game replays to the reference verdict. Skips with a
//! message when the corpus is absent.

mod common;

use std::path::{Path, PathBuf};

use xpgn::games::read_games;
use xpgn::layout::{ordered_tags, write_game};
use xpgn::pgn::{Game, Item, parse_str};
use xpgn::replay::check_game;
use xpgn::rules::{Variant, Variants};
use xpgn::source::{Input, InputFormat};
use xpgn::span::Spanned;

fn corpus(part: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(part);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("skipped: {} is absent", path.display());
        None
    }
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    files.sort();
    files
}

/// The game as the printer orders it: tags in printing order, the rest as read, less
/// the move numbers (the printer writes its own).
fn canonical(game: &Game) -> Game {
    let mut game = game.clone();
    game.tags = ordered_tags(&game.tags).into_iter().cloned().collect();
    without_numbers(&mut game.moves);
    game
}

fn without_numbers(items: &mut Vec<Spanned<Item>>) {
    items.retain(|item| !matches!(item.node, Item::MoveNumber(_)));
    for item in items {
        if let Item::Variation(line) = &mut item.node {
            without_numbers(line);
        }
    }
}

/// Parses `path` as PGN and checks parse -> print -> parse and print idempotence for
/// every game; returns the number of games.
fn round_trip(path: &Path) -> usize {
    let input = Input::from_path(path);
    let mut games = 0;
    let mut printed = String::new();
    for chunk in read_games(&input).unwrap_or_else(|e| panic!("{}: {e}", path.display())) {
        let chunk = chunk.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for (source, parsed) in chunk.games("") {
            games += 1;
            printed.clear();
            write_game(&parsed.game, &mut printed);
            let again = parse_str(&printed);
            let reread: Vec<Game> = again.iter().map(|g| canonical(&g.game)).collect();
            assert_eq!(
                reread,
                [canonical(&parsed.game)],
                "{} game {games} (line {}) does not read back as printed:\n{printed}",
                path.display(),
                source.line + 1
            );
            let mut twice = String::new();
            write_game(&again[0].game, &mut twice);
            assert_eq!(
                twice,
                printed,
                "{} game {games}: fmt is not idempotent",
                path.display()
            );
        }
    }
    games
}

fn round_trip_all(part: &str) {
    let Some(dir) = corpus(part) else { return };
    for file in files_under(&dir) {
        let name = file.to_string_lossy();
        if name.ends_with(".pgn") {
            assert!(round_trip(&file) > 0, "{name} has games");
        }
    }
}

#[test]
fn human_games_round_trip() {
    if let Some(dir) = corpus("standard") {
        assert_eq!(round_trip(&dir.join("human.pgn")), 12_782);
    }
}

#[test]
fn opening_books_round_trip() {
    if let Some(dir) = corpus("standard") {
        assert_eq!(round_trip(&dir.join("openings.pgn")), 245_142);
    }
}

#[test]
fn engine_games_round_trip() {
    if let Some(dir) = corpus("standard") {
        assert_eq!(round_trip(&dir.join("engine.pgn")), 27_608);
    }
}

#[test]
fn variant_games_round_trip() {
    round_trip_all("variants");
}

/// The reference verdict of the corpus README: every game of standard/ is legal (two odds
/// games use the null move, which is a warning).
#[test]
fn every_standard_game_replays_legally() {
    let Some(dir) = corpus("standard") else {
        return;
    };
    let standard = Variants::with_default(Variant::by_name("standard").unwrap());
    let mut games = 0;
    for file in files_under(&dir) {
        for chunk in read_games(&Input::from_path(&file)).unwrap() {
            let chunk = chunk.unwrap();
            for (source, game) in chunk.games("") {
                games += 1;
                let checked = check_game(game, &standard);
                let errors: Vec<_> = checked
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .collect();
                assert!(
                    errors.is_empty(),
                    "{} line {}: {errors:?}",
                    file.display(),
                    source.line + 1
                );
            }
        }
    }
    assert_eq!(games, 12_782 + 245_142 + 27_608);
}

/// Fairy-Stockfish's random games of `variant` replay to their recorded length, and each
/// `_illegal` copy is flagged first at the ply its `.tsv` names.
fn synthetic_games_match_their_records(variant: &str) {
    let Some(dir) = corpus(&format!("variants/synthetic/{variant}")) else {
        return;
    };
    let rules = Variant::by_name(variant).unwrap();
    let variants = Variants::with_default(rules);
    let verdicts = |name: &str| -> Vec<xpgn::replay::Replay> {
        read_games(&Input::from_path(&dir.join(name)))
            .unwrap()
            .flat_map(|chunk| {
                let chunk = chunk.unwrap();
                chunk
                    .games
                    .iter()
                    .map(|g| check_game(g, &variants))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let column = |name: &str, index: usize| -> Vec<String> {
        std::fs::read_to_string(dir.join(name))
            .unwrap()
            .lines()
            .skip(1)
            .map(|line| line.split('\t').nth(index).unwrap().to_owned())
            .collect()
    };
    let legal = verdicts(&format!("synthetic_{variant}.pgn"));
    assert_eq!(legal.len(), 60);
    for replay in &legal {
        assert_eq!(replay.variant, rules.slug);
        let errors: Vec<_> = replay.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{variant}: {errors:?}");
    }
    let plies: Vec<String> = legal.iter().map(|r| r.plies.to_string()).collect();
    assert_eq!(plies, column(&format!("synthetic_{variant}.tsv"), 1));
    let illegal = verdicts(&format!("synthetic_{variant}_illegal.pgn"));
    let first_bad: Vec<String> = illegal
        .iter()
        .map(|r| {
            let d = r
                .diagnostics
                .iter()
                .find(|d| d.is_error())
                .expect("flagged");
            d.at_move.as_ref().expect("a move").ply.to_string()
        })
        .collect();
    assert_eq!(
        first_bad,
        column(&format!("synthetic_{variant}_illegal.tsv"), 1)
    );
}

#[test]
fn synthetic_orthodox_games_match_their_records() {
    synthetic_games_match_their_records("chess");
}

#[test]
fn synthetic_capablanca_games_match_their_records() {
    synthetic_games_match_their_records("capablanca");
}

#[test]
fn synthetic_grand_games_match_their_records() {
    synthetic_games_match_their_records("grand");
}

/// The pychess-variants Grand chess game replays clean.
#[test]
fn grand_corpus_game_checks_clean() {
    let Some(dir) = corpus("variants/grand") else {
        return;
    };
    let standard = Variants::with_default(Variant::by_name("standard").unwrap());
    for file in files_under(&dir) {
        for chunk in read_games(&Input::from_path(&file)).unwrap() {
            for game in &chunk.unwrap().games {
                let checked = check_game(game, &standard);
                assert_eq!(checked.variant, "grand");
                assert!(checked.plies > 40);
                assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
            }
        }
    }
}

/// Every edge file, read as PGN and as a transcript: diagnostics or clean games, and
/// every game that reads without errors round-trips.
#[test]
fn edge_files_never_panic() {
    let Some(dir) = corpus("edge") else { return };
    let mut files = 0;
    for file in files_under(&dir) {
        files += 1;
        for format in [InputFormat::Pgn, InputFormat::Transcript] {
            let mut input = Input::from_path(&file);
            input.format = format;
            let Ok(chunks) = read_games(&input) else {
                continue;
            };
            for chunk in chunks {
                let Ok(chunk) = chunk else { break };
                for parsed in &chunk.games {
                    check_game(
                        parsed,
                        &Variants::with_default(Variant::by_name("standard").unwrap()),
                    );
                }
                if matches!(format, InputFormat::Pgn) {
                    for parsed in chunk
                        .games
                        .iter()
                        .filter(|g| !g.diagnostics.iter().any(|d| d.is_error()))
                    {
                        let mut printed = String::new();
                        write_game(&parsed.game, &mut printed);
                        let reread: Vec<Game> = parse_str(&printed)
                            .iter()
                            .map(|g| canonical(&g.game))
                            .collect();
                        assert_eq!(reread, [canonical(&parsed.game)], "{}", file.display());
                    }
                }
            }
        }
    }
    assert!(files > 100, "the edge corpus has its files");
}

/// Games of variants xpgn does not play (crazyhouse drops, atomic, Seirawan gating...)
/// get exactly one error each, `unsupported-variant`, and never a verdict on their
/// moves; the variants it plays check clean.
#[test]
fn every_variant_game_is_checked_or_declared_unsupported() {
    let Some(dir) = corpus("variants") else {
        return;
    };
    let standard = Variants::with_default(Variant::by_name("standard").unwrap());
    let (mut supported, mut unsupported) = (0, 0);
    for file in files_under(&dir) {
        let name = file.to_string_lossy();
        if name.contains("_illegal") || !name.ends_with(".pgn") {
            continue;
        }
        for chunk in read_games(&Input::from_path(&file)).unwrap() {
            for game in &chunk.unwrap().games {
                let checked = check_game(game, &standard);
                let errors: Vec<&str> = checked
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| d.code.name())
                    .collect();
                if Variant::by_name(&checked.variant).is_some() {
                    supported += 1;
                    assert!(errors.is_empty(), "{}: {errors:?}", file.display());
                } else {
                    unsupported += 1;
                    assert_eq!(errors, ["unsupported-variant"], "{}", file.display());
                }
            }
        }
    }
    assert!(
        supported > 200 && unsupported > 1000,
        "{supported} {unsupported}"
    );
}

/// The issue 20 report, as a user met it: `lint --fix` on a copy of the 12 MB human.pgn
/// (12,782 games, some parts Windows-1252) once kept only the first game. Every game must
/// stay, replaying the same moves; every line the fixes do not touch must stay byte for
/// byte; and a second run must change nothing.
#[test]
fn lint_fix_on_a_copy_of_human_pgn_keeps_every_game_and_byte() {
    let Some(original) = corpus("standard/human.pgn") else {
        return;
    };
    let scratch = common::Scratch::new("corpus-fix");
    let copy = scratch.0.join("human.pgn");
    std::fs::copy(&original, &copy).unwrap();
    let mut permissions = std::fs::metadata(&copy).unwrap().permissions();
    #[allow(
        clippy::permissions_set_readonly_false,
        reason = "a scratch copy of a read-only corpus file, made writable to be fixed"
    )]
    permissions.set_readonly(false);
    std::fs::set_permissions(&copy, permissions).unwrap();
    let (original, copy) = (original.to_str().unwrap(), copy.to_str().unwrap());
    let fix = common::xpgn(&["lint", "--fix", "--quiet", copy]);
    let said = common::stderr(&fix);
    let fixed: usize = said
        .split("fixed ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no fix reported: {said}"));
    let games = |path: &str| {
        common::stdout(&common::xpgn(&[
            "check", "--format", "json", "--quiet", path,
        ]))
        .lines()
        .count()
    };
    assert_eq!(games(copy), 12_782);
    assert_eq!(games(copy), games(original));
    let moves = |path: &str| common::stdout(&common::xpgn(&["convert", "--to", "uci", path]));
    assert!(
        moves(copy) == moves(original),
        "the games replay other moves"
    );
    let (before, after) = (
        std::fs::read(original).unwrap(),
        std::fs::read(copy).unwrap(),
    );
    // Walked side by side: a line is the original's, or a fixed line in its place, or a
    // Seven Tag Roster tag with its placeholder value inserted (`missing-roster-tag`).
    let placeholder_tag = |line: &[u8]| {
        let line = String::from_utf8_lossy(line);
        let line = line.trim_end_matches('\r');
        ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
            .iter()
            .any(|name| line.starts_with(&format!("[{name} \"")))
            && ["\"?\"]", "\"????.??.??\"]", "\"*\"]"]
                .iter()
                .any(|value| line.ends_with(value))
    };
    let before: Vec<&[u8]> = before.split(|&b| b == b'\n').collect();
    let (mut at, mut changed, mut inserted) = (0, 0, 0);
    for line in after.split(|&b| b == b'\n') {
        if before.get(at) == Some(&line) {
            at += 1;
        } else if placeholder_tag(line) && !before.get(at).is_some_and(|b| placeholder_tag(b)) {
            inserted += 1;
        } else {
            changed += 1;
            at += 1;
        }
    }
    assert_eq!(at, before.len(), "lines lost or added");
    // One `missing-roster-tag` finding inserts up to the seven roster tags.
    assert!(
        changed + inserted > 0 && changed <= fixed && inserted <= 7 * fixed,
        "{changed} lines changed and {inserted} inserted by {fixed} fixes"
    );
    let again = common::xpgn(&["lint", "--fix", "--quiet", copy]);
    assert!(
        !common::stderr(&again).contains("fixed"),
        "{}",
        common::stderr(&again)
    );
    assert!(
        std::fs::read(copy).unwrap() == after,
        "a second run changed the file"
    );
}
