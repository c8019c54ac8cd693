//! Squares and bitboards for boards up to 128 squares (10x10 and beyond).
//!
//! A square is an index `rank * width + file` into a `u128` bitboard; the variant's
//! [`Geometry`] turns written squares into indices and back. Every direction of a
//! rider (rook, bishop, nightrider) then walks the indices monotonically, so the first
//! blocker on a ray is the lowest or highest set bit of `ray & occupied`.

use std::fmt;

use crate::notation::Square;

/// The most squares a board may have: one bit each in a `u128`.
pub const MAX_SQUARES: usize = 128;

/// One of the eight directions along a line or diagonal (a facing knight's, LK-1):
/// 0 toward the last rank, then clockwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Direction(pub u8);

impl Direction {
    /// An arrow pointing this way, in Unicode or in ASCII (where the diagonals share two
    /// characters; a legend names each direction exactly).
    pub fn arrow(self, ascii: bool) -> char {
        let index = usize::from(self.0 % 8);
        if ascii {
            ['^', '/', '>', '\\', 'v', '/', '<', '\\'][index]
        } else {
            ['↑', '↗', '→', '↘', '↓', '↙', '←', '↖'][index]
        }
    }

    pub const ALL: [Direction; 8] = [
        Direction(0),
        Direction(1),
        Direction(2),
        Direction(3),
        Direction(4),
        Direction(5),
        Direction(6),
        Direction(7),
    ];

    /// The step (files, ranks) of this direction.
    pub const fn step(self) -> (i32, i32) {
        [
            (0, 1),
            (1, 1),
            (1, 0),
            (1, -1),
            (0, -1),
            (-1, -1),
            (-1, 0),
            (-1, 1),
        ][self.0 as usize]
    }

    /// The direction from one square toward another on its line or diagonal, given as
    /// file and rank offsets (`None` for the same square or off any line).
    pub fn toward(df: i32, dr: i32) -> Option<Direction> {
        if (df, dr) == (0, 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return None;
        }
        let step = (df.signum(), dr.signum());
        Direction::ALL.into_iter().find(|d| d.step() == step)
    }
}

/// A square's index on its board (`rank * width + file`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sq(pub u8);

impl Sq {
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn bit(self) -> Bitboard {
        Bitboard(1 << self.0)
    }
}

