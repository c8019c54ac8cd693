//! Games of orthodox chess and Chess960 replayed on cozy-chess's 64-square board: nearly
//! every game a user checks, at the speed of a dedicated move generator.
//!
//! This replay only confirms: it takes a game whose every move, in the main line and in
//! its variations, is plain SAN naming exactly one legal move, with every written check
//! mark right and nothing in it that the rules core reads besides moves (no event command,
//! no null move, no unreadable token). Anything else makes it give up (`None`), and the
//! rules core replays the game from its start: that replay finds and explains every
//! problem. What the two replays conclude of a game they both take (the plies, how the
//! game ends) is the same: `tests::both_replays_agree_on_the_fixtures` and
//! `..._on_the_corpus` hold them to it.

use std::sync::LazyLock;

use cozy_chess::{
    BitBoard, Board, Color as Side, File, Move, Piece, Rank, Square as BoardSquare,
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_pawn_quiets,
    get_rook_moves,
};

use super::variation_follows;
use crate::command::mentions_event;
use crate::notation::{CheckMark, Hint, MoveBody, Notation, PieceMove, Separator, Square};
use crate::pgn::Item;
use crate::rules::ending::Ending;
use crate::rules::{Color, Position, Variant, write_fen};
use crate::span::Spanned;

/// What the replay of a whole game concluded.
pub(super) struct Replayed {
    /// Main-line plies.
    pub plies: usize,
    pub ending: Option<Ending>,
}

/// Replays a game of orthodox chess from the start position; `None` where the rules core
/// must replay it (see the module's documentation).
pub(super) fn replay(mut board: Board, items: &[Spanned<Item>]) -> Option<Replayed> {
    let mut keys = Vec::with_capacity(items.len());
    let plies = line(items, &mut board, Some(&mut keys))?;
    Some(Replayed {
        plies,
        ending: ending(&board, &keys),
    })
}

/// The start position of orthodox chess.
pub(super) fn start() -> Board {
    // Built once: setting up a board costs as much as replaying a few moves on it.
    static START: LazyLock<Board> = LazyLock::new(Board::default);
    START.clone()
}

/// The position the rules core read from a game's FEN, on the 64-square board; `None`
/// where cozy-chess would read it otherwise: castling rights it does not accept, an
/// en-passant square no pawn just passed, clocks out of its range, or, outside Chess960,
/// castling from anywhere but the king's and rooks' usual squares.
pub(super) fn board_from(v: &Variant, pos: &Position) -> Option<Board> {
    let g = v.geometry;
    let fen = write_fen(v, pos);
    let mut fields = fen.split(' ');
    let (placement, side) = (fields.next()?, fields.next()?);
    // Rights by their rooks' files (Shredder-FEN), as the core keeps them.
    let mut castling: String = pos
        .castling
        .map(|sq| {
            let file = char::from(b'a' + g.file(sq));
            if g.rank(sq) == 0 {
                file.to_ascii_uppercase()
            } else {
                file
            }
        })
        .collect();
    if castling.is_empty() {
        castling.push('-');
    }
    let ep = pos.ep.map_or_else(|| "-".to_owned(), |sq| g.name(sq));
    let (halfmoves, fullmoves) = (pos.halfmoves, pos.fullmoves);
    let board = Board::from_fen(
        &format!("{placement} {side} {castling} {ep} {halfmoves} {fullmoves}"),
        true,
    )
    .ok()?;
    (v.chess960 || usual_castling(&board)).then_some(board)
}

/// Whether every castling right is a king on its e-file square with a rook on its corner.
fn usual_castling(board: &Board) -> bool {
    [Side::White, Side::Black].into_iter().all(|side| {
        let rights = board.castle_rights(side);
        let king_home =
            board.king(side) == BoardSquare::new(File::E, Rank::First.relative_to(side));
        (rights.short.is_none() && rights.long.is_none())
            || (king_home
                && rights.short.is_none_or(|file| file == File::H)
                && rights.long.is_none_or(|file| file == File::A))
    })
}

