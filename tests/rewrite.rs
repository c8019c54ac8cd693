//! What `lint --fix` and `fmt --write` give back (issue 20): files of any size, every
//! line break style and encoding, the file's metadata, and output that cannot be
//! written. Each file is compared byte for byte with what it must become.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};

use common::{Scratch, stderr, stdout, xpgn};
use xpgn::source::{Encoding, MAX_PART_BYTES};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The number of games `check` reads in a file.
fn games(path: &Path) -> usize {
    let output = xpgn(&["check", "--format", "json", s(path)]);
    stdout(&output).lines().count()
}

fn write(dir: &Scratch, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.0.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// `bytes` with each `(from, to)` replaced once, in order from the start.
fn replaced(bytes: &[u8], edits: &[(&[u8], &[u8])]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    for (from, to) in edits {
        let at = rest
            .windows(from.len())
            .position(|w| w == *from)
            .unwrap_or_else(|| panic!("{} not found", String::from_utf8_lossy(from)));
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(to);
        rest = &rest[at + from.len()..];
    }
    out.extend_from_slice(rest);
    out
}

const CLEAN_LF: &[u8] = b"[Event \"Open\"]\n[Site \"?\"]\n[Date \"2026.11.23\"]\n[Round \"1\"]\n[White \"J\xc3\xbcrgen\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n1. e4 {a comment} e5 2. Nf3 (2. Bc4 Bc5) 2... Nc6 3. Bb5 a6 $1 4. O-O 1-0\n\n";
const CLEAN_CRLF: &[u8] = b"[Event \"Open\"]\r\n[Site \"?\"]\r\n[Date \"2026.11.23\"]\r\n[Round \"2\"]\r\n[White \"?\"]\r\n[Black \"?\"]\r\n[Result \"*\"]\r\n\r\n1. d4 d5 2. c4 *\r\n\r\n";
/// Three findings to fix: an over-disambiguated move, castling with zeros, a date.
const FIXABLE_LF: &[u8] = b"[Event \"Fix me\"]\n[Site \"?\"]\n[Date \"2026-11-24\"]\n[Round \"3\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ng1f3 Nc6 3. Bc4 Bc5 4. 0-0 *\n\n";
const FIXABLE_CRLF: &[u8] = b"[Event \"Fix me\"]\r\n[Site \"?\"]\r\n[Date \"?\"]\r\n[Round \"4\"]\r\n[White \"?\"]\r\n[Black \"?\"]\r\n[Result \"*\"]\r\n\r\n1. d4 d5 2. Ng1f3 *\r\n\r\n";
/// Windows-1252 (`é`, `ü` as one byte each), with a fix.
const FIXABLE_CP1252: &[u8] = b"[Event \"Caf\xe9\"]\r\n[Site \"?\"]\r\n[Date \"?\"]\r\n[Round \"5\"]\r\n[White \"M\xfcller\"]\r\n[Black \"?\"]\r\n[Result \"*\"]\r\n\r\n1. e4 {\xe9l\xe9gant} e5 2. Ng1f3 *\r\n\r\n";

/// Several megabytes of games: a UTF-8 byte order mark, LF and CRLF games, a
/// Windows-1252 game, a few fixable findings, and a game too large to read. `--fix`
/// changes exactly the fixed spans, keeps the game count, and a second run changes
/// nothing (finding 1: it used to cut the file to its first game).
#[test]
fn fix_a_multi_megabyte_file_changes_only_the_fixed_spans() {
    let dir = Scratch::new("rewrite-big");
    let mut original = b"\xEF\xBB\xBF".to_vec();
    let mut expected = original.clone();
    let too_large = format!(
        "[Event \"Huge\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. Ng1f3 {{{}}} *\n\n",
        "c".repeat(MAX_PART_BYTES)
    );
    for i in 0..16_000 {
        let (game, fixed): (&[u8], Vec<u8>) = match i {
            10 => (
                FIXABLE_LF,
                replaced(
                    FIXABLE_LF,
                    &[
                        (b"2026-11-24", b"2026.11.24"),
                        (b"Ng1f3", b"Nf3"),
                        (b"0-0", b"O-O"),
                    ],
                ),
            ),
            5_000 => (FIXABLE_CRLF, replaced(FIXABLE_CRLF, &[(b"Ng1f3", b"Nf3")])),
            7_000 => (
                FIXABLE_CP1252,
                replaced(FIXABLE_CP1252, &[(b"Ng1f3", b"Nf3")]),
            ),
            9_000 => (too_large.as_bytes(), too_large.as_bytes().to_vec()),
            i if i % 3 == 0 => (CLEAN_CRLF, CLEAN_CRLF.to_vec()),
            _ => (CLEAN_LF, CLEAN_LF.to_vec()),
        };
        original.extend_from_slice(game);
        expected.extend_from_slice(&fixed);
    }
    assert!(original.len() > 3 << 20, "{}", original.len());
    let path = write(&dir, "big.pgn", &original);
    let count = games(&path);
    assert_eq!(count, 16_000);

    let first = xpgn(&["lint", "--fix", "--format", "json", s(&path)]);
    assert!(
        stderr(&first).contains("fixed 5 findings"),
        "{}",
        stderr(&first)
    );
    let after = std::fs::read(&path).unwrap();
    assert_eq!(after.len(), expected.len());
    assert!(after == expected, "only the fixed spans changed");
    assert_eq!(games(&path), count);

    let second = xpgn(&["lint", "--fix", s(&path)]);
    assert!(!stderr(&second).contains("fixed"), "{}", stderr(&second));
    assert!(std::fs::read(&path).unwrap() == expected);
}

/// `fmt --write` on several megabytes: the games already laid out keep their bytes,
/// the Windows-1252 game stays Windows-1252, and a second run changes nothing.
#[test]
fn fmt_write_a_multi_megabyte_file_changes_only_the_games_it_lays_out() {
    let dir = Scratch::new("rewrite-fmt");
    let layout = |bytes: &[u8]| {
        let path = write(&dir, "one.pgn", bytes);
        let output = xpgn(&["fmt", s(&path)]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        output.stdout
    };
    let clean = layout(CLEAN_LF);
    let messy_cp1252 =
        b"[Event \"Caf\xe9\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"5\"]\n[White \"M\xfcller\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1.e4   {\xe9l\xe9gant}   e5 2.Ng1f3 *\n";
    let cp1252 = Encoding::Windows1252 { line: 0 };
    let laid_out_cp1252 = cp1252
        .encode(&String::from_utf8(layout(messy_cp1252)).unwrap())
        .unwrap()
        .into_owned();
    let messy: &[u8] = b"[Event \"Open\"]\n[Site \"?\"]\n[Date \"2026.11.23\"]\n[Round \"1\"]\n[White \"J\xc3\xbcrgen\"]\n[Black \"?\"]\n[Result \"1-0\"]\n1.e4 {a comment} e5 2.Nf3 (2.Bc4 Bc5) Nc6 3.Bb5 a6 $1 4.O-O 1-0\n";
    assert_eq!(layout(messy), clean);
    let mut original = Vec::new();
    let mut expected = Vec::new();
    for i in 0..20_000 {
        if i > 0 {
            original.push(b'\n');
            expected.push(b'\n');
        }
        let (game, laid_out): (&[u8], &[u8]) = match i {
            3 | 14_000 => (messy, &clean),
            8_000 => (messy_cp1252, &laid_out_cp1252),
            _ => (&clean, &clean),
        };
        original.extend_from_slice(game);
        expected.extend_from_slice(laid_out);
    }
    assert!(original.len() > 3 << 20, "{}", original.len());
    let path = write(&dir, "big.pgn", &original);
    let output = xpgn(&["fmt", "--write", s(&path)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let after = std::fs::read(&path).unwrap();
    assert!(after == expected, "only the laid out games changed");
    assert_eq!(games(&path), 20_000);
    let again = xpgn(&["fmt", "--check", s(&path)]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
}

/// A transcript over 1 MiB is never cut: it is copied through, untouched.
#[test]
fn fix_keeps_a_transcript_too_large_to_read() {
    let dir = Scratch::new("rewrite-transcript");
    let text = format!(
        "1. Ng1f3 d5\n{}\n2. d4\n",
        "prose ".repeat(MAX_PART_BYTES / 4)
    );
    let path = write(&dir, "thread.txt", text.as_bytes());
    let output = xpgn(&["lint", "--fix", s(&path)]);
    assert!(!stderr(&output).contains("fixed"), "{}", stderr(&output));
    assert!(std::fs::read(&path).unwrap() == text.as_bytes());
}

/// The roster fix puts each missing tag on a line of its own right after the last tag,
/// in the file's own line breaks, and converges (finding 2).
#[test]
fn missing_roster_tags_in_one_line_cr_and_crlf_games() {
    let dir = Scratch::new("rewrite-roster");
    let roster = |nl: &str, result: &str| {
        format!(
            "{nl}[Site \"?\"]{nl}[Date \"????.??.??\"]{nl}[Round \"?\"]{nl}[Black \"?\"]{nl}[Result \"{result}\"]"
        )
    };
    for (name, text, expected) in [
        (
            "one-line.pgn",
            "[Event \"a\"] [White \"x\"] 1. e4 *\n[Event \"b\"] [White \"y\"] 1. d4 1-0\n"
                .to_owned(),
            format!(
                "[Event \"a\"] [White \"x\"]{} 1. e4 *\n[Event \"b\"] [White \"y\"]{} 1. d4 1-0\n",
                roster("\n", "*"),
                roster("\n", "1-0")
            ),
        ),
        (
            "cr.pgn",
            "[Event \"a\"]\r[White \"x\"]\r\r1. e4 *\r".to_owned(),
            format!(
                "[Event \"a\"]\r[White \"x\"]{}\r\r1. e4 *\r",
                roster("\r", "*")
            ),
        ),
        (
            "crlf.pgn",
            "[Event \"a\"]\r\n[White \"x\"]\r\n\r\n1. e4 *\r\n".to_owned(),
            format!(
                "[Event \"a\"]\r\n[White \"x\"]{}\r\n\r\n1. e4 *\r\n",
                roster("\r\n", "*")
            ),
        ),
    ] {
        let path = write(&dir, name, text.as_bytes());
        let count = games(&path);
        xpgn(&["lint", "--fix", s(&path)]);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), expected, "{name}");
        assert_eq!(games(&path), count, "{name}");
        let second = xpgn(&["lint", "--fix", s(&path)]);
        assert!(!stderr(&second).contains("fixed"), "{name}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), expected, "{name}");
    }
    // Tags after the moves of the game before: a syntax error, and the part keeps its
    // text (it used to gain 30 lines, more each run).
    let fixture = std::fs::read("fixtures/syntax/tag-in-movetext.pgn").unwrap();
    let path = write(&dir, "tag-in-movetext.pgn", &fixture);
    for _ in 0..2 {
        xpgn(&["lint", "--fix", s(&path)]);
        assert_eq!(std::fs::read(&path).unwrap(), fixture);
    }
    // Tags glued to the moves before them (found by fuzzing the fix): new tag lines
    // after them would split off and join the next game's tags, again on every run.
    let glued = "[Event \"a\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 *[Date \"2026.11.23\"]\n[Round \"?\"]\n[White \"x\"]\n";
    let path = write(&dir, "glued.pgn", glued.as_bytes());
    let first = xpgn(&["lint", "--fix", s(&path)]);
    let fixed = std::fs::read(&path).unwrap();
    let second = xpgn(&["lint", "--fix", s(&path)]);
    assert!(!stderr(&second).contains("fixed"), "{}", stderr(&first));
    assert_eq!(std::fs::read(&path).unwrap(), fixed);
    assert!(fixed.starts_with(b"[Event \"a\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 *[Date \"2026.11.23\"]\n[Round"));
}

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let units = text.encode_utf16();
    if big_endian {
        [0xFE, 0xFF]
            .into_iter()
            .chain(units.flat_map(u16::to_be_bytes))
            .collect()
    } else {
        [0xFF, 0xFE]
            .into_iter()
            .chain(units.flat_map(u16::to_le_bytes))
            .collect()
    }
}

/// UTF-16 with its byte order mark is read and named; `--fix` and `fmt --write` refuse
/// to write it back and leave it untouched (finding 3: it became `&#1046;` entities).
#[test]
fn utf16_is_read_named_and_never_garbled() {
    let dir = Scratch::new("rewrite-utf16");
    let text = "[Event \"Жук\"]\r\n[White \"Ng1f3\"]\r\n\r\n1. e4 e5 2. Ng1f3 *\r\n[Event \"b\"]\r\n\r\n1. d4 *\r\n";
    for (name, big_endian, encoding) in
        [("le.pgn", false, "UTF-16LE"), ("be.pgn", true, "UTF-16BE")]
    {
        let bytes = utf16(text, big_endian);
        let path = write(&dir, name, &bytes);
        let check = xpgn(&["check", s(&path)]);
        let report = stdout(&check);
        assert!(
            report.contains(&format!("the file is {encoding}")),
            "{report}"
        );
        assert!(report.contains("Жук"), "{report}");
        assert!(report.contains("2 games"), "{report}");

        let fix = xpgn(&["lint", "--fix", s(&path)]);
        assert_eq!(fix.status.code(), Some(2));
        assert!(stderr(&fix).contains(&format!("is {encoding}: --fix writes back")));
        assert!(
            stdout(&fix).contains("over-disambiguated"),
            "findings still reported"
        );
        assert_eq!(std::fs::read(&path).unwrap(), bytes);

        let fmt = xpgn(&["fmt", "--write", s(&path)]);
        assert_eq!(fmt.status.code(), Some(2));
        assert!(stderr(&fmt).contains(encoding), "{}", stderr(&fmt));
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
    }
}

/// A UTF-8 file with a byte order mark and one stray byte is read as Windows-1252 byte
/// for byte: the mark and the byte stay (finding 3: both were lost).
#[test]
fn a_stray_byte_after_a_utf8_bom_is_kept() {
    let dir = Scratch::new("rewrite-stray");
    let bytes = b"\xEF\xBB\xBF[Event \"J\xc3\xbcrgen \xfc\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ng1f3 *\n";
    let path = write(&dir, "stray.pgn", bytes);
    let fix = xpgn(&["lint", "--fix", s(&path)]);
    assert!(stderr(&fix).contains("fixed 1 finding"), "{}", stderr(&fix));
    assert_eq!(
        std::fs::read(&path).unwrap(),
        replaced(bytes, &[(b"Ng1f3", b"Nf3")])
    );
    assert!(stdout(&fix).contains("read as Windows-1252"));
}

#[cfg(unix)]
#[test]
fn fix_refuses_a_read_only_file_and_reports_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Scratch::new("rewrite-read-only");
    let path = write(&dir, "a.pgn", FIXABLE_LF);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let fix = xpgn(&["lint", "--fix", s(&path)]);
    assert_eq!(fix.status.code(), Some(2));
    assert!(
        stderr(&fix).contains("a.pgn: is read-only: not rewritten"),
        "{}",
        stderr(&fix)
    );
    assert!(
        stdout(&fix).contains("over-disambiguated"),
        "findings still reported"
    );
    assert_eq!(std::fs::read(&path).unwrap(), FIXABLE_LF);
}

/// Output that cannot be written: a closed pipe (`| head -1`) ends the run quietly, as
/// any filter does; a full disk says it is the output, not the file (finding 11).
#[test]
fn a_closed_pipe_and_a_full_disk() {
    let dir = Scratch::new("rewrite-output");
    let path = write(&dir, "many.pgn", &FIXABLE_LF.repeat(3000));
    for args in [
        &["lint", s(&path)][..],
        &["check", "--format", "json", "--jobs", "1", s(&path)],
        &["check", "--format", "json", s(&path)],
        &["fmt", s(&path)],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xpgn"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let mut errors = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut errors)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(!first.is_empty());
        assert_ne!(status.code(), Some(2), "{args:?}: {errors}");
        assert!(!errors.contains("Broken pipe"), "{args:?}: {errors}");

        if Path::new("/dev/full").exists() {
            let full = Command::new(env!("CARGO_BIN_EXE_xpgn"))
                .args(args)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .stdout(std::fs::File::create("/dev/full").unwrap())
                .output()
                .unwrap();
            let errors = stderr(&full);
            assert_eq!(full.status.code(), Some(2), "{args:?}");
            assert!(errors.contains("cannot write the "), "{args:?}: {errors}");
            assert!(!errors.contains("cannot read"), "{args:?}: {errors}");
            assert_eq!(errors.lines().count(), 1, "{args:?}: {errors}");
        }
    }
}
