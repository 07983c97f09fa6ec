//! The variants the board offers: the built-in ones and variant files
//! loaded by the page, each compiled once, and the description the page
//! draws boards and glyphs from.

use kurier_engine::variant::betza::{Motion, MovePart};
use std::path::Path;

use kurier_engine::import::{self, Format};
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::variant::definition::{PieceType, Variant};
use serde::Serialize;

/// The most variant files a server keeps loaded; a file loaded again
/// under the same name replaces the earlier one.
pub const MAX_LOADED_VARIANTS: usize = 64;

/// A compiled variant and whether it is built in.
struct Entry {
    game: AnyGame,
    built_in: bool,
}

/// The variants on offer.
pub struct VariantRegistry {
    entries: Vec<Entry>,
}

impl VariantRegistry {
    /// The built-in variants, compiled.
    pub fn new() -> VariantRegistry {
        let entries = Variant::built_in_names()
            .into_iter()
            .map(|name| Entry {
                game: AnyGame::built_in(name)
                    .unwrap_or_else(|e| unreachable!("built-in variants compile: {e}")),
                built_in: true,
            })
            .collect();
        VariantRegistry { entries }
    }

    /// The variant called `name`.
    pub fn get(&self, name: &str) -> Result<AnyGame, String> {
        self.entries
            .iter()
            .find(|entry| entry.game.variant().name == name)
            .map(|entry| entry.game.clone())
            .ok_or_else(|| {
                let known: Vec<&str> = self
                    .entries
                    .iter()
                    .map(|entry| entry.game.variant().name.as_str())
                    .collect();
                format!(
                    "unknown variant '{name}' (known: {}; load a variant file for another)",
                    known.join(", ")
                )
            })
    }

    /// Loads a variant file's text (`source`, the file's name, names it in
    /// errors and tells its format by its extension, else by its
    /// content) and offers its variant: a Kurier TOML file's one, the
    /// section `section` of a Fairy-Stockfish `variants.ini`, or without
    /// `section` every section of it that Kurier can play (the first is
    /// returned). A variant may not take a built-in variant's name, and
    /// replaces a loaded one of the same name.
    pub fn load(
        &mut self,
        text: &str,
        source: &str,
        section: Option<&str>,
    ) -> Result<AnyGame, String> {
        let format = Format::detect(Path::new(source), text);
        let variants = match (format, section) {
            (Format::FairyIni, None) => {
                let (variants, refused) =
                    import::read_every(text, source, format).map_err(|e| e.to_string())?;
                match (variants.is_empty(), refused.first()) {
                    (true, Some(first)) => {
                        return Err(format!("no variant of it can be played here: {first}"))
                    }
                    _ => variants,
                }
            }
            _ => vec![
                import::read(text, source, format, section)
                    .map_err(|e| e.to_string())?
                    .variant,
            ],
        };
        let mut first = None;
        for variant in variants {
            let game = self.offer(variant, source)?;
            first.get_or_insert(game);
        }
        first.ok_or_else(|| format!("{source}: no variant in it"))
    }

    /// Offers one variant read from `source`.
    fn offer(&mut self, variant: Variant, source: &str) -> Result<AnyGame, String> {
        let name = variant.name.clone();
        if self
            .entries
            .iter()
            .any(|entry| entry.built_in && entry.game.variant().name == name)
        {
            return Err(format!(
                "{source}: '{name}' is the name of a built-in variant; give yours another name"
            ));
        }
        let game = AnyGame::new(variant).map_err(|e| e.to_string())?;
        self.entries
            .retain(|entry| entry.built_in || entry.game.variant().name != name);
        let loaded = self.entries.iter().filter(|entry| !entry.built_in).count();
        if loaded >= MAX_LOADED_VARIANTS {
            return Err(format!(
                "{source}: {MAX_LOADED_VARIANTS} variant files are loaded already; restart the server for more"
            ));
        }
        self.entries.push(Entry {
            game: game.clone(),
            built_in: false,
        });
        Ok(game)
    }

    /// Every variant on offer, built-in ones first.
    pub fn infos(&self) -> Vec<VariantInfo> {
        self.entries
            .iter()
            .map(|entry| VariantInfo::new(entry.game.variant(), entry.built_in))
            .collect()
    }

    /// Whether the variant called `name` is built in.
    pub fn is_built_in(&self, name: &str) -> bool {
        self.entries
            .iter()
            .any(|entry| entry.built_in && entry.game.variant().name == name)
    }
}

impl Default for VariantRegistry {
    fn default() -> Self {
        VariantRegistry::new()
    }
}

