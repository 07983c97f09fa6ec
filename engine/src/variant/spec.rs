//! The variant file as written: the TOML format of `data/variants/README.md`
//! key by key, before any check. [`crate::variant::definition::Variant::from_spec`]
//! checks it; the importers of other formats (`crate::import`) build one
//! and `kurier variant convert` writes it back out as TOML.

use serde::{Deserialize, Serialize};

/// A whole variant file.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VariantSpec {
    /// One word, e.g. `courier-moderno`.
    pub name: String,
    /// One line saying what the game is.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Board width.
    pub files: u8,
    /// Board height.
    pub ranks: u8,
    /// The start position's FEN.
    pub start: String,
    /// What a stalemated side gets.
    pub stalemate: StalemateResult,
    /// Whether a bared king loses.
    pub bare_king: bool,
    /// How the FEN rights field is written.
    #[serde(default, skip_serializing_if = "is_files")]
    pub rights: RightsNotation,
    /// The piece types, `[[pieces]]`.
    pub pieces: Vec<PieceSpec>,
    /// Where and to what pawns promote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promotion: Option<PromotionSpec>,
    /// Every castling move, `[[castling]]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub castling: Vec<CastlingSpec>,
}

/// One `[[pieces]]` table.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PieceSpec {
    /// One upper-case letter.
    pub letter: String,
    /// The piece's name.
    pub name: String,
    /// How it moves (`data/variants/README.md`, "Move notation").
    pub betza: String,
    /// Whether this is the king.
    #[serde(default, skip_serializing_if = "is_false")]
    pub royal: bool,
    /// Whether this is a pawn.
    #[serde(default, skip_serializing_if = "is_false")]
    pub pawn: bool,
    /// The rank on which its `i` moves apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_rank: Option<u8>,
}

/// The `[promotion]` table.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PromotionSpec {
    /// How many ranks at the far end promote.
    #[serde(default = "one")]
    pub ranks: u8,
    /// The letters a pawn may become.
    pub pieces: Vec<String>,
}

/// One `[[castling]]` table.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CastlingSpec {
    /// `white` or `black`.
    pub color: String,
    /// The king's square before.
    pub king: String,
    /// The king's square after.
    pub king_to: String,
    /// The partner's square before.
    pub partner: String,
    /// The partner's square after.
    pub partner_to: String,
    /// How SAN writes it.
    pub san: String,
    /// Whether the king keeps its first-move right on `king_to`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub keeps_right: bool,
}

impl VariantSpec {
    /// The file as TOML text, in the order of `data/variants/README.md`.
    pub fn to_toml(&self) -> String {
        // Every field is a string, number, boolean, table or array of
        // tables, with the plain values first: the TOML writer accepts it.
        toml::to_string(self).expect("a variant spec is plain TOML values before tables")
    }
}

fn one() -> u8 {
    1
}

fn is_false(value: &bool) -> bool {
    !value
}

fn is_files(rights: &RightsNotation) -> bool {
    *rights == RightsNotation::Files
}

/// What a stalemated side gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StalemateResult {
    /// The game is drawn.
    Draw,
    /// The stalemated side loses.
    Loss,
}

/// How the rights field of a FEN is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum RightsNotation {
    /// One file letter per piece that has never moved (upper case White).
    #[default]
    Files,
    /// `KQkq`, one letter per castling; file letters are read too.
    Kq,
}
