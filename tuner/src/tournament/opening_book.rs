//! Books of openings kept only when a short search finds them balanced.

use std::collections::HashSet;
use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::EvalParams;
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;
use rayon::prelude::*;

use crate::players::seat::{MoveRequest, Player, PlayerSettings, SearchLimit, Seat};
use crate::positions::openings::position_fields;
use crate::positions::openings::random_opening;
use crate::util::rng::Rng;

/// How a book's candidate positions are made and judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookFilter {
    /// Random plies from the start position.
    pub plies: usize,
    /// The short search that judges each candidate (nodes or depth).
    pub limit: SearchLimit,
    /// The largest absolute score kept, in centipawns.
    pub threshold: i32,
}

/// A book position and the score the judging search gave it (side to
/// move's point of view).
#[derive(Clone, Debug)]
pub struct BookEntry<B: Bitboard> {
    /// The position.
    pub position: Position<B>,
    /// Its score in centipawns.
    pub score: i32,
}

/// Candidates judged at a time; judged in parallel, kept in order, so the
/// book depends on the seed only.
const BATCH: usize = 64;

/// Candidates tried per wanted position before giving up.
const PATIENCE: usize = 200;

/// `count` distinct balanced openings: positions `filter.plies` random
/// plies from the start (seeded by `seed`) whose short search with the
/// variant's default evaluation scores within `filter.threshold`. Runs on
/// rayon's current pool; the result depends only on the arguments.
pub fn generate_book<B: Bitboard>(
    game: &Arc<Game<B>>,
    count: usize,
    seed: u64,
    filter: &BookFilter,
) -> Result<Vec<BookEntry<B>>, String> {
    let params = EvalParams::for_variant(&game.variant).map_err(|e| e.to_string())?;
    // A short search needs little hash; each candidate starts with an empty
    // table.
    let judge = Player::new(
        game,
        PlayerSettings {
            hash_mb: 1,
            ..PlayerSettings::new("judge", params, filter.limit)
        },
    );
    let start = Position::startpos(game.clone());
    let mut rng = Rng::new(seed);
    let mut seen = HashSet::new();
    let mut book = Vec::new();
    let mut tried = 0;
    while book.len() < count {
        if tried >= count.saturating_mul(PATIENCE) {
            return Err(format!(
                "only {} of {count} openings found in {tried} tries: raise --threshold or change --plies",
                book.len()
            ));
        }
        let mut batch = Vec::new();
        while batch.len() < BATCH && tried < count.saturating_mul(PATIENCE) {
            tried += 1;
            let candidate = random_opening(&start, filter.plies, &mut rng);
            if seen.insert(position_fields(&candidate.fen())) {
                batch.push(candidate);
            }
        }
        let judged: Vec<Option<i32>> = batch
            .par_iter()
            .map(|position| {
                let request = MoveRequest {
                    position,
                    start: position,
                    moves: &[],
                    clock: None,
                    deadline: std::time::Instant::now(),
                };
                let reply = judge.seat().reply(&request).ok()?;
                reply.score.map(|score| score.centipawns())
            })
            .collect();
        for (position, score) in batch.into_iter().zip(judged) {
            if let Some(score) = score.filter(|s| s.abs() <= filter.threshold) {
                if book.len() < count {
                    book.push(BookEntry { position, score });
                }
            }
        }
    }
    Ok(book)
}

/// Generates a book with [`generate_book`] and writes it to `path`, one
/// FEN per line (creating the folder); returns the number of positions.
pub fn write_book<B: Bitboard>(
    game: &Arc<Game<B>>,
    count: usize,
    seed: u64,
    filter: &BookFilter,
    path: &std::path::Path,
) -> Result<usize, String> {
    let book = generate_book(game, count, seed, filter)?;
    let text: String = book
        .iter()
        .map(|entry| entry.position.fen() + "\n")
        .collect();
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("{}: cannot create it: {e}", parent.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: cannot write it: {e}", path.display()))?;
    Ok(book.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kurier_engine::position::any_game::AnyGame;

    #[test]
    fn a_book_is_balanced_distinct_and_reproducible() {
        let Ok(AnyGame::Narrow(game)) = AnyGame::built_in("courier") else {
            panic!("courier is built in, 12x8");
        };
        let filter = BookFilter {
            plies: 4,
            limit: SearchLimit::Nodes(300),
            threshold: 60,
        };
        let book = generate_book(&game, 6, 11, &filter).unwrap();
        assert_eq!(book.len(), 6);
        let fields: HashSet<String> = book
            .iter()
            .map(|e| position_fields(&e.position.fen()))
            .collect();
        assert_eq!(fields.len(), 6, "duplicates in the book");
        for entry in &book {
            assert!(entry.score.abs() <= 60);
            assert_eq!(entry.position.plies_played(), 4);
        }
        let again = generate_book(&game, 6, 11, &filter).unwrap();
        let fens = |b: &[BookEntry<u128>]| b.iter().map(|e| e.position.fen()).collect::<Vec<_>>();
        assert_eq!(fens(&book), fens(&again));
        let impossible = BookFilter {
            threshold: -1,
            ..filter
        };
        assert!(generate_book(&game, 2, 11, &impossible).is_err());
    }
}
