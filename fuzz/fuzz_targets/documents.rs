//! Game documents (JSON and YAML, as `convert` writes them): split a document at a time,
//! read, then checked; a document cut anywhere or nested too deep is a diagnostic, never a
//! panic or a stack overflow.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xpgn::document::{Language, parse_documents};
use xpgn::replay::check_game;
use xpgn::rules::{Variant, Variants};
use xpgn::source::DocumentChunks;

fuzz_target!(|data: &[u8]| {
    let variants = Variants::with_default(Variant::by_name("standard").unwrap());
    for (language, yaml) in [(Language::Json, false), (Language::Yaml, true)] {
        for chunk in DocumentChunks::new(data, yaml) {
            let chunk = chunk.expect("reading from memory cannot fail");
            for part in &chunk.parts {
                let offset = chunk.offset + part.range.start;
                for parsed in parse_documents(chunk.part_text(part), offset, language) {
                    check_game(&parsed, &variants);
                }
            }
        }
    }
});
