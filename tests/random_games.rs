//! Random legal games of every rule set, made with the move generator and written in
//! canonical SAN: they must read back without a finding, replay to the same moves, and
//! print identically (`fmt` is a fixed point; `convert --to san` changes nothing, and the
//! `--to lan` spelling reads back to the same moves).
//!
//! Rule sets: orthodox chess, Chess960 from random start positions, Secret Invisible Pass
//! (10x10, passes), and Event Chess with each event xpgn plays (older wordings too)
//! started by one player, and with every pair the meta rules let run together (EC-12),
//! one started by each.

mod common;

use common::in_parallel;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRng};
use xpgn::command::parse_event;
use xpgn::convert::{Spelling, write_spelled};
use xpgn::layout::write_game;
use xpgn::pgn::parse_str;
use xpgn::replay::{Recording, Replay, check_game, replay_recording};
use xpgn::rules::san::san;
use xpgn::rules::{Color, Event, Move, Position, Variant, Variants, events, meta, parse_fen};

/// An event one player starts, and the ply at which it is started at the earliest
/// (later when its Condition does not hold yet).
#[derive(Clone, Copy)]
struct Start {
    event: &'static dyn Event,
    ply: usize,
}

/// A game: the PGN written, and the canonical SAN of its moves.
struct Generated {
    pgn: String,
    sans: Vec<String>,
}

fn variant(name: &str) -> &'static Variant {
    Variant::by_name(name).unwrap()
}

/// A Chess960 start position, drawn as the rules draw it, with Shredder-FEN castling.
fn chess960_fen(rng: &mut TestRng) -> String {
    let mut rank = [' '; 8];
    rank[2 * rng.random_range(0..4)] = 'B';
    rank[2 * rng.random_range(0..4) + 1] = 'B';
    for piece in ['Q', 'N', 'N'] {
        let free: Vec<usize> = (0..8).filter(|&i| rank[i] == ' ').collect();
        rank[free[rng.random_range(0..free.len())]] = piece;
    }
    let free: Vec<usize> = (0..8).filter(|&i| rank[i] == ' ').collect();
    rank[free[0]] = 'R';
    rank[free[1]] = 'K';
    rank[free[2]] = 'R';
    let white: String = rank.iter().collect();
    let black = white.to_lowercase();
    let file = |i: usize| char::from(b'a' + i as u8);
    let rights = format!(
        "{}{}{}{}",
        file(free[2]).to_ascii_uppercase(),
        file(free[0]).to_ascii_uppercase(),
        file(free[2]),
        file(free[0])
    );
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {rights} - 0 1")
}

/// Starts `event` for the side to move, as a `[%event]` command would, where the meta
/// rules let it start (EC-3, EC-12), telling it the game so far (`history`: each move
/// with the position before it) as the replayer does; returns the command's text.
fn start_event(
    v: &Variant,
    pos: &mut Position,
    event: &'static dyn Event,
    history: &[(Position, Move)],
    rng: &mut TestRng,
) -> Option<String> {
    // `4*` for the early numbering's event (PC-9), as a record writes it.
    let number = event.label();
    let older = if event.older_wording() { " old" } else { "" };
    event.condition(v, pos).ok()?;
    // EC-12: an event of a running event's Type (#86 beside #68) is drawn again, never
    // started.
    if !meta::breaches(v, pos, event, &[]).is_empty() {
        return None;
    }
    for _ in 0..20 {
        let words = event.random_choices(v, pos, &mut |n| rng.random_range(0..n))?;
        let text = format!("{number}{older} {words}");
        let command = parse_event(text.trim(), 0).unwrap();
        let chosen: Vec<_> = command.choices.iter().map(|c| c.node).collect();
        // Choices that leave a side in check (EC-12) are drawn again.
        if !meta::breaches(v, pos, event, &chosen).is_empty() {
            continue;
        }
        let mut trial = pos.clone();
        trial.start_event(event, Some(pos.turn)).ok()?;
        if event.begin(v, &mut trial, &chosen).is_ok() {
            event.learn_history(v, &mut trial, history);
            *pos = trial;
            return Some(format!("[%event {}]", text.trim()));
        }
    }
    None
}

