//! A deliberately simple reference move generator for the five variants,
//! written only from `docs/RULES.md`, as the second opinion in differential
//! tests against the engine.
//!
//! Plain arrays (`Vec<Option<(Color, char)>>` indexed by
//! `rank * files + file`), rules hard-coded per variant, legality by making
//! the move on a copy and asking whether the mover's king is attacked.
//! Clarity over speed.

mod fen;
mod movegen;
mod variant;

use variant::Variant;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Upper-case pieces, moves first, starts on rank 1.
    White,
    /// Lower-case pieces, starts on the last rank.
    Black,
}

impl Color {
    /// The other side.
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// +1 for White (up the board), -1 for Black.
    fn forward(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

/// A position of one of the five variants, with its rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPosition {
    variant: Variant,
    /// `rank * files + file`; the piece letter is always upper case.
    board: Vec<Option<(Color, char)>>,
    side: Color,
    /// Per square: the piece standing there still holds its first-move
    /// right (castling, Moderno elephant leap, ExCoCo re-castling).
    rights: Vec<bool>,
    /// The squares the last move's pawn multi-step passed over, in the
    /// order passed; empty if the last move was no multi-step.
    ep: Vec<usize>,
    halfmove: u32,
    fullmove: u32,
}

impl RefPosition {
    /// Parses a FEN of the named variant. Err(String) saying what is wrong.
    pub fn from_fen(variant: &str, fen: &str) -> Result<RefPosition, String> {
        let v = Variant::from_name(variant)?;
        RefPosition::parse_fen(v, fen)
    }

    /// The start position of the variant (the FENs in docs/RULES.md).
    pub fn startpos(variant: &str) -> Result<RefPosition, String> {
        let v = Variant::from_name(variant)?;
        RefPosition::parse_fen(v, v.start_fen())
    }

    /// Writes the FEN exactly in the docs/RULES.md conventions.
    pub fn to_fen(&self) -> String {
        self.write_fen()
    }

    /// Every legal move in UCI notation (e.g. "e2e4", "e7e8q", "f1c1" for
    /// castling as the king's move, "g7g8f"). Order irrelevant.
    pub fn legal_moves(&self) -> Vec<String> {
        self.legal_children()
            .iter()
            .map(|(mv, _)| self.uci(mv))
            .collect()
    }

    /// The position after the given legal UCI move; Err if it is not legal.
    pub fn play(&self, uci: &str) -> Result<RefPosition, String> {
        self.legal_children()
            .into_iter()
            .find(|(mv, _)| self.uci(mv) == uci)
            .map(|(_, child)| child)
            .ok_or_else(|| format!("'{uci}' is not a legal move in {}", self.to_fen()))
    }

    /// Number of files of the board.
    fn files(&self) -> usize {
        self.variant.files()
    }

    /// Number of ranks of the board.
    fn ranks(&self) -> usize {
        self.variant.ranks()
    }

    /// The square index of (file, rank), both 0-based.
    fn sq(&self, file: usize, rank: usize) -> usize {
        rank * self.files() + file
    }

    /// The square `(df, dr)` away from `s`, if it is on the board.
    fn offset(&self, s: usize, df: i32, dr: i32) -> Option<usize> {
        let f = (s % self.files()) as i32 + df;
        let r = (s / self.files()) as i32 + dr;
        if f < 0 || r < 0 || f >= self.files() as i32 || r >= self.ranks() as i32 {
            None
        } else {
            Some(self.sq(f as usize, r as usize))
        }
    }

    /// The 0-based back rank of a side.
    fn back_rank(&self, c: Color) -> usize {
        match c {
            Color::White => 0,
            Color::Black => self.ranks() - 1,
        }
    }

    /// A square's name, e.g. `e4`, `r10`.
    fn square_name(&self, s: usize) -> String {
        let f = (s % self.files()) as u8;
        format!("{}{}", (b'a' + f) as char, s / self.files() + 1)
    }
}

/// Perft: leaf count of legal move tree to `depth` (depth 0 = 1).
pub fn perft(pos: &RefPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let children = pos.legal_children();
    if depth == 1 {
        return children.len() as u64;
    }
    children
        .iter()
        .map(|(_, child)| perft(child, depth - 1))
        .sum()
}
