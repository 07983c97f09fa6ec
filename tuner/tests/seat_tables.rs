//! A player's seats keep their tables from game to game, cleared: a game
//! is the same whether its player has played before or not.

use kurier_engine::eval::evaluate::EvalParams;
use kurier_engine::position::any_game::AnyGame;
use kurier_engine::position::state::Position;
use kurier_engine::variant::definition::Variant;
use kurier_engine::with_game;
use kurier_tuner::players::seat::{Player, PlayerSettings, SearchLimit};
use kurier_tuner::positions::openings::random_opening;
use kurier_tuner::tournament::game_loop::play_game;
use kurier_tuner::util::rng::Rng;

#[test]
fn a_game_after_other_games_is_the_game_played_first() {
    for name in ["courier", "excoco"] {
        let variant = Variant::built_in(name).unwrap();
        let params = EvalParams::for_variant(&variant).unwrap();
        let settings = || PlayerSettings::new("player", params.clone(), SearchLimit::Nodes(400));
        let game = AnyGame::new(variant).unwrap();
        with_game!(&game, g => {
            let start = Position::startpos(g.clone());
            let mut rng = Rng::new(11);
            let earlier = random_opening(&start, 6, &mut rng);
            let later = random_opening(&start, 6, &mut rng);
            let fresh = Player::new(g, settings());
            let first = play_game(&later, &fresh, &fresh, 60);
            // Another game, then this one twice: the second time every
            // position of it would be in a hash table left as it was.
            let experienced = Player::new(g, settings());
            play_game(&earlier, &experienced, &experienced, 60);
            for _ in 0..2 {
                let again = play_game(&later, &experienced, &experienced, 60);
                assert_eq!(again.moves, first.moves, "{name}");
                assert_eq!(again.result, first.result, "{name}");
            }
        });
    }
}