fn generate(
    v: &Variant,
    tag: &str,
    fen: Option<String>,
    starts: &[Start],
    plies: usize,
    rng: &mut TestRng,
) -> Generated {
    let mut pos = match &fen {
        Some(fen) => parse_fen(v, fen).unwrap(),
        None => v.start_position().clone(),
    };
    let mut pgn = format!("[Event \"random\"]\n[Variant \"{tag}\"]\n");
    if let Some(fen) = &fen {
        pgn.push_str(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n"));
    }
    pgn.push('\n');
    let mut sans = Vec::new();
    let mut pending: Vec<Start> = starts.to_vec();
    let mut moves = Vec::new();
    let mut history = Vec::new();
    let mut numbered = false;
    for ply in 0..plies {
        let white = pos.turn == Color::White;
        // An event that can no longer start (one #99 drew in its place already runs,
        // EC-1) would be drawn again in a real game: here it is dropped.
        pending.retain(|s| meta::refusal(&pos, s.event.number(), None).is_none());
        if let Some(i) = pending
            .iter()
            .position(|s| s.ply <= ply && (s.ply % 2 == 0) == white)
            && let Some(mut command) = start_event(v, &mut pos, pending[i].event, &history, rng)
        {
            let event = pending.remove(i).event;
            // DT-1: an event that starts others in its place (#99) has them drawn at
            // once, a number that may not start drawn again (DT-2).
            for _ in 0..200 {
                if event.starts_in_its_place(&pos) == 0 {
                    break;
                }
                let drawn = events::ALL[rng.random_range(0..events::ALL.len())];
                if meta::refusal(&pos, drawn.number(), Some(pos.turn)).is_none()
                    && let Some(more) = start_event(v, &mut pos, drawn, &history, rng)
                {
                    command.push(' ');
                    command.push_str(&more);
                }
            }
            pgn.push_str(&format!("{{{command}}} "));
            numbered = false;
        }
        moves.clear();
        // EC-2 is part of legality: the list holds no third capture before an event.
        v.legal_moves(&pos, &mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        let written = san(v, &pos, &mv);
        let number = pos.fullmoves;
        if white {
            pgn.push_str(&format!("{number}. "));
        } else if !numbered {
            pgn.push_str(&format!("{number}... "));
        }
        numbered = white;
        pgn.push_str(&written);
        pgn.push(' ');
        sans.push(written);
        history.push((pos.clone(), mv));
        v.play(&mut pos, &mv);
        if v.winner(&pos).is_some() {
            break;
        }
    }
    pgn.push_str("*\n");
    Generated { pgn, sans }
}

/// The whole round trip of one game.
fn round_trip(generated: &Generated) {
    let Generated { pgn, sans } = generated;
    let variants = Variants::with_default(variant("standard"));
    let games = parse_str(pgn);
    assert_eq!(games.len(), 1, "{pgn}");
    let checked = check_game(&games[0], &variants);
    let errors: Vec<String> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.to_string())
        .collect();
    assert!(errors.is_empty(), "{pgn}\n{errors:#?}");
    assert_eq!(checked.plies, sans.len(), "{pgn}");

    // Canonical layout: reads back to the same moves and is a fixed point.
    let mut laid_out = String::new();
    write_game(&games[0].game, &mut laid_out);
    let again = parse_str(&laid_out);
    assert_eq!(again.len(), 1);
    assert!(again[0].diagnostics.is_empty(), "{laid_out}");
    let replayed = replay_recording(&again[0].game, &variants, Recording::Everything);
    let replayed_sans = sans_of(&replayed);
    assert_eq!(replayed_sans, *sans, "{laid_out}");
    let mut twice = String::new();
    write_game(&again[0].game, &mut twice);
    assert_eq!(twice, laid_out);

    // Already canonical SAN: converting changes nothing.
    let mut san_text = String::new();
    write_spelled(&again[0].game, &replayed, Spelling::San, &mut san_text);
    assert_eq!(san_text, laid_out);

    // Long notation reads back to the same moves.
    let mut lan_text = String::new();
    write_spelled(&again[0].game, &replayed, Spelling::Lan, &mut lan_text);
    let lan = parse_str(&lan_text);
    let from_lan = replay_recording(&lan[0].game, &variants, Recording::Everything);
    assert!(
        !from_lan.diagnostics.iter().any(|d| d.is_error()),
        "{lan_text}\n{:#?}",
        from_lan.diagnostics
    );
    let lan_sans = sans_of(&from_lan);
    assert_eq!(lan_sans, *sans, "{lan_text}");
}

/// The SAN of every move a recorded replay played, in file order.
fn sans_of(replay: &Replay) -> Vec<&str> {
    let played = replay.played.as_ref().expect("recorded");
    played.moves.iter().map(|m| m.san.as_str()).collect()
}

/// `cases` games per rule set from a fixed seed, so that a run of the test suite (and CI)
/// always plays the same games; a hunt for new failures sets both
/// (`PROPTEST_CASES=50000 PROPTEST_RNG_SEED=$RANDOM cargo test --release --test random_games`).
fn config(cases: u32) -> Config {
    let default = Config::default();
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    let rng_seed = match default.rng_seed {
        RngSeed::Random => RngSeed::Fixed(SEED),
        chosen => chosen,
    };
    Config {
        cases,
        rng_seed,
        failure_persistence: None,
        ..default
    }
}

/// The seed of the games every test run plays.
const SEED: u64 = 8_543_685;

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn orthodox(plies in 1usize..300, seed: u64) {
        let mut rng = TestRng::from_seed(proptest::test_runner::RngAlgorithm::ChaCha, &seed_bytes(seed));
        round_trip(&generate(variant("standard"), "Standard", None, &[], plies, &mut rng));
    }

    #[test]
    fn chess960(plies in 1usize..300, seed: u64) {
        let mut rng = TestRng::from_seed(proptest::test_runner::RngAlgorithm::ChaCha, &seed_bytes(seed));
        let fen = chess960_fen(&mut rng);
        round_trip(&generate(variant("chess960"), "Chess960", Some(fen), &[], plies, &mut rng));
    }

    #[test]
    fn secret_invisible_pass(plies in 1usize..300, seed: u64) {
        let mut rng = TestRng::from_seed(proptest::test_runner::RngAlgorithm::ChaCha, &seed_bytes(seed));
        round_trip(&generate(
            variant("secret-invisible-pass"),
            "Secret Invisible Pass",
            None,
            &[],
            plies,
            &mut rng,
        ));
    }

    #[test]
    fn event_chess_one_event(
        index in 0..events::ALL.len(),
        start in 0usize..40,
        plies in 1usize..200,
        seed: u64,
    ) {
        let mut rng = TestRng::from_seed(proptest::test_runner::RngAlgorithm::ChaCha, &seed_bytes(seed));
        let starts = [Start { event: events::ALL[index], ply: start }];
        round_trip(&generate(variant("event-chess"), "Event Chess", None, &starts, plies, &mut rng));
    }

    #[test]
    fn event_chess_pairs(
        pair in prop::sample::select(allowed_pairs()),
        white in 0usize..20,
        black in 0usize..20,
        plies in 1usize..200,
        seed: u64,
    ) {
        let mut rng = TestRng::from_seed(proptest::test_runner::RngAlgorithm::ChaCha, &seed_bytes(seed));
        let (first, second) = pair;
        let starts = [
            Start { event: events::ALL[first], ply: 2 * white },
            Start { event: events::ALL[second], ply: 2 * black + 1 },
        ];
        round_trip(&generate(variant("event-chess"), "Event Chess", None, &starts, plies, &mut rng));
    }
}

