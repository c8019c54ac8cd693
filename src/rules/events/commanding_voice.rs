//! Event #78 Commanding Voice (catalogue; rulings CV-1 to CV-8 in
//! `docs/rules/event-78-commanding-voice.md`): only pieces within three squares of their
//! own king may move, and a piece that may not move threatens nothing. A king may step
//! onto an own rook and ride it: the rook is out of play under it, and while it rides
//! every own piece may move.
//!
//! The king stays on the board and the rook under it is a mark on the king (CV-5), so
//! the king is found, attacked and moved as ever; the rook comes back on the square the
//! king steps off.

use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Overlay, Reach};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct CommandingVoice;

const NUMBER: u16 = 78;

/// How far from its king a piece may stand and still move (CV-1: king distance).
const VOICE_RANGE: u8 = 3;

static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Commanding Voice",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('K', 1)]),
    rulings: &[
        "CV-1", "CV-2", "CV-3", "CV-4", "CV-5", "CV-6", "CV-7", "CV-8",
    ],
    page: "docs/rules/event-78-commanding-voice.md",
};

/// The kings that ride a rook, of both sides (CV-5).
fn riding(pos: &Position) -> Bitboard {
    pos.mark_layer(NUMBER, 0)
        .map_or(Bitboard::EMPTY, |layer| pos.marked(layer))
}

/// The king distance between two squares.
fn distance(v: &Variant, a: Sq, b: Sq) -> u8 {
    let g = v.geometry;
    g.file(a)
        .abs_diff(g.file(b))
        .max(g.rank(a).abs_diff(g.rank(b)))
}

/// Whether the `piece` on `from` may move: a king always (CV-2); another piece while an
/// own king rides a rook (CV-5), stands within three squares of it (CV-1, CV-3 any of
/// several kings), or where its side has no king to hear (CV-8).
fn commanded(v: &Variant, pos: &Position, from: Sq, piece: Piece) -> bool {
    let kings = pos.kings(v, piece.color);
    v.role(piece.kind) == Role::King
        || kings.is_empty()
        || (kings & riding(pos)).nonempty()
        || kings
            .into_iter()
            .any(|k| distance(v, k, from) <= VOICE_RANGE)
}

/// `the white rook on a1 stands 5 squares from the white king on e6`: why a piece does
/// not hear its king.
fn out_of_range(v: &Variant, pos: &Position, from: Sq, color: Color) -> String {
    let g = v.geometry;
    let kings = pos.kings(v, color);
    let nearest = kings
        .into_iter()
        .min_by_key(|&k| distance(v, k, from))
        .expect("a side without a king hears no voice (CV-8)");
    format!(
        "{} stands {} squares from the {color} king on {}, and under event #78 Commanding Voice only pieces within 3 squares of their own king may move, so it may neither move nor threaten anything (CV-1, CV-4)",
        san::describe(v, pos, from),
        distance(v, nearest, from),
        g.name(nearest),
    )
}

/// The own rooks the kings of the side to move in `from` may step onto, in `to`: the
/// squares a quiet king step reaches as the running events have it (CV-5).
fn boardings(v: &Variant, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
    let us = pos.turn;
    let Some(rook) = v.kind_of_letter('R') else {
        return;
    };
    let rooks = pos.pieces(us, rook) & to;
    if rooks.is_empty() {
        return;
    }
    for king in pos.kings(v, us) & from {
        let piece = pos.piece_at(king).expect("a king");
        for target in rooks {
            let reach = v.reach(pos, king, piece, pos.occupied() & !target.bit());
            if reach.quiet.contains(target) {
                out.push(Move {
                    piece,
                    from: king,
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
                });
            }
        }
    }
}

/// Puts back the own rook a king rode, on the square it left.
fn leave_rook(v: &Variant, pos: &mut Position, from: Sq, color: Color) {
    let rook = v.kind_of_letter('R').expect("boarded a rook");
    pos.put(from, Piece { color, kind: rook });
}

