//! Event #1 Check for allies (catalogue; rulings CA-1 to CA-9 in
//! `docs/rules/event-1-check-for-allies.md`): whenever a move gives check, the checked
//! player first puts one of the checking side's missing pieces back on an empty starting
//! square of its kind, his choice, then replies. The record writes the placement after
//! the checking move (`Bb5N@g1+`; `O-O,N@g1+` where the move's own form leaves no room).
//!
//! The placement is a choice carried by the checking move ([`Move::returned`]): the
//! generator lists the checking move once per square the ally may come back to, so mate
//! and stalemate count every placement with every reply (CA-2). Whether a reply exists
//! after a placement is asked on a copy its slot marks as a probe, where the event neither
//! offers placements nor holds them to CA-2: a reply exists there exactly when one
//! exists under the event, and the question does not nest.

use crate::notation::{MoveBody, Notation, PieceMove, Placement, Square};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Form};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection, RejectionKind};
use crate::rules::variant::Variant;

use super::turns;

pub struct CheckForAllies;

const NUMBER: u16 = 1;

/// The word of the slot that marks a copy on which only the existence of a reply is
/// asked.
const PROBING: usize = 0;

/// The letters of the pieces that may come back (a king never goes missing).
const LETTERS: &[u8] = b"PNBRQ";

static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Check for allies",
    aliases: &["Check for Allies"],
    types: &[],
    condition: Condition::NONE,
    rulings: &[
        "CA-1", "CA-2", "CA-3", "CA-4", "CA-5", "CA-6", "CA-7", "CA-8", "CA-9",
    ],
    page: "docs/rules/event-1-check-for-allies.md",
};

fn probing(pos: &Position) -> bool {
    pos.event_state(NUMBER)
        .is_some_and(|state| state.words[PROBING] != 0)
}

/// `pos` marked [`PROBING`].
fn probe(pos: &Position) -> Position {
    let mut copy = pos.clone();
    let mut state = copy.event_state(NUMBER).copied().unwrap_or_default();
    state.words[PROBING] = 1;
    copy.set_event_state(NUMBER, state);
    copy
}

/// The piece of `color` whose starting square `sq` is, as the variant's start position
/// has it (CA-5: every square has one kind).
fn home_piece(v: &Variant, color: Color, sq: Sq) -> Option<Piece> {
    v.start_position()
        .piece_at(sq)
        .filter(|p| p.color == color && v.role(p.kind) != Role::King)
}

/// Whether `color` has fewer pieces of `kind` than at the start (CA-1: a promotion makes
/// up for a loss).
fn missing(v: &Variant, pos: &Position, color: Color, kind: Kind) -> bool {
    pos.pieces(color, kind).count() < v.start_position().pieces(color, kind).count()
}

/// The squares a missing piece of `color` may come back to in `pos` (CA-1, CA-5): the
/// empty starting squares, left on the board (SB-2), of the kinds he is short of.
fn return_squares(v: &Variant, pos: &Position, color: Color) -> Bitboard {
    let start = v.start_position();
    let mut squares = Bitboard::EMPTY;
    for index in 0..v.pieces.len() {
        let kind = Kind(index as u8);
        if v.role(kind) != Role::King && missing(v, pos, color, kind) {
            squares |= start.pieces(color, kind);
        }
    }
    squares & !pos.occupied() & !super::removed_squares(v, pos)
}

/// The squares an ally may come back to after `mv` of the side to move in `pos`: none
/// where it checks nobody or ends the game (CA-6), judged on the board before the ally
/// comes back.
fn due(v: &Variant, pos: &Position, mv: &Move) -> Bitboard {
    let mut after = pos.clone();
    v.play(
        &mut after,
        &Move {
            returned: None,
            ..*mv
        },
    );
    if after.is_check(v) && v.winner(&after).is_none() {
        return_squares(v, &after, pos.turn)
    } else {
        Bitboard::EMPTY
    }
}

