//! A variant as data (board, pieces, start position, castling, pawn rules) and the
//! attack tables compiled from it once.

use std::sync::LazyLock;

use super::board::{Bitboard, Geometry, MAX_SQUARES, Sq};
use super::fen::parse_fen;
use super::piece::{Color, Kind, PieceDef, Role};
use super::position::Position;

/// The most piece types one variant may define (bitboards per type live in every
/// position, so this bounds a position's size).
pub const MAX_KINDS: usize = 12;

/// Where the king and rook of one castling wing end up, as files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wing {
    pub king_to: u8,
    pub rook_to: u8,
    /// Written `O-O-O` (long) or `O-O`.
    pub long: bool,
}

/// Castling: on which rank each side castles, and the wings, indexed by colour and then
/// by the rook's side of the king (0: lower files, FEN `Q`; 1: higher files, FEN `K`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Castling {
    pub rank: [u8; 2],
    /// The king's file when it may castle (outside Chess960).
    pub king_from: [u8; 2],
    pub wings: [[Wing; 2]; 2],
}

/// Pawn rules, in ranks counted from each side's own first rank (0-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnRules {
    /// Ranks from which a pawn may step two squares (standard: the second rank).
    pub double_step_ranks: Vec<u8>,
    /// The rank on which a pawn must promote (standard: the eighth).
    pub promotion_rank: u8,
    /// What a pawn may promote to.
    pub promotes_to: Vec<Kind>,
}

/// A variant's definition with its compiled tables.
#[derive(Debug)]
pub struct Variant {
    /// The display name (`Standard`, `Chess960`).
    pub name: String,
    /// The stable lower-case name of `--variant` and JSON (`standard`, `chess960`).
    pub slug: String,
    pub geometry: Geometry,
    pub pieces: Vec<PieceDef>,
    pub start_fen: String,
    pub castling: Option<Castling>,
    /// Castling rights name rooks by file (X-FEN, Shredder-FEN) and kings castle from
    /// any square between the rooks.
    pub chess960: bool,
    pub pawn: PawnRules,
    pub(crate) tables: Tables,
    /// `start_fen`, read once.
    start: Position,
}

/// Attack tables, one entry per square.
#[derive(Debug)]
pub(crate) struct Tables {
    /// Non-riding atoms of each kind.
    pub leaps: Vec<[Bitboard; MAX_SQUARES]>,
    /// `rays[d * MAX_SQUARES + sq]`: every square from `sq` in direction `d`, excluding
    /// `sq` (one flat table: this is the hottest lookup of the core).
    pub rays: Vec<Bitboard>,
    /// `lines[sq]`: every square some rider direction reaches from `sq` on an empty board
    /// (a piece off these lines cannot be pinned to a king on `sq`).
    pub lines: [Bitboard; MAX_SQUARES],
    /// `line_direction[a * MAX_SQUARES + b]`: the rider direction leading from `a` to `b`
    /// ([`NO_LINE`] if none, [`SEVERAL_LINES`] if more than one does).
    pub line_direction: Vec<u8>,
    /// Per rider direction, a bit per kind that rides it.
    pub riders_by_direction: Vec<u16>,
    /// Per kind, a bit per rider direction it rides.
    pub rides_mask: Vec<u64>,
    /// `pawn_steps[color][sq]`: the square ahead of a pawn ([`NO_LINE`] off the board).
    pub pawn_steps: [[u8; MAX_SQUARES]; 2],
    /// `file_of[sq]`: every square of `sq`'s file.
    pub file_of: [Bitboard; MAX_SQUARES],
    /// Directions grouped by the kinds that ride them (orthogonal: rook and queen;
    /// diagonal: bishop and queen), so one test of "any such rider at all?" skips a group.
    pub direction_groups: Vec<(u16, Vec<usize>)>,
    /// Whether direction `d` walks to higher indices.
    pub ascending: Vec<bool>,
    /// The rider directions of each kind.
    pub rides: Vec<Vec<usize>>,
    /// Kinds that leap at all.
    pub leapers: Vec<Kind>,
    /// `pawn_attacks[color][sq]`: the squares a pawn of `color` on `sq` captures on.
    pub pawn_attacks: [[Bitboard; MAX_SQUARES]; 2],
    /// Per colour, the squares on the pawns' promotion rank.
    pub promotion_squares: [Bitboard; 2],
    /// Per colour, squares from which pawns may step twice.
    pub double_step_squares: [Bitboard; 2],
    /// The kind of each letter `A`..`Z`.
    pub by_letter: [Option<Kind>; 26],
    /// The royal kind and the pawn kind, if the variant has them.
    pub king: Option<Kind>,
    pub pawn: Option<Kind>,
}

