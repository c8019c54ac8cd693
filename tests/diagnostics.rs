//! Every syntax diagnostic, rendered as a person sees it (unicode, no colour, width 80),
//! from the fixtures under `fixtures/syntax/`. `expected.yaml` says which codes each
//! fixture must give, so a snapshot can never silently accept a wrong finding.

use std::collections::BTreeMap;
use std::path::Path;

use xpgn::diagnostic::Code;
use xpgn::games::read_games;
use xpgn::report::{plain_handler, render};
use xpgn::source::Input;

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/syntax")
}

#[test]
fn every_syntax_fixture_gives_its_diagnostics() {
    let expected: BTreeMap<String, Vec<String>> =
        serde_saphyr::from_str(&std::fs::read_to_string(fixtures().join("expected.yaml")).unwrap())
            .unwrap();
    let mut names: Vec<String> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pgn"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        expected.keys().cloned().collect::<Vec<_>>(),
        "expected.yaml lists every fixture"
    );
    let handler = plain_handler();
    for name in names {
        let input = Input::from_path(&fixtures().join(&name));
        let display = format!("fixtures/syntax/{name}");
        let mut codes = Vec::new();
        let mut rendered = String::new();
        for chunk in read_games(&input).unwrap() {
            let chunk = chunk.unwrap();
            for game in &chunk.games {
                for diagnostic in &game.diagnostics {
                    codes.push(diagnostic.code.name().to_owned());
                    rendered.push_str(&render(&handler, diagnostic, chunk.source(&display)));
                }
            }
        }
        assert_eq!(codes, expected[&name], "{name}");
        insta::assert_snapshot!(name.trim_end_matches(".pgn").to_owned(), rendered);
    }
}

#[test]
fn every_code_has_a_fixture() {
    let expected: BTreeMap<String, Vec<String>> =
        serde_saphyr::from_str(&std::fs::read_to_string(fixtures().join("expected.yaml")).unwrap())
            .unwrap();
    for code in Code::ALL {
        assert!(
            expected.values().flatten().any(|c| c == code.name()),
            "no fixture gives {}",
            code.name()
        );
    }
}
