//! Chains of hops, shared by #67 Emperor (a king, EM-2, EM-5) and #14 Chinese Checkers
//! (a pawn, CC-2, CC-3): a piece jumps over an adjacent piece of either colour, in any of
//! the eight directions, to the empty square straight beyond, and may chain such jumps
//! in one move. The piece has left its square, which counts as empty on the way; a hop
//! takes nothing.

use crate::notation::{PieceMove, Separator};
use crate::rules::board::{Bitboard, Direction, MAX_SQUARES, Sq};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

/// The squares a piece on `start` ends a chain of hops on, each with the square the first
/// chain to reach it came from, found breadth first so that a path read back is a
/// shortest one.
pub(super) struct Hops {
    start: Sq,
    came_from: [Option<Sq>; MAX_SQUARES],
    /// Every square a chain ends on; never `start` (a chain that comes back is no move).
    pub reached: Bitboard,
}

/// The board a chain of the piece on `start` hops on: the pieces to hop over (the piece
/// itself gone from its square) and the squares it may land on.
fn board(v: &Variant, pos: &Position, start: Sq) -> (Bitboard, Bitboard) {
    let occupied = pos.occupied() & !start.bit();
    let open = v.geometry.all() & !occupied & !super::removed_squares(v, pos);
    (occupied, open)
}

impl Hops {
    pub fn new(v: &Variant, pos: &Position, start: Sq) -> Hops {
        let g = v.geometry;
        let (occupied, open) = board(v, pos, start);
        let mut hops = Hops {
            start,
            came_from: [None; MAX_SQUARES],
            reached: Bitboard::EMPTY,
        };
        let mut seen = start.bit();
        let mut queue = vec![start];
        let mut next = 0;
        while let Some(&sq) = queue.get(next) {
            next += 1;
            for direction in Direction::ALL {
                let (df, dr) = direction.step();
                let Some(over) = g.offset(sq, df, dr) else {
                    continue;
                };
                let Some(land) = g.offset(sq, 2 * df, 2 * dr) else {
                    continue;
                };
                if occupied.contains(over) && open.contains(land) && !seen.contains(land) {
                    seen.set(land);
                    hops.came_from[land.index()] = Some(sq);
                    hops.reached.set(land);
                    queue.push(land);
                }
            }
        }
        hops
    }

    /// A shortest chain to `to`, the start first and `to` last.
    pub fn path(&self, to: Sq) -> Vec<Sq> {
        let mut path = vec![to];
        let mut at = to;
        while at != self.start {
            at = self.came_from[at.index()].expect("a square the hops reach");
            path.push(at);
        }
        path.reverse();
        path
    }
}

/// The names of a chain's squares joined by dashes: `e2-e4-e6-e8`.
pub(super) fn spelled(v: &Variant, path: &[Sq]) -> String {
    let names: Vec<String> = path.iter().map(|&sq| v.geometry.name(sq)).collect();
    names.join("-")
}

/// Whether every step of a written path goes two squares along a line or diagonal: the
/// shape of a chain of hops (`Ke2-e4-e6-e8`, `h7-f5-d3`).
pub(super) fn hop_shaped(v: &Variant, path: &[Sq]) -> bool {
    let g = v.geometry;
    path.len() >= 2
        && path.windows(2).all(|pair| {
            let df = i32::from(g.file(pair[1])) - i32::from(g.file(pair[0]));
            let dr = i32::from(g.rank(pair[1])) - i32::from(g.rank(pair[0]));
            matches!(df, -2 | 0 | 2) && matches!(dr, -2 | 0 | 2) && (df, dr) != (0, 0)
        })
}

/// The squares of a move written as a path (`Ke2-e4-e6-e8`), every one after the first
/// joined by a dash: `None` where it is not so written or names a square off the board.
pub(super) fn written_path(v: &Variant, written: &PieceMove) -> Option<Vec<Sq>> {
    let targets = written.targets.as_slice();
    let plain = written.hint.is_none()
        && written.placed.is_none()
        && written.arrow.is_none()
        && written.swap.is_none()
        && targets.len() >= 2
        && targets[1..].iter().all(|t| t.separator == Separator::Dash)
        && targets[..targets.len() - 1]
            .iter()
            .all(|t| t.promotion.is_none());
    if !plain {
        return None;
    }
    targets
        .iter()
        .map(|t| v.geometry.from_square(t.square))
        .collect()
}

/// Why the written chain of the piece on `path[0]` is no chain of hops on this board,
/// if it is not: the first step that fails, in words (the ruling is the caller's).
pub(super) fn broken_hop(v: &Variant, pos: &Position, path: &[Sq]) -> Option<String> {
    let g = v.geometry;
    let (occupied, open) = board(v, pos, path[0]);
    path.windows(2).find_map(|pair| {
        let (from, to) = (pair[0], pair[1]);
        let df = (i32::from(g.file(to)) - i32::from(g.file(from))) / 2;
        let dr = (i32::from(g.rank(to)) - i32::from(g.rank(from))) / 2;
        let over = g.offset(from, df, dr)?;
        if !occupied.contains(over) {
            Some(format!(
                "the hop from {} to {} has no piece on {} to jump over",
                g.name(from),
                g.name(to),
                g.name(over)
            ))
        } else if !open.contains(to) {
            Some(format!(
                "the hop from {} to {} lands on {}, which is not empty",
                g.name(from),
                g.name(to),
                g.name(to)
            ))
        } else {
            None
        }
    })
}
