//! The events of Event Chess xpgn plays, one module each, and the names of those it
//! knows of but cannot play yet.

mod hidden_passage;
mod line_pushers;
mod loyal_knights;
pub mod prince;

use super::board::Sq;
use super::event::Event;
use super::piece::Color;
use super::variant::Variant;

pub use hidden_passage::HiddenPassage;
pub use line_pushers::LinePushers;
pub use loyal_knights::LoyalKnights;
pub use prince::Prince;

/// Every event xpgn plays, by number.
pub const ALL: [&dyn Event; 4] = [&HiddenPassage, &LinePushers, &Prince, &LoyalKnights];

/// The event with this number, if xpgn plays it.
pub fn by_number(number: u16) -> Option<&'static dyn Event> {
    ALL.into_iter().find(|e| e.number() == number)
}

/// The name of an event of the source texts, played or not (for diagnostics about
/// events that are not supported yet).
pub fn name_of(number: u16) -> Option<&'static str> {
    by_number(number).map(|event| event.name())
}

/// EC-4: while #5, #43 or #85 runs, a pawn on its own first or second rank may step two.
fn on_own_first_two_ranks(v: &Variant, from: Sq, color: Color) -> bool {
    let rank = v.geometry.rank(from);
    let own = match color {
        Color::White => rank,
        Color::Black => v.geometry.height - 1 - rank,
    };
    own <= 1
}
