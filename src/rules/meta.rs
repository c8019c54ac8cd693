//! The meta rules of Event Chess, in one place: who may start an event (EC-1), the
//! capture limit before one's own event (EC-2), and what must hold when an event starts
//! (EC-3, EC-12). EC-4 is each event's [`Event::may_double_step`]. The replayer, the
//! command line (`--events`) and the move generator (EC-2 is part of legality) all ask
//! here, and get back a [`Violation`]: data with its ruling and its words, which each
//! caller turns into a diagnostic or an error. Nothing here prints.
//!
//! Events that start further events: #99 Double Trouble starts two in its place. A record
//! writes each as its own `[%event N]` right after the `[%event 99]`, on the same turn;
//! [`Event::starts_in_its_place`] says how many more its starter may still start, and
//! [`refusal`] lets those through instead of refusing a second start (EC-1, DT-1).
//!
//! Events with two wordings (#3, #7, #70, #74, #88, #102; xpgn plays both of #7, #70 and
//! #88): a game plays the newest wording unless its command names the older one with the
//! word `old` right after the number (`[%event 70 old]`); the older wording is then its own
//! module with the same number ([`Event::older_wording`], found by [`events::find`]), `70o`
//! in the extended FEN.

use std::fmt;

use super::event::{Event, EventType};
use super::events;
use super::moves::Move;
use super::piece::Color;
use super::position::{MAX_EVENTS, Position};
use super::variant::Variant;
use crate::command::{Choice, EventLabel};

/// A meta rule an event start or a move breaks, with what the rule says of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// EC-1: the event already runs.
    AlreadyRunning { number: u16, name: &'static str },
    /// EC-1: the player already started one.
    SecondEvent {
        by: Color,
        number: u16,
        started: u16,
        started_name: &'static str,
    },
    /// EC-1: as many events run as a position holds.
    NoRoom { number: u16 },
    /// EC-2: a third capture of a piece other than a pawn before one's own event, by a
    /// player who has `taken` such pieces (one, where the move takes two, EC-11).
    CaptureLimit { by: Color, taken: u8 },
    /// EC-3: the event's Condition does not hold (`why`, and the Condition in words).
    Condition {
        number: u16,
        name: &'static str,
        why: String,
        condition: String,
    },
    /// EC-12: the event shares a Type with one that runs, or its Condition excludes the
    /// Type of one that runs (`excluded`).
    TypeClash {
        number: u16,
        name: &'static str,
        running: u16,
        running_name: &'static str,
        kind: EventType,
        excluded: bool,
    },
    /// EC-12: starting the event would leave `in_check` in check, where its Condition
    /// says it may not.
    LeavesCheck {
        number: u16,
        name: &'static str,
        in_check: Color,
    },
}

impl Violation {
    /// The id of the ruling it breaks.
    pub fn ruling(&self) -> &'static str {
        match self {
            Violation::AlreadyRunning { .. }
            | Violation::SecondEvent { .. }
            | Violation::NoRoom { .. } => "EC-1",
            Violation::CaptureLimit { .. } => "EC-2",
            Violation::Condition { .. } => "EC-3",
            Violation::TypeClash { .. } | Violation::LeavesCheck { .. } => "EC-12",
        }
    }

    /// How to write it right.
    pub fn help(&self) -> &'static str {
        match self {
            Violation::AlreadyRunning { .. } => "each player starts a different event",
            Violation::SecondEvent { .. } | Violation::NoRoom { .. } => "remove this event command",
            Violation::CaptureLimit { .. } => "start an event before this move: {[%event N]}",
            Violation::Condition { .. }
            | Violation::TypeClash { .. }
            | Violation::LeavesCheck { .. } => {
                "an event is drawn again when its Condition does not hold"
            }
        }
    }
}

