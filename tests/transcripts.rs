//! Forum transcripts (notation.md section 6) as the command line sees them: each fixture
//! transcript converts to a self-contained PGN game that checks as the transcript does,
//! and `check --verbose` lists the prose it skipped.

mod common;

use common::{assert_same_verdicts, fixture_files, stderr, stdout, verdicts, xpgn};

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
            assert_eq!(verdicts(copy), verdicts(transcript), "{transcript} as {to}");
            let status = |path: &str| xpgn(&["check", "--quiet", path]).status.code();
            assert_eq!(status(copy), status(transcript), "{transcript} as {to}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
