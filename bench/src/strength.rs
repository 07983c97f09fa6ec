//! Strength results as data: every match of the strength record (the
//! SPRTs of the strength log, the cutechess matches against other engines,
//! the matches against the build before the work, ...) is one JSON file in
//! `bench/results/strength/`, with the field names of `kurier-tune
//! match`'s `summary.json` where it has them (`variant`, `games`, `wins`,
//! `draws`, `losses`, `pentanomial`, `elo` with `elo`, `error`, `low`,
//! `high`, `sprt` with `elo0`, `elo1`, `llr`, `decision`, a player's
//! `limit`). The tables of `bench/README.md` are generated from them, each
//! between the marker comments `<!-- strength-table: NAME -->` and
//! `<!-- strength-table end -->`.

use std::fmt::Write;
use std::path::Path;

use serde::Deserialize;

/// The first line of a generated table's block; the table's name follows.
pub const BEGIN_MARKER: &str = "<!-- strength-table: ";
/// The line that ends a generated table's block.
pub const END_MARKER: &str = "<!-- strength-table end -->";

/// Which table of `bench/README.md` a result belongs to.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Table {
    /// The strength log: every engine change tried, kept or dropped.
    Log,
    /// Matches against other engines (cutechess-cli).
    Engines,
    /// Matches against the build before this work, per variant.
    Baseline,
    /// Two threads against one at equal time.
    Threads,
    /// The engine against itself with parts switched off.
    Sanity,
}

impl Table {
    /// Every table, in the order of `bench/README.md`.
    pub const ALL: [Table; 5] = [
        Table::Log,
        Table::Engines,
        Table::Baseline,
        Table::Threads,
        Table::Sanity,
    ];

    /// The name in the files' `table` field and in the README's markers.
    pub fn name(self) -> &'static str {
        match self {
            Table::Log => "log",
            Table::Engines => "engines",
            Table::Baseline => "baseline",
            Table::Threads => "threads",
            Table::Sanity => "sanity",
        }
    }

    /// The table named `name`.
    pub fn from_name(name: &str) -> Option<Table> {
        Table::ALL.into_iter().find(|table| table.name() == name)
    }
}

/// A search limit per move, as a player's `limit` in `summary.json`.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Limit {
    /// About this many nodes per move.
    Nodes(u64),
    /// This depth per move.
    Depth(u32),
    /// A clock for the game.
    Clock(ClockLimit),
}

/// A time control, as `summary.json` writes it.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ClockLimit {
    /// Time for the game, in milliseconds.
    pub base_ms: u64,
    /// Increment per move, in milliseconds.
    pub increment_ms: u64,
}

/// The Elo of the new build (or of Kurier), as the record gave it: with a
/// 95% interval, or with the half-width of one.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Elo {
    /// Elo difference.
    pub elo: f64,
    /// Half the width of the 95% interval, where the record gave it so.
    pub error: Option<f64>,
    /// Lower end of the 95% interval.
    pub low: Option<f64>,
    /// Upper end of the 95% interval (absent where it was infinite).
    pub high: Option<f64>,
}

/// How an SPRT stood when its record was written.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
pub enum Decision {
    /// Neither bound reached: the test was stopped or capped.
    #[serde(rename = "continue")]
    Continue,
    /// The lower bound: the change does not gain `elo1`.
    H0,
    /// The upper bound: the change gains at least `elo0`.
    H1,
}

/// An SPRT's bounds and state.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Sprt {
    /// H0's Elo.
    pub elo0: f64,
    /// H1's Elo.
    pub elo1: f64,
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Where the test stood.
    pub decision: Decision,
}

/// What became of the change or the build tested.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Kept in the engine.
    Kept,
    /// Not kept.
    Dropped,
    /// Replaced by a later test before it was decided.
    Superseded,
    /// Stopped before a decision, the change kept or dropped elsewhere.
    Stopped,
    /// Stopped without a decision.
    Undecided,
    /// Passed, then held back for a while.
    #[serde(rename = "held back")]
    HeldBack,
}

