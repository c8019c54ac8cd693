//! The events of Event Chess xpgn plays, one module each, and the names of those it
//! knows of but cannot play yet.

mod hidden_passage;
mod line_pushers;
pub mod loyal_knights;
pub mod prince;

use super::board::{Bitboard, Sq};
use super::event::Event;
use super::moves::{Move, Special};
use super::piece::{Color, Piece};
use super::position::Position;
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

/// Pawns of the side to move on `from` that stand on their promotion rank, where a push
/// or a swap left them, promote by standing still (LP-3, LK-7): one move per piece, as
/// the event with `(number, data)` plays it.
fn standing_promotions(
    v: &Variant,
    pos: &Position,
    from: Bitboard,
    (number, data): (u16, u16),
    out: &mut Vec<Move>,
) {
    let us = pos.turn;
    let Some(pawn) = v.tables.pawn else {
        return;
    };
    let waiting = pos.pieces(us, pawn) & v.tables.promotion_squares[us.index()] & from;
    for sq in waiting {
        for &kind in &v.pawn.promotes_to {
            if v.may_promote_to(pos, us, kind) {
                out.push(Move {
                    piece: Piece {
                        color: us,
                        kind: pawn,
                    },
                    from: sq,
                    to: sq,
                    captured: None,
                    promotion: Some(kind),
                    special: Special::Event { number, data },
                    faces: None,
                    swap: None,
                });
            }
        }
    }
}

/// Plays a stand-still promotion that [`standing_promotions`] listed.
fn promote_in_place(pos: &mut Position, mv: &Move) {
    let kind = mv.promotion.expect("a promotion");
    pos.remove(mv.from);
    pos.put(
        mv.from,
        Piece {
            color: mv.piece.color,
            kind,
        },
    );
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

/// What the events' unit tests share.
#[cfg(test)]
pub(crate) mod testing {
    use crate::notation::Square;
    use crate::rules::{Sq, Variant};

    pub fn event_chess() -> &'static Variant {
        Variant::by_name("event-chess").unwrap()
    }

    /// The square named `name` on the Event Chess board.
    pub fn sq(name: &str) -> Sq {
        event_chess()
            .geometry
            .from_square(Square::parse(name).unwrap())
            .unwrap()
    }
}
