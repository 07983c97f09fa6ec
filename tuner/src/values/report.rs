//! The report of a run: Markdown with the values of both estimators per
//! search budget, the values against the budget, the precision against
//! the games played, the chess calibration, validation matches, plots,
//! and the values files the engine loads (`data/values/<variant>.toml`
//! format).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::util::files::same_file;
use crate::values::values_file::values_files;
use crate::values::values_tables::{
    budget_heading, budgets_table, engine_values_differ, progression_section,
};

use crate::values::calibration::calibration_section;
use crate::values::design_comparison::{comparison_section, DesignComparison};
use crate::values::figures::{budgets_plot, values_plot};
use crate::values::run::results::RunResults;
use crate::values::run::settings::RunHeader;
use crate::values::validation::Validation;
use crate::values::values_file::values_file;
use crate::values::values_tables::estimated_values_line;
use crate::values::values_tables::values_table;
use crate::values::verdict::VerdictRule;
use crate::values::verdict_table::verdict_tables;

/// The Markdown report; `name` is the stem of the files beside it.
pub fn markdown(
    results: &RunResults,
    rule: &VerdictRule,
    validations: &[Validation],
    comparisons: &[DesignComparison],
    name: &str,
) -> String {
    let header = &results.header;
    let s = &header.settings;
    let types = &header.types;
    let mut text = format!("# Piece values of `{}`\n\n", s.variant);
    let openings = match &s.openings {
        crate::values::run::settings::DesignOpenings::Book(file) => {
            format!("positions of the book `{}`", file.path)
        }
        crate::values::run::settings::DesignOpenings::Random { plies } => {
            format!("random {plies}-ply openings")
        }
    };
    let _ = writeln!(
        text,
        "Engine {} (bench signature {} at depth {}); seed {}. The engine plays every game with {} \
         and keeps them for the whole run. Designed experiment: {} batches of {} game pairs per \
         budget from {openings}, each pair one trade played with each colour{}{}. Games end by the \
         rules, at a forced mate both sides see, {}or drawn at ply {}.\n",
        header.engine_version,
        header.search_signature,
        crate::values::SIGNATURE_DEPTH,
        s.seed,
        match &s.engine_values {
            Some(file) => format!("the values of `{}`", file.path),
            None if header.engine_values_estimated => "piece values estimated from the pieces' \
                moves (the variant has no values file; the tables' \"estimated\" column)"
                .to_string(),
            None if engine_values_differ(results) => "the variant's default evaluation, its \
                fitted parameters (`data/params/`), whose piece values (the tables' \"engine \
                plays\" column, in the engine's own pawns) are not the suggested ones,"
                .to_string(),
            None => "the variant's built-in values (the suggested ones)".to_string(),
        },
        s.batches,
        s.pairs_per_batch,
        if s.until_verdicts.is_some() {
            " (at most: the run stops once every verdict is in)"
        } else {
            ""
        },
        if s.observational_games == 0 {
            "; no observational games".to_string()
        } else {
            format!(
                "; observational: {} self-play games per budget from random {}-ply openings, up to \
                 {} quiet positions each from ply {}",
                s.observational_games, s.opening_plies, s.per_game, s.skip_plies
            )
        },
        s.ending.resign.map_or(String::new(), |r| format!(
            "when both agree for {} moves that one is {} cp ahead, ",
            r.moves, r.score
        )),
        s.ending.max_plies
    );
    let _ = writeln!(text, "{}\n", design_line(header));
    if let Some(line) = estimated_values_line(results) {
        let _ = writeln!(text, "{line}\n");
    }
    if s.quick {
        text.push_str("**A `--quick` run**: few games; the intervals are wide.\n\n");
    }
    text.push_str(&verdict_tables(results, rule));
    for budget in &results.budgets {
        let _ = writeln!(text, "## Values at {} nodes per move\n", budget.nodes);
        let _ = writeln!(text, "{}", budget_heading(results, budget));
        text.push_str(&values_table(results, budget));
        if let Some(design) = &budget.design {
            let mut rows = String::new();
            for t in types.pieces() {
                if let (Some(b), Some(c)) = (design.intervals[t], design.curvature[t]) {
                    let _ = write!(
                        rows,
                        "{} {:.2}/{:.2}; ",
                        types.letters[t],
                        b.half_width(),
                        c.half_width()
                    );
                }
            }
            let _ = writeln!(
                text,
                "\nHalf-widths, percentile bootstrap over {} pairs ({} resamples, {} failed) / likelihood curvature \
                 (sandwich over pairs): {}",
                design.groups, design.resamples.0, design.resamples.1, rows.trim_end_matches("; ")
            );
        }
        let _ = writeln!(
            text,
            "\nGames: White won {}, drew {}, lost {}; endings: {}.\n",
            budget.outcomes[0],
            budget.outcomes[1],
            budget.outcomes[2],
            budget
                .terminations
                .iter()
                .map(|(t, n)| format!("{t} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let _ = writeln!(text, "![values]({name}-{}.svg)\n", budget.nodes);
        text.push_str("### Precision against games\n\n");
        text.push_str(&progression_section(results, budget));
        text.push_str(&comparison_section(results, budget.nodes, comparisons));
        text.push_str("\n### Trades played (pairs)\n\n");
        let trades: Vec<String> = budget
            .trades
            .iter()
            .take(30)
            .map(|(label, n)| format!("{label} {n}"))
            .collect();
        let _ = writeln!(
            text,
            "{}{}\n",
            trades.join(", "),
            if budget.trades.len() > 30 {
                format!(", and {} more", budget.trades.len() - 30)
            } else {
                String::new()
            }
        );
        if s.variant == "chess" {
            text.push_str("### Calibration against Kaufman (1999) and Tomasev et al. (2020)\n\n");
            text.push_str(&calibration_section(results, budget));
            text.push('\n');
        }
    }
    if results.budgets.len() > 1 {
        text.push_str("## Values against search strength\n\n");
        text.push_str(&budgets_table(results));
        let _ = writeln!(text, "\n![values against nodes]({name}-budgets.svg)\n");
    }
    text.push_str("## Validation\n\n");
    if validations.is_empty() {
        text.push_str(
            "No validation match given (`kurier-tune report --validation NAME=PATH/summary.json`; \
             the matches' commands are in `reports/README.md`).\n",
        );
    }
    for validation in validations {
        let _ = writeln!(
            text,
            "- **{}**: {}",
            validation.name,
            validation.lines.join("; ")
        );
    }
    text.push_str("\n## Values files\n\n");
    let links: Vec<String> = values_files(results, name)
        .iter()
        .map(|file| {
            format!(
                "[`{0}`]({0}): the {1}'s values at {2} nodes per move",
                file.file, file.what, file.nodes
            )
        })
        .collect();
    if links.is_empty() {
        text.push_str("No fit at the largest budget, so no values file. ");
    } else {
        let _ = write!(
            text,
            "{}. They load in the engine as values files (a colour-bound piece carries half its \
             pair bonus). ",
            links.join("; ")
        );
    }
    let _ = writeln!(
        text,
        "The fits are in [`{name}-results.json`]({name}-results.json).\n"
    );
    text.push_str(
        "## Method\n\nDesigned experiment: opening positions from which the design takes men of both \
         sides (a piece against pawns, a piece, or two pieces, with the pawns that balance them by the \
         current estimate, give or take one), the men drawn at random among those of their type; only \
         legal, quiet positions kept. Each trade is played twice, the side with the imbalance once White \
         and once Black. Batch by batch the next batch's trades are chosen greedily for the largest \
         expected reduction of the values' variances (Fisher information of the ordinal model at the \
         current fit, or, with `--design-values`, at that file's values, the games played counted \
         either way)",
    );
    if header.design >= 2 {
        text.push_str("; a fifth of every batch's pairs are pawn odds, which no estimate chooses");
    }
    text.push_str(
        ". The fit: an ordered logit of each game's result (win, draw, loss) on \
         the material difference of every type and the pair terms, with White's first move and a draw \
         margin, by maximum likelihood (pawn = 1, scale fitted); 95% intervals by the percentile \
         bootstrap over pairs, and, for comparison, from the likelihood's curvature with the sandwich \
         over pairs. Observational: quiet positions of ordinary self-play games, logistic regression of \
         the result (draws ½) on material, pairs, the side to move and the rest of the engine's \
         evaluation as a column of its own; bootstrap over games.\n\n\
         Verdicts: a suggested value is confirmed when the true value lies within the tolerance of it \
         (by default half the grid the suggested values are written on: 0.5 pawn for whole numbers), \
         refuted when it lies above or below that band. Each piece gets a simultaneous interval, \
         Fieller's for the ratio of its weight to the pawn's (unbounded, so undecided, while the \
         pawn's weight is not told from zero), from the sandwich covariance over pairs; its critical \
         value c solves Phi(-c) + Phi(-c - D) = a, D the band's width in standard errors and a the \
         piece's share of the error, so that a wrong verdict has probability at most a whether the \
         true value lies inside the band or outside. The shares: the familywise rate split evenly over \
         the pieces (Bonferroni; every piece has exactly one true answer, so a step-down gains \
         nothing), and in a run `--until-verdicts` over its looks, one after each batch, look k of at \
         most K spending alpha ((k/K)^2 - ((k-1)/K)^2); a verdict, once in, stands. The union bound \
         holds over the looks whatever their dependence, the adaptive design's included. The common \
         scale divides every value by the geometric mean of the pieces' ratios to their suggested \
         values (least squares of logarithms; its verdicts use the delta method on the logarithm, the \
         factor's uncertainty included, and form a family of their own, the pawn in it). Tested on \
         simulated experiments in `tuner/tests/verdicts.rs`.\n",
    );
    text
}

/// Writes the report of `results` into `out`: `<name>.md`, `<name>.toml`,
/// `<name>-observational.toml`, `<name>-<nodes>.svg` per budget,
/// `<name>-budgets.svg` (with several budgets), `<name>-results.json`
/// and, with a Texel fit, `<name>-params.toml`. Returns the files.
pub fn write_report(
    results: &RunResults,
    rule: &VerdictRule,
    validations: &[Validation],
    comparisons: &[DesignComparison],
    out: &Path,
    name: &str,
) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut files: Vec<(PathBuf, String)> = vec![(
        out.join(format!("{name}.md")),
        markdown(results, rule, validations, comparisons, name),
    )];
    for file in values_files(results, name) {
        files.push((
            out.join(&file.file),
            values_file(
                results,
                file.estimate,
                &format!("{}, {} nodes", file.what, file.nodes),
            ),
        ));
    }
    for budget in &results.budgets {
        files.push((
            out.join(format!("{name}-{}.svg", budget.nodes)),
            values_plot(results, budget, rule)?,
        ));
    }
    if results.budgets.len() > 1 {
        files.push((
            out.join(format!("{name}-budgets.svg")),
            budgets_plot(results, rule)?,
        ));
    }
    if let Some(texel) = &results.texel {
        files.push((out.join(format!("{name}-params.toml")), texel.clone()));
    }
    files.push((
        out.join(format!("{name}-results.json")),
        serde_json::to_string_pretty(results).map_err(|e| e.to_string())?,
    ));
    for (path, _) in &files {
        refuse_to_overwrite_an_input(results, path)?;
    }
    for (path, text) in &files {
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(files.into_iter().map(|(path, _)| path).collect())
}

/// An error when `path` is a values file the run reads again when
/// resumed, still as it was recorded: a report written over it would
/// leave the run unable to go on (its settings would no longer match).
fn refuse_to_overwrite_an_input(results: &RunResults, path: &Path) -> Result<(), String> {
    for (option, input) in results.header.settings.values_inputs() {
        if same_file(path, Path::new(&input.path)) && input.reread().is_ok() {
            return Err(format!(
                "{}: the run's {option} file, which it reads again whenever it is resumed; the \
                 report would write its own values over it: give the report another --out or \
                 --name",
                path.display()
            ));
        }
    }
    Ok(())
}

/// What chose the trades: the design's version, and the values every
/// batch was designed at or the fit it followed.
fn design_line(header: &RunHeader) -> String {
    let version = match header.design {
        0 => "a design from before its version was recorded".to_string(),
        version => format!("design version {version}"),
    };
    match (&header.settings.design_values, &header.design_values) {
        (Some(file), Some(values)) => {
            let listed: Vec<String> = header
                .types
                .pieces()
                .into_iter()
                .map(|t| format!("{} {:.2}", header.types.letters[t], values[t]))
                .collect();
            format!(
                "The trades ({version}) were chosen at the values of `{}` ({}), whatever the \
                 games' results.",
                file.path,
                listed.join(", ")
            )
        }
        _ => format!(
            "The trades ({version}) were chosen batch by batch at the fit of the games before \
             each batch."
        ),
    }
}