impl Event for CommandingVoice {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// The kings that ride a rook (CV-5), part of the position (CV-7).
    fn mark_layers(&self) -> usize {
        1
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// CV-1, CV-4: a piece out of its king's range goes nowhere and threatens nothing.
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        _occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if !commanded(v, pos, from, piece) {
            *reach = Reach::default();
        }
    }

    /// CV-1: another event's move of a piece out of range (a push, a turn in place);
    /// castling moves the king, which always may (CV-2).
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        matches!(mv.special, Special::Castle { .. }) || commanded(v, pos, mv.from, mv.piece)
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        out_of_range(v, pos, mv.from, mv.piece.color)
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        _to: Sq,
    ) -> Option<String> {
        (!commanded(v, pos, from, piece)).then(|| out_of_range(v, pos, from, piece.color))
    }

    /// CV-5: a king steps onto an own rook.
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        boardings(v, pos, from, to, out);
    }

    /// CV-5: the king boards the rook, which goes out of play under it; a king that
    /// rode another rook leaves that one behind.
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let layer = pos.mark_layer(NUMBER, 0).expect("started");
        let was_riding = pos.marked(layer).contains(mv.from);
        pos.remove(mv.to);
        pos.relocate(mv.from, mv.to);
        if was_riding {
            leave_rook(v, pos, mv.from, mv.piece.color);
        }
        pos.set_mark(layer, mv.to, true);
    }

    /// CV-5: a riding king that steps off (capturing or not) leaves its rook behind.
    fn after_landing(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let Some(layer) = pos.mark_layer(NUMBER, 0) else {
            return;
        };
        if v.role(mv.piece.kind) == Role::King && pos.marked(layer).contains(mv.to) {
            pos.set_mark(layer, mv.to, false);
            leave_rook(v, pos, mv.from, mv.piece.color);
        }
    }

    /// A king boarding a rook is written as its step, `Kd1` (CV-6).
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let mut others = Vec::new();
        boardings(v, pos, pos.kings(v, pos.turn), mv.to.bit(), &mut others);
        let g = v.geometry;
        if others.len() > 1 {
            format!("K{}{}", g.name(mv.from), g.name(mv.to))
        } else {
            format!("K{}", g.name(mv.to))
        }
    }

    fn lan(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        format!("K{}-{}", g.name(mv.from), g.name(mv.to))
    }

    /// `Kd1` onto an own rook: the king boards it (CV-6).
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        if written.piece != Some('K') {
            return None;
        }
        let g = v.geometry;
        let targets = written.targets.as_slice();
        let last = targets.last()?;
        let to = g.from_square(last.square)?;
        let rook = v.kind_of_letter('R')?;
        let us = pos.turn;
        if pos.piece_at(to)
            != Some(Piece {
                color: us,
                kind: rook,
            })
        {
            return None;
        }
        let mut from = san::hinted_origins(v, written.hint) & pos.kings(v, us);
        if let [origin, _] = targets {
            from &= g.from_square(origin.square)?.bit();
        }
        let mut moves = Vec::new();
        v.legal_moves_between(pos, from, to.bit(), &mut moves);
        moves.retain(|mv| matches!(mv.special, Special::Event { number: NUMBER, .. }));
        let text = san::written(written);
        if last.separator == Separator::Capture {
            let help = moves
                .first()
                .map(|mv| format!("write {}", self.san(v, pos, mv)));
            return Some(Err(san::illegal(
                format!(
                    "`{text}` captures the {us} rook on {}: under event #78 Commanding Voice a king steps onto an own rook to ride it, capturing nothing (CV-6)",
                    g.name(to)
                ),
                help,
            )));
        }
        Some(match moves.as_slice() {
            [mv] => Ok(*mv),
            [] => Err(self.why_no_boarding(v, pos, from, to, &text)),
            several => Err(san::ambiguous(v, pos, several)),
        })
    }

    /// The kings that ride a rook (CV-7).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        super::names(v, riding(pos))
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let layer = pos.mark_layer(NUMBER, 0).expect("started");
        for word in words {
            let sq = super::fen_square(v, word)?;
            if !pos
                .piece_at(sq)
                .is_some_and(|p| v.role(p.kind) == Role::King)
            {
                return Err(format!("{word} holds no king to ride a rook"));
            }
            pos.set_mark(layer, sq, true);
        }
        Ok(())
    }

    /// The riding kings, ringed, and listed under the board.
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let riding = riding(pos);
        out.singled_out.extend(riding);
        let names = super::names(v, riding);
        out.lines.push(if names.is_empty() {
            "kings on rooks: none".to_owned()
        } else {
            format!("kings on rooks (marked @): {}", names.join(", "))
        });
    }
}