impl fmt::Display for Violation {
    /// What is wrong, under which rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::AlreadyRunning { number, name } => write!(
                f,
                "event #{number} {name} already runs: the same event cannot start twice (EC-1)",
                number = EventLabel(*number)
            ),
            Violation::SecondEvent {
                by,
                number,
                started,
                started_name,
            } => write!(
                f,
                "{by} already started event #{started} {started_name}: each player starts one event (EC-1); #{number} is not started",
                started = EventLabel(*started),
                number = EventLabel(*number)
            ),
            Violation::NoRoom { number } => write!(
                f,
                "event #{}{} is not started: at most {MAX_EVENTS} events run in one game (EC-1)",
                EventLabel(*number),
                events::name_of(*number).map_or(String::new(), |name| format!(" {name}"))
            ),
            Violation::CaptureLimit { by, taken: 1 } => write!(
                f,
                "{by} has captured one piece other than a pawn without starting an event, and this move captures two (EC-11): the second is a third such capture, illegal until {by} starts one (EC-2)"
            ),
            Violation::CaptureLimit { by, .. } => write!(
                f,
                "{by} has captured two pieces other than pawns without starting an event: a third such capture is illegal until {by} starts one (EC-2)"
            ),
            Violation::Condition {
                number,
                name,
                why,
                condition,
            } => write!(
                f,
                "event #{number} {name} cannot start here: {why} (its Condition: {condition}; EC-3)",
                number = EventLabel(*number)
            ),
            Violation::TypeClash {
                number,
                name,
                running,
                running_name,
                kind,
                excluded,
            } => {
                let clash = if *excluded {
                    format!("its Condition excludes a {} event", kind.name())
                } else {
                    format!("both are of Type {}", kind.name())
                };
                write!(
                    f,
                    "event #{number} {name} cannot run beside #{running} {running_name}: {clash} (EC-12)",
                    number = EventLabel(*number),
                    running = EventLabel(*running)
                )
            }
            Violation::LeavesCheck {
                number,
                name,
                in_check,
            } => write!(
                f,
                "event #{number} {name} cannot start here: under its rules {in_check} would be in check, and its Condition says starting it leaves nobody in check (EC-12)",
                number = EventLabel(*number)
            ),
        }
    }
}

/// Why event `number` cannot start for `by` (`None`: from the start of the game), if
/// it cannot (EC-1); then it is not started. Holds for every event number, played by
/// xpgn or not.
pub fn refusal(pos: &Position, number: u16, by: Option<Color>) -> Option<Violation> {
    if let Some(running) = pos.events().into_iter().find(|e| e.number() == number) {
        return Some(Violation::AlreadyRunning {
            number,
            name: running.name(),
        });
    }
    // DT-1: an event its starter started may let him start more in its place.
    let in_its_place = |by: Color| {
        pos.running()
            .iter()
            .any(|r| r.started_by == Some(by) && r.event.starts_in_its_place(pos) > 0)
    };
    if let Some(by) = by
        && let Some(own) = pos.event_started_by(by)
        && !in_its_place(by)
    {
        return Some(Violation::SecondEvent {
            by,
            number,
            started: own.number(),
            started_name: own.name(),
        });
    }
    (pos.running().len() >= MAX_EVENTS).then_some(Violation::NoRoom { number })
}

/// Why two events may not run together (EC-12): the Type they share (`false`), or a Type
/// one of them holds that the other's Condition excludes (`true`).
pub fn type_clash(event: &dyn Event, other: &dyn Event) -> Option<(EventType, bool)> {
    let (ours, theirs) = (event.info(), other.info());
    let shared = ours.types.iter().find(|t| theirs.types.contains(t));
    let excluded = ours
        .condition
        .not_with
        .iter()
        .chain(theirs.condition.not_with)
        .find(|t| theirs.types.contains(t) || ours.types.contains(t));
    shared
        .map(|&t| (t, false))
        .or_else(|| excluded.map(|&t| (t, true)))
}

/// What does not hold when `event` starts in `pos` with `choices` (EC-3: its Condition
/// and its own [`Event::condition`]; EC-12: Types and check). The event starts all the
/// same: the moves that follow were played under it.
pub fn breaches(
    v: &Variant,
    pos: &Position,
    event: &'static dyn Event,
    choices: &[Choice],
) -> Vec<Violation> {
    let info = event.info();
    let (number, name) = (info.number, info.name);
    let mut found = Vec::new();
    if let Err(why) = event.condition(v, pos) {
        found.push(Violation::Condition {
            number,
            name,
            why,
            condition: info.condition.to_string(),
        });
    }
    for running in pos.events() {
        if let Some((kind, excluded)) = type_clash(event, running) {
            found.push(Violation::TypeClash {
                number,
                name,
                running: running.number(),
                running_name: running.name(),
                kind,
                excluded,
            });
        }
    }
    if info.condition.no_check {
        let mut under = pos.clone();
        // A start that cannot happen (EC-1) or choices that do not fit are reported on
        // their own; the check is judged with what can be started.
        if under.start_event(event, None).is_ok() {
            let _ = event.begin(v, &mut under, choices);
            for color in Color::BOTH {
                let checked = under
                    .checkable_kings(v, color)
                    .into_iter()
                    .any(|king| under.is_attacked(v, king, color.other()));
                if checked {
                    found.push(Violation::LeavesCheck {
                        number,
                        name,
                        in_check: color,
                    });
                }
            }
        }
    }
    found
}

