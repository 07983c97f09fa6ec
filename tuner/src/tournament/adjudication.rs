//! Ending games early from the players' own scores, as cutechess-cli
//! does: a draw when both sides see a level game for long enough, a win
//! when both agree that one side is far ahead, and a draw at a ply limit.

use kurier_engine::position::rules::GameResult;
use kurier_engine::types::Color;
use serde::{Deserialize, Serialize};

use crate::records::game_record::{GameEnd, MoveNote};
use crate::util::key_values::{key_values, parse_value};

/// Draw when every score of the last `moves` moves of both sides is within
/// `score` centipawns of zero, once `after_move` moves of the game were
/// played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    /// Full moves that must be played first (counted from the opening).
    pub after_move: u32,
    /// Consecutive moves of each side.
    pub moves: u32,
    /// The largest absolute score, in centipawns.
    pub score: i32,
}

/// A win when, for the last `moves` moves of both sides, the winner
/// reported at least `score` centipawns and the loser at most `-score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    /// Consecutive moves of each side.
    pub moves: u32,
    /// The score threshold, in centipawns.
    pub score: i32,
}

/// Every way a game may be ended early.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Adjudication {
    /// The draw rule, if on.
    pub draw: Option<DrawRule>,
    /// The resign rule, if on.
    pub resign: Option<ResignRule>,
    /// Games still going after this many plies are drawn (0: no limit).
    pub max_plies: usize,
}

impl DrawRule {
    /// Parses `movenumber=M,movecount=N,score=X` (cutechess-cli's names).
    ///
    /// ```
    /// use kurier_tuner::tournament::adjudication::DrawRule;
    /// let rule = DrawRule::parse("movenumber=40,movecount=8,score=10").unwrap();
    /// assert_eq!((rule.after_move, rule.moves, rule.score), (40, 8, 10));
    /// ```
    pub fn parse(text: &str) -> Result<DrawRule, String> {
        let mut rule = DrawRule {
            after_move: 0,
            moves: 0,
            score: -1,
        };
        for (key, value) in key_values(text)? {
            match key {
                "movenumber" => rule.after_move = parse_value(key, value)?,
                "movecount" => rule.moves = parse_value(key, value)?,
                "score" => rule.score = parse_value(key, value)?,
                _ => {
                    return Err(format!(
                        "--draw: unknown key '{key}' (movenumber, movecount, score)"
                    ))
                }
            }
        }
        if rule.moves == 0 || rule.score < 0 {
            return Err(format!(
                "--draw '{text}': movecount (1 or more) and score (0 or more) are needed"
            ));
        }
        Ok(rule)
    }
}

impl ResignRule {
    /// Parses `movecount=N,score=X` (cutechess-cli's names).
    pub fn parse(text: &str) -> Result<ResignRule, String> {
        let mut rule = ResignRule { moves: 0, score: 0 };
        for (key, value) in key_values(text)? {
            match key {
                "movecount" => rule.moves = parse_value(key, value)?,
                "score" => rule.score = parse_value(key, value)?,
                _ => return Err(format!("--resign: unknown key '{key}' (movecount, score)")),
            }
        }
        if rule.moves == 0 || rule.score <= 0 {
            return Err(format!(
                "--resign '{text}': movecount and score (both 1 or more) are needed"
            ));
        }
        Ok(rule)
    }
}