impl Variant {
    /// Builds a variant, checking what must hold for the tables to make sense.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: &str,
        slug: &str,
        geometry: Geometry,
        pieces: Vec<PieceDef>,
        start_fen: &str,
        castling: Option<Castling>,
        chess960: bool,
        pawn: PawnRules,
    ) -> Result<Variant, String> {
        if pieces.len() > MAX_KINDS {
            return Err(format!(
                "at most {MAX_KINDS} piece types, not {}",
                pieces.len()
            ));
        }
        for (i, a) in pieces.iter().enumerate() {
            if !a.letter.is_ascii_uppercase() {
                return Err(format!("piece letter `{}` is not A-Z", a.letter));
            }
            if pieces[..i].iter().any(|b| b.letter == a.letter) {
                return Err(format!("two piece types use the letter `{}`", a.letter));
            }
        }
        if pawn.promotion_rank >= geometry.height {
            return Err("the promotion rank lies off the board".to_owned());
        }
        let tables = Tables::build(geometry, &pieces, &pawn);
        let mut variant = Variant {
            name: name.to_owned(),
            slug: slug.to_owned(),
            geometry,
            pieces,
            start_fen: start_fen.to_owned(),
            castling,
            chess960,
            pawn,
            tables,
            start: Position::empty(),
        };
        variant.start = parse_fen(&variant, start_fen)
            .map_err(|e| format!("the start position does not fit: {e}"))?;
        Ok(variant)
    }

    /// The position games start from without a `[FEN]`.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// Orthodox chess.
    pub fn standard() -> Variant {
        Self::orthodox("Standard", "standard", false)
    }

    /// Fischer random chess: orthodox rules, shuffled back ranks, castling by rook file.
    pub fn chess960() -> Variant {
        Self::orthodox("Chess960", "chess960", true)
    }

    fn orthodox(name: &str, slug: &str, chess960: bool) -> Variant {
        let geometry = Geometry {
            width: 8,
            height: 8,
        };
        let pieces = orthodox_pieces();
        let wings = [
            Wing {
                king_to: 2,
                rook_to: 3,
                long: true,
            },
            Wing {
                king_to: 6,
                rook_to: 5,
                long: false,
            },
        ];
        let pawn = PawnRules {
            double_step_ranks: vec![1],
            promotion_rank: 7,
            promotes_to: vec![Kind(1), Kind(2), Kind(3), Kind(4)],
        };
        Variant::new(
            name,
            slug,
            geometry,
            pieces,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Some(Castling {
                rank: [0, 7],
                king_from: [4, 4],
                wings: [wings, wings],
            }),
            chess960,
            pawn,
        )
        .expect("the orthodox definition is valid")
    }

    /// The variant a game's `[Variant]` tag names, if xpgn knows it. Names match
    /// ignoring case, spaces, hyphens and underscores (`spec/notation.md` section 2).
    pub fn by_name(name: &str) -> Option<&'static Variant> {
        static STANDARD: LazyLock<Variant> = LazyLock::new(Variant::standard);
        static CHESS960: LazyLock<Variant> = LazyLock::new(Variant::chess960);
        let key: String = name
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .flat_map(char::to_lowercase)
            .collect();
        match key.as_str() {
            "" | "standard" | "normal" | "regular" | "chess" | "fromposition" => Some(&STANDARD),
            "chess960" | "960" | "fischerandom" | "fischerrandom" | "frc" => Some(&CHESS960),
            _ => None,
        }
    }

    /// The names `--variant` accepts, for help texts.
    pub const BUILT_IN: [&'static str; 2] = ["standard", "chess960"];

    pub fn piece(&self, kind: Kind) -> &PieceDef {
        &self.pieces[kind.index()]
    }

    /// The kind written with this upper-case letter.
    pub fn kind_of_letter(&self, letter: char) -> Option<Kind> {
        let letter = letter.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return None;
        }
        self.tables.by_letter[usize::from(letter as u8 - b'A')]
    }

    pub fn role(&self, kind: Kind) -> Role {
        self.pieces[kind.index()].role
    }

    /// The kinds with a role, in definition order.
    pub fn kinds_with(&self, role: Role) -> impl Iterator<Item = Kind> + '_ {
        self.pieces
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.role == role)
            .map(|(i, _)| Kind(i as u8))
    }

    /// The squares a piece of `kind` attacks from `sq` with `occupied` in the way
    /// (pawns: their captures for `color`).
    pub fn attacks(&self, kind: Kind, color: Color, sq: Sq, occupied: Bitboard) -> Bitboard {
        let t = &self.tables;
        if self.pieces[kind.index()].role == Role::Pawn {
            return t.pawn_attacks[color.index()][sq.index()];
        }
        let mut out = t.leaps[kind.index()][sq.index()];
        for &d in &t.rides[kind.index()] {
            out |= self.ray_attacks(d, sq, occupied);
        }
        out
    }

    /// The squares a rider from `sq` in direction `d` reaches: up to and including the
    /// first occupied one.
    #[inline]
    pub(crate) fn ray_attacks(&self, d: usize, sq: Sq, occupied: Bitboard) -> Bitboard {
        let t = &self.tables;
        let ray = t.ray(d, sq);
        let blockers = ray & occupied;
        let first = if t.ascending[d] {
            blockers.first()
        } else {
            blockers.last()
        };
        match first {
            Some(b) => ray ^ t.ray(d, b),
            None => ray,
        }
    }
}

