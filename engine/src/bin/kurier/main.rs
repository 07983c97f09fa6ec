//! `kurier`: the command-line front end of the engine.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use std::io::{BufRead, BufReader, Cursor, IsTerminal, Read};
use std::sync::{Arc, Mutex};

use clap::{CommandFactory, Parser};
use kurier_engine::import;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::perft::{divide, perft};
use kurier_engine::position::state::Position;
use kurier_engine::protocol::{bench, uci, xboard};
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;

mod cli;

use cli::{Cli, Command, VariantAction};

/// Prints a line to standard output; a closed output (say, piped into
/// `head`) ends the command quietly instead of panicking like `println!`.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout().lock(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

fn load(variant: Option<&str>, variant_file: Option<&PathBuf>) -> Result<AnyGame, String> {
    let description = match variant_file {
        Some(path) => import::read_file(path, variant).map(|imported| imported.variant),
        None => Variant::built_in(variant.unwrap_or("chess")),
    }
    .map_err(|e| e.to_string())?;
    AnyGame::new(description).map_err(|e| e.to_string())
}

fn variant_command(action: VariantAction) -> Result<(), String> {
    match action {
        VariantAction::Convert { file, variant } => {
            let imported =
                import::read_file(&file, variant.as_deref()).map_err(|e| e.to_string())?;
            let section = variant.map_or(String::new(), |name| format!(", section [{name}]"));
            say!(
                "# Converted by kurier {} from {}{section}.",
                env!("CARGO_PKG_VERSION"),
                file.display()
            );
            say!("# The format: data/variants/README.md.");
            say!("{}", imported.spec.to_toml().trim_end());
            Ok(())
        }
        VariantAction::List { file } => {
            let text = import::read_text(&file).map_err(|e| e.to_string())?;
            let names = import::variant_names(&file, &text).map_err(|e| e.to_string())?;
            for name in names {
                match import::read_file(&file, name.as_deref()) {
                    Ok(imported) => say!("accepted {}", imported.variant.name),
                    Err(error) => say!(
                        "refused {}: {}: {}",
                        name.unwrap_or_default(),
                        error.key,
                        error.message
                    ),
                }
            }
            Ok(())
        }
    }
}

/// Reads the first non-blank input line: `xboard` starts XBoard, anything
/// else starts UCI with that line as its first command.
fn speak_detected_protocol() -> Result<(), String> {
    let mut input = BufReader::new(std::io::stdin());
    let mut first = String::new();
    loop {
        first.clear();
        let read = input.read_line(&mut first).map_err(|e| e.to_string())?;
        if read == 0 || !first.trim().is_empty() {
            break;
        }
    }
    let out = Arc::new(Mutex::new(std::io::stdout()));
    if first.trim() == "xboard" {
        xboard::run(input, out);
    } else {
        uci::run(Cursor::new(first).chain(input), out);
    }
    Ok(())
}

/// Runs `kurier-web` from this executable's folder with `args`, as git
/// and cargo run their subcommands: the engine stays free of the web
/// server's dependencies. On Unix the server takes this process's place.
fn serve(args: &[String]) -> Result<(), String> {
    let own = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let web = own.with_file_name(format!("kurier-web{}", std::env::consts::EXE_SUFFIX));
    if !web.is_file() {
        return Err(format!(
            "kurier serve runs {}, which is not there: build it with `cargo build --release -p kurier-web` (the same profile as this kurier)",
            web.display()
        ));
    }
    let mut command = std::process::Command::new(&web);
    command.args(args);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // exec returns only when it failed.
        let error = command.exec();
        Err(format!("cannot run {}: {error}", web.display()))
    }
    #[cfg(not(unix))]
    {
        let status = command
            .status()
            .map_err(|e| format!("cannot run {}: {e}", web.display()))?;
        std::process::exit(status.code().unwrap_or(1));
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let Some(command) = cli.command else {
        if std::io::stdin().is_terminal() {
            Cli::command().print_help().map_err(|e| e.to_string())?;
            return Ok(());
        }
        return speak_detected_protocol();
    };
    match command {
        Command::Uci => {
            uci::run(
                std::io::stdin().lock(),
                Arc::new(Mutex::new(std::io::stdout())),
            );
            Ok(())
        }
        Command::Xboard => {
            xboard::run(
                BufReader::new(std::io::stdin()),
                Arc::new(Mutex::new(std::io::stdout())),
            );
            Ok(())
        }
        Command::Bench {
            depth,
            threads,
            hash,
            variant,
        } => {
            let lines = bench::run(&variant, depth, threads.max(1), hash.max(1))?;
            let mut nodes = 0;
            let mut seconds = 0.0;
            for line in &lines {
                let time = line.time.as_secs_f64();
                say!(
                    "{:<18} {:>12} nodes {:>8.3} s {:>10.0} nps",
                    line.variant,
                    line.nodes,
                    time,
                    line.nodes as f64 / time.max(1e-9)
                );
                nodes += line.nodes;
                seconds += time;
            }
            say!("Total time (ms) : {:.0}", seconds * 1000.0);
            say!("Nodes searched  : {nodes}");
            say!("Nodes/second    : {:.0}", nodes as f64 / seconds.max(1e-9));
            Ok(())
        }
        Command::Serve { args } => serve(&args),
        Command::Variant { action } => variant_command(action),
        Command::Perft {
            variant,
            variant_file,
            fen,
            depth,
            divide: split,
        } => {
            let game = load(variant.as_deref(), variant_file.as_ref())?;
            with_game!(&game, g => {
                let mut position = match &fen {
                    Some(fen) => Position::from_fen(g.clone(), fen).map_err(|e| e.to_string())?,
                    None => Position::startpos(g.clone()),
                };
                let started = Instant::now();
                let nodes = if split && depth > 0 {
                    let lines = divide(&mut position, depth);
                    for (legal, count) in &lines {
                        say!("{}: {count}", position.uci(*legal));
                    }
                    lines.iter().map(|(_, count)| count).sum()
                } else {
                    perft(&mut position, depth)
                };
                let seconds = started.elapsed().as_secs_f64();
                say!(
                    "# {} depth {depth}: {seconds:.3} s, {:.2} M nodes/s",
                    g.variant.name,
                    nodes as f64 / seconds.max(1e-9) / 1e6
                );
                say!("nodes {nodes}");
                Ok(())
            })
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("kurier: {message}");
            ExitCode::FAILURE
        }
    }
}
