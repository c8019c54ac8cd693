//! FEN in and out, for boards of any size (`10` stands for ten empty squares) and with
//! X-FEN or Shredder-FEN castling rights for Chess960.

use std::fmt;

use super::board::{Bitboard, Sq};
use super::piece::{Color, Piece};
use super::position::Position;
use super::variant::Variant;

/// Why a FEN cannot be read, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FenError {}

fn err<T>(message: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(message.into()))
}

/// Reads a FEN of variant `v`. Castling rights that name no rook (or a king off its
/// square) are dropped, as python-chess and most tools do; anything else that does not
/// fit the variant is an error.
pub fn parse_fen(v: &Variant, fen: &str) -> Result<Position, FenError> {
    let g = v.geometry;
    let mut fields = fen.split_ascii_whitespace();
    let Some(board) = fields.next() else {
        return err("the FEN is empty");
    };
    let mut pos = Position::empty();
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != usize::from(g.height) {
        return err(format!(
            "the FEN describes {} ranks; the board of {} has {}",
            ranks.len(),
            v.name,
            g.height
        ));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = g.height - 1 - i as u8;
        let mut file: u32 = 0;
        let mut digits = 0u32;
        let flush = |file: &mut u32, digits: &mut u32| {
            *file = file.saturating_add(*digits);
            *digits = 0;
        };
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                // Saturating: `4294967300K3` must not wrap round to a short rank.
                digits = digits.saturating_mul(10).saturating_add(d);
                continue;
            }
            flush(&mut file, &mut digits);
            if c == '~' {
                // Crazyhouse-style promoted marker: the piece is what it is.
                continue;
            }
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let Some(kind) = v.kind_of_letter(c) else {
                return err(format!("`{c}` is no piece of {}", v.name));
            };
            let Some(sq) = g.sq(file.min(255) as u8, rank) else {
                return err(format!(
                    "rank {} has more than {} squares",
                    rank + 1,
                    g.width
                ));
            };
            pos.put(sq, Piece { color, kind });
            file = file.saturating_add(1);
        }
        flush(&mut file, &mut digits);
        if file != u32::from(g.width) {
            return err(format!(
                "rank {} has {file} squares, not {}",
                rank + 1,
                g.width
            ));
        }
    }
    match fields.next() {
        None | Some("w") | Some("W") => {}
        Some("b") | Some("B") => pos.set_turn(Color::Black),
        Some(other) => return err(format!("the side to move is `w` or `b`, not `{other}`")),
    }
    let castling = fields.next().unwrap_or("-");
    let rights = castling_rights(v, &pos, castling)?;
    pos.set_castling(rights);
    let ep = fields.next().unwrap_or("-");
    if ep != "-" {
        let Some(square) = crate::notation::Square::parse(ep).and_then(|s| g.from_square(s)) else {
            return err(format!("the en-passant field `{ep}` is not a square"));
        };
        pos.ep = valid_ep(v, &pos, square);
    }
    for (name, target) in [("halfmove clock", 0), ("move number", 1)] {
        if let Some(text) = fields.next() {
            let Ok(n) = text.parse::<u32>() else {
                return err(format!("the {name} `{text}` is not a number"));
            };
            if target == 0 {
                pos.halfmoves = n;
            } else {
                pos.fullmoves = n.max(1);
            }
        }
    }
    if let Some(extra) = fields.next() {
        let Some(events) = extra
            .strip_prefix("events(")
            .and_then(|rest| rest.strip_suffix(')'))
        else {
            return err(format!("unexpected `{extra}` after the move number"));
        };
        // The events first: a king #68 or #85 frees may stand attacked.
        read_events(v, &mut pos, events)?;
        if let Some(more) = fields.next() {
            return err(format!("unexpected `{more}` after the events"));
        }
        validate(v, &pos)?;
        return Ok(pos);
    }
    validate(v, &pos)?;
    Ok(pos)
}

