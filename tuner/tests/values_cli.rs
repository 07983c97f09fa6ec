//! `kurier-tune` through the binary: every command reads a variant file
//! (`--variant-file`), one without values plays from an estimate, and bad
//! input (a broken variant file, a variant
//! without a pawn, a values file for another game, a run folder of
//! another variant) is refused with a one-line error that names it.

use std::path::PathBuf;

mod common;

use common::{refused, scratch, succeed, tune};

/// The settings of a values run of a few seconds: 8 games at 60 nodes.
const TINY_RUN: [&str; 10] = [
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
];

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
    // A values file of another game.
    let spiel = courier_spiel();
    let spiel = spiel.to_str().unwrap();
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
    // Design values without a knight: the design could not balance it.
    let knightless = dir.join("knightless.toml");
    std::fs::write(
        &knightless,
        "variant = \"chess\"\n[values]\nP = 100\nQ = 900\nR = 500\nB = 300\n",
    )
    .unwrap();
    let error = refused(&[
        "values",
        "--variant",
        "chess",
        "--quick",
        "--random-openings",
        "--design-values",
        knightless.to_str().unwrap(),
    ]);
    assert!(
        error.contains("knightless.toml") && error.contains("the knight is worth 0 pawns"),
        "{error}"
    );
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
    let output = tune(
        &[
            ["values", "--variant-file", spiel, "--engine-values", values].as_slice(),
            &TINY_RUN,
            &[
                "--openings",
                book.to_str().unwrap(),
                "--out",
                run.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
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
    // The output leads with the verdict table and ends with the verdicts
    // in brief, after the values table: eight games are too few for a fit
    // after each batch, and both say so.
    assert!(table.starts_with("## Verdicts\n\nNo verdicts"), "{table}");
    let brief = table
        .find("No verdicts at 60 nodes per move: no fit of its games succeeded")
        .expect("no closing verdicts");
    assert!(
        brief > table.rfind("| councillor (U) |").unwrap(),
        "{table}"
    );
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

#[test]
fn a_variant_without_values_plays_from_the_estimate_of_its_moves() {
    let dir = scratch("estimated");
    let spiel = courier_spiel();
    let run = dir.join("run");
    let output = succeed(
        &[
            [
                "values",
                "--variant-file",
                spiel.to_str().unwrap(),
                "--quick",
            ]
            .as_slice(),
            &TINY_RUN,
            &["--out", run.to_str().unwrap()],
        ]
        .concat(),
    );
    // By hand, on the 12x8 board (a square ahead counts twice, a move-only
    // or capture-only one 1/3 or 2/3 of a move): the pawn's 84 steps ahead
    // (2/3 each) and 154 captures ahead (4/3) make 261 1/3; the knight
    // reaches 272 squares ahead and 272 behind (816); the fool, a
    // non-royal king, 238 ahead and 414 others (890); the councillor
    // both (1706). In pawns: 3.12, 3.41, 6.53.
    let line = output
        .lines()
        .find(|line| {
            line.starts_with("Engine values: estimated from mobility (no values file): P 1.00, ")
        })
        .unwrap_or_else(|| panic!("no estimated values in\n{output}"));
    for value in ["N 3.12", "F 3.41", "U 6.53"] {
        assert!(line.contains(value), "{value}: {line}");
    }
    assert!(output.contains("| piece | estimated |"), "{output}");
    assert!(
        output.contains("courier-spiel at 60 nodes per move: designed experiment 8 games"),
        "{output}"
    );
    // The journal's header records where the engine's values came from.
    let journal = std::fs::read_to_string(run.join("journal.jsonl")).unwrap();
    let header: serde_json::Value = serde_json::from_str(journal.lines().next().unwrap()).unwrap();
    assert_eq!(
        header["settings"]["engine_values_estimated"], true,
        "{header}"
    );
    let report = dir.join("report");
    succeed(&[
        "report",
        "--run",
        run.to_str().unwrap(),
        "--out",
        report.to_str().unwrap(),
    ]);
    let markdown = std::fs::read_to_string(report.join("courier-spiel-values-quick.md")).unwrap();
    assert!(markdown.contains(line), "{markdown}");
    assert!(
        markdown.contains("plays every game with piece values estimated from the pieces' moves"),
        "{markdown}"
    );
    assert!(markdown.contains("| piece | estimated |"), "{markdown}");
}

#[test]
fn a_report_judges_other_runs_designs_at_its_own_fit() {
    let dir = scratch("compare");
    let folder = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let chess_run = |name: &str, seed: &str, nodes: &str| {
        let out = folder(name);
        let args = [
            "values",
            "--variant",
            "chess",
            "--games",
            "0",
            "--seed",
            seed,
            "--nodes",
            nodes,
            "--batches",
            "2",
            "--pairs",
            "20",
            "--max-plies",
            "60",
            "--bootstrap",
            "10",
            "--out",
            &out,
        ];
        succeed(&args);
        format!("{out}/journal.jsonl")
    };
    chess_run("this", "1", "60");
    let other = chess_run("other", "2", "60");
    let deeper = chess_run("deeper", "3", "80");
    let (this, report) = (folder("this"), folder("report"));
    // `report` on this run, with each of `compared` as a --compare.
    let report_args = |compared: &[String]| -> Vec<String> {
        let mut args: Vec<String> = [
            "report",
            "--variant",
            "chess",
            "--run",
            &this,
            "--out",
            &report,
        ]
        .map(str::to_string)
        .to_vec();
        for spec in compared {
            args.extend(["--compare".to_string(), spec.clone()]);
        }
        args
    };
    fn as_strs(args: &[String]) -> Vec<&str> {
        args.iter().map(String::as_str).collect()
    }
    succeed(&as_strs(&report_args(&[
        format!("first={other}"),
        format!("again={other}"),
    ])));
    let markdown = std::fs::read_to_string(dir.join("report/chess-values.md")).unwrap();
    let section = markdown
        .split("### Designs compared at this fit")
        .nth(1)
        .unwrap_or_else(|| panic!("no comparison: {markdown}"));
    let rows: Vec<&str> = section
        .lines()
        .skip_while(|l| !l.starts_with("| design"))
        .skip(2)
        .take_while(|l| l.starts_with("| "))
        .collect();
    assert_eq!(rows.len(), 2, "{section}");
    // The same design at the same fit needs the same games: the second
    // row repeats the first, its moves 1.00 times the first's.
    fn cells(row: &str) -> Vec<&str> {
        row.split('|').map(str::trim).skip(2).collect()
    }
    assert!(rows[0].starts_with("| first ") && rows[1].starts_with("| again "));
    assert_eq!(cells(rows[0])[..4], cells(rows[1])[..4], "{section}");
    assert_eq!(cells(rows[0])[4], "1x");
    assert_eq!(cells(rows[1])[4], "1.00x");
    // Refused: no name, a run at a budget this one lacks.
    for (spec, says) in [
        (other.clone(), "use NAME=PATH"),
        (
            format!("deeper={deeper}"),
            "played at 80 nodes per move, a budget this run does not have",
        ),
        (
            format!("gone={}", folder("none/journal.jsonl")),
            "cannot read",
        ),
    ] {
        let error = refused(&as_strs(&report_args(&[spec])));
        assert!(error.contains(says), "{error}");
    }
}
