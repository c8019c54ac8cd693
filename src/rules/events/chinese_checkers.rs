//! Event #14 Chinese Checkers (catalogue; rulings CC-1 to CC-8 in
//! `docs/rules/event-14-chinese-checkers.md`): besides its ordinary moves, a pawn may hop
//! over an adjacent piece of either colour, in any of the eight directions, to the empty
//! square beyond, and chain such hops in one move (`h7-f5-d3-f1-d1-b1=Q`); it promotes
//! only where the whole move ends on its last rank. Pawns on their first or second rank
//! may always step two squares.
//!
//! A chain is one of the event's own moves from the pawn's square to where it ends (the
//! search is `hops`, shared with #67); the path is not kept: its notation is a shortest
//! chain to that square (CC-8).

use super::hops::{self, Hops};
use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Form};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct ChineseCheckers;

const NUMBER: u16 = 14;

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Chinese Checkers",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('P', 1)]),
    rulings: &[
        "CC-1", "CC-2", "CC-3", "CC-4", "CC-5", "CC-6", "CC-7", "CC-8",
    ],
    page: "docs/rules/event-14-chinese-checkers.md",
};

/// The hop of the pawn on `from` that ends on `to`, without its promotion.
fn hop_move(pos: &Position, from: Sq, to: Sq) -> Move {
    Move {
        piece: pos.piece_at(from).expect("our pawn"),
        from,
        to,
        captured: None,
        promotion: None,
        special: Special::Event {
            number: NUMBER,
            data: 0,
        },
        faces: None,
        swap: None,
        returned: None,
    }
}

/// The hops of the side to move's pawns from `from` onto `to` (CC-2, CC-3), once per
/// promotion where the chain ends on the pawn's last rank (CC-4); pseudo-legal.
fn hops_of(v: &Variant, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
    let Some(pawn) = v.tables.pawn else {
        return;
    };
    for sq in pos.pieces(pos.turn, pawn) & from {
        for end in Hops::new(v, pos, sq).reached & to {
            v.push_promotions(pos, hop_move(pos, sq, end), out);
        }
    }
}

/// Whether the piece on `sq` is a pawn of the side to move.
fn our_pawn(v: &Variant, pos: &Position, sq: Sq) -> bool {
    v.tables.pawn.is_some_and(|pawn| {
        pos.piece_at(sq)
            == Some(Piece {
                color: pos.turn,
                kind: pawn,
            })
    })
}

/// Whether a move the orthodox reader takes (a step, a double step, en passant; no event's
/// own move) takes the pawn on `from` to `to`.
fn ordinary_move(v: &Variant, pos: &Position, from: Sq, to: Sq) -> bool {
    let mut moves = Vec::new();
    v.pseudo_moves(pos, from.bit(), to.bit(), &mut moves);
    moves.iter().any(|mv| {
        matches!(
            mv.special,
            Special::Normal | Special::DoubleStep | Special::EnPassant
        )
    })
}

/// The first and second ranks of `color`, from which its pawns may step two squares
/// (CC-5).
fn home_ranks(v: &Variant, color: Color) -> [u8; 2] {
    let last = v.geometry.height - 1;
    match color {
        Color::White => [0, 1],
        Color::Black => [last, last - 1],
    }
}

