//! Variant definitions in YAML: any text is a variant or a list of located errors; a
//! variant that loads generates and plays the moves of its start position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xpgn::rules::Variant;

fuzz_target!(|text: &str| {
    if let Ok(variant) = Variant::from_yaml(text) {
        let start = variant.start_position().clone();
        let mut moves = Vec::new();
        variant.legal_moves(&start, &mut moves);
        for mv in &moves {
            let mut after = start.clone();
            variant.play(&mut after, mv);
        }
    }
});
