//! The events of Event Chess xpgn plays, one module each, and the names of those it
//! knows of but cannot play yet.

pub mod active_pawns;
pub mod army_movement;
pub mod big_wall;
mod bishop_paths;
pub mod bloodthirst;
pub mod bouncing_bishops;
pub mod callback_orders;
pub mod capture_the_flag;
pub mod catalogue;
pub mod check_for_allies;
pub mod chinese_checkers;
pub mod commanding_voice;
pub mod cooperation;
pub mod directional_knights;
pub mod double_trouble;
pub mod drunken_bishops;
pub mod emperor;
pub mod en_passant_for_all;
pub mod five_check;
pub mod flying_rooks;
pub mod force_fields;
pub mod fortress;
pub mod forward_activity;
pub mod forward_rotations;
pub mod generous_queens;
pub mod heavy_rooks;
pub mod hidden_passage;
mod hops;
pub mod hungry_horses;
pub mod ice;
pub mod ice_old;
pub mod king_on_horse;
pub mod knight_facings;
pub mod knight_support;
pub mod line_pushers;
pub mod long_live_the_queen;
pub mod loyal_knights;
pub mod loyal_queen;
pub mod magnetic_pawns;
pub mod mimicker;
pub mod minor_transformations;
pub mod monster_queen;
pub mod move_forward;
pub mod multiple_squares;
pub mod no_checks;
pub mod pawn_grabbers;
pub mod pawn_march;
mod picked_pawns;
pub mod piecebuilder;
pub mod pit_traps;
pub mod portal_chess;
mod portal_paths;
pub mod portals;
pub mod prince;
pub mod princess;
pub mod prison;
pub mod queenbuilder;
pub mod revival;
pub mod revival_old;
pub mod roar;
mod rook_stacks;
pub mod royal_queens;
pub mod running_kings;
pub mod sacrificial_catapult;
pub mod same_type_immunity;
pub mod save_the_king;
pub mod short_non_captures;
pub mod slow_king;
pub mod slow_pieces;
pub mod smaller_board;
pub mod soul_eater;
pub mod spies;
pub mod starvation;
pub mod swapping_knights;
pub mod swapping_pawns;
pub mod tanks;
pub mod treasure_hunt;
pub mod treasure_hunt_old;
mod turns;
pub mod variety;
pub mod wall;
pub mod watch_tower;

use super::board::{Bitboard, Sq};
use super::event::{Event, Reach};
use super::moves::{Move, Special};
use super::piece::{Color, Kind, Piece};
use super::position::Position;
use super::san::{self, Rejection};
use super::variant::Variant;
use crate::notation::{PieceMove, Separator};

pub use generous_queens::GenerousQueens;
pub use heavy_rooks::HeavyRooks;
pub use hidden_passage::HiddenPassage;
pub use line_pushers::LinePushers;
pub use loyal_knights::LoyalKnights;
pub use minor_transformations::MinorTransformations;
pub use prince::Prince;
pub use wall::Wall;

/// Every event xpgn plays, by number; an older wording next to the newest.
pub const ALL: [&dyn Event; 74] = [
    &five_check::FiveCheck,
    &HiddenPassage,
    &starvation::Starvation,
    &revival::Revival,
    &revival_old::RevivalOld,
    &move_forward::MoveForward,
    &fortress::Fortress,
    &active_pawns::ActivePawns,
    &pawn_march::PawnMarch,
    &spies::Spies,
    &magnetic_pawns::MagneticPawns,
    &roar::Roar,
    &directional_knights::DirectionalKnights,
    &drunken_bishops::DrunkenBishops,
    &mimicker::Mimicker,
    &forward_rotations::ForwardRotations,
    &tanks::Tanks,
    &LinePushers,
    &monster_queen::MonsterQueen,
    &long_live_the_queen::LongLiveTheQueen,
    &princess::Princess,
    &king_on_horse::KingOnHorse,
    &slow_king::SlowKing,
    &Prince,
    &ice::Ice,
    &ice_old::IceOld,
    &slow_pieces::SlowPieces,
    &cooperation::Cooperation,
    &bloodthirst::Bloodthirst,
    &minor_transformations::MinorTransformations,
    &commanding_voice::CommandingVoice,
    &smaller_board::SmallerBoard,
    &LoyalKnights,
    &no_checks::NoChecks,
    &treasure_hunt::TreasureHunt,
    &treasure_hunt_old::TreasureHuntOld,
    &variety::Variety,
    &running_kings::RunningKings,
    &wall::Wall,
    &pawn_grabbers::PawnGrabbers,
    &short_non_captures::ShortNonCaptures,
    &generous_queens::GenerousQueens,
    &heavy_rooks::HeavyRooks,
    &callback_orders::CallbackOrders,
    // From here on, not in number order: `tests/random_games.rs` seeds each pair's game by the
    // events' places here, and a place taken in the middle would replay every pair
    // with new games.
    &save_the_king::SaveTheKing,
    &hungry_horses::HungryHorses,
    &soul_eater::SoulEater,
    &piecebuilder::Piecebuilder,
    &prison::Prison,
    &queenbuilder::Queenbuilder,
    &check_for_allies::CheckForAllies,
    &double_trouble::DoubleTrouble,
    &swapping_pawns::SwappingPawns,
    &en_passant_for_all::EnPassantForAll,
    &capture_the_flag::CaptureTheFlag,
    &emperor::Emperor,
    &same_type_immunity::SameTypeImmunity,
    &big_wall::BigWall,
    &flying_rooks::FlyingRooks,
    &forward_activity::ForwardActivity,
    &pit_traps::PitTraps,
    &swapping_knights::SwappingKnights,
    &royal_queens::RoyalQueens,
    &chinese_checkers::ChineseCheckers,
    &bouncing_bishops::BouncingBishops,
    &loyal_queen::LoyalQueen,
    &force_fields::ForceFields,
    &watch_tower::WatchTower,
    &knight_support::KnightSupport,
    &portals::Portals,
    &sacrificial_catapult::SacrificialCatapult,
    &army_movement::ArmyMovement,
    &multiple_squares::MultipleSquares,
    &portal_chess::PortalChess,
];

