//! From what a record wrote to what it means, and back: resolving a [`Notation`] against
//! the legal moves of a position, and printing a move in canonical SAN.
//!
//! Resolution accepts the lenient spellings of `spec/notation.md` (over-disambiguation,
//! a missing or extra `x`, `0-0`, `e8Q`, `Ng1f3`, `Ng1-f3`); when nothing legal matches,
//! it says why in words and offers the closest legal spellings.

use arrayvec::ArrayVec;

use super::board::{Bitboard, Direction, Sq};
use super::event::Form;
use super::moves::{Move, Special};
use super::piece::{Kind, Role};
use super::position::{MAX_EVENTS, Position};
use super::variant::Variant;
use crate::notation::{
    Castle, Facing, Hint, MoveBody, Notation, PieceMove, Placement, Separator, Verb,
};

/// Why a written move does not resolve to exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    pub kind: RejectionKind,
    /// The reason in words, naming pieces and squares.
    pub reason: String,
    /// How to write it right: the closest legal spellings.
    pub help: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RejectionKind {
    /// No legal move matches.
    Illegal,
    /// Several legal moves match.
    Ambiguous,
    /// The move names a piece the variant's source never defines (SIP-7's unicorn).
    Unsupported,
}

/// What the written move asks for, before looking at the position.
struct Request {
    kind: Option<Kind>,
    from: Bitboard,
    to: Sq,
    promotion: Option<Kind>,
    /// Pawn captures must name their file; without it a pawn move is a push.
    pawn_push_only: bool,
}

/// Resolves a written move (not a null move) to the one legal move it means.
///
/// ```
/// use xpgn::notation::Notation;
/// use xpgn::rules::{Variant, san};
///
/// let standard = Variant::by_name("standard").unwrap();
/// let start = standard.start_position();
/// let knight = san::resolve(standard, start, &Notation::parse("Ng1-f3").unwrap()).unwrap();
/// assert_eq!(san::san(standard, start, &knight), "Nf3");
/// let wrong = san::resolve(standard, start, &Notation::parse("Nf4").unwrap()).unwrap_err();
/// assert!(wrong.reason.contains("no white knight can reach f4"));
/// ```
pub fn resolve(v: &Variant, pos: &Position, notation: &Notation) -> Result<Move, Rejection> {
    resolve_with(v, pos, notation, &mut Vec::new())
}

/// [`resolve`] with a buffer for the candidate moves, so that replaying a game does not
/// allocate once per move.
pub fn resolve_with(
    v: &Variant,
    pos: &Position,
    notation: &Notation,
    candidates: &mut Vec<Move>,
) -> Result<Move, Rejection> {
    match &notation.body {
        MoveBody::Castle(castle) => resolve_castle(v, pos, *castle),
        MoveBody::Piece(m) => resolve_piece_move(v, pos, m, candidates),
        MoveBody::Null(_) => Err(illegal(
            "a null move passes the turn; it has no move to resolve".to_owned(),
            None,
        )),
        MoveBody::Placement(_) | MoveBody::Turn(_) | MoveBody::Shot(_) | MoveBody::Half(_) => {
            resolve_turn(v, pos, notation)
        }
        MoveBody::UnsaidCapture(letter) => {
            resolve_unsaid_capture(v, pos, char::from(*letter), candidates)
        }
    }
}

/// `Ntakes`: the one capture a piece of that letter has (`spec/notation.md` section 6);
/// `btakes` the one of the bishops and the b-pawn together.
#[cold]
fn resolve_unsaid_capture(
    v: &Variant,
    pos: &Position,
    letter: char,
    moves: &mut Vec<Move>,
) -> Result<Move, Rejection> {
    let kind = v
        .kind_of_letter(letter)
        .ok_or_else(|| unknown_letter(v, letter))?;
    let written = format!("{letter}x");
    let b_pawn = |mv: &Move| {
        letter == 'b' && Some(mv.piece.kind) == v.tables.pawn && v.geometry.file(mv.from) == 1
    };
    v.legal_moves(pos, moves);
    moves.retain(|mv| mv.is_capture() && (mv.piece.kind == kind || b_pawn(mv)));
    let name = if letter == 'b' {
        format!("{} or b-pawn", piece_name(v, kind))
    } else {
        piece_name(v, kind).to_owned()
    };
    match moves.as_slice() {
        [mv] => Ok(*mv),
        [] => Err(illegal(
            format!(
                "`{written}` names no capture: no {} {name} can capture here",
                pos.turn
            ),
            legal_help(v, pos, &written, Some(kind)),
        )),
        several => {
            let spellings: Vec<String> = several.iter().map(|mv| san_plain(v, pos, mv)).collect();
            Err(Rejection {
                kind: RejectionKind::Ambiguous,
                reason: format!(
                    "`{written}` does not say which capture: {} has {} {name} captures here",
                    pos.turn,
                    several.len()
                ),
                help: Some(format!(
                    "write the one you mean: {}",
                    spellings.join(" or ")
                )),
            })
        }
    }
}

/// Resolves a whole move that only events give a meaning (`R@h8`, `@f7`,
/// `Qxe5,Qxe6#`, `Bx@d6`): a running event that reads its form takes it, or it is
/// refused.
fn resolve_turn(v: &Variant, pos: &Position, notation: &Notation) -> Result<Move, Rejection> {
    let form = match &notation.body {
        MoveBody::Shot(shot) => match shot.verb {
            Verb::Takes => Form::Shot,
            Verb::Fires => Form::Fire,
            Verb::Loads => Form::Load,
        },
        MoveBody::Half(_) => Form::Half,
        MoveBody::Placement(placed) if placed.piece.is_some() => Form::Drop,
        MoveBody::Placement(_) => Form::Convert,
        // A piece placed after a move (`O-O,R@a1`), or before one as forum posts write
        // the ally a check calls back (`N@g1,Kf8`).
        MoveBody::Turn(parts) => match (parts.first(), parts.last()) {
            (
                _,
                Some(MoveBody::Placement(Placement {
                    piece: Some(letter),
                    ..
                })),
            )
            | (
                Some(MoveBody::Placement(Placement {
                    piece: Some(letter),
                    ..
                })),
                _,
            ) => Form::AppearsAfter(*letter),
            _ => Form::Turn,
        },
        _ => Form::Turn,
    };
    let written = written_body(&notation.body);
    if let Some(reason) = foreign_form(pos, form) {
        return Err(illegal(reason, legal_help(v, pos, &written, None)));
    }
    // Where several running events give the spelling a move, the one whose move is
    // spelled exactly so (in SAN or long notation) wins, else the first started (EC-13): `c6,b6` is #13's two pawn
    // moves in that order where #74 would write its group `b6,c6` (AM-3), and `R@a2`
    // #7's drop or #46's load. Without a move, the first refusal explains.
    let mut first = None;
    let mut refusal = None;
    for event in pos.events() {
        if event.reads(form)
            && let Some(resolved) = event.resolve_turn(v, pos, notation)
        {
            match resolved.and_then(|mv| allowed_by_events(v, pos, mv, &written)) {
                Ok(mv)
                    if san_plain(v, pos, &mv) == written
                        || lan_giving(v, pos, &mv, Gives::Nothing) == written =>
                {
                    return Ok(mv);
                }
                Ok(mv) => {
                    first.get_or_insert(mv);
                }
                Err(why) => {
                    refusal.get_or_insert(why);
                }
            }
        }
    }
    if let Some(mv) = first {
        return Ok(mv);
    }
    if let Some(why) = refusal {
        return Err(why);
    }
    Err(illegal(
        format!("no running event reads `{written}` as a move here"),
        legal_help(v, pos, &written, None),
    ))
}

