//! Event #121 Knight support (catalogue; rulings KS-1 to KS-8 in
//! `docs/rules/event-121-knight-support.md`): every knight faces one of the eight
//! directions, as under #29 (`knight_facings`), and keeps its own movement; the first
//! piece on its facing, if it is an own piece other than a pawn, may also leap as a
//! knight, and those leaps attack.

use super::knight_facings::{self, Facings, direction_name, facing, knight_kind};
use crate::command::Choice;
use crate::notation::PieceMove;
use crate::rules::board::{Bitboard, Direction, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Form, Overlay, Reach};
use crate::rules::moves::Move;
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection};
use crate::rules::variant::Variant;

pub struct KnightSupport;

const NUMBER: u16 = 121;

/// The facing machinery, with this event's rulings.
const FACINGS: Facings = Facings {
    number: NUMBER,
    start: "KS-1",
    turn: "KS-2",
    promotion: "KS-5",
    naming: "KS-2",
    unset: ("supports no piece", "support no piece"),
};

/// The first piece on the facing of the knight on `knight`, if any (KS-3), with
/// `extra` counted as occupied: the square whose piece is asked about.
fn faced(v: &Variant, pos: &Position, knight: Sq, extra: Bitboard) -> Option<Sq> {
    let (df, dr) = facing(pos, knight)?.step();
    let occupied = pos.occupied() | extra;
    let mut at = knight;
    loop {
        at = v.geometry.offset(at, df, dr)?;
        if occupied.contains(at) {
            return Some(at);
        }
    }
}

/// The own knight that supports the `piece` on `from`, if one does (KS-3): a knight of
/// its colour whose facing meets it first; a pawn is never supported.
fn supporter(v: &Variant, pos: &Position, from: Sq, piece: Piece) -> Option<Sq> {
    if v.role(piece.kind) == Role::Pawn {
        return None;
    }
    let knight = knight_kind(v)?;
    (pos.pieces(piece.color, knight) & !from.bit())
        .into_iter()
        .find(|&k| faced(v, pos, k, from.bit()) == Some(from))
}

/// The knight leaps from `from` (KS-3, KS-4).
fn leaps(v: &Variant, piece: Piece, from: Sq, occupied: Bitboard) -> Option<Bitboard> {
    Some(v.attacks(knight_kind(v)?, piece.color, from, occupied))
}

/// What the knight on `knight` faces, in words: `faces north-east, the pawn on c2
/// first`.
fn faces_words(v: &Variant, pos: &Position, knight: Sq) -> String {
    let g = v.geometry;
    let Some(direction) = facing(pos, knight) else {
        return format!("the knight on {} faces no direction", g.name(knight));
    };
    match faced(v, pos, knight, Bitboard::EMPTY).and_then(|sq| Some((sq, pos.piece_at(sq)?))) {
        Some((sq, piece)) => format!(
            "the knight on {} faces {}, where the {} {} on {} stands first",
            g.name(knight),
            direction_name(direction),
            piece.color,
            v.piece(piece.kind).name,
            g.name(sq)
        ),
        None => format!(
            "the knight on {} faces {} with no piece that way",
            g.name(knight),
            direction_name(direction)
        ),
    }
}

impl KnightSupport {
    /// A move of a piece other than a knight or a pawn written to a square none of ours
    /// reaches, where a knight leap would take one there: the refusal says that the
    /// piece is not supported, and what each knight faces instead (KS-3).
    fn unsupported(&self, v: &Variant, pos: &Position, written: &PieceMove) -> Option<Rejection> {
        let g = v.geometry;
        let knight = knight_kind(v)?;
        let letter = written.piece?;
        let kind = v.kind_of_letter(letter)?;
        if kind == knight || v.role(kind) == Role::Pawn || written.placed.is_some() {
            return None;
        }
        let [target] = written.targets.as_slice() else {
            return None;
        };
        let to = g.from_square(target.square)?;
        let piece = Piece {
            color: pos.turn,
            kind,
        };
        let ours = pos.pieces(pos.turn, kind) & san::hinted_origins(v, written.hint);
        let mut reaching = Vec::new();
        v.pseudo_moves(pos, ours, to.bit(), &mut reaching);
        if !reaching.is_empty() {
            return None;
        }
        let leapers: Vec<String> = ours
            .filter(|&sq| leaps(v, piece, sq, pos.occupied()).is_some_and(|l| l.contains(to)))
            .map(|sq| g.name(sq))
            .collect();
        if leapers.is_empty() {
            return None;
        }
        let knights: Vec<String> = pos
            .pieces(pos.turn, knight)
            .map(|k| faces_words(v, pos, k))
            .collect();
        let facings = if knights.is_empty() {
            format!("the {} side has no knight", pos.turn)
        } else {
            knights.join("; ")
        };
        Some(san::illegal(
            format!(
                "the {} on {} would leap to {} as a knight only if an own knight faced it first (event #121 Knight support, KS-3): {facings}",
                v.piece(kind).name,
                san::list(&leapers),
                g.name(to)
            ),
            Some(
                "turn a knight toward the piece first (`Nb1->c3`), or write one of its own moves"
                    .to_owned(),
            ),
        ))
    }
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Knight support",
    aliases: &[],
    types: &[],
    condition: Condition {
        pieces_each: &[('N', 1)],
        no_check: true,
        ..Condition::NONE
    },
    rulings: &[
        "KS-1", "KS-2", "KS-3", "KS-4", "KS-5", "KS-6", "KS-7", "KS-8",
    ],
    page: "docs/rules/event-121-knight-support.md",
};

