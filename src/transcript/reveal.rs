//! A secret choice told in words (`my square was c4`, `I chose the g7 pawn`, `White's
//! treasure is h1`): read where it is that plain, into the event command's place for
//! its player (`[%event 5 c4 ?]`).

use crate::notation::Square;
use crate::rules::Color;

/// Whose choice a line tells (`None`: its writer's) and the square, where the line is a
/// plain reveal: a first person who chose (`my ...`, `I chose`, `I picked`), or a side
/// named (`White's ...`), a word for the choice or the verb, and exactly one square.
pub(super) fn reveal_in_words(text: &str) -> Option<(Option<Color>, Square)> {
    let words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '(' | ')' | '"'))
        .map(|w| w.trim_end_matches(['.', '!', '?']).to_ascii_lowercase())
        .filter(|w| !w.is_empty())
        .collect();
    let mut squares = words.iter().filter_map(|w| Square::parse(w));
    let square = squares.next()?;
    if squares.next().is_some() || words.len() > 12 {
        return None;
    }
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let chose = has(&["chose", "picked", "selected", "choose", "pick"]);
    let noun = has(&[
        "square", "passage", "pawn", "prince", "princess", "treasure", "spy", "choice", "pick",
        "secret",
    ]);
    let whose = if has(&["white's"]) {
        Some(Color::White)
    } else if has(&["black's"]) {
        Some(Color::Black)
    } else {
        None
    };
    let first_person = has(&["my"]) || (has(&["i"]) && chose);
    match whose {
        Some(colour) if noun && !first_person => Some((Some(colour), square)),
        None if first_person && (noun || chose) => Some((None, square)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<(Option<Color>, String)> {
        reveal_in_words(text).map(|(whose, square)| (whose, square.to_string()))
    }

    #[test]
    fn plain_reveals_are_read_and_chatter_is_not() {
        assert_eq!(read("my square was c4"), Some((None, "c4".into())));
        assert_eq!(read("I chose the g7 pawn."), Some((None, "g7".into())));
        assert_eq!(read("I picked f6!"), Some((None, "f6".into())));
        assert_eq!(
            read("White's treasure is h1"),
            Some((Some(Color::White), "h1".into()))
        );
        assert_eq!(read("my passage: f6"), Some((None, "f6".into())));
        assert_eq!(read("I like e4"), None, "no choice said");
        assert_eq!(read("my square was c4 or f6"), None, "two squares");
        assert_eq!(
            read("White's move e4 was strong"),
            None,
            "no word for a choice"
        );
        assert_eq!(read("my knight is on f3"), None);
    }
}