/// A move an event's own reader resolved, held to what every running event allows, as
/// the generated moves are (PG-5: an own capture of #126 does not meet #109's duty).
fn allowed_by_events(
    v: &Variant,
    pos: &Position,
    mv: Move,
    written: &str,
) -> Result<Move, Rejection> {
    match pos.events().into_iter().find(|e| !e.allows(v, pos, &mv)) {
        None => Ok(mv),
        Some(event) => Err(illegal(
            event.why_refused(v, pos, &mv),
            legal_help(v, pos, written, None),
        )),
    }
}

pub(crate) fn illegal(reason: String, help: Option<String>) -> Rejection {
    Rejection {
        kind: RejectionKind::Illegal,
        reason,
        help,
    }
}

fn piece_name(v: &Variant, kind: Kind) -> &str {
    &v.piece(kind).name
}

/// `the white knight` (where the square is already named)
pub(crate) fn describe_piece(v: &Variant, pos: &Position, sq: Sq) -> String {
    match pos.piece_at(sq) {
        Some(p) => format!("the {} {}", p.color, piece_name(v, p.kind)),
        None => "nothing".to_owned(),
    }
}

/// `the white knight on f3`
pub(crate) fn describe(v: &Variant, pos: &Position, sq: Sq) -> String {
    match pos.piece_at(sq) {
        Some(p) => format!(
            "the {} {} on {}",
            p.color,
            piece_name(v, p.kind),
            v.geometry.name(sq)
        ),
        None => format!("the empty square {}", v.geometry.name(sq)),
    }
}

pub(crate) fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn resolve_castle(v: &Variant, pos: &Position, castle: Castle) -> Result<Move, Rejection> {
    let wing_name = if castle.long { "queenside" } else { "kingside" };
    let Some(castling) = v.castling else {
        return Err(illegal(format!("{} has no castling", v.name), None));
    };
    let us = pos.turn;
    let g = v.geometry;
    // Only where the asked wing's king lands: the king's other moves cannot match.
    let rank = castling.rank[us.index()];
    let king_targets: Bitboard = castling.wings[us.index()]
        .iter()
        .filter(|wing| wing.long == castle.long)
        .filter_map(|wing| g.sq(wing.king_to, rank))
        .collect();
    if pos.has_events()
        && let Some(resolved) = pos
            .events()
            .into_iter()
            .find_map(|event| event.resolve_castle(v, pos, castle.long))
    {
        return resolved;
    }
    let found = if pos.has_events() {
        // Events add, reroute and forbid moves: ask for all the king's moves (a king
        // that castles onto a passage square ends on its exit, HP-9).
        let mut moves = Vec::new();
        v.legal_moves_between(pos, pos.kings(v, us), g.all(), &mut moves);
        moves.into_iter().find(|mv| match mv.special {
            Special::Castle { rook_from, .. } => v
                .castling_path(us, mv.from, rook_from)
                .is_some_and(|path| path.long == castle.long),
            _ => false,
        })
    } else {
        v.legal_castle(pos, king_targets, castle.long)
    };
    if let Some(mv) = found {
        return Ok(mv);
    }
    // Why not: rights, pieces in the way, check, attacked squares.
    let back = g.rank_mask(rank);
    let found = v.castling_king(pos, us).and_then(|king| {
        (pos.castling & pos.by_color(us) & back).find_map(|rook| {
            let path = v.castling_path(us, king, rook)?;
            (path.long == castle.long).then_some((king, rook, path))
        })
    });
    let Some((king, rook, path)) = found else {
        let why = pos
            .events()
            .iter()
            .find_map(|e| e.why_no_castling(v, pos, us))
            .unwrap_or("the king or that rook has moved");
        return Err(illegal(
            format!("{us} may no longer castle {wing_name}: {why}"),
            legal_help(v, pos, &castle_text(castle), v.tables.king),
        ));
    };
    let others = pos.occupied() ^ king.bit() ^ rook.bit();
    let in_way = path.must_be_empty & others;
    let reason = if let Some(blocker) = in_way.first() {
        format!(
            "{us} cannot castle {wing_name}: {} stands in the way",
            describe(v, pos, blocker)
        )
    } else if let Some(checker) = pos.checkers(v).first() {
        format!(
            "{us} cannot castle {wing_name} out of check ({} gives check)",
            describe(v, pos, checker)
        )
    } else {
        match path
            .king_passes
            .into_iter()
            .find_map(|sq| Some((sq, pos.attackers(v, sq, us.other(), others).first()?)))
        {
            Some((sq, attacker)) if sq == path.king_to => format!(
                "{us} cannot castle {wing_name}: the king would land on {}, attacked by {}",
                g.name(sq),
                attacker_words(v, pos, attacker, sq)
            ),
            Some((sq, attacker)) => format!(
                "{us} cannot castle {wing_name}: the king would pass through {}, attacked by {}",
                g.name(sq),
                attacker_words(v, pos, attacker, sq)
            ),
            None if pos.has_events() && !offers_castle(v, pos, king, rook) => {
                let running: Vec<String> = pos
                    .events()
                    .iter()
                    .map(|e| format!("#{} {}", e.label(), e.name()))
                    .collect();
                format!(
                    "{us} cannot castle {wing_name}: the rules of the running events ({}) leave no such move here",
                    list(&running)
                )
            }
            None => match refused_castle(v, pos, king, rook) {
                Some(why) => format!("{us} cannot castle {wing_name}: {why}"),
                None => format!("{us} cannot castle {wing_name}: the king would be in check"),
            },
        }
    };
    Err(illegal(
        reason,
        legal_help(v, pos, &castle_text(castle), v.tables.king),
    ))
}

/// The piece on `from` that attacks `to`, and why where a running event is the reason
/// (SC-6: a loaded rook's possible shot).
fn attacker_words(v: &Variant, pos: &Position, from: Sq, to: Sq) -> String {
    match attacks_under_events(v, pos, from, to) {
        Some(why) => format!("{} ({why})", describe(v, pos, from)),
        None => describe(v, pos, from),
    }
}

/// Why a running event refuses the castle with the rook on `rook` (its `allows`, ST-4),
/// if one does.
fn refused_castle(v: &Variant, pos: &Position, king: Sq, rook: Sq) -> Option<String> {
    if !pos.has_events() {
        return None;
    }
    let mut moves = Vec::new();
    v.pseudo_moves(pos, king.bit(), v.geometry.all(), &mut moves);
    let castle = moves
        .into_iter()
        .find(|mv| matches!(mv.special, Special::Castle { rook_from, .. } if rook_from == rook))?;
    pos.events()
        .into_iter()
        .find(|e| !e.allows(v, pos, &castle))
        .map(|e| e.why_refused(v, pos, &castle))
}

