//! The live progress line on stderr: games done, the first player's
//! W/D/L against everyone, Elo and its error, and the SPRT's LLR. On a
//! terminal the line is redrawn in place; otherwise (a log file, a pipe)
//! a line is printed every few games.

use std::io::{IsTerminal, Write};

use crate::tournament::settings::TournamentSettings;
use crate::tournament::summary::{sprt_report, Scoreboard};

/// Where and how often progress is shown.
#[derive(Debug)]
pub struct Progress {
    total: u64,
    every: u64,
    terminal: bool,
    drawn: bool,
}

impl Progress {
    /// Progress of a run of `total` games: redrawn after every game on a
    /// terminal, else a line every `every` games (0: only the last).
    pub fn new(total: u64, every: u64) -> Progress {
        Progress {
            total,
            every,
            terminal: std::io::stderr().is_terminal(),
            drawn: false,
        }
    }

    /// Shows the state after a game.
    pub fn update(&mut self, settings: &TournamentSettings, board: &Scoreboard) {
        let text = line(settings, board, self.total);
        let mut err = std::io::stderr().lock();
        // Progress is a courtesy: a closed stderr must not stop the run.
        if self.terminal {
            let _ = write!(err, "\r{text}\x1b[K");
            self.drawn = true;
        } else if board.games == self.total || (self.every > 0 && board.games % self.every == 0) {
            let _ = writeln!(err, "{text}");
        }
        let _ = err.flush();
    }

    /// Ends the redrawn line so that later output starts on its own line.
    pub fn finish(&mut self) {
        if self.drawn {
            let _ = writeln!(std::io::stderr());
            self.drawn = false;
        }
    }
}

/// `games 12/200  first: W/D/L 5/4/3  Elo +58.4 +/- 120.3  LLR 0.31 [-2.94, 2.94]`.
pub fn line(settings: &TournamentSettings, board: &Scoreboard, total: u64) -> String {
    let mut text = format!("games {}/{total}", board.games);
    if let (Some(first), Some(tally)) = (settings.players.first(), board.players.first()) {
        text.push_str(&format!(
            "  {}: W/D/L {}/{}/{}",
            first.name, tally.wdl.wins, tally.wdl.draws, tally.wdl.losses
        ));
        if let Some(elo) = tally.elo() {
            text.push_str(&format!("  Elo {:+.1} +/- {:.1}", elo.elo, elo.error));
        }
    }
    if let Some(sprt) = sprt_report(settings, board) {
        text.push_str(&format!(
            "  LLR {:.2} [{:.2}, {:.2}]",
            sprt.llr, sprt.lower, sprt.upper
        ));
    }
    text
}
