//! Variant definitions in YAML: the built-ins load, a user's file defines a playable
//! variant, and every problem of a bad file is reported at its place.

mod common;

use common::{stderr, stdout, xpgn};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use xpgn::games::read_games;
use xpgn::replay::check_game;
use xpgn::report::{Source, plain_handler, render_definition_error};
use xpgn::rules::{Variant, Variants};
use xpgn::source::Input;

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/variants")
        .join(path)
}

#[test]
fn built_in_variants_are_listed() {
    let output = xpgn(&["variants", "--format", "json"]);
    assert!(output.status.success());
    let listing: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let listed = listing["variants"].as_array().unwrap();
    let ids: Vec<&str> = listed.iter().map(|v| v["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "standard",
            "chess960",
            "event-chess",
            "secret-invisible-pass",
            "capablanca",
            "grand"
        ]
    );
    let events = listing["events"].as_array().unwrap();
    // A number, or the string "4*" for the early numbering's Portal Chess (PC-9).
    let label = |number: &serde_json::Value| match number.as_u64() {
        Some(number) => number.to_string(),
        None => number.as_str().unwrap().to_owned(),
    };
    let numbers: Vec<String> = events.iter().map(|e| label(&e["number"])).collect();
    let registry: Vec<String> = xpgn::rules::events::ALL
        .iter()
        .map(|e| e.label().to_string())
        .collect();
    assert_eq!(
        numbers, registry,
        "every event the registry holds, in its order"
    );
    let pushers = events.iter().find(|e| e["number"] == 43).unwrap();
    assert_eq!(pushers["name"], "Line Pushers");
    assert!(pushers["rulings"].as_str().unwrap().contains("LP-1"));
    assert_eq!(pushers["page"], "docs/rules/event-43-line-pushers.md");
    let catalogue = listing["catalogue"].as_array().unwrap();
    let played: Vec<String> = catalogue
        .iter()
        .filter(|e| e["status"] == "played")
        .map(|e| label(&e["number"]))
        .collect();
    let mut distinct: Vec<xpgn::command::EventLabel> =
        xpgn::rules::events::ALL.iter().map(|e| e.label()).collect();
    distinct.sort_unstable_by_key(|label| label.order());
    distinct.dedup();
    let distinct: Vec<String> = distinct.iter().map(ToString::to_string).collect();
    assert_eq!(
        played, distinct,
        "the registry's events are the played ones"
    );
    let takebacks = catalogue.iter().find(|e| e["number"] == 93).unwrap();
    assert_eq!(takebacks["status"], "unsupported");
    assert!(takebacks["reason"].as_str().unwrap().contains("TB-1"));
    let page = takebacks["page"].as_str().unwrap();
    assert!(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(page).is_file(),
        "{page}"
    );
    assert!(
        catalogue
            .iter()
            .all(|e| ["played", "not-yet", "unsupported"].contains(&e["status"].as_str().unwrap())),
        "{catalogue:?}"
    );
    let text = stdout(&xpgn(&["variants"]));
    for entry in catalogue.iter().filter(|e| e["status"] != "played") {
        let line = text
            .lines()
            .find(|line| {
                line.trim_start()
                    .starts_with(&format!("#{} ", entry["number"]))
            })
            .unwrap_or_else(|| panic!("`xpgn variants` has no line for {entry}"));
        assert!(line.contains(entry["name"].as_str().unwrap()), "{line}");
    }
    let prince = events.iter().find(|e| e["number"] == 68).unwrap();
    assert!(prince["condition"].as_str().unwrap().contains("king"));
    let sip = &listed[3];
    assert_eq!(
        (sip["files"].as_u64(), sip["ranks"].as_u64()),
        (Some(10), Some(10))
    );
}

#[test]
fn variant_names_match_as_notation_md_says() {
    for name in [
        "Secret Invisible Pass",
        "Secret Invisible Pass Chess",
        "secret-invisible-pass",
        "SECRET_INVISIBLE_PASS",
    ] {
        assert_eq!(
            Variant::by_name(name).unwrap().slug,
            "secret-invisible-pass",
            "{name}"
        );
    }
    assert_eq!(Variant::by_name("Grand Chess").unwrap().slug, "grand");
    assert!(Variant::by_name("Gothic").is_none());
}

