//! The style rules on small games: what each finds, and that its fix makes it right.

use super::*;
use crate::pgn::parse_str;
use crate::rules::Variant;

fn standard() -> Variants {
    Variants::with_default(Variant::by_name("standard").unwrap())
}

/// What lint finds in one game read from `text` (a PGN game, or a transcript when
/// `pgn` is false) with `selection`.
fn lint_text(text: &str, pgn: bool, selection: &Selection) -> Replay {
    let parsed = if pgn {
        parse_str(text).remove(0)
    } else {
        crate::transcript::parse_str(text)
    };
    let source = Source {
        name: "t",
        text,
        offset: 0,
        line: 0,
    };
    let scope = Scope { fixable: true, pgn };
    lint_game(&parsed, source, &standard(), selection, scope)
}

/// The codes lint finds in `text` (one PGN game), and the text after applying every fix.
fn lint(text: &str) -> (Vec<&'static str>, String) {
    let replay = lint_text(text, true, &Selection::default());
    let codes = replay.diagnostics.iter().map(|d| d.code.name()).collect();
    let (fixed, _) = apply_fixes(text, 0, &replay.diagnostics);
    (codes, fixed)
}

const ROSTER: &str = "[Event \"e\"]\n[Site \"s\"]\n[Date \"2026.11.23\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"*\"]\n\n";

fn game(movetext: &str) -> String {
    format!("{ROSTER}{movetext}\n")
}

#[test]
fn canonical_games_have_no_findings() {
    let text = game("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 (4... d6 5. d4) 5. d3 *");
    assert_eq!(lint(&text), (vec![], text.clone()));
}

#[test]
fn each_spelling_rule_and_its_fix() {
    let cases = [
        (
            "1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. 0-0 *",
            "non-canonical-castling",
            "4. O-O *",
        ),
        ("1. e4 e5 2. Ng1f3 *", "over-disambiguated", "2. Nf3 *"),
        ("1. e4 d5 2. ed5 *", "wrong-capture-mark", "2. exd5 *"),
        ("1. e4 e5 2. Nxf3 *", "wrong-capture-mark", "2. Nf3 *"),
        ("1. Pe4 *", "non-canonical-san", "1. Pe4"),
        (
            "1. e4 e5 2. Bc4 Nc6 3. Bxf7 *",
            "missing-check-mark",
            "3. Bxf7+ *",
        ),
        ("1. e4 e5 3. Nf3 *", "wrong-move-number", "2. Nf3 *"),
        ("1. e4 1. e5 *", "wrong-move-number", "1... e5 *"),
    ];
    for (movetext, code, right) in cases {
        let (codes, fixed) = lint(&game(movetext));
        assert_eq!(codes, [code], "{movetext}");
        if code == "non-canonical-san" {
            assert!(fixed.contains("1. e4 *"), "{fixed}");
        } else {
            assert!(fixed.contains(right), "{movetext}: {fixed}");
        }
        assert_eq!(lint(&fixed).0, Vec::<&str>::new(), "fixed {movetext}");
    }
}

#[test]
fn promotion_without_equals_keeps_the_assessment() {
    let text = "[Event \"e\"]\n[Site \"s\"]\n[Date \"2026.11.23\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"*\"]\n[FEN \"8/4P3/8/8/8/k7/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e8Q!? *\n";
    let (codes, fixed) = lint(text);
    assert_eq!(codes, ["promotion-without-equals"]);
    assert!(fixed.contains("1. e8=Q!? *"), "{fixed}");
}

#[test]
fn a_wrong_check_mark_is_fixed_too() {
    let (codes, fixed) = lint(&game("1. e4+ e5 *"));
    assert_eq!(codes, ["wrong-check-mark"]);
    assert!(fixed.contains("1. e4 e5 *"), "{fixed}");
}

#[test]
fn roster_tags_dates_and_results() {
    let text =
        "[White \"w\"]\r\n[Date \"2026-11-23\"]\r\n[Result \"½-½\"]\r\n\r\n1. e4 e5 1/2-1/2\r\n";
    let (codes, fixed) = lint(text);
    assert_eq!(
        codes,
        [
            "malformed-date",
            "missing-roster-tag",
            "malformed-result-tag"
        ]
    );
    assert!(fixed.contains("[Date \"2026.11.23\"]\r\n"), "{fixed}");
    assert!(fixed.contains("[Result \"1/2-1/2\"]\r\n[Event \"?\"]\r\n[Site \"?\"]\r\n[Round \"?\"]\r\n[Black \"?\"]\r\n\r\n1. e4"), "{fixed}");
    assert_eq!(lint(&fixed).0, Vec::<&str>::new());
    let (codes, fixed) = lint("1. e4 *\n");
    assert_eq!(codes, ["missing-roster-tag"]);
    assert!(fixed.starts_with("[Event \"?\"]\n"), "{fixed}");
    assert!(fixed.contains("[Result \"*\"]\n\n1. e4 *"), "{fixed}");
    assert!(!lint("[Date \"2026.13.01\"]\n\n*").0.is_empty());
}

