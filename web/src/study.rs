//! Watching and studying played games: a tournament PGN or a kurier-tune
//! run's journal, read once and kept, then any of its games replayed
//! through the engine's rules with the score and depth of every move.

use std::collections::VecDeque;
use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::game::Game;
use kurier_engine::with_game;
use kurier_tuner::records::pgn::{read_games, replay, start_position, PgnError, PgnGame};
use kurier_tuner::tournament::journal::parse_journal;
use kurier_tuner::tournament::results::{game_pgn, note_of_comment};
use serde::Serialize;

use crate::error::ApiError;
use crate::variants::{VariantInfo, VariantRegistry};
use crate::view::{PlayedMove, Snapshot};

/// The most documents a server keeps; opening another drops the oldest.
pub const MAX_DOCUMENTS: usize = 16;

/// A file of games as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// What it is: the file's name and what it holds.
    pub title: String,
    /// Its games.
    pub games: Vec<PgnGame>,
}

impl Document {
    /// The games of a PGN text; `source` names the file.
    pub fn from_pgn(text: &str, source: &str) -> Result<Document, String> {
        let games = read_games(text).map_err(|e| format!("{source}: {e}"))?;
        if games.is_empty() {
            return Err(format!("{source}: no game in it"));
        }
        Ok(Document {
            title: format!("{source}: {} games", games.len()),
            games,
        })
    }

    /// The games of a kurier-tune run's journal (`journal.jsonl`), as the
    /// run's `games.pgn` has them (in the order they finished).
    pub fn from_journal(text: &str, source: &str) -> Result<Document, String> {
        let contents = parse_journal(text, source)?;
        let settings = &contents.settings;
        let game = AnyGame::built_in(&settings.variant).map_err(|e| format!("{source}: {e}"))?;
        let mut games = Vec::with_capacity(contents.games.len());
        for entry in &contents.games {
            let pgn = with_game!(&game, g => game_pgn(g, settings, entry))
                .map_err(|e| format!("{source}: {e}"))?;
            let read = read_games(&pgn).map_err(|e| format!("{source}: game {}: {e}", entry.id))?;
            games.extend(read);
        }
        let players: Vec<&str> = settings.players.iter().map(|p| p.name.as_str()).collect();
        Ok(Document {
            title: format!(
                "{source}: {} on {}, {}: {} games",
                settings.format,
                settings.variant,
                players.join(" vs "),
                games.len()
            ),
            games,
        })
    }
}

/// The documents a server keeps.
pub struct Documents {
    next_id: u64,
    kept: VecDeque<(u64, Arc<Document>)>,
}

impl Documents {
    /// None yet.
    pub fn new() -> Documents {
        Documents {
            next_id: 1,
            kept: VecDeque::new(),
        }
    }

    /// Keeps `document`; its id.
    pub fn insert(&mut self, document: Document) -> (u64, Arc<Document>) {
        if self.kept.len() >= MAX_DOCUMENTS {
            self.kept.pop_front();
        }
        let id = self.next_id;
        self.next_id += 1;
        let document = Arc::new(document);
        self.kept.push_back((id, Arc::clone(&document)));
        (id, document)
    }

    /// The document with the id written `id`.
    pub fn get(&self, id: &str) -> Option<Arc<Document>> {
        let id: u64 = id.parse().ok()?;
        self.kept
            .iter()
            .find(|(kept, _)| *kept == id)
            .map(|(_, document)| Arc::clone(document))
    }
}

impl Default for Documents {
    fn default() -> Self {
        Documents::new()
    }
}

/// A document's list of games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DocumentView {
    /// Its id, to ask for its games.
    pub id: u64,
    /// What it is.
    pub title: String,
    /// One line per game.
    pub games: Vec<GameListing>,
}

/// One game in a document's list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameListing {
    /// Its index in the document (from 0).
    pub index: usize,
    /// The `Round` tag.
    pub round: String,
    /// The `White` tag.
    pub white: String,
    /// The `Black` tag.
    pub black: String,
    /// The result.
    pub result: String,
    /// The `Termination` tag (empty without one).
    pub termination: String,
    /// The variant's name.
    pub variant: String,
    /// Moves in the main line.
    pub plies: usize,
}

impl DocumentView {
    /// The list of `document`'s games.
    pub fn new(id: u64, document: &Document) -> DocumentView {
        let tag = |game: &PgnGame, name: &str| game.tag(name).unwrap_or("?").to_string();
        DocumentView {
            id,
            title: document.title.clone(),
            games: document
                .games
                .iter()
                .enumerate()
                .map(|(index, game)| GameListing {
                    index,
                    round: tag(game, "Round"),
                    white: tag(game, "White"),
                    black: tag(game, "Black"),
                    result: game.result.clone(),
                    termination: game.tag("Termination").unwrap_or("").to_string(),
                    variant: game.variant_name(),
                    plies: game.moves.len(),
                })
                .collect(),
        }
    }
}

/// One game replayed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StudyGame {
    /// Its index in the document.
    pub index: usize,
    /// Its tags, in file order.
    pub tags: Vec<(String, String)>,
    /// The variant.
    pub variant: VariantInfo,
    /// The result.
    pub result: String,
    /// The start position.
    pub start: Snapshot,
    /// Every move with the position after it.
    pub plies: Vec<Ply>,
    /// Why the replay stopped before the end of the game, if it did.
    pub error: Option<String>,
}