/// The events field xpgn appends to a FEN when events run, which FEN cannot hold
/// otherwise: `events(5w:c4,f6!;43b;68-:c2,?;85b:Nb1->b2,Ng8->g7;x:1,0)`. Each event is
/// its number (`70o` for its older wording, `4*` for the early numbering's), who started it (`w`, `b`, `-` from the start) and its state in the words
/// of its `[%event]` command, `,` for a blank, as the event writes and reads them
/// ([`super::Event::write_fen`]): #5 its squares (`?` while secret, `!` once revealed),
/// #68 each side's chosen pawn (`?` secret, `x` gone) and `+w`/`+b` for a side whose king
/// can now be checked, #85 every knight's direction. `x:1,0` counts the pieces other than
/// pawns each side has captured (EC-2).
fn read_events(v: &Variant, pos: &mut Position, field: &str) -> Result<(), FenError> {
    if !v.events {
        return err(format!("{} runs no events", v.name));
    }
    for item in field.split(';').filter(|item| !item.is_empty()) {
        let (head, state) = item.split_once(':').unwrap_or((item, ""));
        if head == "x" {
            let counts: Vec<u8> = state.split(',').filter_map(|n| n.parse().ok()).collect();
            let [white, black] = counts[..] else {
                return err(format!("`{item}`: x takes two capture counts"));
            };
            pos.captures = [white, black];
            continue;
        }
        let split = head.len().saturating_sub(1);
        let (number, starter) = head.split_at(split);
        let started_by = match starter {
            "w" => Some(Color::White),
            "b" => Some(Color::Black),
            "-" => None,
            _ => return err(format!("`{item}`: an event is its number and w, b or -")),
        };
        // `70o`: the older wording (`[%event 70 old]`).
        let (number, older) = match number.strip_suffix('o') {
            Some(number) => (number, true),
            None => (number, false),
        };
        // `4*w`: the early numbering's event (PC-9), read as `[%event 4*]` reads it.
        let event = crate::command::EventLabel::parse(number)
            .and_then(|label| super::events::find(label.0, older))
            .ok_or_else(|| FenError(format!("`{item}`: no event #{number} is played")))?;
        pos.start_event(event, started_by).map_err(FenError)?;
        let words: Vec<&str> = state.split(',').filter(|w| !w.is_empty()).collect();
        event
            .read_fen(v, pos, &words)
            .map_err(|e| FenError(format!("`{item}`: {e}")))?;
    }
    Ok(())
}

/// The events field of [`read_events`], or nothing when no event runs.
fn write_events(v: &Variant, pos: &Position) -> Option<String> {
    if !pos.has_events() {
        return None;
    }
    let mut items = Vec::new();
    for running in pos.running() {
        let number = running.event.label();
        let starter = match running.started_by {
            Some(Color::White) => 'w',
            Some(Color::Black) => 'b',
            None => '-',
        };
        let words = running.event.write_fen(v, pos);
        let state = if words.is_empty() {
            String::new()
        } else {
            format!(":{}", words.join(","))
        };
        let older = if running.event.older_wording() {
            "o"
        } else {
            ""
        };
        items.push(format!("{number}{older}{starter}{state}"));
    }
    if pos.captures != [0, 0] {
        items.push(format!("x:{},{}", pos.captures[0], pos.captures[1]));
    }
    Some(format!("events({})", items.join(";")))
}

