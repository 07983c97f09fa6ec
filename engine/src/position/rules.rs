//! How a game ends, in the order of docs/RULES.md ("Game end, precisely"):
//! checkmate, K vs K, bare king, fifty moves, threefold repetition,
//! stalemate. [`Position::outcome`] decides a game; search uses
//! [`Position::rule_outcome`] (rules 2 to 5) and scores mate and stalemate
//! itself when it finds no legal move, with [`Position::stalemate_result`].

use std::fmt;

use crate::board::bitboard::Bitboard;
use crate::position::state::Position;
use crate::types::{Color, Square};
use crate::variant::spec::StalemateResult;

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won (`1-0`).
    WhiteWins,
    /// Black won (`0-1`).
    BlackWins,
    /// Drawn (`1/2-1/2`).
    Draw,
}

impl GameResult {
    /// The result in which `color` wins.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
    /// PGN notation: `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is mated.
    Checkmate,
    /// Only the two kings are left.
    KingVersusKing,
    /// A side was left with its king alone.
    BareKing,
    /// A hundred plies without capture or pawn move.
    FiftyMoves,
    /// The same position for the third time.
    Repetition,
    /// The side to move has no legal move and is not in check.
    Stalemate,
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Checkmate => "checkmate",
            Termination::KingVersusKing => "king versus king",
            Termination::BareKing => "bare king",
            Termination::FiftyMoves => "fifty-move rule",
            Termination::Repetition => "threefold repetition",
            Termination::Stalemate => "stalemate",
        })
    }
}

/// How and why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won, or a draw.
    pub result: GameResult,
    /// Why.
    pub termination: Termination,
}

impl Outcome {
    fn loss(loser: Color, termination: Termination) -> Outcome {
        Outcome {
            result: GameResult::win_for(loser.flip()),
            termination,
        }
    }
    fn draw(termination: Termination) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            termination,
        }
    }
}

impl<B: Bitboard> Position<B> {
    /// Whether the game is over, and how: the one function tournaments
    /// and protocols use to end a game.
    ///
    /// ```
    /// use kurier_engine::position::any_game::AnyGame;
    /// use kurier_engine::position::state::Position;
    /// use kurier_engine::position::rules::{GameResult, Termination};
    /// let AnyGame::Narrow(game) = AnyGame::built_in("courier").unwrap() else { unreachable!() };
    /// // Black's king and blocked pawn cannot move: in courier the
    /// // stalemated side loses.
    /// let position = Position::from_fen(game, "k11/p11/P11/12/12/12/12/1R8K1 b - - 0 1").unwrap();
    /// let outcome = position.outcome().unwrap();
    /// assert_eq!(outcome.result, GameResult::WhiteWins);
    /// assert_eq!(outcome.termination, Termination::Stalemate);
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        let has_move = self.count_legal_moves() > 0;
        if !has_move && self.in_check() {
            return Some(Outcome::loss(self.side_to_move(), Termination::Checkmate));
        }
        if let Some(outcome) = self.rule_outcome(3) {
            return Some(outcome);
        }
        (!has_move).then(|| self.stalemate_result())
    }

    /// Rules 2 to 5 (K vs K, bare king, fifty moves, repetition), which
    /// need no move generation in all but rare cases. A repetition counts
    /// when the position has occurred `repetitions` times in all (3 for
    /// the game's rule; search uses 2).
    pub fn rule_outcome(&self, repetitions: usize) -> Option<Outcome> {
        let game = self.game();
        let king = game.king;
        let us = self.side_to_move();
        let them = us.flip();
        let men = |color: Color| self.color_pieces(color) & !self.type_pieces(king);
        let our_men = men(us);
        let their_men = men(them);
        if our_men.is_empty() && their_men.is_empty() {
            return Some(Outcome::draw(Termination::KingVersusKing));
        }
        if game.variant.bare_king {
            if their_men.is_empty() {
                return Some(Outcome::loss(them, Termination::BareKing));
            }
            if our_men.is_empty() && !self.can_capture_last_man(their_men) {
                return Some(Outcome::loss(us, Termination::BareKing));
            }
        }
        if self.halfmove_clock() >= 100 && !(self.in_check() && self.count_legal_moves() == 0) {
            return Some(Outcome::draw(Termination::FiftyMoves));
        }
        if self.repetitions() + 1 >= repetitions {
            return Some(Outcome::draw(Termination::Repetition));
        }
        None
    }

    /// What stalemate means for the side to move (who has no legal move
    /// and is not in check).
    pub fn stalemate_result(&self) -> Outcome {
        match self.game().variant.stalemate {
            StalemateResult::Draw => Outcome::draw(Termination::Stalemate),
            StalemateResult::Loss => Outcome::loss(self.side_to_move(), Termination::Stalemate),
        }
    }

    /// Whether the side to move (bared) can capture the opponent's only
    /// man `their_men`, which would leave K vs K.
    fn can_capture_last_man(&self, their_men: B) -> bool {
        if their_men.several() {
            return false;
        }
        let target: Square = their_men.lsb();
        self.legal_moves().iter().any(|m| m.to() == target.byte())
    }

    /// How many times the current position occurred before in the moves
    /// made since the position was set up (same pieces, side, rights and
    /// usable en-passant captures: the key).
    pub fn repetitions(&self) -> usize {
        let keys = self.history_keys();
        let window = (self.halfmove_clock() as usize).min(keys.len());
        // The position before the last move had the other side to move:
        // look at every second one, back to the last irreversible move.
        keys.rev()
            .take(window)
            .skip(1)
            .step_by(2)
            .filter(|&key| key == self.key())
            .count()
    }
}
