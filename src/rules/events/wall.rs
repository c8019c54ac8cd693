//! Event #106 Wall (catalogue; rulings WL-1 to WL-5 in `docs/rules/event-106-wall.md`): a
//! wall on the line between ranks 4 and 5 along the d- and e-files, which no slide or step
//! crosses: d4-d5, e4-e5, d4-e5 and e4-d5 are closed both ways, for moves and attacks,
//! along whatever path a move takes (WL-5).

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::Piece;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct Wall;

/// The event's number.
const NUMBER: u16 = 106;

/// Whether a step between two neighbouring squares crosses the wall: from a d4 or e4 to a
/// d5 or e5, or back (WL-1); a diagonal through the wall's ends stays open (WL-2).
fn crosses(v: &Variant, a: Sq, b: Sq) -> bool {
    let g = v.geometry;
    let low = g.height / 2 - 1;
    let wall_files = |sq: Sq| (3..=4).contains(&g.file(sq));
    let (ra, rb) = (g.rank(a), g.rank(b));
    wall_files(a) && wall_files(b) && ra.min(rb) == low && ra.max(rb) == low + 1
}

/// Whether the step between two neighbouring squares crosses a wall (this event's
/// [`crosses`], or #107's).
pub(super) type Crossing = fn(&Variant, Sq, Sq) -> bool;

/// The first step of the line from `from` to `to` that crosses the wall, when the two lie
/// on one rank, file or diagonal (a slide or a step); `None` for a leap (WL-3) or a line
/// the wall does not cut.
fn wall_between(v: &Variant, crosses: Crossing, from: Sq, to: Sq) -> Option<(Sq, Sq)> {
    let g = v.geometry;
    let df = i32::from(g.file(to)) - i32::from(g.file(from));
    let dr = i32::from(g.rank(to)) - i32::from(g.rank(from));
    if (df, dr) == (0, 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return None;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let mut at = from;
    while at != to {
        let next = g.offset(at, sf, sr)?;
        if crosses(v, at, next) {
            return Some((at, next));
        }
        at = next;
    }
    None
}

/// The first step that crosses the wall on the way the `piece` on `from` goes to `to`:
/// along the path a running event routes it by (a bent or wrapped bishop path: WL-5, DB-7, FR-7), a
/// move being stopped only where every such path crosses, or else along the straight
/// line; `None` where it gets through.
pub(super) fn wall_on_the_way(
    v: &Variant,
    crosses: Crossing,
    pos: &Position,
    (from, piece): (Sq, Piece),
    to: Sq,
    occupied: Bitboard,
) -> Option<(Sq, Sq)> {
    let ways = super::routes(v, pos, (from, piece), to, occupied);
    if ways.is_empty() {
        return wall_between(v, crosses, from, to);
    }
    let crossing = |way: &Vec<Sq>| {
        std::iter::once(from)
            .chain(way.iter().copied())
            .zip(way.iter().copied())
            .find(|&(a, b)| crosses(v, a, b))
    };
    let mut first = None;
    for way in &ways {
        let crossed = crossing(way)?;
        first.get_or_insert(crossed);
    }
    first
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Wall",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["WL-1", "WL-2", "WL-3", "WL-4", "WL-5"],
    page: "docs/rules/event-106-wall.md",
};

impl Event for Wall {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// Every square a piece reaches along a line that crosses the wall is gone, for moves
    /// and attacks, pawns and kings included (WL-1, WL-4); leaps keep theirs (WL-3). It
    /// narrows whatever movement the other events give, whichever started first (WL-5).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        let cut: Bitboard = (reach.quiet | reach.attacks)
            .filter(|&to| wall_on_the_way(v, crosses, pos, (from, piece), to, occupied).is_some())
            .collect();
        reach.quiet &= !cut;
        reach.attacks &= !cut;
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let (a, b) = wall_on_the_way(v, crosses, pos, (from, piece), to, pos.occupied())?;
        let g = v.geometry;
        Some(format!(
            "the wall between {} and {} stands between the {} {} on {} and {} (event #106 Wall, WL-1, WL-4)",
            g.name(a),
            g.name(b),
            piece.color,
            v.pieces[piece.kind.index()].name,
            g.name(from),
            g.name(to)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::parse_fen;
    use crate::rules::piece::Color;

    fn under_event(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&Wall, None).unwrap();
        pos
    }

    #[test]
    fn wl_1_and_wl_2_the_middle_is_closed_and_the_ends_are_open() {
        let v = event_chess();
        for (a, b) in [("d4", "d5"), ("e4", "e5"), ("d4", "e5"), ("e4", "d5")] {
            assert!(
                crosses(v, sq(a), sq(b)) && crosses(v, sq(b), sq(a)),
                "{a}-{b}"
            );
        }
        for (a, b) in [
            ("c4", "d5"),
            ("d4", "c5"),
            ("e4", "f5"),
            ("f4", "e5"),
            ("c4", "c5"),
        ] {
            assert!(!crosses(v, sq(a), sq(b)), "{a}-{b}");
        }
    }

    #[test]
    fn wl_4_a_rook_behind_the_wall_does_not_attack_and_a_knight_leaps_over() {
        let v = event_chess();
        let pos = under_event("3r4/8/8/8/8/8/8/3K1k2 w - - 0 1");
        assert!(!pos.is_attacked(v, sq("d1"), Color::Black));
        let knight = under_event("4k3/8/8/3n4/8/8/8/4K3 w - - 0 1");
        assert!(knight.is_attacked(v, sq("e3"), Color::Black));
    }
}
