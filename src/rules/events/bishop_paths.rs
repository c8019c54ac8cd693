//! The paths bishops take under #30 Drunken Bishops (DB-1..DB-3), #38 Forward
//! Rotations (FR-1..FR-3) and #33 Bouncing Bishops (BB-2..BB-4), alone or running
//! together (DB-8, FR-7, BB-7): each replaces a bishop's slide, so one generator serves
//! them all and each event asks it with the rules of every one of them that runs.
//!
//! A path is the squares a bishop passes over in order; it may stop on any of them, and
//! the last one may hold a piece (the first met, which it captures or attacks).

use super::{movement_kind, replaced_reach};
use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::Reach;
use crate::rules::piece::{Color, Piece};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

/// The number of #30 Drunken Bishops.
pub(super) const DRUNKEN: u16 = 30;
/// The number of #38 Forward Rotations.
pub(super) const FORWARD: u16 = 38;
/// The number of #33 Bouncing Bishops.
pub(super) const BOUNCING: u16 = 33;

/// The four diagonal steps, in files and ranks.
const DIAGONALS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Which of the two events run.
#[derive(Clone, Copy)]
struct Rules {
    /// #30: one step, then a turn of 90 degrees (DB-1).
    bent: bool,
    /// #38: forward legs wrap round the edges, backward ones are a single step (FR-1).
    wraps: bool,
    /// #33: slides bounce off the edges (BB-2); not while #38 wraps them (BB-7).
    bounces: bool,
    /// The first and last file left on the board, whose edges a wrap goes round (SB-6).
    files: (u8, u8),
    /// Squares off the board (SB-2), which no path enters.
    removed: Bitboard,
}

fn rules(v: &Variant, pos: &Position) -> Rules {
    let running = |number| pos.events().iter().any(|e| e.number() == number);
    Rules {
        bent: running(DRUNKEN),
        wraps: running(FORWARD),
        bounces: running(BOUNCING) && !running(FORWARD),
        files: super::files_left(v, pos),
        removed: super::removed_squares(v, pos),
    }
}

/// Whether a diagonal step goes toward the opponent's side of `color` (FR-1).
fn forward(color: Color, (_, dr): (i32, i32)) -> bool {
    match color {
        Color::White => dr > 0,
        Color::Black => dr < 0,
    }
}

/// The square one diagonal step from `at`: a forward step off the board comes back on at
/// the opposite edge under #38, file and rank together at a corner (FR-1, FR-3).
fn step(v: &Variant, color: Color, at: Sq, d: (i32, i32), rules: Rules) -> Option<Sq> {
    let g = v.geometry;
    let next = if rules.wraps && forward(color, d) {
        let around = |coordinate: u8, by: i32, (first, last): (u8, u8)| {
            let size = i32::from(last) - i32::from(first) + 1;
            let offset = (i32::from(coordinate) - i32::from(first) + by).rem_euclid(size);
            u8::try_from(i32::from(first) + offset).ok()
        };
        g.sq(
            around(g.file(at), d.0, rules.files)?,
            around(g.rank(at), d.1, (0, g.height - 1))?,
        )
    } else {
        g.offset(at, d.0, d.1)
    };
    next.filter(|&sq| !rules.removed.contains(sq))
}

/// The direction a slide along `d` goes on in from `at` under #33: the part that would
/// leave the board (the files left on it, SB-6) reversed, both at a corner (BB-2, BB-3).
fn bounced(v: &Variant, at: Sq, (df, dr): (i32, i32), rules: Rules) -> (i32, i32) {
    let g = v.geometry;
    let within = |coordinate: u8, by: i32, (first, last): (u8, u8)| {
        (i32::from(first)..=i32::from(last)).contains(&(i32::from(coordinate) + by))
    };
    let df = if within(g.file(at), df, rules.files) {
        df
    } else {
        -df
    };
    let dr = if within(g.rank(at), dr, (0, g.height - 1)) {
        dr
    } else {
        -dr
    };
    (df, dr)
}

/// Slides from `start` along `d` for at most `most` squares onto `path`: up to the first
/// piece met (included), the edge, or the square before `start` comes round again
/// (FR-2). Under #33 the slide bounces off the edges, passes over `start` (empty once the
/// bishop has left it) and ends where it would go on from `start` the way it began, the
/// first square and direction to repeat (BB-4).
fn slide(
    v: &Variant,
    (color, rules): (Color, Rules),
    start: Sq,
    d: (i32, i32),
    most: usize,
    occupied: Bitboard,
    path: &mut Vec<Sq>,
) {
    if rules.bounces {
        bounce(v, rules, start, d, occupied, path);
        return;
    }
    let mut at = start;
    for _ in 0..most {
        let Some(next) = step(v, color, at, d, rules).filter(|&next| next != start) else {
            break;
        };
        path.push(next);
        if occupied.contains(next) {
            break;
        }
        at = next;
    }
}

