//! Openings for matches: positions reached by random legal plies from
//! the start, reproducible from a seed; books of such positions kept only
//! when a short search finds them balanced; and reading such books (one
//! FEN or EPD position per line).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;

use crate::util::rng::Rng;

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

/// The placement, side, rights and en passant fields of a FEN: the
/// position without its move counters, which two openings must not share.
pub fn position_fields(fen: &str) -> String {
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
}
