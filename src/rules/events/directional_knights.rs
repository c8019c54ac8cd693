//! Event #29 Directional Knights (catalogue; rulings DK-1 to DK-8 in
//! `docs/rules/event-29-directional-knights.md`): every knight faces one of the eight
//! directions; it slides along its facing, or leaps to the two knight squares that flank
//! the opposite direction, and may turn with every move or spend a move only turning.

use super::knight_facings::{self, Facings, direction_name, facing, knight_kind};
use crate::command::Choice;
use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Direction, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Form, Overlay, Reach};
use crate::rules::moves::Move;
use crate::rules::piece::Piece;
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct DirectionalKnights;

const NUMBER: u16 = 29;

/// The facing machinery, with this event's rulings.
const FACINGS: Facings = Facings {
    number: NUMBER,
    start: "DK-1",
    turn: "DK-4",
    promotion: "DK-5",
    naming: "DK-7",
    unset: ("neither moves nor attacks", "neither move nor attack"),
};

/// Where a knight on `from` facing `direction` goes (DK-2, DK-3): along its facing up to
/// the first piece, which it attacks, and to the two knight squares flanking the opposite
/// direction.
fn directional_reach(v: &Variant, from: Sq, direction: Direction, occupied: Bitboard) -> Reach {
    let g = v.geometry;
    let mut reach = Reach::default();
    let (df, dr) = direction.step();
    let mut at = from;
    while let Some(next) = g.offset(at, df, dr) {
        reach.attacks.set(next);
        if occupied.contains(next) {
            break;
        }
        reach.quiet.set(next);
        at = next;
    }
    let leaps = if df == 0 || dr == 0 {
        // Straight back two squares, one to either side.
        [(-2 * df + dr, -2 * dr + df), (-2 * df - dr, -2 * dr - df)]
    } else {
        [(-2 * df, -dr), (-df, -2 * dr)]
    };
    for (lf, lr) in leaps {
        if let Some(to) = g.offset(from, lf, lr) {
            reach.attacks.set(to);
            if !occupied.contains(to) {
                reach.quiet.set(to);
            }
        }
    }
    reach
}

/// Whether the `piece` on `from` is a knight that moves as one, so that its facing rules
/// it (DK-2): not where another event gives it another movement (#76).
fn directed(v: &Variant, pos: &Position, from: Sq, piece: Piece) -> bool {
    Some(piece.kind) == knight_kind(v) && super::movement_kind(v, pos, from, piece) == piece.kind
}

/// What the knight on `from` does under its facing, in words, and why it does not reach
/// `to`: `the knight on c3 faces north: ..., so it goes only to c4, c5 (DK-2)`; where its
/// facing would take it there and another running event stops it (#71: two squares at
/// most), that event's reason.
fn facing_words(v: &Variant, pos: &Position, from: Sq, to: Sq) -> String {
    let g = v.geometry;
    let Some(piece) = pos.piece_at(from) else {
        return String::new();
    };
    let Some(direction) = facing(pos, from) else {
        return format!(
            "the knight on {} faces no direction, so it neither moves nor attacks until it turns (DK-1)",
            g.name(from)
        );
    };
    let occupied = pos.occupied();
    if directional_reach(v, from, direction, occupied)
        .attacks
        .contains(to)
        && let Some(why) = pos
            .events()
            .into_iter()
            .filter(|e| e.number() != NUMBER)
            .find_map(|e| e.why_unreached(v, pos, from, piece, to))
    {
        return format!(
            "the knight on {} faces {}, but {why}",
            g.name(from),
            direction_name(direction)
        );
    }
    let reach = v.reach(pos, from, piece, occupied);
    let own = pos.by_color(piece.color);
    let squares: Vec<String> = ((reach.quiet | reach.attacks) & !own)
        .map(|sq| g.name(sq))
        .collect();
    let goes = if squares.is_empty() {
        "it has no square to go to".to_owned()
    } else {
        format!("it goes only to {}", san::list(&squares))
    };
    format!(
        "the knight on {} faces {}: it slides that way or leaps to the two knight squares flanking the opposite direction, so {goes} (DK-2)",
        g.name(from),
        direction_name(direction)
    )
}

