//! Event #13 Pawn March (catalogue; rulings PM-1 to PM-6 in
//! `docs/rules/event-13-pawn-march.md`): a turn may be two moves by two different pawns,
//! neither capturing (`e4,d4`, `b8=Q,h8=Q#`); the first may leave the own king in check,
//! the second may not. After two double steps the opponent may take either pawn en
//! passant with his one reply.

use super::turns::{self, Parts, Phase};
use crate::notation::MoveBody;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, EventState, Form};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::Rejection;
use crate::rules::variant::Variant;

pub struct PawnMarch;

const NUMBER: u16 = 13;

/// The word of the slot that holds the square the first of two double steps crossed,
/// plus one (0: none), open to the opponent's next move only (PM-4).
const SECOND_EP_WORD: usize = 0;

fn second_ep(pos: &Position) -> Option<Sq> {
    let word = pos.event_state(NUMBER)?.words[SECOND_EP_WORD];
    word.checked_sub(1).map(|sq| Sq(sq as u8))
}

fn set_second_ep(pos: &mut Position, ep: Option<Sq>) {
    let mut state = pos.event_state(NUMBER).copied().unwrap_or_default();
    state.words[SECOND_EP_WORD] = ep.map_or(0, |sq| u16::from(sq.0) + 1);
    pos.set_event_state(NUMBER, state);
}

/// Whether `mv` is a pawn's move that captures nothing: what a part of a turn must be
/// (PM-1); a move of another running event counts when it moves a pawn on the board to
/// another square (`events::turns`: a drop, #7, or a promotion by standing still, #43,
/// does not, PM-5).
fn quiet_pawn_move(v: &Variant, mv: &Move) -> bool {
    v.role(mv.piece.kind) == Role::Pawn && !mv.is_capture()
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Pawn March",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('P', 2)]),
    rulings: &["PM-1", "PM-2", "PM-3", "PM-4", "PM-5", "PM-6"],
    page: "docs/rules/event-13-pawn-march.md",
};

impl Parts for PawnMarch {
    fn first_part(&self, v: &Variant, _pos: &Position, mv: &Move) -> bool {
        quiet_pawn_move(v, mv)
    }

    /// PM-1: another pawn than the first part's.
    fn second_part(&self, v: &Variant, _pos: &Position, moved: Sq, mv: &Move) -> bool {
        quiet_pawn_move(v, mv) && mv.from != moved
    }

    /// A turn of pawn moves: both parts written without a piece letter (or with `P`).
    fn reads_parts(&self, parts: &[MoveBody]) -> bool {
        matches!(parts.first(), Some(MoveBody::Piece(m)) if m.piece.is_none_or(|p| p == 'P'))
    }

    fn two_parts_ruling(&self) -> &'static str {
        "PM-1"
    }
}

