//! Perft 3 from the start position of courier (18,406 leaves) and excoco
//! (992,557 leaves): the whole move generator (legal generation,
//! make/unmake, bulk counting at the last ply), as `kurier perft` runs it.
//! Small sample size: one excoco iteration takes tens of milliseconds.
//!
//! Throughput is in leaf nodes per second.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::perft::perft;
use kurier_engine::position::state::Position;
use kurier_engine::with_game;

const DEPTH: u32 = 3;

fn perft_start(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (variant, leaves) in [("courier", 18_406u64), ("excoco", 992_557)] {
        let game = AnyGame::built_in(variant).expect("built-in variant");
        with_game!(&game, g => {
            let mut position = Position::startpos(g.clone());
            assert_eq!(perft(&mut position, DEPTH), leaves, "{variant} perft {DEPTH}");
            group.throughput(Throughput::Elements(leaves));
            group.bench_function(BenchmarkId::new(format!("depth{DEPTH}"), variant), |b| {
                b.iter(|| perft(&mut position, DEPTH))
            });
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = perft_start
}
criterion_main!(benches);