/// P N B R Q K, the order every orthodox position indexes its bitboards by.
fn orthodox_pieces() -> Vec<PieceDef> {
    [
        ('P', "pawn", Role::Pawn, ""),
        ('N', "knight", Role::Piece, "N"),
        ('B', "bishop", Role::Piece, "B"),
        ('R', "rook", Role::Piece, "R"),
        ('Q', "queen", Role::Piece, "Q"),
        ('K', "king", Role::King, "K"),
    ]
    .into_iter()
    .map(|(letter, name, role, betza)| {
        PieceDef::new(letter, name, role, betza).expect("orthodox movements parse")
    })
    .collect()
}

/// No square or direction, in the byte tables.
pub const NO_LINE: u8 = 255;
/// More than one rider direction joins the two squares (a rook and a dabbaba-rider).
pub const SEVERAL_LINES: u8 = 254;

impl Tables {
    /// The square ahead of a pawn of `color` on `sq`.
    #[inline]
    pub fn pawn_step(&self, color: Color, sq: Sq) -> Option<Sq> {
        let step = self.pawn_steps[color.index()][sq.index()];
        (step != NO_LINE).then_some(Sq(step))
    }

    #[inline]
    pub fn ray(&self, d: usize, sq: Sq) -> Bitboard {
        self.rays[d * MAX_SQUARES + sq.index()]
    }

