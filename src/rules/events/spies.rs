//! Event #16 Spies (catalogue; rulings SY-1 to SY-7 in `docs/rules/event-16-spies.md`):
//! each player secretly marks one enemy pawn as his spy, and once per game may, as his
//! whole move, turn it into a pawn of his own colour on its square (`@f7#`).

use crate::command::Choice;
use crate::diagnostic::{Code, Diagnostic, MoveRef};
use crate::notation::{CheckMark, MoveBody, Notation};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{
    Condition, Event, EventInfo, EventState, Follower, Form, Moved, Overlay,
};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;
use crate::span::Span;

pub struct Spies;

const NUMBER: u16 = 16;

/// Bits of the slot's first word, by the spy's master (White, Black): whose spy the record
/// has told (SY-1, SY-6), who has turned his (SY-2), who has moved since the event started
/// (SY-3).
const KNOWN: [u16; 2] = [1, 2];
const TURNED: [u16; 2] = [4, 8];
const MOVED: [u16; 2] = [16, 32];

fn state(pos: &Position) -> EventState {
    pos.event_state(NUMBER).copied().unwrap_or_default()
}

fn has(pos: &Position, bit: u16) -> bool {
    state(pos).words[0] & bit != 0
}

fn set(pos: &mut Position, bit: u16) {
    let mut state = state(pos);
    state.words[0] |= bit;
    pos.set_event_state(NUMBER, state);
}

/// The pawns that may be `master`'s spy: enemy pawns that stood on the board when the
/// event started, followed as they move (the event's mark layer); only the spy once the
/// record has told it (SY-1).
fn spies(pos: &Position, master: Color) -> Bitboard {
    pos.mark_layer(NUMBER, 0).map_or(Bitboard::EMPTY, |layer| {
        pos.marked(layer) & pos.by_color(master.other())
    })
}

fn mark(pos: &mut Position, sq: Sq, on: bool) {
    if let Some(layer) = pos.mark_layer(NUMBER, 0) {
        pos.set_mark(layer, sq, on);
    }
}

/// Makes the pawn on `sq` `master`'s one spy.
fn make_known(pos: &mut Position, master: Color, sq: Option<Sq>) {
    for pawn in spies(pos, master) {
        mark(pos, pawn, Some(pawn) == sq);
    }
    set(pos, KNOWN[master.index()]);
}

/// Whether each player has made a move since the event started, so spies may be turned
/// (SY-3).
fn both_moved(pos: &Position) -> bool {
    has(pos, MOVED[0]) && has(pos, MOVED[1])
}

fn turn_move(v: &Variant, us: Color, sq: Sq) -> Option<Move> {
    Some(Move {
        piece: Piece {
            color: us,
            kind: v.tables.pawn?,
        },
        from: sq,
        to: sq,
        captured: None,
        promotion: None,
        special: Special::Event {
            number: NUMBER,
            data: 0,
        },
        faces: None,
        swap: None,
        returned: None,
    })
}

/// `white's spy`, for messages.
fn whose(master: Color) -> String {
    format!("{master}'s spy")
}

/// Why the side to move may not turn a spy on `sq` at all, whatever the square holds.
fn why_not_now(pos: &Position) -> Option<String> {
    let us = pos.turn;
    if has(pos, TURNED[us.index()]) {
        return Some(format!(
            "{us} has already turned his spy: each player turns his once (SY-2)"
        ));
    }
    if !both_moved(pos) {
        let waiting: Vec<&str> = Color::BOTH
            .into_iter()
            .filter(|c| !has(pos, MOVED[c.index()]))
            .map(|c| c.name())
            .collect();
        return Some(format!(
            "a spy may be turned only once each player has made a move since the event started, and {} has not (SY-3)",
            waiting.join(" and ")
        ));
    }
    if has(pos, KNOWN[us.index()]) && spies(pos, us).is_empty() {
        return Some(format!(
            "{} is no longer on the board (captured or promoted), so {us} has no spy to turn (SY-1)",
            whose(us)
        ));
    }
    None
}

