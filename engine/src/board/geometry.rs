//! The shape of a board: file and rank masks, masked shifts that never
//! wrap around an edge, and square names.

use crate::board::bitboard::Bitboard;
use crate::types::{parse_square_prefix, Color, Square, MAX_FILES, MAX_SQUARES};

/// The size of a board and the masks that every shift needs.
#[derive(Clone, Debug)]
pub struct Geometry<B> {
    files: u8,
    ranks: u8,
    /// File and rank of every square index (division by a run-time
    /// width is slow, and these are asked for in hot loops).
    file_of: [u8; MAX_SQUARES],
    rank_of: [u8; MAX_SQUARES],
    board: B,
    file_masks: Vec<B>,
    rank_masks: Vec<B>,
    /// `shift_sources[dx + MAX_FILES]`: squares that stay on the board
    /// when moved `dx` files sideways.
    shift_sources: Vec<B>,
}

impl<B: Bitboard> Geometry<B> {
    /// The geometry of a `files` x `ranks` board. The caller has checked
    /// that the board fits `B` and the limits above.
    pub fn new(files: u8, ranks: u8) -> Geometry<B> {
        debug_assert!(usize::from(files) * usize::from(ranks) <= B::BITS as usize);
        let squares = u16::from(files) * u16::from(ranks);
        let mut board = B::EMPTY;
        for index in 0..squares {
            board |= B::square(Square::new(index as u8));
        }
        let mut file_masks = vec![B::EMPTY; usize::from(files)];
        let mut rank_masks = vec![B::EMPTY; usize::from(ranks)];
        for index in 0..squares {
            let square = Square::new(index as u8);
            file_masks[usize::from(index as u8 % files)] |= B::square(square);
            rank_masks[usize::from(index as u8 / files)] |= B::square(square);
        }
        let width = i32::from(MAX_FILES);
        let shift_sources = (-width..=width)
            .map(|dx| {
                file_masks
                    .iter()
                    .enumerate()
                    .filter(|(file, _)| {
                        let target = *file as i32 + dx;
                        (0..i32::from(files)).contains(&target)
                    })
                    .fold(B::EMPTY, |acc, (_, mask)| acc | *mask)
            })
            .collect();
        let mut file_of = [0u8; MAX_SQUARES];
        let mut rank_of = [0u8; MAX_SQUARES];
        for index in 0..squares {
            file_of[usize::from(index)] = (index % u16::from(files)) as u8;
            rank_of[usize::from(index)] = (index / u16::from(files)) as u8;
        }
        Geometry {
            files,
            ranks,
            file_of,
            rank_of,
            board,
            file_masks,
            rank_masks,
            shift_sources,
        }
    }

