//! `kurier-tune`: tournaments between Kurier settings and UCI engines,
//! opening books, piece values, Texel tuning and the merge of shards.
//! The command line and the commands are in the library
//! ([`kurier_tuner::cli`]); this only parses and reports errors.

use std::process::ExitCode;

use clap::Parser;
use kurier_tuner::cli::{run, Cli};

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("kurier-tune: {message}");
            ExitCode::FAILURE
        }
    }
}
