//! The parameters' TOML form (`EvalFile`, `kurier-tune ... params=`):
//! weights named by piece letter and rank, written and read back.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{type_of, EvalParams, Pair, ParamsError, Thresholds};
use crate::variant::definition::Variant;

/// The TOML form of [`EvalParams`], with weights named by piece letter
/// and rank. The rules-knowledge, threat, king-danger, unsafe-mobility,
/// supported-pawn and piece rank and file entries may be left out (files
/// written before they existed): they then take their default values
/// (zero for the last five, so that such a file evaluates as before).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ParamsFile {
    variant: String,
    material: BTreeMap<String, Pair>,
    square: BTreeMap<String, Pair>,
    mobility: BTreeMap<String, Pair>,
    pawn_rank: Vec<Pair>,
    passed_pawn: Vec<Pair>,
    doubled_pawn: Pair,
    isolated_pawn: Pair,
    king_shield: Pair,
    king_attack: Pair,
    tempo: Pair,
    last_man: Option<Pair>,
    mop_up_edge: Option<Pair>,
    mop_up_kings: Option<Pair>,
    mop_up_king_squares: Option<Pair>,
    threat_by_pawn: Option<Pair>,
    threat_by_lesser: Option<Pair>,
    hanging: Option<Pair>,
    king_danger: Option<Pair>,
    unsafe_mobility: Option<Pair>,
    supported_pawn: Option<Pair>,
    piece_rank: Option<BTreeMap<String, Vec<Pair>>>,
    piece_file: Option<BTreeMap<String, Vec<Pair>>>,
    thresholds: Option<Thresholds>,
}

impl EvalParams {
    /// The parameters as TOML, weights named by piece letter.
    pub fn to_toml(&self) -> String {
        let by_letter = |index: &dyn Fn(usize) -> usize| -> BTreeMap<String, Pair> {
            self.letters
                .iter()
                .enumerate()
                .map(|(t, letter)| (letter.to_string(), self.weights[index(t)]))
                .collect()
        };
        let by_letter_list =
            |count: usize, index: &dyn Fn(usize, usize) -> usize| -> BTreeMap<String, Vec<Pair>> {
                self.letters
                    .iter()
                    .enumerate()
                    .map(|(t, letter)| {
                        let list = (0..count).map(|i| self.weights[index(t, i)]).collect();
                        (letter.to_string(), list)
                    })
                    .collect()
            };
        let layout = &self.layout;
        let file = ParamsFile {
            variant: self.variant.clone(),
            material: by_letter(&|t| layout.material(t)),
            square: by_letter(&|t| layout.square(t)),
            mobility: by_letter(&|t| layout.mobility(t)),
            pawn_rank: (0..layout.ranks)
                .map(|r| self.weights[layout.pawn_rank(r)])
                .collect(),
            passed_pawn: (0..layout.ranks)
                .map(|r| self.weights[layout.passed(r)])
                .collect(),
            doubled_pawn: self.weights[layout.doubled()],
            isolated_pawn: self.weights[layout.isolated()],
            king_shield: self.weights[layout.king_shield()],
            king_attack: self.weights[layout.king_attack()],
            tempo: self.weights[layout.tempo()],
            last_man: Some(self.weights[layout.last_man()]),
            mop_up_edge: Some(self.weights[layout.mop_up_edge()]),
            mop_up_kings: Some(self.weights[layout.mop_up_kings()]),
            mop_up_king_squares: Some(self.weights[layout.mop_up_king_squares()]),
            threat_by_pawn: Some(self.weights[layout.threat_by_pawn()]),
            threat_by_lesser: Some(self.weights[layout.threat_by_lesser()]),
            hanging: Some(self.weights[layout.hanging()]),
            king_danger: Some(self.weights[layout.king_danger()]),
            unsafe_mobility: Some(self.weights[layout.unsafe_mobility()]),
            supported_pawn: Some(self.weights[layout.supported_pawn()]),
            piece_rank: Some(by_letter_list(layout.ranks, &|t, r| {
                layout.piece_rank(t, r)
            })),
            piece_file: Some(by_letter_list(layout.edge_distances, &|t, d| {
                layout.piece_file(t, d)
            })),
            thresholds: Some(self.thresholds),
        };
        // Serialising plain maps, lists and integers cannot fail.
        toml::to_string(&file).unwrap_or_else(|e| unreachable!("parameters serialise: {e}"))
    }

