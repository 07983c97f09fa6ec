//! Ray scan: for each ray, find the first blocker with one bit-scan
//! (lowest bit for rays that increase the index, highest for the others)
//! and cut the ray behind it.

use super::{Line, SliderTables, POSITIVE_DIRECTIONS};
use crate::board::bitboard::Bitboard;
use crate::types::Square;

/// Attacks along one ray, up to and including the first blocker.
#[inline(always)]
pub fn ray<B: Bitboard>(
    tables: &SliderTables<B>,
    square: Square,
    direction: usize,
    occupied: B,
) -> B {
    let ray = tables.ray(square, direction);
    let blockers = ray & occupied;
    if blockers.is_empty() {
        return ray;
    }
    let first = if direction < POSITIVE_DIRECTIONS {
        blockers.lsb()
    } else {
        blockers.msb()
    };
    ray ^ tables.ray(first, direction)
}

/// Attacks along a line: its positive and negative rays.
#[inline(always)]
pub fn line<B: Bitboard>(tables: &SliderTables<B>, square: Square, line: Line, occupied: B) -> B {
    let positive = line as usize;
    ray(tables, square, positive, occupied)
        | ray(tables, square, positive + POSITIVE_DIRECTIONS, occupied)
}
