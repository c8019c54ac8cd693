//! A variant as data (board, pieces, start position, castling, pawn rules) and the
//! attack tables compiled from it once.

use std::sync::OnceLock;

use super::board::{Bitboard, Geometry, MAX_SQUARES, Sq};
use super::definition::{DefinitionError, parse_definition};
use super::event::EventStart;
use super::fen::parse_fen;
use super::moves::CastlingPath;
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
    /// Ranks before it on which a pawn may promote or stay a pawn (Grand chess: 8, 9).
    pub optional_promotion_ranks: Vec<u8>,
    /// What a pawn may promote to.
    pub promotes_to: Vec<Kind>,
    /// A pawn becomes only a piece type its side has fewer of than in the start position
    /// (Grand chess); with none to become, it cannot reach the last rank.
    pub limited_to_start_count: bool,
}

impl PawnRules {
    /// For a variant without pawns.
    pub fn none(geometry: Geometry) -> PawnRules {
        PawnRules {
            double_step_ranks: Vec::new(),
            promotion_rank: geometry.height - 1,
            optional_promotion_ranks: Vec::new(),
            promotes_to: Vec::new(),
            limited_to_start_count: false,
        }
    }
}

/// A piece letter a variant's source names without rules for it (the unicorn of Secret
/// Invisible Pass, SIP-7): read, and reported as unsupported rather than as unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndefinedPiece {
    pub letter: char,
    pub name: String,
    /// Why xpgn cannot play it, for diagnostics.
    pub why: String,
}

/// What defines a variant, checked for sense but not yet compiled into tables (see
/// [`crate::rules::definition`] for the YAML form).
#[derive(Clone, Debug)]
pub struct Definition {
    pub name: String,
    pub id: String,
    pub aliases: Vec<String>,
    pub description: String,
    pub geometry: Geometry,
    pub pieces: Vec<PieceDef>,
    pub start_fen: String,
    pub castling: Option<Castling>,
    pub chess960: bool,
    /// Event Chess: players start events during the game (EC-1..EC-4).
    pub events: bool,
    pub pawn: PawnRules,
    /// Pairs of squares joined by a pass (Secret Invisible Pass: e1-f10, f1-e10).
    pub passes: Vec<(Sq, Sq)>,
    pub undefined_pieces: Vec<UndefinedPiece>,
}

/// A variant's definition with its compiled tables.
#[derive(Debug)]
pub struct Variant {
    /// The display name (`Standard`, `Secret Invisible Pass`).
    pub name: String,
    /// The stable lower-case name of `--variant` and JSON (`standard`, `chess960`).
    pub slug: String,
    /// Other names a `[Variant]` tag may use.
    pub aliases: Vec<String>,
    /// One line for `xpgn variants`.
    pub description: String,
    pub geometry: Geometry,
    pub pieces: Vec<PieceDef>,
    pub start_fen: String,
    pub castling: Option<Castling>,
    /// Castling rights name rooks by file (X-FEN, Shredder-FEN) and kings castle from
    /// any square between the rooks.
    pub chess960: bool,
    /// Event Chess: players start events during the game (EC-1..EC-4).
    pub events: bool,
    pub pawn: PawnRules,
    pub passes: Vec<(Sq, Sq)>,
    pub undefined_pieces: Vec<UndefinedPiece>,
    pub(crate) tables: Tables,
    /// `start_fen`, read once.
    start: Position,
    /// `start` as `write_fen` writes it: every recorded game without a FEN begins with
    /// it, and writing a FEN costs more than replaying a few moves.
    start_written: String,
    /// Name, id and aliases reduced by [`name_key`], so matching a `[Variant]` tag
    /// reduces only the tag.
    name_keys: Vec<String>,
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
    /// Per colour, the squares where a pawn may promote or stay a pawn.
    pub optional_promotion_squares: [Bitboard; 2],
    /// Per colour, squares from which pawns may step twice.
    pub double_step_squares: [Bitboard; 2],
    /// The kind of each letter `A`..`Z`.
    pub by_letter: [Option<Kind>; 26],
    /// The royal kind and the pawn kind, if the variant has them.
    pub king: Option<Kind>,
    pub pawn: Option<Kind>,
    /// Every square that is one end of a pass.
    pub holes: Bitboard,
    /// `pass_end[sq]`: the other end of the pass at `sq` ([`NO_LINE`] if none).
    pub pass_end: [u8; MAX_SQUARES],
    /// Per colour and kind, how many a pawn may promote to at most: the start
    /// position's count where promotions are limited, else no limit.
    pub promotion_limit: [[u8; MAX_KINDS]; 2],
    /// `castling_paths[(colour * width + king file) * width + rook file]`: castling with
    /// king and rook on that side's castling rank, worked out once because every written
    /// castle asks for it (empty without castling).
    pub castling_paths: Vec<Option<CastlingPath>>,
}

