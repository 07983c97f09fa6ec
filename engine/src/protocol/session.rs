//! What the protocols (UCI, XBoard) share: the variants on offer, the
//! current game's position and evaluation, the hash table, the search
//! settings, and the search running in the background.

use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::board::bitboard::{Bitboard, U256};
use crate::eval::evaluate::{EvalParams, Evaluator};
use crate::eval::params::toml_file::params_file_variant;
use crate::import;
use crate::position::any_game::AnyGame;
use crate::position::game::Game;
use crate::position::state::Position;
use crate::search::history::SearchHistories;
use crate::search::interface::{Config, Limits};
use crate::search::threads::{SearchJob, SearchThread};
use crate::search::tt::TranspositionTable;
use crate::variant::definition::Variant;

/// A position with the evaluation of its variant.
pub struct BoardOf<B: Bitboard> {
    /// The current position, with the moves played to reach it.
    pub position: Position<B>,
    /// The evaluation for this variant.
    pub evaluator: Arc<Evaluator<B>>,
}

/// The current board, of either width.
pub enum Board {
    /// Boards of up to 128 squares.
    Narrow(Box<BoardOf<u128>>),
    /// Larger boards.
    Wide(Box<BoardOf<U256>>),
}

/// Runs `$body` with `$board` bound to the `BoardOf<B>` of either width.
#[macro_export]
macro_rules! with_board {
    ($any:expr, $board:ident => $body:expr) => {
        match $any {
            $crate::protocol::session::Board::Narrow($board) => $body,
            $crate::protocol::session::Board::Wide($board) => $body,
        }
    };
}

fn board_of<B: Bitboard>(game: &Arc<Game<B>>) -> Result<BoardOf<B>, String> {
    let params = EvalParams::for_variant(&game.variant).map_err(|e| e.to_string())?;
    Ok(BoardOf {
        position: Position::startpos(game.clone()),
        evaluator: Arc::new(Evaluator::new(game, params)),
    })
}

/// The state of one protocol session.
pub struct Session {
    /// Variants on offer: the built-in ones, then any loaded.
    pub variants: Vec<Variant>,
    /// The current variant and position.
    pub board: Board,
    /// The hash table, shared by searches.
    pub tt: Arc<TranspositionTable>,
    /// The move statistics of the current game, kept between searches.
    pub histories: Arc<Mutex<SearchHistories>>,
    /// Search settings.
    pub config: Config,
    /// The running (or finished, not yet joined) search.
    pub search: Option<SearchThread>,
    game: AnyGame,
    /// The parameter file given (`EvalFile`): its variant, text and
    /// source. It is in force whenever that variant is played, whatever
    /// the order in which the options arrive.
    eval_file: Option<(String, String, String)>,
}

/// Default hash size in MiB.
pub const DEFAULT_HASH_MB: usize = 64;

impl Session {
    /// A search of `board` under `limits`, with the session's hash table,
    /// move statistics and settings; `ponder` for `go ponder`.
    pub fn job<B: Bitboard>(
        &self,
        board: &BoardOf<B>,
        limits: Limits,
        ponder: bool,
    ) -> SearchJob<B> {
        SearchJob {
            position: board.position.clone(),
            evaluator: Arc::clone(&board.evaluator),
            tt: Arc::clone(&self.tt),
            histories: Arc::clone(&self.histories),
            limits,
            config: self.config.clone(),
            ponder,
        }
    }

    /// A session on FIDE chess from the start position.
    pub fn new() -> Session {
        let variants: Vec<Variant> = Variant::built_in_names()
            .into_iter()
            .filter_map(|name| Variant::built_in(name).ok())
            .collect();
        let chess = variants
            .first()
            .cloned()
            .unwrap_or_else(|| unreachable!("built-in variants load"));
        let game =
            AnyGame::new(chess).unwrap_or_else(|e| unreachable!("built-in variants compile: {e}"));
        let board =
            Session::board_for(&game).unwrap_or_else(|e| unreachable!("built-in values load: {e}"));
        Session {
            variants,
            board,
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
            histories: Arc::new(Mutex::new(SearchHistories::new())),
            config: Config::default(),
            search: None,
            game,
            eval_file: None,
        }
    }

    fn board_for(game: &AnyGame) -> Result<Board, String> {
        Ok(match game {
            AnyGame::Narrow(g) => Board::Narrow(Box::new(board_of(g)?)),
            AnyGame::Wide(g) => Board::Wide(Box::new(board_of(g)?)),
        })
    }

    /// The current variant.
    pub fn variant(&self) -> &Variant {
        self.game.variant()
    }

    /// The names of the variants on offer.
    pub fn variant_names(&self) -> Vec<String> {
        self.variants.iter().map(|v| v.name.clone()).collect()
    }

    /// Switches to a variant by name, at its start position.
    pub fn set_variant(&mut self, name: &str) -> Result<(), String> {
        self.stop_search();
        let variant = self
            .variants
            .iter()
            .find(|v| v.name == name)
            .cloned()
            .ok_or_else(|| {
                format!(
                    "unknown variant '{name}' (known: {})",
                    self.variant_names().join(", ")
                )
            })?;
        let game = AnyGame::new(variant).map_err(|e| e.to_string())?;
        self.board = Session::board_for(&game)?;
        self.game = game;
        self.forget_game();
        self.apply_eval_file()
    }