/// Whether EC-2 may forbid a move of the side to move here: a player of an events
/// variant who has taken a piece other than a pawn and started no event (one more
/// capture, or two through a passage, EC-11, can be a third). Asked first, and cheap.
#[inline]
pub fn capture_limited(v: &Variant, pos: &Position) -> bool {
    v.events && pos.captures[pos.turn.index()] >= 1 && pos.event_started_by(pos.turn).is_none()
}

/// Whether `mv` takes a third piece other than a pawn for a player who has started no
/// event (EC-2), counting every capture it makes: a knight that swaps in (LK-2) is the
/// piece taken, and a move through a passage may capture at both ends (EC-11).
pub fn breaks_capture_limit(v: &Variant, pos: &Position, mv: &Move) -> bool {
    if !capture_limited(v, pos) || !(mv.is_capture() || mv.entry_capture_square(v, pos).is_some()) {
        return false;
    }
    let us = pos.turn.index();
    let mut after = pos.clone();
    v.play(&mut after, mv);
    after.captures[us] > 2 && after.captures[us] > pos.captures[us]
}

/// Why a written move that names no legal move is refused, where EC-2 is the reason: it
/// names a move that would be legal but for the capture limit.
pub fn capture_refusal(
    v: &Variant,
    pos: &Position,
    notation: &crate::notation::Notation,
) -> Option<Violation> {
    if !capture_limited(v, pos) {
        return None;
    }
    let mut unlimited = pos.clone();
    unlimited.captures = [0, 0];
    let mv = super::san::resolve(v, &unlimited, notation).ok()?;
    breaks_capture_limit(v, pos, &mv).then_some(Violation::CaptureLimit {
        by: pos.turn,
        taken: pos.captures[pos.turn.index()],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::rules::event::{Condition, EventInfo};
    use crate::rules::{parse_fen, san};

    fn event_chess() -> &'static Variant {
        Variant::by_name("event-chess").unwrap()
    }

    /// Toy events with the Conditions none of the played events has yet (EC-12).
    struct Toy(&'static EventInfo);

    impl Event for Toy {
        fn info(&self) -> &'static EventInfo {
            self.0
        }
    }

    const fn info(number: u16, types: &'static [EventType], condition: Condition) -> EventInfo {
        EventInfo {
            number,
            name: "Toy",
            aliases: &[],
            types,
            condition,
            rulings: &[],
            page: "",
        }
    }

    static REMOVE_CHECK: Toy = Toy(&info(901, &[EventType::RemoveCheck], Condition::NONE));
    static NOT_WITH_REMOVE_CHECK: Toy = Toy(&info(
        902,
        &[],
        Condition {
            pieces_each: &[],
            one_of_each: &[],
            no_check: false,
            not_with: &[EventType::RemoveCheck],
            empty_on_every_rank: 0,
        },
    ));
    /// Under its rules every piece attacks the enemy king, wherever it stands.
    struct Checking;

    static CHECKING: EventInfo = info(
        903,
        &[],
        Condition {
            pieces_each: &[],
            one_of_each: &[],
            no_check: true,
            not_with: &[],
            empty_on_every_rank: 0,
        },
    );

    impl Event for Checking {
        fn info(&self) -> &'static EventInfo {
            &CHECKING
        }
        fn extra_attackers(
            &self,
            v: &Variant,
            pos: &Position,
            sq: crate::rules::Sq,
            by: Color,
            _: crate::rules::Bitboard,
        ) -> crate::rules::Bitboard {
            if pos.kings(v, by.other()).contains(sq) {
                pos.by_color(by)
            } else {
                crate::rules::Bitboard::EMPTY
            }
        }
    }

    #[test]
    fn ec_1_refuses_a_second_event_and_the_same_event_twice() {
        let v = event_chess();
        let mut pos = v.start_position().clone();
        assert_eq!(refusal(&pos, 43, Some(Color::White)), None);
        pos.start_event(events::by_number(43).unwrap(), Some(Color::White))
            .unwrap();
        let twice = refusal(&pos, 43, Some(Color::Black)).unwrap();
        assert_eq!(twice.ruling(), "EC-1");
        assert!(twice.to_string().contains("cannot start twice"), "{twice}");
        let second = refusal(&pos, 85, Some(Color::White)).unwrap();
        assert!(matches!(second, Violation::SecondEvent { started: 43, .. }));
        assert_eq!(refusal(&pos, 85, Some(Color::Black)), None);
        for number in [85, 71] {
            pos.start_event(events::by_number(number).unwrap(), None)
                .unwrap();
        }
        assert_eq!(refusal(&pos, 8, Some(Color::Black)), None);
        pos.start_event(events::by_number(8).unwrap(), None)
            .unwrap();
        assert_eq!(MAX_EVENTS, 4);
        assert_eq!(
            refusal(&pos, 5, Some(Color::Black)),
            Some(Violation::NoRoom { number: 5 })
        );
    }

    #[test]
    fn dt_1_an_event_lets_its_starter_start_two_in_its_place() {
        let v = event_chess();
        let mut pos = v.start_position().clone();
        pos.start_event(events::by_number(99).unwrap(), Some(Color::White))
            .unwrap();
        for number in [43, 71] {
            assert_eq!(refusal(&pos, number, Some(Color::White)), None, "#{number}");
            pos.start_event(events::by_number(number).unwrap(), Some(Color::White))
                .unwrap();
        }
        let third = refusal(&pos, 8, Some(Color::White)).unwrap();
        assert!(matches!(third, Violation::SecondEvent { started: 99, .. }));
        assert_eq!(refusal(&pos, 8, Some(Color::Black)), None);
    }

    #[test]
    fn ec_12_types_and_check_are_conditions() {
        let v = event_chess();
        let mut pos = v.start_position().clone();
        let prince = events::by_number(68).unwrap();
        assert_eq!(breaches(v, &pos, &REMOVE_CHECK, &[]), []);
        pos.start_event(prince, Some(Color::White)).unwrap();
        // #68 is of Type Remove Check: a second Remove Check event clashes.
        let shared = breaches(v, &pos, &REMOVE_CHECK, &[]);
        assert!(
            matches!(
                shared[..],
                [Violation::TypeClash {
                    running: 68,
                    kind: EventType::RemoveCheck,
                    excluded: false,
                    ..
                }]
            ),
            "{shared:?}"
        );
        assert_eq!(shared[0].ruling(), "EC-12");
        let excluded = breaches(v, &pos, &NOT_WITH_REMOVE_CHECK, &[]);
        assert!(
            excluded[0]
                .to_string()
                .contains("its Condition excludes a Remove Check event"),
            "{}",
            excluded[0]
        );
        // Under the toy's rules both kings would be in check: the start breaks its
        // Condition, once for each side.
        let kings = parse_fen(v, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let leaves = breaches(v, &kings, &Checking, &[]);
        assert_eq!(
            leaves,
            [Color::White, Color::Black].map(|in_check| Violation::LeavesCheck {
                number: 903,
                name: "Toy",
                in_check
            })
        );
        assert_eq!(leaves[0].ruling(), "EC-12");
        // With #68 running no king can be checked yet (PR-1), so the start leaves
        // nobody in check.
        let mut free = kings.clone();
        free.start_event(prince, None).unwrap();
        prince.begin(v, &mut free, &[]).unwrap();
        assert_eq!(breaches(v, &free, &Checking, &[]), []);
    }

    #[test]
    fn ec_3_reports_the_event_s_own_condition() {
        let v = event_chess();
        let rookless = parse_fen(v, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let found = breaches(v, &rookless, events::by_number(43).unwrap(), &[]);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].to_string(),
            "event #43 Line Pushers cannot start here: black has no rook (its Condition: at least 1 rook each; EC-3)"
        );
    }

    #[test]
    fn ec_2_counts_every_capture_a_move_makes() {
        let v = event_chess();
        // Black has started #43, white none and has taken two pieces: Rxb7 is the third.
        let pos = parse_fen(v, "1k6/1r6/1R6/8/8/8/8/K7 w - - 1 3 events(43b;x:2,0)").unwrap();
        assert!(capture_limited(v, &pos));
        let rook_takes = san::resolve(
            v,
            &{
                let mut free = pos.clone();
                free.captures = [0, 0];
                free
            },
            &Notation::parse("Rxb7").unwrap(),
        )
        .unwrap();
        assert!(breaks_capture_limit(v, &pos, &rook_takes));
        assert_eq!(
            capture_refusal(v, &pos, &Notation::parse("Rxb7+").unwrap()),
            Some(Violation::CaptureLimit {
                by: Color::White,
                taken: 2
            })
        );
        let mut moves = Vec::new();
        v.legal_moves(&pos, &mut moves);
        assert!(!moves.contains(&rook_takes), "EC-2 is part of legality");
        assert!(
            moves.iter().any(|mv| !mv.is_capture()),
            "the rest stays legal"
        );
        // Black started an event: no limit for black.
        let black = parse_fen(v, "1k6/1r6/1R6/8/8/8/8/K7 b - - 1 3 events(43b;x:0,2)").unwrap();
        assert!(!capture_limited(v, &black));
        // Without events the counts mean nothing.
        let standard = Variant::by_name("standard").unwrap();
        let mut orthodox = parse_fen(standard, "1k6/1r6/1R6/8/8/8/8/K7 w - - 1 3").unwrap();
        orthodox.captures = [2, 0];
        assert!(!capture_limited(standard, &orthodox));
    }
}