/// Whether the moves the running events leave include castling with the rook on `rook`.
fn offers_castle(v: &Variant, pos: &Position, king: Sq, rook: Sq) -> bool {
    let mut moves = Vec::new();
    v.pseudo_moves(pos, king.bit(), v.geometry.all(), &mut moves);
    moves
        .iter()
        .any(|mv| matches!(mv.special, Special::Castle { rook_from, .. } if rook_from == rook))
}

fn castle_text(castle: Castle) -> String {
    if castle.long { "O-O-O" } else { "O-O" }.to_owned()
}

/// Refuses a move through a passage or pass in a position that has neither.
fn foreign_passage(m: &PieceMove) -> Option<String> {
    is_passage_form(m).then(|| {
        "a move through a passage (event #5 Hidden passage, or the pass of Secret Invisible Pass Chess) is not possible in this game"
            .to_owned()
    })
}

/// Three squares, or two with a capture or promotion on the first (`Nxf6-c4`,
/// `e10=Q-f1`): the first square is entered, not left.
fn is_passage_form(m: &PieceMove) -> bool {
    m.targets.len() == 3
        || (m.targets.len() == 2
            && (m.targets[0].separator == Separator::Capture || m.targets[0].promotion.is_some()))
}

/// Why a move in a form of event notation is refused, when no running event reads
/// it: the events that do are named from the registry.
fn foreign_form(pos: &Position, form: Form) -> Option<String> {
    if pos.events().iter().any(|e| e.reads(form)) {
        return None;
    }
    let mut readers: Vec<String> = super::events::ALL
        .iter()
        .filter(|e| e.reads(form))
        .map(|e| format!("#{} {}", e.label(), e.name()))
        .collect();
    // Both wordings of an event read its forms (#7 and `[%event 7 old]`): named once.
    readers.dedup();
    Some(match readers.as_slice() {
        [] => format!("{form} is allowed by no running event, and no event xpgn plays reads it"),
        [one] => format!("{form} belongs to event {one}, which is not running here"),
        [_, _] => format!(
            "{form} belongs to events {}, neither of which is running here",
            list(&readers)
        ),
        _ => format!(
            "{form} belongs to events {}, none of which is running here",
            list(&readers)
        ),
    })
}

/// The forms of event notation a piece move takes (`K@g7`, `/g1`, `->a8`, a long path).
fn forms(m: &PieceMove) -> impl Iterator<Item = Form> {
    let placed = m.placed.map(|placed| match placed.piece {
        Some(letter) => Form::Appears(letter),
        None => Form::CapturedTo,
    });
    let path = (m.targets.len() > 3).then_some(Form::Path);
    [
        m.rider().map(|_| Form::Stack),
        placed,
        m.swap.map(|_| Form::Swap),
        m.arrow.map(|_| Form::Arrow),
        path,
    ]
    .into_iter()
    .flatten()
}

/// The move as written, without check marks or glyphs, for comparing with legal moves.
pub(crate) fn written(m: &PieceMove) -> String {
    written_body(&MoveBody::Piece(m.clone()))
}

fn written_body(body: &MoveBody) -> String {
    Notation {
        body: body.clone(),
        check: None,
        assessment: None,
    }
    .to_string()
}

/// The square as the variant's board knows it, or why it is not on the board.
pub(crate) fn on_board(v: &Variant, square: crate::notation::Square) -> Result<Sq, Rejection> {
    let g = v.geometry;
    g.from_square(square).ok_or_else(|| {
        illegal(
            format!(
                "{square} is not on the {}x{} board of {}",
                g.width, g.height, v.name
            ),
            None,
        )
    })
}

/// The squares a written file or rank (`Nbd7`, `R1e2`) allows the piece to come from.
pub(crate) fn hinted_origins(v: &Variant, hint: Option<Hint>) -> Bitboard {
    let g = v.geometry;
    match hint {
        Some(Hint::File(file)) => g
            .sq(file, 0)
            .map_or(Bitboard::EMPTY, |sq| v.tables.file_of[sq.index()]),
        Some(Hint::Rank(rank)) => g.rank_mask(rank),
        None => g.all(),
    }
}

/// Always inlined: every written move asks it, and [`candidates`] asking it too would
/// otherwise leave it out of line (1.3% more instructions for `check`).
#[inline(always)]
fn request(v: &Variant, pos: &Position, m: &PieceMove) -> Result<Request, Rejection> {
    if let Some(reason) = foreign_passage(m) {
        return Err(illegal(reason, legal_help(v, pos, &written(m), None)));
    }
    let on_board = |square| on_board(v, square);
    let Some(last) = m.targets.last() else {
        // Found by fuzzing: `R->h3` with #85 running reads the arrow, and no running
        // event takes the push.
        return Err(illegal(
            format!(
                "`{}` names no square to move to: only a rook's push is written so, while event #43 Line Pushers runs",
                written(m)
            ),
            legal_help(v, pos, &written(m), None),
        ));
    };
    let to = on_board(last.square)?;
    let kind = written_kind(v, m)?;
    // Nearly every move writes no promotion: no call for it.
    let promotion = match last.promotion {
        None => None,
        written => promotion_kind(v, pos, m, written)?,
    };
    let mut from = hinted_origins(v, m.hint);
    let origin = if m.targets.len() == 2 {
        let origin = on_board(m.targets[0].square)?;
        from &= origin.bit();
        true
    } else {
        false
    };
    // `Ng1f3` names its piece; `g1f3` means whatever stands on g1 (as python-chess reads it).
    let kind = if m.piece.is_none() && origin {
        None
    } else {
        kind
    };
    if let Some(kind) = kind {
        from &= pos.by_kind(kind);
    }
    let pawn_push_only = m.piece.is_none() && m.hint.is_none() && !origin;
    if pawn_push_only {
        from &= v.tables.file_of[to.index()];
    }
    Ok(Request {
        kind,
        from,
        to,
        promotion,
        pawn_push_only,
    })
}

/// The ordinary moves of the side to move that `m` may mean, legal or not: what an
/// event's reader looks at to say why a written move is illegal under its rules (FC-4,
/// MP-3); empty when `m` names no such move.
pub(crate) fn candidates(v: &Variant, pos: &Position, m: &PieceMove) -> Vec<Move> {
    let mut moves = Vec::new();
    if let Ok(req) = request(v, pos, m) {
        v.pseudo_moves(pos, req.from, req.to.bit(), &mut moves);
        moves.retain(|mv| {
            mv.promotion == req.promotion
                && matches!(
                    mv.special,
                    Special::Normal | Special::DoubleStep | Special::EnPassant
                )
        });
    }
    moves
}

/// The kind a move's piece letter names (the pawn without a letter).
pub(crate) fn written_kind(v: &Variant, m: &PieceMove) -> Result<Option<Kind>, Rejection> {
    match m.piece {
        None | Some('P') => Ok(v.tables.pawn),
        Some(letter) => v
            .kind_of_letter(letter)
            .map(Some)
            .ok_or_else(|| unknown_letter(v, letter)),
    }
}

