//! Piece values from games rather than opinion (`kurier-tune values` and
//! `kurier-tune report`).
//!
//! Two estimators, one file per step:
//! - the designed experiment, the main one: [`design`] chooses trades
//!   ([`trade`]: men taken from both sides of an opening) where they tell
//!   most, [`instance`] makes legal, quiet positions of them,
//!   [`experiment`] plays them in pairs of games ([`design_game`]) and
//!   fits them with [`ordinal`], an ordered logit with draws, by maximum
//!   likelihood;
//! - the observational one: [`generate`] plays ordinary self-play games
//!   into a [`dataset`](crate::positions::dataset) of quiet positions,
//!   and [`observational`] fits the results on material with the rest of
//!   the evaluation as a column of its own (by
//!   [`logistic`](crate::stats::logistic) regression);
//!   [`texel`](crate::texel::fit) fits every evaluation weight on the
//!   same data;
//! - [`features`]: what both models see (material and the pairs of
//!   colour-bound pieces); [`bootstrap`](crate::stats::bootstrap): 95%
//!   intervals over pairs or games; [`estimate`]: what an estimator
//!   reports;
//! - [`look`]: the fit after each batch; [`verdict`]: confirmed,
//!   refuted or undecided for each suggested value, the familywise error
//!   held over the pieces and the looks; [`common_scale`]: the values on
//!   the scale that best fits the suggested set;
//! - [`run`]: the run, per search budget, journaled, resumable, in
//!   shards that merge into what one machine plays;
//! - [`report`], [`figures`] and [`plot`]: the Markdown report with its
//!   plots and the values files the engine loads, led by the
//!   [`verdict_table`] ([`report_text`]: the pieces of text they share);
//!   [`cli::values`](crate::cli::values): the command-line arguments;
//! - [`pooled`]: several runs fitted as one, and each run's design judged
//!   at that fit (the efficiency benchmark);
//! - [`synthetic`]: experiments with known true values, for the tests.

pub mod budget_change;
pub mod calibration;
pub mod common_scale;
pub mod design;
pub mod design_comparison;
pub mod design_game;
pub mod efficiency;
pub mod estimate;
pub mod experiment;
pub mod features;
pub mod figures;
pub mod generate;
pub mod instance;
pub mod look;
pub mod observational;
pub mod ordinal;
pub mod plot;
pub mod pooled;
pub mod report;
pub mod report_text;
pub mod run;
pub mod synthetic;
pub mod trade;
pub mod validation;
pub mod values_file;
pub mod values_tables;
pub mod verdict;
pub mod verdict_table;

use kurier_engine::eval::evaluate::EvalParams;
use kurier_engine::variant::definition::Variant;
use serde::{Deserialize, Serialize};

/// The piece types of a variant as the tuner sees them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceTypes {
    /// Letters, by type index.
    pub letters: Vec<char>,
    /// Names, by type index.
    pub names: Vec<String>,
    /// The king's type.
    pub king: usize,
    /// The pawn's type (the unit of value).
    pub pawn: usize,
}

impl PieceTypes {
    /// The types of `variant`; it needs a pawn type, the unit of value.
    pub fn of(variant: &Variant) -> Result<PieceTypes, String> {
        let pawn = variant
            .pieces
            .iter()
            .position(|p| p.pawn)
            .ok_or_else(|| format!("{} has no pawn, the unit of value", variant.name))?;
        Ok(PieceTypes {
            letters: variant.pieces.iter().map(|p| p.letter).collect(),
            names: variant.pieces.iter().map(|p| p.name.clone()).collect(),
            king: variant.king_type(),
            pawn,
        })
    }

    /// Every type but the king (pawn included), in type order.
    pub fn valued(&self) -> Vec<usize> {
        (0..self.letters.len())
            .filter(|&t| t != self.king)
            .collect()
    }

    /// Every type but the king and the pawn (the unit): the pieces whose
    /// value is measured, in type order.
    pub fn pieces(&self) -> Vec<usize> {
        self.valued()
            .into_iter()
            .filter(|&t| t != self.pawn)
            .collect()
    }

    /// The type whose letter is `letter` (either case).
    pub fn by_letter(&self, letter: char) -> Option<usize> {
        let upper = letter.to_ascii_uppercase();
        self.letters.iter().position(|&l| l == upper)
    }
}

/// Piece values in pawns (pawn = 1), by type index; the king's is 0.
pub type Values = Vec<f64>;

/// The material values (middlegame weight, centipawns / 100) of `params`.
pub fn values_of(params: &EvalParams, types: &PieceTypes) -> Values {
    (0..types.letters.len())
        .map(|t| {
            if t == types.king {
                0.0
            } else {
                f64::from(params.piece_value(t).0) / 100.0
            }
        })
        .collect()
}

/// `base` with its material weights (middlegame and endgame alike) set to
/// `values`, rounded to centipawns.
pub fn params_with_values(base: &EvalParams, types: &PieceTypes, values: &[f64]) -> EvalParams {
    let mut params = base.clone();
    for t in types.valued() {
        let centipawns = (values[t] * 100.0).round() as i32;
        params.set_piece_value(
            t,
            kurier_engine::eval::evaluate::Pair(centipawns, centipawns),
        );
    }
    params
}

/// The indices of the material weights of `params` (found by changing
/// each piece value and seeing which weights move, so that they are found
/// whatever the layout of the weights).
pub fn material_indices(params: &EvalParams, types: &PieceTypes) -> Vec<usize> {
    let mut indices = Vec::new();
    for t in 0..types.letters.len() {
        let kurier_engine::eval::evaluate::Pair(middlegame, endgame) = params.piece_value(t);
        let mut probe = params.clone();
        probe.set_piece_value(
            t,
            kurier_engine::eval::evaluate::Pair(middlegame ^ 0x5A5A, endgame ^ 0x3C3C),
        );
        indices.extend(
            params
                .weights
                .iter()
                .zip(&probe.weights)
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .map(|(index, _)| index),
        );
    }
    indices.sort_unstable();
    indices.dedup();
    indices
}

/// Depth of the search that fingerprints the engine ([`search_signature`]).
pub const SIGNATURE_DEPTH: u32 = 5;

/// The node count of `kurier bench` for `variant` at [`SIGNATURE_DEPTH`]
/// on one thread: equal counts mean that this build searches, and so
/// plays games at fixed nodes, as the one that recorded the count.
pub fn search_signature(variant: &str) -> Result<u64, String> {
    let lines =
        kurier_engine::protocol::bench::run(&[variant.to_string()], SIGNATURE_DEPTH, 1, 16)?;
    Ok(lines.iter().map(|line| line.nodes).sum())
}

/// The engine's version: the crate version and the git commit it was
/// built from (`tuner/build.rs`), when built in a git checkout.
pub fn engine_version() -> String {
    env!("KURIER_VERSION").to_string()
}
