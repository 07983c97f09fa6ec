//! The report of a run: Markdown with the values of both estimators per
//! search budget, the values against the budget, the precision against
//! the games played, the chess calibration, validation matches, plots,
//! and the values files the engine loads (`data/values/<variant>.toml`
//! format).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::tournament::summary::decision_text;
use serde_json::Value;

use crate::values::calibration::calibration_section;
use crate::values::estimate::Estimate;
use crate::values::figures::{budgets_plot, values_plot};
use crate::values::report_text::reference;
use crate::values::report_text::with_interval;
use crate::values::run::{BudgetResult, RunResults};
use crate::values::verdict::VerdictRule;
use crate::values::verdict_table::verdict_tables;
use crate::values::PieceTypes;

/// The lowest value (pawns) a values file gives a piece, so that a badly
/// measured value cannot make the engine give pieces away.
pub const MIN_ENGINE_VALUE: f64 = 0.1;

/// A validation match read from its `summary.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct Validation {
    /// Its name in the report.
    pub name: String,
    /// The summary's text line for its encounter, and its SPRT line.
    pub lines: Vec<String>,
}

impl Validation {
    /// Reads `NAME=PATH` (a match's `summary.json`).
    pub fn read(text: &str) -> Result<Validation, String> {
        let (name, path) = text
            .split_once('=')
            .ok_or_else(|| format!("--validation '{text}': use NAME=PATH/summary.json"))?;
        let json = std::fs::read_to_string(path)
            .map_err(|e| format!("--validation {path}: cannot read it: {e}"))?;
        let summary: Value = serde_json::from_str(&json)
            .map_err(|e| format!("--validation {path}: not a match summary: {e}"))?;
        let encounter = summary["encounters"]
            .get(0)
            .ok_or_else(|| format!("--validation {path}: no encounter in the summary"))?;
        let players: Vec<String> = summary["settings"]["players"]
            .as_array()
            .map(|players| {
                players
                    .iter()
                    .map(|p| {
                        format!(
                            "{} ({})",
                            p["name"].as_str().unwrap_or("?"),
                            limit_text(&p["limit"])
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut lines = vec![format!("players: {}", players.join(" vs "))];
        let elo = &encounter["elo"];
        lines.push(format!(
            "{} vs {}: W/D/L {}/{}/{}, Elo {:+.1} [{:+.1}, {:+.1}], pairs {}",
            encounter["first"].as_str().unwrap_or("?"),
            encounter["second"].as_str().unwrap_or("?"),
            encounter["wins"],
            encounter["draws"],
            encounter["losses"],
            elo["elo"].as_f64().unwrap_or(f64::NAN),
            elo["low"].as_f64().unwrap_or(f64::NAN),
            elo["high"].as_f64().unwrap_or(f64::NAN),
            encounter["pentanomial"]
        ));
        if let Some(sprt) = summary["sprt"].as_object() {
            lines.push(format!(
                "SPRT [{}, {}]: LLR {:.2} (bounds {:.2}, {:.2}), {}",
                sprt["elo0"],
                sprt["elo1"],
                sprt["llr"].as_f64().unwrap_or(f64::NAN),
                sprt["lower"].as_f64().unwrap_or(f64::NAN),
                sprt["upper"].as_f64().unwrap_or(f64::NAN),
                decision_text(sprt["decision"].as_str().unwrap_or("?"))
            ));
            lines.push(format!(
                "{} of {} games played, status {}",
                summary["games"]["played"],
                summary["games"]["scheduled"],
                summary["status"].as_str().unwrap_or("?")
            ));
        }
        Ok(Validation {
            name: name.to_string(),
            lines,
        })
    }
}

fn limit_text(limit: &Value) -> String {
    if let Some(nodes) = limit.get("nodes") {
        format!("{nodes} nodes")
    } else if let Some(depth) = limit.get("depth") {
        format!("depth {depth}")
    } else if let Some(clock) = limit.get("clock") {
        format!(
            "{}+{} s",
            clock["base_ms"].as_f64().unwrap_or(0.0) / 1000.0,
            clock["increment_ms"].as_f64().unwrap_or(0.0) / 1000.0
        )
    } else {
        limit.to_string()
    }
}

/// The types in table order: pawn first, then the pieces by type index.
fn table_types(types: &PieceTypes) -> Vec<usize> {
    std::iter::once(types.pawn).chain(types.pieces()).collect()
}

fn estimate_cell(estimate: Option<&Estimate>, t: usize, pawn: usize) -> String {
    match estimate {
        None => "-".to_string(),
        Some(_) if t == pawn => "1 (unit)".to_string(),
        Some(e) => with_interval(e.values[t], e.intervals[t]),
    }
}

/// The values tables of every budget, as the `values` command prints them.
pub fn values_tables(results: &RunResults) -> String {
    let mut text = estimated_values_line(results).map_or(String::new(), |line| line + "\n\n");
    for budget in &results.budgets {
        let _ = writeln!(text, "{}", budget_heading(results, budget));
        text.push_str(&values_table(results, budget));
        if let Some(efficiency) = &budget.efficiency {
            let _ = writeln!(
                text,
                "\nEfficiency: {}.",
                efficiency.sentence(&results.header.types)
            );
        }
        text.push('\n');
    }
    text
}

fn budget_heading(results: &RunResults, budget: &BudgetResult) -> String {
    let s = &results.header.settings;
    format!(
        "{} at {} nodes per move: designed experiment {} games ({} CPU s){}",
        s.variant,
        budget.nodes,
        budget.design_games,
        budget.design_cpu_seconds.round(),
        if budget.observational_games > 0 {
            format!(
                ", observational {} games ({} CPU s)",
                budget.observational_games,
                budget.observational_cpu_seconds.round()
            )
        } else {
            String::new()
        }
    )
}

/// Whether the engine played with other piece values than the suggested
/// ones (a variant's fitted parameters, or `--engine-values`).
fn engine_values_differ(results: &RunResults) -> bool {
    results.header.engine_values != results.header.suggested
}

/// The line that says that the engine's values are estimated from the
/// pieces' moves, with the values; none when they are not.
pub fn estimated_values_line(results: &RunResults) -> Option<String> {
    let header = &results.header;
    if !header.engine_values_estimated {
        return None;
    }
    let values: Vec<String> = table_types(&header.types)
        .into_iter()
        .map(|t| format!("{} {:.2}", header.types.letters[t], header.engine_values[t]))
        .collect();
    Some(format!(
        "Engine values: estimated from mobility (no values file): {}.",
        values.join(", ")
    ))
}

/// One budget's values table: piece | suggested | (engine, when its values
/// differ) | designed | (common scale, when the fit has it) |
/// observational.
pub fn values_table(results: &RunResults, budget: &BudgetResult) -> String {
    let types = &results.header.types;
    let engine_column = engine_values_differ(results);
    let common = budget.design.as_ref().and_then(|e| e.common.as_ref());
    let mut table = format!("\n| piece | {} |", reference(results));
    if engine_column {
        table.push_str(" engine plays |");
    }
    table.push_str(" designed experiment (95% CI) |");
    if common.is_some() {
        table.push_str(" common scale (95% CI) |");
    }
    table.push_str(" observational (95% CI) |\n|---|---:|");
    if engine_column {
        table.push_str("---:|");
    }
    if common.is_some() {
        table.push_str("---:|");
    }
    table.push_str("---:|---:|\n");
    let engine_pawn = results.header.engine_values[types.pawn];
    for t in table_types(types) {
        let engine = if engine_column {
            format!(" {:.2} |", results.header.engine_values[t] / engine_pawn)
        } else {
            String::new()
        };
        let common_cell = common.map_or(String::new(), |c| {
            format!(" {} |", with_interval(c.values[t], c.intervals[t]))
        });
        let _ = writeln!(
            table,
            "| {} ({}) | {:.2} |{engine} {} |{common_cell} {} |",
            types.names[t],
            types.letters[t],
            results.header.suggested[t],
            estimate_cell(budget.design.as_ref(), t, types.pawn),
            estimate_cell(budget.observational.as_ref(), t, types.pawn),
        );
    }
    for (index, &t) in results.header.space.pair_types.iter().enumerate() {
        let cell = |e: Option<&Estimate>| {
            e.and_then(|e| e.pairs.get(index))
                .map_or("-".to_string(), |&(_, v, i)| with_interval(v, i))
        };
        let _ = writeln!(
            table,
            "| {} pair (bonus) | - |{} {} |{} {} |",
            types.names[t],
            if engine_column { " - |" } else { "" },
            cell(budget.design.as_ref()),
            if common.is_some() { " - |" } else { "" },
            cell(budget.observational.as_ref())
        );
    }
    for (label, estimate, error) in [
        ("designed", budget.design.as_ref(), &budget.design_error),
        (
            "observational",
            budget.observational.as_ref(),
            &budget.observational_error,
        ),
    ] {
        match (estimate, error) {
            (Some(e), _) => {
                let mut extras: Vec<String> = e
                    .extra
                    .iter()
                    .map(|q| format!("{} {}", q.name, with_interval(q.value, q.interval)))
                    .collect();
                if let Some(common) = &e.common {
                    extras.push(format!(
                        "common scale: the suggested values times {} fit the measured pieces best \
                         (measured pawns per suggested pawn, least squares of logarithms)",
                        with_interval(common.factor, common.factor_interval)
                    ));
                }
                let _ = writeln!(table, "\n{label}: {}.", extras.join("; "));
            }
            (None, Some(error)) => {
                let _ = writeln!(table, "\n{label}: no estimate ({error}).");
            }
            (None, None) => {}
        }
    }
    table
}

fn budgets_table(results: &RunResults) -> String {
    let types = &results.header.types;
    let mut table = format!("| piece | {} |", reference(results));
    for budget in &results.budgets {
        let _ = write!(table, " {} nodes |", budget.nodes);
    }
    table.push_str("\n|---|---:|");
    table.push_str(&"---:|".repeat(results.budgets.len()));
    table.push('\n');
    for t in types.pieces() {
        let _ = write!(
            table,
            "| {} ({}) | {:.2} |",
            types.names[t], types.letters[t], results.header.suggested[t]
        );
        for budget in &results.budgets {
            let _ = write!(
                table,
                " {} |",
                estimate_cell(budget.design.as_ref(), t, types.pawn)
            );
        }
        table.push('\n');
    }
    table
}

fn progression_section(results: &RunResults, budget: &BudgetResult) -> String {
    let types = &results.header.types;
    let mut text =
        String::from("| games | widest 95% half-width (curvature) | of |\n|---:|---:|---|\n");
    for (games, widths) in &budget.progression {
        let widest = types
            .pieces()
            .into_iter()
            .filter_map(|t| widths[t].map(|w| (t, w)))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        match widest {
            Some((t, w)) => {
                let _ = writeln!(text, "| {games} | {w:.2} | {} |", types.names[t]);
            }
            None => {
                let _ = writeln!(text, "| {games} | - | - |");
            }
        }
    }
    if let Some(efficiency) = &budget.efficiency {
        let _ = writeln!(text, "\nEfficiency: {}.", efficiency.sentence(types));
    }
    text
}

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

/// The Markdown report; `name` is the stem of the files beside it.
pub fn markdown(
    results: &RunResults,
    rule: &VerdictRule,
    validations: &[Validation],
    name: &str,
) -> String {
    let header = &results.header;
    let s = &header.settings;
    let types = &header.types;
    let mut text = format!("# Piece values of `{}`\n\n", s.variant);
    let openings = match &s.openings {
        crate::values::run::DesignOpenings::Book(file) => {
            format!("positions of the book `{}`", file.path)
        }
        crate::values::run::DesignOpenings::Random { plies } => {
            format!("random {plies}-ply openings")
        }
    };
    let _ = writeln!(
        text,
        "Engine {} (bench signature {} at depth {}); seed {}. The engine plays every game with {} \
         and keeps them for the whole run. Designed experiment: {} batches of {} game pairs per \
         budget from {openings}, each pair one trade played with each colour; observational: {} \
         self-play games per budget from random {}-ply openings, up to {} quiet positions each from \
         ply {}. Games end by the rules, at a forced mate both sides see, {}or drawn at ply {}.\n",
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
        s.observational_games,
        s.opening_plies,
        s.per_game,
        s.skip_plies,
        s.ending
            .resign
            .map_or(String::new(), |r| format!("when both agree for {} moves that one is {} cp ahead, ", r.moves, r.score)),
        s.ending.max_plies
    );
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
                "[`{0}`]({0}): the {1}'s values at the largest budget",
                file.file, file.what
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
         and once Black. Batch by batch the design adapts: the next batch's trades are chosen greedily \
         for the largest expected reduction of the values' variances (Fisher information of the ordinal \
         model at the current fit). The fit: an ordered logit of each game's result (win, draw, loss) on \
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

/// One values file of a report: a fit of the largest budget.
struct ValuesFile<'r> {
    /// The file's name in the report's folder.
    file: String,
    /// Which estimator fitted it.
    what: &'static str,
    estimate: &'r Estimate,
}

/// The values files of a report named `name`: one per fit the largest
/// budget has (none when its fits failed).
fn values_files<'r>(results: &'r RunResults, name: &str) -> Vec<ValuesFile<'r>> {
    let Some(last) = results.budgets.last() else {
        return Vec::new();
    };
    let fits = [
        (format!("{name}.toml"), "designed experiment", &last.design),
        (
            format!("{name}-observational.toml"),
            "observational fit",
            &last.observational,
        ),
    ];
    fits.into_iter()
        .filter_map(|(file, what, fit)| {
            fit.as_ref().map(|estimate| ValuesFile {
                file,
                what,
                estimate,
            })
        })
        .collect()
}

/// Writes the report of `results` into `out`: `<name>.md`, `<name>.toml`,
/// `<name>-observational.toml`, `<name>-<nodes>.svg` per budget,
/// `<name>-budgets.svg` (with several budgets), `<name>-results.json`
/// and, with a Texel fit, `<name>-params.toml`. Returns the files.
pub fn write_report(
    results: &RunResults,
    rule: &VerdictRule,
    validations: &[Validation],
    out: &Path,
    name: &str,
) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut files: Vec<(PathBuf, String)> = vec![(
        out.join(format!("{name}.md")),
        markdown(results, rule, validations, name),
    )];
    let last = results.budgets.last().ok_or("the run has no budget")?;
    for file in values_files(results, name) {
        files.push((
            out.join(&file.file),
            values_file(
                results,
                file.estimate,
                &format!("{}, {} nodes", file.what, last.nodes),
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
    for (path, text) in &files {
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(files.into_iter().map(|(path, _)| path).collect())
}