/// A move of a replayed game and the position it led to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ply {
    /// The move, with the score its comment gives (from White's side).
    #[serde(rename = "move")]
    pub played: PlayedMove,
    /// The position after it.
    pub after: Snapshot,
}

/// Replays game `index` of `document`; its variant must be on offer.
pub fn study_game(
    document: &Document,
    index: usize,
    variants: &VariantRegistry,
) -> Result<StudyGame, ApiError> {
    let pgn = document.games.get(index).ok_or_else(|| {
        ApiError::not_found(format!(
            "no game {index} in this document (it has {}, numbered from 0)",
            document.games.len()
        ))
    })?;
    let name = pgn.variant_name();
    let game = variants.get(&name).map_err(ApiError::bad_request)?;
    let info = VariantInfo::new(game.variant(), variants.is_built_in(&name));
    with_game!(&game, g => replay_game(g, pgn, index, info)).map_err(ApiError::bad_request)
}

fn replay_game<B: Bitboard>(
    game: &Arc<Game<B>>,
    pgn: &PgnGame,
    index: usize,
    variant: VariantInfo,
) -> Result<StudyGame, String> {
    let start = start_position(game, pgn).map_err(|e| e.to_string())?;
    // A game with a bad move is shown up to the move before it.
    let (moves, error) = match replay(game, pgn) {
        Ok((_, moves)) => (moves, None),
        Err(error @ PgnError::Move { ply, .. }) => {
            let mut shortened = pgn.clone();
            shortened.moves.truncate(ply - 1);
            let (_, moves) = replay(game, &shortened).map_err(|e| e.to_string())?;
            (moves, Some(error.to_string()))
        }
        Err(error) => return Err(error.to_string()),
    };
    let mut position = start.clone();
    let mut plies = Vec::with_capacity(moves.len());
    for (ply, &played) in moves.iter().enumerate() {
        let note = note_of_comment(pgn.comments.get(ply).map_or("", String::as_str));
        let played_move = PlayedMove::new(&position, played, note.score, note.depth, note.ms);
        position.make_move(played);
        plies.push(Ply {
            played: played_move,
            after: Snapshot::of(&position),
        });
    }
    Ok(StudyGame {
        index,
        tags: pgn.tags.clone(),
        variant,
        result: pgn.result.clone(),
        start: Snapshot::of(&start),
        plies,
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_replayed_with_its_scores_up_to_a_bad_move() {
        let text = "[White \"a\"]\n[Black \"b\"]\n\n1. e4 {+0.30/9 0.050s} e5 {-0.20/8 0.040s} \
                    2. Ke3 Nc6 *\n";
        let document = Document::from_pgn(text, "x.pgn").unwrap();
        assert_eq!(document.title, "x.pgn: 1 games");
        let variants = VariantRegistry::new();
        let studied = study_game(&document, 0, &variants).unwrap();
        assert_eq!(studied.variant.name, "chess");
        // Ke3 is not legal after 1. e4 e5 (e3 is not next to e1).
        assert_eq!(studied.plies.len(), 2);
        let error = studied.error.unwrap();
        assert!(error.contains("ply 3") && error.contains("Ke3"), "{error}");
        let first = &studied.plies[0].played;
        assert_eq!(
            (first.san.as_str(), first.from.as_str(), first.to.as_str()),
            ("e4", "e2", "e4")
        );
        assert_eq!(
            first.score,
            Some(kurier_tuner::records::game_record::MoveScore::Cp(30))
        );
        assert_eq!((first.depth, first.ms), (9, 50));
        // Black's -0.20 is +0.20 from White's side.
        let second = &studied.plies[1].played;
        assert_eq!(
            second.score,
            Some(kurier_tuner::records::game_record::MoveScore::Cp(20))
        );
        assert_eq!(&studied.plies[1].after.board[32..40], "....p...");
        let missing = study_game(&document, 1, &variants).unwrap_err();
        assert_eq!(missing.status, axum::http::StatusCode::NOT_FOUND);
        assert!(missing.message.contains("no game 1"), "{}", missing.message);
    }

    #[test]
    fn an_unknown_variant_or_an_empty_file_is_named() {
        let variants = VariantRegistry::new();
        let document = Document::from_pgn("[Variant \"shogi\"]\n1. P7f *\n", "s.pgn").unwrap();
        let error = study_game(&document, 0, &variants).unwrap_err().message;
        assert!(error.contains("unknown variant 'shogi'"), "{error}");
        let error = Document::from_pgn("   \n", "empty.pgn").unwrap_err();
        assert_eq!(error, "empty.pgn: no game in it");
        let error = Document::from_journal("{}\n", "journal.jsonl").unwrap_err();
        assert!(error.contains("not a kurier-tune journal"), "{error}");
    }

    #[test]
    fn the_oldest_document_goes_first() {
        let mut documents = Documents::new();
        let document = Document::from_pgn("1. e4 *", "a.pgn").unwrap();
        let ids: Vec<u64> = (0..MAX_DOCUMENTS + 1)
            .map(|_| documents.insert(document.clone()).0)
            .collect();
        assert!(documents.get(&ids[0].to_string()).is_none());
        assert!(documents.get(&ids[1].to_string()).is_some());
        assert!(documents.get("x").is_none());
    }
}
