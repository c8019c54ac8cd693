//! FEN of every built-in variant: read, and a position read prints to a FEN that reads
//! back to the same FEN; its legal moves and their SAN never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xpgn::rules::san::san;
use xpgn::rules::{Variant, parse_fen, write_fen};

fuzz_target!(|fen: &str| {
    for variant in Variant::built_in() {
        let Ok(position) = parse_fen(variant, fen) else {
            continue;
        };
        let written = write_fen(variant, &position);
        let again = parse_fen(variant, &written)
            .unwrap_or_else(|e| panic!("{fen:?} wrote {written:?}, which reads as: {e}"));
        assert_eq!(write_fen(variant, &again), written, "{fen:?}");
        let mut moves = Vec::new();
        variant.legal_moves(&position, &mut moves);
        for mv in &moves {
            san(variant, &position, mv);
        }
    }
});
