//! Perft: leaf counts of the legal move tree against published values, read from the
//! data files under `tests/data/perft/` (format in their headers).

use std::path::Path;

use xpgn::command::parse_event;
use xpgn::rules::{Position, Variant, events, parse_fen};

struct Case {
    id: String,
    fen: String,
    /// Events running from the start, with their choices, as `--events` takes them.
    events: Vec<String>,
    counts: Vec<(u32, u64)>,
}

fn cases(file: &str) -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/perft")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => cases.push(Case {
                id: value.to_owned(),
                fen: String::new(),
                events: Vec::new(),
                counts: Vec::new(),
            }),
            "fen" => cases.last_mut().unwrap().fen = value.to_owned(),
            "events" => {
                cases.last_mut().unwrap().events = value.split(',').map(str::to_owned).collect();
            }
            "perft" => {
                let (depth, count) = value.split_once(' ').unwrap();
                cases
                    .last_mut()
                    .unwrap()
                    .counts
                    .push((depth.parse().unwrap(), count.parse().unwrap()));
            }
            other => panic!("{file}: unknown key `{other}`"),
        }
    }
    cases
}

fn run(file: &str, variant: &Variant) {
    run_with(file, variant, |_| {});
}

/// [`run`] with `prepare` applied to each position after reading its FEN (events
/// running from the start).
fn run_with(file: &str, variant: &Variant, prepare: impl Fn(&mut Position)) {
    let cases = cases(file);
    assert!(cases.len() >= 8, "{file} has its positions");
    for case in cases {
        let mut pos = parse_fen(variant, &case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        prepare(&mut pos);
        for started in &case.events {
            let command = parse_event(started, 0).unwrap();
            let event = events::find(command.number.node, command.older).unwrap();
            let choices: Vec<_> = command.choices.iter().map(|c| c.node).collect();
            pos.start_event(event, None).unwrap();
            event.begin(variant, &mut pos, &choices).unwrap();
        }
        for &(depth, expected) in &case.counts {
            assert_eq!(
                variant.perft(&pos, depth),
                expected,
                "{} ({}) at depth {depth}",
                case.id,
                case.fen
            );
        }
    }
}

#[test]
fn standard_positions_match_published_counts() {
    run("standard.perft", Variant::by_name("standard").unwrap());
}

#[test]
fn chess960_positions_match_published_counts() {
    run("chess960.perft", Variant::by_name("chess960").unwrap());
}

#[test]
fn secret_invisible_pass_positions_match_cross_checked_counts() {
    run(
        "secret-invisible-pass.perft",
        Variant::by_name("secret-invisible-pass").unwrap(),
    );
}

#[test]
fn capablanca_positions_match_published_counts() {
    run("capablanca.perft", Variant::by_name("capablanca").unwrap());
}

#[test]
fn grand_positions_match_fairy_stockfish_counts() {
    run("grand.perft", Variant::by_name("grand").unwrap());
}

/// Event #43 Line Pushers running from the start; the counts are cross-checked with
/// `scripts/pushes_perft.py`, written from the rules text on top of python-chess.
#[test]
fn line_pushers_positions_match_cross_checked_counts() {
    let line_pushers = events::by_number(43).expect("xpgn plays #43");
    run_with(
        "line-pushers.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(line_pushers, None).unwrap(),
    );
}

/// Event #5 Hidden passage with its squares given; the counts are cross-checked with
/// `scripts/passage_perft.py`, an independent generator written from the rules text.
#[test]
fn hidden_passage_positions_match_cross_checked_counts() {
    run(
        "hidden-passage.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #68 Prince with the chosen pawns given; the counts are cross-checked with
/// `scripts/prince_perft.py`, an independent generator written from the rules text.
#[test]
fn prince_positions_match_cross_checked_counts() {
    run("prince.perft", Variant::by_name("event-chess").unwrap());
}

/// Event #85 Loyal Knights with every knight's direction given; the counts are
/// cross-checked with `scripts/knights_perft.py`, an independent generator written from
/// the rules text.
#[test]
fn loyal_knights_positions_match_cross_checked_counts() {
    run(
        "loyal-knights.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #29 Directional Knights running from the start, every knight given its facing;
/// the counts are cross-checked with `scripts/directional_knights_perft.py`, an
/// independent generator written from the rules text.
#[test]
fn directional_knights_positions_match_cross_checked_counts() {
    run(
        "directional-knights.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #121 Knight support running from the start, every knight given its facing; the
/// counts are cross-checked with `scripts/knight_support_perft.py`, written from the rules
/// text on top of python-chess.
#[test]
fn knight_support_positions_match_cross_checked_counts() {
    run(
        "knight-support.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #32 Mimicker running, what each side moved last given by the FEN; the counts
/// are cross-checked with `scripts/mimicker_perft.py`, an independent generator written
/// from the rules text.
#[test]
fn mimicker_positions_match_cross_checked_counts() {
    run("mimicker.perft", Variant::by_name("event-chess").unwrap());
}

/// Event #109 Pawn Grabbers running from the start; the counts are cross-checked with
/// `scripts/pawn_grabbers_perft.py`, an independent generator written from the rules text.
#[test]
fn pawn_grabbers_positions_match_cross_checked_counts() {
    run(
        "pawn-grabbers.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #71 Slow Pieces running from the start; the counts are cross-checked with
/// `scripts/slow_pieces_perft.py`, an independent generator written from the rules text.
#[test]
fn slow_pieces_positions_match_cross_checked_counts() {
    let slow_pieces = events::by_number(71).expect("xpgn plays #71");
    run_with(
        "slow-pieces.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(slow_pieces, None).unwrap(),
    );
}

/// Event #66 Slow King running from the start; the counts are cross-checked with
/// `scripts/reach_perft.py`, an independent generator written from the rules text.
#[test]
fn slow_king_positions_match_cross_checked_counts() {
    run("slow-king.perft", Variant::by_name("event-chess").unwrap());
}

/// Event #78 Commanding Voice running from the start; the counts are cross-checked with
/// `scripts/commanding_voice_perft.py`, an independent generator written from the rules
/// text.
#[test]
fn commanding_voice_positions_match_cross_checked_counts() {
    run(
        "commanding-voice.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #115 Piecebuilder running from the start; the counts are cross-checked with
/// `scripts/rook_stacks_perft.py`, an independent generator written from the rules text.
#[test]
fn piecebuilder_positions_match_cross_checked_counts() {
    run(
        "piecebuilder.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #37 Queenbuilder running from the start; the counts are cross-checked with
/// `scripts/rook_stacks_perft.py --event 37`, an independent generator written from the
/// rules text.
#[test]
fn queenbuilder_positions_match_cross_checked_counts() {
    run(
        "queenbuilder.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #47 Watch Tower running from the start; the counts are cross-checked with
/// `scripts/rook_stacks_perft.py --event 47`, an independent generator written from the
/// rules text.
#[test]
fn watch_tower_positions_match_cross_checked_counts() {
    run(
        "watch-tower.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #46 Sacrificial Catapult running from the start; the counts are cross-checked
/// with `scripts/catapult_perft.py`, an independent generator written from the rules text.
#[test]
fn sacrificial_catapult_positions_match_cross_checked_counts() {
    run(
        "sacrificial-catapult.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #62 King on horse running from the start; the counts are cross-checked with
/// `scripts/reach_perft.py`, an independent generator written from the rules text.
#[test]
fn king_on_horse_positions_match_cross_checked_counts() {
    run(
        "king-on-horse.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #18 Magnetic Pawns running from the start; the counts are cross-checked with
/// `scripts/magnetic_perft.py`, written from the rules text on top of python-chess.
#[test]
fn magnetic_pawns_positions_match_cross_checked_counts() {
    run(
        "magnetic-pawns.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #110 Short Non-captures running from the start; the counts are cross-checked
/// with `scripts/reach_perft.py`, an independent generator written from the rules text.
#[test]
fn short_non_captures_positions_match_cross_checked_counts() {
    run(
        "short-non-captures.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #8 Move Forward! running from the start; the counts are cross-checked with
/// `scripts/reach_perft.py`, an independent generator written from the rules text.
#[test]
fn move_forward_positions_match_cross_checked_counts() {
    run(
        "move-forward.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #70 Ice (blog wording) running from the start; the counts are cross-checked with
/// `scripts/reach_perft.py`, an independent generator written from the rules text.
#[test]
fn ice_positions_match_cross_checked_counts() {
    run("ice.perft", Variant::by_name("event-chess").unwrap());
}

/// Event #70 Ice in its older wording (`70 old`) running from the start; the counts are
/// cross-checked with `scripts/reach_perft.py`, an independent generator written from
/// the rules text.
#[test]
fn ice_old_positions_match_cross_checked_counts() {
    run("ice-old.perft", Variant::by_name("event-chess").unwrap());
}

/// Event #88 Treasure Hunt in its older wording: armour won on a treasure, captures of
/// armoured pieces refused and stand-still moves that break the armour (THO-2..THO-4);
/// the counts are cross-checked with `scripts/treasure_hunt_old_perft.py`, written from
/// the rules text on top of python-chess.
#[test]
fn treasure_hunt_old_positions_match_cross_checked_counts() {
    run(
        "treasure-hunt-old.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #42 Tanks running from the start; the counts are cross-checked with
/// `scripts/tanks_perft.py`, written from the rules text on top of python-chess.
#[test]
fn tanks_positions_match_cross_checked_counts() {
    run("tanks.perft", Variant::by_name("event-chess").unwrap());
}

/// Event #36 Portals running from the start; the counts are cross-checked with
/// `scripts/portals_perft.py`, written from the rules text on top of python-chess.
#[test]
fn portals_positions_match_cross_checked_counts() {
    run("portals.perft", Variant::by_name("event-chess").unwrap());
}

/// Event #4* Portal Chess running from the start; the counts are cross-checked with
/// `scripts/portal_chess_perft.py`, written from the rules text on top of python-chess.
#[test]
fn portal_chess_positions_match_cross_checked_counts() {
    run(
        "portal_chess.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #75 Bloodthirst running from the start; the counts are cross-checked with
/// `scripts/bloodthirst_perft.py`, written from the rules text on top of python-chess.
#[test]
fn bloodthirst_positions_match_cross_checked_counts() {
    run(
        "bloodthirst.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #76 Minor piece transformations; the counts are cross-checked with
/// `scripts/geometry_perft.py`, an independent generator written from the rules page.
#[test]
fn minor_transformations_positions_match_cross_checked_counts() {
    run(
        "minor-transformations.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #112 Heavy Rooks, alone and with #76; the counts are cross-checked with
/// `scripts/geometry_perft.py`, an independent generator written from the rules pages.
#[test]
fn heavy_rooks_positions_match_cross_checked_counts() {
    run(
        "heavy-rooks.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #111 Generous Queens, alone and with #76 and #112 in either order; the counts
/// are cross-checked with `scripts/geometry_perft.py`, an independent generator written
/// from the rules pages.
#[test]
fn generous_queens_positions_match_cross_checked_counts() {
    run(
        "generous-queens.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #24 Roar!: knights' roars and stand-still promotions; the counts are
/// cross-checked with `scripts/roar_perft.py`, an independent generator written from the
/// rules page on top of python-chess.
#[test]
fn roar_positions_match_cross_checked_counts() {
    run("roar.perft", Variant::by_name("event-chess").unwrap());
}

/// Event #83 Smaller Board started in each position (the push at the start included,
/// SB-1, SB-5); the counts are cross-checked with `scripts/smaller_board_perft.py`, an
/// independent generator written from the rules page on top of python-chess.
#[test]
fn smaller_board_positions_match_cross_checked_counts() {
    run(
        "smaller-board.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #106 Wall, alone and with #76, #111 and #112 in either order; the counts are
/// cross-checked with `scripts/geometry_perft.py`, an independent generator written from
/// the rules pages.
#[test]
fn wall_positions_match_cross_checked_counts() {
    run("wall.perft", Variant::by_name("event-chess").unwrap());
}

/// Event #30 Drunken Bishops, alone and with #76, #106, #71 and #111, in either order; the
/// counts are cross-checked with `scripts/geometry_perft.py`, an independent generator
/// written from the rules pages.
#[test]
fn drunken_bishops_positions_match_cross_checked_counts() {
    run(
        "drunken-bishops.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #33 Bouncing Bishops, alone and with #30, #38, #106 and #71; the counts are
/// cross-checked with `scripts/geometry_perft.py`, an independent generator written from
/// the rules pages.
#[test]
fn bouncing_bishops_positions_match_cross_checked_counts() {
    run(
        "bouncing-bishops.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #38 Forward Rotations, alone and with #30, #106, #76, #8 and #71, in either
/// order; the counts are cross-checked with `scripts/geometry_perft.py`, an independent
/// generator written from the rules pages.
#[test]
fn forward_rotations_positions_match_cross_checked_counts() {
    run(
        "forward-rotations.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #91 Variety running from the start: every move freezes its piece for its owner's
/// next turn, and frozen pieces attack nothing; the counts are cross-checked with
/// `scripts/variety_perft.py`, an independent generator written from the rules text.
#[test]
fn variety_positions_match_cross_checked_counts() {
    let variety = events::by_number(91).expect("xpgn plays #91");
    run_with(
        "variety.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(variety, None).unwrap(),
    );
}

/// Event #86 No checks allowed running from the start: a move that checks must mate, the
/// mate judged by the same rules; the counts are cross-checked with
/// `scripts/no_checks_perft.py`, an independent generator written from the rules text.
#[test]
fn no_checks_positions_match_cross_checked_counts() {
    let no_checks = events::by_number(86).expect("xpgn plays #86");
    run_with(
        "no-checks.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(no_checks, None).unwrap(),
    );
}

/// Event #10 Fortress running from the start; the counts are cross-checked with
/// `scripts/fortress_perft.py`, written from the rules text on top of python-chess.
#[test]
fn fortress_positions_match_cross_checked_counts() {
    let fortress = events::by_number(10).expect("xpgn plays #10");
    run_with(
        "fortress.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(fortress, None).unwrap(),
    );
}

/// Event #12 Active Pawns running from the start; the counts are cross-checked with
/// `scripts/active_pawns_perft.py`, written from the rules text on top of python-chess.
#[test]
fn active_pawns_positions_match_cross_checked_counts() {
    let active_pawns = events::by_number(12).expect("xpgn plays #12");
    run_with(
        "active-pawns.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(active_pawns, None).unwrap(),
    );
}

/// Event #13 Pawn March running from the start; the counts are cross-checked with
/// `scripts/pawn_march_perft.py`, written from the rules text on top of python-chess.
#[test]
fn pawn_march_positions_match_cross_checked_counts() {
    let pawn_march = events::by_number(13).expect("xpgn plays #13");
    run_with(
        "pawn-march.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(pawn_march, None).unwrap(),
    );
}

/// Event #6 Starvation running from the start; the counts are cross-checked with
/// `scripts/starvation_perft.py`, written from the rules text on top of python-chess.
#[test]
fn starvation_positions_match_cross_checked_counts() {
    let starvation = events::by_number(6).expect("xpgn plays #6");
    run_with(
        "starvation.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(starvation, None).unwrap(),
    );
}

/// Event #73 Cooperation running from the start; the counts are cross-checked with
/// `scripts/cooperation_perft.py`, written from the rules text on top of python-chess.
#[test]
fn cooperation_positions_match_cross_checked_counts() {
    let cooperation = events::by_number(73).expect("xpgn plays #73");
    run_with(
        "cooperation.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(cooperation, None).unwrap(),
    );
}

/// Event #51 Monster Queen running from the start; the counts are cross-checked with
/// `scripts/monster_queen_perft.py`, written from the rules text on top of python-chess.
#[test]
fn monster_queen_positions_match_cross_checked_counts() {
    let monster_queen = events::by_number(51).expect("xpgn plays #51");
    run_with(
        "monster-queen.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(monster_queen, None).unwrap(),
    );
}

/// Event #102 Running kings running from the start; the counts are cross-checked with
/// `scripts/running_kings_perft.py`, written from the rules text on top of python-chess.
#[test]
fn running_kings_positions_match_cross_checked_counts() {
    let running_kings = events::by_number(102).expect("xpgn plays #102");
    run_with(
        "running-kings.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(running_kings, None).unwrap(),
    );
}

/// Event #23 Hungry horses running from the start; the counts are cross-checked with
/// `scripts/hungry_horses_perft.py`, written from the rules text on top of python-chess.
#[test]
fn hungry_horses_positions_match_cross_checked_counts() {
    run(
        "hungry-horses.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #3 Save the king! running, the kings already swapped; the counts are
/// cross-checked with `scripts/save_the_king_perft.py`, written from the rules text on
/// top of python-chess.
#[test]
fn save_the_king_positions_match_cross_checked_counts() {
    // The FENs carry the running event (`events(3-)`): the kings stand swapped already.
    run(
        "save-the-king.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #64 Soul Eater running, the souls in the FENs; the counts are cross-checked with
/// `scripts/soul_eater_perft.py`, written from the rules text on top of python-chess.
#[test]
fn soul_eater_positions_match_cross_checked_counts() {
    run("soul-eater.perft", Variant::by_name("event-chess").unwrap());
}

/// Event #126 Callback Orders running from the start; the counts are cross-checked with
/// `scripts/callback_orders_perft.py`, written from the rules text on top of python-chess.
#[test]
fn callback_orders_positions_match_cross_checked_counts() {
    let callback_orders = events::by_number(126).expect("xpgn plays #126");
    run_with(
        "callback-orders.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(callback_orders, None).unwrap(),
    );
}

/// Event #1 Check for allies running from the start: a checking move counts once per
/// placement the checked player may choose (CA-2); the counts are cross-checked with
/// `scripts/check_for_allies_perft.py`, written from the rules text on top of
/// python-chess.
#[test]
fn check_for_allies_positions_match_cross_checked_counts() {
    let allies = events::by_number(1).expect("xpgn plays #1");
    run_with(
        "check-for-allies.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(allies, None).unwrap(),
    );
}

/// Event #7 Revival running from the start; the counts are cross-checked with
/// `scripts/revival_perft.py`, written from the rules text on top of python-chess.
#[test]
fn revival_positions_match_cross_checked_counts() {
    let revival = events::by_number(7).expect("xpgn plays #7");
    run_with(
        "revival.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(revival, None).unwrap(),
    );
}

/// Event #7 Revival in its older wording (`7 old`) running from the start; the counts are
/// cross-checked with `scripts/revival_old_perft.py`, written from the rules text on top
/// of python-chess.
#[test]
fn revival_old_positions_match_cross_checked_counts() {
    run(
        "revival-old.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #16 Spies with the spies given; the counts are cross-checked with
/// `scripts/spies_perft.py`, an independent generator written from the rules text.
#[test]
fn spies_positions_match_cross_checked_counts() {
    run("spies.perft", Variant::by_name("event-chess").unwrap());
}

/// Event #57 Long live the queen!; the counts are cross-checked with
/// `scripts/royal_queen_perft.py`, an independent generator written from the rules text.
#[test]
fn long_live_the_queen_positions_match_cross_checked_counts() {
    run(
        "long-live-the-queen.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #116 Royal Queens; the counts are cross-checked with
/// `scripts/royal_queens_perft.py`, written from the rules text on top of python-chess.
#[test]
fn royal_queens_positions_match_cross_checked_counts() {
    run(
        "royal-queens.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #44 Prison started at the position with its two prisons; the counts are
/// cross-checked with `scripts/prison_perft.py`, an independent generator written from
/// the rules text.
#[test]
fn prison_positions_match_cross_checked_counts() {
    run("prison.perft", Variant::by_name("event-chess").unwrap());
}

/// Event #15 Swapping Pawns running from the start; the counts are cross-checked with
/// `scripts/swapping_pawns_perft.py`, written from the rules text on top of python-chess.
#[test]
fn swapping_pawns_positions_match_cross_checked_counts() {
    let swapping_pawns = events::by_number(15).expect("xpgn plays #15");
    run_with(
        "swapping-pawns.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(swapping_pawns, None).unwrap(),
    );
}

/// Event #122 Swapping Knights running from the start; the counts are cross-checked with
/// `scripts/swapping_knights_perft.py`, written from the rules text on top of python-chess.
#[test]
fn swapping_knights_positions_match_cross_checked_counts() {
    let swapping_knights = events::by_number(122).expect("xpgn plays #122");
    run_with(
        "swapping-knights.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(swapping_knights, None).unwrap(),
    );
}

/// Event #96 En Passant for all running from the start; the counts are cross-checked with
/// `scripts/en_passant_for_all_perft.py`, written from the rules text on top of
/// python-chess.
#[test]
fn en_passant_for_all_positions_match_cross_checked_counts() {
    let en_passant = events::by_number(96).expect("xpgn plays #96");
    run_with(
        "en-passant-for-all.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(en_passant, None).unwrap(),
    );
}

/// Event #14 Chinese Checkers running from the start; the counts are cross-checked with
/// `scripts/chinese_checkers_perft.py`, written from the rules text on top of python-chess.
#[test]
fn chinese_checkers_positions_match_cross_checked_counts() {
    let chinese_checkers = events::by_number(14).expect("xpgn plays #14");
    run_with(
        "chinese-checkers.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(chinese_checkers, None).unwrap(),
    );
}

/// Event #74 Army Movement running from the start; the counts are cross-checked with
/// `scripts/army_movement_perft.py`, written from the rules text on top of python-chess.
#[test]
fn army_movement_positions_match_cross_checked_counts() {
    let army = events::by_number(74).expect("xpgn plays #74");
    run_with(
        "army-movement.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(army, None).unwrap(),
    );
}

/// Event #67 Emperor running from the start; the counts are cross-checked with
/// `scripts/emperor_perft.py`, written from the rules text on top of python-chess.
#[test]
fn emperor_positions_match_cross_checked_counts() {
    let emperor = events::by_number(67).expect("xpgn plays #67");
    run_with(
        "emperor.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(emperor, None).unwrap(),
    );
}

/// Event #59 Loyal Queen running from the start; the counts are cross-checked with
/// `scripts/loyal_queen_perft.py`, written from the rules text on top of python-chess.
#[test]
fn loyal_queen_positions_match_cross_checked_counts() {
    let loyal_queen = events::by_number(59).expect("xpgn plays #59");
    run_with(
        "loyal-queen.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(loyal_queen, None).unwrap(),
    );
}

/// Event #48 Force Fields running from the start; the counts are cross-checked with
/// `scripts/force_fields_perft.py`, a generator written from the rules text on
/// python-chess's board.
#[test]
fn force_fields_positions_match_cross_checked_counts() {
    let force_fields = events::by_number(48).expect("xpgn plays #48");
    run_with(
        "force-fields.perft",
        Variant::by_name("event-chess").unwrap(),
        |pos| pos.start_event(force_fields, None).unwrap(),
    );
}

/// Event #87 Occupying Multiple Squares, started by each FEN's events field with the
/// pieces on several squares; the counts are cross-checked with
/// `scripts/multiple_squares_perft.py`, a generator written from the rules text on
/// python-chess's squares.
#[test]
fn multiple_squares_positions_match_cross_checked_counts() {
    run(
        "multiple-squares.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #89 Same type immunity, alone and with #106 in either order; the counts are
/// cross-checked with `scripts/geometry_perft.py`, an independent generator written from
/// the rules pages.
#[test]
fn same_type_immunity_positions_match_cross_checked_counts() {
    run(
        "same-type-immunity.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #107 Big Wall, alone and with #106 and #76; the counts are cross-checked with
/// `scripts/geometry_perft.py`, an independent generator written from the rules pages.
#[test]
fn big_wall_positions_match_cross_checked_counts() {
    run("big-wall.perft", Variant::by_name("event-chess").unwrap());
}

/// Event #49 Flying Rooks, alone and with #106, #71 and #123 in either order; the counts
/// are cross-checked with `scripts/geometry_perft.py`, an independent generator written
/// from the rules pages.
#[test]
fn flying_rooks_positions_match_cross_checked_counts() {
    run(
        "flying-rooks.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #123 Forward Activity, alone and with #107; the counts are cross-checked with
/// `scripts/geometry_perft.py`, an independent generator written from the rules pages.
#[test]
fn forward_activity_positions_match_cross_checked_counts() {
    run(
        "forward-activity.perft",
        Variant::by_name("event-chess").unwrap(),
    );
}

/// Event #9 Pit Traps with both pits known: falls of moved pieces, castling rooks,
/// en-passant capturers and double-stepping pawns, blocks that shield nothing and kings
/// that fall in (PT-2..PT-4); the counts are cross-checked with
/// `scripts/pit_traps_perft.py`, written from the rules text on top of python-chess.
#[test]
fn pit_traps_positions_match_cross_checked_counts() {
    run("pit-traps.perft", Variant::by_name("event-chess").unwrap());
}
