//! Event #99 Double Trouble (catalogue; rulings DT-1 to DT-5 in
//! `docs/rules/event-99-double-trouble.md`): drawing it starts two further events in its
//! place. No rule text was found, only a forum game that reports it; xpgn reads it as
//! the catalogue proposes. The event itself changes no rule: it lets its starter start
//! two more events on the same turn (EC-1 counts all three as his one start), written
//! right after it, `{[%event 99] [%event 7] [%event 43]}` (DT-1), and reports a record
//! that names fewer before the starter's move (DT-3).

use crate::diagnostic::{Code, Diagnostic};
use crate::rules::event::{Condition, Event, EventInfo, EventState, Follower, Moved};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

pub struct DoubleTrouble;

const NUMBER: u16 = 99;

/// How many events it starts in its place (DT-1).
const IN_ITS_PLACE: u8 = 2;

static INFO: EventInfo = EventInfo {
    number: NUMBER,
    name: "Double Trouble",
    aliases: &[],
    types: &[],
    condition: Condition::NONE,
    rulings: &["DT-1", "DT-2", "DT-3", "DT-4", "DT-5"],
    page: "docs/rules/event-99-double-trouble.md",
};

/// Its word in the extended FEN once the starter has moved.
const MOVED: &str = "moved";

/// Marks that the starter has moved since it began (DT-3).
fn close(pos: &mut Position) {
    let mut state = EventState::default();
    state.words[0] = 1;
    pos.set_event_state(NUMBER, state);
}

/// Whether the starter has moved since it began: its state's first word (DT-3).
fn closed(pos: &Position) -> bool {
    pos.event_state(NUMBER)
        .is_some_and(|state| state.words[0] != 0)
}

/// How many events its starter has started after it (DT-1).
fn started_after(pos: &Position) -> u8 {
    let running = pos.running();
    let Some(at) = running.iter().position(|r| r.event.number() == NUMBER) else {
        return 0;
    };
    let starter = running[at].started_by;
    let count = running[at + 1..]
        .iter()
        .filter(|r| r.started_by == starter)
        .count();
    u8::try_from(count).unwrap_or(u8::MAX)
}

impl Event for DoubleTrouble {
    fn info(&self) -> &'static EventInfo {
        &INFO
    }

    /// DT-1, DT-3: two, on the turn it starts, before its starter's move.
    fn starts_in_its_place(&self, pos: &Position) -> u8 {
        if closed(pos) {
            0
        } else {
            IN_ITS_PLACE.saturating_sub(started_after(pos))
        }
    }

    fn after_move(&self, _v: &Variant, pos: &mut Position, _mv: &Move, _gives_check: bool) {
        if !closed(pos) {
            close(pos);
        }
    }

    /// `moved` once its starter has moved: no more events start in its place (DT-3).
    fn write_fen(&self, _v: &Variant, pos: &Position) -> Vec<String> {
        if closed(pos) {
            vec![MOVED.to_owned()]
        } else {
            Vec::new()
        }
    }

    fn read_fen(&self, _v: &Variant, pos: &mut Position, words: &[&str]) -> Result<(), String> {
        match words {
            [] => Ok(()),
            [MOVED] => {
                close(pos);
                Ok(())
            }
            _ => Err(format!(
                "#{NUMBER} keeps only whether its starter has moved since it began: `{MOVED}` or nothing"
            )),
        }
    }

    fn follower(
        &self,
        _v: &Variant,
        _pos: &Position,
        _next_ply: usize,
    ) -> Option<Box<dyn Follower>> {
        Some(Box::new(DrawnEvents { judged: false }))
    }
}

/// Reads the starter's first move after the event: the two events drawn in its place
/// must have been written before it (DT-3).
struct DrawnEvents {
    judged: bool,
}

impl Follower for DrawnEvents {
    fn fork(&self, _ply: usize) -> Box<dyn Follower> {
        Box::new(DrawnEvents {
            judged: self.judged,
        })
    }

    fn follow(&mut self, _v: &Variant, moved: &Moved<'_>, out: &mut Vec<Diagnostic>) -> bool {
        if self.judged || closed(moved.before) {
            self.judged = true;
            return true;
        }
        self.judged = true;
        let missing = DoubleTrouble.starts_in_its_place(moved.before);
        if missing > 0 {
            let named = IN_ITS_PLACE - missing;
            out.push(
                Diagnostic::new(
                    Code::EventChoice,
                    moved.span,
                    format!(
                        "event #{NUMBER} Double Trouble starts {IN_ITS_PLACE} events in its place, written right after it before its starter's move, and the record names {named} before this move: the moves from here are checked without {} (DT-1, DT-3)",
                        if missing == 1 { "the missing one" } else { "them" }
                    ),
                    "the starter's move",
                )
                .at_move((moved.at)())
                .with_help("write the events drawn in its place after it, in one comment: `{[%event 99] [%event 7] [%event 43]}`"),
            );
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{Variant, parse_fen, write_fen};

    /// DT-3 survives the extended FEN: once the starter has moved, a position read back
    /// lets no more events start in #99's place.
    #[test]
    fn the_starters_move_is_kept_in_the_fen() {
        let v = Variant::by_name("event-chess").unwrap();
        let before = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 events(99w)";
        let open = parse_fen(v, before).unwrap();
        let event = crate::rules::events::by_number(99).unwrap();
        assert_eq!(event.starts_in_its_place(&open), 2);
        assert_eq!(write_fen(v, &open), before);
        let moved = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 events(99w:moved)";
        let closed = parse_fen(v, moved).unwrap();
        assert_eq!(event.starts_in_its_place(&closed), 0);
        assert_eq!(write_fen(v, &closed), moved);
        assert!(parse_fen(v, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 events(99w:later)").is_err());
    }
}
