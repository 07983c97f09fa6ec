//! What a played game leaves behind: each move's score and note, how the
//! game ended, and the record of the whole game.

use std::fmt;
use std::str::FromStr;

use kurier_engine::position::rules::{GameResult, Termination};
use kurier_engine::search::interface::Score;
use kurier_engine::types::Color;
use serde::{Deserialize, Serialize};

/// A score as the mover reported it, from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// The centipawn figure adjudication uses for any mate score.
pub const MATE_CENTIPAWNS: i32 = 100_000;

impl MoveScore {
    /// Centipawns, with mates as [`MATE_CENTIPAWNS`] (or its negative).
    pub fn centipawns(self) -> i32 {
        match self {
            MoveScore::Cp(cp) => cp,
            MoveScore::Mate(moves) if moves > 0 => MATE_CENTIPAWNS,
            MoveScore::Mate(_) => -MATE_CENTIPAWNS,
        }
    }
}

impl From<Score> for MoveScore {
    fn from(score: Score) -> MoveScore {
        match score {
            Score::Centipawns(cp) => MoveScore::Cp(cp),
            Score::Mate(moves) => MoveScore::Mate(moves),
        }
    }
}

impl fmt::Display for MoveScore {
    /// cutechess-cli's comment form: `+0.35` pawns, `+M5`, `-M2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveScore::Cp(cp) => write!(f, "{:+.2}", f64::from(cp) / 100.0),
            MoveScore::Mate(moves) if moves > 0 => write!(f, "+M{moves}"),
            MoveScore::Mate(moves) => write!(f, "-M{}", moves.unsigned_abs()),
        }
    }
}

impl FromStr for MoveScore {
    type Err = String;

    /// Reads what [`fmt::Display`] writes: `+0.35` (pawns, rounded to
    /// the centipawn), `+M5`, `-M2`; the sign may be left out.
    fn from_str(text: &str) -> Result<MoveScore, String> {
        let bad = || format!("'{text}' is not a score such as +0.35, +M5 or -M2");
        let (negative, unsigned) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        if let Some(moves) = unsigned.strip_prefix('M') {
            let moves: i32 = moves.parse().map_err(|_| bad())?;
            return Ok(MoveScore::Mate(if negative { -moves } else { moves }));
        }
        if !unsigned.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(bad());
        }
        let pawns: f64 = unsigned.parse().map_err(|_| bad())?;
        let centipawns = (pawns * 100.0).round();
        if !centipawns.is_finite() || centipawns.abs() > f64::from(MATE_CENTIPAWNS) {
            return Err(bad());
        }
        let centipawns = centipawns as i32;
        Ok(MoveScore::Cp(if negative {
            -centipawns
        } else {
            centipawns
        }))
    }
}

/// Why a game ended: the rules, an adjudication, or a player's failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// The rules of the variant ([`Position::outcome`]).
    Rules(Termination),
    /// Drawn at the ply limit.
    PlyLimit,
    /// Drawn by the low-score rule.
    DrawAdjudication,
    /// Won by the high-score rule.
    ResignAdjudication,
    /// The loser's clock ran out.
    TimeForfeit,
    /// The loser's engine died.
    Crash,
    /// The loser's engine did not answer in time.
    Timeout,
    /// The loser sent a move that is not legal.
    IllegalMove,
    /// The loser's engine broke the protocol.
    ProtocolError,
}

impl GameEnd {
    /// Every ending that is not a rules termination.
    const OTHERS: [GameEnd; 8] = [
        GameEnd::PlyLimit,
        GameEnd::DrawAdjudication,
        GameEnd::ResignAdjudication,
        GameEnd::TimeForfeit,
        GameEnd::Crash,
        GameEnd::Timeout,
        GameEnd::IllegalMove,
        GameEnd::ProtocolError,
    ];
    const RULES: [Termination; 6] = [
        Termination::Checkmate,
        Termination::KingVersusKing,
        Termination::BareKing,
        Termination::FiftyMoves,
        Termination::Repetition,
        Termination::Stalemate,
    ];