/// Replays one line on `board`, pushing the repetition key of every position before a
/// move onto `keys` (the main line's); the number of plies it holds.
fn line(
    items: &[Spanned<Item>],
    board: &mut Board,
    mut keys: Option<&mut Vec<u64>>,
) -> Option<usize> {
    let mut before: Option<Board> = None;
    let mut plies = 0;
    for (index, item) in items.iter().enumerate() {
        match &item.node {
            Item::Move(notation) => {
                let mv = resolve(board, notation)?;
                if let Some(keys) = keys.as_deref_mut() {
                    keys.push(key(board));
                }
                // Kept only where a variation replaces this move, as the rules core does.
                before = variation_follows(&items[index + 1..]).then(|| board.clone());
                board.play_unchecked(mv);
                if let Some(mark) = notation.check
                    && !mark_is_right(board, mark)
                {
                    return None;
                }
                plies += 1;
            }
            Item::Variation(variation) => {
                let mut start = before.clone()?;
                line(variation, &mut start, None)?;
            }
            Item::Comment(comment) if mentions_event(&comment.text) => return None,
            Item::Unreadable(_) | Item::EventLine(_) => return None,
            _ => {}
        }
    }
    Some(plies)
}

/// The one legal move `notation` names; `None` for any other form, or for a move that is
/// illegal or ambiguous.
fn resolve(board: &Board, notation: &Notation) -> Option<Move> {
    match &notation.body {
        MoveBody::Piece(m) => piece_move(board, m),
        MoveBody::Castle(castle) => castling(board, castle.long),
        _ => None,
    }
}

/// A piece or pawn move as the rules core reads SAN (`san::request`): the letter names
/// the piece (none, or `P`, a pawn), a hint narrows the origins, a pawn written with
/// neither letter nor hint moves along its file, and the capture sign is not judged.
fn piece_move(board: &Board, m: &PieceMove) -> Option<Move> {
    if m.placed.is_some() || m.arrow.is_some() || m.swap.is_some() {
        return None;
    }
    let [target] = m.targets.as_slice() else {
        return None;
    };
    if target.separator == Separator::Dash {
        return None;
    }
    let to = board_square(target.square)?;
    let us = board.side_to_move();
    // A king onto its own rook is how cozy-chess spells castling, which `Kg1` never means.
    if board.colors(us).has(to) {
        return None;
    }
    let piece = match m.piece {
        None | Some('P') => Piece::Pawn,
        Some(letter) => piece_of(u8::try_from(letter).ok()?)?,
    };
    let promotion = match target.promotion {
        None => None,
        Some(promotion) => match piece_of(promotion.piece)? {
            Piece::King | Piece::Pawn => return None,
            piece => Some(piece),
        },
    };
    let mut from = board.colored_pieces(us, piece);
    match m.hint {
        Some(Hint::File(file)) => from &= File::try_index(usize::from(file))?.bitboard(),
        Some(Hint::Rank(rank)) => from &= Rank::try_index(usize::from(rank))?.bitboard(),
        None if m.piece.is_none() => from &= to.file().bitboard(),
        None => {}
    }
    // The pieces that could reach `to` at all, each then judged by cozy-chess: cheaper
    // than generating their moves, and nearly always one.
    let occupied = board.occupied();
    from &= match piece {
        Piece::Pawn => get_pawn_attacks(to, !us) | to.file().bitboard(),
        Piece::Knight => get_knight_moves(to),
        Piece::Bishop => get_bishop_moves(to, occupied),
        Piece::Rook => get_rook_moves(to, occupied),
        Piece::Queen => get_bishop_moves(to, occupied) | get_rook_moves(to, occupied),
        Piece::King => get_king_moves(to),
    };
    // With the king out of check, a piece that shields nothing and makes a move of its
    // kind onto a square that is not its own side's moves legally: cheaper than cozy-chess
    // judging each move in full, which it still does for kings, for en passant (which
    // may uncover the king along the rank) and in check.
    let free = board.checkers().is_empty();
    let pinned = board.pinned();
    let last_rank = to.rank() == Rank::Eighth.relative_to(us);
    let takes = board.colors(!us).has(to);
    let en_passant = board.en_passant().is_some_and(|file| to.file() == file);
    let is_legal = |mv: Move| {
        if !free || pinned.has(mv.from) {
            return board.is_legal(mv);
        }
        match piece {
            Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen => promotion.is_none(),
            Piece::Pawn if last_rank != promotion.is_some() => false,
            Piece::Pawn if takes => get_pawn_attacks(mv.from, us).has(to),
            Piece::Pawn if en_passant => board.is_legal(mv),
            Piece::Pawn => get_pawn_quiets(mv.from, us, occupied).has(to),
            Piece::King => board.is_legal(mv),
        }
    };
    let mut found = None;
    for from in from {
        let mv = Move {
            from,
            to,
            promotion,
        };
        if is_legal(mv) && found.replace(mv).is_some() {
            return None;
        }
    }
    found
}

