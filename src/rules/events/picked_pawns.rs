//! A pawn each player picks when an event starts, given in its command or kept secret
//! until a move reveals it with `X@square`: #68's prince (PR-4), #58's princess (PS-1).
//! The event's first mark layer follows the pawns that may be the pick through their
//! moves (a pawn captured or promoted loses its mark); its slot says whose pick is known
//! and how many candidates each side had when the event started.

use crate::command::Choice;
use crate::diagnostic::{Code, Diagnostic};
use crate::notation::Square;
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{EventState, Moved, Overlay};
use crate::rules::piece::{Color, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

/// Bits of the slot's first word: whose pick is known. The event keeps bits 0 and 1 and
/// the last word for itself; words 1 and 2 count each side's candidates at the start.
const KNOWN: [u16; 2] = [4, 8];

/// The picks of one event.
pub(super) struct PickedPawns {
    /// The event that picks them.
    pub number: u16,
    /// What the rules call the pawn, one and several (`chosen pawn`, `chosen pawns`).
    pub noun: &'static str,
    pub nouns: &'static str,
    /// The ruling on picking, giving and revealing them (`PR-4`).
    pub ruling: &'static str,
    /// How the record must write a pick that comes out.
    pub wording: Wording,
}

/// What an event's record must say when a pick comes out, in the event's words;
/// `{owner}`, `{sq}` (where it comes out) and `{square}` (where the record says) are
/// filled in.
pub(super) struct Wording {
    /// The letter before `@` (`K`).
    pub letter: char,
    /// The label under the move (`a king capture`).
    pub label: &'static str,
    /// `X@` names another square than the pick's.
    pub wrong_square: &'static str,
    /// `X@` where the pick is gone.
    pub gone: &'static str,
    /// No `X@` where the pick is known and stands.
    pub missing: &'static str,
    /// No `X@` where the pick is secret but certainly stands (none of the owner's pawns
    /// has left the board).
    pub certain: &'static str,
}

impl PickedPawns {
    fn state(&self, pos: &Position) -> EventState {
        pos.event_state(self.number).copied().unwrap_or_default()
    }

    fn layer(&self, pos: &Position) -> Option<usize> {
        pos.mark_layer(self.number, 0)
    }

    fn mark(&self, pos: &mut Position, sq: Sq, on: bool) {
        if let Some(layer) = self.layer(pos) {
            pos.set_mark(layer, sq, on);
        }
    }

    fn set_known(&self, pos: &mut Position, color: Color) {
        let mut state = self.state(pos);
        state.words[0] |= KNOWN[color.index()];
        pos.set_event_state(self.number, state);
    }

    /// The pawns of `color` that may be its pick, followed as they move.
    pub fn candidates(&self, pos: &Position, color: Color) -> Bitboard {
        self.layer(pos).map_or(Bitboard::EMPTY, |layer| {
            pos.marked(layer) & pos.by_color(color)
        })
    }

    /// Whether the record has told `color`'s pick (the command or an `X@`).
    pub fn is_known(&self, pos: &Position, color: Color) -> bool {
        self.state(pos).words[0] & KNOWN[color.index()] != 0
    }

    /// `color`'s pick, when known and still on the board.
    pub fn picked(&self, pos: &Position, color: Color) -> Option<Sq> {
        self.is_known(pos, color)
            .then(|| self.candidates(pos, color).first())
            .flatten()
    }

    /// Whether `color`'s pick is secret and none of its pawns that stood when the event
    /// started has left the board, so that the pick certainly stands.
    pub fn none_gone(&self, pos: &Position, color: Color) -> bool {
        let started_with = self.state(pos).words[1 + color.index()];
        !self.is_known(pos, color)
            && started_with > 0
            && self.candidates(pos, color).count() == u32::from(started_with)
    }

    /// Every pawn on the board may be a pick until the command or an `X@` says which;
    /// the command gives one pawn of each side, White's first.
    pub fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        let pawns = Color::BOTH.map(|c| pos.with_role(v, c, Role::Pawn));
        for sq in pawns[0] | pawns[1] {
            self.mark(pos, sq, true);
        }
        let mut state = self.state(pos);
        state.words[1] = pawns[0].count() as u16;
        state.words[2] = pawns[1].count() as u16;
        pos.set_event_state(self.number, state);
        if choices.is_empty() {
            return Ok(());
        }
        let picked = self
            .picks_in(v, pos, choices)
            .map_err(|why| format!("{why}; the {} stay secret", self.nouns))?;
        // A `?` keeps its side's pick secret: every pawn of that side stays a candidate.
        for color in Color::BOTH {
            let Some(pick) = picked[color.index()] else {
                continue;
            };
            for sq in pawns[color.index()] {
                self.mark(pos, sq, sq == pick);
            }
            self.set_known(pos, color);
        }
        Ok(())
    }

    /// The picks of `[%event N c2 g7]`, one for each player; `?` for one kept secret.
    fn picks_in(
        &self,
        v: &Variant,
        pos: &Position,
        choices: &[Choice],
    ) -> Result<[Option<Sq>; 2], String> {
        let g = v.geometry;
        let number = self.number;
        let mut picked: [Option<Sq>; 2] = [None; 2];
        let secret = choices.iter().filter(|c| **c == Choice::Secret).count();
        for choice in choices.iter().filter(|c| **c != Choice::Secret) {
            let Choice::Square(square) = choice else {
                return Err(format!(
                    "`{choice}` is no square: #{number} takes the squares of the two {}",
                    self.nouns
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
                        "{square} holds {}, and each player chooses one of his pawns ({})",
                        san::describe_piece(v, pos, sq),
                        self.ruling
                    )
                })?;
            if picked[pawn.color.index()].replace(sq).is_some() {
                return Err(format!(
                    "two {} pawns are named, and each player chooses one pawn",
                    pawn.color
                ));
            }
        }
        match picked {
            _ if choices.len() == 2 && picked.iter().flatten().count() + secret == 2 => Ok(picked),
            _ => Err(format!(
                "#{number} takes two squares, the {} of each player, not {}",
                self.noun,
                choices.len()
            )),
        }
    }

    /// With `owner`'s pick secret, `X@square` says which it is: a pawn of `owner` that
    /// stood on the board when the event started.
    pub fn reveal(
        &self,
        v: &Variant,
        pos: &mut Position,
        owner: Color,
        square: Square,
        letter: char,
    ) -> Result<(), Rejection> {
        if self.is_known(pos, owner) {
            return Ok(());
        }
        let g = v.geometry;
        let sq = san::on_board(v, square)?;
        let pawns = self.candidates(pos, owner);
        if !pawns.contains(sq) {
            let candidates: Vec<String> = pawns.map(|s| g.name(s)).collect();
            return Err(san::illegal(
                format!(
                    "`{letter}@{square}` names the {owner} {}, but no {owner} pawn that stood on the board when the event started is on {square} ({})",
                    self.noun, self.ruling
                ),
                (!candidates.is_empty())
                    .then(|| format!("the {} is one of {}", self.noun, san::list(&candidates))),
            ));
        }
        for pawn in pawns {
            self.mark(pos, pawn, pawn == sq);
        }
        self.set_known(pos, owner);
        Ok(())
    }

    /// Each side's pick for the extended FEN: its square, `?` while secret, `x` gone.
    pub fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        Color::BOTH
            .into_iter()
            .map(|color| {
                match (
                    self.is_known(pos, color),
                    self.candidates(pos, color).first(),
                ) {
                    (false, _) => "?".to_owned(),
                    (true, Some(sq)) => v.geometry.name(sq),
                    (true, None) => "x".to_owned(),
                }
            })
            .collect()
    }

    /// Puts back the picks [`PickedPawns::write_fen`] wrote, the event just begun.
    pub fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let [white, black] = words[..] else {
            return Err(format!(
                "#{} takes a {} for each side (a square, ? or x)",
                self.number, self.noun
            ));
        };
        for (color, word) in Color::BOTH.into_iter().zip([white, black]) {
            if word == "?" {
                continue;
            }
            let picked = if word == "x" {
                None
            } else {
                Some(super::fen_square(v, word)?)
            };
            for pawn in self.candidates(pos, color) {
                self.mark(pos, pawn, Some(pawn) == picked);
            }
            if let Some(sq) = picked {
                self.mark(pos, sq, true);
            }
            self.set_known(pos, color);
        }
        Ok(())
    }

    /// Rings the known picks and says each side's: `chosen pawns: white c2, black secret`.
    pub fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) -> String {
        let g = v.geometry;
        let picks: Vec<String> = Color::BOTH
            .into_iter()
            .map(|color| {
                let pawns = self.candidates(pos, color);
                let which = if !self.is_known(pos, color) {
                    "secret".to_owned()
                } else if pawns.is_empty() {
                    // Captured, promoted, or already come out.
                    "none left".to_owned()
                } else {
                    out.singled_out.extend(pawns);
                    pawns.map(|sq| g.name(sq)).collect::<Vec<_>>().join(" ")
                };
                format!("{color} {which}")
            })
            .collect();
        let mut line = format!("{}: {}", self.nouns, picks.join(", "));
        if Color::BOTH.into_iter().any(|c| self.is_known(pos, c)) {
            line.push_str(" (marked @)");
        }
        line
    }

    /// Judges what a record writes after a move on which `owner`'s pick comes out on
    /// `comes_out` (or would, were it known and standing): `written` is the `X@` square
    /// the record gives. Pushes what it gets wrong; `false` when the line cannot go on
    /// (the record leaves out a secret pick that certainly stands).
    pub fn judge(
        &self,
        v: &Variant,
        moved: &Moved<'_>,
        owner: Color,
        written: Option<Square>,
        comes_out: Option<Sq>,
        out: &mut Vec<Diagnostic>,
    ) -> bool {
        let g = v.geometry;
        let wording = &self.wording;
        let letter = wording.letter;
        let fill = |text: &str, sq: Option<Sq>, square: Option<Square>| {
            text.replace("{owner}", owner.name())
                .replace("{sq}", &sq.map(|sq| g.name(sq)).unwrap_or_default())
                .replace(
                    "{square}",
                    &square.map(|s| s.to_string()).unwrap_or_default(),
                )
        };
        let (problem, goes_on) = match (written, comes_out) {
            (Some(square), Some(sq)) if g.from_square(square) == Some(sq) => return true,
            (Some(square), Some(sq)) => (fill(wording.wrong_square, Some(sq), Some(square)), true),
            (Some(square), None) => (fill(wording.gone, None, Some(square)), true),
            (None, Some(sq)) => (fill(wording.missing, Some(sq), None), true),
            (None, None) => {
                if !self.none_gone(moved.before, owner) {
                    return true;
                }
                let tail = match (moved.later)() {
                    0 => String::new(),
                    1 => "; the move after it in this line is not checked".to_owned(),
                    n => format!("; the {n} moves after it in this line are not checked"),
                };
                (
                    format!("{}{tail}", fill(wording.certain, None, None)),
                    false,
                )
            }
        };
        let at = (moved.at)();
        let help = if goes_on {
            format!("write `{}`", san::san(v, moved.before, moved.mv))
        } else {
            let squares: Vec<String> = self
                .candidates(moved.before, owner)
                .map(|sq| g.name(sq))
                .collect();
            format!(
                "append `{letter}@` and the {}'s square, one of {}",
                self.noun,
                squares.join(", ")
            )
        };
        out.push(
            Diagnostic::new(
                Code::EventChoice,
                moved.span,
                format!("`{}` at ply {}: {problem}", at.written, at.ply),
                wording.label,
            )
            .with_help(help)
            .at_move(at),
        );
        goes_on
    }
}
