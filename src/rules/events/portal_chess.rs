//! Event #4* Portal Chess, the early numbering's "Event #4" (catalogue; rulings PC-1 to
//! PC-10 in `docs/rules/event-4star-portal-chess.md`): rooks are never captured and move
//! only by castling, no pawn promotes to a rook, and every other piece may move through an
//! allied rook and go on from another, as #36 Portals does through bishops (PC-4).
//! Inside xpgn its number is [`EARLY_NUMBERING`] + 4, shown and written `4*` (PC-9).

use super::portal_paths;
use crate::command::EARLY_NUMBERING;
use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Reach};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct PortalChess;

/// The event's number inside xpgn: `4*` (PC-9).
const NUMBER: u16 = EARLY_NUMBERING + 4;

/// The portal pieces: rooks (PC-4).
const PORTAL: char = 'R';

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Portal Chess",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &[
        "PC-1", "PC-2", "PC-3", "PC-4", "PC-5", "PC-6", "PC-7", "PC-8", "PC-9", "PC-10",
    ],
    page: "docs/rules/event-4star-portal-chess.md",
};

/// Whether `piece` is a rook of the variant.
fn is_rook(v: &Variant, piece: Piece) -> bool {
    v.kind_of_letter(PORTAL) == Some(piece.kind)
}

/// Every rook on the board, of both sides.
fn rooks(v: &Variant, pos: &Position) -> Bitboard {
    v.kind_of_letter(PORTAL).map_or(Bitboard::EMPTY, |kind| {
        pos.pieces(Color::White, kind) | pos.pieces(Color::Black, kind)
    })
}

/// Why the event refuses `mv` in `pos`, if it does: a rook taken (PC-1), a move other
/// than castling of a rook standing on the board (PC-2; #7's drop of a rook puts one
/// down, which is no rook's move), a promotion to a rook (PC-3).
fn refusal(v: &Variant, pos: &Position, mv: &Move) -> Option<&'static str> {
    if mv.captured.is_some_and(|victim| is_rook(v, victim)) {
        Some("rooks cannot be captured (PC-1)")
    } else if is_rook(v, mv.piece)
        && pos.piece_at(mv.from) == Some(mv.piece)
        && !matches!(mv.special, Special::Castle { .. })
    {
        Some("a rook makes no move but castling (PC-2)")
    } else if mv
        .promotion
        .is_some_and(|kind| v.kind_of_letter(PORTAL) == Some(kind))
    {
        Some("no pawn promotes to a rook (PC-3)")
    } else {
        None
    }
}

/// PC-4: a piece move (`Nb6`) that no legal move makes, where the piece would get there
/// through the opponent's rooks: refused with the reason, listing the piece's moves.
fn through_enemy_rooks(v: &Variant, pos: &Position, written: &PieceMove) -> Option<Rejection> {
    let [target] = written.targets.as_slice() else {
        return None;
    };
    let kind = v.kind_of_letter(written.piece?)?;
    let to = v.geometry.from_square(target.square)?;
    let ours = pos.pieces(pos.turn, kind);
    let mut legal = Vec::new();
    v.legal_moves_between(pos, ours, to.bit(), &mut legal);
    let theirs = portal_paths::portals(v, pos, pos.turn.other(), PORTAL, pos.occupied());
    let piece = Piece {
        color: pos.turn,
        kind,
    };
    let reached = ours.into_iter().any(|from| {
        !is_rook(v, piece)
            && portal_paths::through(v, pos, from, piece, pos.occupied(), theirs)
                .attacks
                .contains(to)
    });
    if !legal.is_empty() || !reached {
        return None;
    }
    let mut moves = Vec::new();
    v.legal_moves_between(pos, ours, v.geometry.all(), &mut moves);
    let spelled: Vec<String> = moves.iter().map(|mv| san::san_plain(v, pos, mv)).collect();
    let name = &v.pieces[kind.index()].name;
    Some(san::illegal(
        format!(
            "the {name} cannot reach {} through the opponent's rooks: under event #4* Portal Chess a piece goes only through its own rooks (PC-4)",
            v.geometry.name(to)
        ),
        (!spelled.is_empty()).then(|| format!("legal {name} moves: {}", spelled.join(", "))),
    ))
}

impl Event for PortalChess {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// PC-2: a rook goes nowhere and threatens nothing, so it gives no check (PC-7);
    /// castling is the core's.
    fn reach(
        &self,
        v: &Variant,
        _pos: &Position,
        _from: Sq,
        piece: Piece,
        _occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if is_rook(v, piece) {
            *reach = Reach::default();
        }
    }

