//! Every diagnostic, rendered as a person sees it (unicode, no colour, width 80), from
//! the fixtures of every folder under `fixtures/` with an `expected.yaml`: `syntax/`
//! (reading), `rules/` (replaying), `sip/` (Secret Invisible Pass, one file per ruling),
//! `events/` (#43 Line Pushers and the Event Chess meta rules), one folder per event
//! (`passage/`, `prince/`, `knights/`, ...: its seed or catalogue examples and rulings)
//! and `pairs/` (events together); each event folder also holds a forum transcript.
//! Each folder's `expected.yaml` says which codes each fixture must give, so a snapshot
//! can never silently accept a wrong finding.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use xpgn::diagnostic::Code;
use xpgn::games::read_games;
use xpgn::replay::check_game;
use xpgn::report::{plain_handler, render};
use xpgn::rules::{Variant, Variants};
use xpgn::source::Input;

fn fixtures(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(kind)
}

fn expected(kind: &str) -> BTreeMap<String, Vec<String>> {
    let text = std::fs::read_to_string(fixtures(kind).join("expected.yaml")).unwrap();
    serde_saphyr::from_str(&text).unwrap()
}

/// Checks every fixture of a folder against its `expected.yaml` and snapshots the
/// rendered diagnostics.
fn check_fixtures(kind: &str) {
    let expected = expected(kind);
    let mut names: Vec<String> = std::fs::read_dir(fixtures(kind))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        // Forum transcripts (`.txt`) and game documents (`.json`, `.yaml`) are read as
        // such by their extension.
        .filter(|n| n != "expected.yaml")
        .filter(|n| {
            [".pgn", ".txt", ".json", ".yaml"]
                .iter()
                .any(|e| n.ends_with(e))
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        expected.keys().cloned().collect::<Vec<_>>(),
        "expected.yaml lists every fixture"
    );
    let handler = plain_handler();
    let standard = Variants::with_default(Variant::by_name("standard").unwrap());
    // Every fixture is checked before the test fails, so one wrong file does not hide
    // the findings of the files after it.
    let mut wrong = Vec::new();
    for name in names {
        let input = Input::from_path(&fixtures(kind).join(&name));
        let display = format!("fixtures/{kind}/{name}");
        let mut codes = Vec::new();
        let mut rendered = String::new();
        for chunk in read_games(&input).unwrap() {
            let chunk = chunk.unwrap();
            for (source, game) in chunk.games(&display) {
                for diagnostic in check_game(game, &standard).diagnostics {
                    codes.push(diagnostic.code.name().to_owned());
                    rendered.push_str(&render(&handler, &diagnostic, source));
                }
            }
        }
        if codes != expected[&name] {
            wrong.push(format!(
                "{name}: expected {:?}, got {codes:?}\n{rendered}",
                expected[&name]
            ));
            continue;
        }
        let snapshot = name
            .rsplit_once('.')
            .map_or(name.as_str(), |(stem, _)| stem);
        insta::assert_snapshot!(snapshot.to_owned(), rendered);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The folders of `fixtures/` whose games' diagnostics `expected.yaml` lists: reading,
/// rules, and one per rule set or event (a new event's folder is found by its file);
/// `lint/` is `xpgn lint`'s (tests/lint.rs).
fn diagnostic_folders() -> Vec<String> {
    let mut folders: Vec<String> = std::fs::read_dir(fixtures(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|path| path.join("expected.yaml").is_file())
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "lint")
        .collect();
    folders.sort();
    folders
}

#[test]
fn every_fixture_gives_its_diagnostics() {
    let folders = diagnostic_folders();
    for known in [
        "syntax", "rules", "sip", "events", "passage", "prince", "knights",
    ] {
        assert!(
            folders.iter().any(|f| f == known),
            "fixtures/{known}/ is found"
        );
    }
    for folder in folders {
        check_fixtures(&folder);
    }
}

#[test]
fn every_code_has_a_fixture() {
    let mut all = BTreeMap::new();
    for folder in diagnostic_folders() {
        all.extend(expected(&folder));
    }
    // Style rules come from `xpgn lint` (tests/lint.rs checks their fixtures).
    all.extend(expected("lint"));
    // A game too large to read takes more than a megabyte: tests/hostile.rs makes one.
    for code in Code::ALL.into_iter().filter(|&c| c != Code::GameTooLarge) {
        assert!(
            all.values().flatten().any(|c| c == code.name()),
            "no fixture gives {}",
            code.name()
        );
    }
}
