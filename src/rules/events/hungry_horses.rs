//! Event #23 Hungry horses (catalogue; rulings HH-1 to HH-8 in
//! `docs/rules/event-23-hungry-horses.md`): a knight may take one of its own pieces that
//! is not royal, and after such a capture it may leap again in the same turn, as long as
//! it keeps taking its own pieces (`Nxf3,Nxe5`); only the position after the last leap
//! must leave the mover's king safe, unless the chain took the enemy king, which wins.
//! Check stays a one-move threat: a chain that could reach a king is no check.
//!
//! A chain is one of the event's own moves: the knight's first and last squares, and in
//! `data` the own pieces it took on the way, each as its place among the own pieces the
//! knight could take from where it stood (HH-7). The last leap is the knight's ordinary
//! move as the running events give it, or one more own capture that ends the chain.

use super::turns;
use crate::notation::{Hint, MoveBody, Notation, PieceMove, Separator};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo};
use crate::rules::moves::{Move, Special};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::san::{self, Rejection, RejectionKind};
use crate::rules::variant::Variant;

pub struct HungryHorses;

const NUMBER: u16 = 23;

/// The word of the event's slot that marks a position in the middle of a chain, where
/// the knight's further leaps are looked up: no chain starts there.
const CHAIN_WORD: usize = 3;

/// The own captures a chain holds before its last leap (HH-7): three bits each behind a
/// leading one in the sixteen bits of `data`.
const MAX_TAKEN_ON_THE_WAY: usize = 5;

/// The own pieces a knight may take on one leap: at most eight with a knight's leap.
const TARGET_BITS: u16 = 3;

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Hungry horses",
    aliases: &[],
    types: &[],
    condition: Condition::pieces_each(&[('N', 1)]),
    rulings: &[
        "HH-1", "HH-2", "HH-3", "HH-4", "HH-5", "HH-6", "HH-7", "HH-8",
    ],
    page: "docs/rules/event-23-hungry-horses.md",
};

/// One leap of a chain: where it lands and what it takes there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Leap {
    from: Sq,
    to: Sq,
    taken: Option<Piece>,
}

fn knight_kind(v: &Variant) -> Option<Kind> {
    v.kind_of_letter('N')
}

fn in_chain(pos: &Position) -> bool {
    pos.event_state(NUMBER)
        .is_some_and(|state| state.words[CHAIN_WORD] != 0)
}

fn set_in_chain(pos: &mut Position, on: bool) {
    let mut state = pos.event_state(NUMBER).copied().unwrap_or_default();
    state.words[CHAIN_WORD] = u16::from(on);
    pos.set_event_state(NUMBER, state);
}

/// The royal pieces of `color`: his kings, or those a running event makes royal (#57).
fn royals(v: &Variant, pos: &Position, color: Color) -> Bitboard {
    pos.events()
        .iter()
        .find_map(|e| e.royals(v, pos, color))
        .unwrap_or_else(|| pos.kings(v, color))
}

/// The own pieces the knight on `knight` may take (HH-1): those not royal that its leap
/// reaches, as the running events let it reach.
fn own_targets(v: &Variant, pos: &Position, knight: Sq) -> Bitboard {
    let Some(piece) = pos.piece_at(knight) else {
        return Bitboard::EMPTY;
    };
    let own = pos.by_color(piece.color) & !royals(v, pos, piece.color);
    let occupied = pos.occupied();
    v.reach(pos, knight, piece, occupied).attacks & own
}

/// Takes the own piece on `target` with the knight on `knight`: not a capture for EC-2
/// (HH-2); a rook taken on its corner takes its castling right along.
fn take_own(pos: &mut Position, knight: Sq, target: Sq) {
    pos.remove(target);
    pos.relocate(knight, target);
    pos.halfmoves = 0;
    if pos.castling.contains(target) {
        pos.set_castling(pos.castling & !target.bit());
    }
}

/// The ordinary last leaps of the knight on `knight` in `mid` to `to`: its plain moves
/// there as the running events give them (HH-3), the first to each square, as a chain
/// names squares only (HH-8: #29's facings).
fn last_leaps(v: &Variant, mid: &Position, knight: Sq, to: Bitboard, out: &mut Vec<Move>) {
    let Some(piece) = mid.piece_at(knight) else {
        return;
    };
    v.pseudo_moves(mid, knight.bit(), to, out);
    let mut reached = Bitboard::EMPTY;
    out.retain(|mv| {
        let leap = mv.from == knight && mv.piece == piece && mv.special == Special::Normal;
        let first = leap && !reached.contains(mv.to);
        if first {
            reached.set(mv.to);
        }
        first
    });
}