/// Reads `@f7`: the spy turned, or why not.
fn resolve_turning(v: &Variant, pos: &Position, written: &Notation) -> Result<Move, Rejection> {
    let g = v.geometry;
    let us = pos.turn;
    let MoveBody::Placement(placed) = &written.body else {
        return Err(san::illegal(
            "Spies reads only `@square`, a spy turned".to_owned(),
            None,
        ));
    };
    let help = || san::legal_help(v, pos, &written.to_string(), None);
    if let Some(why) = why_not_now(pos) {
        return Err(san::illegal(why, help()));
    }
    let sq = san::on_board(v, placed.square)?;
    let square = g.name(sq);
    let enemy_pawn = pos
        .piece_at(sq)
        .is_some_and(|p| p.color == us.other() && v.role(p.kind) == Role::Pawn);
    if !enemy_pawn {
        return Err(san::illegal(
            format!(
                "a spy is a {} pawn, and {} stands on {square} (SY-1)",
                us.other(),
                san::describe_piece(v, pos, sq)
            ),
            help(),
        ));
    }
    let candidates = spies(pos, us);
    if !candidates.contains(sq) {
        return Err(if has(pos, KNOWN[us.index()]) {
            let spy = candidates.first().map(|s| g.name(s)).unwrap_or_default();
            san::illegal(
                format!("{} stands on {spy}, not on {square} (SY-7)", whose(us)),
                Some(format!("write `@{spy}`")),
            )
        } else {
            san::illegal(
                format!(
                    "`@{square}` names {}, but the {} pawn on {square} did not stand on the board as a {} pawn when the event started, so it cannot be {us}'s spy (SY-6)",
                    whose(us),
                    us.other(),
                    us.other()
                ),
                help(),
            )
        });
    }
    let Some(mv) = turn_move(v, us, sq) else {
        return Err(san::illegal(format!("{} has no pawns", v.name), None));
    };
    if v.leaves_king_attacked(pos, &mv) {
        return Err(san::illegal(
            format!("{us} is in check, and turning the pawn on {square} does not answer it (SY-4)"),
            help(),
        ));
    }
    Ok(mv)
}

/// The choices of `[%event 16 f7 a2]`: White's spy (a black pawn), then Black's (a white
/// pawn), by the squares they stand on (SY-1); `?` keeps one secret.
fn spies_in(v: &Variant, pos: &Position, choices: &[Choice]) -> Result<[Option<Sq>; 2], String> {
    let g = v.geometry;
    let mut picked: [Option<Sq>; 2] = [None; 2];
    let secret = choices.iter().filter(|c| **c == Choice::Secret).count();
    for choice in choices.iter().filter(|c| **c != Choice::Secret) {
        let Choice::Square(square) = choice else {
            return Err(format!(
                "`{choice}` is no square: #16 takes the squares of the two spies"
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
                    "{square} holds {}, and each player's spy is a pawn of his opponent (SY-1)",
                    san::describe_piece(v, pos, sq)
                )
            })?;
        let master = pawn.color.other();
        if picked[master.index()].replace(sq).is_some() {
            return Err(format!(
                "two {} pawns are named, and each player marks one pawn of his opponent (SY-1)",
                pawn.color
            ));
        }
    }
    match picked {
        _ if choices.len() == 2 && picked.iter().flatten().count() + secret == 2 => Ok(picked),
        _ => Err(format!(
            "#16 takes two squares, a black pawn (White's spy) and a white pawn (Black's), not {}",
            choices.len()
        )),
    }
}

/// What the moves of one line told: the last move written with `#`, which the reveal of a
/// spy on the next move may contradict (SY-6).
#[derive(Clone, Default)]
struct SpyFollower {
    claimed_mate: Option<ClaimedMate>,
}

#[derive(Clone)]
struct ClaimedMate {
    at: MoveRef,
    span: Span,
    written: Notation,
}

impl Follower for SpyFollower {
    fn fork(&self, ply: usize) -> Box<dyn Follower> {
        Box::new(SpyFollower {
            claimed_mate: self.claimed_mate.clone().filter(|claim| claim.at.ply < ply),
        })
    }

    /// A spy turned while the record kept it secret reveals it; if the move before claimed
    /// mate, turning the spy answered that check after all (SY-6).
    fn follow(&mut self, v: &Variant, moved: &Moved<'_>, out: &mut Vec<Diagnostic>) -> bool {
        let claim = self.claimed_mate.take();
        if moved.written.check == Some(CheckMark::Mate) {
            self.claimed_mate = Some(ClaimedMate {
                at: (moved.at)(),
                span: moved.span,
                written: moved.written.clone(),
            });
        }
        let master = moved.mv.piece.color;
        let revealed = moved.mv.special
            == Special::Event {
                number: NUMBER,
                data: 0,
            }
            && !has(moved.before, KNOWN[master.index()]);
        let Some(claim) = claim.filter(|_| revealed) else {
            return true;
        };
        let reveal = (moved.at)();
        let g = v.geometry;
        let mut right = claim.written.clone();
        right.check = Some(CheckMark::Check);
        out.push(
            Diagnostic::new(
                Code::EventChoice,
                claim.span,
                format!(
                    "`{}` at ply {} claims mate, but `{}` at ply {} reveals the pawn on {} as {}, and turning it answered the check: the move gave check, not mate (SY-4, SY-6)",
                    claim.at.written,
                    claim.at.ply,
                    reveal.written,
                    reveal.ply,
                    g.name(moved.mv.to),
                    whose(master)
                ),
                "mate a spy answers",
            )
            .with_help(format!("write `{right}`"))
            .at_move(claim.at),
        );
        true
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Spies",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('P', 1)]),
    rulings: &["SY-1", "SY-2", "SY-3", "SY-4", "SY-5", "SY-6", "SY-7"],
    page: "docs/rules/event-16-spies.md",
};

impl Event for Spies {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        form == Form::Convert
    }

