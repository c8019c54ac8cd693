//! `xpgn convert`: every format for a game of each rule set (snapshots), with the exit
//! status and what standard error says (UCI cannot spell passage moves, pushes, turns).

mod common;

use common::{stderr, stdout, xpgn_with_input};
use std::path::Path;

use xpgn::games::read_games;
use xpgn::source::Input;

/// A game of each rule set: name, file, game (1-based).
const CASES: [(&str, &str, usize); 8] = [
    ("standard", "fixtures/games/clean.pgn", 1),
    ("chess960", "fixtures/games/chess960.pgn", 1),
    ("capablanca", "fixtures/games/capablanca.pgn", 1),
    ("secret-invisible-pass", "fixtures/sip/sip-3-pass.pgn", 1),
    (
        "hidden-passage",
        "fixtures/passage/hp-seed-example-1.pgn",
        1,
    ),
    ("line-pushers", "fixtures/events/lp-seed-example-1.pgn", 1),
    ("prince", "fixtures/prince/pr-seed-example-1.pgn", 1),
    ("loyal-knights", "fixtures/knights/lk-seed-example-1.pgn", 1),
];

const FORMATS: [&str; 7] = ["san", "lan", "uci", "fen", "json", "yaml", "pgn"];

/// The text of one game of a file, as written.
fn game_text(file: &str, number: usize) -> String {
    let input = Input::from_path(&Path::new(env!("CARGO_MANIFEST_DIR")).join(file));
    let chunks = read_games(&input).expect("fixture reads");
    let mut seen = 0;
    for chunk in chunks {
        let chunk = chunk.expect("fixture reads");
        for (source, parsed) in chunk.games(file) {
            seen += 1;
            if seen == number {
                let span = parsed.game.span;
                let start = span.offset - source.offset;
                return source.text[start..start + span.len].to_owned();
            }
        }
    }
    panic!("{file} has no game {number}");
}

#[test]
fn every_format_for_a_game_of_each_rule_set() {
    for (name, file, number) in CASES {
        let game = game_text(file, number);
        let mut snapshot = String::new();
        for format in FORMATS {
            let output = xpgn_with_input(&["convert", "--to", format, "-"], &game);
            let code = output.status.code().expect("exits");
            snapshot.push_str(&format!("=== --to {format} (exit {code})\n"));
            snapshot.push_str(&stdout(&output));
            let errors = stderr(&output);
            if !errors.is_empty() {
                snapshot.push_str("--- stderr\n");
                snapshot.push_str(&errors);
            }
            // Only UCI may refuse, and only a game with a move it cannot spell.
            let refused = format == "uci" && code == 1 && errors.contains("has no UCI spelling");
            assert!(code == 0 || refused, "{name} --to {format}: {errors}");
        }
        insta::assert_snapshot!(name, snapshot);
    }
}
