//! The values files a report writes, in the format the engine loads
//! (`data/values/<variant>.toml`), one per estimator and budget.

use std::fmt::Write as _;

use crate::values::values_tables::table_types;

use crate::values::estimate::Estimate;
use crate::values::run::results::RunResults;

/// The lowest value (pawns) a values file gives a piece, so that a badly
/// measured value cannot make the engine give pieces away.
pub const MIN_ENGINE_VALUE: f64 = 0.1;

/// The values file of an estimate: pawn = 100, every piece at least
/// [`MIN_ENGINE_VALUE`] pawns; a colour-bound piece carries half its pair
/// bonus (the engine has no pair term; two such men then carry it whole).
pub fn values_file(results: &RunResults, estimate: &Estimate, what: &str) -> String {
    let types = &results.header.types;
    let mut text = format!(
        "# Piece values in centipawns (pawn = 100), measured by `kurier-tune values`\n\
         # ({what}), engine {}, seed {}; a colour-bound piece carries half its\n\
         # pair bonus. The report beside this file gives the 95% intervals.\n\
         variant = \"{}\"\n\n[values]\n",
        results.header.engine_version,
        results.header.settings.seed,
        results.header.settings.variant
    );
    for t in table_types(types) {
        let pair = estimate
            .pairs
            .iter()
            .find(|(p, _, _)| *p == t)
            .map_or(0.0, |&(_, v, _)| v / 2.0);
        let value = if t == types.pawn {
            1.0
        } else {
            (estimate.values[t] + pair).max(MIN_ENGINE_VALUE)
        };
        let _ = writeln!(
            text,
            "{} = {}",
            types.letters[t],
            (value * 100.0).round() as i64
        );
    }
    text
}

/// One values file of a report: a fit of one budget.
pub(super) struct ValuesFile<'r> {
    /// The file's name in the report's folder.
    pub(super) file: String,
    /// Which estimator fitted it.
    pub(super) what: &'static str,
    /// The budget's nodes per move.
    pub(super) nodes: u64,
    /// The fit.
    pub(super) estimate: &'r Estimate,
}

/// The values files of a report named `name`: one per fit the largest
/// budget has (`name.toml`, `name-observational.toml`; none when its
/// fits failed), and with several budgets the designed fit of each
/// smaller one (`name-<nodes>.toml`), so that a budget added to a run
/// late, with few games yet, does not leave the run without the values
/// of the budgets it has played in full.
pub(super) fn values_files<'r>(results: &'r RunResults, name: &str) -> Vec<ValuesFile<'r>> {
    let Some((last, smaller)) = results.budgets.split_last() else {
        return Vec::new();
    };
    let mut fits = vec![
        (
            format!("{name}.toml"),
            "designed experiment",
            last.nodes,
            &last.design,
        ),
        (
            format!("{name}-observational.toml"),
            "observational fit",
            last.nodes,
            &last.observational,
        ),
    ];
    fits.extend(smaller.iter().map(|budget| {
        (
            format!("{name}-{}.toml", budget.nodes),
            "designed experiment",
            budget.nodes,
            &budget.design,
        )
    }));
    fits.into_iter()
        .filter_map(|(file, what, nodes, fit)| {
            fit.as_ref().map(|estimate| ValuesFile {
                file,
                what,
                nodes,
                estimate,
            })
        })
        .collect()
}