fn chain_move(piece: Piece, from: Sq, to: Sq, captured: Option<Piece>, data: u16) -> Move {
    Move {
        piece,
        from,
        to,
        // Only an enemy piece is a capture for the other rules (HH-2).
        captured,
        promotion: None,
        special: Special::Event {
            number: NUMBER,
            data,
        },
        faces: None,
        swap: None,
        returned: None,
    }
}

/// Every chain of the knight on `knight` in `mid` (its own captures so far in `data`,
/// `depth` of them) whose last square is in `to`.
fn chains_from(
    v: &Variant,
    mid: &Position,
    (from, knight): (Sq, Sq),
    piece: Piece,
    (data, depth): (u16, usize),
    to: Bitboard,
    out: &mut Vec<Move>,
) {
    let targets = own_targets(v, mid, knight);
    for (nth, target) in targets.into_iter().enumerate() {
        let nth = nth as u16;
        if to.contains(target) {
            out.push(chain_move(piece, from, target, None, data));
        }
        if depth == MAX_TAKEN_ON_THE_WAY || nth >= 1 << TARGET_BITS {
            continue;
        }
        let mut next = mid.clone();
        take_own(&mut next, knight, target);
        let data = data << TARGET_BITS | nth;
        let further = (data, depth + 1);
        chains_from(v, &next, (from, target), piece, further, to, out);
    }
    if depth > 0 {
        let mut leaps = Vec::new();
        last_leaps(v, mid, knight, to, &mut leaps);
        out.extend(
            leaps
                .iter()
                .map(|leap| chain_move(piece, from, leap.to, leap.captured, data)),
        );
    }
}

/// The chains of the side to move's knights on `from` ending on `to`, legal or not.
fn chains(v: &Variant, pos: &Position, from: Bitboard, to: Bitboard, out: &mut Vec<Move>) {
    let Some(knight) = knight_kind(v) else {
        return;
    };
    let mut mid = pos.clone();
    set_in_chain(&mut mid, true);
    for sq in pos.pieces(pos.turn, knight) & from {
        let piece = Piece {
            color: pos.turn,
            kind: knight,
        };
        chains_from(v, &mid, (sq, sq), piece, (1, 0), to, out);
    }
}

/// The own captures on the way in a chain's `data`: each one's place among the targets,
/// first leap first.
fn taken_on_the_way(data: u16) -> Vec<usize> {
    let mask = (1 << TARGET_BITS) - 1;
    let mut places = Vec::new();
    let mut rest = data;
    while rest > 1 {
        places.push(usize::from(rest & mask));
        rest >>= TARGET_BITS;
    }
    places.reverse();
    places
}

/// Plays `chain` on `pos` leap by leap, giving each leap with the position it starts in.
fn play_leaps(v: &Variant, pos: &mut Position, chain: &Move) -> Vec<(Position, Leap)> {
    let Special::Event { data, .. } = chain.special else {
        unreachable!("a chain is the event's own move")
    };
    let mut leaps = Vec::new();
    set_in_chain(pos, true);
    let mut knight = chain.from;
    for nth in taken_on_the_way(data) {
        let target = own_targets(v, pos, knight)
            .into_iter()
            .nth(nth)
            .expect("an own capture of the chain");
        let leap = Leap {
            from: knight,
            to: target,
            taken: pos.piece_at(target),
        };
        leaps.push((pos.clone(), leap));
        take_own(pos, knight, target);
        knight = target;
    }
    let before = pos.clone();
    if own_targets(v, pos, knight).contains(chain.to) {
        let taken = pos.piece_at(chain.to);
        take_own(pos, knight, chain.to);
        leaps.push((
            before,
            Leap {
                from: knight,
                to: chain.to,
                taken,
            },
        ));
    } else {
        let mut last = Vec::new();
        last_leaps(v, pos, knight, chain.to.bit(), &mut last);
        let last = *last.first().expect("the chain's last leap");
        v.play_part(pos, &last);
        let leap = Leap {
            from: knight,
            to: chain.to,
            taken: last.captured,
        };
        leaps.push((before, leap));
    }
    set_in_chain(pos, false);
    leaps
}

