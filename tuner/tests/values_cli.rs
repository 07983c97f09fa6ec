//! `kurier-tune` through the binary: every command reads a variant file
//! (`--variant-file`), and bad input (a broken variant file, a variant
//! without a pawn, a values file for another game, a run folder of
//! another variant) is refused with a one-line error that names it.

use std::path::PathBuf;

mod common;

use common::{refused, scratch, tune};

/// The worked example of the variant file format.
fn courier_spiel() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/variants/examples/courier-spiel.toml")
}

#[test]
fn bad_input_gets_one_line_that_names_it() {
    let dir = scratch("bad");
    let broken = dir.join("broken.toml");
    std::fs::write(&broken, "name = \"broken\"\nfiles = 8\n").unwrap();
    let broken = broken.to_str().unwrap();
    for command in ["values", "report", "match", "openings"] {
        let mut args = vec![command, "--variant-file", broken];
        if command == "match" {
            args.extend(["--engine", "name=a", "--engine", "name=b"]);
        }
        let error = refused(&args);
        assert!(
            error.contains("broken.toml") && error.contains("syntax"),
            "{command}: {error}"
        );
    }
    // A variant without a pawn: no unit of value.
    let pawnless = dir.join("pawnless.toml");
    std::fs::write(
        &pawnless,
        "name = \"rooks\"\nfiles = 8\nranks = 8\nstart = \"r3k3/8/8/8/8/8/8/R3K3 w - - 0 1\"\n\
         stalemate = \"draw\"\nbare_king = false\n\n[[pieces]]\nletter = \"K\"\nname = \"king\"\n\
         betza = \"K\"\nroyal = true\n\n[[pieces]]\nletter = \"R\"\nname = \"rook\"\nbetza = \"R\"\n",
    )
    .unwrap();
    let error = refused(&[
        "values",
        "--variant-file",
        pawnless.to_str().unwrap(),
        "--quick",
    ]);
    assert!(error.contains("rooks has no pawn"), "{error}");
    // The verdicts' options, before any game is played.
    for (flag, value, says) in [
        ("--alpha", "1.5", "--alpha 1.5: give a rate between 0 and 1"),
        ("--tolerance", "0", "--tolerance 0: give a positive number"),
    ] {
        let args = [
            "values",
            "--variant",
            "chess",
            "--quick",
            "--random-openings",
        ];
        let error = refused(&[&args[..], &[flag, value]].concat());
        assert!(error.contains(says), "{error}");
    }
    // A variant without values for its pieces needs some for the engine.
    let spiel = courier_spiel();
    let spiel = spiel.to_str().unwrap();
    let error = refused(&["values", "--variant-file", spiel, "--quick"]);
    assert!(error.contains("--engine-values"), "{error}");
    // A values file of another game.
    let chess_values = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/values/chess.toml");
    let error = refused(&[
        "values",
        "--variant-file",
        spiel,
        "--quick",
        "--engine-values",
        chess_values.to_str().unwrap(),
    ]);
    assert!(error.contains("not 'courier-spiel'"), "{error}");
    // Shards that do not belong together are refused by merge (see the
    // library's tests); a journal that is not one is too.
    let junk = dir.join("journal.jsonl");
    std::fs::write(&junk, "{}\n").unwrap();
    let error = refused(&[
        "merge",
        junk.to_str().unwrap(),
        "--out",
        dir.join("m").to_str().unwrap(),
    ]);
    assert!(error.contains("journal.jsonl"), "{error}");
}

#[test]
fn every_command_reads_a_variant_file() {
    let dir = scratch("variant-file");
    let spiel = courier_spiel();
    let spiel = spiel.to_str().unwrap();
    let values = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../data/values/examples/courier-spiel.toml");
    let values = values.to_str().unwrap();
    let book = dir.join("book.epd");
    let output = tune(&[
        "openings",
        "--variant-file",
        spiel,
        "--count",
        "4",
        "--plies",
        "4",
        "--nodes",
        "200",
        "--out",
        book.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(std::fs::read_to_string(&book).unwrap().lines().count(), 4);
    let matched = dir.join("match");
    let output = tune(&[
        "match",
        "--variant-file",
        spiel,
        "--engine",
        &format!("name=a,values={values}"),
        "--engine",
        "name=b",
        "--pairs",
        "1",
        "--nodes",
        "100",
        "--max-plies",
        "40",
        "--sprt",
        "elo0=0,elo1=5",
        "--openings",
        book.to_str().unwrap(),
        "--out",
        matched.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("match on courier-spiel: 2 of 2 games")
    );
    let run = dir.join("run");
    let output = tune(&[
        "values",
        "--variant-file",
        spiel,
        "--engine-values",
        values,
        "--nodes",
        "60",
        "--batches",
        "1",
        "--pairs",
        "4",
        "--max-plies",
        "60",
        "--bootstrap",
        "10",
        "--openings",
        book.to_str().unwrap(),
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(
        table.contains("courier-spiel at 60 nodes per move: designed experiment 8 games"),
        "{table}"
    );
    assert!(table.contains("| councillor (U) |"), "{table}");
    let report = dir.join("report");
    let output = tune(&[
        "report",
        "--run",
        run.to_str().unwrap(),
        "--validation",
        &format!("a against b={}", matched.join("summary.json").display()),
        "--out",
        report.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The validation match is in the report as the match's summary has it:
    // two games cannot decide an SPRT, and the report says the match ran
    // to its end undecided rather than "continue".
    let markdown = std::fs::read_to_string(report.join("courier-spiel-values.md")).unwrap();
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(matched.join("summary.json")).unwrap())
            .unwrap();
    let encounter = &summary["encounters"][0];
    let tally = format!(
        "W/D/L {}/{}/{}",
        encounter["wins"], encounter["draws"], encounter["losses"]
    );
    let line = markdown
        .lines()
        .find(|line| line.contains("**a against b**"))
        .unwrap_or_else(|| panic!("no validation line in\n{markdown}"));
    assert!(line.contains("a (100 nodes) vs b (100 nodes)"), "{line}");
    assert!(line.contains(&tally), "{line}");
    assert!(line.contains("SPRT [0.0, 5.0]"), "{line}");
    assert!(
        line.contains("undecided; 2 of 2 games played, status finished"),
        "{line}"
    );
    // The run's folder refuses a run of another variant.
    let error = refused(&[
        "values",
        "--variant",
        "courier",
        "--quick",
        "--random-openings",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(
        error.contains("a run of courier-spiel, not of courier"),
        "{error}"
    );
}
