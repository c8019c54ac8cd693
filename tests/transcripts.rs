//! Forum transcripts (notation.md section 6) as the command line sees them: each fixture
//! transcript converts to a self-contained PGN game that checks as the transcript does,
//! and `check --verbose` lists the prose it skipped.

mod common;

use common::{
    TRANSCRIPT_ONLY, assert_same_verdicts, fixture_files, stderr, stdout, verdicts, xpgn,
};

#[test]
fn every_transcript_converts_to_a_pgn_game_that_checks_the_same() {
    let dir = std::env::temp_dir().join(format!("xpgn-transcripts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("converted.pgn");
    let copy = copy.to_str().unwrap();
    let transcripts = fixture_files("txt");
    assert!(transcripts.len() >= 5, "{transcripts:?}");
    for path in &transcripts {
        let transcript = path.to_str().unwrap();
        let converted = xpgn(&["convert", "--to", "pgn", transcript]);
        let pgn = stdout(&converted);
        std::fs::write(copy, &pgn).unwrap();
        assert!(pgn.starts_with("[Event \"?\"]\n"), "{transcript}:\n{pgn}");
        // Transcripts of events (the lint fixtures' are orthodox games).
        if std::fs::read_to_string(path).unwrap().contains("Event #") {
            assert!(pgn.contains("[Variant \"Event Chess\"]"), "{transcript}");
            assert!(pgn.contains("{[%event "), "{transcript}: event markers");
        }
        // The same main-line plies, ending and errors (less a passage move written
        // without the passage, which the conversion spells right).
        assert_same_verdicts(transcript, copy, transcript);
        let clean = verdicts(transcript)
            .iter()
            .all(|(errors, ..)| errors.is_empty());
        if clean {
            let check = xpgn(&["check", "--format", "json", copy]);
            assert_eq!(check.status.code(), Some(0), "{transcript}");
            assert!(
                stdout(&check).contains("\"diagnostics\":[]"),
                "{transcript}: {}",
                stdout(&check)
            );
        }
        // The PGN is canonical already.
        let fmt = xpgn(&["fmt", "--check", copy]);
        assert_eq!(fmt.status.code(), Some(0), "{transcript}: {pgn}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fmt_refuses_a_transcript() {
    let output = xpgn(&["fmt", "fixtures/pairs/transcript-pair.txt"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("convert --to pgn"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn check_verbose_lists_the_prose_it_skipped() {
    let output = xpgn(&[
        "check",
        "--verbose",
        "--format",
        "json",
        "fixtures/pairs/transcript-pair.txt",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let errors = stderr(&output);
    let listed: Vec<&str> = errors.lines().collect();
    assert_eq!(
        listed.first(),
        Some(&"fixtures/pairs/transcript-pair.txt:1: prose: Tal_fan - NajdorfNerd, event chess")
    );
    assert!(
        listed.contains(&"fixtures/pairs/transcript-pair.txt:21: prose: wfb"),
        "{listed:?}"
    );
    assert_eq!(
        listed.last(),
        Some(&"fixtures/pairs/transcript-pair.txt:26: prose: gg")
    );
    // Standard output keeps its contract: one JSON object for the game.
    assert_eq!(stdout(&output).lines().count(), 1);
    let quiet = xpgn(&["check", "fixtures/pairs/transcript-pair.txt"]);
    assert!(stderr(&quiet).is_empty(), "{}", stderr(&quiet));
}

#[test]
fn every_transcript_converted_to_a_document_checks_the_same() {
    let dir = std::env::temp_dir().join(format!("xpgn-transcript-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for path in fixture_files("txt") {
        let transcript = path.to_str().unwrap();
        for (to, name) in [("json", "converted.json"), ("yaml", "converted.yaml")] {
            let converted = xpgn(&["convert", "--to", to, transcript]);
            let copy = dir.join(name);
            std::fs::write(&copy, &converted.stdout).unwrap();
            let copy = copy.to_str().unwrap();
            // Prose and event lines are kept as comments, the events as `[%event ...]`.
            let original = verdicts(transcript);
            let mut expected = original.clone();
            for (errors, ..) in &mut expected {
                errors.retain(|code| !TRANSCRIPT_ONLY.contains(&code.as_str()));
            }
            assert_eq!(verdicts(copy), expected, "{transcript} as {to}");
            if expected == original {
                let status = |path: &str| xpgn(&["check", "--quiet", path]).status.code();
                assert_eq!(status(copy), status(transcript), "{transcript} as {to}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A thread pasted from the browser reads to the same game as the clean transcript beside
/// it (`NAME-clean.txt`): the same plies, ending, errors, events and players.
#[test]
fn a_pasted_thread_reads_as_its_clean_transcript() {
    let summary = |path: &str| -> Vec<String> {
        let output = xpgn(&["check", "--format", "json", path]);
        stdout(&output)
            .lines()
            .map(|line| {
                let report: serde_json::Value = serde_json::from_str(line).unwrap();
                format!(
                    "{} {} {} {}",
                    report["white"], report["black"], report["events"], report["plies"]
                )
            })
            .collect()
    };
    let mut pairs = 0;
    for entry in std::fs::read_dir("fixtures/threads").unwrap() {
        let path = entry.unwrap().path();
        let path = path.to_str().unwrap();
        let Some(stem) = path.strip_suffix("-clean.txt") else {
            continue;
        };
        let pasted = [format!("{stem}-pasted.txt"), format!("{stem}.txt")]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .unwrap_or_else(|| panic!("{path}: no pasted thread beside it"));
        assert_eq!(verdicts(&pasted), verdicts(path), "{pasted}");
        assert_eq!(summary(&pasted), summary(path), "{pasted}");
        pairs += 1;
    }
    assert!(pairs >= 2, "{pairs} pairs");
}

/// `--verbose` on a pasted thread says who posted each move line, and which lines were
/// page furniture, quotes or skipped move text.
#[test]
fn check_verbose_says_who_posted_each_move() {
    let path = "fixtures/threads/line-pushers-pasted.txt";
    let output = xpgn(&["check", "--verbose", "--quiet", path]);
    let listed = stderr(&output);
    for expected in [
        ":1: page: Event Chess game: Alice77 - bob_b",
        ":15: moves by Alice77 (white): 1.e4",
        ":20: moves by bob_b (black): c5.",
        ":25: event: start event",
        ":39: quote: start event",
        ":42: moves by bob_b (black): 2…d6",
        ":68: skipped (it is posted by carol_c, who does not play in this game",
    ] {
        assert!(listed.contains(expected), "{expected}:\n{listed}");
    }
}

/// A secret choice told in words goes into its player's place in the event (`c4 ?`),
/// and the listing says so; the rules then hold the moves to it.
#[test]
fn a_choice_told_in_words_is_read_as_the_players_choice() {
    let output = xpgn(&[
        "check",
        "--verbose",
        "--quiet",
        "fixtures/threads/reveal-pasted.txt",
    ]);
    let listed = stderr(&output);
    assert!(
        listed.contains(":45: reveal (white's choice for #5: c4): my square was c4, by the way"),
        "{listed}"
    );
    let pgn = stdout(&xpgn(&[
        "convert",
        "--to",
        "pgn",
        "fixtures/threads/reveal-pasted.txt",
    ]));
    assert!(pgn.contains("{[%event 5 c4 ?]}"), "{pgn}");
    let contradicted = stdout(&xpgn(&[
        "check",
        "--format",
        "json",
        "fixtures/threads/reveal-contradicted.txt",
    ]));
    assert!(
        contradicted.contains("the record tells black's square, f5 (HP-8)"),
        "{contradicted}"
    );
}
