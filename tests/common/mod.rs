//! Running the built `xpgn` binary as scripts do, for the CLI test files.

// Every test crate compiles this module and uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `xpgn` with `args` from the repository root, without colour.
pub fn xpgn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("xpgn runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs `xpgn` with `args`, feeding `input` on standard input.
#[allow(
    dead_code,
    reason = "each test crate compiles this module; only some feed input"
)]
pub fn xpgn_with_input(args: &[&str], input: &str) -> Output {
    xpgn_with_bytes(args, input.as_bytes())
}

/// Runs `xpgn` with `args`, feeding `input` (any bytes) on standard input.
pub fn xpgn_with_bytes(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("xpgn runs");
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_vec();
    // Written on another thread so a large output cannot block both ends.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("xpgn ends");
    // xpgn stops reading what it refuses (binary data): the rest meets a closed pipe.
    match writer.join().expect("writer") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("input not written: {e}"),
        _ => {}
    }
    output
}

/// A temporary folder for a test's files, removed when the test ends.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("xpgn-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Writes `text` to `name` (folders created as needed) and returns its path.
    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A game's error codes, main-line plies and ending.
pub type Verdict = (Vec<String>, u64, String);

/// Per game of a file: the codes of its errors, its main-line plies and its ending, as
/// `check --format json` gives them.
pub fn verdicts(path: &str) -> Vec<Verdict> {
    let output = xpgn(&["check", "--format", "json", path]);
    stdout(&output)
        .lines()
        .map(|l| {
            let report: serde_json::Value = serde_json::from_str(l).unwrap();
            let errors = report["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["severity"] == "error")
                .map(|d| d["code"].as_str().unwrap().to_owned())
                .collect();
            (
                errors,
                report["plies"].as_u64().unwrap(),
                report["ending"].to_string(),
            )
        })
        .collect()
}

/// Errors about how a transcript was written rather than what it records (a `start
/// event` never announced): a conversion keeps the record, not the way it was posted.
pub const TRANSCRIPT_ONLY: [&str; 1] = ["event-not-announced"];

/// A rewritten record reads back to the verdicts of the original: the same plies and
/// ending, and the same errors, less some that were only spellings the rewriting writes
/// right (a move through a passage written without it, a missing `K@`) and those of a
/// transcript's posting ([`TRANSCRIPT_ONLY`]).
pub fn assert_same_verdicts(original: &str, rewritten: &str, context: &str) {
    assert_verdicts_kept(&verdicts(original), rewritten, context);
}

/// [`assert_same_verdicts`] with the original's [`verdicts`] already known.
pub fn assert_verdicts_kept(before: &[Verdict], rewritten: &str, context: &str) {
    let respelled = ["event-choice", TRANSCRIPT_ONLY[0]];
    let after = verdicts(rewritten);
    assert_eq!(after.len(), before.len(), "{context}");
    for (game, (was, now)) in before.iter().zip(&after).enumerate() {
        let context = format!("{context} game {}", game + 1);
        assert_eq!((was.1, &was.2), (now.1, &now.2), "{context}");
        let mut left = now.0.iter().peekable();
        for code in &was.0 {
            if left.peek() == Some(&code) {
                left.next();
            } else {
                assert!(respelled.contains(&code.as_str()), "{context}: {code}");
            }
        }
        assert_eq!(left.next(), None, "{context}: new errors");
    }
}

/// Every file of `fixtures/` (and below) whose name ends in `.extension`, sorted.
pub fn fixture_files(extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        walkdir::WalkDir::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"))
            .into_iter()
            .map(|e| e.unwrap().into_path())
            .filter(|p| p.extension().is_some_and(|e| e == extension))
            .collect();
    files.sort();
    files
}

/// Runs `each` on every item (with its index) on as many threads as there are cores: the
/// tests that run the binary thousands of times spend their time starting processes. A
/// panic in any of them fails the caller.
pub fn in_parallel<T: Sync>(items: &[T], each: impl Fn(usize, &T) + Sync) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(index) else { break };
                    each(index, item);
                }
            });
        }
    });
}
