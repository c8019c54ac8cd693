//! Event #70 Ice in its older forum wording, `[%event 70 old]` (catalogue; rulings ICO-1
//! to ICO-5 in `docs/rules/event-70-ice-old.md`): every piece that moves along a line
//! goes its full distance, to the edge or up to a piece of its own, and takes the first
//! enemy piece in its way rather than stop short of it; the king slides too.

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct IceOld;

/// Where a slide of the piece on `from` ends on one line (ICO-2).
enum End {
    /// On this empty square: the edge, or in front of a piece of its own.
    Stop(Sq),
    /// Taking the enemy piece on this square.
    Take(Sq),
    /// Nowhere: a piece of its own stands right next to it, or the edge.
    Blocked,
}

/// The directions the piece slides in (ICO-1): a rider's lines, and every step of a king;
/// none for a piece that does not slide.
fn lines(v: &Variant, piece: Piece) -> Vec<(i32, i32)> {
    let def = v.piece(piece.kind);
    let king = def.role == Role::King;
    def.atoms
        .iter()
        .filter(|a| a.rider || king)
        .flat_map(|a| a.directions())
        .collect()
}

/// The squares the non-sliding atoms of a piece that is no king reach (ICO-1: leaps do
/// not slide).
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

/// The slide of the piece on `from` along `(df, dr)` with `occupied` in the way: where it
/// ends, and the squares it attacks (those it crosses and the first piece in the way).
fn slide(
    v: &Variant,
    pos: &Position,
    from: Sq,
    piece: Piece,
    occupied: Bitboard,
    (df, dr): (i32, i32),
) -> (End, Bitboard) {
    let mut attacks = Bitboard::EMPTY;
    let mut at = from;
    while let Some(next) = v.geometry.offset(at, df, dr) {
        attacks.set(next);
        if occupied.contains(next) {
            if !pos.by_color(piece.color).contains(next) {
                return (End::Take(next), attacks);
            }
            break;
        }
        at = next;
    }
    let end = if at == from {
        End::Blocked
    } else {
        End::Stop(at)
    };
    (end, attacks)
}

static INFO: EventInfo = EventInfo {
    number: 70,
    name: "Ice",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["ICO-1", "ICO-2", "ICO-3", "ICO-4", "ICO-5"],
    page: "docs/rules/event-70-ice-old.md",
};

impl Event for IceOld {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn older_wording(&self) -> bool {
        true
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// ICO-2: a slide that captures nothing ends only at the end of its line; ICO-3: a
    /// king slides the same way, so it also captures and attacks along its lines.
    /// Knights, pawns and castling keep their moves (ICO-1, ICO-4), and the other
    /// pieces' attacks are their slides' already (ICO-2).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        let lines = lines(v, piece);
        if lines.is_empty() {
            return;
        }
        let mut stops = Bitboard::EMPTY;
        let mut attacks = Bitboard::EMPTY;
        for line in lines {
            let (end, attacked) = slide(v, pos, from, piece, occupied, line);
            attacks |= attacked;
            if let End::Stop(sq) = end {
                stops.set(sq);
            }
        }
        if v.role(piece.kind) == Role::King {
            reach.quiet = stops;
            reach.attacks = attacks;
        } else {
            reach.quiet &= stops | leaps(v, from, piece);
        }
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        if pos.piece_at(to).is_some() {
            return None;
        }
        let g = v.geometry;
        let line = lines(v, piece).into_iter().find(|&(df, dr)| {
            let mut at = from;
            while let Some(next) = g.offset(at, df, dr) {
                if next == to {
                    return true;
                }
                at = next;
            }
            false
        })?;
        let ending = match slide(v, pos, from, piece, pos.occupied(), line).0 {
            End::Stop(sq) if sq == to => return None,
            End::Stop(sq) => format!("slides on to {}", g.name(sq)),
            End::Take(sq) => format!("slides on and takes on {}", g.name(sq)),
            End::Blocked => return None,
        };
        let ruling = if v.role(piece.kind) == Role::King {
            "ICO-3"
        } else {
            "ICO-2"
        };
        Some(format!(
            "under the older wording of event #70 Ice a piece that moves along a line goes its full distance: the {} {} on {} cannot stop on {}, it {ending} ({ruling})",
            piece.color,
            v.piece(piece.kind).name,
            g.name(from),
            g.name(to),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn targets(fen: &str, from: &str) -> Vec<String> {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&IceOld, None).unwrap();
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        let mut out: Vec<String> = moves
            .iter()
            .filter(|mv| mv.from == sq(from))
            .map(|mv| v.geometry.name(mv.to))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_slider_goes_to_the_end_or_takes_the_first_enemy() {
        // ICO-2: the rook on a1 meets its own pawn on a2 and slides to d1, in front of
        // its king; the queen on d1 slides to a1, a4 and takes the rook on d8, never
        // stopping short of it. The pawn on e2 keeps the black king's line off e1.
        assert_eq!(targets("3rk3/8/8/8/8/8/P3P3/R3K3 w - - 0 1", "a1"), ["d1"]);
        assert_eq!(
            targets("3rk3/8/8/8/8/8/4P3/3QK3 w - - 0 1", "d1"),
            ["a1", "a4", "d8"]
        );
    }

    #[test]
    fn the_king_slides_too() {
        // ICO-3: from e1 the king slides to b1 and g1, in front of its rooks, never
        // stopping on d1 or f1.
        assert_eq!(
            targets("3k4/8/8/8/8/8/3PPP2/R3K2R w - - 0 1", "e1"),
            ["b1", "g1"]
        );
    }

    #[test]
    fn a_king_attacks_along_its_lines() {
        // ICO-3: the black king on h8 takes the first piece on its diagonal, the rook
        // on a1, and attacks every square it crosses.
        let v = event_chess();
        let mut pos = parse_fen(v, "7k/8/8/8/8/8/8/R3K3 b - - 0 1").unwrap();
        pos.start_event(&IceOld, None).unwrap();
        assert!(pos.is_attacked(v, sq("c3"), crate::rules::Color::Black));
        assert!(pos.is_attacked(v, sq("a1"), crate::rules::Color::Black));
        assert!(!pos.is_attacked(v, sq("c2"), crate::rules::Color::Black));
    }
}
