//! Which game a run plays: a built-in variant by name, or a variant file
//! of the user's (`--variant-file PATH`). A run records the file's path
//! and a fingerprint of its text, so that a resumed run, a merge or a
//! report reads the same game again, or says that the file changed.

use std::path::Path;

use clap::Args;
use kurier_engine::variant::Variant;
use serde::{Deserialize, Serialize};

use crate::players::fingerprint;

/// A variant file as a run records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantFile {
    /// The path as given.
    pub path: String,
    /// Fingerprint of the file's text ([`fingerprint`]).
    pub fingerprint: String,
}

/// The command-line choice of the game: `--variant NAME` or
/// `--variant-file PATH`.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct VariantArgs {
    /// A built-in variant: chess, courier, courier-moderno,
    /// enhanced-courier, excoco.
    #[arg(long, default_value = "excoco")]
    pub variant: String,
    /// A variant file of your own (format: data/variants/README.md),
    /// instead of --variant.
    #[arg(long, conflicts_with = "variant")]
    pub variant_file: Option<std::path::PathBuf>,
}

impl VariantArgs {
    /// The variant, and the file record when it came from a file.
    pub fn load(&self) -> Result<(Variant, Option<VariantFile>), String> {
        match &self.variant_file {
            Some(path) => {
                let (variant, file) = read_variant_file(path)?;
                Ok((variant, Some(file)))
            }
            None => Ok((
                Variant::built_in(&self.variant).map_err(|e| e.to_string())?,
                None,
            )),
        }
    }
}

/// Reads a variant file and fingerprints it.
pub fn read_variant_file(path: &Path) -> Result<(Variant, VariantFile), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("variant file {}: cannot read it: {e}", path.display()))?;
    let variant =
        Variant::from_toml(&text, &path.display().to_string()).map_err(|e| e.to_string())?;
    Ok((
        variant,
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
    let (variant, now) = read_variant_file(Path::new(&file.path))?;
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
