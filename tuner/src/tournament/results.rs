//! A run's result files: the games as PGN (`games.pgn`) and the JSON
//! summary (`summary.json`), written from the journal's games whether the
//! run finished, was interrupted or was merged from shards.

use std::path::Path;
use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;

use crate::players::seat::SearchLimit;
use crate::records::game_record::{MoveNote, MoveScore};
use crate::records::pgn::write_game;
use crate::tournament::journal::GameEntry;
use crate::tournament::settings::TournamentSettings;
use crate::tournament::summary::{RunEnd, Scoreboard, Summary};

/// The PGN file's name in a run's folder.
pub const PGN_FILE: &str = "games.pgn";
/// The summary's name in a run's folder.
pub const SUMMARY_FILE: &str = "summary.json";
/// The journal's name in a run's folder.
pub const JOURNAL_FILE: &str = "journal.jsonl";

/// One game in PGN, with the tags Event, Site, Date, Round (`pair.game`,
/// from 1), White, Black, Result, Variant, SetUp and FEN, PlyCount,
/// Termination and TimeControl (when both players use the same clock),
/// and a cutechess-style comment per move: score in pawns from the
/// mover's view / depth, and time, `{+0.35/12 0.105s}`.
pub fn game_pgn<B: Bitboard>(
    game: &Arc<Game<B>>,
    settings: &TournamentSettings,
    entry: &GameEntry,
) -> Result<String, String> {
    let context = || format!("game {}", entry.id);
    let start = Position::from_fen(game.clone(), &entry.fen)
        .map_err(|e| format!("{}: start position: {e}", context()))?;
    let mut position = start.clone();
    let mut moves = Vec::with_capacity(entry.moves.len());
    for text in &entry.moves {
        let played = position
            .parse_uci(text)
            .map_err(|e| format!("{}: move {text}: {e}", context()))?;
        position.make_move(played);
        moves.push(played);
    }
    let name = |index: usize| {
        settings
            .players
            .get(index)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| format!("player {index}"))
    };
    let mut tags = vec![
        (
            "Event".to_string(),
            format!("kurier-tune {}", settings.format),
        ),
        ("Site".to_string(), "kurier-tune".to_string()),
        ("Date".to_string(), entry.date.clone()),
        (
            "Round".to_string(),
            format!("{}.{}", entry.pair + 1, entry.id % 2 + 1),
        ),
        ("White".to_string(), name(entry.white)),
        ("Black".to_string(), name(entry.black)),
        ("Termination".to_string(), entry.termination.clone()),
    ];
    let clocks: Vec<SearchLimit> = [entry.white, entry.black]
        .iter()
        .filter_map(|&index| settings.players.get(index).map(|p| p.limit))
        .collect();
    if let [SearchLimit::Clock(white), SearchLimit::Clock(black)] = clocks[..] {
        if white == black {
            tags.push(("TimeControl".to_string(), white.to_string()));
        }
    }
    let comments: Vec<String> = entry.notes.iter().map(move_comment).collect();
    Ok(write_game(
        &tags,
        &start,
        &moves,
        &entry.result,
        Some(&comments),
    ))
}

/// The PGN comment of a move (without braces), cutechess-cli's form:
/// the mover's score in pawns and the depth, then the move's time,
/// `+0.35/12 0.105s`; only the time when the mover reported no score.
pub fn move_comment(note: &MoveNote) -> String {
    let time = format!("{:.3}s", note.ms as f64 / 1000.0);
    match note.score {
        Some(score) => format!("{score}/{} {time}", note.depth),
        None => time,
    }
}

/// What a move comment of [`move_comment`]'s form says; words of
/// another form (`book`, say) are passed over, and what is missing stays
/// at its default (no score, depth 0, 0 ms).
pub fn note_of_comment(comment: &str) -> MoveNote {
    let mut note = MoveNote::default();
    for word in comment.split_whitespace() {
        if let Some((score, depth)) = word.split_once('/') {
            if let (Ok(score), Ok(depth)) = (score.parse::<MoveScore>(), depth.parse::<u32>()) {
                note.score = Some(score);
                note.depth = depth;
            }
        } else if let Some(seconds) = word.strip_suffix('s') {
            if let Ok(seconds) = seconds.parse::<f64>() {
                if seconds.is_finite() && seconds >= 0.0 {
                    note.ms = (seconds * 1000.0).round() as u64;
                }
            }
        }
    }
    note
}

/// Writes `games.pgn` (games in id order) and `summary.json` into `dir`
/// and returns the summary; `scheduled` is the number of games the run
/// (or the merged shards) scheduled.
pub fn write_results<B: Bitboard>(
    game: &Arc<Game<B>>,
    dir: &Path,
    settings: &TournamentSettings,
    games: &[GameEntry],
    scheduled: u64,
    status: RunEnd,
) -> Result<Summary, String> {
    let mut ordered: Vec<&GameEntry> = games.iter().collect();
    ordered.sort_by_key(|entry| entry.id);
    let mut pgn = String::new();
    let mut board = Scoreboard::new(settings.players.len());
    for entry in ordered {
        pgn.push_str(&game_pgn(game, settings, entry)?);
        board.add(entry);
    }
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: cannot write it: {e}", path.display()))
    };
    write(PGN_FILE, &pgn)?;
    let summary = Summary::new(settings, &board, scheduled, status);
    write(SUMMARY_FILE, &summary.to_json())?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_comments_read_back_into_their_notes() {
        let notes = [
            MoveNote {
                score: Some(MoveScore::Cp(35)),
                depth: 12,
                ms: 105,
            },
            MoveNote {
                score: Some(MoveScore::Mate(-3)),
                depth: 7,
                ms: 2_000,
            },
            MoveNote {
                score: None,
                depth: 0,
                ms: 1,
            },
        ];
        let comments: Vec<String> = notes.iter().map(move_comment).collect();
        assert_eq!(comments, ["+0.35/12 0.105s", "-M3/7 2.000s", "0.001s"]);
        for (note, comment) in notes.iter().zip(&comments) {
            assert_eq!(&note_of_comment(comment), note);
        }
        // Other words are passed over; nothing known leaves the default.
        assert_eq!(
            note_of_comment("book -1.50/3"),
            MoveNote {
                score: Some(MoveScore::Cp(-150)),
                depth: 3,
                ms: 0,
            }
        );
        for unknown in ["", "book", "x/3 s", "+0.35/deep -1s", "nans"] {
            assert_eq!(note_of_comment(unknown), MoveNote::default(), "{unknown}");
        }
    }
}