pub(crate) fn promotion_kind(
    v: &Variant,
    pos: &Position,
    m: &PieceMove,
    promotion: Option<crate::notation::Promotion>,
) -> Result<Option<Kind>, Rejection> {
    let Some(p) = promotion else {
        return Ok(None);
    };
    let letter = char::from(p.piece);
    v.kind_of_letter(letter).map(Some).ok_or_else(|| {
        let mut rejection = unknown_letter(v, letter);
        rejection.help = legal_help(v, pos, &written(m), None);
        rejection
    })
}

/// A letter that is no piece of the variant: unsupported when its source names the
/// piece without defining it (SIP-7), else simply unknown.
fn unknown_letter(v: &Variant, letter: char) -> Rejection {
    if let Some(undefined) = v.undefined_piece(letter) {
        return Rejection {
            kind: RejectionKind::Unsupported,
            reason: format!(
                "xpgn cannot play the {} (`{}`) of {}: {}",
                undefined.name, undefined.letter, v.name, undefined.why
            ),
            help: None,
        };
    }
    let letters: Vec<String> = v.pieces.iter().map(|p| p.letter.to_string()).collect();
    illegal(
        format!(
            "`{letter}` is no piece of {} (its pieces are {})",
            v.name,
            letters.join(" ")
        ),
        None,
    )
}

fn resolve_piece_move(
    v: &Variant,
    pos: &Position,
    m: &PieceMove,
    moves: &mut Vec<Move>,
) -> Result<Move, Rejection> {
    if let Some(reason) = forms(m).find_map(|form| foreign_form(pos, form)) {
        return Err(illegal(reason, legal_help(v, pos, &written(m), None)));
    }
    if pos.has_events() {
        // Two events may read one form (`Ng1-g1`: #24's roar, older #88's stand-still):
        // the first reading that gives a move wins, else the first refusal explains.
        let mut refused = None;
        for event in pos.events() {
            match event.resolve(v, pos, m) {
                Some(Ok(mv)) => return allowed_by_events(v, pos, mv, &written(m)),
                Some(Err(rejection)) => {
                    refused.get_or_insert(rejection);
                }
                None => {}
            }
        }
        if let Some(rejection) = refused {
            return Err(rejection);
        }
    }
    if v.tables.holes.nonempty() && is_pass_form(v, pos, m) {
        return resolve_pass(v, pos, m, moves);
    }
    let req = match request(v, pos, m) {
        Ok(req) => req,
        Err(rejection) => return as_pawn_capture(v, pos, m, moves, rejection),
    };
    if req.promotion.is_none()
        && let Some(mv) = v.sole_plain_move_to(pos, req.from, req.to)
    {
        return Ok(mv);
    }
    v.legal_moves_between(pos, req.from, req.to.bit(), moves);
    // A king move never means castling: castling is written `O-O` or `O-O-O` (notation.md
    // section 3; python-chess reads `Kg1` as a king step too). Moves through a pass or of
    // an event are written in their own forms (`Re1-f10`, `R->a8`), read by their readers.
    moves.retain(|mv| {
        mv.promotion == req.promotion
            && choices_match(v, pos, m, mv)
            && matches!(
                mv.special,
                Special::Normal | Special::DoubleStep | Special::EnPassant
            )
    });
    // One piece with two moves between the same squares, one capturing on its way and
    // one not (#42's tank drive beside #49's jump over pieces): the written `x` tells.
    if moves.len() > 1 {
        let captures = m
            .targets
            .last()
            .is_some_and(|t| t.separator == Separator::Capture);
        if moves.iter().any(|mv| mv.captured.is_some() == captures)
            && moves.iter().any(|mv| mv.captured.is_some() != captures)
        {
            moves.retain(|mv| mv.captured.is_some() == captures);
        }
    }
    match moves.as_slice() {
        [mv] => Ok(*mv),
        [] => Err(explain_illegal(v, pos, m, &req)),
        several => Err(ambiguous(v, pos, several)),
    }
}

/// A move that names no legal request, read again as the pawn capture a forum may have
/// written with a capital file (`Cxd5`), or refused as it was.
#[cold]
#[inline(never)]
fn as_pawn_capture(
    v: &Variant,
    pos: &Position,
    m: &PieceMove,
    moves: &mut Vec<Move>,
    rejection: Rejection,
) -> Result<Move, Rejection> {
    match capital_file_capture(v, m) {
        Some(pawn) => resolve_piece_move(v, pos, &pawn, moves).map_err(|_| rejection),
        None => Err(rejection),
    }
}

/// `Cxd5` where the variant has no `C` piece: forums capitalise a pawn capture's file
/// (`spec/notation.md` section 6), so it is read as `cxd5`, the pawn move it means.
fn capital_file_capture(v: &Variant, m: &PieceMove) -> Option<PieceMove> {
    let letter = m.piece?;
    let file = u8::try_from(letter).ok()?.checked_sub(b'A')?;
    let captures = m.targets.len() == 1 && m.targets[0].separator == Separator::Capture;
    (captures
        && m.hint.is_none()
        && i32::from(file) < i32::from(v.geometry.width)
        && v.kind_of_letter(letter).is_none())
    .then(|| {
        let mut pawn = m.clone();
        pawn.piece = None;
        pawn.hint = Some(Hint::File(file));
        pawn
    })
}

/// The direction a written `->square` names from `from` (LK-8: any square on the ray,
/// one step off the board too).
pub(crate) fn written_direction(v: &Variant, from: Sq, toward: Facing) -> Option<Direction> {
    let g = v.geometry;
    Direction::toward(
        i32::from(toward.file) - i32::from(g.file(from)),
        i32::from(toward.rank) - i32::from(g.rank(from)),
    )
}

/// Whether the event choices a move carries are those written: the direction a knight
/// faces after it (`->g2`; unwritten, it keeps its own, LK-8) and the knight that swaps
/// in (`/g1`; unwritten, there must be no other to choose, LK-4).
pub(crate) fn choices_match(v: &Variant, pos: &Position, m: &PieceMove, mv: &Move) -> bool {
    let swap_matches = m.swap.is_none_or(|square| {
        mv.swap
            .is_some_and(|sq| v.geometry.from_square(square) == Some(sq))
    });
    let faces_matches = match m.arrow {
        None => mv.faces.is_none(),
        Some(toward) => {
            let after = mv
                .faces
                .or_else(|| pos.events().iter().find_map(|e| e.facing(pos, mv.from)));
            after.is_some() && written_direction(v, mv.to, toward) == after
        }
    };
    swap_matches && faces_matches
}

/// Whether a move in a variant with passes is written as one through a pass: three
/// squares (`Ra1-e1-f10`), two of which the first carries a capture or promotion
/// (`e10=Q-f1`), or two of which the first is a hole and either the second is its far
/// end (`Re1-f10`) or no piece of ours stands on the hole to move from it (`Qe1-e10`
/// from e2 is a pass to the wrong end, SIP-2; `Re1-e10` by a rook on e1 is a rook move).
fn is_pass_form(v: &Variant, pos: &Position, m: &PieceMove) -> bool {
    let g = v.geometry;
    if is_passage_form(m) {
        return true;
    }
    let [first, second] = m.targets.as_slice() else {
        return false;
    };
    let Some(hole) = g
        .from_square(first.square)
        .filter(|&sq| v.tables.holes.contains(sq))
    else {
        return false;
    };
    let written_stands_there = pos.piece_at(hole).is_some_and(|p| {
        p.color == pos.turn
            && written_kind(v, m).is_ok_and(|kind| m.piece.is_none() || Some(p.kind) == kind)
    });
    v.pass_end(hole) == g.from_square(second.square) || !written_stands_there
}

