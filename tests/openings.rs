//! A game replayed after others that share its opening gets the verdict it gets alone:
//! moves met before are found among the openings each thread keeps instead of being
//! resolved again (`src/replay/openings.rs`). Each thread keeps its own, so a fresh
//! thread replays with none kept.

mod common;

use std::path::Path;

use xpgn::games::read_games;
use xpgn::pgn::ParsedGame;
use xpgn::replay::{Replay, check_game};
use xpgn::rules::{Variant, Variants};
use xpgn::source::Input;

fn standard() -> Variants {
    Variants::with_default(Variant::by_name("standard").unwrap())
}

fn games_of(path: &Path, limit: usize) -> Vec<ParsedGame> {
    read_games(&Input::from_path(path))
        .unwrap()
        .flat_map(|chunk| chunk.unwrap().games)
        .take(limit)
        .collect()
}

/// Replays `games` in a thread of their own, in the order `order` gives.
fn replayed_in_order(
    games: &[ParsedGame],
    variants: &Variants,
    order: impl Iterator<Item = usize> + Send,
) -> Vec<(usize, Replay)> {
    std::thread::scope(|s| {
        s.spawn(|| {
            order
                .map(|i| (i, check_game(&games[i], variants)))
                .collect()
        })
        .join()
        .unwrap()
    })
}

fn assert_same(name: &str, expected: &[Replay], mut got: Vec<(usize, Replay)>, how: &str) {
    got.sort_by_key(|(i, _)| *i);
    for ((i, replay), alone) in got.iter().zip(expected) {
        assert_eq!(replay, alone, "{name}: game {} {how}", i + 1);
    }
}

#[test]
fn every_fixture_game_gets_the_verdict_it_gets_alone() {
    let variants = standard();
    for file in common::fixture_files("pgn") {
        let games = games_of(&file, usize::MAX);
        let name = file.display().to_string();
        let alone: Vec<Replay> = (0..games.len())
            .map(|i| {
                replayed_in_order(&games, &variants, std::iter::once(i))
                    .remove(0)
                    .1
            })
            .collect();
        let forward = replayed_in_order(&games, &variants, 0..games.len());
        assert_same(&name, &alone, forward, "after the games before it");
        let twice = replayed_in_order(&games, &variants, (0..games.len()).chain(0..games.len()));
        let (first, second) = twice.split_at(games.len());
        assert_same(&name, &alone, second.to_vec(), "replayed a second time");
        assert_same(&name, &alone, first.to_vec(), "replayed a first time");
    }
}

/// The fixture made for it: games that share their first moves and then differ in a
/// check mark, an illegal move, a variation, a null move, a FEN, a variant, an event.
#[test]
fn shared_openings_fixture_finds_every_problem() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rules/shared-openings.pgn");
    let games = games_of(&file, usize::MAX);
    let replays = replayed_in_order(&games, &standard(), 0..games.len());
    let codes: Vec<Vec<&str>> = replays
        .iter()
        .map(|(_, r)| r.diagnostics.iter().map(|d| d.code.name()).collect())
        .collect();
    assert_eq!(
        codes,
        [
            vec![],
            vec!["wrong-check-mark"],
            vec!["wrong-check-mark"],
            vec!["illegal-move"],
            vec!["illegal-move"],
            vec!["illegal-move"],
            vec!["null-move"],
            vec!["null-move"],
            vec![],
            vec!["result-contradicts-board"],
            vec![],
            vec!["illegal-move"],
            vec![],
            vec![],
        ]
    );
    let plies: Vec<usize> = replays.iter().map(|(_, r)| r.plies).collect();
    assert_eq!(plies, [6, 4, 4, 6, 5, 2, 3, 4, 4, 4, 6, 1, 4, 6]);
}

/// Real collections, replayed front to back and back to front: each game then follows
/// other games (and other openings kept) in the two runs.
#[test]
fn corpus_games_get_the_same_verdict_in_either_order() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/standard");
    if !dir.exists() {
        eprintln!("skipped: {} is absent", dir.display());
        return;
    }
    let variants = standard();
    for (name, limit) in [("openings.pgn", 40_000), ("human.pgn", 4_000)] {
        let games = games_of(&dir.join(name), limit);
        let forward = replayed_in_order(&games, &variants, 0..games.len());
        let backward = replayed_in_order(&games, &variants, (0..games.len()).rev());
        let forward: Vec<Replay> = forward.into_iter().map(|(_, r)| r).collect();
        assert_same(name, &forward, backward, "replayed back to front");
    }
}