    /// The moves through an allied rook (PC-4..PC-6) of every piece but the rooks, which
    /// make no move but castling (PC-5): ordinary moves that the core plays.
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        portal_paths::moves(v, pos, PORTAL, from & !rooks(v, pos), to, out);
    }

    /// PC-7: a piece attacks, and checks, through an allied rook; the rooks themselves
    /// attack nothing.
    fn extra_attackers(
        &self,
        v: &Variant,
        pos: &Position,
        sq: Sq,
        by: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        portal_paths::attackers(v, pos, PORTAL, sq, by, occupied) & !rooks(v, pos)
    }

    /// PC-1..PC-3, whichever event's move it is.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        refusal(v, pos, mv).is_none()
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let why = refusal(v, pos, mv).unwrap_or("it does not allow this move");
        format!("under event #4* Portal Chess {why}")
    }

    fn why_unreached(
        &self,
        v: &Variant,
        _pos: &Position,
        from: Sq,
        piece: Piece,
        _to: Sq,
    ) -> Option<String> {
        is_rook(v, piece).then(|| {
            format!(
                "the {} rook on {} stays where it is: under event #4* Portal Chess a rook makes no move but castling (PC-2); the other pieces may travel through it (PC-4)",
                piece.color,
                v.geometry.name(from)
            )
        })
    }

    /// PC-7: the piece attacks `to` through its own rooks.
    fn why_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let own = portal_paths::portals(v, pos, piece.color, PORTAL, pos.occupied());
        (!is_rook(v, piece)
            && portal_paths::through(v, pos, from, piece, pos.occupied(), own & !from.bit())
                .attacks
                .contains(to))
        .then(|| {
            "it attacks there through its own rooks, going in by one and on from another: event #4* Portal Chess, PC-7".to_owned()
        })
    }

    /// PC-6 (as PO-7): a pawn's two steps both after the portal leave the en-passant
    /// square between the exit and the landing.
    fn after_landing(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        if let Some(ep) = portal_paths::en_passant_square(v, pos, PORTAL, mv) {
            pos.ep = Some(ep);
        }
    }

    /// PC-6: an en-passant square a two-step through a rook left, the exit rook standing
    /// on the square behind it, which the FEN's own field cannot keep: `events(4*w:c4)`.
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let g = v.geometry;
        pos.ep
            .filter(|&ep| {
                g.offset(ep, 0, -pos.turn.other().forward())
                    .is_some_and(|behind| pos.piece_at(behind).is_some())
            })
            .map(|ep| vec![g.name(ep)])
            .unwrap_or_default()
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let Some(word) = words.first() else {
            return Ok(());
        };
        let ep = super::fen_square(v, word)?;
        let pawn_square = v.geometry.offset(ep, 0, pos.turn.other().forward());
        let passed = pawn_square
            .and_then(|sq| pos.piece_at(sq))
            .is_some_and(|p| p.color != pos.turn && Some(p.kind) == v.tables.pawn);
        if pos.piece_at(ep).is_some() || !passed {
            return Err(format!(
                "{word} is no square a pawn of the side that just moved passed over (PC-6)"
            ));
        }
        pos.ep = Some(ep);
        Ok(())
    }

    /// PC-8: a pawn's move through a rook written as plain SAN (`e5` for `c2-e5`) is
    /// refused, spelling the moves that go there; PC-4: a piece move that only the
    /// opponent's rooks would lead to is refused saying so; the orthodox reader takes the
    /// rest.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        if let Some(refused) = through_enemy_rooks(v, pos, written) {
            return Some(Err(refused));
        }
        super::from_to_needed(
            v,
            pos,
            written,
            |to| {
                let Some(pawn) = v.tables.pawn else {
                    return Vec::new();
                };
                let mut moves = Vec::new();
                v.legal_moves_between(pos, pos.pieces(pos.turn, pawn), to.bit(), &mut moves);
                moves.iter().map(|mv| san::san_plain(v, pos, mv)).collect()
            },
            "a pawn's move through a rook is written from-to, the pawn's square first (PC-8)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, write_fen};

    fn portal_chess(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&PortalChess, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, written: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(written).unwrap())
    }

    fn after(pos: &Position, written: &str) -> String {
        let v = event_chess();
        let mv = resolve(pos, written).unwrap();
        let mut next = pos.clone();
        v.play(&mut next, &mv);
        write_fen(v, &next)
    }

    /// The squares the piece on `from` may legally move to, sorted.
    fn targets(pos: &Position, from: &str) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        let mut names: Vec<String> = moves
            .into_iter()
            .filter(|mv| mv.from == sq(from))
            .map(|mv| v.geometry.name(mv.to))
            .collect();
        names.sort();
        names.dedup();
        names
    }

    #[test]
    fn pc_1_rooks_cannot_be_captured() {
        let pos = portal_chess("4k3/8/8/8/8/2r5/1P6/R3K1B1 w Q - 0 1");
        assert_eq!(targets(&pos, "b2"), ["b3", "b4"]);
        let refused = resolve(&pos, "bxc3").unwrap_err();
        assert!(refused.reason.contains("PC-1"), "{}", refused.reason);
        // The bishop's diagonal ends at the enemy rook on d4, which it cannot take.
        let pos = portal_chess("4k3/8/8/8/3r4/8/8/R3K1B1 w Q - 0 1");
        assert_eq!(targets(&pos, "g1"), ["e3", "f2", "h2"]);
    }

    #[test]
    fn pc_2_rooks_stay_but_castle_and_give_no_check() {
        let v = event_chess();
        let pos = portal_chess("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(targets(&pos, "a1"), Vec::<String>::new());
        let refused = resolve(&pos, "Ra5").unwrap_err();
        assert!(refused.reason.contains("PC-2"), "{}", refused.reason);
        assert!(resolve(&pos, "O-O").is_ok());
        assert!(resolve(&pos, "O-O-O").is_ok());
        // The rook on e1's file attacks nothing: the king on e8 is not in check.
        let pos = portal_chess("4k3/8/8/8/8/8/8/K3R3 b - - 0 1");
        assert!(!pos.is_check(v));
    }

    #[test]
    fn pc_3_no_promotion_to_a_rook() {
        let pos = portal_chess("7k/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert!(resolve(&pos, "a8=Q+").is_ok());
        let refused = resolve(&pos, "a8=R").unwrap_err();
        assert!(refused.reason.contains("PC-3"), "{}", refused.reason);
    }

    #[test]
    fn pc_4_a_piece_goes_through_an_allied_rook_and_on_from_another() {
        let v = event_chess();
        // The knight g1 leaps to its rook on f3 and again from its rook on c4: b6.
        let pos = portal_chess("4k3/8/8/8/2R5/5R2/8/4K1N1 w - - 0 1");
        let mv = resolve(&pos, "Nb6").unwrap();
        assert_eq!((mv.from, mv.to), (sq("g1"), sq("b6")));
        assert_eq!(san::san(v, &pos, &mv), "Nb6");
        // An enemy rook is no portal: the bishop's way ends before it.
        let pos = portal_chess("4k3/8/8/8/3r4/8/8/4K1B1 w - - 0 1");
        assert_eq!(targets(&pos, "g1"), ["e3", "f2", "h2"]);
        // Nor does a knight leap through enemy rooks.
        let pos = portal_chess("4k3/8/8/8/2r5/5r2/8/4K1N1 w - - 0 1");
        assert_eq!(targets(&pos, "g1"), ["e2", "h3"]);
    }

    #[test]
    fn pc_5_rooks_do_not_travel_through_rooks() {
        let pos = portal_chess("4k3/8/8/8/8/R7/8/R3K3 w - - 0 1");
        assert_eq!(targets(&pos, "a1"), Vec::<String>::new());
        assert_eq!(targets(&pos, "a3"), Vec::<String>::new());
    }

    #[test]
    fn pc_6_pawns_step_through_and_leave_en_passant() {
        let v = event_chess();
        let pos = portal_chess("6k1/8/8/8/4R3/2R5/2P5/4K3 w - - 0 1");
        assert_eq!(
            after(&pos, "c2-e5"),
            "6k1/8/8/4P3/4R3/2R5/8/4K3 b - - 0 1 events(4*w)"
        );
        assert_eq!(
            after(&pos, "c2-e6"),
            "6k1/8/4P3/8/4R3/2R5/8/4K3 b - e5 0 1 events(4*w:e5)"
        );
        let fen = after(&pos, "c2-e6");
        let back = parse_fen(v, &fen).unwrap();
        assert_eq!(write_fen(v, &back), fen);
    }

    #[test]
    fn pc_7_checks_go_through_a_rook() {
        let v = event_chess();
        // The queen on a1 checks the king on e8 through a4 and e2.
        let pos = portal_chess("4k3/8/8/8/R7/8/4R3/Q5K1 b - - 0 1");
        assert!(pos.is_check(v));
    }

    #[test]
    fn pc_8_a_pawn_written_as_plain_san_is_told_the_from_to_form() {
        let pos = portal_chess("6k1/8/8/8/4R3/2R5/2P5/4K3 w - - 0 1");
        let refused = resolve(&pos, "e5").unwrap_err();
        assert!(refused.reason.contains("PC-8"), "{}", refused.reason);
        assert_eq!(refused.help.as_deref(), Some("write c2-e5"));
    }

    #[test]
    fn pc_9_the_number_is_shown_with_a_star() {
        assert_eq!(PortalChess.label().to_string(), "4*");
        assert_ne!(PortalChess.number(), 4);
        assert_eq!(
            crate::rules::events::by_number(NUMBER).map(|e| e.name()),
            Some("Portal Chess")
        );
        assert_eq!(
            crate::rules::events::by_number(4).map(|e| e.name()),
            Some("5-check")
        );
    }
}