impl ChineseCheckers {
    /// Reads a pawn's written path (`h7-f5-d3-f1-d1-b1=Q`, `e6-e8=N->e7` with #29 running)
    /// as a chain of hops, or says why it is none (CC-2 to CC-4, CC-7, CC-8); `None` for
    /// two squares an ordinary pawn move joins (`e2-e4`) or a path that does not start on
    /// a pawn of the mover, which other readers take.
    fn resolve_path(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
        path: &[Sq],
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let us = pos.turn;
        let start = path[0];
        let end = path[path.len() - 1];
        if !our_pawn(v, pos, start) || path.len() == 2 && ordinary_move(v, pos, start, end) {
            return None;
        }
        let text = san::written(written);
        let help = || san::legal_help(v, pos, &text, v.tables.pawn);
        let refuse = |why: String| {
            Some(Err(san::illegal(
                format!("event #14 Chinese Checkers: {why}"),
                help(),
            )))
        };
        if !hops::hop_shaped(v, path) {
            return refuse(
                "each step of a pawn's path is a hop of two squares along a line or diagonal, over the piece between (CC-2, CC-8)"
                    .to_owned(),
            );
        }
        if let Some(why) = hops::broken_hop(v, pos, path) {
            return refuse(format!(
                "{why}: a pawn hops over an adjacent piece to the empty square beyond (CC-2)"
            ));
        }
        if end == start {
            return refuse(format!(
                "the hops end on {}, where the pawn started: a chain may cross its own path but must end elsewhere (CC-3)",
                g.name(start)
            ));
        }
        let last = written.targets.last().expect("a path");
        let promotion = match san::promotion_kind(v, pos, written, last.promotion) {
            Ok(kind) => kind,
            Err(rejection) => return Some(Err(rejection)),
        };
        let on_last_rank = v.tables.promotion_squares[us.index()].contains(end);
        if promotion.is_none() && on_last_rank {
            return refuse(format!(
                "the hops end on {}, the {us} pawn's last rank, so it promotes: write the new piece after the path (`{text}=Q`) (CC-4)",
                g.name(end)
            ));
        }
        if promotion.is_some() && !on_last_rank {
            return refuse(format!(
                "a pawn promotes only where the whole move ends on its last rank, and the hops end on {} (CC-4)",
                g.name(end)
            ));
        }
        // Through the generator, so that the choices other events attach come along
        // (#29, #85: the facing of a pawn that becomes a knight).
        let mut offered = Vec::new();
        v.pseudo_moves(pos, start.bit(), end.bit(), &mut offered);
        offered.retain(|mv| {
            matches!(mv.special, Special::Event { number: NUMBER, .. }) && mv.promotion == promotion
        });
        if offered.is_empty() {
            return refuse(format!(
                "the pawn cannot promote to that piece on {} here (CC-4)",
                g.name(end)
            ));
        }
        let chosen: Vec<Move> = offered
            .iter()
            .copied()
            .filter(|mv| san::choices_match(v, pos, written, mv))
            .collect();
        let Some(&first) = chosen.first() else {
            let spellings: Vec<String> = offered
                .iter()
                .filter(|mv| !v.leaves_king_attacked(pos, mv))
                .map(|mv| san::san_plain(v, pos, mv))
                .collect();
            return Some(Err(san::illegal(
                format!(
                    "event #14 Chinese Checkers: `{text}` does not give the choice the running events ask of this move: the facing of a knight it makes (CC-8)"
                ),
                (!spellings.is_empty()).then(|| format!("write {}", spellings.join(" or "))),
            )));
        };
        match chosen.iter().find(|mv| !v.leaves_king_attacked(pos, mv)) {
            Some(&mv) => Some(Ok(mv)),
            None => refuse(format!(
                "{}; the hops are judged by the square they end on (CC-7)",
                san::king_exposed(v, pos, &first)
            )),
        }
    }

    /// Refuses `e4` where only a chain of hops takes a pawn there: a hop is written as its
    /// path (CC-8), which the help spells.
    fn refuse_short_hop(
        &self,
        v: &Variant,
        pos: &Position,
        to: Sq,
    ) -> Option<Result<Move, Rejection>> {
        let pawns = pos.pieces(pos.turn, v.tables.pawn?);
        let mut legal = Vec::new();
        v.legal_moves_between(pos, pawns, to.bit(), &mut legal);
        if legal.is_empty() {
            return refuse_far_double_step(v, pos, pawns, to);
        }
        if legal
            .iter()
            .any(|mv| !matches!(mv.special, Special::Event { number: NUMBER, .. }))
        {
            return None;
        }
        let spellings: Vec<String> = legal.iter().map(|mv| san::san_plain(v, pos, mv)).collect();
        Some(Err(san::illegal(
            format!(
                "event #14 Chinese Checkers: a {} pawn reaches {} only by hopping, and a hop is written as the pawn's path from its square (CC-8)",
                pos.turn,
                v.geometry.name(to)
            ),
            Some(format!("write {}", spellings.join(" or "))),
        )))
    }
}