impl DirectionalKnights {
    /// A knight move written to a square no knight of ours reaches under its facing:
    /// the refusal says where each one goes (DK-2).
    fn unreached(&self, v: &Variant, pos: &Position, written: &PieceMove) -> Option<Rejection> {
        let knight = knight_kind(v)?;
        let [target] = written.targets.as_slice() else {
            return None;
        };
        let to = v.geometry.from_square(target.square)?;
        let ours = pos.pieces(pos.turn, knight) & san::hinted_origins(v, written.hint);
        // A turn in place, or a piece put back elsewhere (#126), is read elsewhere.
        if written.piece != Some('N') || written.placed.is_some() || ours.contains(to) {
            return None;
        }
        let mut reaching = Vec::new();
        v.pseudo_moves(pos, ours, to.bit(), &mut reaching);
        let directed: Vec<Sq> = ours
            .filter(|&sq| {
                directed(
                    v,
                    pos,
                    sq,
                    Piece {
                        color: pos.turn,
                        kind: knight,
                    },
                )
            })
            .collect();
        if !reaching.is_empty() || directed.is_empty() {
            return None;
        }
        let words: Vec<String> = directed
            .iter()
            .map(|&sq| facing_words(v, pos, sq, to))
            .collect();
        let mut legal = Vec::new();
        v.legal_moves(pos, &mut legal);
        let spellings: Vec<String> = legal
            .iter()
            .filter(|mv| ours.contains(mv.from) && mv.from != mv.to && mv.faces.is_none())
            .map(|mv| san::san_plain(v, pos, mv))
            .collect();
        let help = (!spellings.is_empty())
            .then(|| format!("legal knight moves: {}", spellings.join(", ")));
        Some(san::illegal(
            format!(
                "no {} knight reaches {} under event #29 Directional Knights: {}",
                pos.turn,
                v.geometry.name(to),
                words.join("; ")
            ),
            help,
        ))
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Directional Knights",
    aliases: &[],
    types: &[],
    condition: Condition {
        pieces_each: &[('N', 1)],
        no_check: true,
        ..Condition::NONE
    },
    rulings: &[
        "DK-1", "DK-2", "DK-3", "DK-4", "DK-5", "DK-6", "DK-7", "DK-8",
    ],
    page: "docs/rules/event-29-directional-knights.md",
};

impl Event for DirectionalKnights {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        matches!(form, Form::Arrow)
    }

    fn takes_choices(&self) -> bool {
        true
    }

