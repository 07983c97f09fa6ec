//! The designs of several `values` runs of one variant and budget, judged
//! at the fit of all their games together (`values/pooled.rs`): a run's
//! own efficiency figure is read at its own fit, whose scale (logit per
//! pawn) 960 ExCoCo games know to about a third, so two runs' figures
//! differ mostly by their fits. At one pooled fit the figures compare
//! the designs alone. Beside them, the best design of the same number of
//! pairs knowing the pooled fit (trades of up to 4 and of up to 8 pawns a
//! side; the one that makes the largest games-to-target smallest): what
//! no design can beat. `DESIGN_AT` names runs designed at given values
//! (`--design-values`): the same criterion at their values, judged at the
//! pooled fit, with none to a fifth of the pairs pawn odds. The
//! journals are run folders' `journal.jsonl` (those under
//! `reports/journals/`, `xz -dk`; a sharded run's merged one), read at
//! one budget (`NODES`, needed where a run has several); `JUDGED` adds
//! runs whose designs are judged at the pooled fit without joining it (a
//! run of other game rules, such as another ply cap):
//!
//! ```sh
//! JOURNALS=a.jsonl,b.jsonl [JUDGED=c.jsonl] [DESIGN_AT=d.jsonl] [NODES=4000] cargo test --release -p kurier-tuner --test design_at_pooled -- --ignored --nocapture
//! ```

use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use kurier_tuner::values::design::{
    add_pairs_information, candidate_trades, design_weights, minimax_trades, pawn_odds,
    prior_theta, DesignLimits, PAWN_ODDS_SHARE,
};
use kurier_tuner::values::efficiency::Efficiency;
use kurier_tuner::values::estimate::ratios;
use kurier_tuner::values::experiment::men_available;
use kurier_tuner::values::features::FeatureSpace;
use kurier_tuner::values::look::Look;
use kurier_tuner::values::pooled::{efficiency_at, efficiency_of_look, pooled_rows, RunRows};
use kurier_tuner::values::trade::{unplayed_rows, Trade};
use kurier_tuner::values::PieceTypes;

/// One line of the table: games to target, the piece that needs them,
/// moves and CPU hours.
fn line(name: &str, efficiency: &Option<Efficiency>, letters: &[char]) -> String {
    match efficiency {
        Some(e) => format!(
            "{name}{:.0} games ({}), {:.1} M moves, {:.1} CPU hours",
            e.games_to_target,
            letters[e.limiting],
            e.plies_to_target() / 1e6,
            e.cpu_hours()
        ),
        None => format!("{name}no figure"),
    }
}

