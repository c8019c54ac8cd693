//! Event #10 Fortress (catalogue; rulings FT-1 to FT-7 in `docs/rules/event-10-fortress.md`):
//! as his move a player may make one of his pawns jump from wherever it stands to any empty
//! square next to his own king (`h2-f1`), promoting where it lands on its last rank
//! (`g3-c8=Q+`); a pawn on its own first or second rank may always step two.

use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct Fortress;

const NUMBER: u16 = 10;

/// The empty squares next to the kings of the side to move (FT-1).
fn fortress_squares(v: &Variant, pos: &Position) -> Bitboard {
    let us = pos.turn;
    let occupied = pos.occupied();
    let mut ring = Bitboard::EMPTY;
    for king in pos.kings(v, us) {
        let kind = pos.piece_at(king).expect("a king").kind;
        ring |= v.attacks(kind, us, king, occupied);
    }
    ring & !occupied
}

/// The squares the pawn on `sq` reaches by an ordinary step, one or two (FT-5: a jump
/// there is that step).
fn ordinary_steps(v: &Variant, pos: &Position, sq: Sq, color: Color) -> Bitboard {
    let t = &v.tables;
    let occupied = pos.occupied();
    let mut steps = Bitboard::EMPTY;
    if let Some(one) = t.pawn_step(color, sq).filter(|s| !occupied.contains(*s)) {
        steps.set(one);
        let may_double = t.double_step_squares[color.index()].contains(sq)
            || pos
                .events()
                .iter()
                .any(|e| e.may_double_step(v, pos, sq, color));
        if may_double && let Some(two) = t.pawn_step(color, one) {
            steps.set(two);
        }
    }
    steps
}

impl Fortress {
    /// The jumps of the side to move's pawns on `from` to squares in `to` (FT-1), each
    /// promotion once where the pawn lands on its last rank (FT-3). A landing the pawn
    /// reaches by an ordinary step, or by another running event's move of the same pawn,
    /// is that move and not listed again (FT-5, FT-7); no jump ends on a known passage
    /// square (FT-7).
    fn jumps(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        let us = pos.turn;
        let Some(pawn) = v.tables.pawn else {
            return;
        };
        let ring = fortress_squares(v, pos) & to;
        let pawns = pos.pieces(us, pawn) & from;
        if ring.is_empty() || pawns.is_empty() {
            return;
        }
        let mut others = Vec::new();
        for event in pos.events() {
            if event.number() != NUMBER {
                event.extra_moves(v, pos, pawns, ring, &mut others);
            }
        }
        for sq in pawns {
            let mut targets = ring & !ordinary_steps(v, pos, sq, us);
            for other in others
                .iter()
                .filter(|m| m.from == sq && m.captured.is_none())
            {
                targets.clear(other.to);
            }
            for target in targets {
                let jump = Move {
                    piece: Piece {
                        color: us,
                        kind: pawn,
                    },
                    from: sq,
                    to: target,
                    captured: None,
                    promotion: None,
                    special: Special::Event {
                        number: NUMBER,
                        data: 0,
                    },
                    faces: None,
                    swap: None,
                    returned: None,
                };
                if !super::landing_rerouted(v, pos, &jump, NUMBER) {
                    v.push_promotions(pos, jump, out);
                }
            }
        }
    }

