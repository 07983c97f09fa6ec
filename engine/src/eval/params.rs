//! The evaluation's parameter set: every weight of every term, for one
//! variant, in one flat list the tuner can fit, with its layout and its
//! TOML form (`EvalFile`, `kurier-tune ... params=`). The evaluation
//! itself is in [`crate::eval::evaluate`].
//!
//! Two kinds of numbers:
//! - **weights** ([`EvalParams::weights`]): a middlegame and an endgame
//!   value per term, each multiplied by how often the term occurs, so
//!   that the evaluation is linear in them (Texel tuning fits them);
//! - **thresholds** ([`Thresholds`]): where the rules knowledge starts
//!   and how strongly drawish endgames are scaled; they shape the terms
//!   instead of weighting them.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::variant::definition::Variant;
use crate::variant::value_estimate::estimated_values;

/// A middlegame and an endgame weight, in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pair(pub i32, pub i32);

/// The built-in piece values, `data/values/<variant>.toml`.
pub const BUILT_IN_VALUES: [(&str, &str); 5] = [
    ("chess", include_str!("../../../data/values/chess.toml")),
    ("courier", include_str!("../../../data/values/courier.toml")),
    (
        "courier-moderno",
        include_str!("../../../data/values/courier-moderno.toml"),
    ),
    (
        "enhanced-courier",
        include_str!("../../../data/values/enhanced-courier.toml"),
    ),
    ("excoco", include_str!("../../../data/values/excoco.toml")),
];

/// The fitted default parameters of the variants that have them
/// (`data/params/<variant>.toml`, `EvalFile` format).
pub const BUILT_IN_PARAMS: [(&str, &str); 5] = [
    ("chess", include_str!("../../../data/params/chess.toml")),
    ("courier", include_str!("../../../data/params/courier.toml")),
    (
        "courier-moderno",
        include_str!("../../../data/params/courier-moderno.toml"),
    ),
    (
        "enhanced-courier",
        include_str!("../../../data/params/enhanced-courier.toml"),
    ),
    ("excoco", include_str!("../../../data/params/excoco.toml")),
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

/// How far below its best promotion a pawn one step from the last rank
/// stays, in centipawns: promoting must always gain something.
pub const PROMOTION_MARGIN: i32 = 10;

/// What is wrong with a values or parameter file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamsError {
    /// The file or the variant it was for.
    pub source: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source, self.message)
    }
}

impl std::error::Error for ParamsError {}

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

/// Where each group of weights starts in the flat weight list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    types: usize,
    ranks: usize,
    /// Distances from the nearest side edge a square can have.
    edge_distances: usize,
}

impl Layout {
    pub(crate) fn material(&self, piece_type: usize) -> usize {
        piece_type
    }
    pub(crate) fn square(&self, piece_type: usize) -> usize {
        self.types + piece_type
    }
    pub(crate) fn mobility(&self, piece_type: usize) -> usize {
        2 * self.types + piece_type
    }
    pub(crate) fn pawn_rank(&self, rank: usize) -> usize {
        3 * self.types + rank
    }
    pub(crate) fn passed(&self, rank: usize) -> usize {
        3 * self.types + self.ranks + rank
    }
    pub(crate) fn doubled(&self) -> usize {
        3 * self.types + 2 * self.ranks
    }
    pub(crate) fn isolated(&self) -> usize {
        self.doubled() + 1
    }
    pub(crate) fn king_shield(&self) -> usize {
        self.doubled() + 2
    }
    pub(crate) fn king_attack(&self) -> usize {
        self.doubled() + 3
    }
    pub(crate) fn tempo(&self) -> usize {
        self.doubled() + 4
    }
    pub(crate) fn last_man(&self) -> usize {
        self.doubled() + 5
    }
    pub(crate) fn mop_up_edge(&self) -> usize {
        self.doubled() + 6
    }
    pub(crate) fn mop_up_kings(&self) -> usize {
        self.doubled() + 7
    }
    pub(crate) fn mop_up_king_squares(&self) -> usize {
        self.doubled() + 8
    }
    pub(crate) fn threat_by_pawn(&self) -> usize {
        self.doubled() + 9
    }
    pub(crate) fn threat_by_lesser(&self) -> usize {
        self.doubled() + 10
    }
    pub(crate) fn hanging(&self) -> usize {
        self.doubled() + 11
    }
    pub(crate) fn king_danger(&self) -> usize {
        self.doubled() + 12
    }
    pub(crate) fn unsafe_mobility(&self) -> usize {
        self.doubled() + 13
    }
    pub(crate) fn supported_pawn(&self) -> usize {
        self.doubled() + 14
    }
    /// A piece type on a rank (counted from its own side).
    pub(crate) fn piece_rank(&self, piece_type: usize, rank: usize) -> usize {
        self.doubled() + 15 + piece_type * self.ranks + rank
    }
    /// A piece type on a file `distance` files from the nearest side edge.
    pub(crate) fn piece_file(&self, piece_type: usize, distance: usize) -> usize {
        self.doubled() + 15 + self.types * self.ranks + piece_type * self.edge_distances + distance
    }
    fn len(&self) -> usize {
        self.doubled() + 15 + self.types * (self.ranks + self.edge_distances)
    }
}