/// One match of the strength record.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StrengthResult {
    /// The table it belongs to.
    pub table: Table,
    /// The test's number in the log (`16`, `16b`), or the row's number.
    pub id: String,
    /// What was tested.
    pub change: Option<String>,
    /// The other engine, for matches against other engines.
    pub opponent: Option<String>,
    /// The variant played.
    pub variant: String,
    /// The commit of the base build.
    pub base: Option<String>,
    /// The commit of the new build, where the record names it.
    pub new: Option<String>,
    /// The search limit of both players.
    pub limit: Option<Limit>,
    /// The opening book.
    pub openings: Option<String>,
    /// Games played.
    pub games: Option<u64>,
    /// Games scheduled, where the match stopped before them.
    pub games_scheduled: Option<u64>,
    /// Why the match stopped before its scheduled games.
    pub games_note: Option<String>,
    /// The new build's (or Kurier's) wins.
    pub wins: Option<u64>,
    /// Draws.
    pub draws: Option<u64>,
    /// The new build's (or Kurier's) losses.
    pub losses: Option<u64>,
    /// Complete pairs by the new build's points 0, 1/2, 1, 3/2, 2.
    pub pentanomial: Option<[u64; 5]>,
    /// The new build's (or Kurier's) mean score per game, 0 to 1.
    pub score: Option<f64>,
    /// Elo with its interval.
    pub elo: Option<Elo>,
    /// The Elo as the record wrote it, where it was not a plain interval
    /// ("about -470", "+759.1 [+634.8, +inf]").
    pub elo_text: Option<String>,
    /// The SPRT, for a test that was one.
    pub sprt: Option<Sprt>,
    /// What became of it.
    pub status: Option<Status>,
    /// The result as the log's table says it.
    pub result: Option<String>,
    /// When it was played (UTC), where known.
    pub date: Option<String>,
    /// The record's account of the test.
    pub note: Option<String>,
    /// The commands that played it.
    #[serde(default)]
    pub commands: Vec<String>,
}

impl StrengthResult {
    /// Checks the record for what its table needs and for counts that
    /// contradict each other.
    pub fn check(&self) -> Result<(), String> {
        let needs = |field: &Option<String>, name: &str| match field {
            Some(_) => Ok(()),
            None => Err(format!("the {} table needs `{name}`", self.table.name())),
        };
        match self.table {
            Table::Log => {
                needs(&self.change, "change")?;
                needs(&self.result, "result")?;
            }
            Table::Engines => needs(&self.opponent, "opponent")?,
            Table::Baseline | Table::Threads | Table::Sanity => needs(&self.new, "new")?,
        }
        let wdl = [self.wins, self.draws, self.losses];
        if wdl.iter().any(Option::is_some) {
            let [Some(wins), Some(draws), Some(losses)] = wdl else {
                return Err("`wins`, `draws` and `losses` go together".into());
            };
            if Some(wins + draws + losses) != self.games {
                return Err(format!(
                    "W/D/L {wins}/{draws}/{losses} do not add up to `games` ({:?})",
                    self.games
                ));
            }
        }
        if let (Some(pairs), Some(games)) = (self.pentanomial, self.games) {
            let counted: u64 = pairs.iter().sum();
            if 2 * counted > games {
                return Err(format!(
                    "{counted} pairs are more games than `games` ({games})"
                ));
            }
        }
        for text in [&self.change, &self.opponent, &self.result, &self.elo_text]
            .into_iter()
            .flatten()
        {
            if text.contains('|') || text.contains('\n') {
                return Err(format!("a table cell holds '|' or a line break: {text:?}"));
            }
        }
        Ok(())
    }
}