/// Resolves `Ra1-e1-f10`, `Re1-f10` and `e10=Q-f1` (SIP-3, SIP-5). With two squares
/// the first may also be the origin of an ordinary move (`Re1-f10` from a rook
/// standing on e1 is a transfer either way).
fn resolve_pass(
    v: &Variant,
    pos: &Position,
    m: &PieceMove,
    moves: &mut Vec<Move>,
) -> Result<Move, Rejection> {
    let on_board = |square| on_board(v, square);
    let n = m.targets.len();
    let (hole_written, far_written) = (m.targets[n - 2], m.targets[n - 1]);
    let hole = on_board(hole_written.square)?;
    let far = on_board(far_written.square)?;
    let kind = written_kind(v, m)?;
    let promotion = promotion_kind(v, pos, m, hole_written.promotion.or(far_written.promotion))?;
    let mut from = hinted_origins(v, m.hint);
    if n == 3 {
        from &= on_board(m.targets[0].square)?.bit();
    }
    // Without a letter: a pawn, or whatever stands on the first square (as `g1f3`).
    let written_piece = |mv: &Move| match (m.piece, kind) {
        (None, pawn) => Some(mv.piece.kind) == pawn || mv.from == hole,
        (Some(_), kind) => Some(mv.piece.kind) == kind,
    };
    v.legal_moves_between(pos, from, far.bit(), moves);
    moves.retain(|mv| {
        mv.promotion == promotion
            && written_piece(mv)
            && match mv.special {
                Special::Pass { hole: through } => through == hole,
                Special::Castle { .. } => false,
                _ => n == 2 && mv.from == hole,
            }
    });
    let help = || legal_help(v, pos, &written(m), kind.filter(|_| m.piece.is_some()));
    match moves.as_slice() {
        [mv] => {
            let captures_written = hole_written.separator == Separator::Capture
                || far_written.separator == Separator::Capture;
            if captures_written && matches!(mv.special, Special::Pass { .. }) {
                return Err(illegal(
                    "nothing is captured through the pass: the hole and the far end are both empty (SIP-3)".to_owned(),
                    Some(format!("write {}", san(v, pos, mv))),
                ));
            }
            Ok(*mv)
        }
        [] => Err(illegal(
            explain_pass(v, pos, m, hole, far, from, promotion),
            help(),
        )),
        several => Err(ambiguous(v, pos, several)),
    }
}

/// Why no legal move goes through the pass as written.
fn explain_pass(
    v: &Variant,
    pos: &Position,
    m: &PieceMove,
    hole: Sq,
    far: Sq,
    from: Bitboard,
    promotion: Option<Kind>,
) -> String {
    let g = v.geometry;
    let us = pos.turn;
    let Some(end) = v.pass_end(hole) else {
        let holes: Vec<String> = v.tables.holes.map(|sq| g.name(sq)).collect();
        return format!(
            "{} is not a hole of the pass (the holes are {}; SIP-2)",
            g.name(hole),
            list(&holes)
        );
    };
    if end != far {
        return format!(
            "the pass from {} leads to {}, not to {} (SIP-2)",
            g.name(hole),
            g.name(end),
            g.name(far)
        );
    }
    if let Some(piece) = pos.piece_at(far) {
        let nothing_captured = if piece.color == us {
            ""
        } else {
            "; nothing is captured through it"
        };
        return format!(
            "the pass leads to {}, which is occupied by {}: a piece goes through the pass only to an empty square{nothing_captured} (SIP-3)",
            g.name(far),
            describe_piece(v, pos, far)
        );
    }
    let standing = pos.piece_at(hole);
    let kind = written_kind(v, m).ok().flatten();
    let mut pseudo = Vec::new();
    v.pseudo_moves(pos, from, far.bit(), &mut pseudo);
    pseudo.retain(|mv| {
        mv.special == Special::Pass { hole } && (m.piece.is_none() || Some(mv.piece.kind) == kind)
    });
    if let Some(mv) = pseudo.iter().find(|mv| mv.promotion == promotion) {
        return king_exposed(v, pos, mv);
    }
    if let Some(mv) = pseudo.first() {
        return match promotion {
            None => format!(
                "a pawn that reaches {} must promote (SIP-5: `{}`)",
                g.name(hole),
                san_plain(v, pos, mv)
            ),
            Some(_) => format!("the pawn does not promote on {}", g.name(hole)),
        };
    }
    if let Some(piece) = standing
        && !(piece.color == us
            && from.contains(hole)
            && (m.piece.is_none() || Some(piece.kind) == kind))
    {
        return format!(
            "the hole {} is occupied by {}: a piece goes through the pass only when the hole is empty (SIP-3)",
            g.name(hole),
            describe_piece(v, pos, hole)
        );
    }
    let what = kind.map_or("piece".to_owned(), |k| piece_name(v, k).to_owned());
    match standing {
        Some(_) => format!("{} cannot go through the pass", describe(v, pos, hole)),
        None => format!(
            "no {us} {what} can reach the hole {}, so none can go through the pass to {}",
            g.name(hole),
            g.name(far)
        ),
    }
}

pub(crate) fn ambiguous(v: &Variant, pos: &Position, moves: &[Move]) -> Rejection {
    let g = v.geometry;
    let kind = moves[0].piece.kind;
    let plural = format!("{}s", piece_name(v, kind));
    let origins: Vec<String> = moves.iter().map(|mv| g.name(mv.from)).collect();
    let spellings: Vec<String> = moves.iter().map(|mv| san_plain(v, pos, mv)).collect();
    let all = if moves.len() == 2 { "both" } else { "all" };
    Rejection {
        kind: RejectionKind::Ambiguous,
        reason: format!(
            "ambiguous: the {plural} on {} can {all} move to {}",
            list(&origins),
            g.name(moves[0].to)
        ),
        help: Some(format!("write {}", spellings.join(" or "))),
    }
}

