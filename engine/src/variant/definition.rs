//! Variants as data: the TOML variant file, checked and turned into a
//! [`Variant`] description. The five built-in variants are embedded.
//!
//! The format is documented with a worked example in
//! `data/variants/README.md`.

use std::fmt;
use std::path::Path;

use crate::types::{parse_square_prefix, Color, MAX_FILES, MAX_SQUARES};
use crate::variant::betza::{self, MovePart};
use crate::variant::spec::{RightsNotation, StalemateResult, VariantSpec};

/// The most piece types a variant may have (a piece code keeps the type
/// in four bits).
pub const MAX_PIECE_TYPES: usize = 16;

/// The built-in variants: name and variant file text.
pub const BUILT_IN: [(&str, &str); 5] = [
    ("chess", include_str!("../../../data/variants/chess.toml")),
    (
        "courier",
        include_str!("../../../data/variants/courier.toml"),
    ),
    (
        "courier-moderno",
        include_str!("../../../data/variants/courier-moderno.toml"),
    ),
    (
        "enhanced-courier",
        include_str!("../../../data/variants/enhanced-courier.toml"),
    ),
    ("excoco", include_str!("../../../data/variants/excoco.toml")),
];

/// A piece type of a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceType {
    /// Upper-case letter (White's in FEN; Black's is the lower case).
    pub letter: char,
    /// Name, e.g. `gryphon`.
    pub name: String,
    /// The move description as written in the file.
    pub betza: String,
    /// The parsed move parts.
    pub parts: Vec<MovePart>,
    /// Whether this is the king.
    pub royal: bool,
    /// Whether this is a pawn: it promotes, its multi-steps leave
    /// en-passant squares, and it captures en passant.
    pub pawn: bool,
    /// The rank (1 = the side's own first rank) on which `i` moves are
    /// allowed; when absent, `i` moves need the piece's first-move right.
    pub initial_rank: Option<u8>,
}

/// One castling move: the king's and the partner's squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Castling {
    /// Whose castling.
    pub color: Color,
    /// The king's square before (index).
    pub king_from: u8,
    /// The king's square after.
    pub king_to: u8,
    /// The partner's square before.
    pub partner_from: u8,
    /// The partner's square after.
    pub partner_to: u8,
    /// SAN, e.g. `O-O` or `O-O-Oc`.
    pub san: String,
    /// Whether the king keeps its first-move right on its new square (for
    /// ExCoCo's re-castling).
    pub keeps_right: bool,
}

/// A variant: board, pieces, and rules, checked for consistency.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Name, e.g. `courier-moderno`.
    pub name: String,
    /// One line saying what the variant is.
    pub description: String,
    /// Files (columns), 1 to 26.
    pub files: u8,
    /// Ranks (rows).
    pub ranks: u8,
    /// The start position's FEN.
    pub start: String,
    /// The piece types; index = type number.
    pub pieces: Vec<PieceType>,
    /// What a stalemated side gets.
    pub stalemate: StalemateResult,
    /// Whether a bared king loses (see docs/RULES.md).
    pub bare_king: bool,
    /// How the FEN rights field is written.
    pub rights_notation: RightsNotation,
    /// How many ranks at the far end promote a pawn.
    pub promotion_ranks: u8,
    /// The types a pawn may promote to.
    pub promotion_types: Vec<usize>,
    /// Every castling move of both colours.
    pub castlings: Vec<Castling>,
}

/// What is wrong with a variant file: the key and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError {
    /// Where: a file path or variant name.
    pub source: String,
    /// The key, e.g. `pieces[2].betza`, or `syntax` for a TOML error.
    pub key: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "variant file {}: {}: {}",
            self.source, self.key, self.message
        )
    }
}

impl std::error::Error for VariantError {}

impl Variant {
    /// A built-in variant by name.
    pub fn built_in(name: &str) -> Result<Variant, VariantError> {
        let (_, text) = BUILT_IN
            .iter()
            .find(|(built_in, _)| *built_in == name)
            .ok_or_else(|| VariantError {
                source: name.to_string(),
                key: "name".into(),
                message: format!(
                    "no built-in variant '{name}' (known: {})",
                    Variant::built_in_names().join(", ")
                ),
            })?;
        Variant::from_toml(text, &format!("built-in {name}"))
    }