/// Why `e5` from a pawn on e3 is refused: two squares straight ahead over an empty one is
/// a double step, which only the first and second ranks give (CC-5); `None` for any
/// other square.
fn refuse_far_double_step(
    v: &Variant,
    pos: &Position,
    pawns: Bitboard,
    to: Sq,
) -> Option<Result<Move, Rejection>> {
    let g = v.geometry;
    let us = pos.turn;
    let step = g.offset(to, 0, -us.forward())?;
    let from = g.offset(step, 0, -us.forward())?;
    if !pawns.contains(from)
        || home_ranks(v, us).contains(&g.rank(from))
        || pos.piece_at(step).is_some()
        || pos.piece_at(to).is_some()
    {
        return None;
    }
    Some(Err(san::illegal(
        format!(
            "event #14 Chinese Checkers: the {us} pawn on {} stands on neither its first nor its second rank, so it steps one square, not two (CC-5)",
            g.name(from)
        ),
        san::legal_help(v, pos, &g.name(to), v.tables.pawn),
    )))
}

/// Why a pawn capture onto an empty square with an enemy pawn behind it, and no
/// en-passant right, is refused: that pawn may have hopped there, and a hop is no double
/// step (CC-6); `None` for any other move.
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
    if target.separator != Separator::Capture {
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
            "event #14 Chinese Checkers: there is nothing to capture on {}: en passant takes only a pawn that has just stepped two squares past it, and the {} pawn on {} has not (a hop is no double step, CC-6)",
            g.name(to),
            us.other(),
            g.name(behind)
        ),
        san::legal_help(v, pos, &san::written(written), Some(pawn)),
    )))
}