fn castling(board: &Board, long: bool) -> Option<Move> {
    let us = board.side_to_move();
    let rights = board.castle_rights(us);
    let rook = if long { rights.long } else { rights.short }?;
    let mv = Move {
        from: board.king(us),
        to: BoardSquare::new(rook, Rank::First.relative_to(us)),
        promotion: None,
    };
    board.is_legal(mv).then_some(mv)
}

fn piece_of(letter: u8) -> Option<Piece> {
    Some(match letter {
        b'P' => Piece::Pawn,
        b'N' => Piece::Knight,
        b'B' => Piece::Bishop,
        b'R' => Piece::Rook,
        b'Q' => Piece::Queen,
        b'K' => Piece::King,
        _ => return None,
    })
}

fn board_square(square: Square) -> Option<BoardSquare> {
    Some(BoardSquare::new(
        File::try_index(usize::from(square.file))?,
        Rank::try_index(usize::from(square.rank))?,
    ))
}

fn has_legal_move(board: &Board) -> bool {
    board.generate_moves(|_| true)
}

/// Whether a written `+` or `#` is what the move gives (a missing mark is no finding).
fn mark_is_right(after: &Board, mark: CheckMark) -> bool {
    let check = !after.checkers().is_empty();
    let mate = check && !has_legal_move(after);
    match mark {
        CheckMark::Check => check && !mate,
        CheckMark::Mate => mate,
    }
}

/// The position's identity for repetition, as `Position::key` takes it: pieces, side to
/// move, castling rights, and the en-passant square only where a pawn stands ready to
/// take there (cozy-chess keeps it after every double step).
fn key(board: &Board) -> u64 {
    let Some(file) = board.en_passant() else {
        return board.hash();
    };
    let us = board.side_to_move();
    let square = BoardSquare::new(file, Rank::Sixth.relative_to(us));
    let takers = get_pawn_attacks(square, !us) & board.colored_pieces(us, Piece::Pawn);
    if takers.is_empty() {
        board.hash_without_ep()
    } else {
        board.hash()
    }
}

/// How the final position ends the game: `rules::ending::ending` for orthodox chess.
fn ending(board: &Board, keys: &[u64]) -> Option<Ending> {
    if !has_legal_move(board) {
        return Some(if board.checkers().is_empty() {
            Ending::Stalemate
        } else {
            Ending::Checkmate {
                winner: match board.side_to_move() {
                    Side::White => Color::Black,
                    Side::Black => Color::White,
                },
            }
        });
    }
    if insufficient_material(board) {
        return Some(Ending::InsufficientMaterial);
    }
    let key = key(board);
    if keys.iter().filter(|&&k| k == key).count() >= 2 {
        return Some(Ending::ThreefoldRepetition);
    }
    (board.halfmove_clock() >= 100).then_some(Ending::FiftyMoves)
}