impl Variant {
    /// Compiles a definition, checking what must hold for the tables to make sense.
    pub fn new(definition: Definition) -> Result<Variant, String> {
        let Definition {
            name,
            id,
            aliases,
            description,
            geometry,
            pieces,
            start_fen,
            castling,
            chess960,
            events,
            pawn,
            passes,
            undefined_pieces,
        } = definition;
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
        let tables = Tables::build(geometry, &pieces, &pawn, &passes, castling.as_ref());
        let mut variant = Variant {
            name,
            slug: id,
            aliases,
            description,
            geometry,
            pieces,
            start_fen,
            castling,
            chess960,
            events,
            pawn,
            passes,
            undefined_pieces,
            tables,
            start: Position::empty(),
            start_written: String::new(),
            name_keys: Vec::new(),
        };
        variant.name_keys = [&variant.name, &variant.slug]
            .into_iter()
            .chain(&variant.aliases)
            .map(|n| name_key(n))
            .collect();
        variant.start = parse_fen(&variant, &variant.start_fen).map_err(|e| e.to_string())?;
        // Every game without a FEN starts here: whether the first mover is in check is
        // answered once, not again by each game's first move.
        let in_check = variant.start.is_check(&variant);
        variant.start.remember_check(in_check);
        variant.start_written = super::write_fen(&variant, &variant.start);
        if variant.pawn.limited_to_start_count {
            for color in Color::BOTH {
                for kind in 0..variant.pieces.len() {
                    variant.tables.promotion_limit[color.index()][kind] =
                        variant.start.pieces(color, Kind(kind as u8)).count() as u8;
                }
            }
        }
        Ok(variant)
    }

    /// Reads a variant defined in YAML (the format of the files under `variants/`).
    pub fn from_yaml(text: &str) -> Result<Variant, Vec<DefinitionError>> {
        parse_definition(text)
    }

    /// The position games start from without a `[FEN]`.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// [`Variant::start_position`] in FEN, as [`super::write_fen`] writes it.
    pub fn start_position_fen(&self) -> &str {
        &self.start_written
    }

    /// The variants xpgn ships, in `xpgn variants` order. Each is read from its file the
    /// first time the iteration reaches it, so a run that asks for `standard` alone (the
    /// first) does not pay for reading the others.
    pub fn built_in() -> impl Iterator<Item = &'static Variant> {
        static BUILT_IN: [OnceLock<Variant>; BUILT_IN_FILES.len()] =
            [const { OnceLock::new() }; BUILT_IN_FILES.len()];
        BUILT_IN
            .iter()
            .zip(BUILT_IN_FILES)
            .map(|(variant, (file, text))| {
                variant.get_or_init(|| {
                    Variant::from_yaml(text).unwrap_or_else(|e| {
                        panic!("the built-in variants/{file} is invalid: {e:?}")
                    })
                })
            })
    }

    /// The built-in variant a game's `[Variant]` tag or `--variant` names. Names match
    /// ignoring case, spaces, hyphens and underscores (`spec/notation.md` section 2).
    pub fn by_name(name: &str) -> Option<&'static Variant> {
        let key = name_key(name);
        Variant::built_in().find(|v| v.answers_to(&key))
    }

    /// Whether a name reduced by [`name_key`] is this variant's name, id or an alias.
    fn answers_to(&self, key: &str) -> bool {
        // A tagless game, or one from a set-up position, is played under the default rules.
        (key.is_empty() || key == "fromposition") && self.slug == "standard"
            || self.name_keys.iter().any(|k| k == key)
    }

    /// The ids of the built-in variants, for help texts.
    pub fn built_in_ids() -> String {
        let ids: Vec<&str> = Variant::built_in().map(|v| v.slug.as_str()).collect();
        ids.join(", ")
    }

    /// The undefined piece written with this letter, if the variant names one.
    pub fn undefined_piece(&self, letter: char) -> Option<&UndefinedPiece> {
        let letter = letter.to_ascii_uppercase();
        self.undefined_pieces.iter().find(|p| p.letter == letter)
    }

    /// The far end of the pass whose hole is `sq`.
    #[inline]
    pub fn pass_end(&self, sq: Sq) -> Option<Sq> {
        let end = self.tables.pass_end[sq.index()];
        (end != NO_LINE).then_some(Sq(end))
    }

    /// Whether a pawn of `color` may promote to `kind` in `pos` (Grand chess counts).
    pub(crate) fn may_promote_to(&self, pos: &Position, color: Color, kind: Kind) -> bool {
        !self.pawn.limited_to_start_count
            || pos.pieces(color, kind).count()
                < u32::from(self.tables.promotion_limit[color.index()][kind.index()])
    }

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

