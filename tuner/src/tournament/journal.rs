//! The tournament's journal: one line per finished game ([`GameEntry`])
//! under the run's [`TournamentSettings`], read back for resume, merge and
//! the results files.

use std::path::Path;
use std::time::SystemTime;

use kurier_engine::position::rules::GameResult;
use serde::{Deserialize, Serialize};

use crate::records::game_record::check_ending;
use crate::records::game_record::{points_for, GameRecord, MoveNote};
use crate::records::line_journal::parse_lines;
use crate::records::line_journal::read_lines;
use crate::records::line_journal::write_lines;
use crate::records::line_journal::Contents;
use crate::records::line_journal::JournalEntry;
use crate::records::line_journal::LineJournal;
use crate::records::line_journal::MARK;
use crate::tournament::schedule::GameSlot;
use crate::tournament::settings::TournamentSettings;
use crate::util::date::utc_date;

/// One finished game, as a journal line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEntry {
    /// Game id: `2 * pair` or `2 * pair + 1`.
    pub id: u64,
    /// The game pair.
    pub pair: usize,
    /// Index into the run's openings.
    pub opening: usize,
    /// Index of the player with white.
    pub white: usize,
    /// Index of the player with black.
    pub black: usize,
    /// The start position.
    pub fen: String,
    /// The moves, UCI notation.
    pub moves: Vec<String>,
    /// What the mover reported for each move.
    pub notes: Vec<MoveNote>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why the game ended (see [`GameEnd::description`]).
    pub termination: String,
    /// The day it ended, `YYYY.MM.DD` (UTC).
    pub date: String,
}

impl GameEntry {
    /// The entry for `record`, played in `slot` from `fen`, ending now.
    pub fn new(slot: &GameSlot, fen: String, record: GameRecord) -> GameEntry {
        GameEntry {
            id: slot.id,
            pair: slot.pair,
            opening: slot.opening,
            white: slot.white,
            black: slot.black,
            fen,
            moves: record.moves,
            notes: record.notes,
            result: record.result.pgn().to_string(),
            termination: record.termination.description(),
            date: utc_date(SystemTime::now()),
        }
    }

    /// The result (checked when the journal is read).
    pub fn game_result(&self) -> GameResult {
        match self.result.as_str() {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            _ => GameResult::Draw,
        }
    }

    /// Points of the player with index `player` (it must have played).
    pub fn points_of(&self, player: usize) -> f64 {
        let color = if player == self.white {
            kurier_engine::types::Color::White
        } else {
            kurier_engine::types::Color::Black
        };
        points_for(self.game_result(), color)
    }

    /// The player who had white in the pair's first game.
    pub fn pair_first(&self) -> usize {
        if self.id % 2 == 0 {
            self.white
        } else {
            self.black
        }
    }

    /// Whether the entry holds together: a known result and termination,
    /// a note per move, an id that fits its pair.
    fn holds_together(&self) -> Result<(), String> {
        check_ending(&self.result, &self.termination)?;
        if self.notes.len() != self.moves.len() {
            return Err(format!(
                "{} moves but {} move notes",
                self.moves.len(),
                self.notes.len()
            ));
        }
        if self.id / 2 != self.pair as u64 {
            return Err(format!("game {} is not of pair {}", self.id, self.pair));
        }
        Ok(())
    }
}

impl JournalEntry for GameEntry {
    fn id(&self) -> u64 {
        self.id
    }
    fn check(&self) -> Result<(), String> {
        self.holds_together()
    }
}

/// A tournament journal's contents.
#[derive(Clone, Debug)]
pub struct JournalContents {
    /// The run's settings.
    pub settings: TournamentSettings,
    /// Its games, in the order they finished.
    pub games: Vec<GameEntry>,
    /// Bytes of whole lines (see [`Contents::complete_bytes`]).
    pub complete_bytes: u64,
}

/// Reads the tournament journal at `path` (see [`read_lines`]).
pub fn read_journal(path: &Path) -> Result<JournalContents, String> {
    read_lines(path, MARK).map(JournalContents::from)
}

/// Reads a tournament journal's text (see [`parse_lines`]); errors name
/// `source` and the line.
pub fn parse_journal(text: &str, source: &str) -> Result<JournalContents, String> {
    parse_lines(text, source, MARK).map(JournalContents::from)
}