fn explain_illegal(v: &Variant, pos: &Position, m: &PieceMove, req: &Request) -> Rejection {
    let g = v.geometry;
    let us = pos.turn;
    let help = legal_help(v, pos, &written(m), req.kind);
    if !v.has_legal_move(pos) {
        let won = pos
            .events()
            .into_iter()
            .find_map(|e| Some(e.victory(e.winner(v, pos)?).1));
        let reason = if let Some(won) = won {
            format!("the game is over: {won}")
        } else if pos.is_check(v) {
            format!("the game is over: {us} is checkmated")
        } else {
            format!("the game is over: {us} is stalemated")
        };
        return illegal(reason, None);
    }
    let what = req
        .kind
        .map_or("piece".to_owned(), |k| piece_name(v, k).to_owned());
    let mut pseudo = Vec::new();
    v.pseudo_moves(pos, req.from, req.to.bit(), &mut pseudo);
    let promotion_mismatch =
        !pseudo.is_empty() && pseudo.iter().all(|mv| mv.promotion != req.promotion);
    pseudo.retain(|mv| mv.promotion == req.promotion);
    if let Some(mv) = pseudo.first() {
        return illegal(king_exposed(v, pos, mv), help);
    }
    if promotion_mismatch {
        let reason = match req.promotion {
            None => {
                let mut promotions = Vec::new();
                v.legal_moves_between(pos, req.from, req.to.bit(), &mut promotions);
                let spellings: Vec<String> =
                    promotions.iter().map(|mv| san_plain(v, pos, mv)).collect();
                let help =
                    (!spellings.is_empty()).then(|| format!("write {}", spellings.join(" or ")));
                return illegal(
                    format!("a pawn that reaches {} must promote", g.name(req.to)),
                    help,
                );
            }
            Some(kind) if !v.pawn.promotes_to.contains(&kind) => {
                let allowed: Vec<String> = v
                    .pawn
                    .promotes_to
                    .iter()
                    .map(|&k| piece_name(v, k).to_owned())
                    .collect();
                format!(
                    "a pawn cannot promote to a {} (it may become a {})",
                    piece_name(v, kind),
                    list(&allowed).replace(" and ", " or ")
                )
            }
            Some(_) => format!(
                "only a pawn that reaches its last rank promotes, and {} is not on it",
                g.name(req.to)
            ),
        };
        return illegal(reason, help);
    }
    if let Some(own) = pos.piece_at(req.to).filter(|p| p.color == us) {
        return illegal(
            format!(
                "{} is occupied by {us}'s own {}",
                g.name(req.to),
                piece_name(v, own.kind)
            ),
            help,
        );
    }
    let Some(kind) = req.kind else {
        let origin = (req.from).first();
        return illegal(
            match origin.and_then(|sq| pos.piece_at(sq).map(|p| (sq, p))) {
                Some((sq, p)) if p.color == us => {
                    format!("{} cannot move to {}", describe(v, pos, sq), g.name(req.to))
                }
                _ => format!(
                    "{us} has no piece on {}",
                    origin.map_or("that square".to_owned(), |sq| g.name(sq))
                ),
            },
            help,
        );
    };
    let ours = pos.pieces(us, kind);
    if ours.is_empty() {
        return illegal(format!("{us} has no {what}"), help);
    }
    let written_origin = m.hint.is_some() || m.targets.len() == 2;
    if written_origin && !req.pawn_push_only {
        // Did the hint or origin rule out a move that exists?
        let mut unconstrained = Vec::new();
        v.legal_moves_between(pos, ours, req.to.bit(), &mut unconstrained);
        unconstrained.retain(|mv| mv.promotion == req.promotion);
        if !unconstrained.is_empty() {
            let mut origins: Vec<String> = unconstrained
                .iter()
                .map(|mv| describe(v, pos, mv.from))
                .collect();
            // An event's several moves of one piece there (#59's paths) name it once.
            origins.dedup();
            let where_written = match (m.hint, m.targets.len()) {
                (_, 2) => format!("on {}", m.targets[0].square),
                (Some(Hint::File(f)), _) => format!("on the {}-file", char::from(b'a' + f)),
                (Some(Hint::Rank(r)), _) => format!("on rank {}", u32::from(r) + 1),
                (None, _) => String::new(),
            };
            return illegal(
                format!(
                    "no {us} {what} {where_written} can move to {}; {} can",
                    g.name(req.to),
                    list(&origins)
                ),
                help,
            );
        }
    }
    if let Some(why) = unreached_under_events(v, pos, ours, req.to) {
        return illegal(why, help);
    }
    if v.role(kind) == Role::Pawn {
        let reason = if req.pawn_push_only {
            if pos.piece_at(req.to).is_some_and(|p| p.color != us) {
                format!(
                    "a pawn captures diagonally: {} cannot be taken by a pawn moving straight ahead",
                    describe(v, pos, req.to)
                )
            } else {
                format!("no {us} pawn can move to {}", g.name(req.to))
            }
        } else if pos.piece_at(req.to).is_none() && pos.ep != Some(req.to) {
            format!("there is nothing to capture on {}", g.name(req.to))
        } else {
            format!("no {us} pawn can capture on {}", g.name(req.to))
        };
        return illegal(reason, help);
    }
    let squares: Vec<String> = ours.map(|sq| g.name(sq)).collect();
    let plural = if squares.len() == 1 {
        format!("{what} on")
    } else {
        format!("{what}s on")
    };
    illegal(
        format!(
            "no {us} {what} can reach {} (the {us} {plural} {})",
            g.name(req.to),
            list(&squares)
        ),
        help,
    )
}

/// Why none of our pieces on `ours` reaches `to` while a running event changes where
/// pieces go, where the variant's own rules would let one: the event says, with its
/// ruling (#71: at most two squares).
fn unreached_under_events(v: &Variant, pos: &Position, ours: Bitboard, to: Sq) -> Option<String> {
    if !pos.reach_changed() {
        return None;
    }
    let occupied = pos.occupied();
    let capture = pos.piece_at(to).is_some_and(|p| p.color != pos.turn);
    ours.into_iter().find_map(|from| {
        let piece = pos.piece_at(from)?;
        let orthodox = v.attacks(piece.kind, piece.color, from, occupied);
        let reached = if v.role(piece.kind) == Role::Pawn {
            let step = v.tables.pawn_step(piece.color, from);
            if capture {
                orthodox.contains(to)
            } else {
                step == Some(to)
                    || step.and_then(|s| v.tables.pawn_step(piece.color, s)) == Some(to)
            }
        } else {
            orthodox.contains(to)
        };
        if !reached {
            return None;
        }
        pos.events()
            .into_iter()
            .find_map(|event| event.why_unreached(v, pos, from, piece, to))
    })
}

/// Why the piece on `from` attacks `to` where the variant's own rules would not have it,
/// when a running event changes where pieces go or adds attackers: the event says, with
/// its ruling (#76: a bishop on the enemy half attacks as a knight; #102: a king with a
/// double move left reaches two steps).
fn attacks_under_events(v: &Variant, pos: &Position, from: Sq, to: Sq) -> Option<String> {
    if !pos.has_events() {
        return None;
    }
    let piece = pos.piece_at(from)?;
    let orthodox = if v.role(piece.kind) == Role::Pawn {
        v.tables.pawn_attacks[piece.color.index()][from.index()]
    } else {
        v.attacks(piece.kind, piece.color, from, pos.occupied())
    };
    // A piece whose own movement attacks as the variant's would needs no words; one
    // whose movement an event took away attacks, if at all, in an event's own way (#47:
    // a rook carrying a bishop stands still, and its bishop shoots, WT-5).
    if orthodox.contains(to)
        && pos
            .direct_attackers(v, to, piece.color, pos.occupied())
            .contains(from)
    {
        return None;
    }
    pos.events()
        .into_iter()
        .find_map(|event| event.why_attacks(v, pos, from, piece, to))
}

