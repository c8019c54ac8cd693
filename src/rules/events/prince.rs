//! Event #68 Prince (seed 003, rulings PR-1 to PR-5): kings cannot be checked until their
//! player loses one; a captured king comes back on the owner's chosen pawn (`Qxf7K@g7`),
//! and with that pawn gone, losing the king loses the game.

use crate::command::Choice;
use crate::diagnostic::{Code, Diagnostic};
use crate::notation::{MoveBody, Notation, PieceMove};
use crate::rules::board::Bitboard;
use crate::rules::board::Sq;
use crate::rules::event::EventState;
use crate::rules::event::{
    Condition, Event, EventInfo, EventType, Follower, Moved, Overlay, Suffix,
};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct Prince;

/// The event's number.
const NUMBER: u16 = 68;

/// What a position knows of the event, per colour (PR-1, PR-4), kept in its
/// [`EventState`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Princes {
    /// Whether the player has lost a king, so that his king can now be checked (PR-1).
    pub checkable: [bool; 2],
    /// Whether the chosen pawn is known (given by the event command or revealed by `K@`);
    /// the pawns that may be the chosen one carry the event's mark: the one chosen pawn
    /// when known, every pawn that stood at the event's start while secret.
    pub known: [bool; 2],
    /// How many pawns could be the chosen one when the event started: fewer candidates
    /// now means some are gone (captured or promoted).
    pub started_with: [u8; 2],
}

impl Princes {
    fn load(state: &EventState) -> Princes {
        let flags = state.words[0];
        Princes {
            checkable: [flags & 1 != 0, flags & 2 != 0],
            known: [flags & 4 != 0, flags & 8 != 0],
            started_with: [state.words[1], state.words[2]].map(|n| n as u8),
        }
    }

    fn store(self) -> EventState {
        let bit = |on: bool, value: u16| if on { value } else { 0 };
        EventState {
            boards: [Bitboard::EMPTY; 2],
            words: [
                bit(self.checkable[0], 1)
                    | bit(self.checkable[1], 2)
                    | bit(self.known[0], 4)
                    | bit(self.known[1], 8),
                u16::from(self.started_with[0]),
                u16::from(self.started_with[1]),
                0,
            ],
        }
    }

    /// The pawns of `color` that may be its chosen one (PR-4), followed as they move.
    pub fn pawns(pos: &Position, color: Color) -> Bitboard {
        chosen_layer(pos).map_or(Bitboard::EMPTY, |layer| {
            pos.marked(layer) & pos.by_color(color)
        })
    }
}

/// What `pos` knows of the event, while it runs.
pub fn princes(pos: &Position) -> Option<Princes> {
    pos.event_state(NUMBER).map(Princes::load)
}

fn set_princes(pos: &mut Position, princes: Princes) {
    pos.set_event_state(NUMBER, princes.store());
}

/// The mark layer of the pawns that may be chosen ones.
fn chosen_layer(pos: &Position) -> Option<usize> {
    pos.mark_layer(NUMBER, 0)
}

/// Marks or unmarks the pawn on `sq` as one that may be chosen.
fn mark_chosen(pos: &mut Position, sq: Sq, on: bool) {
    if let Some(layer) = chosen_layer(pos) {
        pos.set_mark(layer, sq, on);
    }
}

/// The king `mv` captures in `pos`, at its target or, through a passage, at the entry
/// (EC-9, EC-11: a capture at the entry is a capture too); none when a facing knight
/// swaps in to be captured instead (#85, LK-2).
pub fn captured_king(v: &Variant, pos: &Position, mv: &Move) -> Option<Piece> {
    let is_king = |p: &Piece| v.role(p.kind) == Role::King;
    mv.entry_capture_square(v, pos)
        .and_then(|sq| pos.piece_at(sq))
        .filter(is_king)
        .or(mv.captured.filter(is_king))
        .filter(|_| mv.swap.is_none())
}

/// Where the king `mv` captures in `pos` comes back: the owner's chosen pawn, when known
/// and still on the board (PR-2).
pub fn replacement(v: &Variant, pos: &Position, mv: &Move) -> Option<Sq> {
    princes(pos)?;
    comes_back_on(pos, captured_king(v, pos, mv)?.color)
}