    /// Loads a variant file (Kurier's TOML, an Interactive Diagram, or
    /// every section of a Fairy-Stockfish `variants.ini` that Kurier can
    /// play), or every `.toml`, `.diagram` and `.ini` file of a folder;
    /// returns the names loaded. A
    /// loaded variant replaces one of the same name. A `variants.ini` none
    /// of whose sections Kurier can play is an error naming the first
    /// refusal.
    pub fn load_variants(&mut self, path: &Path) -> Result<Vec<String>, String> {
        let files: Vec<_> = if path.is_dir() {
            let entries =
                std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut files: Vec<_> = entries
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension()
                        .is_some_and(|ext| ext == "toml" || ext == "ini" || ext == "diagram")
                })
                .collect();
            files.sort();
            files
        } else {
            vec![path.to_path_buf()]
        };
        let mut names = Vec::new();
        for file in files {
            let (variants, refused) = import::read_all(&file).map_err(|e| e.to_string())?;
            if variants.is_empty() {
                if let Some(first) = refused.first() {
                    return Err(format!("no variant of it can be played here: {first}"));
                }
            }
            for variant in variants {
                names.push(variant.name.clone());
                self.variants.retain(|v| v.name != variant.name);
                self.variants.push(variant);
            }
        }
        Ok(names)
    }

    /// Sets the position from a FEN (or the start) and plays `moves`
    /// (UCI notation). On an illegal move the position stays after the
    /// last legal one and the error names the bad move.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        self.stop_search();
        crate::with_board!(&mut self.board, board => {
            let game = board.position.game().clone();
            board.position = match fen {
                Some(fen) => Position::from_fen(game, fen).map_err(|e| e.to_string())?,
                None => Position::startpos(game),
            };
            for text in moves {
                let legal = board.position.parse_uci(text).map_err(|e| e.to_string())?;
                board.position.make_move(legal);
            }
            Ok(())
        })
    }

    /// Sets the evaluation parameter file: in force at once if it is for
    /// the current variant, else from when its variant is chosen (UCI
    /// options may come in any order).
    pub fn set_params(&mut self, text: &str, source: &str) -> Result<(), String> {
        let variant = params_file_variant(text, source).map_err(|e| e.to_string())?;
        self.eval_file = Some((variant, text.to_string(), source.to_string()));
        self.apply_eval_file()
    }

    /// Puts the `EvalFile` in force if it is for the current variant.
    fn apply_eval_file(&mut self) -> Result<(), String> {
        let Some((file_variant, text, source)) = &self.eval_file else {
            return Ok(());
        };
        let variant = self.variant().clone();
        if *file_variant != variant.name {
            return Ok(());
        }
        let params = EvalParams::from_toml(&variant, text, source).map_err(|e| e.to_string())?;
        crate::with_board!(&mut self.board, board => {
            board.evaluator = Arc::new(Evaluator::new(board.position.game(), params));
        });
        Ok(())
    }

    /// A new game: the hash table and the move statistics start empty.
    pub fn new_game(&mut self) {
        self.stop_search();
        self.tt.clear();
        self.forget_game();
    }

    /// Empties the move statistics (no search may be running).
    fn forget_game(&mut self) {
        self.histories
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clear();
    }

    /// Resizes the hash table (emptying it).
    pub fn set_hash(&mut self, megabytes: usize) {
        self.stop_search();
        self.tt = Arc::new(TranspositionTable::new(megabytes));
    }

    /// Stops the background search, if any, and waits for its result.
    pub fn stop_search(&mut self) {
        if let Some(mut search) = self.search.take() {
            search.stop();
        }
    }

    /// Whether a search is running.
    pub fn searching(&self) -> bool {
        self.search.as_ref().is_some_and(|s| !s.finished())
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate::Pair;

    /// The courier pawn's material weight in force.
    fn courier_pawn(session: &Session) -> Pair {
        crate::with_board!(&session.board, board => {
            let params = board.evaluator.params();
            let pawn = session.variant().type_of_letter('P').unwrap();
            params.weights[params.layout.material(pawn)]
        })
    }

    #[test]
    fn an_eval_file_holds_whichever_option_comes_first() {
        let courier = Variant::built_in("courier").unwrap();
        let defaults = EvalParams::for_variant(&courier).unwrap().to_toml();
        let pawn_line = defaults
            .lines()
            .find(|line| line.starts_with("P = "))
            .unwrap();
        let text = &defaults.replacen(pawn_line, "P = [555, 444]", 1);
        assert_ne!(text, &defaults);
        let mut session = Session::new();
        // Given while chess is played: it waits for its variant.
        session.set_params(text, "p.toml").unwrap();
        session.set_variant("courier").unwrap();
        assert_eq!(courier_pawn(&session), Pair(555, 444));
        // Another variant and back: still in force.
        session.set_variant("chess").unwrap();
        session.set_variant("courier").unwrap();
        assert_eq!(courier_pawn(&session), Pair(555, 444));
        // Given after the variant: at once.
        let mut session = Session::new();
        session.set_variant("courier").unwrap();
        assert_ne!(courier_pawn(&session), Pair(555, 444));
        session.set_params(text, "p.toml").unwrap();
        assert_eq!(courier_pawn(&session), Pair(555, 444));
        // A file that names no variant is refused, naming it.
        let error = session.set_params("[material]\n", "q.toml").unwrap_err();
        assert!(error.starts_with("q.toml"), "{error}");
    }
}
