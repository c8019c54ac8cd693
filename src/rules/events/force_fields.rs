//! Event #48 Force Fields (catalogue; rulings FF-1 to FF-6 in
//! `docs/rules/event-48-force-fields.md`): each rook projects a field along its rank and
//! file, the empty squares up to the edge or the first piece; an enemy piece may stop on a
//! field square but not pass over one, for moves and attacks alike, and castling may not
//! pass over one. Leaps and jumps over pieces ignore fields.

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct ForceFields;

const NUMBER: u16 = 48;

/// The squares of the fields of `color`'s rooks among `occupied` (FF-1): the empty
/// squares each reaches along its rank and file up to the edge or the first piece.
fn fields_of(v: &Variant, pos: &Position, color: Color, occupied: Bitboard) -> Bitboard {
    let Some(rook) = v.kind_of_letter('R') else {
        return Bitboard::EMPTY;
    };
    (pos.pieces(color, rook) & occupied)
        .into_iter()
        .fold(Bitboard::EMPTY, |fields, sq| {
            fields | v.attacks(rook, color, sq, occupied) & !occupied
        })
}

/// The first square of an enemy field the `piece` on `from` passes over on its way to
/// `to` (FF-1): along the path a running event routes it by, a move being stopped only
/// where every such path passes a field, or else along the straight line. A leap, and a
/// move over a piece (a jump, #49), passes none (FF-3).
fn field_on_the_way(
    v: &Variant,
    pos: &Position,
    (from, piece): (Sq, Piece),
    to: Sq,
    occupied: Bitboard,
    fields: Bitboard,
) -> Option<Sq> {
    let ways = super::routes(v, pos, (from, piece), to, occupied);
    if ways.is_empty() {
        let passed = v.geometry.between(from, to);
        if (passed & occupied).nonempty() {
            return None;
        }
        return (passed & fields).first();
    }
    let mut first = None;
    for way in &ways {
        let passed: Bitboard = way.split_last().map_or(Bitboard::EMPTY, |(_, passed)| {
            passed.iter().copied().collect()
        });
        if (passed & occupied).nonempty() {
            return None;
        }
        first.get_or_insert((passed & fields).first()?);
    }
    first
}

/// The enemy rook whose field holds `sq`, for the diagnostics.
fn rook_of_field(v: &Variant, pos: &Position, color: Color, sq: Sq) -> Option<Sq> {
    let rook = v.kind_of_letter('R')?;
    let occupied = pos.occupied();
    pos.pieces(color, rook)
        .into_iter()
        .find(|&r| (v.attacks(rook, color, r, occupied) & !occupied).contains(sq))
}

/// The first enemy field square a castling's king or rook passes over (FF-4).
fn castling_field(v: &Variant, pos: &Position, mv: &Move) -> Option<Sq> {
    let Special::Castle { rook_from, rook_to } = mv.special else {
        return None;
    };
    let g = v.geometry;
    let fields = fields_of(v, pos, mv.piece.color.other(), pos.occupied());
    ((g.between(mv.from, mv.to) | g.between(rook_from, rook_to)) & fields).first()
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Force Fields",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('R', 1)]),
    rulings: &["FF-1", "FF-2", "FF-3", "FF-4", "FF-5", "FF-6"],
    page: "docs/rules/event-48-force-fields.md",
};

impl Event for ForceFields {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// FF-1, FF-5: every square a piece reaches only over an enemy field square is gone,
    /// for moves and attacks; leaps and jumps keep theirs (FF-3). It narrows whatever
    /// movement the other events give, whichever started first.
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        let fields = fields_of(v, pos, piece.color.other(), occupied);
        if fields.is_empty() {
            return;
        }
        let cut: Bitboard = (reach.quiet | reach.attacks)
            .filter(|&to| field_on_the_way(v, pos, (from, piece), to, occupied, fields).is_some())
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
        let occupied = pos.occupied();
        let enemy = piece.color.other();
        let fields = fields_of(v, pos, enemy, occupied);
        let field = field_on_the_way(v, pos, (from, piece), to, occupied, fields)?;
        let g = v.geometry;
        let rook = rook_of_field(v, pos, enemy, field)
            .map(|r| format!(" of the {enemy} rook on {}", g.name(r)))
            .unwrap_or_default();
        // A pawn passes over a square only with its double step (FF-6).
        let ruling = if v.role(piece.kind) == Role::Pawn {
            "FF-1, FF-6"
        } else {
            "FF-1"
        };
        Some(format!(
            "the {} {} on {} would pass over {}, in the force field{rook}: an enemy piece may stop on a field square but not pass over one (event #48 Force Fields, {ruling})",
            piece.color,
            v.pieces[piece.kind.index()].name,
            g.name(from),
            g.name(field)
        ))
    }

    /// FF-4: no castling whose king or rook passes over an enemy field square.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        castling_field(v, pos, mv).is_none()
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let enemy = mv.piece.color.other();
        let field = castling_field(v, pos, mv).unwrap_or(mv.to);
        let rook = rook_of_field(v, pos, enemy, field)
            .map(|r| format!(" of the {enemy} rook on {}", g.name(r)))
            .unwrap_or_default();
        format!(
            "event #48 Force Fields: castling would take the king or the rook over {}, in the force field{rook}, which an enemy piece may not pass over (FF-4)",
            g.name(field)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;
    use crate::rules::san::{self, Rejection};

    fn fielded(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&ForceFields, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn an_enemy_field_stops_slides_but_not_leaps_and_blocks_attacks() {
        let v = event_chess();
        // FF-1: the black rook on a5 fields b5..h5: the white bishop stops on c5, not
        // past it.
        let pos = fielded("4k3/8/8/r7/8/8/5B2/R3K1N1 w - - 0 1");
        assert!(resolve(&pos, "Bc5").is_ok());
        let refused = resolve(&pos, "Bb6").unwrap_err();
        assert!(refused.reason.contains("FF-1"), "{}", refused.reason);
        // FF-3: a knight leaps.
        assert!(resolve(&pos, "Nf3").is_ok());
        // FF-5: the queen's diagonal to a8 crosses e4, in the field of the rook on a4.
        let cut = fielded("1k6/8/8/8/r7/8/8/4K2Q w - - 0 1");
        assert!(!cut.is_attacked(v, sq("a8"), Color::White));
        assert!(cut.is_attacked(v, sq("e4"), Color::White));
        // FF-4: the rook from a1 would pass over b1, in the field of the rook on b8.
        let castle = fielded("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        let refused = resolve(&castle, "O-O-O").unwrap_err();
        assert!(refused.reason.contains("FF-4"), "{}", refused.reason);
        assert!(resolve(&castle, "O-O").is_ok());
    }
}