/// Why a move that the piece could make leaves its own king attacked.
pub(crate) fn king_exposed(v: &Variant, pos: &Position, mv: &Move) -> String {
    let g = v.geometry;
    let us = mv.piece.color;
    let mut after = pos.clone();
    v.play(&mut after, mv);
    let mover = describe(v, pos, mv.from);
    let king = after
        .checkable_kings(v, us)
        .find(|&k| after.is_attacked(v, k, us.other()));
    let Some(king) = king else {
        if let Some(event) = pos.events().into_iter().find(|e| !e.allows(v, pos, mv)) {
            return event.why_refused(v, pos, mv);
        }
        return format!("{mover} cannot move to {}", g.name(mv.to));
    };
    let attackers: Vec<String> = after
        .attackers(v, king, us.other(), after.occupied())
        .map(|sq| match attacks_under_events(v, &after, sq, king) {
            Some(why) => format!("{} ({why})", describe(v, &after, sq)),
            None => describe(v, &after, sq),
        })
        .collect();
    let by = list(&attackers);
    // The royal piece by its name: a queen where an event makes her royal (LQ-1).
    let royal = after
        .piece_at(king)
        .map_or("king", |p| piece_name(v, p.kind));
    if king == mv.to && after.piece_at(king) == Some(mv.piece) {
        return format!(
            "the {us} {royal} would be in check on {} from {by}",
            g.name(mv.to)
        );
    }
    if pos.is_check(v) {
        // The king stands where it stood: what an event lets its checkers reach says why.
        let checkers: Vec<String> = pos
            .checkers(v)
            .map(|sq| match attacks_under_events(v, pos, sq, king) {
                Some(why) => format!("{} ({why})", describe(v, pos, sq)),
                None => describe(v, pos, sq),
            })
            .collect();
        return format!(
            "{us} is in check from {}, and this move does not answer it",
            list(&checkers)
        );
    }
    format!(
        "{mover} is pinned: moving it exposes the {us} {royal} on {} to {by}",
        g.name(king)
    )
}

/// The legal moves of the piece type the record meant, or else the legal moves closest
/// to what was written, for help texts.
pub fn legal_help(
    v: &Variant,
    pos: &Position,
    written: &str,
    kind: Option<Kind>,
) -> Option<String> {
    let mut moves = Vec::new();
    v.legal_moves(pos, &mut moves);
    let same_kind = kind.filter(|&k| moves.iter().any(|mv| mv.piece.kind == k));
    if let Some(kind) = same_kind {
        moves.retain(|mv| mv.piece.kind == kind);
    }
    if moves.is_empty() {
        return None;
    }
    let mut scored: Vec<(usize, String)> = moves
        .iter()
        .map(|mv| {
            let san = san_plain(v, pos, mv);
            (strsim::damerau_levenshtein(written, &san), san)
        })
        .collect();
    scored.sort();
    let (what, most) = match same_kind {
        Some(kind) => (format!("legal {} moves", piece_name(v, kind)), 8),
        None => ("closest legal moves".to_owned(), 4),
    };
    let best: Vec<String> = scored.into_iter().take(most).map(|(_, san)| san).collect();
    Some(format!("{what}: {}", best.join(", ")))
}

/// Canonical SAN without a check mark: minimal disambiguation among legal moves, `x`
/// exactly on captures, `=` before a promotion piece, `O-O` with the letter O.
pub fn san_plain(v: &Variant, pos: &Position, mv: &Move) -> String {
    let mut out = san_of_move(v, pos, mv);
    annotate(v, pos, mv, &mut out);
    out
}

/// What running events add to a move's spelling (`K@g7`), in the order the notation
/// reads them (a piece placed, `K@`, then `->`, then `/`), whichever event started first:
/// `Nxe7K@g6->d6` with #68 and #85 both running, `a8=N->a7` with #43 and #85.
fn annotate(v: &Variant, pos: &Position, mv: &Move, out: &mut String) {
    // A turn in parts (`Kd2,Kxe1Q@b5`) carries each part's additions already: its event
    // writes every part as a move of its own position.
    let whole_turn = |e: &&dyn super::Event| {
        matches!(mv.special, Special::Event { number, .. } if number == e.number())
            && e.reads(Form::Turn)
    };
    if pos.has_events() && pos.events().iter().any(whole_turn) {
        for event in pos.events() {
            event.annotate_turn(v, pos, mv, out);
        }
    } else if pos.has_events() {
        let mut added: ArrayVec<String, MAX_EVENTS> = pos
            .events()
            .into_iter()
            .map(|event| {
                let mut text = String::new();
                event.annotate(v, pos, mv, &mut text);
                text
            })
            .collect();
        // A part after a comma (`,N@g1`, #1's ally, CA-7) ends the move.
        added.sort_by_key(|text| (text.starts_with(','), !text.contains('@')));
        for text in added {
            out.push_str(&text);
        }
    }
}

/// [`san_plain`] before the events' additions.
fn san_of_move(v: &Variant, pos: &Position, mv: &Move) -> String {
    let g = v.geometry;
    if let Special::Event { number, .. } = mv.special
        && let Some(event) = pos.events().into_iter().find(|e| e.number() == number)
    {
        return event.san(v, pos, mv);
    }
    let mut out = String::new();
    if let Special::Castle { rook_from, .. } = mv.special {
        let long = v
            .castling_path(mv.piece.color, mv.from, rook_from)
            .is_some_and(|path| path.long);
        out.push_str(if long { "O-O-O" } else { "O-O" });
        return out;
    }
    let role = v.role(mv.piece.kind);
    if let Special::Pass { hole } = mv.special {
        // `Re1-f10`, `e10=Q-f1`, `Nxf6-c4`, `c4-g8=Q`: the move onto the hole or passage
        // square, then the far end (notation.md section 3).
        let takes_at_hole = takes_on_hole(v, pos, mv);
        if role != Role::Pawn {
            out.push(v.piece(mv.piece.kind).letter);
            if mv.from != hole {
                push_disambiguation(v, pos, mv, &mut out);
            }
            if takes_at_hole {
                out.push('x');
            }
        } else if takes_at_hole {
            out.push(char::from(b'a' + g.file(mv.from)));
            out.push('x');
        }
        out.push_str(&g.name(hole));
        push_pass_end(v, mv, hole, &mut out);
        return out;
    }
    if role == Role::Pawn {
        if !pawn_geometry(v, mv) {
            // A pawn move orthodox SAN cannot name (#36's steps through a portal, PO-6):
            // from-to, as notation.md section 7 writes such pawn moves.
            out.push_str(&g.name(mv.from));
            out.push(if mv.is_capture() { 'x' } else { '-' });
        } else if mv.is_capture() {
            out.push(char::from(b'a' + g.file(mv.from)));
            out.push('x');
        }
    } else {
        out.push(v.piece(mv.piece.kind).letter);
        out.extend(rider(v, pos, mv.from));
        push_disambiguation(v, pos, mv, &mut out);
        if mv.is_capture() {
            out.push('x');
        }
    }
    out.push_str(&g.name(mv.to));
    push_promotion(v, mv, &mut out);
    out
}

/// Whether a pawn's move goes where a pawn's own step or two steps (a quiet move) or its
/// capture (a capture) goes, so that orthodox SAN (`e4`, `exd5`) names it.
fn pawn_geometry(v: &Variant, mv: &Move) -> bool {
    let t = &v.tables;
    let color = mv.piece.color;
    if mv.is_capture() {
        return t.pawn_attacks[color.index()][mv.from.index()].contains(mv.to);
    }
    let step = t.pawn_step(color, mv.from);
    step == Some(mv.to) || step.and_then(|s| t.pawn_step(color, s)) == Some(mv.to)
}

