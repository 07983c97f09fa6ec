//! The placement field of a FEN (which piece stands where), and the
//! errors of reading a FEN, field by field.

use std::fmt;

use crate::types::Color;
use crate::variant::definition::Variant;

/// The FEN field a problem is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenField {
    /// The number of fields.
    Fields,
    /// Piece placement.
    Placement,
    /// Side to move.
    Side,
    /// First-move rights.
    Rights,
    /// En-passant squares.
    EnPassant,
    /// Halfmove clock.
    Halfmove,
    /// Fullmove number.
    Fullmove,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Fields => "fields",
            FenField::Placement => "placement",
            FenField::Side => "side to move",
            FenField::Rights => "rights",
            FenField::EnPassant => "en passant",
            FenField::Halfmove => "halfmove clock",
            FenField::Fullmove => "fullmove number",
        })
    }
}

/// What is wrong with a FEN: the field and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// The field.
    pub field: FenField,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN ({} field): {}", self.field, self.message)
    }
}

impl std::error::Error for FenError {}

pub(crate) fn fail<T>(field: FenField, message: String) -> Result<T, FenError> {
    Err(FenError { field, message })
}

/// Reads the placement field into one entry per square (index
/// `rank * files + file`): the colour and type there, if any.
pub fn parse_placement(
    variant: &Variant,
    text: &str,
) -> Result<Vec<Option<(Color, usize)>>, FenError> {
    let files = usize::from(variant.files);
    let ranks = usize::from(variant.ranks);
    let mut board = vec![None; files * ranks];
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != ranks {
        return fail(
            FenField::Placement,
            format!("{} ranks given, {} has {ranks}", rows.len(), variant.name),
        );
    }
    for (row_index, row) in rows.iter().enumerate() {
        let rank = ranks - 1 - row_index;
        let rank_name = rank + 1;
        let mut file = 0usize;
        let mut chars = row.char_indices().peekable();
        if row.is_empty() {
            return fail(FenField::Placement, format!("rank {rank_name} is empty"));
        }
        while let Some((at, c)) = chars.next() {
            if c.is_ascii_digit() {
                let mut end = at + 1;
                while let Some(&(next_at, next)) = chars.peek() {
                    if !next.is_ascii_digit() {
                        break;
                    }
                    end = next_at + 1;
                    chars.next();
                }
                let run = &row[at..end];
                let count: usize = match run.parse() {
                    Ok(n) if n > 0 && !run.starts_with('0') => n,
                    _ => {
                        return fail(
                            FenField::Placement,
                            format!("rank {rank_name}: '{run}' is not a run of empty squares"),
                        )
                    }
                };
                file += count;
            } else {
                let Some(piece_type) = variant.type_of_letter(c.to_ascii_uppercase()) else {
                    return fail(
                        FenField::Placement,
                        format!("rank {rank_name}: '{c}' is not a piece of {}", variant.name),
                    );
                };
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                if file < files {
                    board[rank * files + file] = Some((color, piece_type));
                }
                file += 1;
            }
            if file > files {
                break;
            }
        }
        if file != files {
            return fail(
                FenField::Placement,
                format!(
                    "rank {rank_name} has {}{file} squares, the board has {files} files",
                    if file > files { "at least " } else { "" }
                ),
            );
        }
    }
    Ok(board)
}
