//! The report of a tuning run: Markdown with the values table, the
//! rounds, the odds matches and the validation, two SVG plots, and the
//! values file the engine loads (`data/values/<variant>.toml` format).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::bootstrap::Interval;
use super::imbalance::{elo_per_pawn, measured_value, MeasuredValue};
use super::iterate::{playable_values, Journal, RoundRecord};
use super::svg::{plot, Marker, Series, PALETTE};
use crate::stats::{Pentanomial, Sprt, SprtDecision};

/// Kaufman's values (1999) for chess, the calibration reference.
pub const KAUFMAN_1999: [(char, f64); 5] = [
    ('P', 1.0),
    ('N', 3.25),
    ('B', 3.25),
    ('R', 5.0),
    ('Q', 9.75),
];

/// The odds-match measurements of a run: per type (by index), if measured.
pub fn measured_values(journal: &Journal) -> (Vec<Option<MeasuredValue>>, Option<(f64, Interval)>) {
    let calibration: Vec<(usize, Pentanomial)> = journal
        .odds
        .iter()
        .filter(|r| r.piece.is_none())
        .map(|r| (r.pawns, Pentanomial(r.pairs)))
        .collect();
    let per_pawn = elo_per_pawn(&calibration);
    let mut measured = vec![None; journal.types.letters.len()];
    if let Some(per_pawn) = per_pawn {
        for record in &journal.odds {
            if let Some(t) = record.piece {
                measured[t] = measured_value(record.pawns, &Pentanomial(record.pairs), per_pawn);
            }
        }
    }
    (measured, per_pawn)
}

fn format_interval(value: f64, interval: Option<Interval>) -> String {
    match interval {
        Some(i) => format!("{value:.2} [{:.2}, {:.2}]", i.low, i.high),
        None => format!("{value:.2}"),
    }
}

/// The types in table order: pawn first, then by type index, no king.
fn table_types(journal: &Journal) -> Vec<usize> {
    let types = &journal.types;
    std::iter::once(types.pawn).chain(types.pieces()).collect()
}

/// The values table: piece | suggested | fitted (95% CI) |
/// imbalance-measured (95% CI), in pawns.
pub fn values_table(journal: &Journal) -> String {
    let types = &journal.types;
    let (measured, _) = measured_values(journal);
    let last = journal.final_round();
    let mut table = String::from(
        "| piece | suggested | fitted (95% CI) | imbalance-measured (95% CI) |\n|---|---:|---:|---:|\n",
    );
    for t in table_types(journal) {
        let fitted = match last {
            Some(_) if t == types.pawn => "1 (unit)".to_string(),
            Some(round) => format_interval(round.values[t], round.intervals.values[t]),
            None => "-".to_string(),
        };
        let odds = match (t == types.pawn, measured[t]) {
            (true, _) => "1 (unit)".to_string(),
            (false, Some(m)) => format!(
                "{} vs {} P",
                format_interval(m.value, m.interval),
                m.compensation
            ),
            (false, None) => "-".to_string(),
        };
        // Writing to a String cannot fail.
        let _ = writeln!(
            table,
            "| {} ({}) | {:.2} | {fitted} | {odds} |",
            types.names[t], types.letters[t], journal.suggested[t]
        );
    }
    if journal.settings.imbalance_pairs == 0 {
        table.push_str(
            "\n(No odds matches in this run: `--imbalance-pairs 0`, the default of `--quick`.)\n",
        );
    }
    table
}