fn leaps_of(v: &Variant, pos: &Position, chain: &Move) -> Vec<Leap> {
    let mut after = pos.clone();
    play_leaps(v, &mut after, chain)
        .into_iter()
        .map(|(_, leap)| leap)
        .collect()
}

fn is_chain(mv: &Move) -> bool {
    matches!(mv.special, Special::Event { number, .. } if number == NUMBER)
}

/// The leap written `N{origin}{x}{square}`, the origin as given; in long notation
/// (`long`) the origin is the square and a dash stands where nothing is taken.
fn leap_text(v: &Variant, leap: &Leap, origin: &str, long: bool) -> String {
    let take = match (leap.taken, long) {
        (Some(_), _) => "x",
        (None, true) => "-",
        (None, false) => "",
    };
    format!("N{origin}{take}{}", v.geometry.name(leap.to))
}

/// How the first leap names its knight (HH-6): as in SAN, by file, rank or square where
/// another knight could make a legal chain over the same squares.
fn origin(v: &Variant, pos: &Position, chain: &Move, leaps: &[Leap]) -> String {
    let g = v.geometry;
    let Some(knight) = knight_kind(v) else {
        return String::new();
    };
    let others = pos.pieces(pos.turn, knight) & !chain.from.bit();
    let mut rivals = Vec::new();
    v.legal_moves_between(pos, others, chain.to.bit(), &mut rivals);
    let rivals: Vec<Sq> = rivals
        .iter()
        .filter(|mv| {
            is_chain(mv)
                && leaps_of(v, pos, mv)
                    .iter()
                    .map(|l| l.to)
                    .eq(leaps.iter().map(|l| l.to))
        })
        .map(|mv| mv.from)
        .collect();
    if rivals.is_empty() {
        return String::new();
    }
    let name = g.name(chain.from);
    let (file, rank) = name.split_at(1);
    if rivals.iter().all(|&sq| !g.name(sq).starts_with(file)) {
        file.to_owned()
    } else if rivals.iter().all(|&sq| !g.name(sq).ends_with(rank)) {
        rank.to_owned()
    } else {
        name
    }
}

/// Whether the written part can be `leap`, the `first` of its chain or not: the square
/// it lands on, the knight's origin as far as written, no `x` onto an empty square, and
/// an `x` onto an own piece (HH-7: beside #115, `Nd2` onto an own rook boards it).
fn part_matches(v: &Variant, part: &PieceMove, leap: &Leap, first: bool, mover: Color) -> bool {
    let g = v.geometry;
    let targets = part.targets.as_slice();
    let Some(last) = targets.last() else {
        return false;
    };
    let square = |s| g.from_square(s);
    if square(last.square) != Some(leap.to)
        || last.separator == Separator::Capture && leap.taken.is_none()
        || last.separator != Separator::Capture
            && leap.taken.is_some_and(|taken| taken.color == mover)
        || part.placed.is_some()
        || part.arrow.is_some()
        || part.swap.is_some()
    {
        return false;
    }
    if let [origin, _] = targets
        && square(origin.square) != Some(leap.from)
    {
        return false;
    }
    if targets.len() > 2 {
        return false;
    }
    match part.hint {
        Some(Hint::File(file)) => first && file == g.file(leap.from),
        Some(Hint::Rank(rank)) => first && rank == g.rank(leap.from),
        None => true,
    }
}

/// A part as it was written, for the reasons.
fn part_text(part: &PieceMove) -> String {
    Notation {
        body: MoveBody::Piece(part.clone()),
        check: None,
        assessment: None,
    }
    .to_string()
}

fn written_parts(parts: &[MoveBody]) -> Option<Vec<&PieceMove>> {
    parts
        .iter()
        .map(|part| match part {
            MoveBody::Piece(m) if m.piece == Some('N') => Some(m),
            _ => None,
        })
        .collect()
}

