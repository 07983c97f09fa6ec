//! Which game a run plays: a built-in variant by name, or a variant file
//! of the user's (`--variant-file PATH`). A run records the file's path
//! and a fingerprint of its text, so that a resumed run, a merge or a
//! report reads the same game again, or says that the file changed.

use std::path::Path;

use clap::Args;
use kurier_engine::import::{self, Format};
use kurier_engine::variant::definition::Variant;
use serde::{Deserialize, Serialize};

use crate::util::files::fingerprint;

/// A variant file as a run records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantFile {
    /// The path as given.
    pub path: String,
    /// Fingerprint of the file's text ([`fingerprint`]).
    pub fingerprint: String,
}

/// The command-line choice of the game: `--variant NAME`, or
/// `--variant-file PATH` (with `--variant NAME` picking the section of a
/// Fairy-Stockfish `variants.ini`).
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct VariantArgs {
    /// A built-in variant: chess, courier, courier-moderno,
    /// enhanced-courier, excoco (the default); with --variant-file, the
    /// section of a Fairy-Stockfish variants.ini.
    #[arg(long)]
    pub variant: Option<String>,
    /// A variant file of your own: Kurier's TOML (data/variants/README.md)
    /// or a Fairy-Stockfish variants.ini, instead of a built-in variant.
    #[arg(long)]
    pub variant_file: Option<std::path::PathBuf>,
}

impl VariantArgs {
    /// The variant, and the file record when it came from a file.
    pub fn load(&self) -> Result<(Variant, Option<VariantFile>), String> {
        load_variant(
            self.variant.as_deref(),
            self.variant_file.as_deref(),
            "excoco",
        )
    }
}

/// The game of a command line: the variant file `file` (with `name` its
/// section, for a `variants.ini`), else the built-in variant `name`, else
/// `default`.
pub fn load_variant(
    name: Option<&str>,
    file: Option<&Path>,
    default: &str,
) -> Result<(Variant, Option<VariantFile>), String> {
    match file {
        Some(path) => {
            let (variant, file) = read_variant_file(path, name)?;
            Ok((variant, Some(file)))
        }
        None => Ok((
            Variant::built_in(name.unwrap_or(default)).map_err(|e| e.to_string())?,
            None,
        )),
    }
}

/// Reads a variant file of any format Kurier reads (`name`: the section
/// of a `variants.ini`) and fingerprints it.
pub fn read_variant_file(
    path: &Path,
    name: Option<&str>,
) -> Result<(Variant, VariantFile), String> {
    let text = import::read_text(path).map_err(|e| e.to_string())?;
    let imported = import::read(
        &text,
        &path.display().to_string(),
        Format::detect(path, &text),
        name,
    )
    .map_err(|e| e.to_string())?;
    Ok((
        imported.variant,
        VariantFile {
            path: path.display().to_string(),
            fingerprint: fingerprint(&text),
        },
    ))
}

/// The variant a run recorded: the built-in `name`, or `file` read
/// again, which must still hold the same text and name the same game.
pub fn recorded_variant(name: &str, file: Option<&VariantFile>) -> Result<Variant, String> {
    let Some(file) = file else {
        return Variant::built_in(name).map_err(|e| e.to_string());
    };
    let (variant, now) = read_variant_file(Path::new(&file.path), Some(name))?;
    if now.fingerprint != file.fingerprint {
        return Err(format!(
            "variant file {}: changed since the run started (fingerprint {} then, {} now); \
             restore it or start a new run",
            file.path, file.fingerprint, now.fingerprint
        ));
    }
    if variant.name != name {
        return Err(format!(
            "variant file {}: holds '{}', but the run is of '{name}'",
            file.path, variant.name
        ));
    }
    Ok(variant)
}
