//! `xpgn lint`: every style rule on its fixtures (`fixtures/lint/`, codes in
//! `expected.yaml`, output snapshotted), `--fix` and its idempotence, exit codes and
//! formats, configuration discovery, suppression, and `--explain`.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{Scratch, stderr, stdout, xpgn};

fn codes_of(json_lines: &str) -> Vec<String> {
    json_lines
        .lines()
        .flat_map(|l| {
            let report: serde_json::Value = serde_json::from_str(l).unwrap();
            report["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d["code"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn lint_codes(path: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["lint", "--format", "json", path];
    args.extend(extra);
    codes_of(&stdout(&xpgn(&args)))
}

fn fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("fixtures/lint")
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "expected.yaml")
        .collect();
    names.sort();
    names
}

#[test]
fn every_rule_fires_on_its_fixture_and_not_on_the_near_miss() {
    let text = std::fs::read_to_string("fixtures/lint/expected.yaml").unwrap();
    let expected: BTreeMap<String, Vec<String>> = serde_saphyr::from_str(&text).unwrap();
    let names = fixtures();
    assert_eq!(names, expected.keys().cloned().collect::<Vec<_>>());
    for name in &names {
        let path = format!("fixtures/lint/{name}");
        assert_eq!(&lint_codes(&path, &[]), &expected[name], "{name}");
        let human = xpgn(&["lint", "--color", "never", &path]);
        let clean = expected[name].is_empty();
        assert_eq!(
            human.status.code(),
            Some(if clean { 0 } else { 1 }),
            "{name}"
        );
        let stem = name.rsplit_once('.').unwrap().0;
        insta::assert_snapshot!(format!("lint-{stem}"), stdout(&human));
    }
    // Every style code has its fixture.
    for code in xpgn::diagnostic::Code::ALL.iter().filter(|c| c.is_style()) {
        assert!(
            names
                .iter()
                .any(|n| n.starts_with(&format!("{}.", code.name()))),
            "no fixture for {}",
            code.name()
        );
    }
}

/// `--fix` writes every fixable finding right, keeps everything else byte for byte, and
/// a second run has nothing left to fix.
#[test]
fn fix_is_complete_and_idempotent() {
    let dir = Scratch::new("lint-fix");
    for name in fixtures() {
        let original = std::fs::read_to_string(Path::new("fixtures/lint").join(&name)).unwrap();
        let copy = dir.file(&name, &original);
        let copy = copy.to_str().unwrap();
        let first = xpgn(&["lint", "--fix", "--format", "json", copy]);
        assert_ne!(first.status.code(), Some(2), "{name}: {}", stderr(&first));
        let fixed = std::fs::read_to_string(copy).unwrap();
        let left = stdout(&xpgn(&["lint", "--format", "json", copy]));
        for line in left.lines() {
            let report: serde_json::Value = serde_json::from_str(line).unwrap();
            for finding in report["diagnostics"].as_array().unwrap() {
                assert!(
                    finding.get("fix").is_none(),
                    "{name}: {finding} left after --fix"
                );
            }
        }
        let second = xpgn(&["lint", "--fix", copy]);
        assert!(
            !stderr(&second).contains("fixed"),
            "{name}: {}",
            stderr(&second)
        );
        assert_eq!(std::fs::read_to_string(copy).unwrap(), fixed, "{name}");
        if fixed != original {
            let stem = name.rsplit_once('.').unwrap().0;
            insta::assert_snapshot!(format!("fixed-{stem}"), fixed);
        }
    }
}

/// Untouched text keeps its bytes: Windows-1252 stays Windows-1252, CRLF stays CRLF,
/// comments, NAGs and variations stay.
#[test]
fn fix_keeps_encoding_line_endings_and_everything_else() {
    let dir = Scratch::new("lint-bytes");
    let mut bytes = b"[Event \"Caf\xe9 open\"]\r\n[Site \"?\"]\r\n[Date \"2026.11.23\"]\r\n[Round \"?\"]\r\n[White \"M\xfcller\"]\r\n[Black \"?\"]\r\n[Result \"*\"]\r\n\r\n".to_vec();
    bytes.extend_from_slice(
        b"1. e4 {\xe9l\xe9gant} e5 $1 (1... c5 2. Ng1f3) 2. Ng1f3 Nc6 3. Bc4 Bc5 4. 0-0 *\r\n",
    );
    let path = dir.0.join("cp1252.pgn");
    std::fs::write(&path, &bytes).unwrap();
    let output = xpgn(&["lint", "--fix", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "the encoding warning stays");
    let after = std::fs::read(&path).unwrap();
    let expected = String::from_utf8_lossy(&bytes)
        .replace("Ng1f3", "Nf3")
        .replace("0-0", "O-O");
    let mut expected_bytes = bytes.clone();
    for (from, to) in [
        (&b"Ng1f3"[..], &b"Nf3"[..]),
        (b"Ng1f3", b"Nf3"),
        (b"0-0", b"O-O"),
    ] {
        let at = expected_bytes
            .windows(from.len())
            .position(|w| w == from)
            .unwrap();
        expected_bytes.splice(at..at + from.len(), to.iter().copied());
    }
    assert_eq!(after, expected_bytes, "{expected}");
}

#[test]
fn exit_codes_and_formats() {
    let clean = xpgn(&["lint", "fixtures/lint/non-canonical-castling-clean.pgn"]);
    assert_eq!(clean.status.code(), Some(0));
    let dirty = "fixtures/lint/non-canonical-castling.pgn";
    let github = xpgn(&["lint", "--format", "github", dirty]);
    assert_eq!(github.status.code(), Some(1));
    assert!(
        stdout(&github)
            .starts_with("::warning file=fixtures/lint/non-canonical-castling.pgn,line=9,col="),
        "{}",
        stdout(&github)
    );
    assert!(stdout(&github).contains("title=non-canonical-castling::"));
    let json = xpgn(&["lint", "--format", "json", dirty]);
    let report: serde_json::Value = serde_json::from_str(stdout(&json).trim()).unwrap();
    let finding = &report["diagnostics"][0];
    assert_eq!(finding["severity"], "warning");
    assert_eq!(finding["ply"], 7);
    assert_eq!(finding["move"], "0-0");
    assert_eq!(finding["help"], "write `O-O`");
    // A warning is a finding in lint (exit 1), not in check (exit 0).
    assert_eq!(xpgn(&["check", dirty]).status.code(), Some(0));
    // Selection from flags; an unknown rule is a usage error.
    assert_eq!(
        lint_codes(dirty, &["--ignore", "non-canonical-castling"]),
        Vec::<String>::new()
    );
    assert_eq!(
        lint_codes(
            "fixtures/lint/wrong-capture-mark.pgn",
            &["--select", "illegal-move,over-disambiguated"]
        ),
        Vec::<String>::new()
    );
    let unknown = xpgn(&["lint", "--ignore", "castling-zero", dirty]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("unknown rule `castling-zero`"));
    let documents = xpgn(&["lint", "--fix", "fixtures/syntax/malformed-document.json"]);
    assert_eq!(
        documents.status.code(),
        Some(2),
        "documents are not rewritten"
    );
}

/// `xpgn.yaml` is found upward from each file; overrides match paths below it; a bad
/// configuration is a usage error that names the file.
#[test]
fn configuration_is_found_upward() {
    let dir = Scratch::new("lint-config");
    dir.file(
        "xpgn.yaml",
        "ignore: [missing-roster-tag]\nseverity:\n  non-canonical-castling: error\noverrides:\n  - files: [\"forum/**\"]\n    ignore: [non-canonical-castling]\n",
    );
    let game = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *\n";
    let top = dir.file("games/a.pgn", game);
    let forum = dir.file("forum/2026/b.pgn", game);
    let json = stdout(&xpgn(&["lint", "--format", "json", top.to_str().unwrap()]));
    let report: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(report["diagnostics"][0]["code"], "non-canonical-castling");
    assert_eq!(report["diagnostics"][0]["severity"], "error");
    assert_eq!(report["diagnostics"].as_array().unwrap().len(), 1);
    assert_eq!(
        lint_codes(forum.to_str().unwrap(), &[]),
        Vec::<String>::new()
    );
    // --config replaces discovery; flags go on top.
    let other = dir.file("other.yaml", "select: [missing-roster-tag]\n");
    assert_eq!(
        lint_codes(
            top.to_str().unwrap(),
            &["--config", other.to_str().unwrap()]
        ),
        ["missing-roster-tag"]
    );
    dir.file("forum/xpgn.yaml", "ignore: [non-canonical-castlin]\n");
    let bad = xpgn(&["lint", forum.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("forum/xpgn.yaml"), "{}", stderr(&bad));
    assert!(stderr(&bad).contains("did you mean"), "{}", stderr(&bad));
    // The configuration's variant is the default for tagless games.
    dir.file("forum/xpgn.yaml", "variant: chess960\n");
    let chess960 = dir.file("forum/960.pgn", "[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n[SetUp \"1\"]\n\n9. g3 *\n");
    assert_eq!(
        lint_codes(
            chess960.to_str().unwrap(),
            &["--select", "illegal-move,bad-fen"]
        ),
        Vec::<String>::new()
    );
}

#[test]
fn explain_prints_a_rule_or_all() {
    let one = xpgn(&["lint", "--explain", "non-canonical-castling"]);
    assert_eq!(one.status.code(), Some(0));
    insta::assert_snapshot!("explain-non-canonical-castling", stdout(&one));
    let all = xpgn(&["lint", "--explain", "all"]);
    assert_eq!(
        stdout(&all).lines().count(),
        xpgn::diagnostic::Code::ALL.len()
    );
    let unknown = xpgn(&["lint", "--explain", "nope"]);
    assert_eq!(unknown.status.code(), Some(2));
}
