//! Obstruction difference (Michael Hoffmann): with `lower` and `upper` the
//! blockers below and above the square on a line, the attacked squares
//! run from the highest lower blocker to the lowest upper blocker. With
//! `ms1b` all bits from the highest lower blocker up, `ms1b + 2 * ls1b`
//! sets exactly that span, so one addition replaces two scans.

use super::{Line, SliderTables, POSITIVE_DIRECTIONS};
use crate::board::bitboard::Bitboard;
use crate::types::Square;

/// Attacks along a line through `square`.
#[inline(always)]
pub fn line<B: Bitboard>(tables: &SliderTables<B>, square: Square, line: Line, occupied: B) -> B {
    let upper_mask = tables.ray(square, line as usize);
    let lower_mask = tables.ray(square, line as usize + POSITIVE_DIRECTIONS);
    let lower = lower_mask & occupied;
    let upper = upper_mask & occupied;
    // Bit 0 stands in for "no lower blocker": the span then starts at 0.
    let from_lower = B::ones_from((lower | B::square(Square::new(0))).msb());
    let lowest_upper = upper.lowest_bit();
    let span = from_lower.wrapping_add(lowest_upper.wrapping_add(lowest_upper));
    span & (upper_mask | lower_mask)
}