/// Why the written parts make no chain of the side to move's knights, with the ruling.
fn why_no_chain(v: &Variant, pos: &Position, parts: &[&PieceMove], turn_text: &str) -> String {
    let g = v.geometry;
    let us = pos.turn;
    let named = |part: &PieceMove| {
        part.targets
            .as_slice()
            .last()
            .and_then(|t| g.from_square(t.square))
    };
    let squares: Vec<Option<Sq>> = parts.iter().map(|part| named(part)).collect();
    if let Some(king) = squares
        .iter()
        .flatten()
        .find(|&&sq| royals(v, pos, us).contains(sq))
    {
        return format!(
            "event #23 Hungry horses: a knight may take its own pieces but not its royal {} on {} (HH-1)",
            pos.piece_at(*king)
                .map_or("king", |p| v.piece(p.kind).name.as_str()),
            g.name(*king)
        );
    }
    // An own piece is taken only with `x` written (HH-7).
    if let Some(part) = parts.iter().zip(&squares).find_map(|(part, sq)| {
        let unmarked = part
            .targets
            .last()
            .is_some_and(|t| t.separator != Separator::Capture);
        (unmarked && sq.is_some_and(|sq| pos.by_color(us).contains(sq))).then_some(part)
    }) {
        return format!(
            "event #23 Hungry horses: `{}` lands on an own piece without `x`, and an own piece is taken only with `x` written (HH-7)",
            part_text(part)
        );
    }
    // Where each leap lands as written: every part but the last must take an own piece.
    let ends_early = squares[..squares.len() - 1].iter().position(|sq| {
        sq.is_none_or(|sq| pos.by_color(us.other()).contains(sq) || pos.piece_at(sq).is_none())
    });
    if let Some(k) = ends_early
        && parts.len() > 1
    {
        let text = part_text(parts[k]);
        return format!(
            "event #23 Hungry horses: in `{turn_text}` the leap `{text}` takes no own piece, so the chain ends there; only a knight that takes one of its own pieces leaps again (HH-3)"
        );
    }
    if parts.len() > MAX_TAKEN_ON_THE_WAY + 1 {
        return format!(
            "event #23 Hungry horses: xpgn holds chains of at most {} leaps, and `{turn_text}` has {} (HH-7)",
            MAX_TAKEN_ON_THE_WAY + 1,
            parts.len()
        );
    }
    format!(
        "event #23 Hungry horses: no {us} knight makes the chain `{turn_text}` here: each part is a leap of the same knight from where the part before left it, as the running events let it leap, onto an own piece that is not royal until the last (HH-1, HH-3, HH-8)"
    )
}

/// Several knights make the chain as written (HH-7): the spellings that name each.
fn ambiguous(v: &Variant, pos: &Position, chains: &[Move], turn_text: &str) -> Rejection {
    let g = v.geometry;
    let origins: Vec<String> = chains.iter().map(|mv| g.name(mv.from)).collect();
    let spellings: Vec<String> = chains
        .iter()
        .map(|mv| HungryHorses.san(v, pos, mv))
        .collect();
    Rejection {
        kind: RejectionKind::Ambiguous,
        reason: format!(
            "ambiguous: the knights on {} can each make the chain `{turn_text}`; its first leap names the knight (HH-7)",
            origins.join(" and ")
        ),
        help: Some(format!("write {}", spellings.join(" or "))),
    }
}

/// Reads the written chain `parts`: the one chain of the side to move they fit, legal.
fn resolve_chain(v: &Variant, pos: &Position, parts: &[&PieceMove]) -> Result<Move, Rejection> {
    let turn_text = parts
        .iter()
        .map(|part| part_text(part))
        .collect::<Vec<_>>()
        .join(",");
    let help = || san::legal_help(v, pos, &turn_text, knight_kind(v));
    if turns::between_parts(pos) {
        return Err(san::illegal(
            "event #23 Hungry horses: no chain is a part of another event's turn (HH-8)".to_owned(),
            help(),
        ));
    }
    let mut candidates = Vec::new();
    let all = v.geometry.all();
    chains(v, pos, all, all, &mut candidates);
    candidates.retain(|chain| {
        let leaps = leaps_of(v, pos, chain);
        leaps.len() == parts.len()
            && leaps
                .iter()
                .zip(parts)
                .enumerate()
                .all(|(k, (leap, part))| part_matches(v, part, leap, k == 0, pos.turn))
    });
    let chain = match candidates.as_slice() {
        [] => {
            return Err(san::illegal(
                why_no_chain(v, pos, parts, &turn_text),
                help(),
            ));
        }
        [chain] => *chain,
        several => {
            let mut legal = Vec::new();
            v.legal_moves(pos, &mut legal);
            let legal: Vec<Move> = several
                .iter()
                .filter(|mv| legal.contains(mv))
                .copied()
                .collect();
            match legal.as_slice() {
                [chain] => return Ok(*chain),
                [] => several[0],
                _ => return Err(ambiguous(v, pos, &legal, &turn_text)),
            }
        }
    };
    let mut legal = Vec::new();
    v.legal_moves_between(pos, chain.from.bit(), chain.to.bit(), &mut legal);
    if legal.contains(&chain) {
        return Ok(chain);
    }
    let us = pos.turn;
    let reason = match pos.events().into_iter().find(|e| !e.allows(v, pos, &chain)) {
        Some(event) => event.why_refused(v, pos, &chain),
        None if v.leaves_king_attacked(pos, &chain) => format!(
            "event #23 Hungry horses: the chain `{turn_text}` leaves the {us} king in check when it ends; a check on the way does not count, the position after the last leap does (HH-4)"
        ),
        None => format!(
            "the chain `{turn_text}` is not legal here (the rules of the running events and EC-2)"
        ),
    };
    Err(san::illegal(reason, help()))
}