    fn build(g: Geometry, pieces: &[PieceDef], pawn: &PawnRules) -> Tables {
        let n = g.squares();
        let squares = || (0..n).map(|i| Sq(i as u8));
        let mut directions: Vec<(i32, i32)> = Vec::new();
        let mut leaps = Vec::with_capacity(pieces.len());
        let mut rides = Vec::with_capacity(pieces.len());
        for piece in pieces {
            let mut table = [Bitboard::EMPTY; MAX_SQUARES];
            let mut own = Vec::new();
            for atom in &piece.atoms {
                for (df, dr) in atom.directions() {
                    if atom.rider {
                        let d = directions
                            .iter()
                            .position(|&x| x == (df, dr))
                            .unwrap_or_else(|| {
                                directions.push((df, dr));
                                directions.len() - 1
                            });
                        if !own.contains(&d) {
                            own.push(d);
                        }
                    } else {
                        for sq in squares() {
                            if let Some(to) = g.offset(sq, df, dr) {
                                table[sq.index()].set(to);
                            }
                        }
                    }
                }
            }
            leaps.push(table);
            rides.push(own);
        }
        let mut rays = vec![Bitboard::EMPTY; directions.len() * MAX_SQUARES];
        for (d, &(df, dr)) in directions.iter().enumerate() {
            for sq in squares() {
                let mut ray = Bitboard::EMPTY;
                let mut at = sq;
                while let Some(next) = g.offset(at, df, dr) {
                    ray.set(next);
                    at = next;
                }
                rays[d * MAX_SQUARES + sq.index()] = ray;
            }
        }
        let ascending = directions
            .iter()
            .map(|&(df, dr)| dr * i32::from(g.width) + df > 0)
            .collect();
        let riders_by_direction: Vec<u16> = (0..directions.len())
            .map(|d| {
                rides
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.contains(&d))
                    .fold(0u16, |mask, (k, _)| mask | 1 << k)
            })
            .collect();
        let mut lines = [Bitboard::EMPTY; MAX_SQUARES];
        for (sq, line) in lines.iter_mut().enumerate().take(n) {
            for d in 0..directions.len() {
                *line |= rays[d * MAX_SQUARES + sq];
            }
        }
        let rides_mask = rides
            .iter()
            .map(|own| own.iter().fold(0u64, |mask, &d| mask | 1 << d))
            .collect();
        let mut line_direction = vec![NO_LINE; MAX_SQUARES * MAX_SQUARES];
        for d in 0..directions.len() {
            for a in 0..n {
                for b in rays[d * MAX_SQUARES + a] {
                    let entry = &mut line_direction[a * MAX_SQUARES + b.index()];
                    *entry = if *entry == NO_LINE {
                        d as u8
                    } else {
                        SEVERAL_LINES
                    };
                }
            }
        }
        let mut pawn_steps = [[NO_LINE; MAX_SQUARES]; 2];
        for color in Color::BOTH {
            for sq in squares() {
                if let Some(step) = g.offset(sq, 0, color.forward()) {
                    pawn_steps[color.index()][sq.index()] = step.0;
                }
            }
        }
        let mut file_of = [Bitboard::EMPTY; MAX_SQUARES];
        for sq in squares() {
            file_of[sq.index()] = g.file_mask(g.file(sq));
        }
        let mut direction_groups: Vec<(u16, Vec<usize>)> = Vec::new();
        for (d, &mask) in riders_by_direction.iter().enumerate() {
            match direction_groups.iter_mut().find(|(m, _)| *m == mask) {
                Some((_, dirs)) => dirs.push(d),
                None => direction_groups.push((mask, vec![d])),
            }
        }
        let leapers = leaps
            .iter()
            .enumerate()
            .filter(|(_, t)| t.iter().any(|b| b.nonempty()))
            .map(|(k, _)| Kind(k as u8))
            .collect();
        let pawn_attacks = Color::BOTH.map(|color| {
            let mut table = [Bitboard::EMPTY; MAX_SQUARES];
            for sq in squares() {
                table[sq.index()] = [-1, 1]
                    .into_iter()
                    .filter_map(|df| g.offset(sq, df, color.forward()))
                    .collect();
            }
            table
        });
        let relative = |color: Color, rank: u8| match color {
            Color::White => rank,
            Color::Black => g.height - 1 - rank,
        };
        let promotion_squares = Color::BOTH.map(|c| g.rank_mask(relative(c, pawn.promotion_rank)));
        let double_step_squares = Color::BOTH.map(|c| {
            pawn.double_step_ranks
                .iter()
                .fold(Bitboard::EMPTY, |bb, &r| bb | g.rank_mask(relative(c, r)))
        });
        let with_role = |role: Role| {
            pieces
                .iter()
                .position(|p| p.role == role)
                .map(|i| Kind(i as u8))
        };
        let mut by_letter = [None; 26];
        for (i, p) in pieces.iter().enumerate() {
            by_letter[usize::from(p.letter as u8 - b'A')] = Some(Kind(i as u8));
        }
        Tables {
            by_letter,
            king: with_role(Role::King),
            pawn: with_role(Role::Pawn),
            leaps,
            rays,
            lines,
            line_direction,
            riders_by_direction,
            rides_mask,
            pawn_steps,
            file_of,
            direction_groups,
            ascending,
            rides,
            leapers,
            pawn_attacks,
            promotion_squares,
            double_step_squares,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_match_loosely() {
        assert_eq!(Variant::by_name("Chess 960").unwrap().slug, "chess960");
        assert_eq!(Variant::by_name("fischerandom").unwrap().slug, "chess960");
        assert_eq!(Variant::by_name("From Position").unwrap().slug, "standard");
        assert!(Variant::by_name("Crazyhouse").is_none());
    }

    #[test]
    fn rider_attacks_stop_at_the_first_blocker() {
        let v = Variant::standard();
        let g = v.geometry;
        let rook = v.kind_of_letter('R').unwrap();
        let a1 = g.sq(0, 0).unwrap();
        let a4 = g.sq(0, 3).unwrap();
        let attacks = v.attacks(rook, Color::White, a1, a4.bit());
        assert_eq!(attacks.count(), 3 + 7);
        assert!(attacks.contains(a4));
        let knight = v.kind_of_letter('N').unwrap();
        assert_eq!(
            v.attacks(knight, Color::White, a1, Bitboard::EMPTY).count(),
            2
        );
    }
}
