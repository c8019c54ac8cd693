use super::*;
use crate::notation::MoveBody;

fn one(text: &str) -> ParsedGame {
    let mut games = parse_str(text);
    assert_eq!(games.len(), 1, "{text:?}: {games:#?}");
    games.pop().unwrap()
}

fn codes(game: &ParsedGame) -> Vec<&'static str> {
    game.diagnostics.iter().map(|d| d.code.name()).collect()
}

/// The text each item of the main line was read from.
fn written<'t>(game: &Game, text: &'t str) -> Vec<&'t str> {
    game.moves
        .iter()
        .map(|i| &text[i.span.offset..i.span.end()])
        .collect()
}

fn moves(game: &Game) -> Vec<String> {
    game.main_line().map(|m| m.node.to_string()).collect()
}

#[test]
fn reads_tags_moves_comments_nags_variations_and_result() {
    let text = "[Event \"Test \\\"quoted\\\" \\\\ here\"]\n[White \"A\"]\n\n1. e4 {best by test} e5 $1 2. Nf3!? (2. f4 exf4 (2... d5)) ; line comment\n2... Nc6 1-0\n";
    let parsed = one(text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let game = &parsed.game;
    assert_eq!(game.tag("Event"), Some("Test \"quoted\" \\ here"));
    assert_eq!(moves(game), ["e4", "e5", "Nf3!?", "Nc6"]);
    assert_eq!(
        game.result.as_ref().map(|r| r.node),
        Some(Outcome::WhiteWins)
    );
    let variation = game
        .moves
        .iter()
        .find_map(|i| match &i.node {
            Item::Variation(v) => Some(v),
            _ => None,
        })
        .expect("a variation");
    assert!(
        variation
            .iter()
            .any(|i| matches!(i.node, Item::Variation(_)))
    );
    assert!(game.moves.iter().any(|i| i.node == Item::Nag(1)));
    assert!(game.moves.iter().any(|i| matches!(&i.node, Item::Comment(c) if c.kind == CommentKind::Line && c.text == " line comment")));
}

#[test]
fn spans_point_at_the_written_text() {
    let text = "[White \"A\"]\n1. e4 {c} e5 *";
    let game = one(text).game;
    let e5 = game.main_line().nth(1).unwrap();
    assert_eq!(&text[e5.span.offset..e5.span.end()], "e5");
    assert_eq!(
        &text[game.tags[0].value.span.offset..game.tags[0].value.span.end()],
        "A"
    );
    assert_eq!(game.span, Span::new(0, text.len()));
    let offset = parse_chunk(text, 1000)[0]
        .game
        .main_line()
        .nth(1)
        .unwrap()
        .span
        .offset;
    assert_eq!(offset, 1000 + e5.span.offset);
}

#[test]
fn words_read_in_place_that_are_no_plain_san_leave_nothing_behind() {
    // Among the moves, a word is first read as plain SAN into a place pushed for it
    // (`Reader::word`); a word that turns out to be more, another form or no move at
    // all, gives the place back and is read as any other word.
    let text = "1. e4 Nf3-g5 2. e4x Qxf7K@g7+ 3. O-O-O# c4-g8=Q+ 4. Nc3 *";
    let parsed = one(text);
    let written = written(&parsed.game, text);
    assert_eq!(
        written,
        [
            "1.",
            "e4",
            "Nf3-g5",
            "2.",
            "e4x",
            "Qxf7K@g7+",
            "3.",
            "O-O-O#",
            "c4-g8=Q+",
            "4.",
            "Nc3"
        ]
    );
    for (item, word) in parsed.game.moves.iter().zip(written) {
        match &item.node {
            Item::Move(notation) => {
                assert_eq!(Notation::parse(word).as_ref(), Ok(notation), "{word}");
            }
            Item::Unreadable(token) => assert_eq!(token, word),
            Item::MoveNumber(_) => assert!(word.ends_with('.'), "{word}"),
            other => panic!("{word}: {other:?}"),
        }
    }
    assert_eq!(codes(&parsed), ["unreadable-move"]);
}

#[test]
fn move_number_spellings() {
    for text in [
        "1. e4 e5 *",
        "1.e4 e5 *",
        "1. e4 1... e5 *",
        "1.e4 1. ... e5 *",
        "e4 e5 *",
        "1 e4 e5 *",
    ] {
        let parsed = one(text);
        assert!(
            parsed.diagnostics.is_empty(),
            "{text}: {:?}",
            parsed.diagnostics
        );
        assert_eq!(moves(&parsed.game), ["e4", "e5"], "{text}");
    }
    // A move glued to its number reads as the two tokens written apart, spans and all,
    // whichever of the reader's paths takes it (plain SAN, a move that is not, a token
    // that is no move, a delimiter right after).
    for (glued, apart) in [
        ("12.e4 *", "12. e4 *"),
        ("12...Nxf6+!? *", "12... Nxf6+!? *"),
        ("3.O-O-O# *", "3. O-O-O# *"),
        ("4.exd8=Q+{c} *", "4. exd8=Q+ {c} *"),
        ("5.Nf3-g5 *", "5. Nf3-g5 *"),
        ("6.e4x *", "6. e4x *"),
        ("7.e4) *", "7. e4 ) *"),
        ("8.Qxf7K@g7+ *", "8. Qxf7K@g7+ *"),
    ] {
        let glued_game = one(glued);
        let apart_game = one(apart);
        let nodes = |game: &ParsedGame| -> Vec<Item> {
            game.game.moves.iter().map(|i| i.node.clone()).collect()
        };
        assert_eq!(nodes(&glued_game), nodes(&apart_game), "{glued}");
        assert_eq!(codes(&glued_game), codes(&apart_game), "{glued}");
        assert_eq!(
            written(&glued_game.game, glued),
            written(&apart_game.game, apart),
            "{glued}"
        );
    }
    let game = one("1. e4 1. ... e5 *").game;
    let numbers: Vec<_> = game
        .moves
        .iter()
        .filter_map(|i| match i.node {
            Item::MoveNumber(n) => Some(n),
            _ => None,
        })
        .collect();
    assert_eq!(
        numbers[1],
        MoveNumber {
            number: 1,
            dots: Dots::Three
        }
    );
}

#[test]
fn many_games_with_and_without_tags_and_blank_lines() {
    let text =
        "[Event \"a\"]\n1. e4 1-0\n[Event \"b\"]\n1. d4 0-1\n\n1. c4 1/2-1/2 1. Nf3 ½-½\n1. g3";
    let games = parse_str(text);
    let firsts: Vec<String> = games.iter().map(|g| moves(&g.game)[0].clone()).collect();
    assert_eq!(firsts, ["e4", "d4", "c4", "Nf3", "g3"]);
    assert_eq!(games[3].game.result.as_ref().unwrap().node, Outcome::Draw);
    assert_eq!(codes(&games[4]), ["missing-result"]);
}

#[test]
fn a_tag_line_after_moves_starts_a_new_game() {
    let games = parse_str("[Event \"a\"]\n1. e4\n[Event \"b\"]\n1. d4 *");
    assert_eq!(games.len(), 2);
    assert_eq!(codes(&games[0]), ["missing-result"]);
    let games = parse_str("1. e4 [Event \"b\"] 1. d4 *");
    assert_eq!(codes(&games[0]), ["tag-in-movetext", "missing-result"]);
    assert_eq!(games[1].game.tag("Event"), Some("b"));
}

#[test]
fn comments_and_escapes_before_and_after_the_game_are_kept() {
    let text = "% exported\n{intro}\n[Event \"a\"]\n{before moves} 1. e4 1-0 {after}\n% done";
    let game = one(text).game;
    assert_eq!(game.prelude.len(), 2);
    assert!(matches!(&game.moves[0].node, Item::Comment(c) if c.text == "before moves"));
    assert_eq!(game.trailing.len(), 2);
    assert_eq!(game.trailing[1].node, Item::Escape(" done".into()));
}

#[test]
fn crlf_cr_and_bom() {
    for text in [
        "\u{feff}[Event \"a\"]\r\n\r\n1. e4 ; x\r\n e5 *\r\n",
        "[Event \"a\"]\r\r1. e4 ; x\r e5 *\r",
    ] {
        let parsed = one(text);
        assert!(
            parsed.diagnostics.is_empty(),
            "{text:?}: {:?}",
            parsed.diagnostics
        );
        assert_eq!(moves(&parsed.game), ["e4", "e5"]);
        assert_eq!(parsed.game.tag("Event"), Some("a"));
    }
}

#[test]
fn results_tag_and_marker_must_agree() {
    assert_eq!(
        codes(&one("[Result \"1-0\"]\n1. e4 0-1")),
        ["result-mismatch"]
    );
    assert!(codes(&one("[Result \"*\"]\n1. e4 *")).is_empty());
}

#[test]
fn every_syntax_error_is_reported_and_reading_goes_on() {
    let text = "[Event \"a\"]\n1. e4 Xq9 } e5 $999 (1... c5 2. ) ) Nf3 {open";
    let parsed = one(text);
    assert_eq!(
        codes(&parsed),
        [
            "unreadable-move",
            "unexpected-token",
            "bad-nag",
            "unexpected-token",
            "unterminated-comment",
            "missing-result"
        ]
    );
    assert_eq!(moves(&parsed.game), ["e4", "e5", "Nf3"]);
    assert!(
        parsed
            .game
            .moves
            .iter()
            .any(|i| i.node == Item::Unreadable("Xq9".into()))
    );
}

#[test]
fn malformed_tags() {
    let games = parse_str("[\"Somewhere\"]\n[Site]\n[Round 3]\n[Date \"2020.01.01\n*");
    assert_eq!(
        codes(&games[0]),
        [
            "malformed-tag",
            "malformed-tag",
            "malformed-tag",
            "unterminated-tag"
        ]
    );
    let game = &games[0].game;
    assert_eq!(game.tag("Site"), Some(""));
    assert_eq!(game.tag("Round"), Some("3"));
    assert_eq!(game.tag("Date"), Some("2020.01.01"));
    assert_eq!(game.result.as_ref().unwrap().node, Outcome::Unknown);
}

#[test]
fn unescaped_quotes_and_brackets_inside_tag_values() {
    let game = one("[Site \"Somewhere \" else\"][Event \"x]y\"]\n*").game;
    assert_eq!(game.tag("Site"), Some("Somewhere \" else"));
    assert_eq!(game.tag("Event"), Some("x]y"));
}

#[test]
fn unclosed_variations_are_closed_at_the_end() {
    let parsed = one("1. e4 (1. d4 (1. c4 *");
    assert_eq!(codes(&parsed), ["unclosed-variation", "unclosed-variation"]);
    assert_eq!(parsed.game.result.as_ref().unwrap().node, Outcome::Unknown);
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_stack_overflow() {
    let depth = 10_000;
    let text = format!("1. e4 {} e5 {} *", "( d4 ".repeat(depth), ")".repeat(depth));
    let parsed = one(&text);
    assert_eq!(codes(&parsed), ["variation-too-deep"]);
    let mut depth_read = 0;
    let mut line = &parsed.game.moves;
    while let Some(inner) = line.iter().find_map(|i| match &i.node {
        Item::Variation(v) => Some(v),
        _ => None,
    }) {
        depth_read += 1;
        line = inner;
    }
    assert_eq!(depth_read, MAX_VARIATION_DEPTH);
    let unclosed = format!("1. e4 {}", "(".repeat(depth));
    let parsed = one(&unclosed);
    assert!(codes(&parsed).contains(&"variation-too-deep"));
}

#[test]
fn nul_and_control_characters() {
    let parsed = one("[Event \"a\"]\n1. e4 \0 e5 {a\u{1}b} *");
    assert_eq!(codes(&parsed), ["control-character", "control-character"]);
    assert_eq!(moves(&parsed.game), ["e4", "e5"]);
}

#[test]
fn event_commands_in_comments_are_checked() {
    let parsed = one("1. e4 {[%event 5 c4 f6]} c5 {[%event zz]} *");
    assert_eq!(codes(&parsed), ["malformed-event-command"]);
}

#[test]
fn extended_notation_reads_inside_games() {
    let game = one(
        "1. c4 {[%event 5]} Nf6 2. c5 Nxf6-c4 3. Bxc4-f6 Qxf7K@g7+ 4. R->a4 Nf3->g2 5. Rxd4/g1 --",
    )
    .game;
    assert_eq!(
        moves(&game),
        [
            "c4",
            "Nf6",
            "c5",
            "Nxf6-c4",
            "Bxc4-f6",
            "Qxf7K@g7+",
            "R->a4",
            "Nf3->g2",
            "Rxd4/g1",
            "--"
        ]
    );
    assert!(matches!(
        game.main_line().last().unwrap().node.body,
        MoveBody::Null(_)
    ));
}

#[test]
fn the_catalogue_notation_reads_as_one_move_a_token() {
    // spec/notation.md section 7: a comma does not end a token, `@` may begin one.
    let text = "1. e4,d4 @f7# 2. R@h8 Qxe5,Qxe6# 3.Ke2-e4-e6-e8 Rxd8Q@f7 4. Bxa6@b7 b8=Q,h8=Q# 5. d8=K (5. h7-f5-d3-f1-d1-b1=Q) *";
    let parsed = one(text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    assert_eq!(
        moves(&parsed.game),
        [
            "e4,d4",
            "@f7#",
            "R@h8",
            "Qxe5,Qxe6#",
            "Ke2-e4-e6-e8",
            "Rxd8Q@f7",
            "Bxa6@b7",
            "b8=Q,h8=Q#",
            "d8=K"
        ]
    );
}

#[test]
fn a_move_item_is_no_larger_than_its_move() {
    // Moves are most of what a game holds; `PieceMove` keeps a niche at the front for it.
    assert_eq!(
        std::mem::size_of::<Item>(),
        std::mem::size_of::<crate::notation::Notation>()
    );
    assert!(std::mem::size_of::<crate::notation::Notation>() <= 5 * std::mem::size_of::<usize>());
}

#[test]
fn whitespace_alone_is_no_game_and_comments_alone_are_flagged() {
    assert!(parse_str(" \n\r\n ").is_empty());
    assert_eq!(codes(&one("{just a comment}")), ["empty-game"]);
}

#[test]
fn a_long_line_is_read_in_linear_time() {
    let text = format!("1. e4 {{{}}} *", "x".repeat(1 << 20));
    assert!(one(&text).diagnostics.is_empty());
    let junk = "e".repeat(1 << 20);
    let parsed = one(&junk);
    assert_eq!(codes(&parsed), ["unreadable-move", "missing-result"]);
    assert!(parsed.diagnostics[0].message.len() < 200);
}

/// Found by fuzzing (`fuzz/`, target `pgn`): a token glued to a result (`*—`, a
/// Windows-1252 dash) begins the next game, and its diagnostic must go with it, not with
/// the game the result ended; else `fmt` laid out that next game, "clean", as a lone
/// token that reads back with an error.
#[test]
fn a_bad_token_after_a_result_reports_in_the_game_it_begins() {
    for (text, code) in [
        ("1. e4 *—\n", "unreadable-move"),
        ("1. e4 1-0 )\n", "unexpected-token"),
        ("1. e4 * $x\n", "bad-nag"),
        ("1. e4 *\u{1}\n", "control-character"),
    ] {
        let games = parse_str(text);
        assert_eq!(games.len(), 2, "{text:?}");
        assert!(
            codes(&games[0]).is_empty(),
            "{text:?}: {:?}",
            codes(&games[0])
        );
        assert!(
            codes(&games[1]).contains(&code),
            "{text:?}: {:?}",
            codes(&games[1])
        );
    }
}

#[test]
fn the_plain_tag_fast_paths_read_as_the_full_tag_reader() {
    let names = [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "Rounds",
        "Resul",
        "Resulting",
        "Ro",
        "R",
        "E",
        "Sites",
        "WhiteElo",
        "X",
    ];
    let values = [
        "?",
        "*",
        "-",
        "1-0",
        "0-1",
        "1/2-1/2",
        "1/2-1/",
        "1/2-1/22",
        "1/2",
        "????.??.??",
        "????.??.?",
        "????.??.???",
        "??",
        "?*",
        "",
        "1-00",
        "0-",
        "-?",
        "UTC",
        "x",
    ];
    let afters = ["", "\r\n[Site \"?\"]", "\n", "]", " ", "\"]", "x"];
    for name in names {
        for value in values {
            for after in afters {
                for between in [" \"", "\"", "  \""] {
                    let line = format!("[{name}{between}{value}\"]{after}");
                    let Some(plain) = read_plain_tag(line.as_bytes()) else {
                        assert!(between != " \"", "{line:?} is plain");
                        continue;
                    };
                    let full_line = line.lines().next().unwrap();
                    let (tag, consumed, problem) = read_tag(full_line);
                    let tag = tag.unwrap();
                    assert!(problem.is_none(), "{line:?}");
                    assert_eq!(plain.len, consumed, "{line:?}");
                    assert_eq!(plain.name, tag.name, "{line:?}");
                    assert_eq!(plain.value, tag.value.range, "{line:?}");
                    let name_bytes = &line.as_bytes()[plain.name.clone()];
                    assert_eq!(plain.known_name, known_tag_name(name_bytes), "{line:?}");
                    let value_bytes = &line.as_bytes()[plain.value.clone()];
                    // A placeholder found without the scan is the value as written.
                    if let Some(known) = plain.known_value {
                        assert_eq!(known.as_bytes(), value_bytes, "{line:?}");
                    }
                    assert_eq!(value_bytes, tag.value.text.as_bytes(), "{line:?}");
                }
            }
        }
    }
}

#[test]
fn control_bytes_are_found_at_every_place_of_a_comment() {
    for len in 0..24 {
        for at in 0..len {
            // Past ASCII: a C1 control's first byte, or any other character's.
            for bad in [0x00u8, 0x09, 0x1f, 0x7f, 0x80, 0xc2, 0xff] {
                let mut text = vec![b'a'; len];
                text[at] = bad;
                assert!(may_hold_control_character(&text), "{len} {at} {bad}");
            }
        }
        for fill in [0x20u8, b'a', 0x7e] {
            assert!(
                !may_hold_control_character(&vec![fill; len]),
                "{len} {fill}"
            );
        }
    }
}

#[test]
fn control_characters_in_tags_and_comments_are_reported_where_they_stand() {
    for (text, at, name) in [
        ("[Event \"a\u{1b}]0;x\u{7}b\"]\n*\n", 9, "0x1B"),
        ("[Event \"a\u{7f}\"]\n*\n", 9, "0x7F"),
        ("[White \"\u{b0}\u{9b}31m\"]\n*\n", 10, "U+009B"),
        ("1. e4 {caf\u{e9} \u{9b}31m} *\n", 13, "U+009B"),
        ("1. e4 ; \u{7}\n*\n", 8, "0x07"),
    ] {
        let games = parse_chunk(text, 0);
        let found: Vec<_> = games
            .iter()
            .flat_map(|g| &g.diagnostics)
            .filter(|d| d.code == Code::ControlCharacter)
            .collect();
        assert_eq!(found.len(), 1, "{text:?}: {found:?}");
        assert_eq!(found[0].span.offset, at, "{text:?}");
        assert!(found[0].message.contains(name), "{}", found[0].message);
    }
    let plain = parse_chunk("[Event \"caf\u{e9}\tx\"]\n1. e4 {\u{e9}\u{202e}} *\n", 0);
    assert!(
        plain[0].diagnostics.is_empty(),
        "{:?}",
        plain[0].diagnostics
    );
}

#[test]
fn a_game_of_tag_pairs_spans_them_and_no_more() {
    let text = "{c}\n[Event \"?\"]\r\n[Site \"x\"]\n[Bad]\n  [Date \"????.??.??\"]\n\n";
    let parsed = parse_str(text);
    assert_eq!(parsed.len(), 1);
    let game = &parsed[0].game;
    // `[Bad]` is a tag pair without a value.
    assert_eq!(game.tags.len(), 4);
    let end = text.find("??\"]").unwrap() + 4;
    assert_eq!(game.span, Span::new(0, end));
    let text = "1. e4 *\n[Event \"?\"]\n[Result \"*\"]";
    let parsed = parse_chunk(text, 7);
    assert_eq!(parsed.len(), 2);
    assert_eq!(parsed[1].game.span, Span::new(7 + 8, text.len() - 8));
    assert_eq!(parsed[1].game.tag("Result"), Some("*"));
}

/// The reader marks every game whose move list holds an item that owns heap memory, so
/// that recycling, which forgets the items of an unmarked game unread, leaks nothing;
/// also where the item begins a game after a result.
#[test]
fn games_holding_items_that_own_memory_are_marked() {
    let long = "a comment longer than twenty-four bytes";
    for text in [
        format!("1. e4 {{{long}}} e5 *"),
        format!("1. e4 ;{long}\ne5 *"),
        "1. e4 (1. d4 d5) e5 *".to_owned(),
        "1. e4 (1. d4 d5 *".to_owned(),
        "1. e4\n%escape\ne5 *".to_owned(),
        "1. e4 e5x *".to_owned(),
        "1. Ra1-e1-f1-g1 *".to_owned(),
        "1. e4 1-0 e5x *".to_owned(),
        "1. e4 1-0 Ra1-e1-f1-g1 *".to_owned(),
        "1. e4 1-0 (e5) *".to_owned(),
        "1. e4 1-0 ] e5 *".to_owned(),
        format!("1. e4 1-0\n[Event \"x\"]\n1. d4 {{{long}}} *"),
        "1. e4 {short} e5 $1 1-0\n1. d4 *".to_owned(),
    ] {
        let games = parse_str(&text);
        assert!(!games.is_empty(), "{text}");
        for game in &games {
            assert!(
                game.heap_items.0 || game.game.moves.iter().all(owns_no_heap),
                "{text}: {:?}",
                game.game.moves
            );
        }
    }
    // And the plain games are not marked, or nothing would be saved.
    for game in parse_str("1. e4 {[%clk 0:10:00]} e5 $1 2. Nf3 1-0\n1. d4 *") {
        assert!(!game.heap_items.0, "{:?}", game.game.moves);
    }
}

proptest::proptest! {
    /// A clock comment's end is its first `}`, and what it says it holds is what a look
    /// at its text finds: no event command, no control character.
    #[test]
    fn a_clock_comment_ends_where_it_closes_and_holds_neither_command_nor_control(
        pieces in proptest::collection::vec(
            proptest::sample::select(vec![
                &b"[%clk "[..], b"[%clk 0:09:57.1]", b"[%event 5]", b"0", b"9", b":", b".",
                b"]", b"}", b"{", b"[", b" ", b"a", b"\x01", b"\x7f", b"\xc2\x85",
            ]),
            0..12,
        )
    ) {
        let bytes = pieces.concat();
        for from in 0..=bytes.len() {
            if let Some(end) = clock_comment_end(&bytes, from) {
                let text = &bytes[from..end];
                proptest::prop_assert_eq!(memchr(b'}', &bytes[from..]), Some(end - from));
                proptest::prop_assert!(!may_hold_control_character(text));
                proptest::prop_assert!(memchr::memmem::find(text, b"[%event").is_none());
            }
        }
    }
}

#[test]
fn clock_comments_are_read_whole_and_other_comments_are_not_taken_for_them() {
    for (text, end) in [
        ("[%clk 0:09:57.1]} 2. d4", Some(16)),
        (" [%clk 0:03:00] } 2. d4", Some(16)),
        ("[%clk 1:00:00]} 1. e4 e5 2. Nf3", Some(14)),
        // Too near the end of the text for the words read: read the general way.
        ("[%clk 1:00:00]} 1-0", None),
        ("[%clk 0:03:00] [%event 5]}", None),
        ("[%eval 0.17] [%clk 0:03:00]}", None),
        ("[%clk 0:03:00]", None),
        ("[%clk 0:0\u{1b}]}", None),
        ("  [%clk 0:03:00]}", None),
    ] {
        assert_eq!(clock_comment_end(text.as_bytes(), 0), end, "{text:?}");
    }
    let game = one("[Result \"*\"]\n\n1. e4 {[%clk 0:09:57.1]} e5 { [%clk 0:09:50] } *\n");
    assert!(game.diagnostics.is_empty(), "{:?}", game.diagnostics);
    let comments: Vec<_> = game
        .game
        .moves
        .iter()
        .filter_map(|item| match &item.node {
            Item::Comment(comment) => Some(comment.text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(comments, ["[%clk 0:09:57.1]", " [%clk 0:09:50] "]);
}

#[test]
fn time_bytes_are_flagged_exactly_wherever_they_stand() {
    for at in 0..8 {
        for b in 0..=255u8 {
            for fill in [b'0', b'a', 0x00, 0xff] {
                let mut word = [fill; 8];
                word[at] = b;
                let flags = time_bytes(u64::from_le_bytes(word)).to_le_bytes();
                for (i, &byte) in word.iter().enumerate() {
                    let expected = byte.is_ascii_digit() || byte == b':' || byte == b'.';
                    assert_eq!(flags[i] == 0x80, expected, "{word:?} at {i}");
                    assert!(flags[i] == 0 || flags[i] == 0x80);
                }
            }
        }
    }
}
