//! Variants defined in YAML: the built-in variants ship as files under `variants/`
//! (compiled into the binary) and `--variant-file` reads a user's in the same format.
//!
//! Reading is two steps, as for games: the file's syntax (serde structs with the place
//! of every value) and then its meaning (squares on the board, letters that exist,
//! castling wings on both sides of the king, a start position that fits). Every problem
//! found is reported with its line and column, not only the first.

use serde::Deserialize;
use serde_saphyr::{Location, Spanned};

use super::board::{Geometry, Sq};
use super::piece::{PieceDef, Role};
use super::variant::{Castling, Definition, PawnRules, UndefinedPiece, Variant, Wing};
use crate::notation::Square;
use crate::span::Span;

/// A problem in a variant definition, located in its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionError {
    pub message: String,
    /// Where in the text (a byte range; empty at the end of the file).
    pub span: Span,
    /// 1-based line and column of the span's start.
    pub line: usize,
    pub column: usize,
    pub help: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSyntax {
    name: Spanned<String>,
    id: Spanned<String>,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    description: String,
    board: Spanned<BoardSyntax>,
    pieces: Spanned<Vec<Spanned<PieceSyntax>>>,
    start: Spanned<String>,
    #[serde(default)]
    chess960: bool,
    #[serde(default)]
    events: bool,
    castling: Option<Spanned<CastlingSyntax>>,
    pawns: Option<Spanned<PawnSyntax>>,
    #[serde(default)]
    passes: Vec<Spanned<(Spanned<String>, Spanned<String>)>>,
    #[serde(default)]
    undefined_pieces: Vec<Spanned<UndefinedSyntax>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardSyntax {
    files: u8,
    ranks: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceSyntax {
    letter: Spanned<char>,
    name: String,
    /// Betza atoms; pawns move by their role and have none.
    moves: Option<Spanned<String>>,
    #[serde(default)]
    role: RoleSyntax,
}

#[derive(Deserialize, Default, PartialEq, Eq, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum RoleSyntax {
    #[default]
    Piece,
    King,
    Pawn,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CastlingSyntax {
    white: Spanned<SideSyntax>,
    black: Spanned<SideSyntax>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideSyntax {
    king: Spanned<String>,
    #[serde(rename = "O-O")]
    short: Spanned<WingSyntax>,
    #[serde(rename = "O-O-O")]
    long: Spanned<WingSyntax>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WingSyntax {
    king_to: Spanned<String>,
    rook: Spanned<String>,
    rook_to: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PawnSyntax {
    double_step_ranks: Spanned<Vec<u8>>,
    promotion_rank: Spanned<u8>,
    #[serde(default)]
    optional_promotion_ranks: Option<Spanned<Vec<u8>>>,
    promotes_to: Spanned<Vec<Spanned<char>>>,
    #[serde(default)]
    promotion_limited_to_start_count: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UndefinedSyntax {
    letter: Spanned<char>,
    name: String,
    why: String,
}

/// Collects the problems of one file, locating each in its text.
struct Problems<'a> {
    text: &'a str,
    found: Vec<DefinitionError>,
}

impl Problems<'_> {
    fn at(&mut self, location: Location, message: String, help: Option<&str>) {
        let (line, column) = (location.line() as usize, location.column() as usize);
        let span = location.span();
        let offset = span
            .byte_offset()
            .map(|o| o as usize)
            .unwrap_or_else(|| offset_of(self.text, line, column));
        let len = span.byte_len().map_or(0, |l| l as usize);
        self.found.push(DefinitionError {
            message,
            span: Span::new(offset.min(self.text.len()), len),
            line: line.max(1),
            column: column.max(1),
            help: help.map(str::to_owned),
        });
    }
}

/// The byte offset of a 1-based line and column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = &text[line_start.min(text.len())..];
    line_start
        + rest
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(rest.len(), |(i, _)| i)
}

/// Reads a variant definition. `Err` holds every problem found, in file order.
pub fn parse_definition(text: &str) -> Result<Variant, Vec<DefinitionError>> {
    let mut problems = Problems {
        text,
        found: Vec::new(),
    };
    let syntax: FileSyntax = match serde_saphyr::from_str(text) {
        Ok(syntax) => syntax,
        Err(e) => {
            let message = first_line(&e.to_string());
            match e.location() {
                Some(location) => problems.at(location, message, None),
                None => problems.found.push(DefinitionError {
                    message,
                    span: Span::new(0, 0),
                    line: 1,
                    column: 1,
                    help: None,
                }),
            }
            return Err(problems.found);
        }
    };
    let definition = meaning(&syntax, &mut problems);
    if !problems.found.is_empty() {
        return Err(problems.found);
    }
    let definition = definition.expect("a definition without problems");
    Variant::new(definition).map_err(|e| {
        problems.at(
            syntax.start.referenced,
            format!("the start position does not fit: {e}"),
            None,
        );
        problems.found
    })
}

/// serde-saphyr's message without the `error: line L column C:` prefix and the snippet
/// lines it adds (the location travels separately).
fn first_line(message: &str) -> String {
    let line = message.lines().next().unwrap_or(message);
    let line = line.strip_prefix("error: ").unwrap_or(line);
    let line = match line
        .strip_prefix("line ")
        .and_then(|rest| rest.split_once(": "))
    {
        Some((place, rest)) if place.contains(" column ") => rest,
        _ => line,
    };
    line.split(" at line ").next().unwrap_or(line).to_owned()
}

fn meaning(file: &FileSyntax, problems: &mut Problems<'_>) -> Option<Definition> {
    let id = &file.id.value;
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        problems.at(
            file.id.referenced,
            format!("`{id}` is not a usable id"),
            Some("an id is lower-case letters, digits and hyphens, as in `secret-invisible-pass`"),
        );
    }
    let geometry = match Geometry::new(file.board.value.files, file.board.value.ranks) {
        Ok(geometry) => geometry,
        Err(e) => {
            problems.at(file.board.referenced, format!("bad board: {e}"), None);
            return None;
        }
    };
    let square = |problems: &mut Problems<'_>, written: &Spanned<String>| -> Option<Sq> {
        let sq = Square::parse(&written.value).and_then(|s| geometry.from_square(s));
        if sq.is_none() {
            problems.at(
                written.referenced,
                format!(
                    "`{}` is not a square of the {}x{} board",
                    written.value, geometry.width, geometry.height
                ),
                None,
            );
        }
        sq
    };
    let pieces = pieces(file, problems);
    let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
    let pawn = pawn_rules(file, &pieces, geometry, problems);
    let castling = file
        .castling
        .as_ref()
        .and_then(|c| castling(c, &pieces, geometry, problems, &square));
    let mut passes: Vec<(Sq, Sq)> = Vec::new();
    for pass in &file.passes {
        let (a, b) = &pass.value;
        let (Some(a_sq), Some(b_sq)) = (square(problems, a), square(problems, b)) else {
            continue;
        };
        if a_sq == b_sq {
            problems.at(
                pass.referenced,
                format!(
                    "a pass joins two different squares, not {} with itself",
                    a.value
                ),
                None,
            );
        } else if passes
            .iter()
            .any(|&(x, y)| [x, y].contains(&a_sq) || [x, y].contains(&b_sq))
        {
            problems.at(
                pass.referenced,
                "a square may be the hole of one pass only".to_owned(),
                None,
            );
        } else {
            passes.push((a_sq, b_sq));
        }
    }
    let mut undefined_pieces = Vec::new();
    for entry in &file.undefined_pieces {
        let letter = entry.value.letter.value;
        if letters.contains(&letter) {
            problems.at(
                entry.value.letter.referenced,
                format!("`{letter}` is a defined piece; it cannot also be undefined"),
                None,
            );
        } else if !letter.is_ascii_uppercase() {
            problems.at(
                entry.value.letter.referenced,
                format!("piece letter `{letter}` is not A-Z"),
                None,
            );
        }
        undefined_pieces.push(UndefinedPiece {
            letter,
            name: entry.value.name.clone(),
            why: entry.value.why.clone(),
        });
    }
    Some(Definition {
        name: file.name.value.clone(),
        id: id.clone(),
        aliases: file.aliases.clone(),
        description: file.description.clone(),
        geometry,
        pieces,
        start_fen: file.start.value.clone(),
        castling,
        chess960: file.chess960,
        events: file.events,
        pawn,
        passes,
        undefined_pieces,
    })
}

fn pieces(file: &FileSyntax, problems: &mut Problems<'_>) -> Vec<PieceDef> {
    let mut pieces: Vec<PieceDef> = Vec::new();
    for entry in &file.pieces.value {
        let piece = &entry.value;
        let letter = piece.letter.value;
        if !letter.is_ascii_uppercase() {
            problems.at(
                piece.letter.referenced,
                format!("piece letter `{letter}` is not A-Z"),
                Some("letters are upper case; FEN writes black's in lower case"),
            );
            continue;
        }
        if pieces.iter().any(|p| p.letter == letter) {
            problems.at(
                piece.letter.referenced,
                format!("two piece types use the letter `{letter}`"),
                None,
            );
            continue;
        }
        let role = match piece.role {
            RoleSyntax::Piece => Role::Piece,
            RoleSyntax::King => Role::King,
            RoleSyntax::Pawn => Role::Pawn,
        };
        if pieces.iter().any(|p| p.role == role) && role != Role::Piece {
            problems.at(
                entry.referenced,
                format!("only one piece type may have the role `{role:?}`").to_lowercase(),
                None,
            );
            continue;
        }
        let moves = match (&piece.moves, role) {
            (Some(moves), Role::Pawn) => {
                problems.at(
                    moves.referenced,
                    "a pawn moves by its role (steps, double steps, captures, promotion); it takes no `moves`".to_owned(),
                    None,
                );
                continue;
            }
            (None, Role::Pawn) => "",
            (Some(moves), _) => &moves.value,
            (None, _) => {
                problems.at(
                    entry.referenced,
                    format!(
                        "the {} needs `moves` (Betza atoms, e.g. `N`, `RN`, `DA`)",
                        piece.name
                    ),
                    None,
                );
                continue;
            }
        };
        match PieceDef::new(letter, &piece.name, role, moves) {
            Ok(def) => pieces.push(def),
            Err(e) => {
                let at = piece
                    .moves
                    .as_ref()
                    .map_or(entry.referenced, |m| m.referenced);
                problems.at(
                    at,
                    format!("bad movement `{moves}`: {e}"),
                    Some("atoms: W F D N A H C Z G (leapers), K = WF, B = FF, R = WW, Q = RB; a doubled leaper rides (`NN` nightrider)"),
                );
            }
        }
    }
    if pieces.len() > super::variant::MAX_KINDS {
        problems.at(
            file.pieces.referenced,
            format!(
                "at most {} piece types, not {}",
                super::variant::MAX_KINDS,
                pieces.len()
            ),
            None,
        );
    }
    pieces
}

fn pawn_rules(
    file: &FileSyntax,
    pieces: &[PieceDef],
    geometry: Geometry,
    problems: &mut Problems<'_>,
) -> PawnRules {
    let has_pawn = pieces.iter().any(|p| p.role == Role::Pawn);
    let Some(pawns) = &file.pawns else {
        if has_pawn {
            problems.at(
                file.pieces.referenced,
                "a variant with pawns needs a `pawns` section (double-step ranks, promotion rank and pieces)".to_owned(),
                None,
            );
        }
        return PawnRules::none(geometry);
    };
    if !has_pawn {
        problems.at(
            pawns.referenced,
            "`pawns` without a piece of role pawn".to_owned(),
            None,
        );
    }
    let p = &pawns.value;
    let rank = |problems: &mut Problems<'_>, location: Location, rank: u8| -> Option<u8> {
        if (1..=geometry.height).contains(&rank) {
            Some(rank - 1)
        } else {
            problems.at(
                location,
                format!("rank {rank} is not on a board of {} ranks", geometry.height),
                None,
            );
            None
        }
    };
    let double_step_ranks = p
        .double_step_ranks
        .value
        .iter()
        .filter_map(|&r| rank(problems, p.double_step_ranks.referenced, r))
        .collect();
    let promotion_rank = rank(
        problems,
        p.promotion_rank.referenced,
        p.promotion_rank.value,
    )
    .unwrap_or(geometry.height - 1);
    let optional_promotion_ranks = match &p.optional_promotion_ranks {
        None => Vec::new(),
        Some(ranks) => ranks
            .value
            .iter()
            .filter_map(|&r| {
                let r0 = rank(problems, ranks.referenced, r)?;
                if r0 >= promotion_rank {
                    problems.at(
                        ranks.referenced,
                        format!(
                            "optional promotion rank {r} is not before the promotion rank {}",
                            promotion_rank + 1
                        ),
                        None,
                    );
                    return None;
                }
                Some(r0)
            })
            .collect(),
    };
    let mut promotes_to = Vec::new();
    for letter in &p.promotes_to.value {
        match pieces.iter().position(|d| d.letter == letter.value) {
            Some(i) if pieces[i].role == Role::Piece => {
                promotes_to.push(super::piece::Kind(i as u8));
            }
            Some(_) => problems.at(
                letter.referenced,
                format!(
                    "a pawn cannot promote to `{}` (a king or a pawn)",
                    letter.value
                ),
                None,
            ),
            None => problems.at(
                letter.referenced,
                format!("`{}` is not a piece of this variant", letter.value),
                None,
            ),
        }
    }
    if promotes_to.is_empty() && has_pawn {
        problems.at(
            p.promotes_to.referenced,
            "a pawn must be able to promote to at least one piece".to_owned(),
            None,
        );
    }
    PawnRules {
        double_step_ranks,
        promotion_rank,
        optional_promotion_ranks,
        promotes_to,
        limited_to_start_count: p.promotion_limited_to_start_count,
    }
}

