//! The journal: every finished game of a run, one JSON line each,
//! appended and flushed to disk (fsync) the moment the game ends, after a
//! first line holding the run's settings. A killed run loses no finished
//! game and resumes from it; shards' journals merge into one.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use kurier_engine::rules::GameResult;
use serde::{Deserialize, Serialize};

use crate::play::{points_for, GameEnd, GameRecord, MoveNote};
use crate::schedule::GameSlot;
use crate::settings::TournamentSettings;

/// The first line of a journal.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Header {
    /// Always `kurier-tune`: marks the file as a journal.
    journal: String,
    /// The run's settings.
    settings: TournamentSettings,
}

const MARK: &str = "kurier-tune";

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
            kurier_engine::geometry::Color::White
        } else {
            kurier_engine::geometry::Color::Black
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
    fn check(&self) -> Result<(), String> {
        if !["1-0", "0-1", "1/2-1/2"].contains(&self.result.as_str()) {
            return Err(format!(
                "result '{}' is not 1-0, 0-1 or 1/2-1/2",
                self.result
            ));
        }
        if GameEnd::from_description(&self.termination).is_none() {
            return Err(format!("termination '{}' is unknown", self.termination));
        }
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

/// A journal's contents.
#[derive(Clone, Debug)]
pub struct JournalContents {
    /// The run's settings.
    pub settings: TournamentSettings,
    /// Its games, in the order they finished.
    pub games: Vec<GameEntry>,
    /// Bytes of whole lines; a torn last line (a write cut short) lies
    /// beyond.
    pub complete_bytes: u64,
}

/// Reads the journal at `path`. A last line cut short by a kill is
/// ignored; any other bad line, or a game id found twice, is an error
/// naming the line.
pub fn read_journal(path: &Path) -> Result<JournalContents, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read the journal: {e}", path.display()))?;
    parse_journal(&text, &path.display().to_string())
}

/// Reads a journal's text, as [`read_journal`] does a file; errors name
/// `source` (a path, or an uploaded file's name) and the line.
pub fn parse_journal(text: &str, source: &str) -> Result<JournalContents, String> {
    let at = |line: usize| format!("{source}:{}", line + 1);
    let mut lines = text.split_inclusive('\n').enumerate();
    let Some((_, first)) = lines.next() else {
        return Err(format!("{source}: the journal is empty"));
    };
    let header: Header = serde_json::from_str(first)
        .ok()
        .filter(|h: &Header| h.journal == MARK)
        .ok_or_else(|| format!("{}: not a kurier-tune journal (bad first line)", at(0)))?;
    let mut complete_bytes = first.len() as u64;
    let mut games = Vec::new();
    let mut ids = BTreeSet::new();
    for (number, line) in lines {
        let torn = !line.ends_with('\n');
        let entry = match serde_json::from_str::<GameEntry>(line) {
            Ok(entry) => entry,
            Err(_) if torn => break,
            Err(e) => return Err(format!("{}: not a game record: {e}", at(number))),
        };
        entry.check().map_err(|e| format!("{}: {e}", at(number)))?;
        if !ids.insert(entry.id) {
            return Err(format!(
                "{}: game {} is recorded twice",
                at(number),
                entry.id
            ));
        }
        complete_bytes += line.len() as u64;
        games.push(entry);
    }
    Ok(JournalContents {
        settings: header.settings,
        games,
        complete_bytes,
    })
}

/// A journal open for appending.
#[derive(Debug)]
pub struct Journal {
    file: File,
    path: PathBuf,
}

impl Journal {
    /// Creates a journal at `path` headed by `settings`; refuses to
    /// overwrite an existing file.
    pub fn create(path: &Path, settings: &TournamentSettings) -> Result<Journal, String> {
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| format!("{}: cannot create the journal: {e}", path.display()))?;
        let mut journal = Journal {
            file,
            path: path.to_path_buf(),
        };
        let header = Header {
            journal: MARK.to_string(),
            settings: settings.clone(),
        };
        journal.write_line(&serde_json::to_string(&header).map_err(|e| e.to_string())?)?;
        Ok(journal)
    }

    /// Opens an existing journal to add games after its first
    /// `complete_bytes` bytes (dropping a torn last line).
    pub fn reopen(path: &Path, complete_bytes: u64) -> Result<Journal, String> {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{}: cannot open the journal: {e}", path.display()))?;
        file.set_len(complete_bytes)
            .map_err(|e| format!("{}: cannot trim the journal: {e}", path.display()))?;
        let mut journal = Journal {
            file,
            path: path.to_path_buf(),
        };
        journal
            .file
            .seek(SeekFrom::End(0))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(journal)
    }

    /// Appends a game and waits until it is on disk.
    pub fn append(&mut self, entry: &GameEntry) -> Result<(), String> {
        let line = serde_json::to_string(entry).map_err(|e| e.to_string())?;
        self.write_line(&line)
    }

    fn write_line(&mut self, line: &str) -> Result<(), String> {
        let failed =
            |e: std::io::Error| format!("{}: cannot write the journal: {e}", self.path.display());
        self.file
            .write_all(format!("{line}\n").as_bytes())
            .map_err(failed)?;
        self.file.sync_data().map_err(failed)
    }
}

/// Writes a complete journal (settings and games) to `path` in one go,
/// replacing any file there; for merged journals.
pub fn write_journal(
    path: &Path,
    settings: &TournamentSettings,
    games: &[GameEntry],
) -> Result<(), String> {
    if path.exists() {
        std::fs::remove_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let mut journal = Journal::create(path, settings)?;
    for game in games {
        journal.append(game)?;
    }
    Ok(())
}

/// The UTC calendar date of `time` as PGN writes it, `YYYY.MM.DD`.
pub fn utc_date(time: SystemTime) -> String {
    let days = time
        .duration_since(UNIX_EPOCH)
        .map(|since| since.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adjudication::Adjudication;
    use crate::play::SearchLimit;
    use crate::players::PlayerSpec;
    use crate::schedule::Format;
    use crate::settings::{OpeningSource, ENGINE_VERSION};
    use std::time::Duration;

    fn settings() -> TournamentSettings {
        let player =
            |name: &str| PlayerSpec::parse(&format!("name={name}"), Some(SearchLimit::Nodes(10)));
        TournamentSettings {
            engine_version: ENGINE_VERSION.to_string(),
            variant: "courier".to_string(),
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

    #[test]
    fn dates_are_utc_calendar_days() {
        let at = |seconds: u64| utc_date(UNIX_EPOCH + Duration::from_secs(seconds));
        assert_eq!(at(0), "1970.01.01");
        // 2000-02-29 is day 11016 (30 years of 365 days + 7 leap days,
        // then 31 + 28 days): 11016 * 86400 = 951782400.
        assert_eq!(at(951_782_400), "2000.02.29");
        assert_eq!(at(951_782_400 + 86_400), "2000.03.01");
        // 2024-12-31 23:59:59 is 1735689599 (date -u -d @1735689599).
        assert_eq!(at(1_735_689_599), "2024.12.31");
        assert_eq!(at(1_735_689_600), "2025.01.01");
    }
}
