//! Forum spellings of a move (`spec/notation.md` section 6): `d5.`, `E5`, `nf3`, `Ntakes`
//! (`o-o` reads as castling already, and has its own lint rule).
//! Read as the move they mean; the written text stays in the source, so `xpgn lint`
//! names the canonical spelling where the two differ (`forum-spelling`).

use crate::notation::{CheckMark, MoveBody, Notation};

/// Zero-width characters that pasted text carries inside and between words.
pub(super) fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}')
}

/// A move as forum posts write it: what the word means, and whether it needed mending.
pub(super) fn forum_move(word: &str) -> Option<(Notation, bool)> {
    // `nf3` also reads as a pawn from an n-file, which no board of ours has.
    if let Some(piece) = small_piece_letter(word) {
        return Some((piece, true));
    }
    if let Ok(notation) = Notation::parse(word) {
        return Some((notation, false));
    }
    let trimmed = word.trim_end_matches('.');
    if trimmed.is_empty() {
        return None;
    }
    mended(trimmed)
        .or_else(|| unsaid_capture(trimmed))
        .map(|notation| (notation, true))
}

/// `Ntakes`, `Nx+`, `qtakes`: a capture by that piece whose target the replay finds, where
/// there is one.
fn unsaid_capture(word: &str) -> Option<Notation> {
    let (body, check) = match word.as_bytes().last()? {
        b'+' => (&word[..word.len() - 1], Some(CheckMark::Check)),
        b'#' => (&word[..word.len() - 1], Some(CheckMark::Mate)),
        _ => (word, None),
    };
    let mut chars = body.chars();
    let letter = match chars.next()? {
        c @ ('k' | 'q' | 'r' | 'n') => c.to_ascii_uppercase(),
        // A small `b` stays small: the bishop's or the b-pawn's, as the position has it.
        c if c.is_ascii_uppercase() || c == 'b' => c,
        _ => return None,
    };
    let rest = chars.as_str();
    (rest.eq_ignore_ascii_case("takes") || rest == "x").then_some(Notation {
        body: MoveBody::UnsaidCapture(letter as u8),
        check,
        assessment: None,
    })
}

/// `nf3`, `qxd5`, `bc4`: a piece letter written small. A small `b` before `x` or a rank
/// is the b-pawn's (`bxc4`, `b4`).
fn small_piece_letter(word: &str) -> Option<Notation> {
    let mut chars = word.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    let piece = match first {
        'k' | 'q' | 'r' | 'n' => true,
        'b' => !rest.starts_with(|c: char| c == 'x' || c.is_ascii_digit()),
        _ => false,
    };
    if !piece || rest.len() < 2 {
        return None;
    }
    let trimmed = rest.trim_end_matches('.');
    Notation::parse(&format!("{}{trimmed}", first.to_ascii_uppercase())).ok()
}

fn mended(word: &str) -> Option<Notation> {
    if let Ok(notation) = Notation::parse(word) {
        return Some(notation);
    }
    let mut chars = word.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    let candidate = match first {
        // `E5`: a capital file before a rank is a pawn move; no piece move lacks a file.
        'A'..='H' if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) => {
            format!("{}{rest}", first.to_ascii_lowercase())
        }
        _ => return None,
    };
    Notation::parse(&candidate).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(word: &str) -> Option<(String, bool)> {
        forum_move(word).map(|(n, mended)| (n.to_string(), mended))
    }

    #[test]
    fn forum_spellings_read_as_the_move_they_mean() {
        assert_eq!(read("Nf3"), Some(("Nf3".into(), false)));
        assert_eq!(read("d5."), Some(("d5".into(), true)));
        assert_eq!(read("E5"), Some(("e5".into(), true)));
        assert_eq!(read("nf3"), Some(("Nf3".into(), true)));
        assert_eq!(read("qxd5+"), Some(("Qxd5+".into(), true)));
        assert_eq!(read("bc4"), Some(("Bc4".into(), true)));
        assert_eq!(read("bxc4"), Some(("bxc4".into(), false)), "the b-pawn's");
        assert_eq!(read("Ntakes"), Some(("Nx".into(), true)));
        assert_eq!(read("ntakes+"), Some(("Nx+".into(), true)));
        assert_eq!(
            read("Qx#"),
            Some(("Qx#".into(), false)),
            "the notation's own form"
        );
        assert_eq!(
            read("btakes"),
            Some(("bx".into(), true)),
            "bishop or b-pawn"
        );
        assert_eq!(read("Nmistakes"), None);
        assert_eq!(read("lol"), None);
        assert_eq!(read("..."), None);
        assert_eq!(read("hello."), None);
    }
}