    /// Reads `h2-f1` and `g3-c8=Q` where the pawn on the first square cannot get to the
    /// second by any other move: the jump, or why it is not one (FT-1..FT-3).
    fn resolve_jump(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let us = pos.turn;
        let [origin, target] = written.targets.as_slice() else {
            return None;
        };
        if written.piece.is_some_and(|p| p != 'P')
            || written.hint.is_some()
            || origin.separator != Separator::None
            || origin.promotion.is_some()
            || target.separator == Separator::Capture
        {
            return None;
        }
        let from = g.from_square(origin.square)?;
        let to = g.from_square(target.square)?;
        let pawn = v.tables.pawn?;
        if pos.piece_at(from)
            != Some(Piece {
                color: us,
                kind: pawn,
            })
        {
            return None;
        }
        let mut jumps = Vec::new();
        self.jumps(v, pos, from.bit(), to.bit(), &mut jumps);
        // What the generator makes of them once every event has had its say: #57 turns a
        // promotion to a queen into one to a king (LQ-4).
        for event in pos.events() {
            if event.number() != NUMBER {
                event.reroute(v, pos, from.bit(), to.bit(), &mut jumps, 0);
            }
        }
        jumps.retain(|mv| matches!(mv.special, Special::Event { number: NUMBER, .. }));
        let text = san::written(written);
        let help = || san::legal_help(v, pos, &text, Some(pawn));
        if jumps.is_empty() {
            let mut others = Vec::new();
            v.pseudo_moves(pos, from.bit(), to.bit(), &mut others);
            if !others.is_empty() {
                return None;
            }
            let kings: Vec<String> = pos.kings(v, us).map(|k| g.name(k)).collect();
            let next_to_king = pos.kings(v, us).into_iter().any(|k| {
                let kind = pos.piece_at(k).expect("a king").kind;
                v.attacks(kind, us, k, pos.occupied()).contains(to)
            });
            let reason = if next_to_king && pos.piece_at(to).is_none() {
                format!(
                    "a landing on {} goes on through a passage of a running event, and a Fortress jump is no move through a passage: no jump ends there (FT-7)",
                    g.name(to)
                )
            } else if next_to_king {
                format!(
                    "a Fortress jump lands only on an empty square, and {} stands on {} (FT-1)",
                    san::describe_piece(v, pos, to),
                    g.name(to)
                )
            } else if kings.is_empty() {
                format!("{us} has no king, so no pawn can jump next to it (FT-1)")
            } else {
                format!(
                    "the {us} pawn on {} cannot get to {}: a Fortress jump lands only on an empty square next to the {us} king on {} (FT-1)",
                    g.name(from),
                    g.name(to),
                    san::list(&kings)
                )
            };
            return Some(Err(san::illegal(reason, help())));
        }
        let promotion = match san::promotion_kind(v, pos, written, target.promotion) {
            Ok(kind) => kind,
            Err(rejection) => return Some(Err(rejection)),
        };
        let Some(jump) = jumps
            .iter()
            .find(|mv| mv.promotion == promotion && san::choices_match(v, pos, written, mv))
        else {
            let spellings: Vec<String> = jumps.iter().map(|mv| self.san(v, pos, mv)).collect();
            let reason = if promotion.is_none() {
                format!(
                    "a pawn that jumps onto its last rank promotes there: `{text}` names no piece (FT-3)"
                )
            } else if jumps.iter().any(|mv| mv.promotion.is_some()) {
                format!(
                    "`{text}` promotes to a piece that a pawn landing on {} may not become while the running events hold (FT-3)",
                    g.name(to)
                )
            } else {
                format!(
                    "a pawn promotes only where it lands on its last rank, and {} is not on it (FT-3)",
                    g.name(to)
                )
            };
            return Some(Err(san::illegal(
                reason,
                Some(format!("write {}", spellings.join(" or "))),
            )));
        };
        if v.leaves_king_attacked(pos, jump) {
            return Some(Err(san::illegal(
                format!(
                    "{} (a jump may not leave the own king in check, FT-2)",
                    san::king_exposed(v, pos, jump)
                ),
                help(),
            )));
        }
        Some(Ok(*jump))
    }
}

/// Why a pawn capture onto an empty square with an enemy pawn behind it, and no
/// en-passant right, is refused: that pawn may have jumped there, and a jump is no double
/// step (FT-5); `None` for any other move.
fn no_en_passant(
    v: &Variant,
    pos: &Position,
    written: &PieceMove,
) -> Option<Result<Move, Rejection>> {
    let g = v.geometry;
    let us = pos.turn;
    let [target] = written.targets.as_slice() else {
        return None;
    };
    if written.piece.is_some_and(|p| p != 'P') || target.separator != Separator::Capture {
        return None;
    }
    let to = g.from_square(target.square)?;
    let pawn = v.tables.pawn?;
    if pos.piece_at(to).is_some() || pos.ep == Some(to) {
        return None;
    }
    let behind = g.offset(to, 0, -us.forward())?;
    pos.piece_at(behind)
        .filter(|p| p.color != us && p.kind == pawn)?;
    let capturers = pos.pieces(us, pawn)
        & san::hinted_origins(v, written.hint)
        & v.tables.pawn_attacks[us.other().index()][to.index()];
    if capturers.is_empty() {
        return None;
    }
    Some(Err(san::illegal(
        format!(
            "there is nothing to capture on {}: en passant takes only a pawn that has just stepped two squares past it, and the {} pawn on {} has not (a Fortress jump is no double step, FT-5)",
            g.name(to),
            us.other(),
            g.name(behind)
        ),
        san::legal_help(v, pos, &san::written(written), Some(pawn)),
    )))
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Fortress",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('P', 1)]),
    rulings: &["FT-1", "FT-2", "FT-3", "FT-4", "FT-5", "FT-6", "FT-7"],
    page: "docs/rules/event-10-fortress.md",
};