    /// The text of the PGN `Termination` tag and the journal, e.g.
    /// `checkmate`, `max plies`, `time forfeit`, `crash`, `illegal move`.
    pub fn description(self) -> String {
        match self {
            GameEnd::Rules(termination) => termination.to_string(),
            GameEnd::PlyLimit => "max plies".to_string(),
            GameEnd::DrawAdjudication => "draw adjudication".to_string(),
            GameEnd::ResignAdjudication => "resign adjudication".to_string(),
            GameEnd::TimeForfeit => "time forfeit".to_string(),
            GameEnd::Crash => "crash".to_string(),
            GameEnd::Timeout => "timeout".to_string(),
            GameEnd::IllegalMove => "illegal move".to_string(),
            GameEnd::ProtocolError => "protocol error".to_string(),
        }
    }

    /// The ending a description names (inverse of [`GameEnd::description`]).
    pub fn from_description(text: &str) -> Option<GameEnd> {
        GameEnd::RULES
            .into_iter()
            .map(GameEnd::Rules)
            .chain(GameEnd::OTHERS)
            .find(|end| end.description() == text)
    }
}

/// What the mover reported about one move, and how long it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MoveNote {
    /// The mover's score, its point of view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<MoveScore>,
    /// Search depth (0 if unknown).
    #[serde(default)]
    pub depth: u32,
    /// Wall time of the move, measured by the tournament, in milliseconds.
    #[serde(default)]
    pub ms: u64,
}

/// How a game ended, with its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: GameEnd,
    /// The moves, UCI notation.
    pub moves: Vec<String>,
    /// For each move, what the mover reported.
    pub notes: Vec<MoveNote>,
}

/// The points (1, 1/2, 0) that `color` scored.
pub fn points_for(result: GameResult, color: Color) -> f64 {
    match result {
        GameResult::Draw => 0.5,
        r if r == GameResult::win_for(color) => 1.0,
        _ => 0.0,
    }
}

/// Checks a recorded game's ending: a known result (`1-0`, `0-1`,
/// `1/2-1/2`) and a known termination.
pub fn check_ending(result: &str, termination: &str) -> Result<(), String> {
    if !["1-0", "0-1", "1/2-1/2"].contains(&result) {
        return Err(format!("result '{result}' is not 1-0, 0-1 or 1/2-1/2"));
    }
    if GameEnd::from_description(termination).is_none() {
        return Err(format!("termination '{termination}' is unknown"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ending_reads_back_from_its_description() {
        for end in GameEnd::RULES
            .into_iter()
            .map(GameEnd::Rules)
            .chain(GameEnd::OTHERS)
        {
            assert_eq!(GameEnd::from_description(&end.description()), Some(end));
        }
        assert_eq!(GameEnd::from_description("resigned"), None);
    }

    #[test]
    fn scores_print_as_cutechess_does() {
        assert_eq!(MoveScore::Cp(35).to_string(), "+0.35");
        assert_eq!(MoveScore::Cp(-120).to_string(), "-1.20");
        assert_eq!(MoveScore::Mate(5).to_string(), "+M5");
        assert_eq!(MoveScore::Mate(-2).to_string(), "-M2");
        assert_eq!(MoveScore::Mate(-2).centipawns(), -MATE_CENTIPAWNS);
    }

    #[test]
    fn scores_read_back_from_their_text() {
        for score in [
            MoveScore::Cp(35),
            MoveScore::Cp(-120),
            MoveScore::Cp(0),
            MoveScore::Mate(5),
            MoveScore::Mate(-2),
        ] {
            assert_eq!(score.to_string().parse::<MoveScore>(), Ok(score));
        }
        assert_eq!("1.5".parse::<MoveScore>(), Ok(MoveScore::Cp(150)));
        assert_eq!("M3".parse::<MoveScore>(), Ok(MoveScore::Mate(3)));
        assert_eq!("-0.004".parse::<MoveScore>(), Ok(MoveScore::Cp(0)));
        for bad in ["", "+", "book", "+Mx", "nan", "+inf", "1e9", "--1", "+-1"] {
            assert!(bad.parse::<MoveScore>().is_err(), "{bad}");
        }
    }
}
