//! PGN reading, then what every command does with a game: check it (replay through the
//! rules), lay it out, and read the layout back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xpgn::layout::write_game;
use xpgn::pgn::parse_str;
use xpgn::replay::{Recording, check_game, replay_recording};
use xpgn::rules::{Variant, Variants};
use xpgn::source::PgnChunks;

fuzz_target!(|data: &[u8]| {
    let variants = Variants::with_default(Variant::by_name("standard").unwrap());
    // Bytes through the splitter and decoder, as files are read.
    for chunk in PgnChunks::new(data) {
        let chunk = chunk.expect("reading from memory cannot fail");
        for part in &chunk.parts {
            for parsed in xpgn::pgn::parse_chunk(chunk.part_text(part), chunk.offset) {
                check_game(&parsed, &variants);
                replay_recording(&parsed.game, &variants, Recording::Everything);
                if !parsed.diagnostics.iter().any(|d| d.is_error()) {
                    let mut laid_out = String::new();
                    write_game(&parsed.game, &mut laid_out);
                    // What fmt writes reads back without syntax errors.
                    for again in parse_str(&laid_out) {
                        assert!(
                            !again.diagnostics.iter().any(|d| d.is_error()),
                            "the layout of a clean game has errors: {laid_out:?}"
                        );
                    }
                }
            }
        }
    }
});