impl Adjudication {
    /// Whether the game ends now, after the moves described by `notes`
    /// (the first made by `first_mover`): by the resign rule, then the
    /// draw rule, then the ply limit. Moves without a score never count
    /// toward a rule.
    pub fn judge(&self, first_mover: Color, notes: &[MoveNote]) -> Option<(GameResult, GameEnd)> {
        let plies = notes.len();
        // Scores from white's point of view, newest first.
        let white_view = || {
            notes.iter().enumerate().rev().map(move |(ply, note)| {
                let mover = if ply % 2 == 0 {
                    first_mover
                } else {
                    first_mover.flip()
                };
                let sign = if mover == Color::White { 1 } else { -1 };
                note.score.map(|score| sign * score.centipawns())
            })
        };
        if let Some(rule) = self.resign {
            let span = 2 * rule.moves as usize;
            if plies >= span {
                for (winner, sign) in [(Color::White, 1), (Color::Black, -1)] {
                    if white_view()
                        .take(span)
                        .all(|score| score.is_some_and(|s| sign * s >= rule.score))
                    {
                        return Some((GameResult::win_for(winner), GameEnd::ResignAdjudication));
                    }
                }
            }
        }
        if let Some(rule) = self.draw {
            let span = 2 * rule.moves as usize;
            if plies >= span.max(2 * rule.after_move as usize)
                && white_view()
                    .take(span)
                    .all(|score| score.is_some_and(|s| s.abs() <= rule.score))
            {
                return Some((GameResult::Draw, GameEnd::DrawAdjudication));
            }
        }
        if self.max_plies > 0 && plies >= self.max_plies {
            return Some((GameResult::Draw, GameEnd::PlyLimit));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::game_record::MoveScore;

    fn notes(scores: &[Option<i32>]) -> Vec<MoveNote> {
        scores
            .iter()
            .map(|score| MoveNote {
                score: score.map(MoveScore::Cp),
                ..MoveNote::default()
            })
            .collect()
    }

    #[test]
    fn resign_needs_both_sides_to_agree() {
        let rules = Adjudication {
            resign: Some(ResignRule::parse("movecount=2,score=500").unwrap()),
            ..Adjudication::default()
        };
        // White moves first: after two level moves, white sees +600 and
        // black -550 (white's view +550), twice each: white wins.
        let agreed = notes(&[
            Some(0),
            Some(0),
            Some(600),
            Some(-550),
            Some(600),
            Some(-550),
        ]);
        assert_eq!(
            rules.judge(Color::White, &agreed),
            Some((GameResult::WhiteWins, GameEnd::ResignAdjudication))
        );
        // Black still thinks it is only -400 down: play on.
        let disputed = notes(&[Some(600), Some(-550), Some(600), Some(-400)]);
        assert_eq!(rules.judge(Color::White, &disputed), None);
        // Black moved first: the first note is black's. Black reports
        // +700 (good for black), white -700, twice each: black wins.
        let black_first = notes(&[Some(700), Some(-700), Some(700), Some(-700)]);
        assert_eq!(
            rules.judge(Color::Black, &black_first),
            Some((GameResult::BlackWins, GameEnd::ResignAdjudication))
        );
        // One move short (black's level score is among the last four
        // plies), or a move without a score: play on.
        assert_eq!(rules.judge(Color::White, &agreed[..5]), None);
        let unscored = notes(&[Some(600), None, Some(600), Some(-550)]);
        assert_eq!(rules.judge(Color::White, &unscored), None);
    }

    #[test]
    fn draw_waits_for_the_move_number_and_low_scores() {
        let rules = Adjudication {
            draw: Some(DrawRule::parse("movenumber=3,movecount=2,score=10").unwrap()),
            ..Adjudication::default()
        };
        let level = notes(&[Some(50), Some(3), Some(-8), Some(10), Some(-10), Some(0)]);
        // Six plies = three moves played, and the last four are within 10.
        assert_eq!(
            rules.judge(Color::White, &level),
            Some((GameResult::Draw, GameEnd::DrawAdjudication))
        );
        // After five plies the move number is not reached yet.
        assert_eq!(rules.judge(Color::White, &level[..5]), None);
        let lively = notes(&[Some(0), Some(0), Some(0), Some(11), Some(0), Some(0)]);
        assert_eq!(rules.judge(Color::White, &lively[..]), None);
    }

    #[test]
    fn the_ply_limit_draws() {
        let rules = Adjudication {
            max_plies: 4,
            ..Adjudication::default()
        };
        assert_eq!(rules.judge(Color::White, &notes(&[None; 3])), None);
        assert_eq!(
            rules.judge(Color::White, &notes(&[None; 4])),
            Some((GameResult::Draw, GameEnd::PlyLimit))
        );
    }

    #[test]
    fn rule_texts_are_checked() {
        assert!(DrawRule::parse("movecount=2").is_err());
        assert!(DrawRule::parse("movecount=2,score=5,colour=white").is_err());
        assert!(ResignRule::parse("movecount=x,score=5").is_err());
        assert_eq!(
            ResignRule::parse("movecount=3,score=600").unwrap(),
            ResignRule {
                moves: 3,
                score: 600
            }
        );
    }
}
