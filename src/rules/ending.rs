//! How a position ends a game: mate and stalemate, and the draws by rule (insufficient
//! material, the 50-move rule, threefold repetition).

use super::piece::{Color, Role};
use super::position::Position;
use super::variant::Variant;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Checkmate {
        winner: Color,
    },
    Stalemate,
    /// Neither side has the material to mate (orthodox pieces only).
    InsufficientMaterial,
    /// 50 moves by each side without a capture or a pawn move: a draw may be claimed.
    FiftyMoves,
    /// The position stood three times: a draw may be claimed.
    ThreefoldRepetition,
    /// A running event says the game is won ([`super::Event::winner`]): #68 Prince's
    /// king captured with no chosen pawn left (PR-2), #4 5-check's fifth check (FC-1),
    /// #6 Starvation's stalemate with no pawn next to the king (ST-7).
    EventWin {
        winner: Color,
        event: u16,
    },
}

impl Ending {
    pub fn name(self) -> &'static str {
        match self {
            Ending::Checkmate { .. } => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::InsufficientMaterial => "insufficient-material",
            Ending::FiftyMoves => "fifty-moves",
            Ending::ThreefoldRepetition => "threefold-repetition",
            Ending::EventWin { winner, event } => {
                super::events::by_number(event).map_or("event-win", |e| e.victory(winner).0)
            }
        }
    }
}

/// How `pos` ends the game, if it does; `keys` are the repetition keys of the earlier
/// positions of the line ([`Position::key`]).
pub fn ending(v: &Variant, pos: &Position, keys: &[u64]) -> Option<Ending> {
    if pos.has_events()
        && let Some((event, winner)) = pos
            .events()
            .iter()
            .find_map(|e| Some((e.number(), e.winner(v, pos)?)))
    {
        return Some(Ending::EventWin { winner, event });
    }
    if !v.has_legal_move(pos) {
        let winner = pos.turn.other();
        return Some(if pos.is_check(v) {
            Ending::Checkmate { winner }
        } else if let Some(event) = pos.events().iter().find(|e| e.stalemate_loses(v, pos)) {
            Ending::EventWin {
                winner,
                event: event.number(),
            }
        } else {
            Ending::Stalemate
        });
    }
    // Where a king can be captured (PR-2), or an event adds mating power (SE-7), no
    // material is too little.
    if !pos
        .events()
        .iter()
        .any(|e| e.captures_kings() || e.adds_mating_material(v, pos))
        && insufficient_material(v, pos)
    {
        return Some(Ending::InsufficientMaterial);
    }
    let key = pos.key(v);
    if keys.iter().filter(|&&k| k == key).count() >= 2 {
        return Some(Ending::ThreefoldRepetition);
    }
    (pos.halfmoves >= 100).then_some(Ending::FiftyMoves)
}

/// Kings alone, a king and one knight or bishop against a king, or bishops all on one
/// colour of square: no sequence of legal moves mates. Only judged for orthodox piece
/// sets; a variant's pieces say nothing about it here.
fn insufficient_material(v: &Variant, pos: &Position) -> bool {
    let (Some(knight), Some(bishop)) = (v.kind_of_letter('N'), v.kind_of_letter('B')) else {
        return false;
    };
    // Both colours' kings at once: one pass over the kinds instead of one per colour.
    let kings = v
        .kinds_with(Role::King)
        .fold(super::Bitboard::EMPTY, |bb, k| bb | pos.by_kind(k));
    let others = pos.occupied() & !kings;
    let knights = pos.by_kind(knight);
    let bishops = pos.by_kind(bishop);
    // The material first: it settles nearly every position, and costs less to ask.
    if (others & !knights & !bishops).nonempty() {
        return false;
    }
    let orthodox = v.pieces.len() == 6 && v.pieces.iter().all(|p| "PNBRQK".contains(p.letter));
    if !orthodox {
        return false;
    }
    if others.count() <= 1 {
        return true;
    }
    let g = v.geometry;
    let shade = |sq| (g.file(sq) + g.rank(sq)) % 2;
    knights.is_empty() && {
        let mut shades = bishops.map(shade);
        let first = shades.next();
        shades.all(|s| Some(s) == first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    fn ending_of(fen: &str) -> Option<Ending> {
        let v = Variant::by_name("standard").unwrap();
        ending(v, &parse_fen(v, fen).unwrap(), &[])
    }

    #[test]
    fn mate_stalemate_and_draws() {
        assert_eq!(
            ending_of("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"),
            Some(Ending::Checkmate {
                winner: Color::Black
            })
        );
        assert_eq!(
            ending_of("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            Some(Ending::Stalemate)
        );
        assert_eq!(
            ending_of("8/8/4k3/8/8/2B5/4K3/8 w - - 0 1"),
            Some(Ending::InsufficientMaterial)
        );
        assert_eq!(
            ending_of("8/6b1/4k3/8/8/2B5/4K3/8 w - - 0 1"),
            Some(Ending::InsufficientMaterial)
        );
        assert_eq!(ending_of("8/5b2/4k3/8/8/2B5/4K3/8 w - - 0 1"), None);
        assert_eq!(ending_of("8/8/4k3/8/8/2N5/4K1N1/8 w - - 0 1"), None);
        assert_eq!(
            ending_of("8/8/4k3/8/8/2R5/4K3/8 w - - 100 80"),
            Some(Ending::FiftyMoves)
        );
    }

    /// A knight with squares to go to answers "a legal move?" at once only when no
    /// enemy rider can pin it: pinned along the first rank by the rook on h1, the only
    /// white knight leaves white stalemated; with the rook a rank up it may move.
    #[test]
    fn a_pinned_knight_has_no_legal_move() {
        assert_eq!(
            ending_of("7k/8/8/8/8/pp6/8/KN5r w - - 0 1"),
            Some(Ending::Stalemate)
        );
        assert_eq!(ending_of("7k/8/8/8/8/pp6/7r/KN6 w - - 0 1"), None);
        // A rook on the king's file, behind its own pawn, might pin a piece of that
        // file: the knight on the first rank is then judged move by move, and moves.
        assert_eq!(ending_of("r6k/8/8/8/8/pp6/8/KN6 w - - 0 1"), None);
    }

    #[test]
    fn threefold_counts_earlier_keys() {
        let v = Variant::by_name("standard").unwrap();
        let pos = parse_fen(v, "8/8/4k3/8/8/2R5/4K3/8 w - - 0 1").unwrap();
        let key = pos.key(v);
        assert_eq!(ending(v, &pos, &[key]), None);
        assert_eq!(
            ending(v, &pos, &[key, 1, key]),
            Some(Ending::ThreefoldRepetition)
        );
    }
}
