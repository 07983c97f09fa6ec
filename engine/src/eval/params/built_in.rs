//! The built-in tables: each built-in variant's piece values
//! (`data/values/`) and fitted parameters (`data/params/`), compiled in,
//! and the default parameters of a variant drawn from them.

use super::{EvalParams, Pair, ParamsError};
use crate::variant::definition::Variant;
use crate::variant::value_estimate::estimated_values;

/// The built-in piece values, `data/values/<variant>.toml`.
pub const BUILT_IN_VALUES: [(&str, &str); 5] = [
    ("chess", include_str!("../../../../data/values/chess.toml")),
    (
        "courier",
        include_str!("../../../../data/values/courier.toml"),
    ),
    (
        "courier-moderno",
        include_str!("../../../../data/values/courier-moderno.toml"),
    ),
    (
        "enhanced-courier",
        include_str!("../../../../data/values/enhanced-courier.toml"),
    ),
    (
        "excoco",
        include_str!("../../../../data/values/excoco.toml"),
    ),
];

/// The fitted default parameters of the variants that have them
/// (`data/params/<variant>.toml`, `EvalFile` format).
pub const BUILT_IN_PARAMS: [(&str, &str); 5] = [
    ("chess", include_str!("../../../../data/params/chess.toml")),
    (
        "courier",
        include_str!("../../../../data/params/courier.toml"),
    ),
    (
        "courier-moderno",
        include_str!("../../../../data/params/courier-moderno.toml"),
    ),
    (
        "enhanced-courier",
        include_str!("../../../../data/params/enhanced-courier.toml"),
    ),
    (
        "excoco",
        include_str!("../../../../data/params/excoco.toml"),
    ),
];

/// Whether `variant` is the built-in game of its name (a user's variant
/// that shares the name but not the pieces is not).
fn is_built_in_game(variant: &Variant) -> bool {
    Variant::built_in(&variant.name).is_ok_and(|built_in| built_in == *variant)
}

/// The text of the built-in values file of the variant named `name`.
fn built_in_values_text(name: &str) -> Option<&'static str> {
    BUILT_IN_VALUES
        .iter()
        .find(|(variant, _)| *variant == name)
        .map(|(_, text)| *text)
}

impl EvalParams {
    /// The default weights for a variant: its fitted parameters where it
    /// has them, else the hand-set weights with its built-in piece values,
    /// else (a variant with no values file) with piece values estimated
    /// from the pieces' moves ([`crate::variant::value_estimate`]).
    pub fn for_variant(variant: &Variant) -> Result<EvalParams, ParamsError> {
        if let Some(params) = EvalParams::built_in_params(variant)? {
            return Ok(params);
        }
        match built_in_values_text(&variant.name) {
            Some(text) => EvalParams::with_values(
                variant,
                text,
                &format!("built-in values of {}", variant.name),
            ),
            None => {
                let values = estimated_values(variant).map_err(|e| ParamsError {
                    source: variant.name.clone(),
                    message: format!("cannot estimate piece values from the start position: {e}"),
                })?;
                let mut params = EvalParams::neutral(variant);
                for (piece_type, value) in values.into_iter().enumerate() {
                    params.set_piece_value(piece_type, Pair(value, value));
                }
                Ok(params.within_rules(variant))
            }
        }
    }

    /// Whether [`EvalParams::for_variant`] estimates this variant's piece
    /// values from the pieces' moves: it has no values file.
    pub fn estimates_values(variant: &Variant) -> bool {
        built_in_values_text(&variant.name).is_none()
    }

    /// The default weights with a built-in variant's suggested piece
    /// values (its values file, `data/values/<variant>.toml`) as the
    /// material, whatever its fitted parameters hold: the values a
    /// designer proposed, which the tuner's reports measure against.
    /// None for a user's variant (which has no such file), also one that
    /// only shares a built-in game's name.
    pub fn suggested(variant: &Variant) -> Option<Result<EvalParams, ParamsError>> {
        if !is_built_in_game(variant) {
            return None;
        }
        let text = built_in_values_text(&variant.name)?;
        Some(EvalParams::with_values(
            variant,
            text,
            &format!("built-in values of {}", variant.name),
        ))
    }

    /// The fitted parameters of `variant` in [`BUILT_IN_PARAMS`], if it
    /// has them and is the built-in game of that name (a user's variant
    /// that shares the name but not the pieces has none).
    pub(super) fn built_in_params(variant: &Variant) -> Result<Option<EvalParams>, ParamsError> {
        let Some((_, text)) = BUILT_IN_PARAMS
            .iter()
            .find(|(name, _)| *name == variant.name)
        else {
            return Ok(None);
        };
        if !is_built_in_game(variant) {
            return Ok(None);
        }
        EvalParams::from_toml(
            variant,
            text,
            &format!("built-in parameters of {}", variant.name),
        )
        .map(Some)
    }
}
