//! Scores of a run: per player and per encounter, W/D/L, the pentanomial
//! counts of complete game pairs (a pair counts only once both its games
//! are in; half pairs count as games only), Elo with its 95% interval,
//! LOS, draw ratio and the SPRT; the JSON summary and the text report.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use serde::Serialize;

use crate::stats::match_stats::{Pentanomial, Sprt, SprtDecision, SprtState, Wdl};
use crate::tournament::journal::GameEntry;
use crate::tournament::settings::{OpeningSource, TournamentSettings, ENGINE_VERSION};

/// Results of one side of the scoreboard: a player, or the first player
/// of an encounter.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games by result.
    pub wdl: Wdl,
    /// Complete pairs by the points scored.
    pub pairs: Pentanomial,
}

/// Running scores, fed one game at a time.
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    /// Per player, against everyone.
    pub players: Vec<Tally>,
    /// Per encounter (first, second): the first player's results.
    pub encounters: BTreeMap<(usize, usize), Tally>,
    /// Games by termination text.
    pub terminations: BTreeMap<String, u64>,
    /// Games counted.
    pub games: u64,
    /// Pairs with one game in: pair index to the finished game.
    half_pairs: HashMap<usize, GameEntry>,
}

impl Scoreboard {
    /// An empty board for `players` players.
    pub fn new(players: usize) -> Scoreboard {
        Scoreboard {
            players: vec![Tally::default(); players],
            ..Scoreboard::default()
        }
    }

    /// Counts a finished game.
    pub fn add(&mut self, game: &GameEntry) {
        self.games += 1;
        *self
            .terminations
            .entry(game.termination.clone())
            .or_default() += 1;
        let first = game.pair_first();
        let second = if first == game.white {
            game.black
        } else {
            game.white
        };
        for player in [first, second] {
            self.players[player].wdl.add(game.points_of(player));
        }
        let encounter = self.encounters.entry((first, second)).or_default();
        encounter.wdl.add(game.points_of(first));
        match self.half_pairs.remove(&game.pair) {
            None => {
                self.half_pairs.insert(game.pair, game.clone());
            }
            Some(other) => {
                let points = game.points_of(first) + other.points_of(first);
                encounter.pairs.add(points);
                self.players[first].pairs.add(points);
                self.players[second].pairs.add(2.0 - points);
            }
        }
    }

    /// Pairs of which only one game is in.
    pub fn half_pairs(&self) -> usize {
        self.half_pairs.len()
    }
}

/// Elo figures of a tally.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloReport {
    /// Elo difference.
    pub elo: f64,
    /// Half the width of the 95% interval (the `+/-` figure).
    pub error: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Likelihood of superiority, 0 to 1.
    pub los: f64,
    /// Mean score per game in the complete pairs, 0 to 1.
    pub score: f64,
}

impl Tally {
    /// Elo from the complete pairs; `None` without one.
    pub fn elo(&self) -> Option<EloReport> {
        let estimate = self.pairs.elo()?;
        Some(EloReport {
            elo: estimate.elo,
            error: if estimate.high.is_finite() && estimate.low.is_finite() {
                (estimate.high - estimate.low) / 2.0
            } else {
                f64::INFINITY
            },
            low: estimate.low,
            high: estimate.high,
            los: estimate.los,
            score: estimate.score,
        })
    }
}

/// A tally as the summary shows it.
#[derive(Clone, Debug, Serialize)]
pub struct TallyReport {
    /// Games.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Points.
    pub points: f64,
    /// Share of draws.
    pub draw_ratio: f64,
    /// Complete pairs by points 0, 1/2, 1, 3/2, 2.
    pub pentanomial: [u64; 5],
    /// Elo from the complete pairs.
    pub elo: Option<EloReport>,
}

impl From<&Tally> for TallyReport {
    fn from(tally: &Tally) -> TallyReport {
        TallyReport {
            games: tally.wdl.games(),
            wins: tally.wdl.wins,
            draws: tally.wdl.draws,
            losses: tally.wdl.losses,
            points: tally.wdl.points(),
            draw_ratio: tally.wdl.draw_ratio(),
            pentanomial: tally.pairs.0,
            elo: tally.elo(),
        }
    }
}

/// One player's line.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    /// The player.
    pub player: String,
    /// Its results against everyone.
    #[serde(flatten)]
    pub tally: TallyReport,
}

/// One encounter's line, from the first player's side.
#[derive(Clone, Debug, Serialize)]
pub struct EncounterReport {
    /// Had white first in every pair.
    pub first: String,
    /// The opponent.
    pub second: String,
    /// The first player's results.
    #[serde(flatten)]
    pub tally: TallyReport,
}