/// The numbers that shape the rules knowledge rather than weight it
/// (see [`crate::eval::evaluate`]): not linear, so Texel tuning leaves them alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    /// Endgame material lead (centipawns) at which the mop-up terms start.
    pub mop_up_start: i32,
    /// Lead at which they reach full strength (linear in between).
    pub mop_up_full: i32,
    /// A side without pawns whose lead in endgame material is below this
    /// cannot be expected to win: its evaluation is scaled down.
    pub drawish_margin: i32,
    /// The scale, in 64ths, of such a drawish evaluation.
    pub drawish_scale: i32,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            mop_up_start: 200,
            mop_up_full: 600,
            drawish_margin: 400,
            drawish_scale: 8,
        }
    }
}

/// Every weight of the evaluation, for one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    variant: String,
    letters: Vec<char>,
    pub(crate) layout: Layout,
    /// The weights, in the layout's order.
    pub weights: Vec<Pair>,
    /// The thresholds of the rules knowledge.
    pub thresholds: Thresholds,
}

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
    fn built_in_params(variant: &Variant) -> Result<Option<EvalParams>, ParamsError> {
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

    /// Weights for every term but material, which is zero.
    fn neutral(variant: &Variant) -> EvalParams {
        let layout = Layout {
            types: variant.pieces.len(),
            ranks: usize::from(variant.ranks),
            edge_distances: usize::from(variant.files).div_ceil(2),
        };
        let mut weights = vec![Pair::default(); layout.len()];
        for (piece_type, piece) in variant.pieces.iter().enumerate() {
            if piece.royal {
                weights[layout.square(piece_type)] = Pair(-4, 6);
            } else if !piece.pawn {
                weights[layout.square(piece_type)] = Pair(3, 2);
                weights[layout.mobility(piece_type)] = Pair(3, 3);
            }
        }
        for rank in 0..layout.ranks {
            // Pawns gain by advancing, passed pawns much more so, mostly in the endgame.
            let progress = rank as i32;
            weights[layout.pawn_rank(rank)] = Pair(2 * progress, 4 * progress);
            weights[layout.passed(rank)] =
                Pair(3 * progress * progress / 2, 6 * progress * progress);
        }
        weights[layout.doubled()] = Pair(-10, -20);
        weights[layout.isolated()] = Pair(-10, -10);
        weights[layout.king_shield()] = Pair(8, 0);
        weights[layout.king_attack()] = Pair(-6, -2);
        weights[layout.tempo()] = Pair(10, 5);
        weights[layout.last_man()] = Pair(-150, -150);
        weights[layout.mop_up_edge()] = Pair(10, 10);
        weights[layout.mop_up_kings()] = Pair(5, 5);
        weights[layout.mop_up_king_squares()] = Pair(4, 4);
        weights[layout.threat_by_pawn()] = Pair(50, 30);
        weights[layout.threat_by_lesser()] = Pair(25, 15);
        weights[layout.hanging()] = Pair(25, 10);
        EvalParams {
            variant: variant.name.clone(),
            letters: variant.pieces.iter().map(|p| p.letter).collect(),
            layout,
            weights,
            thresholds: Thresholds {
                // Where the weaker side's men must all be won, material
                // closer to even still wins (a rook against a ferz).
                drawish_margin: if variant.bare_king { 300 } else { 400 },
                ..Thresholds::default()
            },
        }
    }

    /// These parameters kept to the knowledge the evaluation promises,
    /// whatever a file or a fit gave: the pawn bonuses capped at the best
    /// promotion ([`EvalParams::capped_at_promotion`]) and the three
    /// mop-up weights at least zero in each phase, so that the mop-up
    /// never counts against the side ahead (its features are counts of
    /// steps and squares, never negative).
    pub fn within_rules(self, variant: &Variant) -> EvalParams {
        let mut params = self.capped_at_promotion(variant);
        for index in [
            params.layout.mop_up_edge(),
            params.layout.mop_up_kings(),
            params.layout.mop_up_king_squares(),
        ] {
            let Pair(middlegame, endgame) = params.weights[index];
            params.weights[index] = Pair(middlegame.max(0), endgame.max(0));
        }
        params
    }

    /// These parameters with the pawn bonuses lowered where a pawn would
    /// otherwise be worth more than what it can become: in each phase, a
    /// passed pawn on any rank (material, advance and passed bonus
    /// together) stays [`PROMOTION_MARGIN`] below the most valuable type
    /// it may promote to, so that promoting always gains. Variants whose
    /// pawns cannot promote keep their bonuses.
    pub fn capped_at_promotion(mut self, variant: &Variant) -> EvalParams {
        let Some(pawn) = variant.pieces.iter().position(|p| p.pawn) else {
            return self;
        };
        let best = |phase: fn(Pair) -> i32| {
            variant
                .promotion_types
                .iter()
                .map(|&t| phase(self.weights[self.layout.material(t)]))
                .max()
        };
        let (Some(best_mg), Some(best_eg)) = (best(|p| p.0), best(|p| p.1)) else {
            return self;
        };
        let Pair(pawn_mg, pawn_eg) = self.weights[self.layout.material(pawn)];
        let room = Pair(
            best_mg - PROMOTION_MARGIN - pawn_mg,
            best_eg - PROMOTION_MARGIN - pawn_eg,
        );
        for rank in 0..self.layout.ranks {
            let advance = self.layout.pawn_rank(rank);
            let passed = self.layout.passed(rank);
            for (room, get) in [
                (
                    room.0,
                    (|p: &mut Pair| &mut p.0) as fn(&mut Pair) -> &mut i32,
                ),
                (room.1, |p: &mut Pair| &mut p.1),
            ] {
                let advance_weight = get(&mut self.weights[advance]);
                *advance_weight = (*advance_weight).min(room);
                let allowed = room - *advance_weight;
                let passed_weight = get(&mut self.weights[passed]);
                *passed_weight = (*passed_weight).min(allowed);
            }
        }
        self
    }

    /// The same material weights with every other weight zero: the
    /// material-only evaluation, a baseline for strength tests.
    pub fn material_only(&self) -> EvalParams {
        let mut params = self.clone();
        for (index, weight) in params.weights.iter_mut().enumerate() {
            if index >= params.layout.types {
                *weight = Pair::default();
            }
        }
        params
    }

    /// The material weights (middlegame, endgame) of a piece type.
    pub fn piece_value(&self, piece_type: usize) -> Pair {
        self.weights[self.layout.material(piece_type)]
    }

    /// Sets a piece type's material weights.
    pub fn set_piece_value(&mut self, piece_type: usize, value: Pair) {
        let index = self.layout.material(piece_type);
        self.weights[index] = value;
    }

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
fn parse_for_variant<T: serde::de::DeserializeOwned>(
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

fn type_of(variant: &Variant, letter: &str) -> Option<usize> {
    let mut chars = letter.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => variant.type_of_letter(c),
        _ => None,
    }
}