/// [`slide`] under #33 (BB-2..BB-4). A slide that bounces is periodic, each square and
/// direction followed by one other and preceded by one other, so the first to repeat is
/// the one it began with.
fn bounce(
    v: &Variant,
    rules: Rules,
    start: Sq,
    mut d: (i32, i32),
    occupied: Bitboard,
    path: &mut Vec<Sq>,
) {
    let mut at = start;
    let mut began = None;
    // The period is at most four times the squares of the board: a safe bound.
    for _ in 0..4 * v.geometry.squares() {
        d = bounced(v, at, d, rules);
        match began {
            None => began = Some(d),
            Some(first) if at == start && d == first => break,
            Some(_) => {}
        }
        let Some(next) = v
            .geometry
            .offset(at, d.0, d.1)
            .filter(|&sq| !rules.removed.contains(sq))
        else {
            break;
        };
        at = next;
        if next == start {
            continue;
        }
        path.push(next);
        if occupied.contains(next) {
            break;
        }
    }
}

/// Every longest path of a bishop of `color` on `from` with `occupied` in the way.
fn paths(v: &Variant, color: Color, from: Sq, occupied: Bitboard, rules: Rules) -> Vec<Vec<Sq>> {
    let far = v.geometry.squares();
    // FR-1: a backward leg is a single step.
    let most = |d| {
        if rules.wraps && !forward(color, d) {
            1
        } else {
            far
        }
    };
    let mut out = Vec::new();
    for d1 in DIAGONALS {
        if !rules.bent {
            let mut path = Vec::new();
            slide(v, (color, rules), from, d1, most(d1), occupied, &mut path);
            if !path.is_empty() {
                out.push(path);
            }
            continue;
        }
        // DB-1, DB-2: the first square, where it may stop or capture.
        let Some(first) = step(v, color, from, d1, rules) else {
            continue;
        };
        if occupied.contains(first) {
            out.push(vec![first]);
            continue;
        }
        // DB-1, DB-3: one turn, left or right; DB-8, FR-7: never two squares back.
        for d2 in [(-d1.1, d1.0), (d1.1, -d1.0)] {
            let mut path = vec![first];
            let back_twice = rules.wraps && !forward(color, d1) && !forward(color, d2);
            if !back_twice {
                slide(v, (color, rules), first, d2, most(d2), occupied, &mut path);
            }
            out.push(path);
        }
    }
    out
}

/// Whether the `piece` on `from` is a bishop that moves as one (DB-5, FR-4: a bishop
/// that #76 makes leap as a knight is not, nor a knight that slides as a bishop).
fn is_moving_bishop(v: &Variant, pos: &Position, from: Sq, piece: Piece) -> bool {
    v.kind_of_letter('B')
        .is_some_and(|bishop| piece.kind == bishop && movement_kind(v, pos, from, piece) == bishop)
}

/// Where a bishop goes with `occupied` in the way under the running bishop events, as
/// #30 or #38 (`number`) gives it: every square of its paths, then the reach events
/// started before `number` applied again (DB-5, FR-4).
pub(super) fn reach(
    v: &Variant,
    pos: &Position,
    (from, piece): (Sq, Piece),
    occupied: Bitboard,
    reach: &mut Reach,
    number: u16,
) {
    if !is_moving_bishop(v, pos, from, piece) {
        return;
    }
    let mut attacks: Bitboard = paths(v, piece.color, from, occupied, rules(v, pos))
        .into_iter()
        .flatten()
        .collect();
    // A bounced path may come back over the bishop's own square (BB-4).
    attacks.clear(from);
    let own = Reach {
        quiet: attacks & !occupied,
        attacks,
    };
    *reach = replaced_reach(v, pos, (from, piece), own, occupied, number);
}

/// The ways a bishop goes from `from` to `to` under the running bishop events, each the
/// squares it passes over, `to` last ([`crate::rules::Event::routes`]; DB-7, FR-6).
pub(super) fn routes(
    v: &Variant,
    pos: &Position,
    (from, piece): (Sq, Piece),
    to: Sq,
    occupied: Bitboard,
) -> Vec<Vec<Sq>> {
    if !is_moving_bishop(v, pos, from, piece) {
        return Vec::new();
    }
    let mut ways: Vec<Vec<Sq>> = Vec::new();
    for path in paths(v, piece.color, from, occupied, rules(v, pos)) {
        if let Some(at) = path.iter().position(|&sq| sq == to) {
            let way = path[..=at].to_vec();
            if !ways.contains(&way) {
                ways.push(way);
            }
        }
    }
    ways
}