impl CommandingVoice {
    /// Why no king of the side to move in `from` may board the rook on `to`.
    fn why_no_boarding(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Sq,
        text: &str,
    ) -> Rejection {
        let g = v.geometry;
        let mut pseudo = Vec::new();
        boardings(v, pos, from, to.bit(), &mut pseudo);
        let help = san::legal_help(v, pos, text, None);
        match pseudo.first() {
            Some(mv) => san::illegal(
                format!(
                    "{}: under event #78 Commanding Voice a king may not board a rook where it would stand in check (CV-5)",
                    san::king_exposed(v, pos, mv)
                ),
                help,
            ),
            None => san::illegal(
                format!(
                    "no {} king can step onto the rook on {}: under event #78 Commanding Voice a king boards an own rook only with a step it could make onto an empty square, as every running event has its steps (CV-5)",
                    pos.turn,
                    g.name(to)
                ),
                help,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::fen::parse_fen;
    use crate::rules::san::{resolve, san};

    fn voice(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&CommandingVoice, None).unwrap();
        pos
    }

    fn play(pos: &mut Position, written: &str) {
        let v = event_chess();
        let notation = crate::notation::Notation::parse(written).unwrap();
        let mv = resolve(v, pos, &notation).unwrap();
        v.play(pos, &mv);
    }

    fn legal(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        let mut out: Vec<String> = moves.iter().map(|mv| san(v, pos, mv)).collect();
        out.sort();
        out
    }

    #[test]
    fn only_pieces_near_their_king_move_and_threaten() {
        // CV-1: the rook on a1 stands four squares from the king on e2; CV-4: the black
        // queen on h5 stands five from her king on c8, so the white king is not in check.
        let pos = voice("2k5/8/8/7q/8/8/4K3/R7 w - - 0 1");
        let v = event_chess();
        assert!(
            !pos.is_check(v),
            "CV-4: the queen out of range gives no check"
        );
        assert!(legal(&pos).iter().all(|m| m.starts_with('K')));
    }

    #[test]
    fn a_king_rides_a_rook_and_leaves_it_behind() {
        let v = event_chess();
        let mut pos = voice("7k/8/8/8/8/8/8/R2RK3 w - - 0 1");
        assert!(legal(&pos).contains(&"Kd1".to_owned()), "CV-5");
        play(&mut pos, "Kd1");
        assert_eq!(riding(&pos), sq("d1").bit());
        assert_eq!(
            pos.piece_at(sq("d1")).map(|p| v.role(p.kind)),
            Some(Role::King)
        );
        play(&mut pos, "Kg8");
        // CV-5: riding, the king frees the far rook on a1.
        assert!(legal(&pos).contains(&"Ra8+".to_owned()));
        let fen = crate::rules::write_fen(v, &pos);
        assert!(fen.ends_with("events(78-:d1)"), "CV-7: {fen}");
        play(&mut pos, "Ke2");
        assert_eq!(riding(&pos), Bitboard::EMPTY);
        assert_eq!(
            pos.piece_at(sq("d1")).map(|p| v.piece(p.kind).letter),
            Some('R'),
            "the rook stays where the king stepped off"
        );
    }
}
