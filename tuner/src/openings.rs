//! Openings for matches: positions reached by random legal plies from
//! the start, reproducible from a seed; books of such positions kept only
//! when a short search finds them balanced; and reading such books (one
//! FEN or EPD position per line).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::EvalParams;
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;
use rayon::prelude::*;

use crate::play::{MoveRequest, Player, PlayerSettings, SearchLimit, Seat};

/// The book a variant's matches and experiments play when none is given:
/// `data/openings/<variant>.epd` in the current folder, if it is there.
/// For a built-in variant (`built_in`), whose book comes with the
/// checkout, a missing book is most likely a run started outside the
/// checkout: a note on standard error says that random openings of
/// `random_plies` plies are played instead, so that such a run does not
/// silently play a different experiment.
pub fn default_book(variant: &str, built_in: bool, random_plies: usize) -> Option<PathBuf> {
    let book = Path::new("data/openings").join(format!("{variant}.epd"));
    if book.exists() {
        return Some(book);
    }
    if built_in {
        eprintln!(
            "kurier-tune: note: no {} in the current folder, so random {random_plies}-ply \
             openings are played (run from the Kurier checkout for the built-in book, \
             or give --openings or --random-openings)",
            book.display()
        );
    }
    None
}

/// A small deterministic generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
}

/// A position `plies` random legal moves from `start` in which the game
/// is not over; tries further random lines until it finds one.
pub fn random_opening<B: Bitboard>(
    start: &Position<B>,
    plies: usize,
    rng: &mut Rng,
) -> Position<B> {
    loop {
        let mut position = start.clone();
        let mut ended = false;
        for _ in 0..plies {
            let moves = position.legal_moves();
            if moves.is_empty() || position.outcome().is_some() {
                ended = true;
                break;
            }
            position.make_move(moves[rng.below(moves.len())]);
        }
        if !ended && position.outcome().is_none() {
            return position;
        }
    }
}

/// A seeded random order of `0..count` (Fisher-Yates).
pub fn shuffled(count: usize, rng: &mut Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    for last in (1..count).rev() {
        order.swap(last, rng.below(last + 1));
    }
    order
}

/// The placement, side, rights and en passant fields of a FEN: the
/// position without its move counters, which two openings must not share.
fn position_fields(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// Reads an opening book: one position per line, as a FEN (6 fields) or
/// an EPD record (4 fields, then `;`-separated operations, which are
/// ignored). Blank lines and lines starting with `#` are skipped. Errors
/// name `source` and the line.
pub fn read_openings<B: Bitboard>(
    game: &Arc<Game<B>>,
    text: &str,
    source: &str,
) -> Result<Vec<Position<B>>, String> {
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let record = line.split(';').next().unwrap_or(line);
        let fields: Vec<&str> = record.split_whitespace().collect();
        // EPD operations may follow the four position fields without a
        // semicolon before the first one: keep the clocks only when both
        // are numbers.
        let clocks = fields.len() >= 6 && fields[4..6].iter().all(|f| f.parse::<u32>().is_ok());
        let fen = fields[..fields.len().min(if clocks { 6 } else { 4 })].join(" ");
        let position = Position::from_fen(game.clone(), &fen)
            .map_err(|e| format!("{source}:{}: {e}", number + 1))?;
        if position.outcome().is_some() {
            return Err(format!("{source}:{}: the game is already over", number + 1));
        }
        positions.push(position);
    }
    if positions.is_empty() {
        return Err(format!("{source}: no positions"));
    }
    Ok(positions)
}

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
    // A short search needs little hash; each candidate gets a fresh table.
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

    fn courier() -> Arc<Game<u128>> {
        match AnyGame::built_in("courier").expect("courier is built in") {
            AnyGame::Narrow(game) => game,
            AnyGame::Wide(_) => unreachable!("courier is 12x8"),
        }
    }

    #[test]
    fn a_shuffle_is_a_permutation_and_follows_the_seed() {
        let order = shuffled(50, &mut Rng::new(3));
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_eq!(order, shuffled(50, &mut Rng::new(3)));
        assert_ne!(order, shuffled(50, &mut Rng::new(4)));
    }

    #[test]
    fn books_read_fen_and_epd_lines() {
        let game = courier();
        let start = Position::startpos(game.clone()).fen();
        let epd = format!("{} bm e2e3; id \"x\";", position_fields(&start));
        let text = format!("# a comment\n\n{start}\n{epd}\n");
        let positions = read_openings(&game, &text, "book.epd").unwrap();
        assert_eq!(positions.len(), 2);
        assert_eq!(positions[0].fen(), start);
        assert_eq!(
            position_fields(&positions[1].fen()),
            position_fields(&start)
        );
        let error = read_openings(&game, "# none\n8/8 w - - 0 1\n", "bad.epd").unwrap_err();
        assert!(error.starts_with("bad.epd:2: "), "{error}");
        assert!(read_openings(&game, "", "empty.epd").is_err());
    }

    #[test]
    fn a_book_is_balanced_distinct_and_reproducible() {
        let game = courier();
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
