//! Event #126 Callback Orders (catalogue; rulings CO-1 to CO-6 in
//! `docs/rules/event-126-callback-orders.md`): a player may capture his own pieces with
//! ordinary capturing moves; the piece taken is put back on an empty starting square of
//! its kind, which the move names after `@` (`Bxa6@b7`, `Rxg8@e8`). With none empty, the
//! capture is illegal.

use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Form};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct CallbackOrders;

const NUMBER: u16 = 126;

/// The starting squares of `piece`'s kind and colour (CO-2): where the variant's start
/// position has such a piece.
fn starting_squares(v: &Variant, piece: Piece) -> Bitboard {
    v.start_position().pieces(piece.color, piece.kind)
}

/// The square an own capture puts its piece back on (`Special::Event` data).
fn return_square(mv: &Move) -> Option<Sq> {
    match mv.special {
        Special::Event {
            number: NUMBER,
            data,
        } => u8::try_from(data).ok().map(Sq),
        _ => None,
    }
}

/// The own captures of the side to move from `from` onto squares in `to` (CO-1), once
/// per empty starting square the piece taken may go back to (CO-2) and per promotion;
/// pseudo-legal. None lands on a known passage square (CO-6).
fn own_captures(v: &Variant, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
    let us = pos.turn;
    let ours = pos.by_color(us);
    let occupied = pos.occupied();
    for sq in ours & from {
        let piece = pos.piece_at(sq).expect("our piece");
        // Where it captures, as the variant and the running events have it (#71).
        let attacks = v.reach(pos, sq, piece, occupied).attacks;
        for target in attacks & ours & to {
            let victim = pos.piece_at(target).expect("our piece");
            // The capturer's square is empty once it has moved; the victim's is not.
            let free = starting_squares(v, victim) & (!occupied | sq.bit()) & !target.bit();
            for back in free {
                let mv = Move {
                    piece,
                    from: sq,
                    to: target,
                    captured: None,
                    promotion: None,
                    special: Special::Event {
                        number: NUMBER,
                        data: back.0.into(),
                    },
                    faces: None,
                    swap: None,
                    returned: None,
                };
                if !super::landing_rerouted(v, pos, &mv, NUMBER) {
                    v.push_promotions(pos, mv, out);
                }
            }
        }
    }
}