/// The event with this number, in its newest wording, if xpgn plays it.
pub fn by_number(number: u16) -> Option<&'static dyn Event> {
    find(number, false)
}

/// The event with this number in its older wording (`[%event 70 old]`) or its newest,
/// if xpgn plays that wording.
pub fn find(number: u16, older: bool) -> Option<&'static dyn Event> {
    ALL.into_iter()
        .find(|e| e.number() == number && e.older_wording() == older)
}

/// The name of an event of the source texts, played or not (for diagnostics about
/// events that are not supported yet).
pub fn name_of(number: u16) -> Option<&'static str> {
    by_number(number)
        .map(|event| event.name())
        .or_else(|| catalogue::name(number))
}

/// Where the `piece` on `from` goes when an event gives it the movement of `kind` (#76: a
/// bishop on the enemy half moves as a knight), with `occupied` in the way
/// ([`replaced_reach`]).
fn reach_as(
    v: &Variant,
    pos: &Position,
    (from, piece): (Sq, Piece),
    kind: Kind,
    occupied: Bitboard,
    number: u16,
) -> Reach {
    let attacks = v.attacks(kind, piece.color, from, occupied);
    let reach = Reach {
        quiet: attacks & !occupied,
        attacks,
    };
    replaced_reach(v, pos, (from, piece), reach, occupied, number)
}

/// The reach an event that replaces a piece's movement gives it: `reach`, the new
/// movement, then what the reach events started before event `number` change in it,
/// applied again. So such an event does not undo the events that started before it, and
/// the result does not depend on which started first (MT-4, HR-6, GQ-6).
fn replaced_reach(
    v: &Variant,
    pos: &Position,
    (from, piece): (Sq, Piece),
    mut reach: Reach,
    occupied: Bitboard,
    number: u16,
) -> Reach {
    let earlier = pos
        .events()
        .into_iter()
        .take_while(|event| event.number() != number);
    for event in earlier.filter(|event| event.changes_reach()) {
        event.reach(v, pos, from, piece, occupied, &mut reach);
    }
    reach
}

/// The kind whose movement the `piece` on `from` has while the running events run: the
/// one an event gives it ([`Event::moves_as`], #76), or its own.
fn movement_kind(v: &Variant, pos: &Position, from: Sq, piece: Piece) -> Kind {
    pos.events()
        .into_iter()
        .find_map(|event| event.moves_as(v, pos, from, piece))
        .unwrap_or(piece.kind)
}

/// The ways the `piece` on `from` goes to `to` as a running event routes it
/// ([`Event::routes`]: a bent or wrapped path), each the squares it passes over, `to`
/// last; empty where it goes along the straight line or leaps.
fn routes(
    v: &Variant,
    pos: &Position,
    (from, piece): (Sq, Piece),
    to: Sq,
    occupied: Bitboard,
) -> Vec<Vec<Sq>> {
    pos.events()
        .into_iter()
        .map(|event| event.routes(v, pos, from, piece, to, occupied))
        .find(|ways| !ways.is_empty())
        .unwrap_or_default()
}