    /// The names of the built-in variants.
    pub fn built_in_names() -> Vec<&'static str> {
        BUILT_IN.iter().map(|(name, _)| *name).collect()
    }

    /// Reads a variant file.
    pub fn from_file(path: &Path) -> Result<Variant, VariantError> {
        let source = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|error| VariantError {
            source: source.clone(),
            key: "file".into(),
            message: format!("cannot read it: {error}"),
        })?;
        Variant::from_toml(&text, &source)
    }

    /// Parses and checks a variant file's text; `source` names it in errors.
    pub fn from_toml(text: &str, source: &str) -> Result<Variant, VariantError> {
        Variant::from_spec(parse_spec(text, source)?, source)
    }

    /// Checks a variant description (a variant file as read, or as an
    /// importer built it); `source` names it in errors.
    pub fn from_spec(raw: VariantSpec, source: &str) -> Result<Variant, VariantError> {
        let error = |key: &str, message: String| VariantError {
            source: source.to_string(),
            key: key.to_string(),
            message,
        };
        if raw.files == 0 || raw.files > MAX_FILES {
            return Err(error(
                "files",
                format!("must be 1 to {MAX_FILES}, not {}", raw.files),
            ));
        }
        if raw.ranks == 0 || raw.ranks > 99 {
            return Err(error(
                "ranks",
                format!("must be 1 to 99, not {}", raw.ranks),
            ));
        }
        let squares = usize::from(raw.files) * usize::from(raw.ranks);
        if squares > MAX_SQUARES {
            return Err(error(
                "ranks",
                format!("the board has {squares} squares; at most {MAX_SQUARES} are supported"),
            ));
        }
        if raw.pieces.is_empty() || raw.pieces.len() > MAX_PIECE_TYPES {
            return Err(error(
                "pieces",
                format!(
                    "there must be 1 to {MAX_PIECE_TYPES} piece types, not {}",
                    raw.pieces.len()
                ),
            ));
        }
        let mut pieces = Vec::new();
        for (index, piece) in raw.pieces.iter().enumerate() {
            let key = |field: &str| format!("pieces[{index}].{field}");
            let mut chars = piece.letter.chars();
            let letter = match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_uppercase() => c,
                _ => {
                    return Err(error(
                        &key("letter"),
                        format!("must be one upper-case letter A-Z, not {:?}", piece.letter),
                    ))
                }
            };
            if pieces.iter().any(|p: &PieceType| p.letter == letter) {
                return Err(error(
                    &key("letter"),
                    format!("'{letter}' is used by two piece types"),
                ));
            }
            let parts = betza::parse(&piece.betza)
                .map_err(|e| error(&key("betza"), format!("{:?} {e}", piece.betza)))?;
            if let Some(rank) = piece.initial_rank {
                if rank == 0 || rank > raw.ranks {
                    return Err(error(
                        &key("initial_rank"),
                        format!("must be 1 to {}, not {rank}", raw.ranks),
                    ));
                }
            }
            if piece.royal && piece.pawn {
                return Err(error(
                    &key("pawn"),
                    "a piece cannot be both royal and a pawn".into(),
                ));
            }
            pieces.push(PieceType {
                letter,
                name: piece.name.clone(),
                betza: piece.betza.clone(),
                parts,
                royal: piece.royal,
                pawn: piece.pawn,
                initial_rank: piece.initial_rank,
            });
        }
        match pieces.iter().filter(|p| p.royal).count() {
            1 => {}
            n => {
                return Err(error(
                    "pieces",
                    format!("exactly one piece type must be royal (the king), not {n}"),
                ))
            }
        }
        let type_of = |letter: &str, key: &str| -> Result<usize, VariantError> {
            pieces
                .iter()
                .position(|p| p.letter.to_string() == letter)
                .ok_or_else(|| error(key, format!("'{letter}' is not the letter of a piece type")))
        };
        let has_pawns = pieces.iter().any(|p| p.pawn);
        let (promotion_ranks, promotion_types) = match &raw.promotion {
            None if has_pawns => {
                return Err(error(
                    "promotion",
                    "a variant with pawns needs a [promotion] table".into(),
                ))
            }
            None => (0, Vec::new()),
            Some(promotion) => {
                if raw.ranks < 2 {
                    return Err(error(
                        "promotion",
                        "a board of one rank leaves no room to promote".into(),
                    ));
                }
                if promotion.ranks == 0 || promotion.ranks >= raw.ranks {
                    return Err(error(
                        "promotion.ranks",
                        format!("must be 1 to {}, not {}", raw.ranks - 1, promotion.ranks),
                    ));
                }
                if promotion.pieces.is_empty() {
                    return Err(error(
                        "promotion.pieces",
                        "name at least one piece letter".into(),
                    ));
                }
                let mut types = Vec::new();
                for (index, letter) in promotion.pieces.iter().enumerate() {
                    let key = format!("promotion.pieces[{index}]");
                    let piece_type = type_of(letter, &key)?;
                    if pieces[piece_type].royal {
                        return Err(error(&key, "a pawn cannot promote to the king".into()));
                    }
                    if pieces[piece_type].pawn {
                        return Err(error(&key, "a pawn cannot promote to a pawn".into()));
                    }
                    if types.contains(&piece_type) {
                        return Err(error(&key, format!("'{letter}' is listed twice")));
                    }
                    types.push(piece_type);
                }
                (promotion.ranks, types)
            }
        };
        let square = |name: &str, key: &str| -> Result<u8, VariantError> {
            parse_square_name(name, raw.files, raw.ranks).ok_or_else(|| {
                error(
                    key,
                    format!(
                        "'{name}' is not a square of a {}x{} board",
                        raw.files, raw.ranks
                    ),
                )
            })
        };
        let mut castlings = Vec::new();
        for (index, castling) in raw.castling.iter().enumerate() {
            let key = |field: &str| format!("castling[{index}].{field}");
            let color = match castling.color.as_str() {
                "white" => Color::White,
                "black" => Color::Black,
                other => {
                    return Err(error(
                        &key("color"),
                        format!("must be \"white\" or \"black\", not {other:?}"),
                    ))
                }
            };
            let back_rank = match color {
                Color::White => 0,
                Color::Black => raw.ranks - 1,
            };
            let mut squares = [0u8; 4];
            for (slot, (field, name)) in [
                ("king", &castling.king),
                ("king_to", &castling.king_to),
                ("partner", &castling.partner),
                ("partner_to", &castling.partner_to),
            ]
            .into_iter()
            .enumerate()
            {
                let index = square(name, &key(field))?;
                if index / raw.files != back_rank {
                    return Err(error(
                        &key(field),
                        format!("{name} is not on {color}'s back rank"),
                    ));
                }
                squares[slot] = index;
            }
            let [king_from, king_to, partner_from, partner_to] = squares;
            if king_from == king_to
                || king_from == partner_from
                || partner_from == partner_to
                || king_to == partner_to
            {
                return Err(error(
                    &key("king"),
                    "the four squares must be two different moves of two pieces".into(),
                ));
            }
            if castling.san.is_empty() {
                return Err(error(&key("san"), "must not be empty".into()));
            }
            castlings.push(Castling {
                color,
                king_from,
                king_to,
                partner_from,
                partner_to,
                san: castling.san.clone(),
                keeps_right: castling.keeps_right,
            });
        }
        for (index, castling) in castlings.iter().enumerate() {
            let twin = castlings[..index].iter().any(|c| {
                c.color == castling.color
                    && c.king_from == castling.king_from
                    && c.king_to == castling.king_to
            });
            if twin {
                return Err(error(
                    &format!("castling[{index}]"),
                    "the same king move is given twice".into(),
                ));
            }
        }
        if raw.rights == RightsNotation::Kq {
            for color in Color::BOTH {
                for king_side in [true, false] {
                    let count = castlings
                        .iter()
                        .filter(|c| {
                            c.color == color
                                && (c.partner_from % raw.files > c.king_from % raw.files)
                                    == king_side
                        })
                        .count();
                    if count > 1 {
                        return Err(error(
                            "rights",
                            format!("\"kq\" rights notation allows one castling per wing; {color} has {count} on one wing"),
                        ));
                    }
                }
            }
            if let Some(piece) = pieces
                .iter()
                .find(|p| p.initial_rank.is_none() && p.parts.iter().any(|part| part.initial))
            {
                return Err(error(
                    "rights",
                    format!("\"kq\" rights notation cannot write the first-move right of the {} (its `i` moves); use \"files\"", piece.name),
                ));
            }
        }
        if raw.name.is_empty() || raw.name.contains(char::is_whitespace) {
            return Err(error(
                "name",
                format!("must be one word, not {:?}", raw.name),
            ));
        }
        Ok(Variant {
            name: raw.name,
            description: raw.description,
            files: raw.files,
            ranks: raw.ranks,
            start: raw.start,
            pieces,
            stalemate: raw.stalemate,
            bare_king: raw.bare_king,
            rights_notation: raw.rights,
            promotion_ranks,
            promotion_types,
            castlings,
        })
    }

    /// The index of the royal piece type.
    pub fn king_type(&self) -> usize {
        // Checked at load: exactly one type is royal.
        self.pieces.iter().position(|p| p.royal).unwrap_or(0)
    }

    /// The type with a given upper-case letter.
    pub fn type_of_letter(&self, letter: char) -> Option<usize> {
        self.pieces.iter().position(|p| p.letter == letter)
    }
}

/// Reads a TOML variant file's text into its keys, unchecked; `source`
/// names it in errors (key `syntax`).
pub fn parse_spec(text: &str, source: &str) -> Result<VariantSpec, VariantError> {
    toml::from_str(text).map_err(|e| VariantError {
        source: source.to_string(),
        key: "syntax".into(),
        message: e.to_string().trim_end().replace('\n', " "),
    })
}

/// Parses a whole square name on a `files` x `ranks` board into its index.
fn parse_square_name(name: &str, files: u8, ranks: u8) -> Option<u8> {
    match parse_square_prefix(name, files, ranks)? {
        (square, "") => Some(square.byte()),
        _ => None,
    }
}