/// Every pair of events (indices into `events::ALL`, in both orders) that the meta rules
/// let run together: two numbers, no Type shared or excluded (EC-1, EC-12).
fn allowed_pairs() -> Vec<(usize, usize)> {
    let all = events::ALL;
    let mut pairs = Vec::new();
    for (i, a) in all.iter().enumerate() {
        for (j, b) in all.iter().enumerate() {
            if a.number() != b.number() && meta::type_clash(*a, *b).is_none() {
                pairs.push((i, j));
            }
        }
    }
    pairs
}

/// Every pair the meta rules allow plays a game, each event started early by its own
/// player, from a seed of its own: no pair is left to chance. The pairs' games, several
/// thousand, are shared among the cores.
#[test]
fn event_chess_every_allowed_pair() {
    in_parallel(&allowed_pairs(), |_, &(first, second)| {
        let seed = SEED ^ (first as u64) << 32 ^ (second as u64) << 16;
        let mut rng = TestRng::from_seed(
            proptest::test_runner::RngAlgorithm::ChaCha,
            &seed_bytes(seed),
        );
        let starts = [
            Start {
                event: events::ALL[first],
                ply: 2 * rng.random_range(0..6),
            },
            Start {
                event: events::ALL[second],
                ply: 2 * rng.random_range(0..6) + 1,
            },
        ];
        round_trip(&generate(
            variant("event-chess"),
            "Event Chess",
            None,
            &starts,
            60,
            &mut rng,
        ));
    });
}

fn seed_bytes(seed: u64) -> [u8; 32] {
    let mut bytes = [0; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes
}
