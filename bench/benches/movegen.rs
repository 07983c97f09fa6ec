//! Legal move generation on fixed positions: the start position and one
//! middlegame position of every built-in variant (see `kurier_bench::POSITIONS`).
//! Measures `Position::legal_moves` (moves collected into a new `Vec`) and
//! `Position::count_legal_moves` (moves only counted, as perft's last ply).
//!
//! Throughput is in legal moves generated per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use kurier_bench::{load, AnyPosition, BenchPosition, POSITIONS};
use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::state::Position;

fn bench_position<B: Bitboard>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    fixture: &BenchPosition,
    position: &Position<B>,
) {
    group.throughput(Throughput::Elements(fixture.legal_moves));
    group.bench_function(BenchmarkId::new("legal_moves", fixture.id()), |b| {
        b.iter(|| black_box(position).legal_moves())
    });
    group.bench_function(BenchmarkId::new("count_legal_moves", fixture.id()), |b| {
        b.iter(|| black_box(position).count_legal_moves())
    });
}

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    for fixture in POSITIONS {
        match load(fixture) {
            AnyPosition::Narrow(position) => bench_position(&mut group, fixture, &position),
            AnyPosition::Wide(position) => bench_position(&mut group, fixture, &position),
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50);
    targets = movegen
}
criterion_main!(benches);