impl Event for HungryHorses {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn reads(&self, form: crate::rules::event::Form) -> bool {
        form == crate::rules::event::Form::Turn
    }

    /// HH-5: a chain takes the enemy king only where it is no check, and wins.
    fn captures_kings(&self) -> bool {
        true
    }

    fn between_parts(&self, pos: &Position) -> bool {
        in_chain(pos)
    }

    fn extra_moves(
        &self,
        v: &Variant,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut Vec<Move>,
    ) {
        if turns::between_parts(pos) {
            return;
        }
        chains(v, pos, from, to, out);
    }

    fn play_extra(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        play_leaps(v, pos, mv);
    }

    /// HH-5: a player whose royal pieces a chain took has lost.
    fn winner(&self, v: &Variant, pos: &Position) -> Option<Color> {
        pos.event_state(NUMBER)?;
        v.tables.king?;
        Color::BOTH
            .into_iter()
            .find(|&c| royals(v, pos, c).is_empty())
            .map(Color::other)
    }

    fn victory(&self, winner: Color) -> (&'static str, String) {
        (
            "king-captured",
            format!(
                "{winner} took the {} king with a knight's chain, which wins under event #23 Hungry horses (HH-5)",
                winner.other()
            ),
        )
    }

    /// `Nxd2`: a knight taking an own piece that ends its chain at once (HH-1, HH-3).
    fn resolve(
        &self,
        v: &Variant,
        pos: &Position,
        written: &PieceMove,
    ) -> Option<Result<Move, Rejection>> {
        let g = v.geometry;
        let target = written.targets.as_slice().last()?;
        let square = g.from_square(target.square)?;
        let own = pos.piece_at(square)?.color == pos.turn;
        (written.piece == Some('N') && own).then(|| resolve_chain(v, pos, &[written]))
    }

    /// `Nxf3,Nxe5`: a chain of leaps of one knight (HH-3).
    fn resolve_turn(
        &self,
        v: &Variant,
        pos: &Position,
        written: &Notation,
    ) -> Option<Result<Move, Rejection>> {
        let MoveBody::Turn(parts) = &written.body else {
            return None;
        };
        let parts = written_parts(parts)?;
        Some(resolve_chain(v, pos, &parts))
    }

