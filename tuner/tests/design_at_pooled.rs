//! The designs of several `values` runs of one variant and budget, judged
//! at the fit of all their games together (`values/pooled.rs`): a run's
//! own efficiency figure is read at its own fit, whose scale (logit per
//! pawn) 960 ExCoCo games know to about a third, so two runs' figures
//! differ mostly by their fits. At one pooled fit the figures compare
//! the designs alone. Beside them, the greedy design of the same number
//! of pairs chosen knowing the pooled fit (trades of up to 4 and of up to
//! 8 pawns a side): what the adaptive design could reach. The journals
//! are run folders' `journal.jsonl` (those under `reports/journals/`,
//! `xz -dk`; a sharded run's merged one), all at one budget; `JUDGED`
//! adds runs whose designs are judged at the pooled fit without joining
//! it (a run of other game rules, such as another ply cap):
//!
//! ```sh
//! JOURNALS=a.jsonl,b.jsonl [JUDGED=c.jsonl] cargo test --release -p kurier-tuner --test design_at_pooled -- --ignored --nocapture
//! ```

use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use kurier_tuner::values::design::{
    candidate_trades, choose_trades, design_weights, prior_precision, DesignLimits,
};
use kurier_tuner::values::efficiency::Efficiency;
use kurier_tuner::values::estimate::ratios;
use kurier_tuner::values::experiment::men_available;
use kurier_tuner::values::look::Look;
use kurier_tuner::values::pooled::{efficiency_at, efficiency_of_look, pooled_rows, RunRows};
use kurier_tuner::values::trade::unplayed_rows;

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
    let mut worst_run: f64 = 0.0;
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
            worst_run = worst_run.max(e.games_to_target);
        }
    }
    // The greedy design knowing the pooled fit, as many pairs as the
    // largest run.
    let pairs = runs.iter().map(|r| r.rows.len() / 2).max().unwrap();
    let game = AnyGame::new(Variant::built_in(&header.settings.variant).unwrap()).unwrap();
    let men =
        with_game!(&game, g => men_available(&[Position::startpos(g.clone())], g.pieces.len()));
    let (values, pair_values) = ratios(space, theta, types.letters.len());
    let mut best_greedy = f64::INFINITY;
    for pawns_per_side in [4, 8] {
        let limits = DesignLimits {
            men: men.clone(),
            pawns_per_side: pawns_per_side.min(men[types.pawn] / 2),
        };
        let candidates = candidate_trades(types, space, &values, &pair_values, &limits);
        let chosen = choose_trades(
            &candidates,
            space,
            &men,
            theta,
            &prior_precision(space, &values),
            &design_weights(space, theta),
            pairs,
        )
        .unwrap();
        let design = unplayed_rows(&chosen, space, &men);
        let greedy = Look::predicted(theta, &design).and_then(|look| {
            let mut as_run = runs[0].clone();
            as_run.rows = design.clone();
            efficiency_of_look(&look, &as_run)
        });
        println!(
            "{}",
            line(
                &format!(
                    "greedy design of {pairs} pairs at the pooled fit, up to {pawns_per_side} pawns \
                     a side (at the first run's CPU time a game): "
                ),
                &greedy,
                &types.letters
            )
        );
        if let Some(e) = greedy {
            best_greedy = best_greedy.min(e.games_to_target);
        }
    }
    assert!(
        best_greedy <= worst_run,
        "the design that knows the fit needs {best_greedy:.0} games, more than every run's"
    );
}

/// Reads a journal; a relative path is taken from the workspace's root
/// (cargo runs a test in its crate's folder).
fn read(path: &str) -> RunRows {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    RunRows::read(&root.join(path).to_string_lossy()).unwrap()
}

fn unit_vector(n: usize, i: usize) -> Vec<f64> {
    let mut e = vec![0.0; n];
    e[i] = 1.0;
    e
}
