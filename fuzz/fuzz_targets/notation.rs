//! Move notation: any token reads as a move or an error, and a move prints back to a
//! token that reads as the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xpgn::notation::Notation;

fuzz_target!(|token: &str| {
    if let Ok(notation) = Notation::parse(token) {
        let printed = notation.to_string();
        let again = Notation::parse(&printed)
            .unwrap_or_else(|e| panic!("{token:?} printed as {printed:?}, which is {e}"));
        assert_eq!(again, notation, "{token:?} printed as {printed:?}");
    }
});