#[test]
#[ignore = "needs values journals: JOURNALS=a.jsonl,b.jsonl"]
fn designs_judged_at_the_pooled_fit() {
    let paths = std::env::var("JOURNALS").expect("JOURNALS=a.jsonl,b.jsonl");
    let runs: Vec<RunRows> = paths.split(',').map(read).collect();
    let header = &runs[0].header;
    let (types, space) = (&header.types, &header.space);
    let rows = pooled_rows(&runs).unwrap();
    let pooled = Look::of(&rows, space.columns(), 1).unwrap();
    let theta = &pooled.theta;
    let pawn = space.pawn_column;
    let pawn_se = pooled.variance(&unit_vector(theta.len(), pawn)).sqrt();
    let values_line: Vec<String> = types
        .pieces()
        .into_iter()
        .map(|t| {
            let column = space.value_column(t).unwrap();
            format!("{} {:.2}", types.letters[t], theta[column] / theta[pawn])
        })
        .collect();
    println!(
        "pooled fit of {} games: {:.3} +/- {:.3} logit per pawn (95%), draw margin {:.2} pawns, \
         White's move {:.2} pawn; values {}",
        rows.len(),
        theta[pawn],
        1.96 * pawn_se,
        theta[theta.len() - 1] / theta[pawn],
        theta[theta.len() - 2] / theta[pawn],
        values_line.join(", ")
    );
    let judged: Vec<RunRows> = std::env::var("JUDGED")
        .map(|paths| paths.split(',').map(read).collect())
        .unwrap_or_default();
    let mut best_run = f64::INFINITY;
    for run in runs.iter().chain(&judged) {
        let own = Look::of(&run.rows, space.columns(), 1);
        let at_pooled = efficiency_at(theta, run);
        println!(
            "{}\n  own fit ({:.3} logit per pawn): {}\n  at the pooled fit: {}",
            run.path,
            own.as_ref().map_or(f64::NAN, |l| l.theta[pawn]),
            line(
                "",
                &own.and_then(|l| efficiency_of_look(&l, run)),
                &types.letters
            ),
            line("", &at_pooled, &types.letters)
        );
        if let Some(e) = at_pooled {
            best_run = best_run.min(e.games_to_target);
        }
    }
    // The best design of as many pairs as the largest run, knowing the
    // pooled fit: what no design can beat.
    let pairs = runs.iter().map(|r| r.rows.len() / 2).max().unwrap();
    let game = AnyGame::new(Variant::built_in(&header.settings.variant).unwrap()).unwrap();
    let men =
        with_game!(&game, g => men_available(&[Position::startpos(g.clone())], g.pieces.len()));
    let judge = |trades: &[Trade]| {
        let design = unplayed_rows(trades, space, &men);
        Look::predicted(theta, &design).and_then(|look| {
            let mut as_run = runs[0].clone();
            as_run.rows = design.clone();
            efficiency_of_look(&look, &as_run)
        })
    };
    let mut best_design = f64::INFINITY;
    for pawns_per_side in [4, 8] {
        let limits = DesignLimits {
            men: men.clone(),
            pawns_per_side: pawns_per_side.min(men[types.pawn] / 2),
        };
        let best = judge(&minimax_design(types, space, &limits, theta, pairs, 0.0));
        println!(
            "{}",
            line(
                &format!(
                    "the best design of {pairs} pairs knowing the pooled fit, up to \
                     {pawns_per_side} pawns a side (at the first run's CPU time a game): "
                ),
                &best,
                &types.letters
            )
        );
        if let Some(e) = best {
            best_design = best_design.min(e.games_to_target);
        }
    }
    assert!(
        best_design <= best_run,
        "the best design knowing the fit needs {best_design:.0} games, more than a run's {best_run:.0}"
    );
    // The same criterion at the values other runs were designed at
    // (`DESIGN_AT`), judged at the pooled fit: how much of the best it
    // keeps when the values it balances its trades at are not the truth.
    let limits = DesignLimits {
        men: men.clone(),
        pawns_per_side: 8.min(men[types.pawn] / 2),
    };
    for path in std::env::var("DESIGN_AT").iter().flat_map(|p| p.split(',')) {
        let values = read(path)
            .header
            .design_values
            .expect("a run designed at given values");
        let at = prior_theta(space, &values);
        for odds in [0.0, 0.05, 0.1, PAWN_ODDS_SHARE] {
            let trades = minimax_design(types, space, &limits, &at, pairs, odds);
            println!(
                "{}",
                line(
                    &format!(
                        "the same criterion at the design values of {path}, {:.0}% pawn odds: ",
                        100.0 * odds
                    ),
                    &judge(&trades),
                    &types.letters
                )
            );
        }
    }
}

/// The design of `pairs` pairs under `limits` that makes the largest
/// games-to-target smallest if `theta` is the truth (the design's
/// [`minimax_trades`] at `theta`, as design version 3 chooses a batch),
/// the share `odds` of them the run's pawn odds.
fn minimax_design(
    types: &PieceTypes,
    space: &FeatureSpace,
    limits: &DesignLimits,
    theta: &[f64],
    pairs: usize,
    odds: f64,
) -> Vec<Trade> {
    let (values, pair_values) = ratios(space, theta, types.letters.len());
    let candidates = candidate_trades(types, space, &values, &pair_values, limits);
    let mut trades = pawn_odds(types, limits, pairs, odds);
    let n = theta.len();
    let mut precision = vec![0.0; n * n];
    add_pairs_information(&mut precision, &trades, space, &limits.men, theta);
    trades.extend(
        minimax_trades(
            &candidates,
            space,
            &limits.men,
            theta,
            &precision,
            &design_weights(space, theta),
            pairs - trades.len(),
        )
        .unwrap(),
    );
    trades
}

/// Reads a journal's games at `NODES` per move (a run at one budget: all
/// of them); a relative path is taken from the workspace's root (cargo
/// runs a test in its crate's folder).
fn read(path: &str) -> RunRows {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let nodes = std::env::var("NODES")
        .ok()
        .map(|n| n.parse().expect("NODES=4000"));
    RunRows::read(&root.join(path).to_string_lossy(), nodes).unwrap()
}

fn unit_vector(n: usize, i: usize) -> Vec<f64> {
    let mut e = vec![0.0; n];
    e[i] = 1.0;
    e
}