/// The chosen pawn of `owner`, when known and still on the board (PR-2).
fn comes_back_on(pos: &Position, owner: Color) -> Option<Sq> {
    princes(pos)?.known[owner.index()]
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

/// Reads king captures in a record (PR-2, PR-4): `K@` must name the square where the king
/// comes back, and be left out only when the chosen pawn is gone.
struct PrinceFollower;

impl Follower for PrinceFollower {
    fn fork(&self, _ply: usize) -> Box<dyn Follower> {
        Box::new(PrinceFollower)
    }

    /// `false` when the line cannot go on: the record leaves out which secret pawn
    /// became the king.
    fn follow(&mut self, v: &Variant, moved: &Moved<'_>, out: &mut Vec<Diagnostic>) -> bool {
        let g = v.geometry;
        let Moved {
            before,
            mv,
            written,
            span,
            ..
        } = *moved;
        // At the target or a passage entry (EC-9, EC-11), unless a knight swaps in (LK-2).
        let (Some(princes), Some(captured)) = (princes(before), captured_king(v, before, mv))
        else {
            return true;
        };
        let owner = captured.color;
        let king_at = match &written.body {
            MoveBody::Piece(m) => m.king_at,
            _ => None,
        };
        let comes_back = replacement(v, before, mv);
        let right = san::san(v, before, mv);
        let (problem, goes_on) = match (king_at, comes_back) {
            (Some(square), Some(sq)) if g.from_square(square) == Some(sq) => return true,
            (Some(square), Some(sq)) => (
                format!(
                    "the {owner} king comes back on {}, where the chosen {owner} pawn stands, not on {square} (PR-2)",
                    g.name(sq)
                ),
                true,
            ),
            (Some(_), None) => (
                format!(
                    "the chosen {owner} pawn is no longer on the board, so capturing the king ends the game and no king comes back (PR-2)"
                ),
                true,
            ),
            (None, Some(sq)) => (
                format!(
                    "the {owner} king comes back on the chosen pawn on {}: without `K@{}` the record claims the game ended here (PR-2)",
                    g.name(sq),
                    g.name(sq)
                ),
                true,
            ),
            (None, None) => {
                let index = owner.index();
                let none_gone = !princes.known[index]
                    && princes.started_with[index] > 0
                    && Princes::pawns(before, owner).count()
                        == u32::from(princes.started_with[index]);
                if !none_gone {
                    return true;
                }
                let tail = match (moved.later)() {
                    0 => String::new(),
                    1 => "; the move after it in this line is not checked".to_owned(),
                    n => format!("; the {n} moves after it in this line are not checked"),
                };
                (
                    format!(
                        "no {owner} pawn has left the board since the event started, so the chosen one still stands and the king comes back on it: the record must say where, with `K@square` (PR-2, PR-4){tail}"
                    ),
                    false,
                )
            }
        };
        let at = (moved.at)();
        let help = if goes_on {
            format!("write `{right}`")
        } else {
            let squares: Vec<String> = Princes::pawns(before, owner).map(|sq| g.name(sq)).collect();
            format!(
                "append `K@` and the chosen pawn's square, one of {}",
                squares.join(", ")
            )
        };
        out.push(
            Diagnostic::new(
                Code::EventChoice,
                span,
                format!("`{}` at ply {}: {problem}", at.written, at.ply),
                "a king capture",
            )
            .with_help(help)
            .at_move(at),
        );
        goes_on
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Prince",
    aliases: &[],
    types: &[EventType::RemoveCheck],
    condition: Condition::pieces_each(&[('K', 1)]),
    rulings: &["PR-1", "PR-2", "PR-3", "PR-4", "PR-5", "EC-8"],
    page: "docs/rules/event-68-prince.md",
};

impl Event for Prince {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, suffix: Suffix) -> bool {
        suffix == Suffix::KingAt
    }

    fn takes_choices(&self) -> bool {
        true
    }

    fn captures_kings(&self) -> bool {
        true
    }

    fn follower(&self, _: &Variant, _: &Position, _: usize) -> Option<Box<dyn Follower>> {
        Some(Box::new(PrinceFollower))
    }

    /// PR-5: a king made from a pawn never castles; its player is the one who lost one.
    fn why_no_castling(&self, _v: &Variant, pos: &Position, color: Color) -> Option<&'static str> {
        princes(pos)
            .is_some_and(|p| p.checkable[color.index()])
            .then_some("its king was made from a pawn, and such a king never castles (PR-5)")
    }

    /// Each side's chosen pawn (`?` secret, `x` gone), then `+w`/`+b` for a side whose
    /// king can now be checked (PR-1).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let Some(princes) = princes(pos) else {
            return Vec::new();
        };
        let mut words = Vec::new();
        for color in Color::BOTH {
            let pawns = Princes::pawns(pos, color);
            words.push(match (princes.known[color.index()], pawns.first()) {
                (false, _) => "?".to_owned(),
                (true, Some(sq)) => v.geometry.name(sq),
                (true, None) => "x".to_owned(),
            });
        }
        for (color, flag) in Color::BOTH.into_iter().zip(["+w", "+b"]) {
            if princes.checkable[color.index()] {
                words.push(flag.to_owned());
            }
        }
        words
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        self.begin(v, pos, &[])?;
        let mut princes = princes(pos).expect("just begun");
        let pawns: Vec<&str> = words
            .iter()
            .copied()
            .filter(|w| !w.starts_with('+'))
            .collect();
        let [white, black] = pawns[..] else {
            return Err("#68 takes a chosen pawn for each side (a square, ? or x)".to_owned());
        };
        for (color, word) in Color::BOTH.into_iter().zip([white, black]) {
            if word == "?" {
                continue;
            }
            let chosen = if word == "x" {
                None
            } else {
                Some(super::fen_square(v, word)?)
            };
            for pawn in Princes::pawns(pos, color) {
                mark_chosen(pos, pawn, Some(pawn) == chosen);
            }
            if let Some(sq) = chosen {
                mark_chosen(pos, sq, true);
            }
            princes.known[color.index()] = true;
        }
        for word in words.iter().filter_map(|w| w.strip_prefix('+')) {
            match word {
                "w" => princes.checkable[0] = true,
                "b" => princes.checkable[1] = true,
                _ => {
                    return Err(format!(
                        "`+{word}`: +w or +b marks a king that can be checked"
                    ));
                }
            }
        }
        set_princes(pos, princes);
        Ok(())
    }

    /// The known chosen pawns, marked `@`, and whose kings can be checked.
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let Some(princes) = princes(pos) else {
            return;
        };
        let g = v.geometry;
        let chosen: Vec<String> = Color::BOTH
            .into_iter()
            .map(|color| {
                let pawns = Princes::pawns(pos, color);
                let which = if !princes.known[color.index()] {
                    "secret".to_owned()
                } else if pawns.is_empty() {
                    // Captured, promoted, or already a king.
                    "none left".to_owned()
                } else {
                    out.singled_out.extend(pawns);
                    pawns.map(|sq| g.name(sq)).collect::<Vec<_>>().join(" ")
                };
                format!("{color} {which}")
            })
            .collect();
        let mut line = format!("chosen pawns: {}", chosen.join(", "));
        if princes.known.contains(&true) {
            line.push_str(" (marked @)");
        }
        let checkable: Vec<&str> = Color::BOTH
            .into_iter()
            .filter(|color| princes.checkable[color.index()])
            .map(Color::name)
            .collect();
        if !checkable.is_empty() {
            line.push_str("; kings that can be checked: ");
            line.push_str(&checkable.join(", "));
        }
        out.lines.push(line);
    }

    /// A pawn of each side (PR-4).
    fn random_choices(
        &self,
        v: &Variant,
        pos: &Position,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<String> {
        let [white, black] = Color::BOTH.map(|c| super::names(v, pos.with_role(v, c, Role::Pawn)));
        Some(format!(
            "{} {}",
            super::pick_one(&white, pick)?,
            super::pick_one(&black, pick)?
        ))
    }

    /// The pawns that may be chosen ones (PR-4).
    fn mark_layers(&self) -> usize {
        1
    }

    /// Who can be checked changes the rules (PR-1).
    fn state_key(&self, state: &EventState) -> u64 {
        let checkable = Princes::load(state).checkable;
        [0x5a1f_0e6c_93d2_47b1, 0xc2b7_3e19_6a0d_8f53]
            .into_iter()
            .zip(checkable)
            .filter(|&(_, on)| on)
            .fold(0, |key, (part, _)| key ^ part)
    }

    /// Every pawn on the board may be a chosen one until the command or a `K@` says
    /// which (PR-4).
    fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        let pawns = Color::BOTH.map(|c| pos.with_role(v, c, Role::Pawn));
        for sq in pawns[0] | pawns[1] {
            mark_chosen(pos, sq, true);
        }
        set_princes(
            pos,
            Princes {
                checkable: [false; 2],
                known: [false; 2],
                started_with: pawns.map(|bb| u8::try_from(bb.count()).unwrap_or(u8::MAX)),
            },
        );
        if choices.is_empty() {
            return Ok(());
        }
        let chosen = self
            .chosen(v, pos, choices)
            .map_err(|why| format!("{why}; the chosen pawns stay secret"))?;
        for sq in pawns[0] | pawns[1] {
            mark_chosen(pos, sq, chosen.contains(&sq));
        }
        let mut princes = princes(pos).expect("just set");
        princes.known = [true; 2];
        set_princes(pos, princes);
        Ok(())
    }

    /// PR-1: a king is free from check until its player has lost one.
    fn can_be_checked(&self, _v: &Variant, pos: &Position, _king: Sq, color: Color) -> bool {
        princes(pos).is_none_or(|p| p.checkable[color.index()])
    }

    /// Brings a captured king back on its owner's chosen pawn (PR-2, PR-5). The chosen
    /// pawns follow their moves by their marks, and lose them when captured or promoted.
    fn after_landing(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let Some(mut princes) = princes(pos) else {
            return;
        };
        // The move is played: a king it took at a passage entry is gone from the
        // board, so a king taken is the opponent left without one (EC-9, EC-11).
        let owner = mv.piece.color.other();
        let taken = mv.captured.filter(|p| v.role(p.kind) == Role::King);
        if mv.swap.is_some() || taken.is_none() && !pos.kings(v, owner).is_empty() {
            return;
        }
        princes.checkable[owner.index()] = true;
        if let Some(sq) = comes_back_on(pos, owner) {
            let kind = taken.map_or_else(
                || {
                    v.kinds_with(Role::King)
                        .next()
                        .expect("a king was captured")
                },
                |king| king.kind,
            );
            pos.remove(sq);
            pos.put(sq, Piece { color: owner, kind });
            // PR-5: no castling for a king made from a pawn.
            pos.set_castling(pos.castling & !pos.by_color(owner));
        }
        set_princes(pos, princes);
    }

    /// PR-2: a player left without a king has lost.
    fn winner(&self, v: &Variant, pos: &Position) -> Option<Color> {
        princes(pos)?;
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
        let (Some(square), Some(mut princes)) = (written.king_at, princes(pos)) else {
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
            mark_chosen(pos, pawn, pawn == sq);
        }
        princes.known[owner.index()] = true;
        set_princes(pos, princes);
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
        written.king_at?;
        let stripped = Notation {
            body: MoveBody::Piece(PieceMove {
                king_at: None,
                ..written.clone()
            }),
            check: None,
            assessment: None,
        };
        Some(match san::resolve(v, pos, &stripped) {
            Ok(mv) if captured_king(v, pos, &mv).is_some() => Ok(mv),
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

    fn placed(&self, v: &Variant, pos: &Position, mv: &Move) -> Option<(char, Sq)> {
        replacement(v, pos, mv).map(|sq| ('K', sq))
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
        mark_chosen(&mut pos, sq("a7"), false);
        let mut princes = princes(&pos).unwrap();
        princes.checkable[1] = true;
        set_princes(&mut pos, princes);
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