    /// Reads parameters written by [`EvalParams::to_toml`]; every weight
    /// must be given but those of the rules knowledge and the threats,
    /// which default.
    pub fn from_toml(
        variant: &Variant,
        text: &str,
        source: &str,
    ) -> Result<EvalParams, ParamsError> {
        let error = |message: String| ParamsError {
            source: source.to_string(),
            message,
        };
        let file: ParamsFile =
            parse_for_variant(variant, text, source, |f: &ParamsFile| &f.variant)?;
        let mut params = EvalParams::neutral(variant);
        let layout = params.layout.clone();
        for (section, map, index) in [
            (
                "material",
                &file.material,
                &(|t| layout.material(t)) as &dyn Fn(usize) -> usize,
            ),
            ("square", &file.square, &|t| layout.square(t)),
            ("mobility", &file.mobility, &|t| layout.mobility(t)),
        ] {
            for (letter, &pair) in map {
                let piece_type = type_of(variant, letter).ok_or_else(|| {
                    error(format!(
                        "{section}.{letter}: not a piece of {}",
                        variant.name
                    ))
                })?;
                params.weights[index(piece_type)] = pair;
            }
            if map.len() != variant.pieces.len() {
                return Err(error(format!(
                    "{section}: give a weight for each of the {} piece types",
                    variant.pieces.len()
                )));
            }
        }
        for (name, list, index) in [
            (
                "pawn_rank",
                &file.pawn_rank,
                &(|r| layout.pawn_rank(r)) as &dyn Fn(usize) -> usize,
            ),
            ("passed_pawn", &file.passed_pawn, &|r| layout.passed(r)),
        ] {
            if list.len() != layout.ranks {
                return Err(error(format!(
                    "{name}: give one weight per rank ({}), not {}",
                    layout.ranks,
                    list.len()
                )));
            }
            for (rank, &pair) in list.iter().enumerate() {
                params.weights[index(rank)] = pair;
            }
        }
        params.weights[layout.doubled()] = file.doubled_pawn;
        params.weights[layout.isolated()] = file.isolated_pawn;
        params.weights[layout.king_shield()] = file.king_shield;
        params.weights[layout.king_attack()] = file.king_attack;
        params.weights[layout.tempo()] = file.tempo;
        for (index, given) in [
            (layout.last_man(), file.last_man),
            (layout.mop_up_edge(), file.mop_up_edge),
            (layout.mop_up_kings(), file.mop_up_kings),
            (layout.mop_up_king_squares(), file.mop_up_king_squares),
            (layout.threat_by_pawn(), file.threat_by_pawn),
            (layout.threat_by_lesser(), file.threat_by_lesser),
            (layout.hanging(), file.hanging),
            (layout.king_danger(), file.king_danger),
            (layout.unsafe_mobility(), file.unsafe_mobility),
            (layout.supported_pawn(), file.supported_pawn),
        ] {
            if let Some(pair) = given {
                params.weights[index] = pair;
            }
        }
        for (section, tables, count, index) in [
            (
                "piece_rank",
                &file.piece_rank,
                layout.ranks,
                &(|t, r| layout.piece_rank(t, r)) as &dyn Fn(usize, usize) -> usize,
            ),
            (
                "piece_file",
                &file.piece_file,
                layout.edge_distances,
                &|t, d| layout.piece_file(t, d),
            ),
        ] {
            let Some(tables) = tables else { continue };
            for (letter, list) in tables {
                let piece_type = type_of(variant, letter).ok_or_else(|| {
                    error(format!(
                        "{section}.{letter}: not a piece of {}",
                        variant.name
                    ))
                })?;
                if list.len() != count {
                    return Err(error(format!(
                        "{section}.{letter}: give {count} weights, not {}",
                        list.len()
                    )));
                }
                for (i, &pair) in list.iter().enumerate() {
                    params.weights[index(piece_type, i)] = pair;
                }
            }
        }
        if let Some(thresholds) = file.thresholds {
            if thresholds.mop_up_full <= thresholds.mop_up_start {
                return Err(error(format!(
                    "thresholds.mop_up_full ({}) must be above thresholds.mop_up_start ({})",
                    thresholds.mop_up_full, thresholds.mop_up_start
                )));
            }
            if !(0..=64).contains(&thresholds.drawish_scale) {
                return Err(error(format!(
                    "thresholds.drawish_scale: {} is not between 0 and 64",
                    thresholds.drawish_scale
                )));
            }
            params.thresholds = thresholds;
        }
        Ok(params.within_rules(variant))
    }
}

/// The variant a parameter file (`EvalFile` format) names, read from its
/// `variant` key alone.
pub fn params_file_variant(text: &str, source: &str) -> Result<String, ParamsError> {
    #[derive(serde::Deserialize)]
    struct Named {
        variant: String,
    }
    toml::from_str::<Named>(text)
        .map(|named| named.variant)
        .map_err(|e| ParamsError {
            source: source.to_string(),
            message: e.to_string().trim_end().replace('\n', " "),
        })
}

/// Parses a TOML file that names the variant it is for, and checks
/// that it is `variant`.
pub(super) fn parse_for_variant<T: serde::de::DeserializeOwned>(
    variant: &Variant,
    text: &str,
    source: &str,
    named: impl Fn(&T) -> &String,
) -> Result<T, ParamsError> {
    let error = |message: String| ParamsError {
        source: source.to_string(),
        message,
    };
    let file: T =
        toml::from_str(text).map_err(|e| error(e.to_string().trim_end().replace('\n', " ")))?;
    if *named(&file) != variant.name {
        return Err(error(format!(
            "the file is for '{}', not '{}'",
            named(&file),
            variant.name
        )));
    }
    Ok(file)
}