/// Every `*.json` file of `dir`, in the order of their names.
pub fn load_results(dir: &Path) -> Result<Vec<StrengthResult>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.extension().is_some_and(|ext| ext == "json") {
            paths.push(path);
        }
    }
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let result: StrengthResult =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            result
                .check()
                .map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(result)
        })
        .collect()
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Milliseconds as seconds without trailing zeros: `3000` as `3`, `30`
/// as `0.03`.
fn seconds(ms: u64) -> String {
    let whole = ms / 1000;
    let fraction = ms % 1000;
    if fraction == 0 {
        whole.to_string()
    } else {
        let digits = format!("{fraction:03}");
        format!("{whole}.{}", digits.trim_end_matches('0'))
    }
}

fn limit_text(limit: Option<Limit>) -> String {
    match limit {
        None => "-".into(),
        Some(Limit::Nodes(nodes)) if nodes % 1000 == 0 => format!("{}k nodes", nodes / 1000),
        Some(Limit::Nodes(nodes)) => format!("{} nodes", thousands(nodes)),
        Some(Limit::Depth(depth)) => format!("depth {depth}"),
        Some(Limit::Clock(clock)) => {
            format!("{}+{}", seconds(clock.base_ms), seconds(clock.increment_ms))
        }
    }
}

fn commit_text(commit: &Option<String>) -> String {
    commit
        .as_ref()
        .map_or_else(|| "-".into(), |commit| format!("`{commit}`"))
}

fn games_text(result: &StrengthResult) -> String {
    let Some(games) = result.games else {
        return "-".into();
    };
    let mut out = thousands(games);
    if let Some(scheduled) = result.games_scheduled {
        let _ = write!(out, " of {}", thousands(scheduled));
    }
    if let Some(note) = &result.games_note {
        let _ = write!(out, ", {note}");
    }
    out
}

fn wdl_text(result: &StrengthResult) -> Option<String> {
    Some(format!(
        "{}/{}/{}",
        result.wins?, result.draws?, result.losses?
    ))
}

fn pairs_text(result: &StrengthResult) -> String {
    match result.pentanomial {
        Some([a, b, c, d, e]) => format!("[{a}, {b}, {c}, {d}, {e}]"),
        None => "-".into(),
    }
}

fn elo_text(result: &StrengthResult) -> String {
    if let Some(text) = &result.elo_text {
        return text.clone();
    }
    match result.elo {
        None => "-".into(),
        Some(Elo {
            elo,
            low: Some(low),
            high: Some(high),
            ..
        }) => format!("{elo:+.1} [{low:+.1}, {high:+.1}]"),
        Some(Elo {
            elo,
            error: Some(error),
            ..
        }) => format!("{elo:+.1} +/- {error:.1}"),
        Some(Elo { elo, .. }) => format!("{elo:+.1}"),
    }
}

/// An Elo bound as the SPRT's command line writes it: `0`, `-5`, `2.5`.
fn bound(elo: f64) -> String {
    format!("{elo}")
}

fn llr_text(sprt: Option<Sprt>) -> String {
    match sprt {
        None => "-".into(),
        Some(sprt) => format!(
            "{:.2} ({}, {}){}",
            sprt.llr,
            bound(sprt.elo0),
            bound(sprt.elo1),
            match sprt.decision {
                Decision::H1 => " H1",
                Decision::H0 => " H0",
                Decision::Continue => ", undecided",
            }
        ),
    }
}

fn cell(text: &Option<String>) -> String {
    text.clone().unwrap_or_else(|| "-".into())
}

fn build_text(result: &StrengthResult) -> String {
    match &result.change {
        Some(change) => format!("{} ({change})", commit_text(&result.new)),
        None => commit_text(&result.new),
    }
}

