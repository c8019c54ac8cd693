//! The names of the catalogue's events, played by xpgn or not: forum announcements name
//! an event by number AND name, and the numbers were reorganised once, so a reader checks
//! one against the other (`spec/notation.md` section 6). Where xpgn stands with each
//! event ([`Support`]) is told here too, for `xpgn variants` and for the finding on a game
//! that starts an event xpgn does not play.

use super::ALL;
use crate::command::EARLY_NUMBERING;

/// Where xpgn stands with an event of the catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// Played: a module in the registry checks games under it.
    Played,
    /// Not played by this version; a later one may.
    NotYet,
    /// No version can check it from a game's record.
    Unsupported {
        /// Why, in a clause that follows "cannot be checked from a game's record:".
        reason: &'static str,
        /// Its rules page, from the root of xpgn's repository.
        page: &'static str,
    },
}

/// The events whose rules turn on what a record does not hold.
const UNCHECKABLE: [(u16, Support); 1] = [(
    93,
    Support::Unsupported {
        reason: "a takeback cancels a move the opponent made and forces another, and records keep only \
     the move that stood: whether a move was taken back, and whether the three takebacks \
     a game allows were kept to, cannot be read from the moves (TB-1)",
        page: "docs/rules/event-93-takebacks.md",
    },
)];

/// Every event of the catalogue by number, with the name its text gives it; an event of
/// the early numbering after the one that holds its number now.
const NAMES: [(u16, &str); 72] = [
    (1, "Check for allies"),
    (3, "Save the king!"),
    (4, "5-check"),
    // The early numbering's "Event #4", written `4*` (PC-9).
    (EARLY_NUMBERING + 4, "Portal Chess"),
    (5, "Hidden passage"),
    (6, "Starvation"),
    (7, "Revival"),
    (8, "Move Forward!"),
    (9, "Pit Traps"),
    (10, "Fortress"),
    (12, "Active Pawns"),
    (13, "Pawn March"),
    (14, "Chinese Checkers"),
    (15, "Swapping Pawns"),
    (16, "Spies"),
    (18, "Magnetic Pawns"),
    (23, "Hungry horses"),
    (24, "Roar!"),
    (29, "Directional Knights"),
    (30, "Drunken Bishops"),
    (32, "Mimicker"),
    (33, "Bouncing Bishops"),
    (36, "Portals"),
    (37, "Queenbuilder"),
    (38, "Forward Rotations"),
    (42, "Tanks"),
    (43, "Line Pushers"),
    (44, "Prison"),
    (46, "Sacrificial Catapult"),
    (47, "Watch Tower"),
    (48, "Force Fields"),
    (49, "Flying Rooks"),
    (51, "Monster Queen"),
    (57, "Long live the queen!"),
    (58, "Princess"),
    (59, "Loyal Queen"),
    (62, "King on horse"),
    (64, "Soul Eater"),
    (66, "Slow King"),
    (67, "Emperor"),
    (68, "Prince"),
    (70, "Ice"),
    (71, "Slow Pieces"),
    (73, "Cooperation"),
    (74, "Army Movement"),
    (75, "Bloodthirst"),
    (76, "Minor piece transformations"),
    (78, "Commanding Voice"),
    (83, "Smaller Board"),
    (85, "Loyal Knights"),
    (86, "No checks allowed"),
    (87, "Occupying Multiple Squares"),
    (88, "Treasure Hunt"),
    (89, "Same type immunity"),
    (91, "Variety"),
    (92, "Capture the flag"),
    (93, "Takebacks"),
    (96, "En Passant for all"),
    (99, "Double Trouble"),
    (102, "Running kings"),
    (106, "Wall"),
    (107, "Big Wall"),
    (109, "Pawn Grabbers"),
    (110, "Short Non-captures"),
    (111, "Generous Queens"),
    (112, "Heavy Rooks"),
    (115, "Piecebuilder"),
    (116, "Royal Queens"),
    (121, "Knight support"),
    (122, "Swapping Knights"),
    (123, "Forward Activity"),
    (126, "Callback Orders"),
];

/// The catalogue's name of event `number`.
pub fn name(number: u16) -> Option<&'static str> {
    NAMES
        .iter()
        .find(|(n, _)| *n == number)
        .map(|(_, name)| *name)
}

/// Where xpgn stands with event `number`; `None` for a number the catalogue does not hold.
pub fn support(number: u16) -> Option<Support> {
    name(number).map(|_| standing(number))
}

fn standing(number: u16) -> Support {
    if ALL.iter().any(|event| event.number() == number) {
        Support::Played
    } else if let Some(&(_, support)) = UNCHECKABLE.iter().find(|(n, _)| *n == number) {
        support
    } else {
        Support::NotYet
    }
}

/// Every event of the catalogue by number, with its name and where xpgn stands with it.
pub fn events() -> impl Iterator<Item = (u16, &'static str, Support)> {
    NAMES
        .iter()
        .map(|&(number, name)| (number, name, standing(number)))
}

/// The event whose name (or one of its other names, `Fat Pieces`) `text` opens with,
/// in any case and spacing: `Line Pushers!` is #43. The longest name wins, so `Wall`
/// does not take `Wall of ...`'s place where both exist.
pub fn named(text: &str) -> Option<u16> {
    let text = normalised(text);
    let played = ALL.iter().flat_map(|event| {
        std::iter::once(event.name())
            .chain(event.info().aliases.iter().copied())
            .map(|name| (event.number(), name))
    });
    NAMES
        .iter()
        .copied()
        .chain(played)
        .filter(|(_, name)| {
            let name = normalised(name);
            !name.is_empty() && text.starts_with(&name)
        })
        .max_by_key(|(_, name)| name.len())
        .map(|(number, _)| number)
}

/// Letters and digits only, lower case: announcements differ in case and punctuation.
fn normalised(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::EventLabel;

    #[test]
    fn announcements_name_their_event() {
        assert_eq!(named("Line Pushers"), Some(43));
        assert_eq!(named("line pushers! good luck"), Some(43));
        assert_eq!(named("Fat Pieces"), Some(71));
        assert_eq!(named("Spies"), Some(16));
        assert_eq!(named("5-check"), Some(4));
        assert_eq!(named("Portal Chess"), Some(EARLY_NUMBERING + 4));
        assert_eq!(named("Portals"), Some(36));
        assert_eq!(named("a new event"), None);
        assert_eq!(name(16), Some("Spies"));
        assert_eq!(name(2), None);
    }

    #[test]
    fn every_event_has_one_place() {
        assert_eq!(support(43), Some(Support::Played));
        assert!(matches!(support(93), Some(Support::Unsupported { .. })));
        assert_eq!(support(2), None);
        let numbers: Vec<(u16, bool)> = events()
            .map(|(number, _, _)| EventLabel(number).order())
            .collect();
        assert!(
            numbers.windows(2).all(|pair| pair[0] < pair[1]),
            "by number, each once, 4* after 4"
        );
        assert_eq!(numbers.len(), NAMES.len());
        for event in ALL {
            assert_eq!(support(event.number()), Some(Support::Played));
        }
        for (number, _) in UNCHECKABLE {
            assert!(
                ALL.iter().all(|event| event.number() != number),
                "#{number} is played, so it cannot be uncheckable"
            );
        }
    }

    #[test]
    fn every_played_event_has_its_catalogue_name() {
        for event in ALL {
            assert_eq!(
                named(event.name()),
                Some(event.number()),
                "#{} {}",
                event.number(),
                event.name()
            );
        }
    }
}
