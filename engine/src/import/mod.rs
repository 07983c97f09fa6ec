//! Variant files in the formats designers write, read into a Kurier
//! [`Variant`]: Kurier's own TOML (`data/variants/README.md`),
//! Fairy-Stockfish's `variants.ini` (one section, picked by name), and
//! H. G. Muller's Interactive Diagram (its parameters, as the Chess
//! Variant Pages write them).
//!
//! Every format is turned into a [`VariantSpec`], the TOML file's
//! contents, which [`Variant::from_spec`] then checks as it checks a TOML
//! file: one set of rules, and `kurier variant convert` can show the TOML
//! that was understood. What Kurier cannot play is refused with one line
//! naming the key and its line.

mod diagram;
mod fairy;
mod fairy_betza;
mod fairy_ini;
mod fairy_regions;
pub mod moves;
pub mod xbetza;

use std::path::Path;

use crate::position::any_game::AnyGame;
use crate::variant::definition::{Variant, VariantError};
use crate::variant::spec::VariantSpec;

/// The formats of a variant file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Kurier's TOML.
    Toml,
    /// Fairy-Stockfish's `variants.ini`.
    FairyIni,
    /// H. G. Muller's Interactive Diagram.
    Diagram,
}

impl Format {
    /// The format of a file, by its extension (`.toml`, `.ini`,
    /// `.diagram`), else by its content: section headers `[name]` or
    /// `[name:parent]` without Kurier's `[[pieces]]` tables are a
    /// `variants.ini`; a `files=` parameter and a piece line
    /// (`name:id:moves:image:squares`) without section headers are a
    /// diagram.
    pub fn detect(path: &Path, text: &str) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some("toml") => return Format::Toml,
            Some("ini") => return Format::FairyIni,
            Some("diagram") => return Format::Diagram,
            _ => {}
        }
        if diagram::looks_like_diagram(text) {
            return Format::Diagram;
        }
        let headers = text
            .lines()
            .map(str::trim)
            .filter(|line| line.starts_with('[') && !line.starts_with("[["));
        let kurier_tables = ["[promotion]", "[pieces]", "[castling]"];
        let mut any = false;
        for header in headers {
            if kurier_tables.contains(&header) {
                return Format::Toml;
            }
            any = true;
        }
        if any && !text.contains("[[pieces]]") {
            Format::FairyIni
        } else {
            Format::Toml
        }
    }
}

/// An importer's refusal: where (`[section] line N: key` in a
/// `variants.ini`, `line N: key` in a diagram), and why.
#[derive(Debug)]
pub struct Refusal {
    /// Where: the key and its line.
    pub key: String,
    /// What Kurier cannot read or play.
    pub message: String,
}

/// A variant read from a file, with the Kurier file it amounts to.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The checked variant.
    pub variant: Variant,
    /// What was understood, as a Kurier variant file.
    pub spec: VariantSpec,
    /// The format it was read from.
    pub format: Format,
}

/// Reads the variant of a file's text; `name` picks a section of a
/// `variants.ini` (required there, refused for a TOML file, which holds
/// one variant) and names a diagram's variant (which has no name of its
/// own: else the file's name without its extension). `source` names the
/// file in errors.
pub fn read(
    text: &str,
    source: &str,
    format: Format,
    name: Option<&str>,
) -> Result<Imported, VariantError> {
    let error = |key: String, message: String| VariantError {
        source: source.to_string(),
        key,
        message,
    };
    let spec = match format {
        Format::Toml => {
            let spec = crate::variant::definition::parse_spec(text, source)?;
            if let Some(name) = name {
                if name != spec.name {
                    return Err(error(
                        "name".into(),
                        format!(
                            "the file holds the variant '{}', not '{name}' (a variant file holds one variant; \
                             a name picks a section of a Fairy-Stockfish variants.ini)",
                            spec.name
                        ),
                    ));
                }
            }
            spec
        }
        Format::FairyIni => {
            let name = name.ok_or_else(|| {
                let names = fairy::section_names(text).unwrap_or_default();
                error(
                    "variant".into(),
                    format!(
                        "a variants.ini holds several variants: name one (its sections: {})",
                        names.join(", ")
                    ),
                )
            })?;
            fairy::to_spec(text, name).map_err(|refusal| error(refusal.key, refusal.message))?
        }
        Format::Diagram => {
            let stem = Path::new(source)
                .file_stem()
                .map(|stem| {
                    stem.to_string_lossy()
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join("-")
                })
                .unwrap_or_default();
            diagram::to_spec(text, name.unwrap_or(&stem))
                .map_err(|refusal| error(refusal.key, refusal.message))?
        }
    };
    let variant = Variant::from_spec(
        spec.clone(),
        &match (format, name) {
            (Format::FairyIni, Some(name)) => format!("{source} [{name}], as Kurier's format"),
            (Format::Diagram, _) => format!("{source}, as Kurier's format"),
            _ => source.to_string(),
        },
    )?;
    // The checks against the start position (kings, rights, castling
    // squares) that a game makes when it is set up.
    AnyGame::new(variant.clone())?;
    Ok(Imported {
        variant,
        spec,
        format,
    })
}

/// Reads a variant file of any format; see [`read`].
pub fn read_file(path: &Path, name: Option<&str>) -> Result<Imported, VariantError> {
    let text = read_text(path)?;
    read(
        &text,
        &path.display().to_string(),
        Format::detect(path, &text),
        name,
    )
}

/// A file's text, or an error naming it.
pub fn read_text(path: &Path) -> Result<String, VariantError> {
    std::fs::read_to_string(path).map_err(|error| VariantError {
        source: path.display().to_string(),
        key: "file".into(),
        message: format!("cannot read it: {error}"),
    })
}

/// The names a file's variants are picked by: `None` for the one
/// variant of a TOML file or a diagram, each section's name for a
/// `variants.ini`.
pub fn variant_names(path: &Path, text: &str) -> Result<Vec<Option<String>>, VariantError> {
    match Format::detect(path, text) {
        Format::Toml | Format::Diagram => Ok(vec![None]),
        Format::FairyIni => fairy::section_names(text)
            .map(|names| names.into_iter().map(Some).collect())
            .map_err(|refusal| VariantError {
                source: path.display().to_string(),
                key: refusal.key,
                message: refusal.message,
            }),
    }
}

/// Every variant of a file: the one of a TOML file or a diagram, or each
/// section of a `variants.ini` that Kurier can play, and the refusals of
/// the others.
pub fn read_all(path: &Path) -> Result<(Vec<Variant>, Vec<VariantError>), VariantError> {
    let text = read_text(path)?;
    read_every(
        &text,
        &path.display().to_string(),
        Format::detect(path, &text),
    )
}

/// Every variant of a file's text; see [`read_all`].
pub fn read_every(
    text: &str,
    source: &str,
    format: Format,
) -> Result<(Vec<Variant>, Vec<VariantError>), VariantError> {
    match format {
        Format::Toml | Format::Diagram => {
            Ok((vec![read(text, source, format, None)?.variant], Vec::new()))
        }
        Format::FairyIni => {
            let names = fairy::section_names(text).map_err(|refusal| VariantError {
                source: source.to_string(),
                key: refusal.key,
                message: refusal.message,
            })?;
            let mut variants = Vec::new();
            let mut refused = Vec::new();
            for name in names {
                match read(text, source, Format::FairyIni, Some(&name)) {
                    Ok(imported) => variants.push(imported.variant),
                    Err(error) => refused.push(error),
                }
            }
            Ok((variants, refused))
        }
    }
}