impl Event for KnightSupport {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: Form) -> bool {
        matches!(form, Form::Arrow)
    }

    fn takes_choices(&self) -> bool {
        true
    }

    /// A knight's facing (KS-1), part of the position (KS-6).
    fn mark_layers(&self) -> usize {
        knight_facings::MARK_LAYERS
    }

    fn changes_reach(&self) -> bool {
        true
    }

    /// KS-3, KS-4: a supported piece keeps its own movement and also leaps as a knight,
    /// to empty squares and onto enemy pieces, which it attacks. The leaps pass again
    /// through the reach events started before this one as the piece's own movement
    /// would (KS-7: #71's two squares, #106's wall, #29's facings for a knight).
    fn reach(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        occupied: Bitboard,
        reach: &mut Reach,
    ) {
        if supporter(v, pos, from, piece).is_none() {
            return;
        }
        let Some(attacks) = leaps(v, piece, from, occupied) else {
            return;
        };
        let lent = Reach {
            quiet: attacks & !occupied,
            attacks,
        };
        let lent = super::replaced_reach(v, pos, (from, piece), lent, occupied, NUMBER);
        reach.quiet |= lent.quiet;
        reach.attacks |= lent.attacks;
    }

    fn why_attacks(
        &self,
        v: &Variant,
        pos: &Position,
        from: Sq,
        piece: Piece,
        to: Sq,
    ) -> Option<String> {
        let knight = supporter(v, pos, from, piece)?;
        leaps(v, piece, from, pos.occupied())?
            .contains(to)
            .then(|| {
                format!(
                    "the knight on {} faces it, so it also leaps as a knight and attacks so: event #121 Knight support, KS-4",
                    v.geometry.name(knight)
                )
            })
    }

    fn facing(&self, pos: &Position, sq: Sq) -> Option<Direction> {
        FACINGS.own_facing(pos, sq)
    }

    /// Every knight is given its facing (`Nb1->b2`), the starter's first, then the
    /// opponent's (KS-1); one left out faces none until it turns.
    fn begin(&self, v: &Variant, pos: &mut Position, choices: &[Choice]) -> Result<(), String> {
        FACINGS.begin(v, pos, choices)
    }

    /// Every knight's facing as its square and compass point (`b1:n`, KS-6).
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

    /// A facing for every knight, named by a neighbouring square (KS-1, KS-2).
    fn random_choices(
        &self,
        v: &Variant,
        pos: &Position,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<String> {
        FACINGS.random_choices(v, pos, pick)
    }

    /// KS-2: a knight may spend its move turning to another facing.
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

    /// KS-2, KS-5: every knight move may end facing any direction, and a promotion to
    /// a knight must.
    fn attach_choices(&self, v: &Variant, pos: &Position, out: &mut Vec<Move>, start: usize) {
        FACINGS.attach_choices(v, pos, out, start);
    }

    fn after_landing(&self, _v: &Variant, pos: &mut Position, mv: &Move) {
        FACINGS.after_landing(pos, mv);
    }

    /// The facing notation (KS-2, KS-5), then a leap of a piece no knight supports
    /// (KS-3).
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        if let Some(read) = FACINGS.resolve(v, pos, written) {
            return Some(read);
        }
        self.unsupported(v, pos, written).map(Err)
    }

    fn san(&self, v: &Variant, _pos: &Position, mv: &Move) -> String {
        FACINGS.san(v, mv)
    }

    /// `->g2` after a knight move that changes its facing (KS-2).
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

    /// `fen` with #121 started and the knights' facings given (`Nb1->b2`).
    fn with_knights(fen: &str, facings: &str) -> Position {
        let v = event_chess();
        let mut pos = parse_fen(v, fen).unwrap();
        pos.start_event(&KnightSupport, None).unwrap();
        let command = crate::command::parse_event(&format!("121 {facings}"), 0).unwrap();
        let choices: Vec<Choice> = command.choices.iter().map(|c| c.node).collect();
        KnightSupport.begin(v, &mut pos, &choices).unwrap();
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

    /// The squares the piece on `from` moves to, each once, sorted.
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
        names.dedup();
        names
    }

    #[test]
    fn ks_2_knights_keep_their_movement_and_turn() {
        let v = event_chess();
        let mut pos = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        assert_eq!(targets(&pos, "g1"), ["e2", "f3", "h3"]);
        let refused = resolve(&pos, "Ng1->g5").unwrap_err();
        assert!(refused.reason.contains("KS-2"), "{}", refused.reason);
        let before = pos.clone();
        let turn = play(&mut pos, "Ng1->f2");
        assert_eq!(san::san(v, &before, &turn), "Ng1->f2");
        assert_eq!(facing(&pos, sq("g1")), Some(Direction(7)));
        play(&mut pos, "Kd7");
        let moved = play(&mut pos, "Nf3->f8");
        assert_eq!(moved.faces, Some(Direction(0)));
        assert_eq!(facing(&pos, sq("f3")), Some(Direction(0)));
    }

    #[test]
    fn ks_3_the_first_own_piece_on_the_facing_leaps_as_a_knight() {
        // The b1 knight faces north-east: the bishop on d3 stands first and leaps too;
        // the bishop on e4 behind it gains nothing (the catalogue's example).
        let pos = with_knights("4k3/8/8/8/4B3/3B4/8/1N2K3 w - - 0 1", "Nb1->c2");
        let d3 = targets(&pos, "d3");
        assert!(d3.contains(&"f4".to_owned()), "{d3:?}");
        assert!(d3.contains(&"b4".to_owned()), "{d3:?}");
        let e4 = targets(&pos, "e4");
        assert!(!e4.contains(&"f6".to_owned()), "{e4:?}");
        let refused = resolve(&pos, "Bf6").unwrap_err();
        assert!(refused.reason.contains("KS-3"), "{}", refused.reason);
    }

    #[test]
    fn ks_3_a_pawn_or_an_enemy_piece_first_on_the_ray_blocks() {
        let pos = with_knights("4k3/8/8/8/8/3R4/2P5/1N2K3 w - - 0 1", "Nb1->c2");
        assert!(!targets(&pos, "c2").contains(&"d4".to_owned()));
        assert!(!targets(&pos, "d3").contains(&"e5".to_owned()));
        let pos = with_knights("4k3/8/8/8/8/3R4/2p5/1N2K3 w - - 0 1", "Nb1->c2");
        assert!(!targets(&pos, "d3").contains(&"e5".to_owned()));
    }

    #[test]
    fn ks_4_gained_leaps_give_check_and_cover_squares() {
        let v = event_chess();
        // The b1 knight faces north, the rook on b4 first: the rook also leaps as a
        // knight, so it attacks c6 and checks the king on d5.
        let pos = with_knights("8/8/8/3k4/1R6/8/8/1N2K3 b - - 0 1", "Nb1->b2");
        assert!(pos.is_check(v));
        assert!(pos.is_attacked(v, sq("c6"), Color::White));
        // A king faced by its knight leaps too, and covers its leap squares.
        let pos = with_knights("8/8/8/3k4/8/8/4K3/4N3 w - - 0 1", "Ne1->e2");
        assert!(pos.is_attacked(v, sq("d4"), Color::White));
        assert!(targets(&pos, "e2").contains(&"f4".to_owned()));
    }

    #[test]
    fn ks_5_a_promotion_to_a_knight_needs_a_facing() {
        let pos = with_knights("4k3/P7/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        let refused = resolve(&pos, "a8=N").unwrap_err();
        assert!(refused.reason.contains("KS-5"), "{}", refused.reason);
        assert!(resolve(&pos, "a8=N->b8").is_ok());
    }

    #[test]
    fn ks_6_facings_belong_to_the_position_and_the_fen() {
        let v = event_chess();
        let pos = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->g2");
        let turned = with_knights("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng1->h2");
        assert_ne!(pos.key(v), turned.key(v));
        let fen = write_fen(v, &pos);
        assert!(fen.contains(":g1:n"), "{fen}");
        let read = parse_fen(v, &fen).unwrap();
        assert_eq!(read.key(v), pos.key(v));
    }

    #[test]
    fn ks_8_beside_directional_knights_one_facing_serves_both() {
        let v = event_chess();
        let mut pos = with_knights("4k3/8/8/8/8/8/8/3RK1N1 w - - 0 1", "Ng1->h1");
        pos.start_event(&super::super::directional_knights::DirectionalKnights, None)
            .unwrap();
        let command = crate::command::parse_event("29 Ng1->f1", 0).unwrap();
        let choices: Vec<Choice> = command.choices.iter().map(|c| c.node).collect();
        super::super::directional_knights::DirectionalKnights
            .begin(v, &mut pos, &choices)
            .unwrap();
        // Facing west, the knight slides to f1 (#29) and faces the king first: the king
        // leaps (KS-3).
        assert_eq!(facing(&pos, sq("g1")), Some(Direction(6)));
        assert!(targets(&pos, "e1").contains(&"f3".to_owned()));
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        for mv in &moves {
            let written = san::san(v, &pos, mv);
            assert_eq!(resolve(&pos, &written), Ok(*mv), "{written}");
        }
    }
}
