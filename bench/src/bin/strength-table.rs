//! Prints the strength tables of `bench/README.md`, generated from
//! `bench/results/strength/*.json`, or writes them into the README.
//!
//! ```sh
//! cargo run -p kurier-bench --bin strength-table            # print every table
//! cargo run -p kurier-bench --bin strength-table -- --write # rewrite bench/README.md's tables
//! ```

use std::path::Path;
use std::process::ExitCode;

use kurier_bench::strength::{
    load_results, render_table, update_readme, Table, BEGIN_MARKER, END_MARKER,
};

const USAGE: &str = "usage: strength-table [--write]";

fn run(write: bool) -> Result<(), String> {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let results = load_results(&crate_dir.join("results/strength"))?;
    if !write {
        for table in Table::ALL {
            println!("{BEGIN_MARKER}{} -->", table.name());
            print!("{}", render_table(table, &results));
            println!("{END_MARKER}");
        }
        return Ok(());
    }
    let path = crate_dir.join("README.md");
    let readme = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let updated =
        update_readme(&readme, &results).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(&path, updated).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "{}: tables written from {} results",
        path.display(),
        results.len()
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write = match args.as_slice() {
        [] => false,
        [flag] if flag == "--write" => true,
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(write) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("strength-table: {message}");
            ExitCode::FAILURE
        }
    }
}
