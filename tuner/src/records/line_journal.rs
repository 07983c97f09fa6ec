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

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

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

    /// Gives the journal at `path` a new first line (`mark` and
    /// `settings`) and keeps its records, the whole lines among its first
    /// `complete_bytes` bytes, byte for byte; then opens it for
    /// appending. The new file is written beside the old one and renamed
    /// over it, so that a kill leaves one of the two, whole.
    pub fn rehead<S: Serialize>(
        path: &Path,
        mark: &str,
        settings: &S,
        complete_bytes: u64,
    ) -> Result<LineJournal, String> {
        let failed =
            |e: std::io::Error| format!("{}: cannot rewrite the journal: {e}", path.display());
        let bytes = std::fs::read(path).map_err(failed)?;
        let whole = bytes.get(..complete_bytes as usize).unwrap_or(&bytes);
        let first_end = whole
            .iter()
            .position(|&byte| byte == b'\n')
            .map_or(whole.len(), |at| at + 1);
        let header = Header {
            journal: mark.to_string(),
            settings,
        };
        let mut text = serde_json::to_string(&header).map_err(|e| e.to_string())?;
        text.push('\n');
        let mut spare = path.as_os_str().to_owned();
        spare.push(".new");
        let spare = PathBuf::from(spare);
        let mut file = File::create(&spare).map_err(failed)?;
        file.write_all(text.as_bytes()).map_err(failed)?;
        file.write_all(&whole[first_end..]).map_err(failed)?;
        file.sync_all().map_err(failed)?;
        std::fs::rename(&spare, path).map_err(failed)?;
        LineJournal::reopen(path, (text.len() + whole.len() - first_end) as u64)
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
