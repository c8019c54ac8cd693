//! Event #68 Prince (seed 003, rulings PR-1 to PR-5): kings cannot be checked until their
//! player loses one; a captured king comes back on the owner's chosen pawn (`Qxf7K@g7`),
//! and with that pawn gone, losing the king loses the game.

use crate::command::Choice;
use crate::notation::{MoveBody, Notation, PieceMove};
use crate::rules::board::Sq;
use crate::rules::event::{Event, Form};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Role};
use crate::rules::position::{Position, Princes, mark};
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct Prince;

/// Whether `mv` captures a king: not when a facing knight swaps in to be captured
/// instead (#85, LK-2).
fn captures_king(v: &Variant, mv: &Move) -> bool {
    mv.swap.is_none() && mv.captured.is_some_and(|p| v.role(p.kind) == Role::King)
}

/// Where the king `mv` captures comes back: the owner's chosen pawn, when known and
/// still on the board (PR-2).
pub fn replacement(v: &Variant, pos: &Position, mv: &Move) -> Option<Sq> {
    let princes = pos.princes?;
    let owner = mv.captured.filter(|_| captures_king(v, mv))?.color;
    princes.known[owner.index()]
        .then(|| Princes::pawns(pos, owner).first())
        .flatten()
}

impl Prince {
    /// The chosen pawns of `[%event 68 c2 g7]`, one for each player (PR-4).
    fn chosen(&self, v: &Variant, pos: &Position, choices: &[Choice]) -> Result<[Sq; 2], String> {
        let g = v.geometry;
        let mut chosen: [Option<Sq>; 2] = [None; 2];
        for choice in choices {
            let Choice::Square(square) = choice else {
                return Err(format!(
                    "`{choice}` is no square: #68 takes the squares of the two chosen pawns"
                ));
            };
            let sq = g
                .from_square(*square)
                .ok_or_else(|| format!("{square} is not on the board"))?;
            let pawn = pos
                .piece_at(sq)
                .filter(|p| v.role(p.kind) == Role::Pawn)
                .ok_or_else(|| {
                    format!(
                        "{square} holds {}, and each player chooses one of his pawns (PR-4)",
                        san::describe_piece(v, pos, sq)
                    )
                })?;
            if chosen[pawn.color.index()].replace(sq).is_some() {
                return Err(format!(
                    "two {} pawns are named, and each player chooses one pawn",
                    pawn.color
                ));
            }
        }
        match chosen {
            [Some(white), Some(black)] => Ok([white, black]),
            _ => Err(format!(
                "#68 takes two squares, the chosen pawn of each player, not {}",
                choices.len()
            )),
        }
    }

    /// Why a king capture that the new king turns against the mover is illegal (PR-3).
    fn new_king_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Rejection> {
        let g = v.geometry;
        let us = pos.turn;
        let target = g.from_square(written.targets.last()?.square)?;
        let kind = san::written_kind(v, written).ok()?;
        let mut from = pos.by_color(us);
        if let Some(kind) = kind.filter(|_| written.piece.is_some()) {
            from &= pos.by_kind(kind);
        }
        let mut moves = Vec::new();
        v.pseudo_moves(pos, from, target.bit(), &mut moves);
        moves.into_iter().find_map(|mv| {
            let new_king = replacement(v, pos, &mv)?;
            let mut after = pos.clone();
            v.play(&mut after, &mv);
            let attacked = after.checkable_kings(v, us).find(|&king| {
                after
                    .direct_attackers(v, king, us.other(), after.occupied())
                    .contains(new_king)
            })?;
            Some(san::illegal(
                format!(
                    "the {} pawn on {} would become a king attacking the {us} king on {}, which can be checked: the capture is illegal (PR-3)",
                    us.other(),
                    g.name(new_king),
                    g.name(attacked)
                ),
                san::legal_help(v, pos, &san::written(written), None),
            ))
        })
    }
}

impl Event for Prince {
    fn number(&self) -> u16 {
        68
    }