impl CallbackOrders {
    /// Reads `Bxa6@b7` (CO-1, CO-2) and refuses a capture of an own piece written
    /// without `@` (CO-3); `None` for any other move.
    fn resolve_own_capture(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let us = pos.turn;
        let back = match written.placed {
            Some(placed) if placed.piece.is_none() => Some(placed.square),
            Some(_) => return None,
            None => None,
        };
        let (last, origin) = match written.targets.as_slice() {
            [last] => (last, None),
            [origin, last] if origin.separator == Separator::None => (last, Some(origin)),
            _ => return None,
        };
        let to = g.from_square(last.square)?;
        let victim = pos.piece_at(to).filter(|p| p.color == us);
        // Without `@`, only a written capture of an own piece is read as one: `Ng1->f2`
        // (#85) and `a8=Q` (#43) name a piece's own square.
        if back.is_none() && (victim.is_none() || last.separator != Separator::Capture) {
            return None;
        }
        let text = san::written(written);
        let help = || san::legal_help(v, pos, &text, None);
        let Some(victim) = victim else {
            // `@` after taking an enemy piece is another running event's to read (#3's
            // captured king, SV-4).
            if pos
                .events()
                .iter()
                .any(|e| e.number() != NUMBER && e.reads(Form::CapturedTo))
            {
                return None;
            }
            return Some(Err(san::illegal(
                format!(
                    "`@` after a capture puts back a piece of the mover's own that it took, and {} holds no {us} piece (CO-1)",
                    g.name(to)
                ),
                help(),
            )));
        };
        let mut from = san::hinted_origins(v, written.hint) & pos.by_color(us);
        if let Some(origin) = origin {
            from &= g.from_square(origin.square)?.bit();
        }
        let kind = match san::written_kind(v, written) {
            Ok(kind) => kind,
            Err(rejection) => return Some(Err(rejection)),
        };
        if let Some(kind) = kind.filter(|_| written.piece.is_some() || origin.is_none()) {
            from &= pos.by_kind(kind);
        }
        let promotion = match san::promotion_kind(v, pos, written, last.promotion) {
            Ok(kind) => kind,
            Err(rejection) => return Some(Err(rejection)),
        };
        // Through the generator, so that the choices other events attach come along
        // (#85: the direction a knight ends facing).
        let mut offered = Vec::new();
        v.pseudo_moves(pos, from, to.bit(), &mut offered);
        offered.retain(|mv| return_square(mv).is_some() && mv.promotion == promotion);
        let pseudo: Vec<Move> = offered
            .iter()
            .copied()
            .filter(|mv| san::choices_match(v, pos, written, mv))
            .collect();
        let legal: Vec<Move> = pseudo
            .iter()
            .copied()
            .filter(|mv| !v.leaves_king_attacked(pos, mv))
            .collect();
        let spell = |moves: &[Move]| -> Option<String> {
            let spellings: Vec<String> = moves.iter().map(|mv| self.san(v, pos, mv)).collect();
            (!spellings.is_empty()).then(|| format!("write {}", spellings.join(" or ")))
        };
        let taken = san::describe(v, pos, to);
        let starts = starting_squares(v, victim);
        let start_names: Vec<String> = starts.map(|sq| g.name(sq)).collect();
        let occupied = pos.occupied();
        let reaches = from.into_iter().any(|sq| {
            let piece = pos.piece_at(sq).expect("our piece");
            v.reach(pos, sq, piece, occupied).attacks.contains(to)
        });
        let no_room = || {
            san::illegal(
                format!(
                    "no starting square of {taken} is empty once the move is made ({} taken), so it cannot be captured (CO-2)",
                    san::list(&start_names)
                ),
                help(),
            )
        };
        let Some(back) = back else {
            if offered.is_empty() && reaches {
                return Some(Err(no_room()));
            }
            return Some(Err(san::illegal(
                format!(
                    "{taken} is the mover's own: taking it puts it back on an empty starting square of its kind, which the move names after `@` (CO-3)"
                ),
                spell(&legal).or_else(help),
            )));
        };
        let Some(back) = g.from_square(back) else {
            return Some(Err(san::illegal(
                format!("{back} is not on the board"),
                spell(&legal),
            )));
        };
        if let Some(mv) = legal.iter().find(|mv| return_square(mv) == Some(back)) {
            return Some(Ok(*mv));
        }
        let reason = if !starts.contains(back) {
            format!(
                "{} is not a starting square of {taken}: it goes back to {} (CO-2)",
                g.name(back),
                san::list(&start_names).replace(" and ", " or ")
            )
        } else if offered.is_empty() && reaches {
            return Some(Err(no_room()));
        } else if offered.is_empty() {
            format!("no {us} piece can take {taken} as written (CO-1)")
        } else if pseudo.is_empty() {
            format!(
                "`{text}` does not give the choices this move makes: a knight's direction (LK-8)"
            )
        } else if let Some(mv) = pseudo.iter().find(|mv| return_square(mv) == Some(back)) {
            let mut after = pos.clone();
            v.play(&mut after, mv);
            if v.role(victim.kind) == Role::King && after.is_attacked(v, back, us.other()) {
                let by: Vec<String> = after
                    .attackers(v, back, us.other(), after.occupied())
                    .map(|sq| san::describe(v, &after, sq))
                    .collect();
                format!(
                    "the {us} king sent back to {} would be in check from {} (CO-4)",
                    g.name(back),
                    san::list(&by)
                )
            } else {
                format!(
                    "{} (the piece put back counts too, CO-4)",
                    san::king_exposed(v, pos, mv)
                )
            }
        } else {
            format!(
                "the starting square {} is not empty, so {taken} cannot go back there (CO-2)",
                g.name(back)
            )
        };
        Some(Err(san::illegal(reason, spell(&legal).or_else(help))))
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Callback Orders",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["CO-1", "CO-2", "CO-3", "CO-4", "CO-5", "CO-6", "EC-2"],
    page: "docs/rules/event-126-callback-orders.md",
};

impl Event for CallbackOrders {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::CapturedTo
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

    /// The capturer lands on the victim's square and the victim, with its marks, goes
    /// back to the square the move names (CO-2); the core clears the castling rights of
    /// the squares left. Nothing leaves the board, so nothing counts as captured (CO-5),
    /// but the fifty-move count starts again.
    fn play_extra(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        let Some(back) = return_square(mv) else {
            return;
        };
        let victim = pos.lift(mv.to).expect("an own piece taken");
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
            }
        }
        if mv.faces.is_some() {
            super::knight_facings::set_facing(pos, mv.to, mv.faces);
        }
        pos.place(back, victim);
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

    /// `Bxa6@b7`, `cxb7@g2`: the capture as SAN writes it, then the square the piece
    /// taken goes back to.
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let g = v.geometry;
        let mut out = String::new();
        if v.role(mv.piece.kind) == Role::Pawn {
            out.push(char::from(b'a' + g.file(mv.from)));
        } else {
            out.push(v.piece(mv.piece.kind).letter);
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
        }
        out.push('x');
        self.finish(v, mv, &mut out);
        out
    }

    /// `Bf1xa6@b7`.
    fn lan(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        let mut out = String::new();
        if v.role(mv.piece.kind) != Role::Pawn {
            out.push(v.piece(mv.piece.kind).letter);
        }
        out.push_str(&v.geometry.name(mv.from));
        out.push('x');
        self.finish(v, mv, &mut out);
        out
    }

    fn placed(&self, v: &Variant, pos: &Position, mv: &Move) -> Option<(char, Sq)> {
        let back = return_square(mv)?;
        let victim = pos.piece_at(mv.to)?;
        Some((v.piece(victim.kind).letter, back))
    }
}