/// What the page needs to know of a variant to draw and label it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VariantInfo {
    /// Its name, e.g. `excoco`.
    pub name: String,
    /// One line saying what it is.
    pub description: String,
    /// Files (columns).
    pub files: u8,
    /// Ranks (rows).
    pub ranks: u8,
    /// Whether it is built in (else loaded from a variant file).
    pub built_in: bool,
    /// Its piece types, by type index.
    pub pieces: Vec<PieceInfo>,
    /// The letters of the types a pawn may promote to.
    pub promotion: Vec<char>,
}

/// One piece type as the page draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceInfo {
    /// Upper-case letter (White's; Black's is the lower case).
    pub letter: char,
    /// Name, e.g. `horseguard`.
    pub name: String,
    /// Its moves as the variant file writes them.
    pub betza: String,
    /// Whether it is the king.
    pub royal: bool,
    /// Whether it is a pawn.
    pub pawn: bool,
    /// Its move parts, for the marks around its glyph.
    pub moves: Vec<MoveInfo>,
}

/// One part of a piece's moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveInfo {
    /// `leap`, `slide` or `bent` (the gryphon's step then slide).
    pub motion: &'static str,
    /// For a slide, the most steps (0: unlimited).
    pub range: u8,
    /// The steps, (files, ranks) from White's side.
    pub steps: Vec<(i32, i32)>,
    /// Whether it may move to an empty square.
    pub quiet: bool,
    /// Whether it may capture.
    pub capture: bool,
    /// Whether it is only for the piece's first move.
    pub initial: bool,
}

impl VariantInfo {
    /// The description of `variant`.
    pub fn new(variant: &Variant, built_in: bool) -> VariantInfo {
        VariantInfo {
            name: variant.name.clone(),
            description: variant.description.clone(),
            files: variant.files,
            ranks: variant.ranks,
            built_in,
            pieces: variant.pieces.iter().map(PieceInfo::new).collect(),
            promotion: variant
                .promotion_types
                .iter()
                .map(|&t| variant.pieces[t].letter)
                .collect(),
        }
    }
}

impl PieceInfo {
    fn new(piece: &PieceType) -> PieceInfo {
        PieceInfo {
            letter: piece.letter,
            name: piece.name.clone(),
            betza: piece.betza.clone(),
            royal: piece.royal,
            pawn: piece.pawn,
            moves: piece.parts.iter().map(MoveInfo::new).collect(),
        }
    }
}

impl MoveInfo {
    fn new(part: &MovePart) -> MoveInfo {
        let (motion, range) = match part.motion {
            Motion::Leap => ("leap", 0),
            Motion::Slide { range } => ("slide", range),
            Motion::BentSlide => ("bent", 0),
        };
        MoveInfo {
            motion,
            range,
            steps: part.steps.clone(),
            quiet: part.quiet,
            capture: part.capture,
            initial: part.initial,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_variants_are_described_with_their_pieces() {
        let registry = VariantRegistry::new();
        let infos = registry.infos();
        let names: Vec<&str> = infos.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "chess",
                "courier",
                "courier-moderno",
                "enhanced-courier",
                "excoco"
            ]
        );
        let excoco = &infos[4];
        assert_eq!((excoco.files, excoco.ranks), (18, 10));
        // King, pawn and the thirteen others of data/variants/excoco.toml.
        assert_eq!(excoco.pieces.len(), 15);
        let knight = excoco.pieces.iter().find(|p| p.letter == 'N').unwrap();
        assert_eq!(knight.moves.len(), 1);
        assert_eq!(knight.moves[0].motion, "leap");
        assert_eq!(knight.moves[0].steps.len(), 8);
        let chess = &infos[0];
        assert_eq!(chess.promotion, ['Q', 'R', 'B', 'N']);
    }

    #[test]
    fn a_loaded_file_may_not_take_a_built_in_name() {
        let mut registry = VariantRegistry::new();
        let courier = kurier_engine::variant::definition::BUILT_IN[1].1;
        let error = registry.load(courier, "mine.toml", None).unwrap_err();
        assert!(error.contains("built-in variant"), "{error}");
        let renamed = courier.replacen("name = \"courier\"", "name = \"my-courier\"", 1);
        registry.load(&renamed, "mine.toml", None).unwrap();
        assert!(registry.get("my-courier").is_ok());
        assert!(!registry.is_built_in("my-courier"));
        // Loading it again replaces it rather than adding a second one.
        registry.load(&renamed, "mine.toml", None).unwrap();
        assert_eq!(registry.infos().len(), 6);
        let error = registry.get("nonesuch").err().unwrap();
        assert!(error.contains("unknown variant 'nonesuch'"), "{error}");
    }
}