impl From<Contents<TournamentSettings, GameEntry>> for JournalContents {
    fn from(contents: Contents<TournamentSettings, GameEntry>) -> JournalContents {
        JournalContents {
            settings: contents.settings,
            games: contents.entries,
            complete_bytes: contents.complete_bytes,
        }
    }
}

/// A tournament journal open for appending.
#[derive(Debug)]
pub struct Journal(LineJournal);

impl Journal {
    /// Creates a journal at `path` headed by `settings`; refuses to
    /// overwrite an existing file.
    pub fn create(path: &Path, settings: &TournamentSettings) -> Result<Journal, String> {
        LineJournal::create(path, MARK, settings).map(Journal)
    }

    /// Opens an existing journal to add games after its first
    /// `complete_bytes` bytes (dropping a torn last line).
    pub fn reopen(path: &Path, complete_bytes: u64) -> Result<Journal, String> {
        LineJournal::reopen(path, complete_bytes).map(Journal)
    }

    /// Appends a game and waits until it is on disk.
    pub fn append(&mut self, entry: &GameEntry) -> Result<(), String> {
        self.0.append(entry)
    }
}

/// Writes a complete tournament journal to `path` in one go, replacing
/// any file there; for merged journals.
pub fn write_journal(
    path: &Path,
    settings: &TournamentSettings,
    games: &[GameEntry],
) -> Result<(), String> {
    write_lines(path, MARK, settings, games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::player_spec::PlayerSpec;
    use crate::players::seat::SearchLimit;
    use crate::tournament::adjudication::Adjudication;
    use crate::tournament::schedule::Format;
    use crate::tournament::settings::{OpeningSource, ENGINE_VERSION};
    use std::fs::OpenOptions;
    use std::io::Write;

    fn settings() -> TournamentSettings {
        let player =
            |name: &str| PlayerSpec::parse(&format!("name={name}"), Some(SearchLimit::Nodes(10)));
        TournamentSettings {
            engine_version: ENGINE_VERSION.to_string(),
            variant: "courier".to_string(),
            variant_file: None,
            format: Format::Match,
            players: vec![player("a").unwrap(), player("b").unwrap()],
            pairs: 2,
            seed: 1,
            openings: OpeningSource::Random { plies: 4 },
            adjudication: Adjudication::default(),
            move_timeout_ms: 1000,
            time_margin_ms: 0,
            sprt: None,
            shard: None,
        }
    }

    fn game(id: u64) -> GameEntry {
        GameEntry {
            id,
            pair: (id / 2) as usize,
            opening: 0,
            white: (id % 2) as usize,
            black: 1 - (id % 2) as usize,
            fen: "start".to_string(),
            moves: vec!["a2a3".to_string()],
            notes: vec![MoveNote::default()],
            result: "1/2-1/2".to_string(),
            termination: "max plies".to_string(),
            date: "2026.12.01".to_string(),
        }
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_the_journal_goes_on() {
        let path =
            std::env::temp_dir().join(format!("kurier-journal-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let mut journal = Journal::create(&path, &settings()).unwrap();
        journal.append(&game(0)).unwrap();
        journal.append(&game(1)).unwrap();
        drop(journal);
        let whole = std::fs::metadata(&path).unwrap().len();
        // A kill in the middle of writing game 2.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(br#"{"id":2,"pair":1,"ope"#).unwrap();
        drop(file);
        let contents = read_journal(&path).unwrap();
        assert_eq!(contents.settings, settings());
        assert_eq!(contents.games, vec![game(0), game(1)]);
        assert_eq!(contents.complete_bytes, whole);
        let mut journal = Journal::reopen(&path, contents.complete_bytes).unwrap();
        journal.append(&game(2)).unwrap();
        let ids: Vec<u64> = read_journal(&path)
            .unwrap()
            .games
            .iter()
            .map(|g| g.id)
            .collect();
        assert_eq!(ids, vec![0, 1, 2]);
        // A game twice, or a broken line that is not the last, is an error.
        journal.append(&game(2)).unwrap();
        assert!(read_journal(&path).unwrap_err().contains("recorded twice"));
        std::fs::write(&path, "{}\n").unwrap();
        assert!(read_journal(&path)
            .unwrap_err()
            .contains("not a kurier-tune journal"));
        let _ = std::fs::remove_file(&path);
    }
}