/// How near the fit is to the suggested values: how many suggested
/// values lie inside the fitted interval, and the largest difference.
pub fn nearness(journal: &Journal) -> Option<String> {
    let round = journal.final_round()?;
    let types = &journal.types;
    let pieces = types.pieces();
    let inside = pieces
        .iter()
        .filter(|&&t| round.intervals.values[t].is_some_and(|i| i.contains(journal.suggested[t])))
        .count();
    let (worst, difference) = pieces
        .iter()
        .map(|&t| (t, round.values[t] - journal.suggested[t]))
        .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))?;
    let mean_relative = pieces
        .iter()
        .map(|&t| ((round.values[t] - journal.suggested[t]) / journal.suggested[t]).abs())
        .sum::<f64>()
        / pieces.len().max(1) as f64;
    Some(format!(
        "{inside} of {} suggested values lie inside the fitted 95% interval; the largest difference is \
         {difference:+.2} pawns ({}); the mean absolute difference is {:.0}% of the suggested value.",
        pieces.len(),
        types.names[worst],
        100.0 * mean_relative
    ))
}

fn rounds_table(journal: &Journal) -> String {
    let types = &journal.types;
    let columns = table_types(journal);
    let mut table =
        String::from("| round | games | positions | K per pawn | tempo (pawns) | settled |");
    for &t in &columns[1..] {
        let _ = write!(table, " {} |", types.letters[t]);
    }
    table.push_str("\n|---:|---:|---:|---:|---:|---|");
    table.push_str(&"---:|".repeat(columns.len() - 1));
    table.push('\n');
    for round in &journal.rounds {
        let _ = write!(
            table,
            "| {} | {} | {} | {:.3} | {:+.2} | {} |",
            round.round,
            round.games,
            round.positions,
            round.scale,
            round.tempo,
            if round.settled { "yes" } else { "no" }
        );
        for &t in &columns[1..] {
            let _ = write!(
                table,
                " {:.2} (from {:.2}) |",
                round.values[t], round.engine_values[t]
            );
        }
        table.push('\n');
    }
    table
}

fn odds_section(journal: &Journal) -> String {
    let mut text = String::new();
    if journal.settings.imbalance_pairs == 0 {
        text.push_str(
            "No odds matches in this run (`--imbalance-pairs 0`, the default of `--quick`).\n",
        );
        return text;
    }
    let (measured, per_pawn) = measured_values(journal);
    text.push_str(
        "Side A plays without the men named, side B without the pawns named; pairs of games with \
         colours exchanged, both sides the engine with its suggested values. Score and Elo are A's, \
         95% intervals from the pentanomial model.\n\n| match | pairs | pair scores 0/½/1/1½/2 | score | Elo (95% CI) | value (pawns) |\n|---|---:|---|---:|---:|---:|\n",
    );
    for record in &journal.odds {
        let counts = Pentanomial(record.pairs);
        let label = match record.piece {
            None => format!("{} pawn(s) down", record.pawns),
            Some(t) => format!(
                "{} against {} pawn(s)",
                journal.types.names[t], record.pawns
            ),
        };
        let elo = counts.elo();
        let value = record
            .piece
            .and_then(|t| measured[t])
            .map_or("-".to_string(), |m| format_interval(m.value, m.interval));
        let _ = writeln!(
            text,
            "| {label} | {} | {:?} | {} | {} | {value} |",
            counts.pairs(),
            record.pairs,
            elo.map_or("-".to_string(), |e| format!("{:.1}%", 100.0 * e.score)),
            elo.map_or("-".to_string(), |e| format!(
                "{:+.0} [{:+.0}, {:+.0}]",
                e.elo, e.low, e.high
            )),
        );
    }
    match per_pawn {
        Some((slope, interval)) => {
            let _ = writeln!(
                text,
                "\nCalibration: a pawn is worth {slope:.0} Elo [{:.0}, {:.0}] (least squares through the origin \
                 over the pawn-odds matches). A piece's value is `k - e / s` for A's Elo `e` against `k` pawns \
                 and `s` Elo per pawn; this assumes Elo linear in material near balance. Its interval is the \
                 extreme of `k - e / s` over the intervals of `e` and `s`, a conservative box.",
                interval.low, interval.high
            );
        }
        None => text.push_str(
            "\nNo calibration: a pawn-odds match is missing or scored 0% or 100% (an unbounded Elo \
             interval); more pairs are needed to convert the matches into pawns.\n",
        ),
    }
    text
}