    /// Number of files (columns).
    #[inline(always)]
    pub fn files(&self) -> u8 {
        self.files
    }
    /// Number of ranks (rows).
    #[inline(always)]
    pub fn ranks(&self) -> u8 {
        self.ranks
    }
    /// Number of squares.
    #[inline(always)]
    pub fn squares(&self) -> usize {
        usize::from(self.files) * usize::from(self.ranks)
    }
    /// Every square of the board.
    #[inline(always)]
    pub fn board(&self) -> B {
        self.board
    }
    /// The squares of file `file` (0 = `a`).
    #[inline(always)]
    pub fn file_mask(&self, file: u8) -> B {
        self.file_masks[usize::from(file)]
    }
    /// The squares of rank `rank` (0 = rank 1).
    #[inline(always)]
    pub fn rank_mask(&self, rank: u8) -> B {
        self.rank_masks[usize::from(rank)]
    }
    /// The file of a square (0 = `a`).
    #[inline(always)]
    pub fn file_of(&self, square: Square) -> u8 {
        self.file_of[square.index()]
    }
    /// The rank of a square (0 = rank 1).
    #[inline(always)]
    pub fn rank_of(&self, square: Square) -> u8 {
        self.rank_of[square.index()]
    }
    /// The rank of a square counted from `color`'s own side (0 = its first rank).
    #[inline(always)]
    pub fn relative_rank(&self, square: Square, color: Color) -> u8 {
        match color {
            Color::White => self.rank_of(square),
            Color::Black => self.ranks - 1 - self.rank_of(square),
        }
    }
    /// The index of `square` as seen from `color`'s side: the board
    /// turned half a turn for Black, so that tables indexed by it are the
    /// same for both colours of a reverse-symmetric army.
    #[inline(always)]
    pub fn relative_index(&self, square: Square, color: Color) -> usize {
        match color {
            Color::White => square.index(),
            Color::Black => self.squares() - 1 - square.index(),
        }
    }
    /// The square at `file`, `rank` (both from 0), if it is on the board.
    #[inline(always)]
    pub fn square_at(&self, file: i32, rank: i32) -> Option<Square> {
        if (0..i32::from(self.files)).contains(&file) && (0..i32::from(self.ranks)).contains(&rank)
        {
            Some(Square::new((rank * i32::from(self.files) + file) as u8))
        } else {
            None
        }
    }
    /// The square `dx` files and `dy` ranks away from `square`, if on the board.
    #[inline(always)]
    pub fn offset(&self, square: Square, dx: i32, dy: i32) -> Option<Square> {
        self.square_at(
            i32::from(self.file_of(square)) + dx,
            i32::from(self.rank_of(square)) + dy,
        )
    }
    /// Every square of `set` moved `dx` files and `dy` ranks; squares that
    /// would leave the board drop out (no wrap around an edge).
    #[inline(always)]
    pub fn shift(&self, set: B, dx: i32, dy: i32) -> B {
        let sources = self.shift_sources[(dx + i32::from(MAX_FILES)) as usize];
        let kept = set & sources;
        let delta = dy * i32::from(self.files) + dx;
        let moved = if delta >= 0 {
            kept << delta as u32
        } else {
            kept >> (-delta) as u32
        };
        moved & self.board
    }
    /// The name of a square, e.g. `e4`, `r10`.
    pub fn square_name(&self, square: Square) -> String {
        format!(
            "{}{}",
            char::from(b'a' + self.file_of(square)),
            self.rank_of(square) + 1
        )
    }
    /// Parses a square name such as `e4` or `r10`.
    pub fn parse_square(&self, text: &str) -> Option<Square> {
        let (square, rest) = self.parse_square_prefix(text)?;
        rest.is_empty().then_some(square)
    }
    /// Parses a square name at the start of `text`, returning the square
    /// and what follows it (for fields that run squares together, such as
    /// `e4e5` or `e7e8q`).
    pub fn parse_square_prefix<'t>(&self, text: &'t str) -> Option<(Square, &'t str)> {
        parse_square_prefix(text, self.files, self.ranks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_never_wrap() {
        let geometry = Geometry::<u128>::new(12, 8);
        let a1 = geometry.parse_square("a1").unwrap();
        let l1 = geometry.parse_square("l1").unwrap();
        let set = u128::square(a1) | u128::square(l1);
        // One file left: a1 falls off, l1 becomes k1.
        assert_eq!(
            geometry.shift(set, -1, 0),
            u128::square(geometry.parse_square("k1").unwrap())
        );
        // One up and right: l1 falls off, a1 becomes b2.
        assert_eq!(
            geometry.shift(set, 1, 1),
            u128::square(geometry.parse_square("b2").unwrap())
        );
        // Down: both fall off.
        assert_eq!(geometry.shift(set, 0, -1), 0);
    }

    #[test]
    fn square_names_round_trip() {
        let geometry = Geometry::<crate::board::bitboard::U256>::new(18, 10);
        for index in 0..180u8 {
            let square = Square::new(index);
            let name = geometry.square_name(square);
            assert_eq!(geometry.parse_square(&name), Some(square), "{name}");
        }
        assert_eq!(geometry.square_name(Square::new(179)), "r10");
        for bad in ["", "a", "a0", "s1", "a11", "A1", "a01", "a1x", "1a"] {
            assert_eq!(geometry.parse_square(bad), None, "{bad:?}");
        }
    }
}
