//! Checks the game files named on the command line and prints each finding on one line,
//! as `xpgn check --format concise` does; exits 1 when any is an error.
//!
//! It uses only the crate root's API, and builds without the command line's
//! dependencies:
//!
//! ```text
//! cargo run --no-default-features --example check_pgn -- games.pgn thread.txt
//! ```

use std::path::Path;
use std::process::ExitCode;

use xpgn::{Input, Severity, Variants, check_game, read_games};

fn main() -> ExitCode {
    let paths: Vec<_> = std::env::args_os().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: check_pgn FILE...");
        return ExitCode::from(2);
    }
    let variants = Variants::default();
    let mut errors = 0;
    for path in &paths {
        let input = Input::from_path(Path::new(path));
        let chunks = match read_games(&input) {
            Ok(chunks) => chunks,
            Err(e) => {
                eprintln!("{}: {e}", input.display);
                return ExitCode::from(2);
            }
        };
        for chunk in chunks {
            let chunk = match chunk {
                Ok(chunk) => chunk,
                Err(e) => {
                    eprintln!("{}: {e}", input.display);
                    return ExitCode::from(2);
                }
            };
            for (source, parsed) in chunk.games(&input.display) {
                for d in check_game(parsed, &variants).diagnostics {
                    let at = source.line_column(d.span.offset);
                    let (severity, code) = (d.severity.as_str(), d.code.name());
                    println!("{}:{at}: {severity}[{code}] {}", source.name, d.message);
                    errors += usize::from(d.severity == Severity::Error);
                }
            }
        }
    }
    ExitCode::from(u8::from(errors > 0))
}
