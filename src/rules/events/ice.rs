//! Event #70 Ice in its blog (newer) wording (catalogue; rulings IC-1 to IC-6 in
//! `docs/rules/event-70-ice.md`): a piece that slides along a line ends a move that
//! captures nothing only where the ice stops it, on the edge square where its line runs
//! off the board or right in front of a piece; captures and checks are unchanged.

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventType, Reach};
use crate::rules::piece::Piece;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct Ice;

/// The squares a piece of `piece`'s kind on `from` slides over without capturing, and
/// those of them where it may stop (IC-1, IC-2): the last empty square of each line, in
/// front of the first piece or on the board's edge.
fn slides(v: &Variant, from: Sq, piece: Piece, occupied: Bitboard) -> (Bitboard, Bitboard) {
    let g = v.geometry;
    let mut over = Bitboard::EMPTY;
    let mut stops = Bitboard::EMPTY;
    for atom in v.piece(piece.kind).atoms.iter().filter(|a| a.rider) {
        for (df, dr) in atom.directions() {
            let mut at = from;
            while let Some(next) = g.offset(at, df, dr).filter(|&sq| !occupied.contains(sq)) {
                over.set(next);
                at = next;
            }
            if at != from {
                stops.set(at);
            }
        }
    }
    (over, stops)
}

/// The squares a piece of `piece`'s kind on `from` reaches by its atoms that do not
/// slide (none for the bishop, rook and queen), which the ice leaves alone.
fn leaps(v: &Variant, from: Sq, piece: Piece) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for atom in v.piece(piece.kind).atoms.iter().filter(|a| !a.rider) {
        for (df, dr) in atom.directions() {
            if let Some(sq) = v.geometry.offset(from, df, dr) {
                out.set(sq);
            }
        }
    }
    out
}

static INFO: EventInfo = EventInfo {
    number: 70,
    name: "Ice",
    aliases: &[],
    types: &[EventType::MoveLengthModifier],
    condition: Condition::NONE,
    rulings: &["IC-1", "IC-2", "IC-3", "IC-4", "IC-5", "IC-6"],
    page: "docs/rules/event-70-ice.md",
};

impl Event for Ice {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// IC-2: a slide that captures nothing ends only where the ice stops it; IC-3: the
    /// attacks stay. Pieces that do not slide keep their moves, and castling is no part
    /// of the reach (IC-5).
    fn reach(
        &self,
        v: &Variant,
        _pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        let (over, stops) = slides(v, from, piece, occupied);
        reach.quiet &= !(over & !stops & !leaps(v, from, piece));
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let occupied = pos.occupied();
        let (over, stops) = slides(v, from, piece, occupied);
        if !over.contains(to) || stops.contains(to) || leaps(v, from, piece).contains(to) {
            return None;
        }
        let g = v.geometry;
        let line = g.between(from, to) | to.bit();
        let stop = (stops & !line)
            .into_iter()
            .find(|&stop| g.between(from, stop).contains(to))?;
        Some(format!(
            "under event #70 Ice a sliding piece that captures nothing stops only on the edge of the board or right in front of a piece, and {} is neither: the {} {} on {} slides on to {} (IC-2)",
            g.name(to),
            piece.color,
            v.piece(piece.kind).name,
            g.name(from),
            g.name(stop),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    #[test]
    fn a_slider_stops_at_the_edge_in_front_of_a_piece_or_by_capturing() {
        let v = event_chess();
        let mut pos = parse_fen(v, "4k3/8/8/p7/8/8/8/R3K3 w - - 0 1").unwrap();
        pos.start_event(&Ice, None).unwrap();
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        let mut rook: Vec<String> = moves
            .iter()
            .filter(|mv| mv.from == sq("a1"))
            .map(|mv| v.geometry.name(mv.to))
            .collect();
        rook.sort();
        // IC-2: a4 in front of the pawn, d1 in front of the own king; IC-3: a5 captures.
        assert_eq!(rook, ["a4", "a5", "d1"]);
    }

    #[test]
    fn the_refusal_names_where_the_slide_ends() {
        let v = event_chess();
        let mut pos = parse_fen(v, "4k3/8/8/p7/8/8/8/R3K3 w - - 0 1").unwrap();
        pos.start_event(&Ice, None).unwrap();
        let rook = pos.piece_at(sq("a1")).unwrap();
        let why = Ice
            .why_unreached(v, &pos, sq("a1"), rook, sq("a2"))
            .unwrap();
        assert!(
            why.contains("slides on to a4") && why.contains("IC-2"),
            "{why}"
        );
        assert!(
            Ice.why_unreached(v, &pos, sq("a1"), rook, sq("a4"))
                .is_none()
        );
    }
}