/// A set of squares.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn nonempty(self) -> bool {
        self.0 != 0
    }

    pub const fn contains(self, sq: Sq) -> bool {
        self.0 >> sq.0 & 1 != 0
    }

    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square.
    pub const fn first(self) -> Option<Sq> {
        if self.0 == 0 {
            None
        } else {
            Some(Sq(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest square.
    pub const fn last(self) -> Option<Sq> {
        if self.0 == 0 {
            None
        } else {
            Some(Sq(127 - self.0.leading_zeros() as u8))
        }
    }

    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    pub fn set(&mut self, sq: Sq) {
        self.0 |= 1 << sq.0;
    }

    pub fn clear(&mut self, sq: Sq) {
        self.0 &= !(1 << sq.0);
    }

    pub fn toggle(&mut self, sq: Sq) {
        self.0 ^= 1 << sq.0;
    }
}

impl Iterator for Bitboard {
    type Item = Sq;

    fn next(&mut self) -> Option<Sq> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl FromIterator<Sq> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Sq>>(squares: I) -> Bitboard {
        squares
            .into_iter()
            .fold(Bitboard::EMPTY, |bb, sq| bb | sq.bit())
    }
}

impl std::ops::BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl std::ops::BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl std::ops::BitXor for Bitboard {
    type Output = Bitboard;
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl std::ops::BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl std::ops::BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl std::ops::BitXorAssign for Bitboard {
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(*self).finish()
    }
}

/// The board's size, and the mapping between written squares and indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub width: u8,
    pub height: u8,
}

impl Geometry {
    /// A board of `width` files and `height` ranks, or why it cannot be one.
    pub fn new(width: u8, height: u8) -> Result<Geometry, String> {
        if !(1..=16).contains(&width) || !(1..=16).contains(&height) {
            return Err(format!(
                "a board has 1 to 16 files and ranks, not {width}x{height}"
            ));
        }
        if usize::from(width) * usize::from(height) > MAX_SQUARES {
            return Err(format!(
                "a board has at most {MAX_SQUARES} squares, not {width}x{height}"
            ));
        }
        Ok(Geometry { width, height })
    }

    pub const fn squares(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Every square of the board.
    pub fn all(self) -> Bitboard {
        let n = self.squares();
        Bitboard(if n == 128 { u128::MAX } else { (1 << n) - 1 })
    }

    pub fn sq(self, file: u8, rank: u8) -> Option<Sq> {
        (file < self.width && rank < self.height).then(|| Sq(rank * self.width + file))
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    pub fn offset(self, sq: Sq, df: i32, dr: i32) -> Option<Sq> {
        let file = i32::from(self.file(sq)) + df;
        let rank = i32::from(self.rank(sq)) + dr;
        if (0..i32::from(self.width)).contains(&file) && (0..i32::from(self.height)).contains(&rank)
        {
            self.sq(file as u8, rank as u8)
        } else {
            None
        }
    }

    pub const fn file(self, sq: Sq) -> u8 {
        sq.0 % self.width
    }

    pub const fn rank(self, sq: Sq) -> u8 {
        sq.0 / self.width
    }

    pub fn from_square(self, square: Square) -> Option<Sq> {
        self.sq(square.file, square.rank)
    }

    pub fn square(self, sq: Sq) -> Square {
        Square::new(self.file(sq), self.rank(sq))
    }

    /// Every square of one rank (a rank's indices are consecutive).
    pub fn rank_mask(self, rank: u8) -> Bitboard {
        if rank >= self.height {
            return Bitboard::EMPTY;
        }
        let row = (1u128 << self.width) - 1;
        Bitboard(row << (u32::from(rank) * u32::from(self.width)))
    }

    /// Every square of one file.
    pub fn file_mask(self, file: u8) -> Bitboard {
        if file >= self.width {
            return Bitboard::EMPTY;
        }
        let mut mask = 0u128;
        for rank in 0..u32::from(self.height) {
            mask |= 1 << (rank * u32::from(self.width) + u32::from(file));
        }
        Bitboard(mask)
    }

    /// The squares strictly between two squares on a line, or none if they share no line.
    pub fn between(self, a: Sq, b: Sq) -> Bitboard {
        if self.rank(a) == self.rank(b) {
            // A rank's squares have consecutive indices (castling asks this often).
            let (low, high) = (a.0.min(b.0), a.0.max(b.0));
            let below_high = if high == 0 { 0 } else { (1u128 << high) - 1 };
            return Bitboard(below_high & !((1u128 << low) - 1) & !(1u128 << low));
        }
        let df = i32::from(self.file(b)) - i32::from(self.file(a));
        let dr = i32::from(self.rank(b)) - i32::from(self.rank(a));
        if (df == 0 && dr == 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return Bitboard::EMPTY;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let mut out = Bitboard::EMPTY;
        let mut at = a;
        while let Some(next) = self.offset(at, sf, sr) {
            if next == b {
                break;
            }
            out.set(next);
            at = next;
        }
        out
    }

    /// Writes a square as `e4` or `j10`.
    pub fn name(self, sq: Sq) -> String {
        self.square(sq).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_round_trip_on_ten_by_ten() {
        let g = Geometry::new(10, 10).unwrap();
        let j10 = g.sq(9, 9).unwrap();
        assert_eq!(j10, Sq(99));
        assert_eq!(g.name(j10), "j10");
        assert_eq!(g.offset(j10, 1, 0), None);
        assert_eq!(g.all().count(), 100);
        assert_eq!(g.rank_mask(0).count(), 10);
        assert!(g.rank_mask(9).contains(j10));
        assert_eq!(g.file_mask(9).count(), 10);
        assert!(g.file_mask(9).contains(j10));
        assert!(g.file_mask(10).is_empty());
        let wide = Geometry::new(16, 8).unwrap();
        assert_eq!(wide.rank_mask(7).last(), wide.sq(15, 7));
    }

    #[test]
    fn bitboards_iterate_in_order_and_find_ends() {
        let bb = Bitboard(0b1010_0100);
        assert_eq!(bb.collect::<Vec<_>>(), [Sq(2), Sq(5), Sq(7)]);
        assert_eq!(bb.first(), Some(Sq(2)));
        assert_eq!(bb.last(), Some(Sq(7)));
        assert!(bb.has_more_than_one());
        assert!(!Sq(127).bit().has_more_than_one());
        assert_eq!(Sq(127).bit().last(), Some(Sq(127)));
    }

    #[test]
    fn between_follows_lines_only() {
        let g = Geometry::new(8, 8).unwrap();
        let sq = |s: &str| {
            let b = s.as_bytes();
            g.sq(b[0] - b'a', b[1] - b'1').unwrap()
        };
        assert_eq!(g.between(sq("e1"), sq("h1")).count(), 2);
        assert_eq!(g.between(sq("a1"), sq("h8")).count(), 6);
        assert!(g.between(sq("a1"), sq("b3")).is_empty());
        assert!(g.between(sq("a1"), sq("b2")).is_empty());
    }

    #[test]
    fn geometry_refuses_boards_that_do_not_fit() {
        assert!(Geometry::new(12, 12).is_err());
        assert!(Geometry::new(0, 8).is_err());
        assert!(Geometry::new(16, 8).is_ok());
    }
}
