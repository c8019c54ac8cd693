//! Forum transcripts: read, then checked as tagless standard games and as Event Chess.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xpgn::replay::check_game;
use xpgn::rules::{Variant, Variants};
use xpgn::source::read_whole;

fuzz_target!(|data: &[u8]| {
    let chunk = read_whole(data).expect("reading from memory cannot fail");
    let parsed = xpgn::transcript::parse_str(&chunk.text);
    for name in ["standard", "event-chess"] {
        check_game(
            &parsed,
            &Variants::with_default(Variant::by_name(name).unwrap()),
        );
    }
});