/// The variants one run knows: the built-ins, those read from `--variant-file`, and the
/// one for games without a `[Variant]` tag.
#[derive(Clone)]
pub struct Variants {
    /// For games that do not name theirs.
    pub default: &'static Variant,
    /// Read from files; their names win over the built-ins'.
    pub loaded: Vec<&'static Variant>,
    /// Events running from the start of games without a `[Variant]` tag (`--events`),
    /// which are then Event Chess games.
    pub start_events: Vec<EventStart>,
}

/// The built-ins alone, with standard chess for games without a `[Variant]` tag.
impl Default for Variants {
    fn default() -> Variants {
        let standard = Variant::by_name("standard").expect("standard chess is built in");
        Variants::with_default(standard)
    }
}

impl Variants {
    /// The built-ins alone, with `default` for tagless games.
    pub fn with_default(default: &'static Variant) -> Variants {
        Variants {
            default,
            loaded: Vec::new(),
            start_events: Vec::new(),
        }
    }

    /// The variant a `[Variant]` tag or `--variant` names.
    pub fn find(&self, name: &str) -> Option<&'static Variant> {
        let key = name_key(name);
        self.loaded
            .iter()
            .copied()
            .chain(Variant::built_in())
            .find(|v| v.answers_to(&key))
    }

    /// Every id this set answers to, for help texts.
    pub fn ids(&self) -> String {
        let ids: Vec<&str> = self
            .loaded
            .iter()
            .copied()
            .chain(Variant::built_in())
            .map(|v| v.slug.as_str())
            .collect();
        ids.join(", ")
    }
}

/// The built-in definitions, compiled into the binary.
const BUILT_IN_FILES: [(&str, &str); 6] = [
    (
        "standard.yaml",
        include_str!("../../variants/standard.yaml"),
    ),
    (
        "chess960.yaml",
        include_str!("../../variants/chess960.yaml"),
    ),
    (
        "event-chess.yaml",
        include_str!("../../variants/event-chess.yaml"),
    ),
    (
        "secret-invisible-pass.yaml",
        include_str!("../../variants/secret-invisible-pass.yaml"),
    ),
    (
        "capablanca.yaml",
        include_str!("../../variants/capablanca.yaml"),
    ),
    ("grand.yaml", include_str!("../../variants/grand.yaml")),
];

/// A name reduced for loose matching: lower case, no spaces, hyphens or underscores.
fn name_key(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
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

    fn build(
        g: Geometry,
        pieces: &[PieceDef],
        pawn: &PawnRules,
        passes: &[(Sq, Sq)],
        castling: Option<&Castling>,
    ) -> Tables {
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
        let optional_promotion_squares = Color::BOTH.map(|c| {
            pawn.optional_promotion_ranks
                .iter()
                .fold(Bitboard::EMPTY, |bb, &r| bb | g.rank_mask(relative(c, r)))
        });
        let mut pass_end = [NO_LINE; MAX_SQUARES];
        for &(a, b) in passes {
            pass_end[a.index()] = b.0;
            pass_end[b.index()] = a.0;
        }
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
            optional_promotion_squares,
            double_step_squares,
            holes: passes.iter().flat_map(|&(a, b)| [a, b]).collect(),
            pass_end,
            promotion_limit: [[u8::MAX; MAX_KINDS]; 2],
            castling_paths: castling.map_or_else(Vec::new, |c| castling_paths(g, c)),
        }
    }
}

/// The table of [`Tables::castling_paths`].
fn castling_paths(g: Geometry, castling: &Castling) -> Vec<Option<CastlingPath>> {
    let mut paths = Vec::new();
    for color in [Color::White, Color::Black] {
        let rank = castling.rank[color.index()];
        for king_file in 0..g.width {
            for rook_file in 0..g.width {
                paths.push(
                    g.sq(king_file, rank)
                        .zip(g.sq(rook_file, rank))
                        .and_then(|(king, rook)| CastlingPath::new(g, castling, color, king, rook)),
                );
            }
        }
    }
    paths
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
        let v = Variant::by_name("standard").unwrap();
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
