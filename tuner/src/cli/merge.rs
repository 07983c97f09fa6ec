//! `kurier-tune merge`: the journals of a run's shards joined into one
//! run, a tournament's or a values run's.

use std::path::PathBuf;

use clap::Args;

use crate::records::line_journal::journal_mark;
use crate::tournament::runner;
use crate::values::run::merge::merge_values;
use crate::values::run::settings::VALUES_MARK;

/// The arguments of `kurier-tune merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// The shards' journals (`journal.jsonl` of each run folder).
    #[arg(required = true)]
    journals: Vec<PathBuf>,
    /// Folder for the merged run.
    #[arg(long)]
    out: PathBuf,
}

/// Runs `kurier-tune merge`.
pub fn merge_command(args: &MergeArgs) -> Result<(), String> {
    let first = args.journals.first().ok_or("merge: no journals given")?;
    match journal_mark(first)?.as_deref() {
        Some(VALUES_MARK) => {
            let state = merge_values(&args.journals, &args.out)?;
            println!(
                "merged {} design games of {} shards into {}",
                state.games.len(),
                args.journals.len(),
                args.out.display()
            );
        }
        _ => {
            let summary = runner::merge(&args.journals, &args.out)?;
            print!("{}", summary.text());
        }
    }
    println!("results: {}", args.out.display());
    Ok(())
}