fn castling(
    c: &Spanned<CastlingSyntax>,
    pieces: &[PieceDef],
    geometry: Geometry,
    problems: &mut Problems<'_>,
    square: &dyn Fn(&mut Problems<'_>, &Spanned<String>) -> Option<Sq>,
) -> Option<Castling> {
    if !pieces.iter().any(|p| p.role == Role::King) {
        problems.at(
            c.referenced,
            "castling needs a piece of role king".to_owned(),
            None,
        );
        return None;
    }
    let mut rank = [0u8; 2];
    let mut king_from = [0u8; 2];
    let mut wings = [[Wing {
        king_to: 0,
        rook_to: 0,
        long: false,
    }; 2]; 2];
    let mut ok = true;
    for (color, side) in [&c.value.white, &c.value.black].into_iter().enumerate() {
        let Some(king) = square(problems, &side.value.king) else {
            ok = false;
            continue;
        };
        let king_rank = geometry.rank(king);
        let king_file = geometry.file(king);
        rank[color] = king_rank;
        king_from[color] = king_file;
        let mut sides_seen = [false; 2];
        for (wing, long) in [(&side.value.short, false), (&side.value.long, true)] {
            let squares = [&wing.value.king_to, &wing.value.rook, &wing.value.rook_to]
                .map(|s| (s, square(problems, s)));
            let [
                (_, Some(king_to)),
                (rook_written, Some(rook)),
                (_, Some(rook_to)),
            ] = squares
            else {
                ok = false;
                continue;
            };
            if let Some((s, _)) = squares
                .iter()
                .find(|(_, sq)| sq.is_some_and(|sq| geometry.rank(sq) != king_rank))
            {
                problems.at(
                    s.referenced,
                    format!("{} is not on the king's rank", s.value),
                    Some("castling moves king and rook along the king's rank"),
                );
                ok = false;
                continue;
            }
            if geometry.file(rook) == king_file {
                problems.at(
                    rook_written.referenced,
                    "the rook cannot start on the king's square".to_owned(),
                    None,
                );
                ok = false;
                continue;
            }
            let wing_side = usize::from(geometry.file(rook) > king_file);
            if sides_seen[wing_side] {
                problems.at(
                    rook_written.referenced,
                    "O-O and O-O-O use rooks on the same side of the king".to_owned(),
                    Some("one wing's rook stands on lower files than the king, the other's on higher files"),
                );
                ok = false;
                continue;
            }
            sides_seen[wing_side] = true;
            wings[color][wing_side] = Wing {
                king_to: geometry.file(king_to),
                rook_to: geometry.file(rook_to),
                long,
            };
        }
    }
    ok.then_some(Castling {
        rank,
        king_from,
        wings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(text: &str) -> Vec<String> {
        parse_definition(text)
            .expect_err("a bad definition")
            .into_iter()
            .map(|e| format!("{}:{}: {}", e.line, e.column, e.message))
            .collect()
    }

    const MINIMAL: &str = "name: Mini\nid: mini\nboard: {files: 4, ranks: 4}\npieces:\n  - {letter: K, name: king, moves: K, role: king}\n  - {letter: R, name: rook, moves: R}\nstart: k3/4/4/1R1K w - - 0 1\n";

    #[test]
    fn a_minimal_definition_loads() {
        let v = parse_definition(MINIMAL).unwrap();
        assert_eq!(v.geometry.width, 4);
        assert_eq!(v.slug, "mini");
    }

    #[test]
    fn unknown_keys_are_located() {
        let text = MINIMAL.replace("board:", "colour: red\nboard:");
        let found = errors(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("3:"), "{found:?}");
        assert!(found[0].contains("colour"), "{found:?}");
    }

    #[test]
    fn every_problem_is_reported_with_its_place() {
        let text = MINIMAL
            .replace("moves: R}", "moves: Rx}")
            .replace("id: mini", "id: Mini Chess");
        let found = errors(&text);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].starts_with("2:5: `Mini Chess` is not a usable id"),
            "{found:?}"
        );
        assert!(found[1].starts_with("6:36: bad movement `Rx`"), "{found:?}");
    }

    #[test]
    fn a_start_position_that_does_not_fit_is_located() {
        let text = MINIMAL.replace("k3/4/4/1R1K", "k4/4/4/1R1K");
        let found = errors(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("7:8: the start position does not fit"),
            "{found:?}"
        );
    }
}
