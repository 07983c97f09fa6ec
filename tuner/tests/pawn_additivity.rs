//! Do pawns add up over the large imbalances of the designed trades?
//! The values experiment takes up to eight pawns from a side
//! (`MAX_PAWNS_PER_SIDE`) and its fit counts every pawn alike. This
//! check fits ExCoCo journals again with one more column, each side's
//! pawns missing beyond the fourth, and prints what such a pawn is worth
//! beside the first four (0 when they add up); it fails when the 95%
//! interval excludes 0. The journals are run folders' `journal.jsonl`
//! (for example the ones under `reports/journals/`, `xz -dk`):
//!
//! ```sh
//! JOURNALS=a.jsonl,b.jsonl cargo test --release -p kurier-tuner --test pawn_additivity -- --ignored --nocapture
//! ```

use std::path::Path;

use kurier_engine::position::any_game::AnyGame;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use kurier_tuner::records::line_journal::read_lines;
use kurier_tuner::values::design_game::{complete_pairs, design_rows, DesignGame};
use kurier_tuner::values::ordinal::{covariance, fit_ordinal, quadratic_form, OrdinalRow};
use kurier_tuner::values::run::settings::{RunHeader, VALUES_MARK};

/// ExCoCo's pawns a side, and how many a trade takes before the column
/// counts them.
const PAWNS: i64 = 18;
const FIRST: i64 = 4;

#[test]
#[ignore = "needs ExCoCo journals: JOURNALS=a.jsonl,b.jsonl"]
fn pawns_beyond_the_fourth_are_worth_the_first_ones() {
    let paths = std::env::var("JOURNALS").expect("JOURNALS=a.jsonl,b.jsonl");
    let game = AnyGame::new(Variant::built_in("excoco").unwrap()).unwrap();
    let mut rows: Vec<OrdinalRow> = Vec::new();
    let mut space = None;
    for path in paths.split(',') {
        // A relative path is taken from the workspace's root (cargo runs
        // a test in its crate's folder).
        let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
        let contents = read_lines::<RunHeader, DesignGame>(&full, VALUES_MARK).unwrap();
        assert_eq!(contents.settings.settings.variant, "excoco", "{path}");
        let journal_space = contents.settings.space.clone();
        let games: Vec<&DesignGame> = contents.entries.iter().collect();
        let mut journal_rows =
            with_game!(&game, g => design_rows(g, &journal_space, &games)).unwrap();
        // design_rows keeps complete_pairs' order, A White first.
        let first_cluster = rows.iter().map(|r| r.cluster + 1).max().unwrap_or(0);
        let ordered = complete_pairs(&games);
        for (row, g) in journal_rows.iter_mut().zip(ordered.iter().flatten()) {
            let placement = g.fen.split(' ').next().unwrap();
            let missing_beyond = |letter: char| {
                let count = placement.chars().filter(|&c| c == letter).count() as i64;
                (PAWNS - count - FIRST).max(0) as f64
            };
            row.x.push(missing_beyond('p') - missing_beyond('P'));
            row.cluster += first_cluster;
        }
        println!(
            "{path}: {} games, {} of them with more than {FIRST} pawns missing from a side",
            journal_rows.len(),
            journal_rows
                .iter()
                .filter(|r| r.x.last() != Some(&0.0))
                .count()
        );
        rows.extend(journal_rows);
        space = Some(journal_space);
    }
    let space = space.unwrap();
    let columns = space.columns() + 1;
    let fit = fit_ordinal(&rows, columns, None, None).unwrap();
    let sandwich = covariance(&rows, &fit, true).unwrap();
    let (pawn, beyond) = (space.pawn_column, columns - 1);
    let unit = fit.theta[pawn];
    let excess = fit.theta[beyond] / unit;
    let mut gradient = vec![0.0; fit.theta.len()];
    gradient[beyond] = 1.0 / unit;
    gradient[pawn] = -fit.theta[beyond] / (unit * unit);
    let half_width = 1.96 * quadratic_form(&gradient, &sandwich).sqrt();
    println!(
        "{} games: a pawn beyond the fourth is worth {:.2} [{:.2}, {:.2}] of the first ones",
        rows.len(),
        1.0 + excess,
        1.0 + excess - half_width,
        1.0 + excess + half_width
    );
    assert!(
        excess.abs() <= half_width,
        "pawns do not add up: {excess:.3} +/- {half_width:.3}"
    );
}
