//! What the engine shows while it thinks: each search report as the page
//! gets it, the principal variation in SAN and the score from White's
//! side.

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::state::Position;
use kurier_engine::search::interface::Report;
use kurier_engine::search::tt::Bound;
use kurier_tuner::records::game_record::MoveScore;
use serde::Serialize;

use crate::view::for_white;

/// One search report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Thinking {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The score, from White's side.
    pub score: MoveScore,
    /// `exact`, `lower` (at least) or `upper` (at most), from the side
    /// to move's view.
    pub bound: &'static str,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started, milliseconds.
    pub time_ms: u64,
    /// The principal variation in SAN.
    pub pv: Vec<String>,
}

impl Thinking {
    /// `report` of a search of `position`.
    pub fn new<B: Bitboard>(position: &Position<B>, report: &Report) -> Thinking {
        let mut line = position.clone();
        let mut pv = Vec::with_capacity(report.pv.len());
        for &m in &report.pv {
            // A PV move that is not legal would be a search bug; the line
            // stops there rather than make it.
            if !line.legal_moves().contains(&m) {
                break;
            }
            pv.push(line.san(m));
            line.make_move(m);
        }
        let millis = report.time.as_millis() as u64;
        Thinking {
            depth: report.depth,
            seldepth: report.seldepth,
            score: for_white(MoveScore::from(report.score), position.side_to_move()),
            bound: match report.bound {
                Bound::Exact => "exact",
                Bound::Lower => "lower",
                Bound::Upper => "upper",
            },
            nodes: report.nodes,
            nps: report.nodes.saturating_mul(1000) / millis.max(1),
            time_ms: millis,
            pv,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kurier_engine::position::any_game::AnyGame;
    use kurier_engine::search::interface::Score;
    use std::time::Duration;

    #[test]
    fn a_report_reads_in_san_from_whites_side() {
        let AnyGame::Narrow(chess) = AnyGame::built_in("chess").unwrap() else {
            unreachable!("chess is 8x8")
        };
        let position = Position::from_fen(
            chess,
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        )
        .unwrap();
        let mate = position.parse_uci("d8h4").unwrap();
        let report = Report {
            depth: 3,
            seldepth: 4,
            multipv: 1,
            score: Score::Mate(1),
            bound: Bound::Exact,
            nodes: 5_000,
            time: Duration::from_millis(250),
            hashfull: 0,
            pv: vec![mate],
        };
        let thinking = Thinking::new(&position, &report);
        // Black mates in one: White's side sees mate against it.
        assert_eq!(thinking.score, MoveScore::Mate(-1));
        assert_eq!(thinking.pv, ["Qh4#"]);
        assert_eq!(thinking.nps, 20_000);
        assert_eq!(thinking.bound, "exact");
    }
}