fn validation_section(journal: &Journal) -> String {
    let Some(validation) = &journal.validation else {
        return "No validation match in this run.\n".to_string();
    };
    let counts = Pentanomial(validation.counts.pairs);
    let plan = &validation.plan;
    let mut text = format!(
        "Fitted values (as in the values file below) against suggested values, everything else equal, \
         {} nodes per move, game pairs from random {}-ply openings; SPRT elo0 = {}, elo1 = {}, \
         alpha = beta = {} (at most {} pairs).\n\n",
        plan.nodes,
        plan.opening_plies,
        plan.elo0,
        plan.elo1,
        super::validate::SPRT_ERRORS,
        plan.max_pairs
    );
    let _ = writeln!(
        text,
        "- pairs played: {}; pair scores 0/½/1/1½/2 of the fitted side: {:?}",
        counts.pairs(),
        counts.0
    );
    if let Some(e) = counts.elo() {
        let _ = writeln!(
            text,
            "- score {:.1}%, Elo {:+.1} [{:+.1}, {:+.1}] (95%, pentanomial), LOS {:.1}%",
            100.0 * e.score,
            e.elo,
            e.low,
            e.high,
            100.0 * e.los
        );
    }
    if let Ok(sprt) = Sprt::new(
        plan.elo0,
        plan.elo1,
        super::validate::SPRT_ERRORS,
        super::validate::SPRT_ERRORS,
    ) {
        let state = sprt.state(&counts);
        let verdict = match state.decision {
            SprtDecision::AcceptH1 => "H1 accepted: the fitted values are stronger".to_string(),
            SprtDecision::AcceptH0 => {
                "H0 accepted: the fitted values are not stronger by elo1".to_string()
            }
            SprtDecision::Continue if validation.finished => {
                format!(
                    "no decision within {} pairs (the Elo interval above is the result)",
                    plan.max_pairs
                )
            }
            SprtDecision::Continue => "still running".to_string(),
        };
        let _ = writeln!(
            text,
            "- LLR {:.2} (bounds {:.2}, {:.2}): {verdict}",
            state.llr, state.lower, state.upper
        );
    }
    text
}

/// The values file of the final round, in the engine's values format.
pub fn values_file(journal: &Journal) -> Option<String> {
    let round = journal.final_round()?;
    let types = &journal.types;
    let values = playable_values(&round.values, types);
    let mut text = format!(
        "# Piece values in centipawns (pawn = 100), fitted by `kurier-tune values` from\n\
         # {} self-play games ({} positions, round {} of the run, seed {}), engine {}.\n\
         # Logistic regression of the game result on the material difference;\n\
         # the report beside this file gives the 95% intervals.\n\
         variant = \"{}\"\n\n[values]\n",
        round.games,
        round.positions,
        round.round,
        journal.settings.seed,
        engine_description(journal),
        journal.settings.variant
    );
    for t in table_types(journal) {
        let _ = writeln!(
            text,
            "{} = {}",
            types.letters[t],
            (values[t] * 100.0).round() as i64
        );
    }
    Some(text)
}

/// The values plot (`<name>.svg`): suggested, fitted and odds-match
/// values per piece, with their 95% intervals.
pub fn values_plot(journal: &Journal) -> String {
    let types = &journal.types;
    let columns = table_types(journal);
    let labels: Vec<String> = columns
        .iter()
        .map(|&t| types.letters[t].to_string())
        .collect();
    let (measured, _) = measured_values(journal);
    let mut series = vec![Series {
        name: "suggested".to_string(),
        color: PALETTE[6].to_string(),
        marker: Marker::Square,
        joined: false,
        points: columns
            .iter()
            .map(|&t| Some((journal.suggested[t], None)))
            .collect(),
    }];
    if let Some(round) = journal.final_round() {
        series.push(Series {
            name: "fitted (95% CI)".to_string(),
            color: PALETTE[0].to_string(),
            marker: Marker::Dot,
            joined: false,
            points: columns
                .iter()
                .map(|&t| Some((round.values[t], round.intervals.values[t])))
                .collect(),
        });
    }
    if measured.iter().any(Option::is_some) {
        series.push(Series {
            name: "odds matches (95%)".to_string(),
            color: PALETTE[1].to_string(),
            marker: Marker::Triangle,
            joined: false,
            points: columns
                .iter()
                .map(|&t| measured[t].map(|m| (m.value, m.interval)))
                .collect(),
        });
    }
    plot(
        &format!("{}: piece values", journal.settings.variant),
        &labels,
        "pawns",
        &series,
    )
}

