//! The events of Event Chess xpgn plays, one module each, and the names of those it
//! knows of but cannot play yet.

mod line_pushers;

use super::event::Event;

pub use line_pushers::LinePushers;

/// Every event xpgn plays, by number.
pub const ALL: [&dyn Event; 1] = [&LinePushers];

/// The event with this number, if xpgn plays it.
pub fn by_number(number: u16) -> Option<&'static dyn Event> {
    ALL.into_iter().find(|e| e.number() == number)
}

/// The name of an event of the source texts, played or not (for diagnostics about
/// events that are not supported yet).
pub fn name_of(number: u16) -> Option<&'static str> {
    match by_number(number) {
        Some(event) => Some(event.name()),
        None => match number {
            5 => Some("Hidden passage"),
            68 => Some("Prince"),
            85 => Some("Loyal Knights"),
            _ => None,
        },
    }
}