/// Whether the checked player has a reply once the ally is back on `sq` (CA-2).
fn leaves_reply(v: &Variant, pos: &Position, mv: &Move, sq: Sq) -> bool {
    let mut after = probe(pos);
    v.play(
        &mut after,
        &Move {
            returned: Some(sq),
            ..*mv
        },
    );
    v.has_legal_move(&after)
}

/// The placements due after `mv`, and those of them that leave the checked player a
/// reply.
fn placements(v: &Variant, pos: &Position, mv: &Move) -> (Bitboard, Bitboard) {
    let squares = due(v, pos, mv);
    let replying = squares
        .into_iter()
        .filter(|&sq| leaves_reply(v, pos, mv, sq))
        .fold(Bitboard::EMPTY, |bb, sq| bb | sq.bit());
    (squares, replying)
}

/// The placements the checked player may make after `mv` (CA-2): those that leave him a
/// reply, or all of them where none does.
fn choices(v: &Variant, pos: &Position, mv: &Move) -> Bitboard {
    let (squares, replying) = placements(v, pos, mv);
    if replying.is_empty() {
        squares
    } else {
        replying
    }
}

/// The letter and square of a placement as written: `N@g1` of `Bb5N@g1+`.
fn written_placement(placed: Option<Placement>) -> Option<(u8, Square)> {
    placed.and_then(|p| {
        p.piece
            .filter(|letter| LETTERS.contains(letter))
            .map(|letter| (letter, p.square))
    })
}

/// The placement a written move names, where it is written the event's way: `N@g1` after
/// a piece move, or `,N@g1` ending a turn.
fn written_of(notation: &Notation) -> Option<(u8, Square)> {
    match &notation.body {
        MoveBody::Piece(m) => written_placement(m.placed),
        MoveBody::Turn(parts) => match parts.last() {
            Some(MoveBody::Placement(placed)) => written_placement(Some(*placed)),
            _ => None,
        },
        _ => None,
    }
}

impl CheckForAllies {
    /// `m` with the ally the record names (`written`), or with the one placement possible
    /// where it names none (or the first where none leaves a reply: the game is over
    /// whichever is made); with several possible and none named, the move is ambiguous
    /// (CA-8).
    fn with_placement(
        &self,
        v: &Variant,
        pos: &Position,
        m: Move,
        written: Option<(u8, Square)>,
        text: &str,
    ) -> Result<Move, Rejection> {
        let g = v.geometry;
        let us = pos.turn;
        let squares = due(v, pos, &m);
        let Some((letter, square)) = written else {
            let (due_squares, replying) = placements(v, pos, &m);
            if replying.has_more_than_one() {
                return Err(ambiguous(v, pos, &m, replying));
            }
            return Ok(match replying.first().or(due_squares.first()) {
                Some(sq) => Move {
                    returned: Some(sq),
                    ..m
                },
                None => m,
            });
        };
        let plain = san::san_plain(v, pos, &m);
        let spelled = format!("{}@{square}", char::from(letter));
        let help = || san::legal_help(v, pos, text, None);
        if squares.is_empty() {
            let mut after = pos.clone();
            v.play(&mut after, &m);
            let reason = if let Some(winner) = v.winner(&after) {
                format!(
                    "`{spelled}`: `{plain}` wins the game for {winner} at once, so nothing comes back (CA-6)"
                )
            } else if after.is_check(v) {
                format!(
                    "`{spelled}`: after `{plain}` {us} is short of no piece whose starting square is empty, so nothing comes back (CA-1)"
                )
            } else {
                format!(
                    "`{spelled}` names an ally the checked player puts back, and `{plain}` gives no check (CA-1)"
                )
            };
            return Err(san::illegal(
                reason,
                Some(format!("write `{}`", san::san(v, pos, &m))),
            ));
        }
        let Some(sq) = g.from_square(square) else {
            return Err(san::illegal(
                format!("{square} is not on the board"),
                help(),
            ));
        };
        let options = choices(v, pos, &m);
        let spell_options = || {
            let spellings: Vec<String> = options
                .into_iter()
                .map(|sq| {
                    san::san(
                        v,
                        pos,
                        &Move {
                            returned: Some(sq),
                            ..m
                        },
                    )
                })
                .collect();
            Some(format!("write {}", spellings.join(" or ")))
        };
        let Some(home) = home_piece(v, us, sq) else {
            return Err(san::illegal(
                format!(
                    "`{spelled}`: {} is no starting square of a {us} piece, and an ally comes back only to one of its kind (CA-5)",
                    g.name(sq)
                ),
                spell_options(),
            ));
        };
        let name = &v.piece(home.kind).name;
        if v.piece(home.kind).letter != char::from(letter) {
            return Err(san::illegal(
                format!(
                    "`{spelled}`: {} is the starting square of a {us} {name}, and a piece comes back only to a starting square of its own kind (CA-5)",
                    g.name(sq)
                ),
                spell_options(),
            ));
        }
        if !squares.contains(sq) {
            let reason = if !missing(v, pos, us, home.kind) {
                format!(
                    "`{spelled}`: {us} has no fewer {name}s than at the start, so no {name} comes back: a promotion makes up for a loss (CA-1)"
                )
            } else {
                format!(
                    "`{spelled}`: {} is not empty once `{plain}` is made, so no {name} comes back there (CA-1)",
                    g.name(sq)
                )
            };
            return Err(san::illegal(reason, spell_options()));
        }
        if !options.contains(sq) {
            return Err(san::illegal(
                format!(
                    "`{spelled}` leaves {} no legal reply while another placement leaves one, so the checked player may not choose it (CA-2)",
                    us.other()
                ),
                spell_options(),
            ));
        }
        Ok(Move {
            returned: Some(sq),
            ..m
        })
    }
}

