//! Make and unmake: `Position::make_move` followed by
//! `Position::unmake_move` for every legal move of each fixed position
//! (start and middlegame of every built-in variant, see
//! `kurier_bench::POSITIONS`). The moves are generated once, outside the
//! timed loop.
//!
//! Throughput is in make+unmake pairs per second.

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
    mut position: Position<B>,
) {
    let moves = position.legal_moves();
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function(BenchmarkId::from_parameter(fixture.id()), |b| {
        b.iter(|| {
            let mut keys = 0u64;
            for &legal in black_box(&moves) {
                position.make_move(legal);
                keys ^= position.key();
                position.unmake_move();
            }
            keys
        })
    });
}

fn make_unmake(c: &mut Criterion) {
    let mut group = c.benchmark_group("make_unmake");
    for fixture in POSITIONS {
        match load(fixture) {
            AnyPosition::Narrow(position) => bench_position(&mut group, fixture, *position),
            AnyPosition::Wide(position) => bench_position(&mut group, fixture, *position),
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
    targets = make_unmake
}
criterion_main!(benches);