    fn name(&self) -> &'static str {
        "Prince"
    }

    fn condition_text(&self) -> &'static str {
        "at least 1 king for each player"
    }

    fn rulings(&self) -> &'static str {
        "PR-1..PR-5, EC-8"
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Appears(b'K')
    }

    fn takes_choices(&self) -> bool {
        true
    }

    fn condition(&self, v: &Variant, pos: &Position) -> Result<(), String> {
        match Color::BOTH
            .into_iter()
            .find(|&c| pos.kings(v, c).is_empty())
        {
            Some(color) => Err(format!("{color} has no king")),
            None => Ok(()),
        }
    }

    /// Every pawn on the board may be a chosen one until the command or a `K@` says
    /// which (PR-4).
    fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        let pawns = Color::BOTH.map(|c| pos.with_role(v, c, Role::Pawn));
        for sq in pawns[0] | pawns[1] {
            pos.set_mark(mark::PRINCE, sq, true);
        }
        pos.set_princes(Princes {
            checkable: [false; 2],
            known: [false; 2],
            started_with: pawns.map(|bb| u8::try_from(bb.count()).unwrap_or(u8::MAX)),
        });
        if choices.is_empty() {
            return Ok(());
        }
        let chosen = self
            .chosen(v, pos, choices)
            .map_err(|why| format!("{why}; the chosen pawns stay secret"))?;
        for sq in pawns[0] | pawns[1] {
            pos.set_mark(mark::PRINCE, sq, chosen.contains(&sq));
        }
        let mut princes = pos.princes.expect("just set");
        princes.known = [true; 2];
        pos.set_princes(princes);
        Ok(())
    }

    /// PR-1: a king is free from check until its player has lost one.
    fn can_be_checked(&self, _v: &Variant, pos: &Position, _king: Sq, color: Color) -> bool {
        pos.princes.is_none_or(|p| p.checkable[color.index()])
    }

    /// Brings a captured king back on its owner's chosen pawn (PR-2, PR-5). The chosen
    /// pawns follow their moves by their marks, and lose them when captured or promoted.
    fn after_landing(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let Some(mut princes) = pos.princes else {
            return;
        };
        let Some(captured) = mv.captured.filter(|_| captures_king(v, mv)) else {
            return;
        };
        let owner = captured.color;
        princes.checkable[owner.index()] = true;
        if let Some(sq) = replacement(v, pos, mv) {
            pos.remove(sq);
            pos.put(sq, captured);
            // PR-5: no castling for a king made from a pawn.
            pos.set_castling(pos.castling & !pos.by_color(owner));
        }
        pos.set_princes(princes);
    }

    /// PR-2: a player left without a king has lost.
    fn winner(&self, v: &Variant, pos: &Position) -> Option<Color> {
        pos.princes?;
        Color::BOTH
            .into_iter()
            .find(|&c| pos.kings(v, c).is_empty())
            .map(Color::other)
    }

    /// PR-4: with the chosen pawn secret, `K@g7` says which it is.
    fn reveal(
        &self,
        v: &Variant,
        pos: &mut Position,
        written: &PieceMove,
    ) -> Result<(), Rejection> {
        let (Some(square), Some(mut princes)) = (written.king_at(), pos.princes) else {
            return Ok(());
        };
        let owner = pos.turn.other();
        if princes.known[owner.index()] {
            return Ok(());
        }
        let g = v.geometry;
        let sq = san::on_board(v, square)?;
        let pawns = Princes::pawns(pos, owner);
        if !pawns.contains(sq) {
            let candidates: Vec<String> = pawns.map(|s| g.name(s)).collect();
            return Err(san::illegal(
                format!(
                    "`K@{square}` names the {owner} pawn that becomes the king, but no {owner} pawn that stood on the board when the event started is on {square} (PR-4)"
                ),
                (!candidates.is_empty())
                    .then(|| format!("the chosen pawn is one of {}", san::list(&candidates))),
            ));
        }
        for pawn in pawns {
            pos.set_mark(mark::PRINCE, pawn, pawn == sq);
        }
        princes.known[owner.index()] = true;
        pos.set_princes(princes);
        Ok(())
    }

    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        if let Some(winner) = v.winner(pos) {
            return Some(Err(san::illegal(
                format!(
                    "the game is over: {winner} captured the {} king, and no chosen pawn was left to replace it (PR-2)",
                    winner.other()
                ),
                None,
            )));
        }
        written.king_at()?;
        let stripped = Notation {
            body: MoveBody::Piece(PieceMove {
                placed: None,
                ..written.clone()
            }),
            check: None,
            assessment: None,
        };
        Some(match san::resolve(v, pos, &stripped) {
            Ok(mv) if captures_king(v, &mv) => Ok(mv),
            Ok(mv) => Err(san::illegal(
                format!(
                    "`K@` follows only a move that captures a king (PR-2), and `{}` captures none",
                    san::san_plain(v, pos, &mv)
                ),
                Some(format!("write `{}`", san::san(v, pos, &mv))),
            )),
            Err(rejection) => Err(self.new_king_attacks(v, pos, written).unwrap_or(rejection)),
        })
    }

    fn annotate(&self, v: &Variant, pos: &Position, mv: &Move, out: &mut String) {
        if let Some(sq) = replacement(v, pos, mv) {
            out.push_str("K@");
            out.push_str(&v.geometry.name(sq));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Square;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    /// `fen` with #68 started, the chosen pawns given or (`None`) secret.
    fn with_princes(fen: &str, pawns: Option<[&str; 2]>) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&Prince, None).unwrap();
        let choices: Vec<Choice> = pawns
            .into_iter()
            .flatten()
            .map(|s| Choice::Square(Square::parse(s).unwrap()))
            .collect();
        Prince.begin(v, &mut pos, &choices).unwrap();
        pos
    }

    fn play(pos: &mut Position, written: &str) -> Move {
        let v = event_chess();
        let notation = Notation::parse(written).unwrap();
        if let MoveBody::Piece(m) = &notation.body {
            Prince.reveal(v, pos, m).unwrap();
        }
        let mv =
            san::resolve(v, pos, &notation).unwrap_or_else(|r| panic!("{written}: {}", r.reason));
        v.play(pos, &mv);
        mv
    }

    fn legal_sans(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        moves.iter().map(|mv| san::san_plain(v, pos, mv)).collect()
    }

    #[test]
    fn kings_cannot_be_checked_and_castle_through_attack() {
        // The black rook on f8 attacks f1, which the white king crosses castling short.
        let fen = "5rk1/8/8/8/8/8/8/4K2R w K - 0 1";
        let pos = with_princes(fen, None);
        let sans = legal_sans(&pos);
        assert!(sans.contains(&"O-O".to_owned()), "PR-1: {sans:?}");
        assert!(
            sans.contains(&"Kf1".to_owned()),
            "PR-1: into attack: {sans:?}"
        );
        let orthodox = parse_fen(event_chess(), fen).unwrap();
        assert!(!legal_sans(&orthodox).contains(&"O-O".to_owned()));
    }

    #[test]
    fn a_captured_king_comes_back_on_the_chosen_pawn() {
        let v = event_chess();
        // The black king steps into the queen's file (PR-1), and she takes it; black's
        // chosen pawn is g7.
        let mut pos = with_princes("3k4/6p1/8/8/8/8/2P5/4Q1K1 b - - 0 1", Some(["c2", "g7"]));
        play(&mut pos, "Ke7");
        let before = pos.clone();
        let mv = play(&mut pos, "Qxe7K@g7");
        assert_eq!(
            san::san(v, &before, &mv),
            "Qxe7K@g7+",
            "the new king is checked"
        );
        assert_eq!(pos.kings(v, Color::Black), sq("g7").bit());
        assert!(pos.is_check(v), "PR-1: a king from a pawn can be checked");
        assert_eq!(v.winner(&pos), None);
    }

    #[test]
    fn with_the_chosen_pawn_gone_the_capture_wins() {
        let v = event_chess();
        let mut pos = with_princes("3k4/8/8/8/8/8/2P5/4Q1K1 b - - 0 1", None);
        play(&mut pos, "Ke7");
        let mv = play(&mut pos, "Qxe7");
        assert_eq!(mv.captured.map(|p| v.role(p.kind)), Some(Role::King));
        assert_eq!(v.winner(&pos), Some(Color::White));
        assert!(legal_sans(&pos).is_empty(), "the game is over");
    }

    #[test]
    fn the_chosen_pawn_is_followed_and_revealed_by_k_at() {
        let v = event_chess();
        let mut pos = with_princes("3k4/6p1/8/8/8/8/2P5/4Q1K1 b - - 0 1", None);
        play(&mut pos, "g5");
        play(&mut pos, "c4");
        play(&mut pos, "Ke7");
        let notation = Notation::parse("Qxe7K@g7").unwrap();
        let MoveBody::Piece(m) = &notation.body else {
            unreachable!()
        };
        let refused = Prince.reveal(v, &mut pos.clone(), m).unwrap_err();
        assert!(refused.reason.contains("PR-4"), "{}", refused.reason);
        play(&mut pos, "Qxe7K@g5");
        assert_eq!(pos.kings(v, Color::Black), sq("g5").bit());
    }

    #[test]
    fn the_new_king_may_not_attack_a_checkable_king() {
        let v = event_chess();
        // Black has lost a king before (its king can be checked); white's chosen pawn on
        // f4 would become a king next to the black king on g4 (PR-3).
        let mut pos = with_princes("8/p7/8/8/3b1Pk1/8/K7/8 w - - 0 1", Some(["f4", "a7"]));
        pos.set_mark(mark::PRINCE, sq("a7"), false);
        let mut princes = pos.princes.unwrap();
        princes.checkable[1] = true;
        pos.set_princes(princes);
        play(&mut pos, "Kb2");
        let refused = san::resolve(v, &pos, &Notation::parse("Bxb2K@f4").unwrap()).unwrap_err();
        assert!(refused.reason.contains("PR-3"), "{}", refused.reason);
        assert!(!legal_sans(&pos).iter().any(|s| s.starts_with("Bxb2")));
    }

    #[test]
    fn the_condition_asks_for_a_king_each() {
        let v = event_chess();
        let pos = parse_fen(v, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(Prince.condition(v, &pos), Ok(()));
        // A FEN must have its kings, so the king goes after reading.
        let mut kingless = pos.clone();
        kingless.remove(sq("e8"));
        assert_eq!(
            Prince.condition(v, &kingless),
            Err("black has no king".to_owned())
        );
    }
}