/// A checking move written without its ally where the checked player had several
/// placements to choose from (CA-8): the record does not say which move was made.
fn ambiguous(v: &Variant, pos: &Position, m: &Move, options: Bitboard) -> Rejection {
    let g = v.geometry;
    let spellings: Vec<String> = options
        .into_iter()
        .map(|sq| {
            san::san(
                v,
                pos,
                &Move {
                    returned: Some(sq),
                    ..*m
                },
            )
        })
        .collect();
    let names: Vec<String> = options.into_iter().map(|sq| g.name(sq)).collect();
    Rejection {
        kind: RejectionKind::Ambiguous,
        reason: format!(
            "`{}` gives check, so {} puts one of {}'s missing pieces back on an empty starting square of its kind before replying, and the record does not say where: {} are possible (CA-8)",
            san::san_plain(v, pos, m),
            pos.turn.other(),
            pos.turn,
            san::list(&names)
        ),
        help: Some(format!("write {}", spellings.join(" or "))),
    }
}

/// A written move with an ally that is refused because it leaves the mover's king
/// attacked: the refusal says that the ally, which comes after the move, does not shield
/// it (CA-3).
fn unshielded(v: &Variant, pos: &Position, written: &str, rejection: Rejection) -> Rejection {
    let all = v.geometry.all();
    let mut pseudo = Vec::new();
    v.pseudo_moves(&probe(pos), all, all, &mut pseudo);
    let exposes = pseudo
        .iter()
        .any(|mv| san::san_plain(v, pos, mv) == written && v.leaves_king_attacked(pos, mv));
    if !exposes {
        return rejection;
    }
    Rejection {
        reason: format!(
            "{}; the ally the check calls back comes only after the move and shields nothing (CA-3)",
            rejection.reason
        ),
        ..rejection
    }
}

/// Whether every other running event allows the checking move as it stands before the
/// ally comes back (CA-9: #86 judges the check the move gives, not the board the ally
/// leaves).
fn others_allow(v: &Variant, pos: &Position, bare: &Move) -> bool {
    pos.events()
        .into_iter()
        .filter(|e| e.number() != NUMBER)
        .all(|e| e.allows(v, pos, bare))
}

/// Whether another running event adds to the spelling of `mv` (`K@g7`, `->d6`), so that
/// the ally follows after a comma.
fn others_annotate(v: &Variant, pos: &Position, mv: &Move) -> bool {
    pos.events()
        .into_iter()
        .filter(|e| e.number() != NUMBER)
        .any(|event| {
            let mut text = String::new();
            event.annotate(v, pos, mv, &mut text);
            !text.is_empty()
        })
}