fn castling_rights(v: &Variant, pos: &Position, field: &str) -> Result<Bitboard, FenError> {
    let mut rights = Bitboard::EMPTY;
    if field == "-" {
        return Ok(rights);
    }
    let g = v.geometry;
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let lower = c.to_ascii_lowercase();
        let file_letter = (b'a'..b'a' + g.width).contains(&(lower as u8));
        if !matches!(lower, 'k' | 'q') && !file_letter {
            return err(format!(
                "`{c}` is not a castling right (KQkq or rook files)"
            ));
        }
        let Some(castling) = v.castling else {
            return err(format!("{} has no castling", v.name));
        };
        let back = g.rank_mask(castling.rank[color.index()]);
        let Some(king) = v.castling_king(pos, color) else {
            continue;
        };
        let rooks = rooks(v, pos, color) & back;
        let king_file = g.file(king);
        let rook = match lower {
            'k' => rooks.filter(|&r| g.file(r) > king_file).last(),
            'q' => rooks.into_iter().find(|&r| g.file(r) < king_file),
            _ => rooks.into_iter().find(|&r| g.file(r) == lower as u8 - b'a'),
        };
        let Some(rook) = rook else { continue };
        if !v.chess960 && g.file(rook) != 0 && g.file(rook) != g.width - 1 {
            continue;
        }
        rights.set(rook);
    }
    Ok(rights)
}

/// The rooks of `color`: the pieces written `R` castle with the king.
fn rooks(v: &Variant, pos: &Position, color: Color) -> Bitboard {
    v.kind_of_letter('R')
        .map_or(Bitboard::EMPTY, |rook| pos.pieces(color, rook))
}

/// The en-passant square if a pawn of the side that just moved can have skipped it.
fn valid_ep(v: &Variant, pos: &Position, ep: Sq) -> Option<Sq> {
    let pawn = v.tables.pawn?;
    let mover = pos.turn.other();
    let g = v.geometry;
    let pawn_square = g.offset(ep, 0, mover.forward())?;
    let start = g.offset(ep, 0, -mover.forward())?;
    let ok = pos.piece_at(ep).is_none()
        && pos.piece_at(start).is_none()
        && pos.piece_at(pawn_square)
            == Some(Piece {
                color: mover,
                kind: pawn,
            });
    ok.then_some(ep)
}

fn validate(v: &Variant, pos: &Position) -> Result<(), FenError> {
    if v.tables.king.is_some() {
        for color in Color::BOTH {
            let kings = pos.kings(v, color).count();
            // Under #68 a side whose last king was captured has lost, and has none.
            let lost = kings == 0 && pos.events().iter().any(|e| e.captures_kings());
            // Where another piece is royal (LQ-1), kings are ordinary pieces in number.
            let ordinary = pos
                .events()
                .iter()
                .any(|e| e.royals(v, pos, color).is_some());
            if kings != 1 && !lost && !ordinary {
                return err(format!("{color} has {kings} kings, not 1"));
            }
        }
    }
    // In Event Chess pushes and swaps put pawns on the first and last ranks (LP-3, LK-7).
    if let Some(pawn) = v.tables.pawn.filter(|_| !v.events) {
        let g = v.geometry;
        let edges = g.rank_mask(0) | g.rank_mask(g.height - 1);
        if let Some(sq) = (pos.by_kind(pawn) & edges).first() {
            return err(format!(
                "a pawn stands on {}, a first or last rank",
                g.name(sq)
            ));
        }
    }
    let waiting = pos.turn.other();
    // Pieces an event made royal may stand attacked when it started, to be taken (LQ-5);
    // a move that wins by an event's rules may leave its mover in check (HH-5).
    if pos
        .events()
        .iter()
        .any(|e| e.royals(v, pos, waiting).is_some())
        || v.winner(pos) == Some(waiting)
    {
        return Ok(());
    }
    let allowed = pos.events().iter().any(|e| e.waiting_check_allowed());
    for king in pos.checkable_kings(v, waiting) {
        if !allowed && pos.is_attacked(v, king, pos.turn) {
            return err(format!(
                "{waiting} is in check but it is {}'s move",
                pos.turn
            ));
        }
    }
    Ok(())
}

