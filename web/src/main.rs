//! `kurier-web`, which `kurier serve` runs: the browser board.

use std::process::ExitCode;

use clap::Parser;
use kurier_web::server::{serve, ServeOptions};

/// Kurier's browser board: play any variant against the engine, replay
/// tournament games, read piece-value reports. Listens on 127.0.0.1 only.
#[derive(Parser)]
#[command(name = "kurier serve", bin_name = "kurier serve", version)]
struct Cli {
    /// The port on 127.0.0.1 (0: any free port; the first line printed
    /// names it).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Hash table of each game's engine, in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let options = ServeOptions {
        port: cli.port,
        open: cli.open,
        hash_mb: cli.hash.max(1),
    };
    let served = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's threads: {e}"))
        .and_then(|runtime| runtime.block_on(serve(&options)));
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("kurier serve: {message}");
            ExitCode::FAILURE
        }
    }
}
