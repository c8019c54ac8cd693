//! Event #92 Capture the flag (catalogue; rulings CF-1 to CF-5 in
//! `docs/rules/event-92-capture-the-flag.md`): a piece that ends a move on the opponent's
//! back rank takes its side's flag, one carrier a side at a time; a carrier that then ends
//! a move on its own back rank wins the game. A captured carrier frees the flag.

use crate::rules::board::{Bitboard, Sq};
use crate::rules::event::{Condition, Event, EventInfo, Overlay};
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct CaptureTheFlag;

const NUMBER: u16 = 92;

/// The rank where `color`'s pieces start: his own back rank.
fn own_back_rank(v: &Variant, color: Color) -> Bitboard {
    let g = v.geometry;
    match color {
        Color::White => g.rank_mask(0),
        Color::Black => g.rank_mask(g.height - 1),
    }
}

/// The pieces carrying a flag (CF-1), both sides'; the mark travels with its piece and
/// leaves the board with it (CF-4).
fn carriers(pos: &Position) -> Bitboard {
    pos.mark_layer(NUMBER, 0)
        .map_or(Bitboard::EMPTY, |layer| pos.marked(layer))
}

/// The square of `color`'s carrier, if he has one.
fn carrier(pos: &Position, color: Color) -> Option<Sq> {
    (carriers(pos) & pos.by_color(color)).first()
}

/// What the catalogue says of the event.
static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Capture the flag",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["CF-1", "CF-2", "CF-3", "CF-4", "CF-5"],
    page: "docs/rules/event-92-capture-the-flag.md",
};

impl Event for CaptureTheFlag {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    fn mark_layers(&self) -> usize {
        1
    }

    /// The carriers' squares (`events(92w:b8)`); nothing while nobody carries a flag.
    fn write_fen(&self, v: &Variant, pos: &Position) -> Vec<String> {
        super::names(v, carriers(pos))
    }

    fn read_fen(&self, v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        let layer = pos.mark_layer(NUMBER, 0).expect("started");
        for word in words {
            let sq = super::fen_square(v, word)?;
            let Some(piece) = pos.piece_at(sq) else {
                return Err(format!("{word} holds no piece to carry a flag"));
            };
            if carrier(pos, piece.color).is_some() {
                return Err(format!(
                    "{word}: {} has a flag carrier already (CF-1)",
                    piece.color
                ));
            }
            pos.set_mark(layer, sq, true);
        }
        Ok(())
    }

    /// The carriers, ringed, and listed under the board.
    fn overlay(&self, v: &Variant, pos: &Position, out: &mut Overlay) {
        let flags = carriers(pos);
        out.singled_out.extend(flags);
        let names = super::names(v, flags);
        out.lines.push(if names.is_empty() {
            "flag carriers: none".to_owned()
        } else {
            format!("flag carriers (marked @): {}", names.join(", "))
        });
    }

    /// CF-1, CF-2: a piece of the mover that ends his move on the opponent's back rank
    /// takes the flag where his side has no carrier; a pawn promoting there hands it to
    /// the piece it becomes.
    fn before_turn_passes(&self, v: &Variant, pos: &mut Position, mv: &Move) {
        let us = mv.piece.color;
        if carrier(pos, us).is_some() || !own_back_rank(v, us.other()).contains(mv.to) {
            return;
        }
        if pos.piece_at(mv.to).is_some_and(|p| p.color == us) {
            let layer = pos.mark_layer(NUMBER, 0).expect("running");
            pos.set_mark(layer, mv.to, true);
        }
    }

    /// CF-3: the side whose carrier stands on its own back rank has won; only the move
    /// that brought it there can (a carrier is made on the opponent's back rank).
    fn winner(&self, v: &Variant, pos: &Position) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|&c| carrier(pos, c).is_some_and(|sq| own_back_rank(v, c).contains(sq)))
    }

    fn victory(&self, winner: Color) -> (&'static str, String) {
        (
            "flag-captured",
            format!("{winner} brought the flag home to his own back rank and won (CF-3)"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::events::testing::{event_chess, sq};
    use crate::rules::parse_fen;
    use crate::rules::san;

    fn flag(fen: &str) -> Position {
        let mut pos = parse_fen(event_chess(), fen).unwrap();
        pos.start_event(&CaptureTheFlag, Some(pos.turn)).unwrap();
        pos
    }

    fn play(pos: &mut Position, token: &str) {
        let v = event_chess();
        let mv = san::resolve(v, pos, &Notation::parse(token).unwrap()).unwrap();
        v.play(pos, &mv);
    }

    #[test]
    fn a_piece_takes_the_flag_on_the_far_rank_and_wins_at_home() {
        let v = event_chess();
        let mut pos = flag("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        play(&mut pos, "Ra7");
        assert_eq!(carrier(&pos, Color::White), None, "not on the back rank");
        play(&mut pos, "Kf8");
        play(&mut pos, "Ra8+");
        assert_eq!(carrier(&pos, Color::White), Some(sq("a8")), "CF-1");
        assert_eq!(CaptureTheFlag.winner(v, &pos), None);
        play(&mut pos, "Kg7");
        play(&mut pos, "Ra2");
        assert_eq!(carrier(&pos, Color::White), Some(sq("a2")), "it travels");
        play(&mut pos, "Kg6");
        play(&mut pos, "Ra1");
        assert_eq!(CaptureTheFlag.winner(v, &pos), Some(Color::White), "CF-3");
    }

    #[test]
    fn a_captured_carrier_frees_the_flag() {
        let mut pos = flag("1r2k3/8/8/8/8/8/8/R3K2R w - - 0 1");
        play(&mut pos, "Ra8");
        assert_eq!(carrier(&pos, Color::White), Some(sq("a8")));
        play(&mut pos, "Rxa8");
        assert_eq!(carrier(&pos, Color::White), None, "CF-4");
        play(&mut pos, "Kd2");
        play(&mut pos, "Ra1");
        play(&mut pos, "Rh8+");
        assert_eq!(carrier(&pos, Color::White), Some(sq("h8")));
    }
}