/// Writes the position as FEN (X-FEN castling: `KQkq` for the outermost rooks, rook
/// files otherwise).
pub fn write_fen(v: &Variant, pos: &Position) -> String {
    let g = v.geometry;
    let mut out = String::new();
    for rank in (0..g.height).rev() {
        let mut empty = 0;
        for file in 0..g.width {
            let sq = g.sq(file, rank).expect("on the board");
            match pos.piece_at(sq) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let letter = v.piece(piece.kind).letter;
                    out.push(match piece.color {
                        Color::White => letter,
                        Color::Black => letter.to_ascii_lowercase(),
                    });
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push_str(match pos.turn {
        Color::White => " w ",
        Color::Black => " b ",
    });
    let mut castling = String::new();
    for color in Color::BOTH {
        let mut letters: Vec<(u8, char)> = Vec::new();
        let back = v
            .castling
            .map_or(Bitboard::EMPTY, |c| g.rank_mask(c.rank[color.index()]));
        let Some(king) = (pos.kings(v, color) & back).first() else {
            continue;
        };
        let rooks = rooks(v, pos, color) & back;
        for rook in pos.castling & back {
            let file = g.file(rook);
            let higher = file > g.file(king);
            let outermost = if higher {
                rooks.last() == Some(rook)
            } else {
                rooks.first() == Some(rook)
            };
            let letter = match (outermost, higher) {
                (true, true) => 'K',
                (true, false) => 'Q',
                (false, _) => (b'A' + file) as char,
            };
            letters.push((if higher { 0 } else { 1 }, letter));
        }
        letters.sort();
        castling.extend(letters.into_iter().map(|(_, c)| match color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }));
    }
    if castling.is_empty() {
        castling.push('-');
    }
    out.push_str(&castling);
    out.push(' ');
    match pos.ep {
        Some(ep) => out.push_str(&g.name(ep)),
        None => out.push('-'),
    }
    out.push_str(&format!(" {} {}", pos.halfmoves, pos.fullmoves));
    if let Some(events) = write_events(v, pos) {
        out.push(' ');
        out.push_str(&events);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let v = Variant::by_name("standard").unwrap();
        let pos = parse_fen(v, &v.start_fen).unwrap();
        assert_eq!(write_fen(v, &pos), v.start_fen);
        assert_eq!(pos.occupied().count(), 32);
    }

    #[test]
    fn chess960_rights_name_rooks_by_file() {
        let v = Variant::by_name("chess960").unwrap();
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let pos = parse_fen(v, fen).unwrap();
        assert_eq!(pos.castling.count(), 4);
        assert_eq!(
            write_fen(v, &pos),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
        );
    }

    #[test]
    fn bad_fens_say_why() {
        let v = Variant::by_name("standard").unwrap();
        for (fen, why) in [
            ("", "empty"),
            ("8/8/8/8/8/8/8 w - - 0 1", "7 ranks"),
            (
                "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "more than 8 squares",
            ),
            (
                "xnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "no piece",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",
                "0 kings",
            ),
            ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn stands on a1"),
            ("4k3/8/8/8/8/8/8/4K2R w - - 0 1 extra", "unexpected `extra`"),
            ("4k3/8/8/8/8/8/8/r3K3 b - - 0 1", "white is in check"),
            ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "not a square"),
            ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"),
            ("4k3/8/8/8/8/8/8/4K3 w - - z 1", "halfmove clock"),
            // Issue 20: a run of empty squares past u32 must not wrap round to `4K3`.
            (
                "4294967300K3/8/8/8/8/8/8/4k3 w - - 0 1",
                "more than 8 squares",
            ),
            ("8/8/8/8/8/8/8/99999999999999999999 w - - 0 1", "rank 1 has"),
            ("4k3/8/8/8/8/8/8/4K3 w - - 4294967296 1", "halfmove clock"),
        ] {
            let e = parse_fen(v, fen).expect_err(fen);
            assert!(e.0.contains(why), "{fen}: {e}");
        }
    }

    #[test]
    fn counters_at_their_limit_stay_there_when_moves_are_played() {
        let v = Variant::by_name("standard").unwrap();
        let fen = "4k3/8/8/8/8/8/8/4K3 b - - 4294967295 4294967295";
        let mut pos = parse_fen(v, fen).unwrap();
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        v.play(&mut pos, &moves[0]);
        assert_eq!((pos.halfmoves, pos.fullmoves), (u32::MAX, u32::MAX));
        assert!(write_fen(v, &pos).ends_with(" 4294967295 4294967295"));
    }

    #[test]
    fn lost_castling_rights_and_unusable_ep_squares_are_dropped() {
        let v = Variant::by_name("standard").unwrap();
        let pos = parse_fen(v, "4k3/8/8/8/8/8/8/4K3 w KQkq e6 0 1").unwrap();
        assert!(pos.castling.is_empty());
        assert_eq!(pos.ep, None);
    }
}

