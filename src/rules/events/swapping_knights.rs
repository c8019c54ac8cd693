//! Event #122 Swapping Knights (catalogue; rulings SX-1 to SX-7 in
//! `docs/rules/event-122-swapping-knights.md`): a knight may capture an own piece, the
//! king included, which is put on the square the knight left (`Nxe5`); a pawn put on its
//! last rank so promotes (`Nxh7=Q+`). Pawns on their own first or second rank may always
//! step two. Where knights face directions (#29, #85) it may turn the knight (`Nxb4->c5`);
//! beside #23 Hungry horses it is written with the square the piece goes to (`Nxg2@f4`).

use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Form};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct SwappingKnights;

const NUMBER: u16 = 122;

fn knight_kind(v: &Variant) -> Option<Kind> {
    v.kind_of_letter('N')
}

/// The own captures of the side to move's knights on `from` onto squares of `to`
/// (SX-1): wherever the knight could capture, as the variant and the running events have
/// it; once per promotion piece where the piece taken is a pawn that lands on its last
/// rank (SX-2); pseudo-legal. `promotion` is the piece the pawn put back becomes.
fn own_captures(v: &Variant, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
    let Some(knight) = knight_kind(v) else {
        return;
    };
    let us = pos.turn;
    let ours = pos.by_color(us);
    let occupied = pos.occupied();
    for sq in pos.pieces(us, knight) & from {
        let piece = pos.piece_at(sq).expect("our knight");
        let attacks = v.reach(pos, sq, piece, occupied).attacks;
        for target in attacks & ours & to {
            let victim = pos.piece_at(target).expect("our piece");
            let mv = Move {
                piece,
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
            if v.role(victim.kind) == Role::Pawn
                && v.tables.promotion_squares[us.index()].contains(sq)
            {
                for &kind in &v.pawn.promotes_to {
                    out.push(Move {
                        promotion: Some(kind),
                        ..mv
                    });
                }
            } else {
                out.push(mv);
            }
        }
    }
}

/// #23 Hungry horses, whose knights eat own pieces written as plain captures (SX-7).
const HUNGRY_HORSES: u16 = 23;

fn hungry_horses_run(pos: &Position) -> bool {
    pos.events().iter().any(|e| e.number() == HUNGRY_HORSES)
}

/// Whether another running event reads `@square` after a capture (#126's return square).
fn other_reader_of_captured_to(pos: &Position) -> bool {
    pos.events()
        .iter()
        .any(|e| e.number() != NUMBER && e.reads(Form::CapturedTo))
}

impl SwappingKnights {
    /// Reads `Nxe5`, `Ngxe5`, `Ng4xe5` and `Nxh7=Q` onto an own piece (SX-1, SX-2) and
    /// refuses `Ne5` onto one; `None` for any other move.
    fn resolve_own_capture(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let us = pos.turn;
        if written.piece != Some('N') {
            return None;
        }
        // SX-7: `@` names the square the piece taken goes to, the one the knight leaves.
        let back = match written.placed {
            Some(placed) if placed.piece.is_none() => Some(placed.square),
            Some(_) => return None,
            None => None,
        };
        // SX-7: beside #23 a plain `Nxe5` onto an own piece is #23's, which eats it;
        // without #23 the `@` form is #126's return where #126 runs (`Nxb6@d7` back to
        // the knight's own square would leave the board the plain swap leaves).
        let hungry = hungry_horses_run(pos);
        if back.is_none() && hungry || back.is_some() && !hungry && other_reader_of_captured_to(pos)
        {
            return None;
        }
        let (last, origin) = match written.targets.as_slice() {
            [last] => (last, None),
            [origin, last] if origin.separator == Separator::None => (last, Some(origin)),
            _ => return None,
        };
        let to = g.from_square(last.square)?;
        let victim = pos.piece_at(to).filter(|p| p.color == us)?;
        let mut from = san::hinted_origins(v, written.hint) & pos.by_color(us);
        if let Some(origin) = origin {
            from &= g.from_square(origin.square)?.bit();
        }
        let text = san::written(written);
        let help = || san::legal_help(v, pos, &text, knight_kind(v));
        if let Some(back) = back {
            let back = g.from_square(back)?;
            if !from.contains(back) || !pos.pieces(us, knight_kind(v)?).contains(back) {
                // `Nxe5@b1`: #126's return to a starting square, where it runs.
                if other_reader_of_captured_to(pos) {
                    return None;
                }
                return Some(Err(san::illegal(
                    format!(
                        "`@` names the square the piece taken goes to, the one the knight leaves, and no {us} knight on {} takes {} (SX-7)",
                        g.name(back),
                        san::describe(v, pos, to)
                    ),
                    help(),
                )));
            }
            from = back.bit();
        }
        let promotion = match san::promotion_kind(v, pos, written, last.promotion) {
            Ok(kind) => kind,
            Err(rejection) => return Some(Err(rejection)),
        };
        // Through the generator, so that the choices other events attach come along
        // (#29, #85: the direction the knight ends facing, `Nxd7->c7`).
        let mut offered = Vec::new();
        v.pseudo_moves(pos, from, to.bit(), &mut offered);
        offered.retain(|mv| matches!(mv.special, Special::Event { number: NUMBER, .. }));
        let legal: Vec<Move> = offered
            .iter()
            .copied()
            .filter(|mv| mv.faces.is_none() && !v.leaves_king_attacked(pos, mv))
            .collect();
        let spell = |moves: &[Move]| -> Option<String> {
            let spellings: Vec<String> = moves.iter().map(|mv| self.san(v, pos, mv)).collect();
            (!spellings.is_empty()).then(|| format!("write {}", spellings.join(" or ")))
        };
        let taken = san::describe(v, pos, to);
        if last.separator != Separator::Capture {
            return Some(Err(san::illegal(
                format!(
                    "{taken} is the mover's own: a knight takes it with a capture, written with `x` (SX-1)"
                ),
                spell(&legal).or_else(help),
            )));
        }
        if offered.is_empty() {
            return Some(Err(san::illegal(
                format!("no {us} knight can take {taken} as written (SX-1)"),
                help(),
            )));
        }
        let matching: Vec<Move> = offered
            .iter()
            .copied()
            .filter(|mv| mv.promotion == promotion)
            .collect();
        if !matching.is_empty()
            && !matching
                .iter()
                .any(|mv| san::choices_match(v, pos, written, mv))
        {
            return Some(Err(san::illegal(
                format!(
                    "`{text}` does not give the choices this move makes: the direction the knight ends facing (DK-4, LK-8)"
                ),
                spell(&legal).or_else(help),
            )));
        }
        let matching: Vec<Move> = matching
            .into_iter()
            .filter(|mv| san::choices_match(v, pos, written, mv))
            .collect();
        if matching.is_empty() {
            let reason = if promotion.is_none() {
                "the pawn taken goes to the knight's square on its last rank and promotes: the move names the piece it becomes (SX-2)".to_owned()
            } else {
                format!("{taken} does not land on its last rank, so nothing promotes (SX-2)")
            };
            return Some(Err(san::illegal(reason, spell(&legal).or_else(help))));
        }
        let fitting: Vec<Move> = matching
            .iter()
            .copied()
            .filter(|mv| !v.leaves_king_attacked(pos, mv))
            .collect();
        match fitting.as_slice() {
            [mv] => Some(Ok(*mv)),
            [] => {
                let mv = matching[0];
                let reason = if v.role(victim.kind) == Role::King {
                    let mut after = pos.clone();
                    v.play(&mut after, &mv);
                    let by: Vec<String> = after
                        .attackers(v, mv.from, us.other(), after.occupied())
                        .map(|sq| san::describe(v, &after, sq))
                        .collect();
                    format!(
                        "the {us} king put on {} would be in check from {} (SX-3)",
                        g.name(mv.from),
                        san::list(&by)
                    )
                } else {
                    format!(
                        "{} (the piece put back counts too, SX-3)",
                        san::king_exposed(v, pos, &mv)
                    )
                };
                Some(Err(san::illegal(reason, spell(&legal).or_else(help))))
            }
            several => Some(Err(san::ambiguous(v, pos, several))),
        }
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Swapping Knights",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('N', 1)]),
    rulings: &[
        "SX-1", "SX-2", "SX-3", "SX-4", "SX-5", "SX-6", "SX-7", "EC-2",
    ],
    page: "docs/rules/event-122-swapping-knights.md",
};

impl Event for SwappingKnights {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// `Nxg2@f4`: the square the piece taken goes to, written beside #23 (SX-7).
    fn reads(&self, form: Form) -> bool {
        form == Form::CapturedTo
    }

    /// SX-5: a pawn on its own first or second rank may always step two.
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
        own_captures(v, pos, from, to, out);
    }

    /// The knight lands on the own piece's square and that piece, with its marks, goes
    /// to the square the knight left, a pawn on its last rank promoting (SX-1, SX-2).
    /// Castling rights go with both squares and a king put back (SX-2). Nothing leaves
    /// the board, so nothing counts as captured (SX-4), but the fifty-move count starts
    /// again.
    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let victim = pos.lift(mv.to).expect("an own piece taken");
        pos.relocate(mv.from, mv.to);
        if v.role(victim.piece.kind) == Role::King
            && let Some(castling) = v.castling
        {
            let rank = v
                .geometry
                .rank_mask(castling.rank[victim.piece.color.index()]);
            pos.set_castling(pos.castling & !rank);
        }
        // SX-6: an own capture is a knight move, which may turn the knight (DK-4, LK-8).
        if mv.faces.is_some() {
            super::knight_facings::set_facing(pos, mv.to, mv.faces);
        }
        match mv.promotion {
            None => pos.place(mv.from, victim),
            Some(kind) => pos.put(
                mv.from,
                Piece {
                    color: victim.piece.color,
                    kind,
                },
            ),
        }
        pos.halfmoves = 0;
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        self.resolve_own_capture(v, pos, written)
    }

    /// `Nxe5`, `Ngxe5`, `Nxh7=Q`: the capture as SAN writes it, then the piece a pawn
    /// put on its last rank becomes.
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let mut out = String::from("N");
        let mut rivals = Vec::new();
        own_captures(
            v,
            pos,
            pos.pieces(mv.piece.color, mv.piece.kind) & !mv.from.bit(),
            mv.to.bit(),
            &mut rivals,
        );
        rivals.retain(|r| !v.leaves_king_attacked(pos, r));
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|r| g.file(r.from) == g.file(mv.from));
            let same_rank = rivals.iter().any(|r| g.rank(r.from) == g.rank(mv.from));
            if !same_file {
                out.push(char::from(b'a' + g.file(mv.from)));
            } else if !same_rank {
                out.push_str(&(g.rank(mv.from) + 1).to_string());
            } else {
                out.push_str(&g.name(mv.from));
            }
        }
        out.push('x');
        finish(v, pos, mv, &mut out);
        out
    }

    /// `Ng5xh7=Q`.
    fn lan(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let mut out = format!("N{}x", v.geometry.name(mv.from));
        finish(v, pos, mv, &mut out);
        out
    }
}

