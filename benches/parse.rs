//! Parse-only throughput: bytes -> chunks -> PGN syntax trees, one core, no printing.
//!
//! `cargo bench --bench parse [-- FILES...]`; without files it reads
//! `../shared/corpus/standard/*.pgn` and skips with a message when that is absent.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use xpgn::games::read_games;
use xpgn::source::Input;

const RUNS: usize = 5;

fn main() {
    let mut files: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    if files.is_empty() {
        let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/standard");
        match std::fs::read_dir(&corpus) {
            Ok(entries) => {
                files = entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
                    .collect();
                files.sort();
            }
            Err(_) => {
                println!("skipped: {} is absent", corpus.display());
                return;
            }
        }
    }
    println!(
        "{:<20} {:>10} {:>9} {:>10} {:>10}",
        "file", "MB", "games", "median s", "MB/s"
    );
    for file in files {
        let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
        let mut times: Vec<Duration> = Vec::with_capacity(RUNS);
        let mut games = 0;
        for _ in 0..RUNS {
            let start = Instant::now();
            games = 0;
            let input = Input::from_path(&file);
            for chunk in read_games(&input).expect("readable input") {
                games += chunk.expect("readable chunk").games.len();
            }
            times.push(start.elapsed());
        }
        times.sort();
        let median = times[RUNS / 2].as_secs_f64();
        let mb = bytes as f64 / 1e6;
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        println!(
            "{name:<20} {mb:>10.1} {games:>9} {median:>10.3} {:>10.0}",
            mb / median
        );
    }
}
