//! A values run's journal keeps each move's score, so that a score rule
//! can be judged on games played without it: played again with the rule,
//! every game is the same game cut where the recorded scores say the rule
//! fires (`bench/resign_rule.py` rests on this).

mod small_run;

use kurier_tuner::tournament::adjudication::ResignRule;
use kurier_tuner::values::design_game::DesignGame;
use kurier_tuner::values::generate::GameEnding;
use kurier_tuner::values::run::runner::run;
use kurier_tuner::values::run::settings::RunSettings;
use small_run::{chess_settings, scratch};

fn settings(resign: Option<ResignRule>) -> RunSettings {
    RunSettings {
        budgets: vec![200],
        pairs_per_batch: 12,
        ending: GameEnding {
            max_plies: 200,
            resign,
        },
        seed: 3,
        ..chess_settings()
    }
}

/// The ply after which the rule first fires on `game`'s recorded scores,
/// with the winner's result: a direct reading of the rule (the last
/// `2 * moves` scores, each turned to White's side, all at least `score`
/// for one side), not the tournament's code.
fn rule_fires(game: &DesignGame, rule: ResignRule) -> Option<(usize, &'static str)> {
    let white_first = game.fen.split_whitespace().nth(1) == Some("w");
    let white_view: Vec<Option<i32>> = game
        .scores
        .iter()
        .enumerate()
        .map(|(ply, score)| {
            let white_moved = (ply % 2 == 0) == white_first;
            score.map(|s| if white_moved { s } else { -s })
        })
        .collect();
    let span = 2 * rule.moves as usize;
    (span..=white_view.len()).find_map(|plies| {
        let last = &white_view[plies - span..plies];
        [("1-0", 1), ("0-1", -1)]
            .into_iter()
            .find_map(|(result, sign)| {
                last.iter()
                    .all(|s| s.is_some_and(|s| sign * s >= rule.score))
                    .then_some((plies, result))
            })
    })
}

#[test]
fn a_score_rule_cuts_each_game_where_its_recorded_scores_say() {
    // Two moves, as the default rule it replaces (a mate both sides see),
    // so that a game the rule does not cut ends as it did without it.
    let rule = ResignRule {
        moves: 2,
        score: 300,
    };
    let full = run(&settings(None), &scratch("full"), None).unwrap().games;
    let cut = run(&settings(Some(rule)), &scratch("cut"), None)
        .unwrap()
        .games;
    assert_eq!(full.len(), 24);
    assert_eq!(cut.len(), 24);
    let mut adjudicated = 0;
    for (whole, short) in full.iter().zip(&cut) {
        assert_eq!((whole.pair, whole.a_white), (short.pair, short.a_white));
        assert_eq!(whole.fen, short.fen);
        assert_eq!(whole.scores.len(), whole.moves.len());
        assert_eq!(whole.move_ms.len(), whole.moves.len());
        match rule_fires(whole, rule) {
            Some((plies, result)) if plies < whole.moves.len() => {
                adjudicated += 1;
                assert_eq!(short.moves[..], whole.moves[..plies]);
                assert_eq!(short.scores[..], whole.scores[..plies]);
                assert_eq!(short.result, result);
                assert_eq!(short.termination, "resign adjudication");
            }
            // The rule never fires before the game's own end.
            _ => {
                assert_eq!(short.moves, whole.moves);
                assert_eq!(short.result, whole.result);
            }
        }
    }
    assert!(adjudicated >= 3, "only {adjudicated} games met the rule");
}
