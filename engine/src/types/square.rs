//! Squares: an index on a board of up to 256 squares, and square names.

/// The largest board the engine supports: 256 squares, at most 26 files
/// (one letter each) and 99 ranks.
pub const MAX_SQUARES: usize = 256;
/// The most files a board may have (files are letters `a` to `z`).
pub const MAX_FILES: u8 = 26;

/// A square index, `rank * files + file`, counted from White's a1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Square(u8);

impl Square {
    /// The square with the given index.
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        Square(index)
    }
    /// The square's index, for table lookups.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The index as a byte, for compact encodings.
    #[inline(always)]
    pub const fn byte(self) -> u8 {
        self.0
    }
}

/// Parses a square name at the start of `text` for a `files` x `ranks`
/// board: a file letter and a rank number without leading zero.
pub fn parse_square_prefix(text: &str, files: u8, ranks: u8) -> Option<(Square, &str)> {
    let bytes = text.as_bytes();
    let file = *bytes.first()?;
    if !file.is_ascii_lowercase() {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 2 || bytes[1] == b'0' {
        return None;
    }
    let rank: u8 = text[1..1 + digits].parse().ok()?;
    let file = file - b'a';
    if file >= files || rank == 0 || rank > ranks {
        return None;
    }
    let index = u16::from(rank - 1) * u16::from(files) + u16::from(file);
    Some((Square::new(index as u8), &text[1 + digits..]))
}