    fn takes_choices(&self) -> bool {
        true
    }

    /// The pawns that may be spies (SY-1).
    fn mark_layers(&self) -> usize {
        1
    }

    /// Who knows, has turned and has moved belongs to the position (SY-2, SY-3).
    fn state_key(&self, state: &EventState) -> u64 {
        u64::from(state.words[0])
    }

    /// Every pawn may be a spy until the command or a `@` says which (SY-1, SY-6).
    fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        for sq in
            pos.with_role(v, Color::White, Role::Pawn) | pos.with_role(v, Color::Black, Role::Pawn)
        {
            mark(pos, sq, true);
        }
        if choices.is_empty() {
            return Ok(());
        }
        let picked =
            spies_in(v, pos, choices).map_err(|why| format!("{why}; the spies stay secret"))?;
        for master in Color::BOTH {
            if let Some(spy) = picked[master.index()] {
                make_known(pos, master, Some(spy));
            }
        }
        Ok(())
    }

    /// Each player's spy (`?` secret, `x` gone or turned), then who has moved since the
    /// event started (`wb`, `w`, `b` or `-`).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        let mut words: Vec<String> = Color::BOTH
            .into_iter()
            .map(|master| {
                if !has(pos, KNOWN[master.index()]) {
                    "?".to_owned()
                } else {
                    spies(pos, master)
                        .first()
                        .map_or("x".to_owned(), |sq| v.geometry.name(sq))
                }
            })
            .collect();
        let moved: String = [(0, 'w'), (1, 'b')]
            .into_iter()
            .filter(|&(i, _)| has(pos, MOVED[i]))
            .map(|(_, c)| c)
            .collect();
        words.push(if moved.is_empty() {
            "-".to_owned()
        } else {
            moved
        });
        words
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        self.begin(v, pos, &[])?;
        let [white, black, moved] = words[..] else {
            return Err(
                "#16 takes each side's spy (a square, ? or x) and who has moved (wb, w, b or -)"
                    .to_owned(),
            );
        };
        for (master, word) in Color::BOTH.into_iter().zip([white, black]) {
            match word {
                "?" => {}
                "x" => {
                    make_known(pos, master, None);
                    set(pos, TURNED[master.index()]);
                }
                square => {
                    let sq = super::fen_square(v, square)?;
                    if !spies(pos, master).contains(sq) {
                        return Err(format!(
                            "{square} holds no pawn that can be {}",
                            whose(master)
                        ));
                    }
                    make_known(pos, master, Some(sq));
                }
            }
        }
        for letter in moved.chars().filter(|&c| c != '-') {
            match letter {
                'w' => set(pos, MOVED[0]),
                'b' => set(pos, MOVED[1]),
                _ => return Err(format!("`{moved}` is not who has moved (wb, w, b or -)")),
            }
        }
        Ok(())
    }

    /// The known spies, marked `@`, and each side's in words.
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let parts: Vec<String> = Color::BOTH
            .into_iter()
            .map(|master| {
                let which = if !has(pos, KNOWN[master.index()]) {
                    "secret".to_owned()
                } else if let Some(sq) = spies(pos, master).first() {
                    out.singled_out.push(sq);
                    v.geometry.name(sq)
                } else {
                    "none left".to_owned()
                };
                format!("{} {which}", whose(master))
            })
            .collect();
        out.lines.push(format!("spies: {}", parts.join(", ")));
    }

    /// A black pawn (White's spy) and a white pawn (Black's) (SY-1).
    fn random_choices(
        &self,
        v: &Variant,
        pos: &Position,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<String> {
        let [white, black] = Color::BOTH.map(|c| super::names(v, pos.with_role(v, c, Role::Pawn)));
        Some(format!(
            "{} {}",
            super::pick_one(&black, pick)?,
            super::pick_one(&white, pick)?
        ))
    }

    fn follower(&self, _: &Variant, _: &Position, _: usize) -> Option<Box<dyn Follower>> {
        Some(Box::new(SpyFollower::default()))
    }

    /// The turning of a known spy, once each player has moved (SY-2, SY-3); a secret spy
    /// is turned only where the record reveals it (SY-6).
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        let us = pos.turn;
        if !has(pos, KNOWN[us.index()]) || why_not_now(pos).is_some() {
            return;
        }
        for sq in spies(pos, us) & from & to {
            out.extend(turn_move(v, us, sq));
        }
    }

    /// The spy becomes a pawn of the mover with no marks, and his spying is spent; a
    /// secret spy is known from now on (SY-2, SY-5, SY-6).
    fn play_extra(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        let master = mv.piece.color;
        make_known(pos, master, None);
        set(pos, TURNED[master.index()]);
        pos.remove(mv.to);
        pos.put(mv.to, mv.piece);
        pos.halfmoves = 0;
    }

    /// Every move of a player counts toward SY-3.
    fn after_move(&self, _v: &Variant, pos: &mut Position, mv: &Move, _gives_check: bool) {
        let bit = MOVED[mv.piece.color.index()];
        if !has(pos, bit) {
            set(pos, bit);
        }
    }

    fn resolve_turn(
        &self,
        v: &Variant,
        pos: &Position,
        written: &Notation,
    ) -> Option<Result<Move, Rejection>> {
        Some(resolve_turning(v, pos, written))
    }

    /// `@f7`.
    fn san(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        format!("@{}", v.geometry.name(mv.to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Square;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;

    /// `fen` with #16 started by the side to move, the spies given or (`None`) secret.
    fn with_spies(fen: &str, spies: Option<[&str; 2]>) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&Spies, Some(pos.turn)).unwrap();
        let choices: Vec<Choice> = spies
            .into_iter()
            .flatten()
            .map(|s| Choice::Square(Square::parse(s).unwrap()))
            .collect();
        Spies.begin(v, &mut pos, &choices).unwrap();
        pos
    }

    fn play(pos: &mut Position, token: &str) -> Result<Move, Rejection> {
        let v = event_chess();
        let mv = san::resolve(v, pos, &Notation::parse(token).unwrap())?;
        v.play(pos, &mv);
        Ok(mv)
    }

    fn refused(pos: &Position, token: &str) -> String {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
            .unwrap_err()
            .reason
    }

    const OPEN: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

    #[test]
    fn a_spy_is_turned_once_after_each_player_has_moved() {
        let v = event_chess();
        let mut pos = with_spies(OPEN, Some(["f2", "f7"]));
        assert!(
            refused(&pos, "@f2").contains("SY-3"),
            "black has not moved yet"
        );
        play(&mut pos, "Nc6").unwrap();
        assert!(
            refused(&pos, "@f7").contains("SY-3"),
            "white has not moved since"
        );
        play(&mut pos, "Bc4").unwrap();
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        assert!(moves.iter().any(|mv| san::san(v, &pos, mv) == "@f2+"));
        assert!(refused(&pos, "@d2").contains("SY-7"));
        play(&mut pos, "@f2").unwrap();
        assert_eq!(
            pos.piece_at(sq("f2")),
            Some(Piece {
                color: Color::Black,
                kind: v.tables.pawn.unwrap()
            })
        );
        let fen = crate::rules::write_fen(v, &pos);
        assert!(fen.ends_with("events(16b:f7,x,wb)"), "{fen}");
        play(&mut pos, "Kxf2").unwrap();
        assert!(refused(&pos, "@e2").contains("SY-2"));
    }

    #[test]
    fn a_secret_spy_is_revealed_by_its_turning() {
        let v = event_chess();
        let mut pos = with_spies(OPEN, None);
        for token in ["a6", "Bc4", "b6", "Qh5", "c6"] {
            play(&mut pos, token).unwrap();
        }
        let mate = play(&mut pos, "@f7");
        assert!(mate.is_ok());
        assert!(pos.is_check(v));
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        assert!(moves.is_empty(), "@f7 mates");
        let fen = crate::rules::write_fen(v, &pos);
        assert!(fen.ends_with("events(16b:x,?,wb)"), "{fen}");
    }

    #[test]
    fn the_converted_pawn_is_no_spy_of_the_other_side() {
        let mut pos = with_spies(OPEN, None);
        play(&mut pos, "d5").unwrap();
        play(&mut pos, "exd5").unwrap();
        play(&mut pos, "@d2").unwrap();
        // The black pawn on d2 stood there as a white pawn when the event started.
        assert!(refused(&pos, "@d2").contains("SY-6"));
    }
}
