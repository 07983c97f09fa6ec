//! The command line of `kurier-tune`: every command's arguments, one file
//! per command, and what each command does with them; the binary only
//! parses and calls [`run`].

pub mod label;
pub mod merge;
pub mod openings;
pub mod texel;
pub mod tournament;
pub mod values;

use clap::{Parser, Subcommand};

use crate::cli::label::LabelArgs;
use crate::cli::merge::MergeArgs;
use crate::cli::openings::OpeningsArgs;
use crate::cli::texel::TexelArgs;
use crate::cli::tournament::TournamentArgs;
use crate::cli::values::{ReportArgs, ValuesArgs};
use crate::tournament::schedule::Format;

/// Kurier's tuner: tournaments with sound statistics, opening books,
/// piece-value fitting.
#[derive(Parser)]
#[command(name = "kurier-tune", version = env!("KURIER_VERSION"), about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The commands of `kurier-tune`.

#[derive(Subcommand)]
pub enum Command {
    /// Play game pairs (each opening with both colours) between two
    /// players and report W/D/L, Elo with its 95% interval (pentanomial
    /// model), LOS, draw ratio, and the SPRT when asked.
    Match(TournamentArgs),
    /// Play the first player against each of the others.
    Gauntlet(TournamentArgs),
    /// Play every player against every other.
    Roundrobin(TournamentArgs),
    /// Write an opening book: positions reached by random legal plies from
    /// the start, kept when a short search scores them within the
    /// threshold, no two alike.
    Openings(OpeningsArgs),
    /// Join the journals of a run's shards (`--shard k/N`) into one run:
    /// a match's journal, PGN and summary, or a values run's journal and
    /// datasets.
    Merge(MergeArgs),
    /// Measure piece values: a designed experiment (game pairs from
    /// positions with a material imbalance the design sets, fitted by an
    /// ordered logit with bootstrap intervals over pairs) and an
    /// observational fit of self-play games, at one or more search
    /// budgets; prints the values tables. Resumes a killed run; runs in
    /// shards.
    Values(ValuesArgs),
    /// Write the Markdown report of a `values` run, with its plots and
    /// the values file the engine loads.
    Report(ReportArgs),
    /// Fit every evaluation weight of a variant to the results of the
    /// games of tournament journals (Texel's method), or to scored
    /// positions (`label`), and write the parameter file (`EvalFile`
    /// format).
    Texel(TexelArgs),
    /// Score the positions `texel` takes from recorded games with a UCI
    /// engine's search (a stronger engine, or a deeper one), for `texel
    /// --scored`.
    Label(LabelArgs),
}

/// Runs the command `cli` names.
pub fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Match(args) => tournament::tournament_command(Format::Match, args),
        Command::Gauntlet(args) => tournament::tournament_command(Format::Gauntlet, args),
        Command::Roundrobin(args) => tournament::tournament_command(Format::Roundrobin, args),
        Command::Openings(args) => openings::openings_command(args),
        Command::Merge(args) => merge::merge_command(&args),
        Command::Values(args) => values::values_command(&args),
        Command::Texel(args) => crate::cli::texel::texel_command(&args),
        Command::Label(args) => crate::cli::label::label_command(&args),
        Command::Report(args) => values::report_command(&args),
    }
}