impl Event for CheckForAllies {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// `N@g1` after a piece move, and `O-O,N@g1` (a turn ending in the placement) where
    /// the move's own form leaves no room (CA-7).
    fn reads(&self, form: Form) -> bool {
        match form {
            Form::Appears(letter) | Form::AppearsAfter(letter) => LETTERS.contains(&letter),
            _ => false,
        }
    }

    /// CA-5: a rook on its starting square without the right may be one a check called
    /// back.
    fn why_no_castling(&self, v: &Variant, pos: &Position, color: Color) -> Option<&'static str> {
        let rook = v.kind_of_letter('R')?;
        let homes = v.start_position().pieces(color, rook) & pos.pieces(color, rook);
        (homes & !pos.castling)
            .nonempty()
            .then_some("the king or that rook has moved, or the rook was called back after a check, which brings no castling right (CA-5)")
    }

    /// Every checking move once per square an ally may come back to (CA-1, CA-4), once
    /// the other events have attached their choices (a knight's facing decides whether
    /// it checks); no placement between the parts of a turn, which checks only once it
    /// ends (CA-4).
    fn attach_outcomes(&self, v: &Variant, pos: &Position, out: &mut Vec<Move>, start: usize) {
        if probing(pos) || turns::between_parts(pos) {
            return;
        }
        let generated = out.split_off(start);
        for mv in generated {
            let squares = if mv.returned.is_none() {
                due(v, pos, &mv)
            } else {
                Bitboard::EMPTY
            };
            if squares.is_empty() {
                out.push(mv);
            }
            for sq in squares {
                out.push(Move {
                    returned: Some(sq),
                    ..mv
                });
            }
        }
    }

    /// CA-3: the checking move must leave its own king safe before the ally comes back;
    /// CA-2: the checked player may not choose a placement that leaves him no reply
    /// while another leaves one.
    fn allows(&self, v: &Variant, pos: &Position, mv: &Move) -> bool {
        let Some(sq) = mv.returned else {
            return true;
        };
        if probing(pos) {
            return true;
        }
        let bare = Move {
            returned: None,
            ..*mv
        };
        if v.leaves_king_attacked(pos, &bare) || !others_allow(v, pos, &bare) {
            return false;
        }
        leaves_reply(v, pos, mv, sq) || choices(v, pos, &bare).contains(sq)
    }

    fn why_refused(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let bare = Move {
            returned: None,
            ..*mv
        };
        if let Some(event) = pos
            .events()
            .into_iter()
            .find(|e| e.number() != NUMBER && !e.allows(v, pos, &bare))
        {
            return event.why_refused(v, pos, &bare);
        }
        if v.leaves_king_attacked(pos, &bare) {
            return format!(
                "`{}` leaves the mover's own king in check before the ally comes back, and the ally may not be what shields it (CA-3)",
                san::san_plain(v, pos, &bare)
            );
        }
        format!(
            "the placement leaves {} no legal reply while another placement leaves one, so the checked player may not choose it (CA-2)",
            pos.turn.other()
        )
    }

    /// The ally comes back once the check is judged (#4 counts the check even where the
    /// ally blocks it, CA-9), with no castling right (CA-5).
    fn after_move(&self, v: &Variant, pos: &mut Position, mv: &Move, _gives_check: bool) {
        let Some(sq) = mv.returned else {
            return;
        };
        let checker = pos.turn.other();
        if pos.piece_at(sq).is_none()
            && let Some(piece) = home_piece(v, checker, sq)
        {
            pos.put(sq, piece);
        }
    }

    /// The ally a check called back, for `--format json` (`N@g1`).
    fn placed(&self, v: &Variant, pos: &Position, mv: &Move) -> Option<(char, Sq)> {
        let sq = mv.returned?;
        home_piece(v, pos.turn, sq).map(|piece| (v.piece(piece.kind).letter, sq))
    }

    fn annotate(&self, v: &Variant, pos: &Position, mv: &Move, out: &mut String) {
        let Some(sq) = mv.returned else {
            return;
        };
        let Some(piece) = home_piece(v, pos.turn, sq) else {
            return;
        };
        // The suffix fits a piece move the orthodox way; any other form, one another
        // event adds to, or a letter another event reads after a move (#58's `Q@f7`)
        // takes the ally after a comma (CA-7).
        let letter = v.piece(piece.kind).letter;
        let read_elsewhere = u8::try_from(letter).is_ok_and(|byte| {
            pos.events()
                .iter()
                .any(|e| e.number() != NUMBER && e.reads(Form::Appears(byte)))
        });
        let plain = matches!(
            mv.special,
            Special::Normal | Special::DoubleStep | Special::EnPassant | Special::Pass { .. }
        ) && !read_elsewhere
            && !others_annotate(v, pos, mv);
        if !plain {
            out.push(',');
        }
        out.push(letter);
        out.push('@');
        out.push_str(&v.geometry.name(sq));
    }

    fn annotate_turn(&self, v: &Variant, pos: &Position, mv: &Move, out: &mut String) {
        if let Some(sq) = mv.returned
            && let Some(piece) = home_piece(v, pos.turn, sq)
        {
            out.push(',');
            out.push(v.piece(piece.kind).letter);
            out.push('@');
            out.push_str(&v.geometry.name(sq));
        }
    }

    /// Reads a piece move with or without `N@g1` (CA-7, CA-8): the move as the other
    /// events read it, then the ally.
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        if turns::between_parts(pos) {
            return None;
        }
        let placement = written_placement(written.placed).filter(|&(letter, _)| {
            !pos.events()
                .iter()
                .any(|e| e.number() != NUMBER && e.reads(Form::Appears(letter)))
        });
        if probing(pos) {
            // The move of `Nd6P@e2,P@d2`, read without its last ally, still names one.
            return placement.map(|_| {
                Err(san::illegal(
                    "a check calls back one ally, even a double check (CA-4)".to_owned(),
                    None,
                ))
            });
        }
        let stripped = PieceMove {
            placed: if placement.is_some() {
                None
            } else {
                written.placed
            },
            ..written.clone()
        };
        let text = san::written(written);
        let base_text = san::written(&stripped);
        let base = Notation {
            body: MoveBody::Piece(stripped),
            check: None,
            assessment: None,
        };
        Some(
            san::resolve(v, &probe(pos), &base)
                .map_err(|rejection| match placement {
                    Some(_) => unshielded(v, pos, &base_text, rejection),
                    None => rejection,
                })
                .and_then(|m| self.with_placement(v, pos, m, placement, &text)),
        )
    }

    /// Reads a move in any form followed by `,N@g1` (CA-7): `O-O,N@g1`, `R@h8,N@g1`,
    /// `e4,d4,N@g1`; `None` for a turn that does not end so.
    fn resolve_turn(
        &self,
        v: &Variant,
        pos: &Position,
        written: &Notation,
    ) -> Option<Result<Move, Rejection>> {
        if probing(pos) || turns::between_parts(pos) {
            return None;
        }
        let MoveBody::Turn(parts) = &written.body else {
            return None;
        };
        if let Some(MoveBody::Placement(first)) = parts.first()
            && written_of(written).is_none()
            && let Some((letter, square)) = written_placement(Some(*first))
        {
            return Some(Err(san::illegal(
                format!(
                    "`{}@{square}` before a reply is how a forum post names the ally it puts back; the record writes it after the checking move instead (CA-7)",
                    char::from(letter)
                ),
                Some(format!(
                    "append `{}@{square}` to the move that gave check, and write the reply alone",
                    char::from(letter)
                )),
            )));
        }
        let placement = written_of(written)?;
        let rest = &parts[..parts.len() - 1];
        let body = match rest {
            [one] => one.clone(),
            _ => MoveBody::Turn(rest.into()),
        };
        let base = Notation {
            body,
            check: None,
            assessment: None,
        };
        let text = Notation {
            body: written.body.clone(),
            check: None,
            assessment: None,
        }
        .to_string();
        Some(
            san::resolve(v, &probe(pos), &base)
                .and_then(|m| self.with_placement(v, pos, m, Some(placement), &text)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    fn with_allies(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&CheckForAllies, None).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    /// The legal checking moves of `pos` that call an ally back, in canonical SAN, sorted.
    fn checks(pos: &Position) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        let mut sans: Vec<String> = moves
            .iter()
            .filter(|mv| mv.returned.is_some())
            .map(|mv| san::san(v, pos, mv))
            .collect();
        sans.sort();
        sans
    }

    #[test]
    fn a_check_is_listed_once_per_square_an_ally_may_come_back_to() {
        // White is short of a knight (g1 empty, b1 taken) and a pawn (e2 empty).
        let pos = with_allies("4k3/8/8/8/8/8/PPPP1PPP/RNBQKB1R w KQ - 0 1");
        assert_eq!(
            checks(&pos),
            ["Bb5N@g1+", "Bb5P@e2+", "Qe2N@g1+", "Qh5N@g1+", "Qh5P@e2+"]
        );
    }

    #[test]
    fn only_placements_that_leave_a_reply_are_offered_while_one_does() {
        // CA-2: only the pawn back on h2 blocks the rook; with a black pawn to move, it
        // is the one choice.
        let pos = with_allies("1R6/p7/8/8/8/8/5K2/7k w - - 0 1");
        assert!(checks(&pos).contains(&"Rh8P@h2".to_owned()));
        assert!(!checks(&pos).iter().any(|san| san.starts_with("Rh8N")));
        // Without it no placement leaves a reply: every one is offered.
        let bare = with_allies("1R6/8/8/8/8/8/5K2/7k w - - 0 1");
        let rook_checks: Vec<String> = checks(&bare)
            .into_iter()
            .filter(|san| san.starts_with("Rh8"))
            .collect();
        assert!(
            rook_checks.contains(&"Rh8N@g1#".to_owned()),
            "{rook_checks:?}"
        );
        assert!(
            rook_checks.contains(&"Rh8P@h2".to_owned()),
            "{rook_checks:?}"
        );
    }

    #[test]
    fn the_ally_comes_back_as_written_without_castling_right_and_steps_two() {
        let v = event_chess();
        let mut pos = with_allies("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let check = resolve(&pos, "Qe2R@h1+").unwrap();
        assert_eq!(check.returned, Some(sq("h1")));
        v.play(&mut pos, &check);
        assert_eq!(pos.piece_at(sq("h1")).map(|p| p.color), Some(Color::White));
        assert!(!pos.castling.contains(sq("h1")), "no castling right (CA-5)");
        let mut pos = with_allies("4k3/8/8/8/8/3B4/8/4K3 w - - 0 1");
        for token in ["Bb5P@e2+", "Kf7"] {
            let mv = resolve(&pos, token).unwrap();
            v.play(&mut pos, &mv);
        }
        let double = resolve(&pos, "e4").unwrap();
        assert_eq!(double.special, Special::DoubleStep);
    }

    #[test]
    fn a_written_ally_must_fit_the_check() {
        let pos = with_allies("4k3/8/8/8/8/8/PPPP1PPP/RNBQKB1R w KQ - 0 1");
        for (token, ruling) in [
            ("Bb5Q@d1+", "CA-1"),
            ("Nc3N@g1", "CA-1"),
            ("Bb5B@g1+", "CA-5"),
            ("Bb5N@b1+", "CA-1"),
        ] {
            let refused = resolve(&pos, token).unwrap_err();
            assert!(
                refused.reason.contains(ruling),
                "{token}: {}",
                refused.reason
            );
        }
        // Left out with two placements possible, the move is ambiguous (CA-8).
        let left_out = resolve(&pos, "Bb5+").unwrap_err();
        assert_eq!(left_out.kind, RejectionKind::Ambiguous);
        assert!(left_out.reason.contains("CA-8"), "{}", left_out.reason);
    }
}