    /// A knight's facing (DK-1), part of the position (DK-6).
    fn mark_layers(&self) -> usize {
        knight_facings::MARK_LAYERS
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// DK-2, DK-3: a knight moves, captures and checks along its facing and on the two
    /// leaps behind it, nowhere else; one that faces nothing goes nowhere (DK-1). The
    /// reach events started before this one then change that movement again (#71: at
    /// most two squares).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if !directed(v, pos, from, piece) {
            return;
        }
        let new = facing(pos, from)
            .map(|d| directional_reach(v, from, d, occupied))
            .unwrap_or_default();
        *reach = super::replaced_reach(v, pos, (from, piece), new, occupied, NUMBER);
    }

    fn why_unreached(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        if !directed(v, pos, from, piece) {
            return None;
        }
        let reach = facing(pos, from)
            .map(|d| directional_reach(v, from, d, pos.occupied()))
            .unwrap_or_default();
        (!reach.attacks.contains(to)).then(|| {
            format!(
                "under event #29 Directional Knights {}",
                facing_words(v, pos, from, to)
            )
        })
    }

    fn why_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let direction = facing(pos, from).filter(|_| directed(v, pos, from, piece))?;
        directional_reach(v, from, direction, pos.occupied())
            .attacks
            .contains(to)
            .then(|| {
                format!(
                    "facing {} it attacks along that line and on the two leaps behind it: event #29 Directional Knights, DK-3",
                    direction_name(direction)
                )
            })
    }

    fn facing(&self, pos: &Position, sq: Sq) -> Option<Direction> {
        // With #85 running, #85 answers for the one facing both share (DK-8).
        FACINGS.own_facing(pos, sq)
    }

    /// Every knight is given its facing (`Nb1->b2`), the starter's first, then the
    /// opponent's (DK-1); one left out faces none until it turns.
    fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        FACINGS.begin(v, pos, choices)
    }

    /// Every knight's facing as its square and compass point (`b1:n`, DK-6); with #85
    /// running, #85 writes them (DK-8).
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        FACINGS.write_fen(v, pos)
    }

    /// Knights written without a facing face none.
    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        FACINGS.read_fen(v, pos, words)
    }

    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        FACINGS.overlay(v, pos, out);
    }

    /// A facing for every knight, named by a neighbouring square (DK-1, DK-7).
    fn random_choices(
        &self,
        v: &Variant,
        pos: &Position,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<String> {
        FACINGS.random_choices(v, pos, pick)
    }

    /// DK-4: a knight may spend its move turning to another facing (with #85 running,
    /// #85's turns are these, DK-8).
    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        _to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        FACINGS.extra_moves(v, pos, from, out);
    }

    fn play_extra(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        FACINGS.play_extra(pos, mv);
    }

    /// DK-4, DK-5: every knight move may end facing any direction, and a promotion to a
    /// knight must.
    fn attach_choices(&self, v: &Variant, pos: &Position, out: &mut Vec<Move>, start: usize) {
        FACINGS.attach_choices(v, pos, out, start);
    }

    fn after_landing(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        FACINGS.after_landing(pos, mv);
    }

    /// A knight move its facing does not reach is refused with where each knight goes
    /// (DK-2), whichever event holds the facings; the facing notation is read by the
    /// event that holds them (DK-8).
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        if let Some(refused) = self.unreached(v, pos, written) {
            return Some(Err(refused));
        }
        FACINGS.resolve(v, pos, written)
    }

    fn san(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        FACINGS.san(v, mv)
    }

    /// `->g2` after a knight move that changes its facing (DK-4); with #85 running, #85
    /// writes it (DK-8).
    fn annotate(&self, v: &Variant, pos: &Position, mv: &Move, out: &mut String) {
        FACINGS.annotate(v, pos, mv, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::Color;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::{parse_fen, write_fen};

    /// `fen` with #29 started and the knights' facings given (`Nb1->b2`).
    fn with_knights(fen: &str, facings: &str) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&DirectionalKnights, None).unwrap();
        let command = crate::command::parse_event(&format!("29 {facings}"), 0).unwrap();
        let choices: Vec<Choice> = command.choices.iter().map(|c| c.node).collect();
        DirectionalKnights.begin(v, &mut pos, &choices).unwrap();
        pos
    }

    fn resolve(pos: &Position, written: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(written).unwrap())
    }

    fn play(pos: &mut Position, written: &str) -> Move {
        let mv = resolve(pos, written).unwrap_or_else(|r| panic!("{written}: {}", r.reason));
        event_chess().play(pos, &mv);
        mv
    }

    /// The squares the knight on `from` moves to, each once, sorted.
    fn targets(pos: &Position, from: &str) -> Vec<String> {
        let v = event_chess();
        let mut moves = Vec::new();
        v.legal_moves(pos, &mut moves);
        let mut names: Vec<String> = moves
            .into_iter()
            .filter(|mv| mv.from == sq(from) && mv.to != mv.from && mv.faces.is_none())
            .map(|mv| v.geometry.name(mv.to))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn dk_2_a_knight_slides_along_its_facing_and_leaps_behind_it() {
        // Facing north from d4: up the d-file to the pawn on d7, which it may take, and
        // the leaps c2 and e2; facing north-east from b1: the diagonal, no leap on the
        // board behind it.
        let pos = with_knights("4k3/3p4/8/8/3N4/8/8/1N2K3 w - - 0 1", "Nd4->d5 Nb1->c2");
        assert_eq!(targets(&pos, "d4"), ["c2", "d5", "d6", "d7", "e2"]);
        assert_eq!(targets(&pos, "b1"), ["c2", "d3", "e4", "f5", "g6", "h7"]);
    }

    #[test]
    fn dk_3_attacks_follow_the_facing() {
        let v = event_chess();
        // The knight on e1 faces north: it checks the king on e8 up the open file, and
        // no longer attacks f3, an orthodox knight square.
        let pos = with_knights("4k3/8/8/8/8/8/8/K3N3 b - - 0 1", "Ne1->e2");
        assert!(pos.is_check(v));
        assert!(!pos.is_attacked(v, sq("f3"), Color::White));
        assert!(resolve(&pos, "Kf8").is_ok(), "stepping off the file");
        assert!(resolve(&pos, "Ke7").is_err(), "staying on it");
    }

    #[test]
    fn dk_4_turns_and_facing_after_a_move() {
        let v = event_chess();
        let mut pos = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        let refused = resolve(&pos, "Ng1->g5").unwrap_err();
        assert!(refused.reason.contains("DK-4"), "{}", refused.reason);
        let before = pos.clone();
        let turn = play(&mut pos, "Ng1->f2");
        assert_eq!(san::san(v, &before, &turn), "Ng1->f2");
        assert_eq!(facing(&pos, sq("g1")), Some(Direction(7)));
        play(&mut pos, "Kd7");
        let before = pos.clone();
        let moved = play(&mut pos, "Ne3->e8");
        assert_eq!(san::san(v, &before, &moved), "Ne3->e4");
        assert_eq!(facing(&pos, sq("e3")), Some(Direction(0)));
        play(&mut pos, "Kc7");
        play(&mut pos, "Ne5");
        assert_eq!(facing(&pos, sq("e5")), Some(Direction(0)), "kept");
    }

    #[test]
    fn dk_5_a_promotion_to_a_knight_needs_a_facing() {
        let pos = with_knights("4k3/P7/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        let refused = resolve(&pos, "a8=N").unwrap_err();
        assert!(refused.reason.contains("DK-5"), "{}", refused.reason);
        assert!(resolve(&pos, "a8=N->b8").is_ok());
        assert!(resolve(&pos, "a8=Q").is_ok());
    }

    #[test]
    fn dk_6_facings_belong_to_the_position_and_the_fen() {
        let v = event_chess();
        let pos = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        let turned = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->h2");
        assert_ne!(pos.key(v), turned.key(v));
        let fen = write_fen(v, &pos);
        assert!(fen.contains("g1:n"), "{fen}");
        let read = parse_fen(v, &fen).unwrap();
        assert_eq!(read.key(v), pos.key(v));
    }

    #[test]
    fn an_unreached_square_is_explained_by_the_facing() {
        let pos = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        let refused = resolve(&pos, "Nf3").unwrap_err();
        assert!(
            refused.reason.contains("faces north") && refused.reason.contains("DK-2"),
            "{}",
            refused.reason
        );
    }

    #[test]
    fn dk_8_with_loyal_knights_one_facing_serves_both() {
        let v = event_chess();
        let mut pos = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        pos.start_event(&super::super::LoyalKnights, None).unwrap();
        let command = crate::command::parse_event("85 Ng1->h1", 0).unwrap();
        let choices: Vec<Choice> = command.choices.iter().map(|c| c.node).collect();
        super::super::LoyalKnights
            .begin(v, &mut pos, &choices)
            .unwrap();
        assert_eq!(targets(&pos, "g1"), ["e2", "h1"]);
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        for mv in &moves {
            let written = san::san(v, &pos, mv);
            assert_eq!(resolve(&pos, &written), Ok(*mv), "{written}");
        }
        play(&mut pos, "Ng1->g2");
        play(&mut pos, "Kd7");
        assert_eq!(
            targets(&pos, "g1"),
            ["g2", "g3", "g4", "g5", "g6", "g7", "g8"]
        );
    }
}
