use std::time::Instant;
use xpgn::notation::Notation;
use xpgn::rules::*;
fn main() {
    let v = Variant::by_name("standard").unwrap();
    let moves: Vec<Notation> =
        "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7"
            .split(' ')
            .map(|t| Notation::parse(t).unwrap())
            .collect();
    let n = 200_000;
    let mut scratch = Vec::new();
    let t = Instant::now();
    let mut count = 0;
    for _ in 0..n {
        let mut pos = v.start_position().clone();
        for m in &moves {
            let mv = san::resolve_with(v, &pos, m, &mut scratch).unwrap();
            v.play(&mut pos, &mv);
            count += 1;
        }
    }
    let e = t.elapsed();
    println!(
        "resolve+play: {:.1} ns/ply",
        e.as_nanos() as f64 / count as f64
    );
    let t = Instant::now();
    for _ in 0..n {
        let mut pos = v.start_position().clone();
        for m in &moves {
            let mv = san::resolve_with(v, &pos, m, &mut scratch).unwrap();
            let _ = pos.key(v);
            v.play(&mut pos, &mv);
        }
        std::hint::black_box(ending::ending(v, &pos, &[]));
    }
    println!(
        "with key+ending: {:.1} ns/ply",
        t.elapsed().as_nanos() as f64 / count as f64
    );
    let pos = {
        let mut pos = v.start_position().clone();
        for m in &moves[..10] {
            let mv = san::resolve_with(v, &pos, m, &mut scratch).unwrap();
            v.play(&mut pos, &mv);
        }
        pos
    };
    let t = Instant::now();
    for _ in 0..n * 10 {
        std::hint::black_box(std::hint::black_box(&pos).is_check(v));
    }
    println!(
        "is_check: {:.1} ns",
        t.elapsed().as_nanos() as f64 / (n * 10) as f64
    );
    let m = Notation::parse("Re1").unwrap();
    let t = Instant::now();
    for _ in 0..n * 10 {
        std::hint::black_box(
            san::resolve_with(v, std::hint::black_box(&pos), &m, &mut scratch).is_ok(),
        );
    }
    println!(
        "resolve Re1: {:.1} ns",
        t.elapsed().as_nanos() as f64 / (n * 10) as f64
    );
    let mv = san::resolve_with(v, &pos, &m, &mut scratch).unwrap();
    let from = pos.pieces(Color::White, Kind(3));
    let t = Instant::now();
    for _ in 0..n * 10 {
        v.legal_moves_between(std::hint::black_box(&pos), from, mv.to.bit(), &mut scratch);
        std::hint::black_box(&scratch);
    }
    println!(
        "legal_moves_between: {:.1} ns",
        t.elapsed().as_nanos() as f64 / (n * 10) as f64
    );
    let t = Instant::now();
    for _ in 0..n * 10 {
        scratch.clear();
        v.pseudo_moves(std::hint::black_box(&pos), from, mv.to.bit(), &mut scratch);
        std::hint::black_box(&scratch);
    }
    println!(
        "pseudo_moves: {:.1} ns",
        t.elapsed().as_nanos() as f64 / (n * 10) as f64
    );
    let t = Instant::now();
    for _ in 0..n * 10 {
        std::hint::black_box(v.attacks(
            Kind(3),
            Color::White,
            mv.to,
            std::hint::black_box(&pos).occupied(),
        ));
    }
    println!(
        "attacks R: {:.1} ns",
        t.elapsed().as_nanos() as f64 / (n * 10) as f64
    );
    let t = Instant::now();
    for _ in 0..n * 10 {
        let mut p = std::hint::black_box(&pos).clone();
        v.play(&mut p, &mv);
        std::hint::black_box(&p);
    }
    println!(
        "clone+play: {:.1} ns",
        t.elapsed().as_nanos() as f64 / (n * 10) as f64
    );
    let t = Instant::now();
    for _ in 0..n * 10 {
        std::hint::black_box(ending::ending(v, std::hint::black_box(&pos), &[]));
    }
    println!(
        "ending: {:.1} ns",
        t.elapsed().as_nanos() as f64 / (n * 10) as f64
    );
    let t = Instant::now();
    for _ in 0..n * 10 {
        std::hint::black_box(v.has_legal_move(std::hint::black_box(&pos)));
    }
    println!(
        "has_legal_move: {:.1} ns",
        t.elapsed().as_nanos() as f64 / (n * 10) as f64
    );
    let t = Instant::now();
    for _ in 0..n * 10 {
        let p = std::hint::black_box(&pos).clone();
        std::hint::black_box(&p);
    }
    println!(
        "clone: {:.1} ns",
        t.elapsed().as_nanos() as f64 / (n * 10) as f64
    );
}
#[allow(dead_code)]
fn unused() {}