/// The letter of the piece a running event has riding on the piece on `sq` (#115:
/// the `B` of `RBa4`), written after that piece's letter.
fn rider(v: &Variant, pos: &Position, sq: Sq) -> Option<char> {
    if !pos.has_events() {
        return None;
    }
    pos.events().into_iter().find_map(|e| e.rider(v, pos, sq))
}

/// Whether a move through a passage captures as it enters (HP-3, HP-9: `exd6-h3`).
fn takes_on_hole(v: &Variant, pos: &Position, mv: &Move) -> bool {
    mv.entry_capture_square(v, pos)
        .and_then(|sq| pos.piece_at(sq))
        .is_some_and(|p| p.color != mv.piece.color)
}

/// The far end of a move through a pass or passage: a pawn promotes on a pass's hole
/// (SIP-5, `e10=Q-f1`) but on a passage's final square (HP-4, `c4-g8=Q`).
fn push_pass_end(v: &Variant, mv: &Move, hole: Sq, out: &mut String) {
    if v.tables.holes.contains(hole) {
        push_promotion(v, mv, out);
        out.push('-');
        out.push_str(&v.geometry.name(mv.to));
    } else {
        out.push(if mv.is_capture() { 'x' } else { '-' });
        out.push_str(&v.geometry.name(mv.to));
        push_promotion(v, mv, out);
    }
}

fn push_promotion(v: &Variant, mv: &Move, out: &mut String) {
    if let Some(kind) = mv.promotion {
        out.push('=');
        out.push(v.piece(kind).letter);
    }
}

/// The origin's file, rank or square when another piece of the kind could make the
/// same move (to the same square, through the same hole or not through one).
fn push_disambiguation(v: &Variant, pos: &Position, mv: &Move, out: &mut String) {
    let g = v.geometry;
    let mut rivals = Vec::new();
    v.legal_moves_between(
        pos,
        pos.pieces(mv.piece.color, mv.piece.kind),
        mv.to.bit(),
        &mut rivals,
    );
    let carried = rider(v, pos, mv.from);
    rivals.retain(|r| {
        r.from != mv.from
            && rider(v, pos, r.from) == carried
            && match (mv.special, r.special) {
                (Special::Pass { hole }, Special::Pass { hole: other }) => hole == other,
                (_, Special::Castle { .. } | Special::Pass { .. } | Special::Event { .. }) => false,
                _ => !matches!(mv.special, Special::Pass { .. }),
            }
    });
    if rivals.is_empty() {
        return;
    }
    let same_file = rivals.iter().any(|r| g.file(r.from) == g.file(mv.from));
    let same_rank = rivals.iter().any(|r| g.rank(r.from) == g.rank(mv.from));
    if !same_file {
        out.push(char::from(b'a' + g.file(mv.from)));
    } else if !same_rank {
        out.push_str(&(g.rank(mv.from) + 1).to_string());
    } else {
        out.push_str(&g.name(mv.from));
    }
}

/// What a move does to the opponent: nothing, check, or mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gives {
    Nothing,
    Check,
    Mate,
}

/// Whether the position (after a move) is check or mate for the side to move. A king
/// capture that ends the game is written as mate (notation.md section 5, PR-2).
pub fn gives(v: &Variant, after: &Position) -> Gives {
    if after.has_events() && v.winner(after).is_some() {
        Gives::Mate
    } else if !after.is_check(v) {
        Gives::Nothing
    } else if v.has_legal_move(after) {
        Gives::Check
    } else {
        Gives::Mate
    }
}

impl Gives {
    fn push_mark(self, out: &mut String) {
        match self {
            Gives::Nothing => {}
            Gives::Check => out.push('+'),
            Gives::Mate => out.push('#'),
        }
    }
}

/// What playing `mv` on `pos` gives.
fn gives_by(v: &Variant, pos: &Position, mv: &Move) -> Gives {
    let mut after = pos.clone();
    v.play(&mut after, mv);
    gives(v, &after)
}

/// Canonical SAN with `+` or `#`.
pub fn san(v: &Variant, pos: &Position, mv: &Move) -> String {
    san_giving(v, pos, mv, gives_by(v, pos, mv))
}

/// Canonical SAN with the mark of what the move `gives`, for a caller that has played it
/// already ([`gives`] of the position after it).
pub fn san_giving(v: &Variant, pos: &Position, mv: &Move, gives: Gives) -> String {
    let mut out = san_plain(v, pos, mv);
    gives.push_mark(&mut out);
    out
}

/// The UCI spelling (`e2e4`, `e7e8q`; castling as king to its square, or to the rook in
/// Chess960). Moves through a pass have none: UCI has no way to say "through e1".
pub fn uci(v: &Variant, mv: &Move) -> Option<String> {
    let g = v.geometry;
    let to = match mv.special {
        Special::Pass { .. } | Special::Event { .. } => return None,
        // A castling king or rook gone on through a passage (HP-9) has no UCI either.
        Special::Castle { rook_from, rook_to }
            if v.castling_path(mv.piece.color, mv.from, rook_from)
                .is_some_and(|path| path.king_to != mv.to || path.rook_to != rook_to) =>
        {
            return None;
        }
        Special::Castle { rook_from, .. } if v.chess960 => rook_from,
        _ => mv.to,
    };
    let mut out = format!("{}{}", g.name(mv.from), g.name(to));
    if let Some(kind) = mv.promotion {
        out.push(v.piece(kind).letter.to_ascii_lowercase());
    }
    Some(out)
}

/// Long algebraic notation: every move with its origin (`Ng1-f3`, `e7-e8=Q`, `Bb5xc6+`,
/// `Ra1-e1-f10`).
pub fn lan(v: &Variant, pos: &Position, mv: &Move) -> String {
    lan_giving(v, pos, mv, gives_by(v, pos, mv))
}

/// [`lan`] with the mark of what the move `gives`, as [`san_giving`].
pub fn lan_giving(v: &Variant, pos: &Position, mv: &Move, gives: Gives) -> String {
    let g = v.geometry;
    let mut out = String::new();
    if let Special::Event { number, .. } = mv.special
        && let Some(event) = pos.events().into_iter().find(|e| e.number() == number)
    {
        out = event.lan(v, pos, mv);
    } else if let Special::Castle { .. } = mv.special {
        out = san_of_move(v, pos, mv);
    } else {
        if v.role(mv.piece.kind) != Role::Pawn {
            out.push(v.piece(mv.piece.kind).letter);
            out.extend(rider(v, pos, mv.from));
        }
        out.push_str(&g.name(mv.from));
        if let Special::Pass { hole } = mv.special {
            if hole != mv.from {
                out.push(if takes_on_hole(v, pos, mv) { 'x' } else { '-' });
                out.push_str(&g.name(hole));
            }
            push_pass_end(v, mv, hole, &mut out);
        } else {
            out.push(if mv.is_capture() { 'x' } else { '-' });
            out.push_str(&g.name(mv.to));
            push_promotion(v, mv, &mut out);
        }
    }
    annotate(v, pos, mv, &mut out);
    gives.push_mark(&mut out);
    out
}