/// Pawns of the side to move on `from` that stand on their promotion rank, where a push
/// or a swap left them, promote by standing still (LP-3, LK-7): one move per piece, as
/// the event with `(number, data)` plays it.
fn standing_promotions(
    v: &Variant,
    pos: &Position,
    from: Bitboard,
    (number, data): (u16, u16),
    out: &mut Vec<Move>,
) {
    let us = pos.turn;
    let Some(pawn) = v.tables.pawn else {
        return;
    };
    let waiting = pos.pieces(us, pawn) & v.tables.promotion_squares[us.index()] & from;
    for sq in waiting {
        for &kind in &v.pawn.promotes_to {
            if v.may_promote_to(pos, us, kind) {
                out.push(Move {
                    piece: Piece {
                        color: us,
                        kind: pawn,
                    },
                    from: sq,
                    to: sq,
                    captured: None,
                    promotion: Some(kind),
                    special: Special::Event { number, data },
                    faces: None,
                    swap: None,
                    returned: None,
                });
            }
        }
    }
}

/// Plays a stand-still promotion that [`standing_promotions`] listed, the new piece
/// facing the direction the move carries (LK-8).
fn promote_in_place(pos: &mut Position, mv: &Move) {
    let kind = mv.promotion.expect("a promotion");
    pos.remove(mv.from);
    pos.put(
        mv.from,
        Piece {
            color: mv.piece.color,
            kind,
        },
    );
    knight_facings::set_facing(pos, mv.from, mv.faces);
    pos.halfmoves = 0;
}

/// The rules a stand-still promotion's reader cites: why the pawn cannot promote there,
/// and that the move may not leave the mover's king in check.
struct StandingRules {
    cannot: &'static str,
    in_check: &'static str,
}

/// Reads `a8=Q` (`a8=N->a7` with #85) with our pawn already on a8 as a promotion by
/// standing still (LP-3, LK-7), whichever running event offers it, with the choices the
/// events attach to it (LK-8); `None` when the written move is not of that form.
fn resolve_standing_promotion(
    v: &Variant,
    pos: &Position,
    written: &PieceMove,
    rules: &StandingRules,
) -> Option<Result<Move, Rejection>> {
    let [target] = written.targets.as_slice() else {
        return None;
    };
    let promotion = target.promotion?;
    let sq = v.geometry.from_square(target.square)?;
    let pawn = v.tables.pawn?;
    let us = pos.turn;
    if written.piece.is_some_and(|p| p != 'P')
        || pos.piece_at(sq)
            != Some(Piece {
                color: us,
                kind: pawn,
            })
    {
        return None;
    }
    let kind = v.kind_of_letter(char::from(promotion.piece));
    let mut offered = Vec::new();
    v.pseudo_moves(pos, sq.bit(), sq.bit(), &mut offered);
    offered.retain(|mv| mv.promotion.is_some() && matches!(mv.special, Special::Event { .. }));
    let legal: Vec<Move> = offered
        .iter()
        .copied()
        .filter(|mv| !v.leaves_king_attacked(pos, mv))
        .collect();
    let promotes_to_written = |mv: &&Move| mv.promotion == kind && kind.is_some();
    if let Some(mv) = legal
        .iter()
        .filter(promotes_to_written)
        .find(|mv| san::choices_match(v, pos, written, mv))
    {
        return Some(Ok(*mv));
    }
    let square = v.geometry.name(sq);
    let same_piece: Vec<Move> = legal.iter().filter(promotes_to_written).copied().collect();
    let (reason, spelled) = if !same_piece.is_empty() {
        (
            format!(
                "`{}` does not give the choices this promotion makes: a new knight's direction (LK-8)",
                san::written(written)
            ),
            same_piece,
        )
    } else if offered.iter().any(|mv| promotes_to_written(&mv)) {
        (
            format!(
                "promoting the {us} pawn on {square} by standing still leaves the {us} king in check ({})",
                rules.in_check
            ),
            legal,
        )
    } else {
        (
            format!(
                "the {us} pawn on {square} cannot promote to `{}` by standing still ({})",
                char::from(promotion.piece),
                rules.cannot
            ),
            legal,
        )
    };
    let spellings: Vec<String> = spelled
        .iter()
        .map(|mv| san::san_plain(v, pos, mv))
        .collect();
    let help = (!spellings.is_empty()).then(|| format!("write {}", spellings.join(" or ")));
    Some(Err(san::illegal(reason, help)))
}

/// Whether `mv` ends on a square where another running event makes a landing mean more
/// than standing there (a known #5 passage square, HP-2): that event's `reroute` drops or
/// changes an ordinary move there. Jumps and steps, which go on through nothing, are not
/// offered onto such a square (FT-7, AP-5), so every move offered reads back as written.
fn landing_rerouted(v: &Variant, pos: &Position, mv: &Move, number: u16) -> bool {
    if pos.running().len() < 2 {
        return false;
    }
    let probe = Move {
        special: Special::Normal,
        ..*mv
    };
    let mut moves = vec![probe];
    for event in pos.events() {
        if event.number() != number {
            event.reroute(v, pos, mv.from.bit(), mv.to.bit(), &mut moves, 0);
        }
    }
    moves.first() != Some(&probe)
}