/// The convergence plot (`<name>-rounds.svg`): each piece's value at
/// the start and after each round.
pub fn convergence_plot(journal: &Journal) -> String {
    let types = &journal.types;
    let columns = table_types(journal);
    let labels: Vec<String> = std::iter::once("start".to_string())
        .chain(journal.rounds.iter().map(|r| format!("round {}", r.round)))
        .collect();
    let series: Vec<Series> = columns[1..]
        .iter()
        .enumerate()
        .map(|(index, &t)| Series {
            name: types.names[t].clone(),
            color: PALETTE[index % PALETTE.len()].to_string(),
            marker: [Marker::Dot, Marker::Square, Marker::Triangle][index / PALETTE.len() % 3],
            joined: true,
            points: std::iter::once(Some((journal.suggested[t], None)))
                .chain(
                    journal
                        .rounds
                        .iter()
                        .map(|r: &RoundRecord| Some((r.values[t], r.intervals.values[t]))),
                )
                .collect(),
        })
        .collect();
    plot(
        &format!("{}: values over the rounds", journal.settings.variant),
        &labels,
        "pawns",
        &series,
    )
}

/// The files a report consists of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportFiles {
    /// The Markdown report.
    pub markdown: PathBuf,
    /// The values file.
    pub values: PathBuf,
    /// Every file written.
    pub all: Vec<PathBuf>,
}