#[cfg(test)]
mod event_state_tests {
    use super::*;
    use crate::pgn::parse_str;
    use crate::replay::{Recording, replay_recording};
    use crate::rules::Variants;

    /// Every position of the fixture games with events writes a FEN that reads back to a
    /// position writing the same FEN, with the same legal moves.
    #[test]
    fn event_state_survives_a_fen_round_trip() {
        let event_chess = Variant::by_name("event-chess").unwrap();
        let variants = Variants::with_default(event_chess);
        let mut checked = 0;
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        // Every folder of games (events' among them, a new event's found by its files).
        let folders = std::fs::read_dir(fixtures).unwrap().filter_map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name()?.to_str()?;
            (path.is_dir() && !["syntax", "rules", "lint", "variants"].contains(&name))
                .then_some(path)
        });
        for dir in folders {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_none_or(|e| e != "pgn") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                for parsed in parse_str(&text) {
                    let board = |ply| {
                        let replay =
                            replay_recording(&parsed.game, &variants, Recording::Board(ply));
                        let played = replay.played?;
                        Some((played.main_plies, played.board?.0, replay.variant))
                    };
                    let Some((plies, ..)) = board(None) else {
                        continue;
                    };
                    let positions = (0..=plies).filter_map(|ply| board(Some(ply)));
                    for (_, pos, variant) in positions.filter(|(_, p, _)| p.has_events()) {
                        let v = variants.find(&variant).unwrap();
                        let pos = &pos;
                        let fen = write_fen(v, pos);
                        let read = parse_fen(v, &fen)
                            .unwrap_or_else(|e| panic!("{}: {fen}: {e}", path.display()));
                        assert_eq!(write_fen(v, &read), fen, "{}", path.display());
                        let (mut before, mut after) = (Vec::new(), Vec::new());
                        v.legal_moves(pos, &mut before);
                        v.legal_moves(&read, &mut after);
                        assert_eq!(before.len(), after.len(), "{}: {fen}", path.display());
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 500, "{checked} positions");
    }

    #[test]
    fn the_events_field_reads_as_documented() {
        let v = Variant::by_name("event-chess").unwrap();
        let fen = "4k3/6p1/8/8/8/8/2P5/4K1N1 w - - 0 1 events(5w:c4,f6!;68b:c2,?,+w;x:1,0)";
        let pos = parse_fen(v, fen).unwrap();
        assert_eq!(pos.events().len(), 2);
        let passage = crate::rules::events::hidden_passage::passage(&pos);
        assert!(passage.unwrap().is_revealed());
        assert!(crate::rules::events::prince::is_checkable(
            &pos,
            Color::White
        ));
        assert_eq!(pos.captures, [1, 0]);
        assert_eq!(write_fen(v, &pos), fen);
        let standard = Variant::by_name("standard").unwrap();
        assert!(
            parse_fen(standard, fen).is_err(),
            "orthodox chess runs no events"
        );
        assert!(parse_fen(v, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 events(16w)").is_err());
    }
}