/// The target square, the piece a pawn put back becomes, and beside #23 the square the
/// piece taken goes to (`Nxg2@f4`, SX-7).
fn finish(v: &Variant, pos: &Position, mv: &Move, out: &mut String) {
    out.push_str(&v.geometry.name(mv.to));
    if let Some(kind) = mv.promotion {
        out.push('=');
        out.push(v.piece(kind).letter);
    }
    if hungry_horses_run(pos) {
        out.push('@');
        out.push_str(&v.geometry.name(mv.from));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn swapping(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&SwappingKnights, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn a_knight_takes_an_own_piece_which_goes_to_the_knights_square() {
        let v = event_chess();
        let pos = swapping("4k3/p7/8/4B3/8/5N2/8/4K3 w - - 0 1");
        let mv = resolve(&pos, "Nxe5").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &mv);
        assert_eq!(after.piece_at(sq("e5")).map(|p| p.kind), knight_kind(v));
        assert_eq!(
            after.piece_at(sq("f3")).map(|p| p.kind),
            v.kind_of_letter('B')
        );
        assert_eq!(after.captures, [0, 0], "SX-4");
        let unmarked = resolve(&pos, "Ne5").unwrap_err();
        assert!(unmarked.reason.contains("SX-1"), "{}", unmarked.reason);
    }

    #[test]
    fn a_pawn_put_on_its_last_rank_promotes() {
        let v = event_chess();
        let pos = swapping("5N2/k6P/8/8/8/8/p7/4K3 w - - 0 1");
        let missing = resolve(&pos, "Nxh7").unwrap_err();
        assert!(missing.reason.contains("SX-2"), "{}", missing.reason);
        let mv = resolve(&pos, "Nxh7=Q").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &mv);
        assert_eq!(
            after.piece_at(sq("f8")).map(|p| p.kind),
            v.kind_of_letter('Q')
        );
    }

    #[test]
    fn a_pawn_on_its_first_rank_steps_two() {
        let pos = swapping("4k3/p7/8/8/8/8/8/4KP2 w - - 0 1");
        let double = resolve(&pos, "f3").unwrap();
        assert_eq!(double.special, Special::DoubleStep, "SX-5");
    }

    #[test]
    fn beside_directional_knights_an_own_capture_may_turn_the_knight() {
        let v = event_chess();
        let directional = super::super::by_number(29).unwrap();
        let mut pos = parse_fen(v, "1n2k3/8/8/8/1B6/8/8/1N2K3 w - - 0 1").unwrap();
        pos.start_event(&SwappingKnights, Some(Color::White))
            .unwrap();
        pos.start_event(directional, Some(Color::Black)).unwrap();
        let command = crate::command::parse_event("29 Nb1->b2 Nb8->b7", 0).unwrap();
        let choices: Vec<crate::command::Choice> = command.choices.iter().map(|c| c.node).collect();
        directional.begin(v, &mut pos, &choices).unwrap();
        let mv = resolve(&pos, "Nxb4->c5").unwrap_or_else(|e| panic!("{}", e.reason));
        let mut after = pos.clone();
        v.play(&mut after, &mv);
        assert_eq!(
            directional.facing(&after, sq("b4")),
            Some(crate::rules::Direction::ALL[1]),
            "SX-6: the knight now faces north-east"
        );
        let kept = resolve(&pos, "Nxb4").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &kept);
        assert_eq!(
            directional.facing(&after, sq("b4")),
            Some(crate::rules::Direction::ALL[0]),
            "SX-6: unwritten, it keeps facing north"
        );
    }

    #[test]
    fn beside_hungry_horses_the_swap_names_the_square_the_piece_goes_to() {
        let v = event_chess();
        let hungry = super::super::by_number(23).unwrap();
        let mut pos = parse_fen(v, "1n2k3/8/8/8/8/5N2/7P/4K3 w - - 0 1").unwrap();
        pos.start_event(&SwappingKnights, Some(Color::White))
            .unwrap();
        pos.start_event(hungry, Some(Color::Black)).unwrap();
        let swap = resolve(&pos, "Nxh2@f3").unwrap();
        assert_eq!(
            swap.special,
            Special::Event {
                number: NUMBER,
                data: 0
            }
        );
        assert_eq!(san::san(v, &pos, &swap), "Nxh2@f3", "SX-7");
        let eaten = resolve(&pos, "Nxh2").unwrap();
        assert_ne!(
            eaten.special, swap.special,
            "SX-7: the plain capture is #23's"
        );
        let wrong = resolve(&pos, "Nxh2@g1").unwrap_err();
        assert!(wrong.reason.contains("SX-7"), "{}", wrong.reason);
    }

    #[test]
    fn beside_callback_orders_the_at_form_is_its_return() {
        let v = event_chess();
        let callback = super::super::by_number(126).unwrap();
        let mut pos = parse_fen(v, "4k3/3n4/1p6/8/8/8/8/4K3 b - - 0 1").unwrap();
        pos.start_event(&SwappingKnights, Some(Color::White))
            .unwrap();
        pos.start_event(callback, Some(Color::Black)).unwrap();
        // The pawn back on d7 either way: the `@` form is #126's, the plain one #122's.
        let returned = resolve(&pos, "Nxb6@d7").unwrap();
        assert!(
            matches!(returned.special, Special::Event { number: 126, .. }),
            "SX-7: {:?}",
            returned.special
        );
        assert_eq!(san::san(v, &pos, &returned), "Nxb6@d7");
        let swap = resolve(&pos, "Nxb6").unwrap();
        assert!(matches!(
            swap.special,
            Special::Event { number: NUMBER, .. }
        ));
        assert_eq!(san::san(v, &pos, &swap), "Nxb6");
    }
}