/// Kings with at most one minor piece, or with bishops all on one shade.
fn insufficient_material(board: &Board) -> bool {
    let others = board.occupied() & !board.pieces(Piece::King);
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    if !(others & !knights & !bishops).is_empty() {
        return false;
    }
    others.len() <= 1
        || knights.is_empty()
            && (bishops.is_subset(BitBoard::DARK_SQUARES)
                || bishops.is_subset(BitBoard::LIGHT_SQUARES))
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::super::{replay_orthodox, replay_under};
    use crate::games::read_games;
    use crate::pgn::{Game, parse_str};
    use crate::rules::{Variant, Variants};
    use crate::source::Input;

    fn standard() -> &'static Variant {
        Variant::by_name("standard").expect("built in")
    }

    /// The variant `game` replays under, as `replay::replay_as` finds it.
    fn variant_of(game: &Game) -> Option<&'static Variant> {
        match game.tags.iter().find(|t| t.name.node == "Variant") {
            None => Some(standard()),
            Some(tag) => Variants::with_default(standard()).find(&tag.value.node),
        }
    }

    /// Replays `game` both ways where this replay takes it; whether it did.
    fn agree(game: &Game, name: &str) -> bool {
        let Some(variant) = variant_of(game) else {
            return false;
        };
        let Some(fast) = replay_orthodox(game, variant) else {
            return false;
        };
        let core = replay_under(game, variant, &[], None).expect("no event starts");
        assert_eq!(fast, core, "{name}: the replays disagree");
        true
    }

    fn pgn_files(dir: &Path) -> Vec<PathBuf> {
        walkdir::WalkDir::new(dir)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .map(|e| e.into_path())
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
            .collect()
    }

    /// The first `limit` games of `path`.
    fn games(path: &Path, limit: usize) -> Vec<Game> {
        let mut games = Vec::new();
        for chunk in read_games(&Input::from_path(path)).expect("readable") {
            for parsed in chunk.expect("readable").games {
                games.push(parsed.game);
                if games.len() == limit {
                    return games;
                }
            }
        }
        games
    }

    #[test]
    fn both_replays_agree_on_the_fixtures() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let (mut taken, mut given_up) = (0, 0);
        for file in pgn_files(&fixtures) {
            for game in games(&file, usize::MAX) {
                if agree(&game, &file.display().to_string()) {
                    taken += 1;
                } else {
                    given_up += 1;
                }
            }
        }
        // The fixtures hold clean games and every kind of finding.
        assert!(taken >= 30, "{taken} games taken");
        assert!(given_up >= 30, "{given_up} games given up");
    }

    /// The standard files, and the Chess960 games of other projects' suites, where FEN
    /// tags and castling rights by file are the rule.
    #[test]
    fn both_replays_agree_on_the_corpus() {
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
        if !corpus.exists() {
            eprintln!("skipped: {} is absent", corpus.display());
            return;
        }
        for (dir, least_taken) in [("standard", 0.9), ("variants/chess960", 0.5)] {
            for file in pgn_files(&corpus.join(dir)) {
                let games = games(&file, 4000);
                let taken = games
                    .iter()
                    .filter(|game| agree(game, &file.display().to_string()))
                    .count();
                assert!(
                    taken as f64 >= games.len() as f64 * least_taken,
                    "{}: {taken} of {} taken",
                    file.display(),
                    games.len()
                );
            }
        }
    }

    fn replayed(text: &str) -> Option<super::Replayed> {
        let games = parse_str(text);
        let [parsed] = games.as_slice() else {
            panic!("one game")
        };
        assert!(agree(&parsed.game, text) || replay_orthodox(&parsed.game, standard()).is_none());
        super::replay(super::start(), &parsed.game.moves)
    }

    #[test]
    fn endings_are_the_cores() {
        use crate::rules::{Color, ending::Ending};
        let ending = |text| replayed(text).map(|r| r.ending);
        assert_eq!(
            ending("1. f3 e5 2. g4 Qh4# 0-1"),
            Some(Some(Ending::Checkmate {
                winner: Color::Black
            }))
        );
        // The knights dance back: the start position stands a third time. The double
        // step's en-passant square is no part of it, as no pawn can take there.
        assert_eq!(
            ending("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"),
            Some(Some(Ending::ThreefoldRepetition))
        );
        assert_eq!(
            ending("1. e4 Nf6 2. Nf3 Ng8 3. Ng1 Nf6 4. Nf3 Ng8 5. Ng1 *"),
            Some(Some(Ending::ThreefoldRepetition))
        );
        assert_eq!(ending("1. e4 e5 *"), Some(None));
    }

    #[test]
    fn what_the_core_must_explain_is_given_up() {
        for text in [
            "1. e4 e5 2. Ke3 *",
            "1. Nc3 Nc6 2. Nf3 Nf6 3. Ne4 Ne5 4. Ng5 *",
            "1. e4+ e5 *",
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+ *",
            "1. e4 {[%event 5]} e5 *",
            "1. e4 -- 2. d4 *",
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5 d5 5. exd5 Nxd5 6. Nxf7 Kxf7 7. Qf3+ Ke6 8. Nc3 Nb4 9. O-O-O *",
            "1. e4 (e5) e5 *",
        ] {
            assert!(replayed(text).is_none(), "{text}");
        }
    }
}
