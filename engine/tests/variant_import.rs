//! `kurier` reading Fairy-Stockfish `variants.ini` files: `perft` on a
//! section, `variant convert` giving a TOML file that plays the same
//! game, and one-line errors for bad input (never a panic).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn kurier(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kurier"))
        .args(args)
        .output()
        .expect("kurier runs")
}

fn sections_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/variants/fairy-stockfish/variants.ini")
}

/// Writes `text` to a temporary file named `name` and returns its path.
fn scratch(name: &str, text: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("kurier-import-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    let path = folder.join(name);
    std::fs::write(&path, text).expect("write a temporary file");
    path
}

fn last_line(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .last()
        .unwrap_or("")
        .to_string()
}

/// The error of a failed run: exactly one line, from `kurier:`.
fn one_line_error(output: &Output) -> String {
    assert!(!output.status.success(), "kurier accepted it");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(stderr.lines().count(), 1, "not one line: {stderr}");
    assert!(stderr.starts_with("kurier: "), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

#[test]
fn a_section_counts_as_fairy_stockfish_counts_it() {
    // Indian Great Chess, 10x10 with archbishop, chancellor and amazon:
    // 18,705 at depth 3 by Fairy-Stockfish's own `go perft`
    // (data/variants/fairy-stockfish/perft.txt).
    let file = sections_file();
    let output = kurier(&[
        "perft",
        "--variant-file",
        file.to_str().unwrap(),
        "--variant",
        "indiangreat",
        "--depth",
        "3",
    ]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(last_line(&output), "nodes 18705");
}

#[test]
fn the_converted_file_plays_the_same_game() {
    let file = sections_file();
    let output = kurier(&[
        "variant",
        "convert",
        file.to_str().unwrap(),
        "--variant",
        "chessvshp",
    ]);
    assert!(output.status.success(), "{output:?}");
    let toml = String::from_utf8(output.stdout).unwrap();
    assert!(toml.starts_with("# Converted by kurier"), "{toml}");
    let converted = scratch("chessvshp.toml", &toml);
    let output = kurier(&[
        "perft",
        "--variant-file",
        converted.to_str().unwrap(),
        "--depth",
        "4",
    ]);
    assert!(output.status.success(), "{output:?}");
    // Fairy-Stockfish's count for [chessvshp] at depth 4.
    assert_eq!(last_line(&output), "nodes 199815");
}

#[test]
fn bad_files_get_one_line_naming_what_and_where() {
    let cases: [(&str, &str, Option<&str>, &[&str]); 8] = [
        (
            "black-pawns.ini",
            "[mine:chess]\npromotionPawnTypesBlack = n\n",
            Some("mine"),
            &["[mine] line 2: promotionPawnTypesBlack", "other pawns for White"],
        ),
        (
            "no-equals.ini",
            "[mine:chess]\nmaxRank 10\n",
            Some("mine"),
            &["line 2", "key = value"],
        ),
        (
            "header.ini",
            "[mine:chess\nmaxRank = 10\n",
            Some("mine"),
            &["line 1", "']'"],
        ),
        (
            "section.ini",
            "[mine:chess]\nmaxRank = 8\n",
            Some("yours"),
            &["no section [yours]", "mine"],
        ),
        (
            "unsupported.ini",
            "[mine:chess]\n# drops\npieceDrops = true\n",
            Some("mine"),
            &["[mine] line 3: pieceDrops", "drops"],
        ),
        (
            "hopper.ini",
            "[mine:chess]\ncustomPiece1 = c:mRcpR\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNC w KQkq - 0 1\n",
            Some("mine"),
            &["[mine] line 2: customPiece1", "hopper"],
        ),
        (
            "shogi-knight.ini",
            "[mine:chess]\nshogiKnight = s\n",
            Some("mine"),
            &["[mine] line 2: shogiKnight", "cannot pick out"],
        ),
        (
            "builtin-parent.ini",
            "[mine:crazyhouse]\n",
            Some("mine"),
            &["line 1: [mine]", "crazyhouse", "built into Fairy-Stockfish"],
        ),
    ];
    for (name, text, section, expected) in cases {
        let path = scratch(name, text);
        let mut args = vec![
            "perft",
            "--variant-file",
            path.to_str().unwrap(),
            "--depth",
            "1",
        ];
        if let Some(section) = section {
            args.extend(["--variant", section]);
        }
        let error = one_line_error(&kurier(&args));
        for part in expected {
            assert!(error.contains(part), "{name}: {error:?} lacks {part:?}");
        }
    }
}

#[test]
fn a_variants_ini_needs_a_section_name_and_a_toml_file_takes_none_but_its_own() {
    let file = sections_file();
    let error = one_line_error(&kurier(&[
        "perft",
        "--variant-file",
        file.to_str().unwrap(),
        "--depth",
        "1",
    ]));
    assert!(
        error.contains("name one") && error.contains("indiangreat"),
        "{error}"
    );
    let toml = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/variants/courier.toml");
    let error = one_line_error(&kurier(&[
        "perft",
        "--variant-file",
        toml.to_str().unwrap(),
        "--variant",
        "excoco",
        "--depth",
        "1",
    ]));
    assert!(error.contains("holds the variant 'courier'"), "{error}");
}

#[test]
fn list_says_which_sections_are_played() {
    let path = scratch(
        "two.ini",
        "[ok:chess]\nmaxFile = 10\nstartFen = rnbqkbnrrr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBNRRR w - - 0 1\n\n[no:chess]\nmustCapture = true\n",
    );
    let output = kurier(&["variant", "list", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[1].starts_with("refused no: [no] line 6: mustCapture"),
        "{text}"
    );
    assert_eq!(lines[0], "accepted ok");
}
