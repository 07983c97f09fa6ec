//! A report never writes its values over a values file its run reads
//! again when resumed (`--design-values`, `--engine-values`): the run
//! would no longer match its settings and could not go on. And a run's
//! journal is merged and reported without its design values file, whose
//! values its header keeps.

mod small_run;

use std::path::Path;

use kurier_tuner::util::shard::Shard;
use kurier_tuner::values::report::write_report;
use kurier_tuner::values::run::merge::merge_values;
use kurier_tuner::values::run::results::results;
use kurier_tuner::values::run::runner::run;
use kurier_tuner::values::run::settings::{RecordedFile, RunSettings};
use kurier_tuner::values::verdict::VerdictRule;
use small_run::{chess_settings, scratch};

const DESIGN_VALUES: &str =
    "variant = \"chess\"\n\n[values]\nP = 100\nQ = 900\nR = 500\nB = 330\nN = 320\n";

fn settings(design_values: &Path) -> RunSettings {
    RunSettings {
        design_values: Some(RecordedFile::read(design_values).unwrap().0),
        seed: 9,
        // One shard of one: a journal `merge` takes.
        shard: Some(Shard { index: 1, count: 1 }),
        ..chess_settings()
    }
}

#[test]
fn a_report_refuses_to_write_over_the_runs_design_values() {
    let folder = scratch("design");
    let report = folder.join("report");
    std::fs::create_dir_all(&report).unwrap();
    // The run is designed at the values file the report would write
    // (a one-budget report's values file is `<name>.toml`).
    let design = report.join("chess-values.toml");
    std::fs::write(&design, DESIGN_VALUES).unwrap();
    let state = run(&settings(&design), &folder.join("run"), None).unwrap();
    let fitted = results(&state, &folder.join("run")).unwrap();
    let write =
        |name: &str| write_report(&fitted, &VerdictRule::default(), &[], &[], &report, name);

    let error = write("chess-values").unwrap_err();
    assert!(
        error.contains("chess-values.toml") && error.contains("--design-values"),
        "{error}"
    );
    assert_eq!(std::fs::read_to_string(&design).unwrap(), DESIGN_VALUES);
    assert!(
        !report.join("chess-values.md").exists(),
        "nothing is written"
    );

    // Under another name the report is written, and the run's file kept.
    let written = write("chess-values-report").unwrap();
    assert!(written.contains(&report.join("chess-values-report.toml")));
    assert_eq!(std::fs::read_to_string(&design).unwrap(), DESIGN_VALUES);

    // A file that no longer holds what the run recorded is no input of
    // it any more (the run refuses it anyway): the report may replace it.
    std::fs::write(&design, DESIGN_VALUES.replace("Q = 900", "Q = 950")).unwrap();
    write("chess-values").unwrap();
    // Nor does the report or a merge need it as it was.
    let again = results(&state, &folder.join("run")).unwrap();
    assert_eq!(again.budgets.len(), fitted.budgets.len());
    let merged = merge_values(
        &[folder.join("run").join("journal.jsonl")],
        &folder.join("merged"),
    )
    .unwrap();
    assert_eq!(merged.games.len(), state.games.len());
    assert_ne!(
        std::fs::read_to_string(&design).unwrap(),
        DESIGN_VALUES.replace("Q = 900", "Q = 950")
    );
}