/// The SPRT's state.
#[derive(Clone, Debug, Serialize)]
pub struct SprtReport {
    /// H0's Elo.
    pub elo0: f64,
    /// H1's Elo.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower bound, `ln(beta / (1 - alpha))`.
    pub lower: f64,
    /// Upper bound, `ln((1 - beta) / alpha)`.
    pub upper: f64,
    /// `continue`, `H0` or `H1`.
    pub decision: String,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunEnd {
    /// Every scheduled game was played.
    Finished,
    /// Stopped by the user (games in progress were abandoned).
    Interrupted,
    /// The SPRT decided.
    SprtDecided,
}

/// Counts of games.
#[derive(Clone, Debug, Serialize)]
pub struct GameCounts {
    /// Scheduled for this run (its shard).
    pub scheduled: u64,
    /// Played.
    pub played: u64,
    /// Pairs with both games in.
    pub complete_pairs: u64,
    /// Pairs with one game in (counted as games, not in the pentanomial).
    pub half_pairs: u64,
}

/// The JSON summary of a run: self-describing.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// `kurier-tune`.
    pub tool: String,
    /// Its version.
    pub engine_version: String,
    /// How the run ended.
    pub status: RunEnd,
    /// Every setting.
    pub settings: TournamentSettings,
    /// Game counts.
    pub games: GameCounts,
    /// Games by termination.
    pub terminations: BTreeMap<String, u64>,
    /// Per player, best first.
    pub standings: Vec<Standing>,
    /// Per encounter.
    pub encounters: Vec<EncounterReport>,
    /// The SPRT, for a match with one.
    pub sprt: Option<SprtReport>,
}

impl Summary {
    /// The summary of `board` for a run with `settings` that scheduled
    /// `scheduled` games.
    pub fn new(
        settings: &TournamentSettings,
        board: &Scoreboard,
        scheduled: u64,
        status: RunEnd,
    ) -> Summary {
        let name = |index: usize| settings.players[index].name.clone();
        let mut standings: Vec<Standing> = board
            .players
            .iter()
            .enumerate()
            .map(|(index, tally)| Standing {
                player: name(index),
                tally: tally.into(),
            })
            .collect();
        standings.sort_by(|a, b| b.tally.points.total_cmp(&a.tally.points));
        let complete_pairs = board.encounters.values().map(|t| t.pairs.pairs()).sum();
        Summary {
            tool: "kurier-tune".to_string(),
            engine_version: ENGINE_VERSION.to_string(),
            status,
            settings: settings.clone(),
            games: GameCounts {
                scheduled,
                played: board.games,
                complete_pairs,
                half_pairs: board.half_pairs() as u64,
            },
            terminations: board.terminations.clone(),
            standings,
            encounters: board
                .encounters
                .iter()
                .map(|(&(first, second), tally)| EncounterReport {
                    first: name(first),
                    second: name(second),
                    tally: tally.into(),
                })
                .collect(),
            sprt: sprt_report(settings, board),
        }
    }

    /// The summary as pretty JSON.
    pub fn to_json(&self) -> String {
        // Plain data with string keys always serializes.
        serde_json::to_string_pretty(self)
            .unwrap_or_else(|e| unreachable!("summary serializes: {e}"))
    }

    /// The report people read: one line per encounter and player, in the
    /// style of cutechess-cli and fastchess.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let settings = &self.settings;
        let shard = settings
            .shard
            .map(|s| format!(", shard {s}"))
            .unwrap_or_default();
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "{} on {}: {} of {} games ({} complete pairs, {} half pairs){shard}, {}",
            settings.format,
            settings.variant,
            self.games.played,
            self.games.scheduled,
            self.games.complete_pairs,
            self.games.half_pairs,
            match self.status {
                RunEnd::Finished => "finished",
                RunEnd::Interrupted => "interrupted",
                RunEnd::SprtDecided => "stopped by the SPRT",
            }
        );
        let players: Vec<String> = settings
            .players
            .iter()
            .map(|player| format!("{} ({})", player.name, player.limit))
            .collect();
        let _ = writeln!(out, "players: {}", players.join(", "));
        let _ = writeln!(
            out,
            "openings: {}, seed {}",
            match &settings.openings {
                OpeningSource::Book {
                    path, positions, ..
                } => format!("{path} ({positions} positions)"),
                OpeningSource::Random { plies } => format!("random, {plies} plies"),
            },
            settings.seed
        );
        for encounter in &self.encounters {
            let _ = writeln!(
                out,
                "{} vs {}: {}",
                encounter.first,
                encounter.second,
                tally_line(&encounter.tally)
            );
        }
        if self.standings.len() > 2 {
            for standing in &self.standings {
                let _ = writeln!(
                    out,
                    "{:<20} {}",
                    standing.player,
                    tally_line(&standing.tally)
                );
            }
        }
        if let Some(sprt) = &self.sprt {
            let _ = writeln!(
                out,
                "SPRT [{}, {}] alpha {} beta {}: LLR {:.2} [{:.2}, {:.2}] {}",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                sprt.llr,
                sprt.lower,
                sprt.upper,
                decision_text(&sprt.decision)
            );
        }
        let terminations: Vec<String> = self
            .terminations
            .iter()
            .map(|(text, count)| format!("{text} {count}"))
            .collect();
        let _ = writeln!(out, "endings: {}", terminations.join(", "));
        out
    }
}

