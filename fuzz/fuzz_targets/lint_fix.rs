//! `lint --fix` on any bytes read as a PGN file: the fixed file holds as many games,
//! replaying the same moves, with no more errors, and fixing it again changes nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xpgn::games::chunks_of;
use xpgn::lint::fix::{FixError, Fixed, Fixer, same_games};
use xpgn::lint::{Scope, Selection};
use xpgn::pgn::ParsedGame;
use xpgn::rules::{Variant, Variants};
use xpgn::source::InputFormat;

/// The fixed bytes, as `lint --fix` would write them.
fn fix(fixer: &Fixer<'_>, bytes: &[u8]) -> Result<(Vec<u8>, Fixed), FixError> {
    let chunks = chunks_of(Box::new(std::io::Cursor::new(bytes.to_vec())), InputFormat::Pgn)
        .map_err(FixError::Read)?;
    let mut out = Vec::new();
    let fixed = fixer.fix(chunks, bytes, &mut out)?;
    Ok((out, fixed))
}

/// Every game of a file, as `check` reads it.
fn games(bytes: &[u8]) -> Vec<ParsedGame> {
    chunks_of(Box::new(std::io::Cursor::new(bytes.to_vec())), InputFormat::Pgn)
        .expect("reading from memory cannot fail")
        .flat_map(|pending| pending.expect("reading from memory cannot fail").parse().games)
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let variants = Variants::with_default(Variant::by_name("standard").unwrap());
    let selection = Selection::default();
    let fixer = Fixer {
        variants: &variants,
        selection: &selection,
        scope: Scope {
            fixable: true,
            pgn: true,
        },
        format: InputFormat::Pgn,
        name: "fuzz.pgn",
    };
    let (fixed, outcome) = match fix(&fixer, data) {
        Ok(fixed) => fixed,
        // What cannot be written back exactly is refused, and the file left alone; the
        // bytes read must always add up.
        Err(FixError::Refused(why)) => {
            assert!(!why.contains("changed while"), "{why}");
            return;
        }
        Err(e) => panic!("{e:?}"),
    };
    if !outcome.changed {
        // The file is not written then; a UTF-16 file is only looked at, never copied.
        let utf16 = data.starts_with(&[0xFF, 0xFE]) || data.starts_with(&[0xFE, 0xFF]);
        if !utf16 {
            assert_eq!(fixed, data, "nothing fixed, nothing changed");
        }
        return;
    }
    same_games(&variants, &games(data), &games(&fixed))
        .unwrap_or_else(|why| panic!("the fixes {why}: {:?}", String::from_utf8_lossy(&fixed)));
    let (_, again) = fix(&fixer, &fixed).expect("a fixed file is fixed again");
    assert!(
        !again.changed,
        "a second fix changes {:?}",
        String::from_utf8_lossy(&fixed)
    );
});