impl Event for PawnMarch {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Turn
    }

    fn state_key(&self, state: &EventState) -> u64 {
        u64::from(state.words[SECOND_EP_WORD]).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// The square the first of two double steps crossed, while it may be taken (PM-4).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        second_ep(pos)
            .map(|sq| v.geometry.name(sq))
            .into_iter()
            .collect()
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        match words {
            [] => Ok(()),
            [square] => {
                let sq = crate::notation::Square::parse(square)
                    .and_then(|s| v.geometry.from_square(s))
                    .ok_or_else(|| format!("`{square}` is no square of the board"))?;
                set_second_ep(pos, Some(sq));
                Ok(())
            }
            _ => Err("#13 keeps one en-passant square at most".to_owned()),
        }
    }

    fn between_parts(&self, pos: &Position) -> bool {
        turns::phase(pos, NUMBER) != Phase::Idle
    }

    /// PM-2: the first part may leave the own king in check.
    fn can_be_checked(&self, _v: &Variant, pos: &Position, _king: Sq, color: Color) -> bool {
        turns::can_be_checked(pos, NUMBER, color)
    }

    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        turns::allows(self, v, pos, mv)
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let why = if v.role(mv.piece.kind) != Role::Pawn || mv.from == mv.to {
            "both parts of a turn of two moves are pawn moves (PM-1)".to_owned()
        } else if mv.is_capture() {
            "neither part of a turn of two pawn moves may capture; a capture is a whole turn alone (PM-1, PM-3)".to_owned()
        } else if let Phase::Second(_, moved) = turns::phase(pos, NUMBER) {
            format!(
                "the pawn on {} moved in the first part: the second part moves another pawn (PM-1)",
                g.name(moved)
            )
        } else {
            "this move is no part of a turn of two pawn moves (PM-1)".to_owned()
        };
        format!("event #13 Pawn March: {why}")
    }

    /// The turns of two pawn moves (PM-1), and the en-passant captures of the first of
    /// two double steps the opponent made (PM-4).
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        if turns::between_parts(pos) {
            return;
        }
        turns::generate(self, v, pos, (from, to), out);
        let us = pos.turn;
        if let Some(ep) = second_ep(pos).filter(|&ep| to.contains(ep))
            && pos.piece_at(ep).is_none()
            && let Some(victim) = v.geometry.offset(ep, 0, -us.forward())
            && let Some(captured) = pos.piece_at(victim)
            && captured.color != us
            && v.role(captured.kind) == Role::Pawn
            && let Some(pawn) = v.tables.pawn
        {
            let capturers =
                v.tables.pawn_attacks[us.other().index()][ep.index()] & pos.pieces(us, pawn) & from;
            for capturer in capturers {
                out.push(Move {
                    piece: Piece {
                        color: us,
                        kind: pawn,
                    },
                    from: capturer,
                    to: ep,
                    captured: Some(captured),
                    promotion: None,
                    special: Special::EnPassant,
                    faces: None,
                    swap: None,
                    returned: None,
                });
            }
        }
    }

    /// Both parts; two double steps leave both crossed squares open to the reply (PM-4).
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let first_ep = turns::play(self, v, pos, mv);
        let second = match (first_ep, pos.ep) {
            (Some(first), Some(_)) => Some(first),
            (first, None) => {
                pos.ep = first;
                None
            }
            (None, Some(_)) => None,
        };
        set_second_ep(pos, second);
    }

    /// PM-4: the first double step may be taken by the very next move only.
    fn after_move(&self, _v: &Variant, pos: &mut Position, mv: &Move, _gives_check: bool) {
        let own_turn = matches!(mv.special, Special::Event { number, .. } if number == NUMBER);
        if !own_turn && second_ep(pos).is_some() {
            set_second_ep(pos, None);
        }
    }

    fn resolve_turn(
        &self,
        v: &Variant,
        pos: &Position,
        written: &crate::notation::Notation,
    ) -> Option<Result<Move, Rejection>> {
        turns::resolve(self, v, pos, written)
    }

    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        turns::san(self, v, pos, mv)
    }

    fn lan(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        turns::lan(self, v, pos, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, san, write_fen};

    fn marching(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&PawnMarch, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    fn legal_sans(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves.iter().map(|mv| san::san_plain(v, pos, mv)).collect()
    }

    #[test]
    fn a_first_part_promoting_to_a_knight_keeps_the_facing_written_beside_85() {
        use crate::rules::event::Event;
        use crate::rules::events::LoyalKnights;
        let v = event_chess();
        let mut pos = marching("4k3/1P6/8/8/8/8/6P1/4K3 w - - 0 1");
        pos.start_event(&LoyalKnights, Some(pos.turn.other()))
            .unwrap();
        LoyalKnights.begin(v, &mut pos, &[]).unwrap();
        // One turn per facing of the new knight (LK-8), each spelled with its own and
        // read back to itself.
        let turns: Vec<String> = legal_sans(&pos)
            .into_iter()
            .filter(|s| s.starts_with("b8=N"))
            .collect();
        let mut distinct = turns.clone();
        distinct.sort();
        distinct.dedup();
        assert!(distinct.len() > 1, "{turns:?}");
        assert_eq!(distinct.len(), turns.len(), "{turns:?}");
        for written in &turns {
            let mv = resolve(&pos, written).unwrap();
            assert_eq!(&san::san_plain(v, &pos, &mv), written);
        }
    }

    #[test]
    fn a_turn_is_two_quiet_moves_of_two_pawns_in_either_order() {
        // PM-1: the pawn on d4 may capture alone, never as a part.
        let pos = marching("4k3/pp6/8/2p5/3P4/8/P7/4K3 w - - 0 1");
        let sans = legal_sans(&pos);
        for turn in ["a3,d5", "d5,a3", "a4,d5", "d5,a4"] {
            assert!(sans.contains(&turn.to_owned()), "{turn}: {sans:?}");
        }
        assert!(sans.contains(&"dxc5".to_owned()));
        assert!(!sans.iter().any(|s| s.contains("dxc5,")), "{sans:?}");
        // a3 or a4 with d5, in either order.
        assert_eq!(sans.iter().filter(|s| s.contains(',')).count(), 4);
        let same_pawn = resolve(&pos, "a3,a4").unwrap_err();
        assert!(same_pawn.reason.contains("PM-1"), "{}", same_pawn.reason);
        let capture = resolve(&pos, "dxc5,a3").unwrap_err();
        assert!(capture.reason.contains("PM-1"), "{}", capture.reason);
    }

    #[test]
    fn the_first_part_may_leave_the_king_in_check_and_the_second_may_not() {
        let v = event_chess();
        // PM-2: d3 uncovers the bishop on b4; c3 closes the line again.
        let pos = marching("4k3/pp6/8/8/1b6/8/P1PP4/4K3 w - - 0 1");
        assert!(resolve(&pos, "d3").is_err(), "the d-pawn is pinned");
        let turn = resolve(&pos, "d3,c3").unwrap();
        assert_eq!(PawnMarch.san(v, &pos, &turn), "d3,c3");
        assert_eq!(PawnMarch.lan(v, &pos, &turn), "d2-d3,c2-c3");
        let open = resolve(&pos, "d3,a3").unwrap_err();
        assert!(open.reason.contains("in check"), "{}", open.reason);
    }

    #[test]
    fn two_double_steps_give_one_reply_two_en_passant_captures() {
        let v = event_chess();
        // PM-4: either pawn may be taken, by the next move only.
        let mut pos = marching("4k3/7p/8/8/3p1p2/8/4P1P1/4K3 w - - 0 1");
        let turn = resolve(&pos, "e4,g4").unwrap();
        v.play(&mut pos, &turn);
        assert_eq!(pos.ep, Some(sq("g3")));
        let fen = write_fen(v, &pos);
        assert!(fen.ends_with("events(13w:e3)"), "{fen}");
        let again = parse_fen(v, &fen).unwrap();
        assert_eq!(again.key(v), pos.key(v), "the FEN keeps the first square");
        for capture in ["dxe3", "fxg3"] {
            let mv = resolve(&pos, capture).unwrap();
            assert_eq!(mv.special, Special::EnPassant, "{capture}");
        }
        let h5 = resolve(&pos, "h5").unwrap();
        v.play(&mut pos, &h5);
        let king = resolve(&pos, "Kf1").unwrap();
        v.play(&mut pos, &king);
        assert!(resolve(&pos, "dxe3").is_err(), "the right lasted one move");
        assert!(write_fen(v, &pos).ends_with("events(13w)"));
    }

    #[test]
    fn mate_counts_turns_of_two_pawn_moves_among_the_defences() {
        let v = event_chess();
        // PM-6: double check from b4 and h4; c3 and g3 block both lines.
        let pos = marching("4k3/pp6/8/8/1b5b/8/2P3P1/3QKBn1 w - - 0 1");
        assert!(v.has_legal_move(&pos));
        assert_eq!(legal_sans(&pos), ["c3,g3", "g3,c3"]);
    }
}
