//! The command line of `kurier`: every subcommand and option, in one
//! place (what each does is in `main.rs`).

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Kurier: an engine and toolkit for the Courier family of chess variants
/// (chess, courier, courier-moderno, enhanced-courier, excoco).
#[derive(Parser)]
#[command(version, about, long_about = None)]
pub struct Cli {
    /// What to do; without one, speak XBoard if the first input line is
    /// `xboard`, else UCI (when the input is not a terminal).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Speak UCI on standard input and output (for GUIs and
    /// cutechess-cli; also the default when the input is not a terminal).
    Uci,
    /// Speak XBoard / WinBoard (CECP version 2) on standard input and
    /// output; also the default when the first input line is `xboard`.
    Xboard,
    /// Search a fixed set of positions of every variant to a fixed depth
    /// on one thread: prints nodes and nodes per second per variant and
    /// the total node count (a signature: the same binary always gives
    /// the same count with one thread).
    Bench {
        /// Search depth.
        #[arg(long, default_value_t = 12)]
        depth: u32,
        /// Search threads (node counts vary with more than one).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash size per position in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Only these variants (repeatable).
        #[arg(long)]
        variant: Vec<String>,
    },
    /// Start the browser board, `kurier serve [--port P] [--open]`: runs
    /// the `kurier-web` program beside this one with these arguments
    /// (build it with `cargo build --release -p kurier-web`; `kurier
    /// serve --help` lists them).
    #[command(disable_help_flag = true)]
    Serve {
        /// Passed on to kurier-web.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Count the leaf nodes of the legal move tree (the move generator's
    /// standard check). The last line is `nodes N`.
    ///
    /// Example: kurier perft --variant courier --depth 4 --divide
    Perft {
        /// A built-in variant: chess (the default), courier,
        /// courier-moderno, enhanced-courier, excoco; with --variant-file,
        /// the section of a Fairy-Stockfish variants.ini.
        #[arg(long)]
        variant: Option<String>,
        /// A variant file of your own: Kurier's TOML
        /// (data/variants/README.md), an Interactive Diagram or a
        /// Fairy-Stockfish variants.ini.
        #[arg(long, value_name = "PATH")]
        variant_file: Option<PathBuf>,
        /// The position (default: the variant's start position).
        #[arg(long)]
        fen: Option<String>,
        /// Plies to search.
        #[arg(long)]
        depth: u32,
        /// Print each legal move with its own count first.
        #[arg(long)]
        divide: bool,
    },
    /// Read a variant file of another format: `kurier variant convert
    /// FILE [--variant NAME]` prints it as Kurier's TOML, `kurier variant
    /// list FILE` which sections of a variants.ini Kurier can play.
    Variant {
        /// What to do with the file.
        #[command(subcommand)]
        action: VariantAction,
    },
}

/// What `kurier variant` does with a file.
#[derive(Subcommand)]
pub enum VariantAction {
    /// Print the Kurier variant file (TOML) that a file amounts to: what
    /// was understood, for you to read or edit.
    Convert {
        /// A Fairy-Stockfish variants.ini, an Interactive Diagram or a
        /// Kurier TOML file.
        file: PathBuf,
        /// The section of a variants.ini.
        #[arg(long)]
        variant: Option<String>,
    },
    /// List the variants of a file, each `accepted NAME` or `refused NAME:
    /// why`.
    List {
        /// A Fairy-Stockfish variants.ini, an Interactive Diagram or a
        /// Kurier TOML file.
        file: PathBuf,
    },
}
