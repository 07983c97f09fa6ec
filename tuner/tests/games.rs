//! Games between two settings are legal from the first move to the last,
//! and end exactly where the rules say.

use kurier_engine::eval::evaluate::EvalParams;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use kurier_tuner::players::seat::{Player, PlayerSettings, SearchLimit};
use kurier_tuner::positions::openings::random_opening;
use kurier_tuner::records::game_record::GameEnd;
use kurier_tuner::tournament::game_loop::play_game;
use kurier_tuner::util::rng::Rng;

#[test]
fn games_replay_legally_and_end_by_the_rules() {
    for name in Variant::built_in_names() {
        let variant = Variant::built_in(name).unwrap();
        let params = EvalParams::for_variant(&variant).unwrap();
        let settings = |name: &str, params: EvalParams| {
            PlayerSettings::new(name, params, SearchLimit::Nodes(300))
        };
        let game = AnyGame::new(variant).unwrap();
        with_game!(&game, g => {
            let first = Player::new(g, settings("default", params.clone()));
            let second = Player::new(g, settings("material", params.material_only()));
            let start = Position::startpos(g.clone());
            let opening = random_opening(&start, 6, &mut Rng::new(7));
            let record = play_game(&opening, &first, &second, 160);
            // Replay the moves from the opening through the move parser.
            let mut replay = opening.clone();
            for text in &record.moves {
                assert!(replay.outcome().is_none(), "{name}: play went on after the game ended");
                let legal = replay.parse_uci(text).unwrap_or_else(|e| panic!("{name}: {e}"));
                replay.make_move(legal);
            }
            match record.termination {
                GameEnd::Rules(termination) => {
                    let outcome = replay.outcome().expect("the game ended");
                    assert_eq!(outcome.termination, termination, "{name}");
                    assert_eq!(outcome.result, record.result, "{name}");
                }
                GameEnd::PlyLimit => {
                    assert_eq!(record.moves.len(), 160, "{name}: stopped early without a reason");
                    assert!(replay.outcome().is_none(), "{name}: the rules ended it first");
                }
                other => panic!("{name}: in-process players cannot end a game by {other:?}"),
            }
            assert_eq!(record.notes.len(), record.moves.len(), "{name}");
        });
    }
}
