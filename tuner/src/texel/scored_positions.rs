//! Scored positions: what `kurier-tune label` writes and `kurier-tune
//! texel --scored` reads. One position a line,
//!
//! ```text
//! <FEN, six fields>; score <centipawns>; result <1-0|0-1|1/2-1/2>
//! ```
//!
//! where the score is the labelling engine's search result from the view
//! of the side to move, as UCI reports it (a mate `n` plies away is
//! `±(32000 - n)`), and the result is that of the game the position was
//! taken from. Empty lines and lines starting with `#` are skipped.

use std::fmt;

use kurier_engine::position::rules::GameResult;

/// One scored position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredPosition {
    /// The position, all six FEN fields.
    pub fen: String,
    /// The engine's score in centipawns, from the side to move's view.
    pub score: i32,
    /// The result of the game it came from.
    pub result: GameResult,
}

impl fmt::Display for ScoredPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}; score {}; result {}",
            self.fen,
            self.score,
            result_text(self.result)
        )
    }
}

/// A game result as PGN writes it.
pub fn result_text(result: GameResult) -> &'static str {
    match result {
        GameResult::WhiteWins => "1-0",
        GameResult::BlackWins => "0-1",
        GameResult::Draw => "1/2-1/2",
    }
}

/// A PGN result, `None` for anything else.
pub fn parse_result(text: &str) -> Option<GameResult> {
    match text {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

/// Reads a scored-positions file's text; errors name `source` and the
/// line. The FENs are not checked against a game here.
pub fn parse_scored(text: &str, source: &str) -> Result<Vec<ScoredPosition>, String> {
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{source}:{}", number + 1);
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let [fen, score, result] = fields[..] else {
            return Err(format!(
                "{}: expected 'FEN; score CP; result R', found {} field(s)",
                at(),
                fields.len()
            ));
        };
        let score = score
            .strip_prefix("score ")
            .and_then(|value| value.trim().parse::<i32>().ok())
            .ok_or_else(|| format!("{}: '{score}' is not 'score CENTIPAWNS'", at()))?;
        let result = result
            .strip_prefix("result ")
            .and_then(|value| parse_result(value.trim()))
            .ok_or_else(|| format!("{}: '{result}' is not 'result 1-0|0-1|1/2-1/2'", at()))?;
        if fen.is_empty() {
            return Err(format!("{}: the FEN is empty", at()));
        }
        positions.push(ScoredPosition {
            fen: fen.to_string(),
            score,
            result,
        });
    }
    Ok(positions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_round_trips() {
        let position = ScoredPosition {
            fen: "4k3/8/8/8/8/8/8/4K2R w K - 0 1".to_string(),
            score: -31995,
            result: GameResult::Draw,
        };
        let line = position.to_string();
        assert_eq!(
            line,
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1; score -31995; result 1/2-1/2"
        );
        assert_eq!(parse_scored(&line, "x").unwrap(), vec![position]);
    }

    #[test]
    fn bad_lines_name_the_line_and_the_field() {
        let text = "# scored\n\n4k3/8/8/8/8/8/8/4K3 w - - 0 1; score 12; result 1-0\n\
                    4k3/8/8/8/8/8/8/4K3 w - - 0 1; score twelve; result 1-0\n";
        let error = parse_scored(text, "f.txt").unwrap_err();
        assert!(error.starts_with("f.txt:4: 'score twelve'"), "{error}");
        let error = parse_scored("4k3/8/8/8/8/8/8/4K3 w - - 0 1; score 3", "f").unwrap_err();
        assert!(error.contains("f:1: expected"), "{error}");
        let error = parse_scored("k; score 3; result 2-0", "f").unwrap_err();
        assert!(error.contains("'result 2-0'"), "{error}");
    }
}