/// Every bad definition under `fixtures/variants/bad/` reports its problems where
/// `expected.yaml` says, each rendered with its excerpt.
#[test]
fn bad_definitions_report_every_problem_at_its_place() {
    let expected: BTreeMap<String, Vec<String>> =
        serde_saphyr::from_str(&std::fs::read_to_string(fixture("bad/expected.yaml")).unwrap())
            .unwrap();
    let mut names: Vec<String> = std::fs::read_dir(fixture("bad"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "expected.yaml")
        .collect();
    names.sort();
    assert_eq!(names, expected.keys().cloned().collect::<Vec<_>>());
    let handler = plain_handler();
    for name in names {
        let text = std::fs::read_to_string(fixture(&format!("bad/{name}"))).unwrap();
        let errors = Variant::from_yaml(&text).expect_err(&name);
        let places: Vec<String> = errors
            .iter()
            .map(|e| format!("{}:{}", e.line, e.column))
            .collect();
        assert_eq!(places, expected[&name], "{name}");
        let display = format!("fixtures/variants/bad/{name}");
        let source = Source {
            name: &display,
            text: &text,
            offset: 0,
            line: 0,
        };
        let rendered: String = errors
            .iter()
            .map(|e| render_definition_error(&handler, e, source))
            .collect();
        insta::assert_snapshot!(format!("bad-{}", name.trim_end_matches(".yaml")), rendered);
    }
}

#[test]
fn a_bad_variant_file_is_a_usage_error_with_its_place() {
    let output = xpgn(&[
        "check",
        "--variant-file",
        "fixtures/variants/bad/unknown-key.yaml",
        "fixtures/games/clean.pgn",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = stderr(&output);
    assert!(stderr.contains("unknown field `colour`"), "{stderr}");
    assert!(
        stderr.contains("fixtures/variants/bad/unknown-key.yaml:4:1"),
        "{stderr}"
    );
    assert!(
        stderr.contains("does not define a variant (1 problem)"),
        "{stderr}"
    );
}

#[test]
fn a_variant_file_sets_the_default_variant() {
    let perft = xpgn(&[
        "perft",
        "--variant-file",
        "fixtures/variants/gothic.yaml",
        "--depth",
        "2",
    ]);
    assert!(perft.status.success());
    assert_eq!(stdout(&perft).trim(), "784");
    let listed = xpgn(&[
        "variants",
        "--variant-file",
        "fixtures/variants/gothic.yaml",
    ]);
    let text = stdout(&listed);
    assert!(
        text.lines().nth(1).unwrap().starts_with("  gothic "),
        "{text}"
    );
    assert!(text.contains("(from --variant-file)"));
}

/// The user-defined Gothic chess of `fixtures/variants/gothic.yaml` agrees with
/// Fairy-Stockfish's random Gothic games (corpus `variants/synthetic/gothic/`): the
/// legal ones replay clean, each illegal copy is flagged first at its recorded ply.
#[test]
fn a_user_variant_replays_fairy_stockfish_games() {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/variants/synthetic/gothic");
    if !dir.exists() {
        eprintln!("skipped: {} is absent", dir.display());
        return;
    }
    let gothic =
        Variant::from_yaml(&std::fs::read_to_string(fixture("gothic.yaml")).unwrap()).unwrap();
    let gothic: &'static Variant = Box::leak(Box::new(gothic));
    let mut variants = Variants::with_default(Variant::by_name("standard").unwrap());
    variants.loaded.push(gothic);
    let first_errors = |name: &str| -> Vec<Option<usize>> {
        read_games(&Input::from_path(&dir.join(name)))
            .unwrap()
            .flat_map(|chunk| {
                let chunk = chunk.unwrap();
                chunk
                    .games
                    .iter()
                    .map(|game| {
                        let replay = check_game(game, &variants);
                        assert_eq!(replay.variant, "gothic");
                        replay
                            .diagnostics
                            .iter()
                            .find(|d| d.is_error())
                            .map(|d| d.at_move.as_ref().expect("a move").ply)
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    assert_eq!(first_errors("synthetic_gothic.pgn"), vec![None; 60]);
    let recorded: Vec<Option<usize>> =
        std::fs::read_to_string(dir.join("synthetic_gothic_illegal.tsv"))
            .unwrap()
            .lines()
            .skip(1)
            .map(|line| line.split('\t').nth(1).unwrap().parse().ok())
            .collect();
    assert_eq!(first_errors("synthetic_gothic_illegal.pgn"), recorded);
}