impl CallbackOrders {
    /// The target square, the promotion and `@` with the square the piece goes back to.
    fn finish(&self, v: &Variant, mv: &Move, out: &mut String) {
        let g = v.geometry;
        out.push_str(&g.name(mv.to));
        if let Some(kind) = mv.promotion {
            out.push('=');
            out.push(v.piece(kind).letter);
        }
        if let Some(back) = return_square(mv) {
            out.push('@');
            out.push_str(&g.name(back));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn callback(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&CallbackOrders, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn an_own_piece_taken_goes_back_to_an_empty_starting_square() {
        let v = event_chess();
        let pos = callback("4k3/8/8/8/8/B7/1P6/4KB2 w - - 0 1");
        let mv = resolve(&pos, "Bxb2@c2").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &mv);
        assert_eq!(
            after.piece_at(sq("b2")).map(|p| p.kind),
            v.kind_of_letter('B')
        );
        assert_eq!(after.piece_at(sq("c2")).map(|p| p.kind), v.tables.pawn);
        assert_eq!(after.captures, [0, 0], "CO-6: not a capture for EC-2");
        assert_eq!(san::san(v, &pos, &mv), "Bxb2@c2");
        let wrong = resolve(&pos, "Bxb2@c3").unwrap_err();
        assert!(wrong.reason.contains("CO-2"), "{}", wrong.reason);
        let bare = resolve(&pos, "Bxb2").unwrap_err();
        assert!(bare.reason.contains("CO-3"), "{}", bare.reason);
    }

    #[test]
    fn with_every_starting_square_taken_the_capture_is_illegal() {
        let pos = callback("4k3/8/8/8/8/B7/PPPPPPPP/4K3 w - - 0 1");
        let refused = resolve(&pos, "Bxb2@a2").unwrap_err();
        assert!(refused.reason.contains("CO-2"), "{}", refused.reason);
        let mut moves = Vec::new();
        event_chess().legal_moves(&pos, &mut moves);
        assert!(
            moves
                .iter()
                .filter(|mv| mv.to == sq("b2"))
                .all(|mv| return_square(mv).is_none())
        );
        // A pawn takes its own bishop diagonally forward, which goes back to c1 or f1.
        assert!(resolve(&pos, "bxa3@f1").is_ok());
    }

    #[test]
    fn a_piece_sent_back_has_no_castling_right() {
        let v = event_chess();
        let pos = callback("r3k2r/8/8/8/8/8/8/R3K1R1 w Qkq - 0 1");
        let refused = resolve(&pos, "Rxe1@e1").unwrap_err();
        assert!(refused.reason.contains("CO-2"), "{}", refused.reason);
        let pos = callback("4k3/p7/8/8/8/8/8/4K1QR w K - 0 1");
        let mv = resolve(&pos, "Qxh1@a1").unwrap();
        let mut after = pos.clone();
        v.play(&mut after, &mv);
        assert!(after.castling.is_empty(), "CO-2");
        assert_eq!(
            after.piece_at(sq("a1")).map(|p| p.kind),
            v.kind_of_letter('R')
        );
    }

    #[test]
    fn beside_directional_knights_an_own_capture_may_turn_the_knight() {
        // The facing the move carries is #29's too, not only #85's (DK-4).
        let v = event_chess();
        let directional = super::super::by_number(29).unwrap();
        let mut pos = parse_fen(v, "1n2k3/8/8/8/1B6/8/8/1N2K3 w - - 0 1").unwrap();
        pos.start_event(&CallbackOrders, Some(crate::rules::Color::White))
            .unwrap();
        pos.start_event(directional, Some(crate::rules::Color::Black))
            .unwrap();
        let command = crate::command::parse_event("29 Nb1->b2 Nb8->b7", 0).unwrap();
        let choices: Vec<crate::command::Choice> = command.choices.iter().map(|c| c.node).collect();
        directional.begin(v, &mut pos, &choices).unwrap();
        let mv = resolve(&pos, "Nxb4@c1->c5").unwrap_or_else(|e| panic!("{}", e.reason));
        let mut after = pos.clone();
        v.play(&mut after, &mv);
        assert_eq!(
            directional.facing(&after, sq("b4")),
            Some(crate::rules::Direction::ALL[1])
        );
    }
}
