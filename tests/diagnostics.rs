//! Every diagnostic, rendered as a person sees it (unicode, no colour, width 80), from
//! the fixtures under `fixtures/syntax/` (reading), `fixtures/rules/` (replaying),
//! `fixtures/sip/` (Secret Invisible Pass, one file per ruling SIP-1..SIP-7) and
//! `fixtures/events/` (Event Chess: #43 Line Pushers with its seed examples and rulings
//! LP-1..LP-6, the meta rules EC-1..EC-4, and a forum transcript) and `fixtures/passage/`
//! (#5 Hidden passage: seed examples 1-5 with the squares given and secret, rulings
//! HP-1..HP-8) and `fixtures/prince/` (#68 Prince: seed examples 1-3 with the pawns given
//! and secret, rulings PR-1..PR-5), `fixtures/knights/` (#85 Loyal Knights: seed examples
//! 1-8, rulings LK-1..LK-9) and `fixtures/pairs/` (every pair of events together, EC-5..EC-9);
//! each of these folders also holds a forum transcript of its event(s).
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

#[test]
fn every_syntax_fixture_gives_its_diagnostics() {
    check_fixtures("syntax");
}

#[test]
fn every_rules_fixture_gives_its_diagnostics() {
    check_fixtures("rules");
}

#[test]
fn every_sip_fixture_gives_its_diagnostics() {
    check_fixtures("sip");
}

#[test]
fn every_event_fixture_gives_its_diagnostics() {
    check_fixtures("events");
}

#[test]
fn every_hidden_passage_fixture_gives_its_diagnostics() {
    check_fixtures("passage");
}

#[test]
fn every_prince_fixture_gives_its_diagnostics() {
    check_fixtures("prince");
}

#[test]
fn every_loyal_knights_fixture_gives_its_diagnostics() {
    check_fixtures("knights");
}

#[test]
fn every_event_pair_fixture_gives_its_diagnostics() {
    check_fixtures("pairs");
}

#[test]
fn every_code_has_a_fixture() {
    let mut all = expected("syntax");
    all.extend(expected("rules"));
    all.extend(expected("sip"));
    all.extend(expected("events"));
    all.extend(expected("passage"));
    all.extend(expected("prince"));
    all.extend(expected("knights"));
    all.extend(expected("pairs"));
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
