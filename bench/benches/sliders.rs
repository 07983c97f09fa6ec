//! Slider attacks in isolation: the two techniques of
//! `kurier_engine::board::sliders` (`ray_scan::line` and `obstruction::line`) at
//! both bitboard widths (`u128` on a 12x8 board, `U256` on 18x10), each over
//! the same 32 fixed pseudo-random occupancies and every square and line;
//! then rook attacks (both orthogonal lines) by each technique and by
//! `SliderTables::orthogonal`, which uses the technique `Bitboard::SLIDERS`
//! picks for the width, as the move generator calls it (its id names the
//! technique, e.g. `orthogonal/engine-RayScan`).
//!
//! Throughput is in line attacks (`line/*`) or rook attacks
//! (`orthogonal/*`) computed per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use kurier_bench::occupancies;
use kurier_engine::board::bitboard::{Bitboard, U256};
use kurier_engine::board::geometry::Geometry;
use kurier_engine::board::sliders::{obstruction, ray_scan, Line, SliderTables};
use kurier_engine::types::Square;

const LINES: [Line; 4] = [
    Line::Vertical,
    Line::Horizontal,
    Line::Diagonal,
    Line::AntiDiagonal,
];
const OCCUPANCIES: usize = 32;

/// Times `attacks` over every occupancy and square; `attacks` is a closure
/// (its own type), so the loop is monomorphised and the call inlined, as in
/// the engine.
fn bench_attacks<B: Bitboard, F: Fn(Square, B) -> B>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: BenchmarkId,
    occupied: &[B],
    squares: &[Square],
    attacks: F,
) {
    group.bench_function(id, |b| {
        b.iter(|| {
            let mut sum = B::EMPTY;
            for &occ in black_box(occupied) {
                for &square in squares {
                    sum ^= attacks(square, occ);
                }
            }
            sum
        })
    });
}

fn width<B: Bitboard>(c: &mut Criterion, name: &str, files: u8, ranks: u8) {
    let geometry = Geometry::<B>::new(files, ranks);
    let tables = SliderTables::new(&geometry);
    let occupied = occupancies::<B>(files, ranks, OCCUPANCIES);
    let squares: Vec<Square> = (0..geometry.squares())
        .map(|index| Square::new(index as u8))
        .collect();
    let tables = &tables;

    let mut group = c.benchmark_group(format!("sliders/{name}"));

    // One line at a time, all four lines.
    let elements = OCCUPANCIES * squares.len() * LINES.len();
    group.throughput(Throughput::Elements(elements as u64));
    bench_attacks(
        &mut group,
        BenchmarkId::new("line", "ray_scan"),
        &occupied,
        &squares,
        |square, occ| {
            LINES.iter().fold(B::EMPTY, |sum, &line| {
                sum ^ ray_scan::line(tables, square, line, occ)
            })
        },
    );
    bench_attacks(
        &mut group,
        BenchmarkId::new("line", "obstruction"),
        &occupied,
        &squares,
        |square, occ| {
            LINES.iter().fold(B::EMPTY, |sum, &line| {
                sum ^ obstruction::line(tables, square, line, occ)
            })
        },
    );

    // Rook attacks: both orthogonal lines, as the engine asks for them.
    group.throughput(Throughput::Elements((OCCUPANCIES * squares.len()) as u64));
    bench_attacks(
        &mut group,
        BenchmarkId::new("orthogonal", "ray_scan"),
        &occupied,
        &squares,
        |square, occ| {
            ray_scan::line(tables, square, Line::Vertical, occ)
                | ray_scan::line(tables, square, Line::Horizontal, occ)
        },
    );
    bench_attacks(
        &mut group,
        BenchmarkId::new("orthogonal", "obstruction"),
        &occupied,
        &squares,
        |square, occ| {
            obstruction::line(tables, square, Line::Vertical, occ)
                | obstruction::line(tables, square, Line::Horizontal, occ)
        },
    );
    bench_attacks(
        &mut group,
        BenchmarkId::new("orthogonal", format!("engine-{:?}", B::SLIDERS)),
        &occupied,
        &squares,
        |square, occ| tables.orthogonal(square, occ),
    );
    group.finish();
}

fn sliders(c: &mut Criterion) {
    width::<u128>(c, "u128-12x8", 12, 8);
    width::<U256>(c, "U256-18x10", 18, 10);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50);
    targets = sliders
}
criterion_main!(benches);