/// The Markdown table of `table`'s results, in the order given, ending
/// with a line break.
pub fn render_table(table: Table, results: &[StrengthResult]) -> String {
    let rows = results.iter().filter(|result| result.table == table);
    let mut out = String::new();
    match table {
        Table::Log => {
            out.push_str(
                "| # | change | variant | base | limit | games | pairs (or W/D/L) | LLR (bounds) | Elo [95%] | result |\n\
                 |---|---|---|---|---|---:|---|---|---|---|\n",
            );
            for r in rows {
                let pairs = match (r.pentanomial, wdl_text(r)) {
                    (None, Some(wdl)) => format!("W/D/L {wdl}"),
                    _ => pairs_text(r),
                };
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    r.id,
                    cell(&r.change),
                    r.variant,
                    commit_text(&r.base),
                    limit_text(r.limit),
                    games_text(r),
                    pairs,
                    llr_text(r.sprt),
                    elo_text(r),
                    cell(&r.result)
                );
            }
        }
        Table::Engines => {
            out.push_str(
                "| opponent | Kurier build | clock | games | W/D/L (Kurier) | score | Elo (95%) | date |\n\
                 |---|---|---|---|---|---:|---|---|\n",
            );
            for r in rows {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {} | {} |",
                    cell(&r.opponent),
                    build_text(r),
                    limit_text(r.limit),
                    games_text(r),
                    wdl_text(r).unwrap_or_else(|| "-".into()),
                    r.score
                        .map_or_else(|| "-".into(), |score| format!("{:.1}%", score * 100.0)),
                    elo_text(r),
                    cell(&r.date)
                );
            }
        }
        Table::Baseline | Table::Threads | Table::Sanity => {
            out.push_str(
                "| variant | build | base | limit | games | W/D/L | pairs | Elo [95%] | date |\n\
                 |---|---|---|---|---:|---|---|---|---|\n",
            );
            for r in rows {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    r.variant,
                    build_text(r),
                    commit_text(&r.base),
                    limit_text(r.limit),
                    games_text(r),
                    wdl_text(r).unwrap_or_else(|| "-".into()),
                    pairs_text(r),
                    elo_text(r),
                    cell(&r.date)
                );
            }
        }
    }
    out
}

/// `readme` with every marked table block replaced by the table generated
/// from `results`. Refuses an unknown table name, a block without its end,
/// and a README that lacks one of the tables.
pub fn update_readme(readme: &str, results: &[StrengthResult]) -> Result<String, String> {
    let mut out = String::new();
    let mut found = Vec::new();
    let mut lines = readme.lines().enumerate();
    while let Some((number, line)) = lines.next() {
        out.push_str(line);
        out.push('\n');
        let Some(rest) = line.strip_prefix(BEGIN_MARKER) else {
            continue;
        };
        let name = rest.trim_end().trim_end_matches("-->").trim();
        let table = Table::from_name(name)
            .ok_or_else(|| format!("line {}: no table named {name:?}", number + 1))?;
        if found.contains(&table) {
            return Err(format!("line {}: the table {name:?} again", number + 1));
        }
        found.push(table);
        out.push_str(&render_table(table, results));
        loop {
            match lines.next() {
                Some((_, line)) if line == END_MARKER => break,
                Some(_) => {}
                None => {
                    return Err(format!(
                        "line {}: the table {name:?} has no {END_MARKER:?}",
                        number + 1
                    ))
                }
            }
        }
        out.push_str(END_MARKER);
        out.push('\n');
    }
    if let Some(missing) = Table::ALL.into_iter().find(|table| !found.contains(table)) {
        return Err(format!("no block {BEGIN_MARKER}{} -->", missing.name()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_the_record_writes_them() {
        assert_eq!(thousands(4904), "4,904");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(415), "415");
        assert_eq!(seconds(3000), "3");
        assert_eq!(seconds(30), "0.03");
        assert_eq!(seconds(100), "0.1");
        assert_eq!(bound(-5.0), "-5");
        assert_eq!(bound(0.0), "0");
        assert_eq!(bound(2.5), "2.5");
    }
}
