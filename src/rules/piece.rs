//! Pieces as data: a letter, a name, a role and movement atoms in Betza's notation.
//!
//! The fil (`DA`), archbishop (`BN`) and chancellor (`RN`) of Secret Invisible Pass Chess
//! are three strings here, not three pieces of code.

use std::fmt;

/// A side: White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The rank direction this side's pawns move in.
    pub const fn forward(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece type: the index of its definition in the variant's piece list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(pub u8);

impl Kind {
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

/// What the rules treat specially about a piece type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Royal: may not be left in check, castles.
    King,
    /// Steps forward, captures diagonally forward, double-steps, en passant, promotes.
    Pawn,
    /// Moves and captures by its atoms alone.
    Piece,
}

/// One movement atom: a leap of `(dx, dy)` in all eight symmetric directions, repeated
/// along the line when `rider` (so `W` is a wazir and `WW` a rook).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Atom {
    pub dx: i8,
    pub dy: i8,
    pub rider: bool,
}

impl Atom {
    /// The distinct directions of the atom's eight symmetric images.
    pub fn directions(self) -> Vec<(i32, i32)> {
        let (a, b) = (i32::from(self.dx), i32::from(self.dy));
        let mut out: Vec<(i32, i32)> = Vec::with_capacity(8);
        for (x, y) in [(a, b), (b, a)] {
            for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let d = (x * sx, y * sy);
                if !out.contains(&d) {
                    out.push(d);
                }
            }
        }
        out
    }
}

/// Parses a movement in a subset of Betza's notation: the leapers `W F D N A H C Z G`,
/// a doubled letter for a rider (`WW` rook, `NN` nightrider), and the shorthands `K`
/// (`WF`), `R` (`WW`), `B` (`FF`) and `Q` (`WWFF`). Pawns and castling are roles, not
/// atoms.
pub fn parse_betza(text: &str) -> Result<Vec<Atom>, String> {
    let leap = |c: char| -> Option<(i8, i8)> {
        Some(match c {
            'W' => (1, 0),
            'F' => (1, 1),
            'D' => (2, 0),
            'N' => (2, 1),
            'A' => (2, 2),
            'H' => (3, 0),
            'C' => (3, 1),
            'Z' => (3, 2),
            'G' => (3, 3),
            _ => return None,
        })
    };
    let mut atoms: Vec<Atom> = Vec::new();
    let mut add = |dx: i8, dy: i8, rider: bool| {
        if let Some(existing) = atoms.iter_mut().find(|a| (a.dx, a.dy) == (dx, dy)) {
            existing.rider |= rider;
        } else {
            atoms.push(Atom { dx, dy, rider });
        }
    };
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.is_empty() {
        return Err("a movement needs at least one atom".to_owned());
    }
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            'K' => {
                add(1, 0, false);
                add(1, 1, false);
            }
            'R' => add(1, 0, true),
            'B' => add(1, 1, true),
            'Q' => {
                add(1, 0, true);
                add(1, 1, true);
            }
            _ => {
                let (dx, dy) = leap(c).ok_or_else(|| {
                    format!("`{c}` is not a movement atom (known: W F D N A H C Z G, K R B Q)")
                })?;
                let rider = chars.get(i + 1) == Some(&c);
                if rider {
                    i += 1;
                }
                add(dx, dy, rider);
            }
        }
        i += 1;
    }
    Ok(atoms)
}

/// A piece type of a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    /// The upper-case letter of SAN and FEN (`N`, `F`, `A`).
    pub letter: char,
    pub name: String,
    pub role: Role,
    /// What it attacks and moves to (for pawns: unused; their moves are the role's).
    pub atoms: Vec<Atom>,
}

impl PieceDef {
    pub fn new(letter: char, name: &str, role: Role, betza: &str) -> Result<PieceDef, String> {
        let atoms = if role == Role::Pawn {
            Vec::new()
        } else {
            parse_betza(betza)?
        };
        Ok(PieceDef {
            letter,
            name: name.to_owned(),
            role,
            atoms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn betza_shorthands_and_riders() {
        let rook = parse_betza("R").unwrap();
        assert_eq!(rook, parse_betza("WW").unwrap());
        let fil = parse_betza("DA").unwrap();
        assert!(fil.iter().all(|a| !a.rider));
        assert_eq!(fil.len(), 2);
        let archbishop = parse_betza("BN").unwrap();
        assert_eq!(
            archbishop,
            [
                Atom {
                    dx: 1,
                    dy: 1,
                    rider: true
                },
                Atom {
                    dx: 2,
                    dy: 1,
                    rider: false
                }
            ]
        );
        assert!(parse_betza("NN").unwrap()[0].rider);
        assert!(parse_betza("X").is_err());
        assert!(parse_betza("").is_err());
    }

    #[test]
    fn atoms_have_eight_or_four_directions() {
        let knight = Atom {
            dx: 2,
            dy: 1,
            rider: false,
        };
        assert_eq!(knight.directions().len(), 8);
        let wazir = Atom {
            dx: 1,
            dy: 0,
            rider: false,
        };
        assert_eq!(wazir.directions().len(), 4);
    }
}
