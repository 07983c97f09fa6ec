//! The values-file format (`data/values/<variant>.toml`): a piece value
//! per letter, one number or `[middlegame, endgame]`, that replaces the
//! material weights of the default parameters.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::toml_file::parse_for_variant;
use super::{type_of, EvalParams, Pair, ParamsError};
use crate::variant::definition::Variant;

/// A piece value in a values file: one number for both phases, or
/// `[middlegame, endgame]`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(untagged)]
enum ValueSpec {
    Both(i32),
    Phased(Pair),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ValuesFile {
    variant: String,
    values: BTreeMap<String, ValueSpec>,
}

impl EvalParams {
    /// The default weights with piece values from a values file's text:
    /// the variant's fitted parameters (or the hand-set weights) with
    /// every material weight replaced.
    pub fn with_values(
        variant: &Variant,
        text: &str,
        source: &str,
    ) -> Result<EvalParams, ParamsError> {
        let error = |message: String| ParamsError {
            source: source.to_string(),
            message,
        };
        let file: ValuesFile =
            parse_for_variant(variant, text, source, |f: &ValuesFile| &f.variant)?;
        let mut params = match EvalParams::built_in_params(variant)? {
            Some(params) => params,
            None => EvalParams::neutral(variant),
        };
        for piece_type in 0..variant.pieces.len() {
            params.weights[params.layout.material(piece_type)] = Pair::default();
        }
        for (letter, &value) in &file.values {
            let piece_type = type_of(variant, letter).ok_or_else(|| {
                error(format!("values.{letter}: not a piece of {}", variant.name))
            })?;
            params.weights[params.layout.material(piece_type)] = match value {
                ValueSpec::Both(value) => Pair(value, value),
                ValueSpec::Phased(pair) => pair,
            };
        }
        Ok(params.within_rules(variant))
    }

    /// Reads a values file (`data/values/<variant>.toml` format).
    pub fn from_values_file(variant: &Variant, path: &Path) -> Result<EvalParams, ParamsError> {
        let text = std::fs::read_to_string(path).map_err(|e| ParamsError {
            source: path.display().to_string(),
            message: format!("cannot read it: {e}"),
        })?;
        EvalParams::with_values(variant, &text, &path.display().to_string())
    }
}