impl Event for Fortress {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// FT-4: a pawn on its own first or second rank may step two, however often it has
    /// moved.
    fn may_double_step(&self, v: &Variant, _pos: &Position, from: Sq, color: Color) -> bool {
        super::on_own_first_two_ranks(v, from, color)
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        self.jumps(v, pos, from, to, out);
    }

    /// A jump captures nothing and gives no en-passant right (FT-5); the pawn's marks go
    /// with it, and a knight it becomes faces the direction the move carries (#85, LK-8).
    fn play_extra(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        match mv.promotion {
            None => pos.relocate(mv.from, mv.to),
            Some(kind) => {
                pos.remove(mv.from);
                pos.put(
                    mv.to,
                    Piece {
                        color: mv.piece.color,
                        kind,
                    },
                );
                super::knight_facings::set_facing(pos, mv.to, mv.faces);
            }
        }
        pos.halfmoves = 0;
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        self.resolve_jump(v, pos, written)
            .or_else(|| no_en_passant(v, pos, written))
            .or_else(|| {
                super::from_to_needed(
                    v,
                    pos,
                    written,
                    |to| {
                        let mut jumps = Vec::new();
                        self.jumps(v, pos, v.geometry.all(), to.bit(), &mut jumps);
                        jumps
                            .iter()
                            .filter(|mv| !v.leaves_king_attacked(pos, mv))
                            .map(|mv| self.san(v, pos, mv))
                            .collect()
                    },
                    "a Fortress jump is written from-to, the pawn's square first (FT-6)",
                )
            })
    }

    /// `h2-f1`, `g3-c8=Q`: from-to, as the catalogue writes jumps.
    fn san(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let promotion = mv
            .promotion
            .map_or(String::new(), |k| format!("={}", v.piece(k).letter));
        format!("{}-{}{promotion}", g.name(mv.from), g.name(mv.to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn fortress(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&Fortress, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn a_pawn_jumps_to_any_empty_square_next_to_its_king() {
        let v = event_chess();
        let pos = fortress("4k3/8/8/8/8/8/7P/6K1 w - - 0 1");
        let mut moves = Vec::new();
        Fortress.jumps(v, &pos, v.geometry.all(), v.geometry.all(), &mut moves);
        let targets: Vec<String> = moves.iter().map(|m| v.geometry.name(m.to)).collect();
        // f1, h1, f2, g2 (h2 is the pawn's own square; h3 is its ordinary step).
        assert_eq!(targets, ["f1", "h1", "f2", "g2"]);
        let jump = resolve(&pos, "h2-f1").unwrap();
        assert_eq!((jump.from, jump.to), (sq("h2"), sq("f1")));
        let mut after = pos.clone();
        v.play(&mut after, &jump);
        assert_eq!(after.ep, None, "FT-5");
        assert_eq!(san::san(v, &pos, &jump), "h2-f1");
    }

    #[test]
    fn a_jump_onto_the_last_rank_promotes() {
        let v = event_chess();
        let pos = fortress("2K4k/8/8/8/8/6P1/8/8 w - - 0 1");
        let queen = resolve(&pos, "g3-d8=Q").unwrap();
        assert_eq!(san::san(v, &pos, &queen), "g3-d8=Q+");
        let bare = resolve(&pos, "g3-d8").unwrap_err();
        assert!(bare.reason.contains("FT-3"), "{}", bare.reason);
        let far = resolve(&pos, "g3-a5").unwrap_err();
        assert!(far.reason.contains("FT-1"), "{}", far.reason);
    }

    #[test]
    fn a_pinned_pawn_does_not_jump() {
        let pos = fortress("4k3/8/8/8/4r3/8/4P3/4K3 w - - 0 1");
        let refused = resolve(&pos, "e2-d2").unwrap_err();
        assert!(refused.reason.contains("FT-2"), "{}", refused.reason);
    }

    #[test]
    fn a_jump_another_event_makes_anyway_is_listed_once() {
        let v = event_chess();
        let mut pos = fortress("4k3/p7/8/8/8/8/8/4P1K1 w - - 0 1");
        let active_pawns = crate::rules::events::by_number(12).unwrap();
        pos.start_event(active_pawns, Some(Color::Black)).unwrap();
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        let to_f1: Vec<&Move> = moves
            .iter()
            .filter(|m| m.from == sq("e1") && m.to == sq("f1"))
            .collect();
        assert_eq!(to_f1.len(), 1, "FT-7: {to_f1:?}");
        assert_eq!(
            to_f1[0].special,
            Special::Event {
                number: 12,
                data: 0
            }
        );
    }
}