/// The squares a bishop on `from` reaches with `occupied` in the way under the running
/// bishop events alone, for the explanations of an illegal move or a check.
pub(super) fn squares(
    v: &Variant,
    pos: &Position,
    (from, piece): (Sq, Piece),
    occupied: Bitboard,
) -> Option<Bitboard> {
    is_moving_bishop(v, pos, from, piece).then(|| {
        paths(v, piece.color, from, occupied, rules(v, pos))
            .into_iter()
            .flatten()
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::testing::{event_chess, sq};

    fn names(squares: impl IntoIterator<Item = Sq>) -> Vec<String> {
        let mut out: Vec<String> = squares
            .into_iter()
            .map(|s| event_chess().geometry.name(s))
            .collect();
        out.sort();
        out
    }

    /// The rules on the whole board.
    fn whole_board(bent: bool, wraps: bool) -> Rules {
        Rules {
            bent,
            wraps,
            bounces: false,
            files: (0, 7),
            removed: Bitboard::EMPTY,
        }
    }

    #[test]
    fn sb_6_without_files_a_and_h_a_wrap_goes_round_files_b_and_g() {
        let removed = event_chess().geometry.file_mask(0) | event_chess().geometry.file_mask(7);
        let smaller = Rules {
            files: (1, 6),
            removed,
            ..whole_board(false, true)
        };
        // Up-right from g3 the next square is b4, then c5.
        let from_g3 = reached(smaller, Color::White, "g3", &[]);
        for square in ["b4", "c5", "f2"] {
            assert!(
                from_g3.contains(&square.to_owned()),
                "{square}: {from_g3:?}"
            );
        }
        assert!(
            from_g3.iter().all(|s| !s.starts_with(['a', 'h'])),
            "{from_g3:?}"
        );
        // #30's bent path never turns on a removed square: a1 is gone, b2-a3 too.
        let bent = Rules {
            files: (1, 6),
            removed,
            ..whole_board(true, false)
        };
        assert_eq!(reached(bent, Color::White, "b1", &[]), ["b3", "c2", "d1"]);
    }

    fn reached(rules: Rules, color: Color, from: &str, occupied: &[&str]) -> Vec<String> {
        let occupied: Bitboard = occupied.iter().map(|s| sq(s)).chain([sq(from)]).collect();
        names(
            paths(event_chess(), color, sq(from), occupied, rules)
                .into_iter()
                .flatten()
                .collect::<Bitboard>(),
        )
    }

    #[test]
    fn db_1_one_step_then_a_turn_never_straight_on() {
        let bent = whole_board(true, false);
        // From a1 the only first square is b2; the turns go to a3 or along b2-h8's
        // perpendicular c1.
        assert_eq!(reached(bent, Color::White, "a1", &[]), ["a3", "b2", "c1"]);
        // A piece on b2 stops it there (DB-2).
        assert_eq!(reached(bent, Color::White, "a1", &["b2"]), ["b2"]);
    }

    #[test]
    fn fr_1_to_fr_3_forward_wraps_backward_steps_once() {
        let wraps = whole_board(false, true);
        // The catalogue's d3-a6 then h7-g8 (FR-1).
        let white = reached(wraps, Color::White, "d3", &[]);
        for square in ["a6", "h7", "g8", "c2", "e2"] {
            assert!(white.contains(&square.to_owned()), "{square}: {white:?}");
        }
        // FR-1: with both forward ways blocked, one step back only.
        assert_eq!(
            reached(wraps, Color::White, "d3", &["c4", "e4"]),
            ["c2", "c4", "e2", "e4"]
        );
        // FR-3: up-left from a8 the next square is h1.
        assert!(reached(wraps, Color::White, "a8", &[]).contains(&"h1".to_owned()));
        // FR-2: seven squares each way forward, never the start square itself; a5 lies
        // on both ways.
        assert_eq!(reached(wraps, Color::White, "e1", &[]).len(), 13);
    }

    #[test]
    fn db_8_fr_7_together_the_second_leg_wraps_and_never_two_back() {
        let both = whole_board(true, true);
        // White bishop h3: the first step up-right wraps to a4, then turns.
        let from_h3 = reached(both, Color::White, "h3", &[]);
        assert!(from_h3.contains(&"a4".to_owned()), "{from_h3:?}");
        // From d4 a step back to c3 or e3 never turns back again to d2, which #30 alone
        // reaches (b4 and f4 cut the forward legs that would wrap round to it).
        let blocked = ["b4", "f4"];
        assert!(!reached(both, Color::White, "d4", &blocked).contains(&"d2".to_owned()));
        let bent = whole_board(true, false);
        assert!(reached(bent, Color::White, "d4", &blocked).contains(&"d2".to_owned()));
    }
}