/// The Markdown report; `name` is the stem of the files beside it.
pub fn markdown(journal: &Journal, name: &str) -> String {
    let s = &journal.settings;
    let mut text = format!("# Piece values of `{}`, from self-play\n\n", s.variant);
    let _ = writeln!(
        text,
        "Engine {}; seed {}; {} nodes per move; up to {} round(s) of {} games; at most {} positions per \
         game, quiet ones only (not in check, quiescence score equal to the static evaluation), \
         from ply {} on; openings of {} random plies; games drawn at ply {}.\n",
        engine_description(journal),
        s.seed,
        s.nodes,
        s.rounds,
        s.games,
        s.per_game,
        s.skip_plies,
        s.opening_plies,
        s.max_plies
    );
    if s.quick {
        text.push_str("**A `--quick` run**: few games and resamples; the intervals are wide and the values rough.\n\n");
    }
    text.push_str("## Values (pawns)\n\n");
    text.push_str(&values_table(journal));
    if let Some(round) = journal.final_round() {
        let _ = writeln!(
            text,
            "\nFitted on round {} ({} games, {} positions): K = {:.3} per pawn{}, side to move worth {:+.2} \
             pawns{}; {} bootstrap resamples over games{}; L2 toward the suggested values: {}.\n",
            round.round,
            round.games,
            round.positions,
            round.scale,
            round.intervals.scale.map_or(String::new(), |i| format!(" [{:.3}, {:.3}]", i.low, i.high)),
            round.tempo,
            round.intervals.tempo.map_or(String::new(), |i| format!(" [{:+.2}, {:+.2}]", i.low, i.high)),
            round.intervals.resamples,
            if round.intervals.failed > 0 { format!(" ({} failed, left out)", round.intervals.failed) } else { String::new() },
            if s.l2 > 0.0 { s.l2.to_string() } else { "none".to_string() }
        );
    }
    if let Some(line) = nearness(journal) {
        let _ = writeln!(text, "{line}\n");
    }
    if s.variant == "chess" {
        let kaufman: Vec<String> = KAUFMAN_1999[1..]
            .iter()
            .map(|(l, v)| format!("{l} {v}"))
            .collect();
        let _ = writeln!(
            text,
            "For chess the suggested values are Kaufman's (1999): {}; the line above says how near the fit \
             comes to them.\n",
            kaufman.join(", ")
        );
    }
    let _ = writeln!(text, "![values]({name}.svg)\n");
    text.push_str("## Rounds\n\nEach round's engine plays with the values in brackets (round 1: the suggested ones) and the round fits new ones; a round is settled when every value moved less than the half-width of its interval.\n\n");
    text.push_str(&rounds_table(journal));
    let _ = writeln!(text, "\n![convergence]({name}-rounds.svg)\n");
    text.push_str("## Odds matches (H.G. Muller's method)\n\n");
    text.push_str(&odds_section(journal));
    text.push_str("\n## Validation match\n\n");
    text.push_str(&validation_section(journal));
    if let Some(texel) = &journal.texel {
        let _ = writeln!(
            text,
            "\n## Every evaluation weight (Texel method)\n\nFitted on {} positions of the last round, scale {:.5} \
             per centipawn: [`{name}-params.toml`]({name}-params.toml) (the engine's `EvalFile` option reads it).",
            texel.positions, texel.scale
        );
    }
    text.push_str("\n## Values file\n\n");
    let _ = writeln!(
        text,
        "[`{name}.toml`]({name}.toml), loaded by the engine as a values file:\n\n```toml"
    );
    text.push_str(&values_file(journal).unwrap_or_default());
    text.push_str("```\n\n## Method\n\nSelf-play games of the engine against itself; from each, a few quiet positions with the game's result. A logistic regression of the result (draws as ½) on the material difference of each piece type and the side to move: expected score `sigmoid(K (sum_X v_X d_X + t))`, pawn = 1, `K` fitted with the values. 95% intervals: percentile bootstrap, resampling whole games. Journal of the run: ");
    let _ = writeln!(text, "[`{name}-journal.json`]({name}-journal.json).");
    text
}

/// Writes the report of the run in `run_folder` into `out` as
/// `<name>.md`, `<name>.toml`, `<name>.svg`, `<name>-rounds.svg`,
/// `<name>-journal.json` and (with a Texel fit) `<name>-params.toml`.
pub fn write_report(journal: &Journal, out: &Path, name: &str) -> Result<ReportFiles, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let values = values_file(journal).ok_or("the run has no finished round yet")?;
    let mut files: Vec<(PathBuf, String)> = vec![
        (out.join(format!("{name}.md")), markdown(journal, name)),
        (out.join(format!("{name}.toml")), values),
        (out.join(format!("{name}.svg")), values_plot(journal)),
        (
            out.join(format!("{name}-rounds.svg")),
            convergence_plot(journal),
        ),
    ];
    if let Some(texel) = &journal.texel {
        files.push((
            out.join(format!("{name}-params.toml")),
            texel.params_toml.clone(),
        ));
    }
    let journal_copy = out.join(format!("{name}-journal.json"));
    journal.write(&journal_copy)?;
    for (path, text) in &files {
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let mut all: Vec<PathBuf> = files.into_iter().map(|(path, _)| path).collect();
    all.push(journal_copy);
    Ok(ReportFiles {
        markdown: all[0].clone(),
        values: all[1].clone(),
        all,
    })
}

/// The engine that played the run: its version and, when recorded, its
/// search signature (see [`search_signature`](super::search_signature)).
fn engine_description(journal: &Journal) -> String {
    match journal.search_signature {
        Some(signature) => format!(
            "{} (bench signature {signature} at depth {})",
            journal.engine_version,
            super::SIGNATURE_DEPTH
        ),
        None => journal.engine_version.clone(),
    }
}
