//! Journals: a run's record, one JSON line each, appended and flushed to
//! disk (fsync) the moment a game ends, after a first line holding the
//! run's settings. A killed run loses no finished game and resumes from
//! it; shards' journals merge into one.
//!
//! The file handling ([`read_lines`], [`LineJournal`]) serves every kind
//! of run: tournaments (this module's [`GameEntry`] under
//! [`TournamentSettings`]) and piece-value experiments
//! (`values::experiment`), each with its own mark on the first line.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use kurier_engine::position::rules::GameResult;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::play::{points_for, GameEnd, GameRecord, MoveNote};
use crate::schedule::GameSlot;
use crate::settings::TournamentSettings;

/// The first line of a journal: its mark (what kind of run) and settings.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Header<S> {
    /// Marks the file as a journal of one kind of run.
    journal: String,
    /// The run's settings.
    settings: S,
}

/// The mark of a tournament journal.
pub const MARK: &str = "kurier-tune";

/// A line of a journal after the first: a record with an id unique in
/// its run and a consistency check.
pub trait JournalEntry: Serialize + DeserializeOwned {
    /// The record's id, unique within a run.
    fn id(&self) -> u64;
    /// Whether the record holds together.
    fn check(&self) -> Result<(), String>;
}

/// A journal's contents.
#[derive(Clone, Debug)]
pub struct Contents<S, E> {
    /// The run's settings.
    pub settings: S,
    /// Its records, in the order they were written.
    pub entries: Vec<E>,
    /// Bytes of whole lines; a torn last line (a write cut short) lies
    /// beyond.
    pub complete_bytes: u64,
}

/// The mark on the first line of the journal at `path` (`None` if the
/// first line is not a journal header).
pub fn journal_mark(path: &Path) -> Result<Option<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read the journal: {e}", path.display()))?;
    let first = text.lines().next().unwrap_or("");
    let value: serde_json::Value = match serde_json::from_str(first) {
        Ok(value) => value,
        Err(_) => return Ok(None),
    };
    Ok(value
        .get("journal")
        .and_then(|mark| mark.as_str())
        .map(str::to_string))
}

/// Reads the journal at `path`, whose first line must carry `mark`. A
/// last line cut short by a kill is ignored; any other bad line, or an
/// id found twice, is an error naming the line.
pub fn read_lines<S: DeserializeOwned, E: JournalEntry>(
    path: &Path,
    mark: &str,
) -> Result<Contents<S, E>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read the journal: {e}", path.display()))?;
    parse_lines(&text, &path.display().to_string(), mark)
}

/// Reads a journal's text, as [`read_lines`] does a file (an uploaded
/// file, say); errors name `source` (a path or a file name) and the line.
pub fn parse_lines<S: DeserializeOwned, E: JournalEntry>(
    text: &str,
    source: &str,
    mark: &str,
) -> Result<Contents<S, E>, String> {
    let at = |line: usize| format!("{source}:{}", line + 1);
    let mut lines = text.split_inclusive('\n').enumerate();
    let Some((_, first)) = lines.next() else {
        return Err(format!("{source}: the journal is empty"));
    };
    let marked: Option<String> = serde_json::from_str::<serde_json::Value>(first)
        .ok()
        .and_then(|v| {
            v.get("journal")
                .and_then(|m| m.as_str())
                .map(str::to_string)
        });
    if marked.as_deref() != Some(mark) {
        return Err(match marked {
            Some(other) => format!(
                "{}: a journal of '{other}' runs, not of '{mark}' runs",
                at(0)
            ),
            None => format!("{}: not a {mark} journal (bad first line)", at(0)),
        });
    }
    let header: Header<S> = serde_json::from_str(first)
        .map_err(|e| format!("{}: the settings do not read: {e}", at(0)))?;
    let mut complete_bytes = first.len() as u64;
    let mut entries = Vec::new();
    let mut ids = BTreeSet::new();
    for (number, line) in lines {
        let torn = !line.ends_with('\n');
        let entry = match serde_json::from_str::<E>(line) {
            Ok(entry) => entry,
            Err(_) if torn => break,
            Err(e) => return Err(format!("{}: not a game record: {e}", at(number))),
        };
        entry.check().map_err(|e| format!("{}: {e}", at(number)))?;
        if !ids.insert(entry.id()) {
            return Err(format!(
                "{}: game {} is recorded twice",
                at(number),
                entry.id()
            ));
        }
        complete_bytes += line.len() as u64;
        entries.push(entry);
    }
    Ok(Contents {
        settings: header.settings,
        entries,
        complete_bytes,
    })
}

/// A journal open for appending.
#[derive(Debug)]
pub struct LineJournal {
    file: File,
    path: PathBuf,
}

impl LineJournal {
    /// Creates a journal at `path` headed by `mark` and `settings`;
    /// refuses to overwrite an existing file.
    pub fn create<S: Serialize>(
        path: &Path,
        mark: &str,
        settings: &S,
    ) -> Result<LineJournal, String> {
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| format!("{}: cannot create the journal: {e}", path.display()))?;
        let mut journal = LineJournal {
            file,
            path: path.to_path_buf(),
        };
        let header = Header {
            journal: mark.to_string(),
            settings,
        };
        journal.write_line(&serde_json::to_string(&header).map_err(|e| e.to_string())?)?;
        Ok(journal)
    }

    /// Opens an existing journal to add records after its first
    /// `complete_bytes` bytes (dropping a torn last line).
    pub fn reopen(path: &Path, complete_bytes: u64) -> Result<LineJournal, String> {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{}: cannot open the journal: {e}", path.display()))?;
        file.set_len(complete_bytes)
            .map_err(|e| format!("{}: cannot trim the journal: {e}", path.display()))?;
        let mut journal = LineJournal {
            file,
            path: path.to_path_buf(),
        };
        journal
            .file
            .seek(SeekFrom::End(0))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(journal)
    }

    /// Appends a record and waits until it is on disk.
    pub fn append<E: Serialize>(&mut self, entry: &E) -> Result<(), String> {
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

/// Writes a complete journal (mark, settings and records) to `path` in
/// one go, replacing any file there; for merged journals.
pub fn write_lines<S: Serialize, E: Serialize>(
    path: &Path,
    mark: &str,
    settings: &S,
    entries: &[E],
) -> Result<(), String> {
    if path.exists() {
        std::fs::remove_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let mut journal = LineJournal::create(path, mark, settings)?;
    for entry in entries {
        journal.append(entry)?;
    }
    Ok(())
}

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

/// Checks a recorded game's ending: a known result (`1-0`, `0-1`,
/// `1/2-1/2`) and a known termination.
pub fn check_ending(result: &str, termination: &str) -> Result<(), String> {
    if !["1-0", "0-1", "1/2-1/2"].contains(&result) {
        return Err(format!("result '{result}' is not 1-0, 0-1 or 1/2-1/2"));
    }
    if GameEnd::from_description(termination).is_none() {
        return Err(format!("termination '{termination}' is unknown"));
    }
    Ok(())
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