#[test]
fn suppression_in_a_comment() {
    let text = game(
        "{xpgn: allow=non-canonical-castling, over-disambiguated} 1. e4 e5 2. Ng1f3 Nf6 3. Bc4 Bc5 4. 0-0 *",
    );
    assert_eq!(lint(&text).0, Vec::<&str>::new());
    let text = game("{xpgn: allow=castling} 1. e4 *");
    assert_eq!(lint(&text).0, ["bad-suppression"]);
}

#[test]
fn suppression_before_the_tags_in_a_variation_and_after_the_result() {
    let over = "1. e4 e5 2. Ng1f3 *";
    for text in [
        format!("{{xpgn: allow=over-disambiguated}}\n{}", game(over)),
        game("1. e4 e5 (1... c5 {xpgn: allow=over-disambiguated}) 2. Ng1f3 *"),
        game(&format!("{over} {{xpgn: allow=over-disambiguated}}")),
    ] {
        assert_eq!(lint(&text).0, Vec::<&str>::new(), "{text}");
    }
    // The second game of a file: its spans start past the first's.
    let text = format!(
        "{}\n{}",
        game("1. d4 *"),
        game(&format!("{over} {{xpgn: allow=over-disambiguated}}"))
    );
    let mut games = parse_str(&text);
    assert_eq!(games.len(), 2);
    let source = Source {
        name: "t",
        text: &text,
        offset: 0,
        line: 0,
    };
    let scope = Scope {
        fixable: true,
        pgn: true,
    };
    let replay = lint_game(
        &games.remove(1),
        source,
        &standard(),
        &Selection::default(),
        scope,
    );
    assert!(replay.diagnostics.is_empty(), "{:?}", replay.diagnostics);
    let replay = lint_game(
        &games.remove(0),
        source,
        &standard(),
        &Selection::default(),
        scope,
    );
    assert!(replay.diagnostics.is_empty(), "{:?}", replay.diagnostics);
}

#[test]
fn selection_and_severity() {
    let text = game("1. e4 e5 2. Ng1f3 Ke7?? 3. Qxe7 *");
    let selection = Selection {
        select: None,
        ignore: [Code::IllegalMove].into(),
        severity: [(Code::OverDisambiguated, Severity::Error)].into(),
    };
    let replay = lint_text(&text, true, &selection);
    let found: Vec<_> = replay
        .diagnostics
        .iter()
        .map(|d| (d.code.name(), d.severity))
        .collect();
    assert_eq!(found, [("over-disambiguated", Severity::Error)]);
}

#[test]
fn move_like_lines_are_the_readers_and_forum_spellings_are_lints() {
    let text = "1. e4 c5\nwfb\nnf3.\nnice game everyone, see you\n12.Nf3xx\n";
    let replay = lint_text(text, false, &Selection::default());
    let found = |code: Code| -> Vec<&str> {
        replay
            .diagnostics
            .iter()
            .filter(|d| d.code == code)
            .map(|d| &text[d.span.offset..d.span.end()])
            .collect()
    };
    // The reader reports a move line with a typo itself (it used to be prose that
    // lint's `prose-like-move` named).
    assert_eq!(found(Code::UnreadableMove), ["Nf3xx"]);
    // A forum spelling reads as the move it means, and lint names the canonical one.
    assert_eq!(found(Code::ForumSpelling), ["nf3."]);
    let (fixed, _) = apply_fixes(text, 0, &replay.diagnostics);
    assert!(fixed.contains("\nNf3\n"), "{fixed}");
    assert_eq!(
        Code::from_name("prose-like-move"),
        Some(Code::SkippedMoveText)
    );
}

#[test]
fn explanations_for_every_code() {
    for code in Code::ALL {
        let doc = explain(code);
        assert_eq!(doc.code, code);
        assert!(doc.render().starts_with(code.name()));
        assert!(!doc.summary.is_empty() && !doc.rationale.is_empty());
    }
}

#[test]
fn an_unreadable_token_takes_its_ply_in_the_numbering() {
    let (codes, _) = lint(&game("1. e4 e5 2. P@f3 Nc6 3. Nf3 *"));
    assert!(!codes.contains(&"wrong-move-number"), "{codes:?}");
}

/// A list handed on from game to game finds in each what a fresh one does: the last
/// game's findings are gone, whether the next game's `check` found something or not.
#[test]
fn a_reused_list_holds_only_this_games_findings() {
    let texts = [
        "1. e4 e5 2. Nf3 *",
        &game("1. e4 e5 5. Nf3 *"),
        &game("1. e4 e5 2. Ke3 *"),
        "1 e4 e5 *",
        &game("1. e4 e5 2. Nf3 *"),
    ];
    let source = |text| Source {
        name: "t",
        text,
        offset: 0,
        line: 0,
    };
    let scope = Scope {
        fixable: true,
        pgn: true,
    };
    let selection = Selection::default();
    let mut list = Vec::new();
    for text in texts {
        let parsed = parse_str(text).remove(0);
        let fresh = lint_game(&parsed, source(text), &standard(), &selection, scope);
        let reused = lint_game_reusing(
            &parsed,
            source(text),
            &standard(),
            &selection,
            scope,
            std::mem::take(&mut list),
        );
        assert_eq!(reused.diagnostics, fresh.diagnostics, "{text}");
        list = reused.diagnostics;
    }
}