/// How an SPRT's recorded decision (`H1`, `H0`, or anything else for
/// one not reached) reads in a summary or a report.
pub fn decision_text(decision: &str) -> &'static str {
    match decision {
        "H1" => "H1 accepted",
        "H0" => "H0 accepted",
        _ => "undecided",
    }
}

/// `W/D/L 10/20/5  score 57.1%  Elo +50.0 +/- 40.0 (95%)  LOS 99.1%  draws 57.1%  pairs [..]`.
fn tally_line(tally: &TallyReport) -> String {
    let mut line = format!(
        "W/D/L {}/{}/{}  points {:.1}/{}  draws {:.1}%",
        tally.wins,
        tally.draws,
        tally.losses,
        tally.points,
        tally.games,
        100.0 * tally.draw_ratio
    );
    match &tally.elo {
        Some(elo) => {
            let _ = write!(
                line,
                "  Elo {:+.1} +/- {:.1} [{:+.1}, {:+.1}]  LOS {:.1}%  pairs {:?}",
                elo.elo,
                elo.error,
                elo.low,
                elo.high,
                100.0 * elo.los,
                tally.pentanomial
            );
        }
        None => line.push_str("  (no complete pair yet)"),
    }
    line
}

/// The state of a match's SPRT: player 0's complete pairs against
/// player 1; `None` without an SPRT.
fn sprt_state(settings: &TournamentSettings, board: &Scoreboard) -> Option<(Sprt, SprtState)> {
    let sprt = settings.sprt?;
    let pairs = board.players.first().map(|t| t.pairs).unwrap_or_default();
    Some((sprt, sprt.state(&pairs)))
}

/// The SPRT's state as reports show it.
pub fn sprt_report(settings: &TournamentSettings, board: &Scoreboard) -> Option<SprtReport> {
    let (sprt, state) = sprt_state(settings, board)?;
    Some(SprtReport {
        elo0: sprt.elo0,
        elo1: sprt.elo1,
        alpha: sprt.alpha,
        beta: sprt.beta,
        llr: state.llr,
        lower: state.lower,
        upper: state.upper,
        decision: state.decision.name().to_string(),
    })
}

/// Whether the SPRT has decided.
pub fn sprt_decided(settings: &TournamentSettings, board: &Scoreboard) -> bool {
    sprt_state(settings, board).is_some_and(|(_, state)| state.decision != SprtDecision::Continue)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: u64, white: usize, black: usize, result: &str) -> GameEntry {
        GameEntry {
            id,
            pair: (id / 2) as usize,
            opening: 0,
            white,
            black,
            fen: String::new(),
            moves: Vec::new(),
            notes: Vec::new(),
            result: result.to_string(),
            termination: "checkmate".to_string(),
            date: "2026.01.01".to_string(),
        }
    }

    #[test]
    fn pairs_count_only_when_complete() {
        let mut board = Scoreboard::new(2);
        // Pair 0: player 0 wins with white, draws with black: 1.5 points.
        board.add(&game(0, 0, 1, "1-0"));
        assert_eq!(board.half_pairs(), 1);
        assert_eq!(board.players[0].pairs.pairs(), 0);
        board.add(&game(1, 1, 0, "1/2-1/2"));
        // Pair 1, second game only: player 0 (black) loses.
        board.add(&game(3, 1, 0, "1-0"));
        assert_eq!(board.half_pairs(), 1);
        assert_eq!(board.players[0].pairs, Pentanomial([0, 0, 0, 1, 0]));
        assert_eq!(board.players[1].pairs, Pentanomial([0, 1, 0, 0, 0]));
        assert_eq!(
            board.encounters[&(0, 1)].pairs,
            Pentanomial([0, 0, 0, 1, 0])
        );
        let wdl = board.players[0].wdl;
        assert_eq!((wdl.wins, wdl.draws, wdl.losses), (1, 1, 1));
        assert_eq!(board.games, 3);
        assert_eq!(board.terminations["checkmate"], 3);
    }
}