impl Event for ChineseCheckers {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Path
    }

    /// CC-5: a pawn on its first or second rank may step two squares.
    fn may_double_step(&self, v: &Variant, _pos: &Position, from: Sq, color: Color) -> bool {
        home_ranks(v, color).contains(&v.geometry.rank(from))
    }

    /// CC-2, CC-3, CC-4: every square a pawn of the side to move ends a chain of hops on.
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        hops_of(v, pos, from, to, out);
    }

    /// The pawn lands where the chain ends, promoted there if the move carries it (CC-4),
    /// facing the direction the move carries where a knight-facing event runs (#29, #85);
    /// no en-passant square follows (CC-6, the core has cleared it). A pawn move starts
    /// the fifty-move count again.
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
                if mv.faces.is_some() {
                    super::knight_facings::set_facing(pos, mv.to, mv.faces);
                }
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
        if written.piece.is_some_and(|letter| letter != 'P') {
            return None;
        }
        if let [target] = written.targets.as_slice()
            && written.hint.is_none()
            && target.separator != Separator::Capture
            && target.promotion.is_none()
        {
            return self.refuse_short_hop(v, pos, v.geometry.from_square(target.square)?);
        }
        if let Some(refused) = no_en_passant(v, pos, written) {
            return Some(refused);
        }
        // A knight's facing after the path (`e6-e8=N->e7`, #29, #85) is a choice the
        // move carries, matched against the generated moves.
        let bare = PieceMove {
            arrow: None,
            ..written.clone()
        };
        let path = hops::written_path(v, &bare)?;
        self.resolve_path(v, pos, written, &path)
    }

    /// CC-8: a shortest chain to the move's last square, then the promotion.
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let path = Hops::new(v, pos, mv.from).path(mv.to);
        let mut out = hops::spelled(v, &path);
        if let Some(kind) = mv.promotion {
            out.push('=');
            out.push(v.piece(kind).letter);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn running(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&ChineseCheckers, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    fn hop_ends(pos: &Position) -> Vec<String> {
        let mut moves = Vec::new();
        event_chess().legal_moves(pos, &mut moves);
        moves
            .iter()
            .filter(|mv| matches!(mv.special, Special::Event { .. }))
            .map(|mv| san::san_plain(event_chess(), pos, mv))
            .collect()
    }

    #[test]
    fn cc_4_the_catalogue_chain_promotes_only_at_its_end() {
        let v = event_chess();
        let mut pos = running("4k3/7p/6P1/8/4P3/8/4P3/K1P1P3 b - - 0 1");
        let mv = resolve(&pos, "h7-f5-d3-f1-d1-b1=Q").unwrap();
        assert_eq!((mv.from, mv.to), (sq("h7"), sq("b1")));
        v.play(&mut pos, &mv);
        assert_eq!(
            pos.piece_at(sq("b1")).map(|p| v.piece(p.kind).letter),
            Some('Q')
        );
        let pos = running("4k3/7p/6P1/8/4P3/8/4P3/K1P1P3 b - - 0 1");
        let early = resolve(&pos, "h7-f5-d3=Q").unwrap_err();
        assert!(early.reason.contains("CC-4"), "{}", early.reason);
        let unsaid = resolve(&pos, "h7-f5-d3-f1-d1-b1").unwrap_err();
        assert!(unsaid.reason.contains("CC-4"), "{}", unsaid.reason);
    }

    #[test]
    fn cc_2_hops_go_every_way_over_either_colour_and_take_nothing() {
        let pos = running("4k3/8/8/3pP3/4P3/8/8/4K3 w - - 0 1");
        let mut ends = hop_ends(&pos);
        ends.sort();
        // Forward over e5 and diagonally over d5 (then on over d5 again from e6), sideways
        // over the black pawn and backward over the white one.
        assert_eq!(ends, vec!["e4-c6", "e4-e6", "e4-e6-c4", "e5-c5", "e5-e3"]);
        let over_nothing = resolve(&pos, "e4-c4").unwrap_err();
        assert!(
            over_nothing.reason.contains("CC-2"),
            "{}",
            over_nothing.reason
        );
    }

    #[test]
    fn cc_3_a_chain_must_not_end_where_it_began() {
        let pos = running("4k3/8/8/8/8/4P3/4P3/4K3 w - - 0 1");
        let back = resolve(&pos, "e2-e4-e2").unwrap_err();
        assert!(back.reason.contains("CC-3"), "{}", back.reason);
    }

    #[test]
    fn cc_5_and_cc_6_double_steps_from_the_first_rank_and_hops_set_no_en_passant() {
        let v = event_chess();
        let mut pos = running("4k3/8/8/8/8/8/8/P3K3 w - - 0 1");
        let double = resolve(&pos, "a3").unwrap();
        assert_eq!(double.special, Special::DoubleStep);
        let mut pos2 = running("4k3/8/8/8/8/4P3/4P3/4K3 w - - 0 1");
        let hop = resolve(&pos2, "e2-e4").unwrap();
        v.play(&mut pos2, &hop);
        assert_eq!(pos2.ep, None, "CC-6");
        v.play(&mut pos, &double);
        assert!(pos.ep.is_some());
    }

    #[test]
    fn cc_8_a_hop_written_by_its_last_square_is_refused_with_its_path() {
        let pos = running("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1");
        let short = resolve(&pos, "e4").unwrap_err();
        assert!(short.reason.contains("CC-8"), "{}", short.reason);
        assert_eq!(short.help.as_deref(), Some("write e2-e4"));
    }
}