    /// `Nxf3,Nxe5`: each leap, the first naming its knight where another could make the
    /// same chain (HH-6).
    fn san(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        let leaps = leaps_of(v, pos, mv);
        let origin = origin(v, pos, mv, &leaps);
        leaps
            .iter()
            .enumerate()
            .map(|(k, leap)| leap_text(v, leap, if k == 0 { &origin } else { "" }, false))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// `Ng1xf3,Nf3xe5`.
    fn lan(&self, v: &Variant, pos: &Position, mv: &Move) -> String {
        leaps_of(v, pos, mv)
            .iter()
            .map(|leap| leap_text(v, leap, &v.geometry.name(leap.from), true))
            .collect::<Vec<_>>()
            .join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::event_chess;
    use crate::rules::{parse_fen, san, write_fen};

    fn running(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&HungryHorses, Some(pos.turn)).unwrap();
        pos
    }

    fn resolve(pos: &Position, token: &str) -> Result<Move, Rejection> {
        san::resolve(event_chess(), pos, &Notation::parse(token).unwrap())
    }

    #[test]
    fn a_chain_reads_writes_and_plays_leap_by_leap() {
        let v = event_chess();
        // HH-3: the own pawn on f3 lets the knight leap on and take on e5.
        let mut pos = running("4k1n1/8/8/4p3/8/5P2/8/4K1N1 w - - 0 1");
        let chain = resolve(&pos, "Nxf3,Nxe5").unwrap();
        assert_eq!(HungryHorses.san(v, &pos, &chain), "Nxf3,Nxe5");
        assert_eq!(HungryHorses.lan(v, &pos, &chain), "Ng1xf3,Nf3xe5");
        assert!(
            chain.captured.is_some(),
            "HH-2: the black pawn is a capture"
        );
        v.play(&mut pos, &chain);
        assert!(write_fen(v, &pos).starts_with("4k1n1/8/8/4N3/8/8/8/4K3 b"));
    }

    #[test]
    fn an_own_piece_taken_is_no_capture_but_takes_a_castling_right_along() {
        let v = event_chess();
        // HH-2: the rook on h1 is taken; white keeps only the long castling right.
        let mut pos = running("r3k2r/8/1n6/8/8/6N1/8/R3K2R w KQkq - 0 1");
        let taken = resolve(&pos, "Nxh1").unwrap();
        assert_eq!(taken.captured, None);
        v.play(&mut pos, &taken);
        assert!(
            write_fen(v, &pos).contains(" b Qkq "),
            "{}",
            write_fen(v, &pos)
        );
        assert_eq!(pos.captures, [0, 0], "HH-2: no capture for EC-2");
    }

    #[test]
    fn a_chain_that_takes_the_king_wins_even_leaving_its_own_king_in_check() {
        let v = event_chess();
        // HH-5: the rook on a1 checks the white king once the knight has left d1, yet
        // the chain took the black king; HH-4: without it, it may not leave d1.
        let mut pos = running("7n/8/5k2/8/4P3/8/5P2/r2NK3 w - - 0 1");
        let exposed = resolve(&pos, "Nxf2,Nh3").unwrap_err();
        assert!(exposed.reason.contains("HH-4"), "{}", exposed.reason);
        let chain = resolve(&pos, "Nxf2,Nxe4,Nxf6").unwrap();
        v.play(&mut pos, &chain);
        assert_eq!(HungryHorses.winner(v, &pos), Some(Color::White));
    }

    #[test]
    fn a_chain_ends_with_a_leap_that_takes_no_own_piece() {
        let pos = running("4k1n1/8/8/4p3/8/3P1P2/8/4K1N1 w - - 0 1");
        let refused = resolve(&pos, "Nxf3,Nxe5,Nxd3").unwrap_err();
        assert!(refused.reason.contains("HH-3"), "{}", refused.reason);
        let king = running("4k2n/8/8/8/8/8/4K3/6N1 w - - 0 1");
        let refused = resolve(&king, "Nxe2").unwrap_err();
        assert!(refused.reason.contains("HH-1"), "{}", refused.reason);
    }

    #[test]
    fn a_chain_holds_six_leaps_and_a_longer_one_is_refused_with_the_limit() {
        // HH-7: six own pieces in a row from a1 to g1.
        let pos = running("K6k/7n/8/4P3/8/1P1P1P2/8/N1B3R1 w - - 0 1");
        assert!(resolve(&pos, "Nxb3,Nxc1,Nxd3,Nxe5,Nxf3,Nxg1").is_ok());
        let longer = resolve(&pos, "Nxb3,Nxc1,Nxd3,Nxe5,Nxf3,Nxg1,Nh3").unwrap_err();
        assert!(longer.reason.contains("HH-7"), "{}", longer.reason);
    }

    #[test]
    fn chain_data_holds_five_own_captures_on_the_way() {
        let data =
            (0..MAX_TAKEN_ON_THE_WAY as u16).fold(1u16, |data, nth| data << TARGET_BITS | nth);
        assert_eq!(taken_on_the_way(data), vec![0, 1, 2, 3, 4]);
        assert_eq!(taken_on_the_way(1), Vec::<usize>::new());
    }
}
