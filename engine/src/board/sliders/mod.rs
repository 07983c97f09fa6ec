//! Slider attacks: precomputed rays per square and direction, and two
//! techniques that turn them into attack sets for a given occupancy.
//!
//! - [`ray_scan`]: one bit-scan per ray (the classical approach).
//! - [`obstruction`]: one subtraction per line, after Hoffmann's
//!   *obstruction difference*.
//!
//! Both are benchmarked in `bench/` and the faster one per bitboard width
//! is chosen by [`Bitboard::SLIDERS`]; tests check that they agree.

pub mod obstruction;
pub mod ray_scan;

use crate::board::bitboard::{Bitboard, SliderTechnique};
use crate::board::geometry::Geometry;
use crate::types::Square;

/// The eight directions, as (files, ranks) steps. The first four increase
/// the square index ("positive"), the last four are their opposites.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
];

/// Directions 0..4 increase the index; `d + 4` is the opposite of `d`.
pub const POSITIVE_DIRECTIONS: usize = 4;

/// A line through a square: two opposite directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// North and south.
    Vertical = 0,
    /// East and west.
    Horizontal = 1,
    /// North-east and south-west.
    Diagonal = 2,
    /// North-west and south-east.
    AntiDiagonal = 3,
}

/// Rays from every square in every direction, and the squares between
/// any two aligned squares.
#[derive(Clone, Debug)]
pub struct SliderTables<B> {
    rays: Vec<[B; 8]>,
    between: Vec<B>,
    squares: usize,
}

impl<B: Bitboard> SliderTables<B> {
    /// Builds the tables for a board.
    pub fn new(geometry: &Geometry<B>) -> SliderTables<B> {
        let squares = geometry.squares();
        let mut rays = vec![[B::EMPTY; 8]; squares];
        for (index, square_rays) in rays.iter_mut().enumerate() {
            let square = Square::new(index as u8);
            for (direction, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                let mut current = square;
                while let Some(next) = geometry.offset(current, dx, dy) {
                    square_rays[direction] |= B::square(next);
                    current = next;
                }
            }
        }
        let mut between = vec![B::EMPTY; squares * squares];
        for (from, from_rays) in rays.iter().enumerate() {
            for (direction, &ray) in from_rays.iter().enumerate() {
                for to in ray.squares() {
                    between[from * squares + to.index()] =
                        ray ^ rays[to.index()][direction] ^ B::square(to);
                }
            }
        }
        SliderTables {
            rays,
            between,
            squares,
        }
    }

    /// The ray from `square` in direction `direction` (0..8) on an empty board.
    #[inline(always)]
    pub fn ray(&self, square: Square, direction: usize) -> B {
        self.rays[square.index()][direction]
    }

    /// The squares strictly between two squares on a common line; empty
    /// when they are not aligned or adjacent.
    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> B {
        self.between[a.index() * self.squares + b.index()]
    }

    /// Attacks along one ray: every square up to and including the first
    /// occupied one.
    #[inline(always)]
    pub fn ray_attacks(&self, square: Square, direction: usize, occupied: B) -> B {
        ray_scan::ray(self, square, direction, occupied)
    }

    /// Attacks along a line (both its directions), by the width's technique.
    #[inline(always)]
    pub fn line_attacks(&self, square: Square, line: Line, occupied: B) -> B {
        match B::SLIDERS {
            SliderTechnique::RayScan => ray_scan::line(self, square, line, occupied),
            SliderTechnique::ObstructionDifference => {
                obstruction::line(self, square, line, occupied)
            }
        }
    }

    /// Rook attacks: both orthogonal lines.
    #[inline(always)]
    pub fn orthogonal(&self, square: Square, occupied: B) -> B {
        self.line_attacks(square, Line::Vertical, occupied)
            | self.line_attacks(square, Line::Horizontal, occupied)
    }

    /// Bishop attacks: both diagonal lines.
    #[inline(always)]
    pub fn diagonal(&self, square: Square, occupied: B) -> B {
        self.line_attacks(square, Line::Diagonal, occupied)
            | self.line_attacks(square, Line::AntiDiagonal, occupied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bitboard::U256;

    /// Slides square by square: the obvious way, to check both techniques.
    fn naive_line<B: Bitboard>(
        geometry: &Geometry<B>,
        square: Square,
        line: Line,
        occupied: B,
    ) -> B {
        let mut attacks = B::EMPTY;
        for direction in [line as usize, line as usize + POSITIVE_DIRECTIONS] {
            let (dx, dy) = DIRECTIONS[direction];
            let mut current = square;
            while let Some(next) = geometry.offset(current, dx, dy) {
                attacks |= B::square(next);
                if occupied.has(next) {
                    break;
                }
                current = next;
            }
        }
        attacks
    }

    fn check_width<B: Bitboard>(files: u8, ranks: u8) {
        let geometry = Geometry::<B>::new(files, ranks);
        let tables = SliderTables::new(&geometry);
        // A fixed pseudo-random sequence of occupancies.
        let mut next = crate::board::test_random(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200 {
            let mut occupied = B::EMPTY;
            for index in 0..geometry.squares() {
                if next() % 4 == 0 {
                    occupied |= B::square(Square::new(index as u8));
                }
            }
            for index in 0..geometry.squares() {
                let square = Square::new(index as u8);
                for line in [
                    Line::Vertical,
                    Line::Horizontal,
                    Line::Diagonal,
                    Line::AntiDiagonal,
                ] {
                    let expected = naive_line(&geometry, square, line, occupied);
                    assert_eq!(ray_scan::line(&tables, square, line, occupied), expected);
                    assert_eq!(obstruction::line(&tables, square, line, occupied), expected);
                }
            }
        }
    }

    #[test]
    fn both_techniques_agree_with_a_naive_slide() {
        check_width::<u128>(8, 8);
        check_width::<u128>(12, 8);
        check_width::<U256>(18, 10);
        check_width::<U256>(16, 16);
    }

    #[test]
    fn between_squares() {
        let geometry = Geometry::<u128>::new(12, 8);
        let tables = SliderTables::new(&geometry);
        let sq = |name| geometry.parse_square(name).unwrap();
        let expected = u128::square(sq("b1")) | u128::square(sq("c1")) | u128::square(sq("d1"));
        assert_eq!(tables.between(sq("a1"), sq("e1")), expected);
        assert_eq!(tables.between(sq("e1"), sq("a1")), expected);
        assert_eq!(tables.between(sq("a1"), sq("c3")), u128::square(sq("b2")));
        assert_eq!(tables.between(sq("a1"), sq("b3")), 0);
        assert_eq!(tables.between(sq("a1"), sq("b2")), 0);
    }
}
