//! The command line as scripts see it: output formats, exit codes, fmt modes.

mod common;

use common::{
    Scratch, assert_same_verdicts, assert_verdicts_kept, fixture_files, in_parallel, stderr,
    stdout, verdicts, xpgn,
};
use std::path::Path;
use std::process::Command;

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn check_clean_file_exits_0() {
    let output = xpgn(&["check", "fixtures/games/clean.pgn"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    insta::assert_snapshot!(stdout(&output), @"2 games in 1 file: 0 errors, 0 warnings");
}

#[test]
fn check_with_errors_exits_1_and_renders_diagnostics() {
    let output = xpgn(&[
        "check",
        "--color",
        "never",
        "fixtures/syntax/unreadable-move.pgn",
    ]);
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn warnings_alone_exit_0() {
    let output = xpgn(&["check", "-q", "fixtures/syntax/missing-result.pgn"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).contains("xpgn::syntax::missing-result"));
}

#[test]
fn check_json_is_one_object_per_game() {
    let output = xpgn(&[
        "check",
        "--format",
        "json",
        "fixtures/games/clean.pgn",
        "fixtures/syntax/unreadable-move.pgn",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object per line"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["status"], "ok");
    assert_eq!(lines[0]["white"], "Anderssen, Adolf");
    assert_eq!(lines[0]["plies"], 45);
    assert_eq!(lines[0]["result"], "1-0");
    assert_eq!(lines[1]["game"], 2);
    let bad = &lines[2];
    assert_eq!(bad["status"], "error");
    assert_eq!(bad["file"], "fixtures/syntax/unreadable-move.pgn");
    let d = &bad["diagnostics"][0];
    assert_eq!(d["code"], "unreadable-move");
    assert_eq!(d["severity"], "error");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(4), Some(13))
    );
    assert_eq!(
        (d["offset"].as_u64(), d["length"].as_u64()),
        (Some(53), Some(4))
    );
    assert!(d["help"].as_str().unwrap().contains("SAN"));
    assert_eq!(
        (d["ply"].as_u64(), d["move"].as_str()),
        (Some(3), Some("pawn")),
        "an unreadable word in the moves is placed at the ply it would have been"
    );
}

#[test]
fn check_github_annotations() {
    let output = xpgn(&[
        "check",
        "--format",
        "github",
        "fixtures/syntax/unreadable-move.pgn",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let first = stdout(&output).lines().next().unwrap().to_owned();
    assert!(
        first.starts_with("::error file=fixtures/syntax/unreadable-move.pgn,line=4,col=13,title=unreadable-move::`pawn` is not a move"),
        "{first}"
    );
}

#[test]
fn directories_are_walked_and_stdin_is_read() {
    let output = xpgn(&["check", "-q", "--format", "json", "fixtures/games"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).lines().count() >= 2);
    let mut child = Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(["check", "--format", "json", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1. e4 e5 *\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).contains("\"file\":\"-\""));
}

#[test]
fn missing_file_and_bad_usage_exit_2() {
    let output = xpgn(&["check", "no/such/file.pgn"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no/such/file.pgn"));
    assert_eq!(
        xpgn(&["check", "--format", "xml", "x.pgn"]).status.code(),
        Some(2)
    );
    assert_eq!(xpgn(&["check"]).status.code(), Some(2));
    assert_eq!(xpgn(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn fmt_prints_check_reports_and_write_rewrites_atomically() {
    let scratch = Scratch::new("fmt");
    let messy = scratch.file(
        "messy.pgn",
        "[White \"A\"]\r\n[Event \"E\"]\r\n1.e4 {c}   e5 2.Nf3 *\r\n",
    );
    let formatted = "[Event \"E\"]\n[White \"A\"]\n\n1. e4 {c} 1... e5 2. Nf3 *\n";

    let output = xpgn(&["fmt", s(&messy)]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), formatted);

    let output = xpgn(&["fmt", "--check", s(&messy)]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("would reformat"));

    let output = xpgn(&["fmt", "--write", s(&messy)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), formatted);
    let leftovers = std::fs::read_dir(&scratch.0).unwrap().count();
    assert_eq!(leftovers, 1, "no temporary file is left behind");

    let output = xpgn(&["fmt", "--check", s(&messy)]);
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn fmt_refuses_files_with_syntax_errors() {
    let scratch = Scratch::new("fmt-errors");
    let broken = scratch.file("broken.pgn", "1. e4 Xq9 *\n");
    let output = xpgn(&["fmt", "--write", s(&broken)]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("syntax errors"));
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), "1. e4 Xq9 *\n");
}

#[test]
fn check_json_names_the_ply_and_move_of_an_illegal_move() {
    let output = xpgn(&[
        "check",
        "--format",
        "json",
        "fixtures/rules/pinned.pgn",
        "fixtures/rules/in-variation.pgn",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object per line"))
        .collect();
    let pinned = &lines[0];
    assert_eq!(pinned["plies"], 5, "the five moves before the illegal one");
    assert_eq!(pinned["variant"], "standard");
    let d = &pinned["diagnostics"][0];
    assert_eq!(d["code"], "illegal-move");
    assert_eq!(
        (d["ply"].as_u64(), d["move"].as_str()),
        (Some(6), Some("Nc5"))
    );
    assert!(d["message"].as_str().unwrap().contains("pinned"));
    assert!(d.get("variation").is_none(), "main-line moves have no path");
    let in_variation = &lines[1];
    assert_eq!(in_variation["plies"], 3, "the main line is legal");
    let d = &in_variation["diagnostics"][0];
    assert_eq!(
        (d["ply"].as_u64(), d["move"].as_str()),
        (Some(3), Some("Nf5"))
    );
    assert_eq!(d["variation"], serde_json::json!([[2, 1], [3, 1]]));
}

#[test]
fn check_json_reports_how_the_game_ended() {
    let output = xpgn(&[
        "check",
        "--format",
        "json",
        "fixtures/rules/result-contradicts-board.pgn",
    ]);
    assert_eq!(output.status.code(), Some(0), "warnings only");
    let endings: Vec<String> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["ending"].to_string())
        .collect();
    assert_eq!(endings, ["\"checkmate\"", "\"stalemate\"", "\"checkmate\""]);
}

#[test]
fn check_jobs_keep_input_order() {
    let scratch = Scratch::new("jobs");
    let mut text = String::new();
    for i in 0..300 {
        text.push_str(&format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n"));
    }
    let many = scratch.file("many.pgn", &text);
    let one = xpgn(&["check", "--format", "json", "--jobs", "1", s(&many)]);
    let four = xpgn(&["check", "--format", "json", "--jobs", "4", s(&many)]);
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(stdout(&one), stdout(&four));
    assert_eq!(stdout(&one).lines().count(), 300);
}

#[test]
fn check_on_one_thread_reports_as_threads_do() {
    // One thread reads and checks part by part; threads parse whole chunks first. Both
    // must tell the same: the one encoding warning, tagless games sharing a part,
    // illegal moves and syntax errors, in input order.
    let scratch = Scratch::new("one-thread");
    let mut bytes = Vec::new();
    for i in 0..200 {
        bytes.extend_from_slice(format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n").as_bytes());
        match i % 50 {
            7 => bytes.extend_from_slice(b"[Event \"caf\xe9\"]\n\n1. e4 {caf\xe9} e5 *\n\n"),
            13 => bytes.extend_from_slice(b"1. d4 d5 *\n1. c4 e5 *\n\n"),
            21 => bytes.extend_from_slice(b"[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n\n"),
            34 => bytes.extend_from_slice(b"[Event \"syntax\"]\n\n1. e4 } e5 *\n\n"),
            _ => {}
        }
    }
    let path = scratch.file("mixed.pgn", "");
    std::fs::write(&path, &bytes).unwrap();
    for format in ["json", "human"] {
        let one = xpgn(&["check", "--format", format, "--jobs", "1", s(&path)]);
        let two = xpgn(&["check", "--format", format, "--jobs", "2", s(&path)]);
        assert_eq!(one.status.code(), Some(1));
        assert_eq!(one.status.code(), two.status.code());
        assert_eq!(stdout(&one), stdout(&two), "{format}");
    }
    let json = stdout(&xpgn(&[
        "check",
        "--format",
        "json",
        "--jobs",
        "1",
        s(&path),
    ]));
    assert_eq!(json.matches("not-utf8").count(), 1, "one encoding warning");
    // A line a game: 200, and four times the Windows-1252 game, two tagless games, the
    // illegal move and the syntax error.
    assert_eq!(json.lines().count(), 200 + 4 * (1 + 2 + 1 + 1));
}

#[test]
fn every_command_that_reads_games_writes_the_same_on_any_number_of_threads() {
    // Chunks are handled out of order by the threads and taken back in order: output,
    // standard error, blank lines between games and the exit status all match one
    // thread's. Enough games for many chunks, with findings, a game that does not
    // replay, tagless games sharing a part and, last, a syntax error that `fmt` refuses
    // at (it prints what comes before).
    let scratch = Scratch::new("threads-all");
    let mut bytes = Vec::new();
    for i in 0..600 {
        bytes.extend_from_slice(
            format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n").as_bytes(),
        );
        match i % 90 {
            7 => bytes.extend_from_slice(b"[Event \"caf\xe9\"]\n\n1. e4 {caf\xe9} e5 *\n\n"),
            13 => bytes.extend_from_slice(b"1. d4 d5 *\n1. c4 e5 *\n\n"),
            21 => bytes.extend_from_slice(b"[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n\n"),
            _ => {}
        }
    }
    let clean = scratch.file("clean.pgn", "");
    std::fs::write(&clean, &bytes).unwrap();
    bytes.extend_from_slice(b"[Event \"syntax\"]\n\n1. e4 } e5 *\n\n");
    bytes.extend_from_slice(b"[Event \"after\"]\n\n1. d4 *\n\n");
    let refused = scratch.file("refused.pgn", "");
    std::fs::write(&refused, &bytes).unwrap();
    let commands: &[&[&str]] = &[
        &["lint", "--format", "json"],
        &["lint", "--format", "human"],
        &["fmt"],
        &["fmt", "--check"],
        &["convert", "--to", "san"],
        &["convert", "--to", "uci"],
        &["convert", "--to", "fen"],
        &["convert", "--to", "json"],
    ];
    for command in commands {
        for path in [&clean, &refused] {
            let run = |jobs: &str| {
                let mut args = command.to_vec();
                args.extend(["--jobs", jobs, s(path)]);
                xpgn(&args)
            };
            let one = run("1");
            let three = run("3");
            let what = format!("{command:?} {}", path.display());
            assert_eq!(one.status.code(), three.status.code(), "{what}");
            assert_eq!(stdout(&one), stdout(&three), "{what}");
            assert_eq!(stderr(&one), stderr(&three), "{what}");
            assert!(one.stdout.len() > 1000 || command[0] == "fmt", "{what}");
        }
    }
}

#[test]
fn check_variant_flag_and_unknown_variants() {
    let output = xpgn(&["check", "--variant", "crazyhouse", "fixtures/games"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("unknown variant `crazyhouse`"));
    let scratch = Scratch::new("variant");
    // Chess960 castling with the king already on g1: only the rook moves, h1 to f1.
    let game = scratch.file(
        "frc.pgn",
        "[FEN \"1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1\"]\n\n1. O-O O-O *\n",
    );
    let output = xpgn(&["check", "-q", "--variant", "chess960", s(&game)]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let output = xpgn(&["check", "-q", s(&game)]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "not castling in standard chess"
    );
}

#[test]
fn moves_lists_legal_moves_in_san() {
    let output = xpgn(&["moves", "--fen", "8/4P3/8/8/8/k7/8/4K3 w - - 0 1"]);
    assert_eq!(output.status.code(), Some(0));
    insta::assert_snapshot!(stdout(&output), @r"
    Kd1
    Kf1
    Kd2
    Ke2
    Kf2
    e8=Q
    e8=R
    e8=B
    e8=N
    ");
    let output = xpgn(&["moves", "--format", "json"]);
    let moves: Vec<serde_json::Value> = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(moves.len(), 20);
    let knight = moves.iter().find(|m| m["san"] == "Nf3").unwrap();
    assert_eq!(
        (knight["lan"].as_str(), knight["uci"].as_str()),
        (Some("Ng1-f3"), Some("g1f3"))
    );
}

#[test]
fn perft_prints_the_count_last_and_divides() {
    let output = xpgn(&["perft", "--depth", "3"]);
    assert_eq!(stdout(&output), "8902\n");
    let output = xpgn(&["perft", "--depth", "2", "--divide"]);
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 21);
    assert!(text.contains("Nf3: 20\n"));
    assert!(text.ends_with("\n400\n"));
    let output = xpgn(&["perft", "--depth", "1", "--fen", "not a fen"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("bad FEN"));
}

/// PC-9: the early numbering's Portal Chess is `4*` wherever a number is read or shown,
/// and #4 stays 5-check.
#[test]
fn the_early_portal_chess_is_4_star_everywhere() {
    let dir = Scratch::new("portal-chess");
    let game = dir.file(
        "portal.pgn",
        "[Variant \"Event Chess\"]\n\n{[%event 4]} 1. a4 {[%event 4*]} 1... e5 2. Ra3 *\n",
    );
    let output = xpgn(&["check", "--format", "json", s(&game)]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(report["events"], serde_json::json!([4, "4*"]));
    let message = report["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("under event #4* Portal Chess a rook makes no move but castling (PC-2)"),
        "{message}"
    );
    // `--events 4*`: the rooks of the start position stay where they are.
    let output = xpgn(&["perft", "--events", "4*", "--depth", "3"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output).trim(), "8702");
    let output = xpgn(&[
        "moves",
        "--events",
        "4*",
        "--fen",
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
    ]);
    assert!(!stdout(&output).contains("Ra2"), "{}", stdout(&output));
    assert!(stdout(&output).contains("O-O-O"), "{}", stdout(&output));
    // `xpgn variants` lists it after #4, as `#4*`; JSON gives its number as "4*".
    let text = stdout(&xpgn(&["variants"])).to_owned();
    let five_check = text.find("  #4   5-check").expect("#4 listed");
    let portal = text.find("  #4*  Portal Chess").expect("#4* listed");
    let hidden = text.find("  #5   Hidden passage").expect("#5 listed");
    assert!(five_check < portal && portal < hidden, "{text}");
    let json: serde_json::Value =
        serde_json::from_str(stdout(&xpgn(&["variants", "--format", "json"])).trim()).unwrap();
    let portal = json["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "Portal Chess")
        .unwrap();
    assert_eq!(portal["number"], "4*");
    assert!(
        json["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["number"] == 4 && e["name"] == "5-check")
    );
    // The inside number is no event number anyone writes.
    let output = xpgn(&["perft", "--events", "1004", "--depth", "1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("`[%event 4*]`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn events_run_from_the_start_of_tagless_games() {
    let dir = Scratch::new("events");
    let game = dir.file("push.pgn", "1. e4 e5 2. R->a8 *\n");
    let with = xpgn(&["check", "--events", "43", "--format", "json", s(&game)]);
    assert_eq!(with.status.code(), Some(0), "{}", stderr(&with));
    let report: serde_json::Value = serde_json::from_str(stdout(&with).trim()).unwrap();
    assert_eq!(report["variant"], "event-chess");
    assert_eq!(report["events"], serde_json::json!([43]));
    assert_eq!(report["plies"], 3);
    let without = xpgn(&["check", "--format", "json", s(&game)]);
    assert_eq!(without.status.code(), Some(1));
    assert!(stdout(&without).contains("Line Pushers"));
    for bad in [
        &["perft", "--events", "17", "--depth", "1"][..],
        &["perft", "--events", "43,43", "--depth", "1"],
        &[
            "perft",
            "--variant",
            "sip",
            "--events",
            "43",
            "--depth",
            "1",
        ],
        &["perft", "--events", "43 a1", "--depth", "1"],
    ] {
        let output = xpgn(bad);
        assert_eq!(output.status.code(), Some(2), "{bad:?}");
        assert!(stderr(&output).starts_with("xpgn: --events: "), "{bad:?}");
    }
}

#[test]
fn moves_and_perft_hold_the_capture_limit() {
    // EC-2: white has taken two pieces other than pawns and started no event (black
    // started #43), so Rxb7 is no move; a FEN with events is Event Chess.
    let fen = "1k6/1r6/1R6/8/8/8/8/K7 w - - 1 3 events(43b;x:2,0)";
    let output = xpgn(&["moves", "--fen", fen]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let listed = stdout(&output);
    let moves: Vec<&str> = listed.lines().collect();
    assert!(!moves.contains(&"Rxb7+"), "{moves:?}");
    assert!(moves.contains(&"Rb5"), "{moves:?}");
    let output = xpgn(&["perft", "--depth", "1", "--fen", fen]);
    assert_eq!(
        stdout(&output).lines().last(),
        Some(moves.len().to_string().as_str())
    );
    // With white's own event started the capture is legal again.
    let started = "1k6/1r6/1R6/8/8/8/8/K7 w - - 1 3 events(43b;85w;x:2,0)";
    let output = xpgn(&["moves", "--fen", started]);
    assert!(
        stdout(&output).lines().any(|l| l.starts_with("Rxb7")),
        "{}",
        stdout(&output)
    );
    // The meta rules hold for `--events` beside a FEN's events (EC-1) and for the
    // Condition of what `--events` starts (EC-3).
    let output = xpgn(&["moves", "--fen", fen, "--events", "43"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("EC-1"), "{}", stderr(&output));
    let output = xpgn(&[
        "moves",
        "--fen",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        "--events",
        "43",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("EC-3"), "{}", stderr(&output));
}

#[test]
fn check_json_reports_the_hidden_passage_squares() {
    let report = |text: &str, extra: &[&str]| {
        let dir = Scratch::new("passage");
        let game = dir.file("passage.pgn", text);
        let mut args = vec!["check", "--format", "json"];
        args.extend_from_slice(extra);
        args.push(s(&game));
        let output = xpgn(&args);
        assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
        let report: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
        report["passage"].clone()
    };
    let tagged = "[Variant \"Event Chess\"]\n\n";
    // Secret squares, revealed by black's move at ply 4 (HP-8).
    assert_eq!(
        report(
            &format!("{tagged}{{[%event 5]}} 1. e4 Nc6 2. Nf3 Nb4-e6 *\n"),
            &[]
        ),
        serde_json::json!({"white": "b4", "black": "e6", "source": "inferred",
                           "known_from": 4, "revealed_at": 4})
    );
    assert_eq!(
        report(&format!("{tagged}1. e4 {{[%event 5 c4 f6]}} Nc6 *\n"), &[]),
        serde_json::json!({"white": "c4", "black": "f6", "source": "given",
                           "known_from": 2, "revealed_at": null})
    );
    assert_eq!(
        report(&format!("{tagged}{{[%event 5]}} 1. e4 Nc6 *\n"), &[]),
        serde_json::json!({"white": null, "black": null, "source": "secret",
                           "known_from": null, "revealed_at": null})
    );
    // `--events` with the squares, for games without tags.
    assert_eq!(
        report("1. c4-f6 Nxf6-c4 *\n", &["--events", "5 c4 f6"])["revealed_at"],
        1
    );
    let output = xpgn(&["moves", "--events", "5 c4 f6"]);
    assert!(stdout(&output).lines().any(|l| l == "c4-f6"));
    let output = xpgn(&["moves", "--events", "5 c2 f6"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("HP-1"), "{}", stderr(&output));
}

#[test]
fn knight_directions_are_part_of_a_repetition() {
    // LK-9: fixtures/knights/lk-9-repetition.pgn repeats positions with the knights
    // facing the same way (games 1, 3, 4) and facing another way (games 2, 5).
    let output = xpgn(&[
        "check",
        "--format",
        "json",
        "fixtures/knights/lk-9-repetition.pgn",
    ]);
    let endings: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["ending"].clone())
        .collect();
    let threefold = serde_json::json!("threefold-repetition");
    let none = serde_json::Value::Null;
    assert_eq!(
        endings,
        [
            threefold.clone(),
            none.clone(),
            threefold.clone(),
            threefold,
            none
        ]
    );
}

#[test]
fn knight_facings_of_directional_knights_are_part_of_a_repetition() {
    // DK-6: fixtures/directional-knights/dk-6-repetition.pgn turns the knights away and
    // back (game 1) and leaves one facing another way (game 2).
    let output = xpgn(&[
        "check",
        "--format",
        "json",
        "fixtures/directional-knights/dk-6-repetition.pgn",
    ]);
    let endings: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["ending"].clone())
        .collect();
    assert_eq!(
        endings,
        [
            serde_json::json!("threefold-repetition"),
            serde_json::Value::Null
        ]
    );
}

/// The fixture folders of games under one rule set or event (every folder but those of
/// reading and rules diagnostics, lint and variant files), so a new event's folder is
/// found by its files.
fn rule_set_folders() -> Vec<std::path::PathBuf> {
    let mut folders: Vec<_> = std::fs::read_dir("fixtures")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|path| path.is_dir())
        .filter(|path| {
            let name = path.file_name().unwrap();
            !["syntax", "rules", "lint", "variants"]
                .iter()
                .any(|n| name == *n)
        })
        .collect();
    folders.sort();
    assert!(folders.len() >= 7, "{folders:?}");
    folders
}

/// `convert --to lan`, `san`, `json` and `yaml` write games that check reads back to the
/// same verdicts and the same positions, for every fixture game of every rule set.
#[test]
fn converted_games_read_back_the_same() {
    let dir = Scratch::new("convert");
    let positions = |path: &str| stdout(&xpgn(&["convert", "--to", "fen", path]));
    let files: Vec<_> = rule_set_folders()
        .iter()
        .flat_map(|folder| std::fs::read_dir(folder).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "pgn"))
        .collect();
    assert!(files.len() > 50, "{} fixture files", files.len());
    in_parallel(&files, |index, path| {
        let original = s(path);
        let (verdicts, positions_before) = (verdicts(original), positions(original));
        for to in ["lan", "san", "json", "yaml"] {
            let converted = xpgn(&["convert", "--to", to, original]);
            let extension = if to.len() == 3 { "pgn" } else { to };
            let copy = dir.file(&format!("{index}-{to}.{extension}"), &stdout(&converted));
            assert_verdicts_kept(&verdicts, s(&copy), &format!("{original} as {to}"));
            assert_eq!(positions(s(&copy)), positions_before, "{original} as {to}");
            if to == "json" {
                let again = xpgn(&["convert", "--to", "json", s(&copy)]);
                assert_eq!(
                    stdout(&again),
                    stdout(&converted),
                    "{original}: json of json"
                );
            }
        }
    });
}

/// `fmt` output is canonical: formatting it again changes nothing, `fmt --check` accepts
/// it, and it checks to the verdicts of the original, for every fixture PGN file (those
/// with syntax errors are refused).
#[test]
fn fmt_is_idempotent_and_keeps_verdicts() {
    let dir = Scratch::new("fmt-fixtures");
    let formatted_files = std::sync::atomic::AtomicUsize::new(0);
    in_parallel(&fixture_files("pgn"), |index, path| {
        let original = s(path);
        let once = xpgn(&["fmt", original]);
        if once.status.code() == Some(2) {
            assert!(
                stderr(&once).contains("syntax errors"),
                "{original}: {}",
                stderr(&once)
            );
            assert_eq!(
                xpgn(&["check", "-q", original]).status.code(),
                Some(1),
                "{original} is refused for its errors"
            );
            return;
        }
        assert_eq!(once.status.code(), Some(0), "{original}: {}", stderr(&once));
        let copy = dir.file(&format!("{index}-once.pgn"), &stdout(&once));
        let twice = xpgn(&["fmt", s(&copy)]);
        assert_eq!(stdout(&twice), stdout(&once), "{original}: fmt of fmt");
        assert_eq!(
            xpgn(&["fmt", "--check", s(&copy)]).status.code(),
            Some(0),
            "{original}: fmt --check of fmt"
        );
        assert_same_verdicts(original, s(&copy), &format!("{original} formatted"));
        formatted_files.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    let formatted_files = formatted_files.into_inner();
    assert!(formatted_files > 90, "{formatted_files} fixture files");
}

#[test]
fn fmt_check_finds_spellings_and_numbers_that_are_not_canonical() {
    let dir = Scratch::new("fmt-canonical");
    for (written, canonical) in [
        ("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *\n", "4. O-O"),
        ("1. e4 e5 2. Ng1f3 *\n", "2. Nf3"),
        ("1. e4 1... e5 2. Nf3 *\n", "1. e4 e5 2."),
        ("1. e4 e5 3. Nf3 *\n", "2. Nf3"),
        (
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Nxe5 Qd4 6. Nf3 Qxe4 7. Kf1 Qe1 *\n",
            "Qe1+",
        ),
        ("1. e4 e5 2. Nf3 {dev} Nc6 *\n", "{dev} 2... Nc6"),
    ] {
        let file = dir.file("game.pgn", written);
        assert_eq!(
            xpgn(&["fmt", "--check", s(&file)]).status.code(),
            Some(1),
            "{written}"
        );
        let formatted = stdout(&xpgn(&["fmt", s(&file)]));
        assert!(formatted.contains(canonical), "{written} gave {formatted}");
        let again = dir.file("again.pgn", &formatted);
        assert_eq!(
            xpgn(&["fmt", "--check", s(&again)]).status.code(),
            Some(0),
            "{formatted}"
        );
    }
    // Assessments stay; moves after an illegal one, and in a variant xpgn does not
    // play, stay as written.
    let file = dir.file(
        "kept.pgn",
        "1. e4!? e5 2. Ng1f3?! Ke7?? 3. 0-0 Ng8f6 *\n\n[Variant \"Crazyhouse\"]\n\n1. Ng1f3 *\n",
    );
    assert_eq!(
        stdout(&xpgn(&["fmt", s(&file)])),
        "1. e4!? e5 2. Nf3?! Ke7?? 3. 0-0 Ng8f6 *\n\n[Variant \"Crazyhouse\"]\n\n1. Ng1f3 *\n"
    );
}

#[test]
fn convert_writes_uci_json_and_yaml() {
    let dir = Scratch::new("convert-formats");
    let game = dir.file(
        "g.pgn",
        "[White \"A\"]\n\n1. e4 {x} e5 (1... c5) 2. Nf3 *\n",
    );
    let uci = xpgn(&["convert", "--to", "uci", s(&game)]);
    assert_eq!(stdout(&uci), "e2e4 e7e5 g1f3\n");
    let json = xpgn(&["convert", "--to", "json", s(&game)]);
    let doc: serde_json::Value = serde_json::from_str(stdout(&json).trim()).unwrap();
    assert_eq!(doc["tags"], serde_json::json!([["White", "A"]]));
    assert_eq!(doc["moves"][0]["comments"], serde_json::json!(["x"]));
    assert_eq!(doc["moves"][1]["variations"][0][0]["san"], "c5");
    let yaml = xpgn(&["convert", "--to", "yaml", s(&game)]);
    assert!(stdout(&yaml).starts_with("---\n"), "{}", stdout(&yaml));
    assert!(stdout(&yaml).contains("lan: Ng1-f3"), "{}", stdout(&yaml));
    let pgn = xpgn(&["convert", "--to", "pgn", s(&game)]);
    let fmt = xpgn(&["fmt", s(&game)]);
    assert_eq!(stdout(&pgn), stdout(&fmt), "convert --to pgn is fmt");
    // A move UCI cannot spell is named, and the game left out.
    let pass = dir.file(
        "pass.pgn",
        "[Variant \"Event Chess\"]\n\n{[%event 5 c4 f6]} 1. c4-f6 *\n",
    );
    let refused = xpgn(&["convert", "--to", "uci", s(&pass)]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(stderr(&refused).contains("`c4-f6`"), "{}", stderr(&refused));
}

#[test]
fn frozen_pieces_are_part_of_a_repetition_and_decide_mate_and_stalemate() {
    // VA-7: fixtures/variety/va-7-repetition.pgn repeats the start placement with the
    // b-knights frozen three times (game 1), and only twice so (game 2); VA-8:
    // va-8-no-legal-move.pgn ends in a mate and a stalemate of a side whose movable piece
    // is frozen.
    let output = xpgn(&[
        "check",
        "--format",
        "json",
        "fixtures/variety/va-7-repetition.pgn",
        "fixtures/variety/va-8-no-legal-move.pgn",
    ]);
    let endings: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["ending"].clone())
        .collect();
    assert_eq!(
        endings,
        [
            serde_json::json!("threefold-repetition"),
            serde_json::Value::Null,
            serde_json::json!("checkmate"),
            serde_json::json!("stalemate"),
        ]
    );
}

#[test]
fn checks_that_do_not_mate_are_illegal_so_checks_mate_and_pawns_stalemate() {
    // NC-5: fixtures/no-checks/nc-5-stalemate.pgn, black's only move would check (game 1
    // stalemate; game 2 plays on after it); NC-4: nc-4-defender-bound.pgn, the only
    // interposition would check, so the rook's check mates (both games); NC-2 with #91:
    // nc-pair-91.pgn, every white move would thaw a queen's check that does not mate
    // (stalemate), or that mates (checkmate), then a move after the stalemate.
    let output = xpgn(&[
        "check",
        "--format",
        "json",
        "fixtures/no-checks/nc-5-stalemate.pgn",
        "fixtures/no-checks/nc-4-defender-bound.pgn",
        "fixtures/no-checks/nc-pair-91.pgn",
    ]);
    let endings: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["ending"].clone())
        .collect();
    let mate = serde_json::json!("checkmate");
    assert_eq!(
        endings,
        [
            serde_json::json!("stalemate"),
            serde_json::Value::Null,
            mate.clone(),
            mate.clone(),
            serde_json::json!("stalemate"),
            mate,
            serde_json::Value::Null,
        ]
    );
}