/// A pawn move written as plain SAN (`f1`) where no ordinary pawn move goes but an
/// event's own moves do, which are written from-to: refused, spelling the event's legal
/// moves there (`offered`) and saying `why` (FT-6, AP-2); `None` for any other move.
fn from_to_needed(
    v: &Variant,
    pos: &Position,
    written: &PieceMove,
    offered: impl Fn(Sq) -> Vec<String>,
    why: &str,
) -> Option<Result<Move, Rejection>> {
    let [target] = written.targets.as_slice() else {
        return None;
    };
    if written.piece.is_some_and(|p| p != 'P')
        || written.hint.is_some()
        || target.separator == Separator::Capture
    {
        return None;
    }
    let to = v.geometry.from_square(target.square)?;
    let pawn = v.tables.pawn?;
    let mut ordinary = Vec::new();
    let on_file = pos.pieces(pos.turn, pawn) & v.tables.file_of[to.index()];
    v.pseudo_moves(pos, on_file, to.bit(), &mut ordinary);
    if ordinary
        .iter()
        .any(|mv| !matches!(mv.special, Special::Event { .. }))
    {
        return None;
    }
    let spelled = offered(to);
    (!spelled.is_empty()).then(|| {
        Err(san::illegal(
            format!(
                "`{}` names no ordinary pawn move: {why}",
                san::written(written)
            ),
            Some(format!("write {}", spelled.join(" or "))),
        ))
    })
}

/// Whether `mv` is a turn in parts that promotes in its first part (#13 `b8=N->b7,h8=Q#`):
/// the part carries its own facing, so one attached to the whole turn would make one
/// turn several moves written alike (found by `tests/random_games.rs`: #99 drawing #13
/// and #14 beside #85).
fn turn_in_parts(mv: &Move) -> bool {
    mv.promotion.is_some()
        && matches!(mv.special, Special::Event { number, .. }
            if mv.from != mv.to
                && by_number(number).is_some_and(|e| e.reads(crate::rules::event::Form::Turn)))
}

/// The squares the running events take off the board (SB-2).
fn removed_squares(v: &Variant, pos: &Position) -> Bitboard {
    let mut removed = Bitboard::EMPTY;
    for event in pos.events() {
        removed |= event.removed_squares(v, pos);
    }
    removed
}

/// The first and last file with a square left on the board (SB-6: b and g under #83).
fn files_left(v: &Variant, pos: &Position) -> (u8, u8) {
    let g = v.geometry;
    let left = g.all() & !removed_squares(v, pos);
    let files = || (0..g.width).filter(|&file| (g.file_mask(file) & left).nonempty());
    match (files().next(), files().next_back()) {
        (Some(first), Some(last)) => (first, last),
        _ => (0, g.width - 1),
    }
}

/// One of `names`, drawn with `pick` ([`Event::random_choices`]).
fn pick_one(names: &[String], pick: &mut dyn FnMut(usize) -> usize) -> Option<String> {
    (!names.is_empty()).then(|| names[pick(names.len())].clone())
}

/// The names of the squares of `squares`.
fn names(v: &Variant, squares: Bitboard) -> Vec<String> {
    squares.map(|sq| v.geometry.name(sq)).collect()
}

/// The square a word of an extended FEN's events field names.
fn fen_square(v: &Variant, word: &str) -> Result<Sq, String> {
    crate::notation::Square::parse(word)
        .and_then(|s| v.geometry.from_square(s))
        .ok_or_else(|| format!("`{word}` is not a square"))
}

/// EC-4: while #5, #43 or #85 runs, a pawn on its own first or second rank may step two;
/// #10 and #12 give the same double step by their own rules (FT-4, AP-3).
fn on_own_first_two_ranks(v: &Variant, from: Sq, color: Color) -> bool {
    let rank = v.geometry.rank(from);
    let own = match color {
        Color::White => rank,
        Color::Black => v.geometry.height - 1 - rank,
    };
    own <= 1
}

/// What the events' unit tests share.
#[cfg(test)]
pub(crate) mod testing {
    use crate::notation::Square;
    use crate::rules::{Sq, Variant};

    pub fn event_chess() -> &'static Variant {
        Variant::by_name("event-chess").unwrap()
    }

    /// The square named `name` on the Event Chess board.
    pub fn sq(name: &str) -> Sq {
        event_chess()
            .geometry
            .from_square(Square::parse(name).unwrap())
            .unwrap()
    }
}
