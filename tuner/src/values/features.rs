//! What the value models see in a position: per valued type the material
//! difference (White's men minus Black's), and per colour-bound type (a
//! piece that never leaves its square colour, such as chess's bishop)
//! the difference of the *pair*: a side has the pair when it has men of
//! that type on both square colours. The pair term is the bishop pair of
//! chess (Kaufman: half a pawn), measured apart from the bishop itself.

use std::sync::Arc;

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::game::Game;
use kurier_engine::position::state::Position;
use kurier_engine::types::{Color, Square};
use serde::{Deserialize, Serialize};

use crate::positions::square_colours::has_pair;
use crate::positions::square_colours::square_colour;
use crate::values::PieceTypes;

/// The columns of a value model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureSpace {
    /// The types with a value column, in type order (the pawn included,
    /// the king not).
    pub valued: Vec<usize>,
    /// The colour-bound types with a pair column, in type order.
    pub pair_types: Vec<usize>,
    /// The pawn's column (the unit of value).
    pub pawn_column: usize,
}

impl FeatureSpace {
    /// Value columns for every type but the king, and pair columns for
    /// `pair_types`.
    pub fn new(types: &PieceTypes, pair_types: Vec<usize>) -> FeatureSpace {
        let valued = types.valued();
        let pawn_column = valued
            .iter()
            .position(|&t| t == types.pawn)
            .unwrap_or_else(|| unreachable!("the pawn is a valued type"));
        FeatureSpace {
            valued,
            pair_types,
            pawn_column,
        }
    }

    /// Number of columns.
    pub fn columns(&self) -> usize {
        self.valued.len() + self.pair_types.len()
    }

    /// The column of type `t`'s value, if it has one.
    pub fn value_column(&self, t: usize) -> Option<usize> {
        self.valued.iter().position(|&v| v == t)
    }

    /// The column of type `t`'s pair term, if it has one.
    pub fn pair_column(&self, t: usize) -> Option<usize> {
        self.pair_types
            .iter()
            .position(|&p| p == t)
            .map(|i| self.valued.len() + i)
    }

    /// The features of `position`, White minus Black.
    pub fn of_position<B: Bitboard>(&self, position: &Position<B>) -> Vec<f64> {
        let mut x: Vec<f64> = self
            .valued
            .iter()
            .map(|&t| {
                position.pieces(Color::White, t).count() as f64
                    - position.pieces(Color::Black, t).count() as f64
            })
            .collect();
        x.extend(self.pair_types.iter().map(|&t| {
            f64::from(u8::from(has_pair(position, Color::White, t)))
                - f64::from(u8::from(has_pair(position, Color::Black, t)))
        }));
        x
    }
}

/// The types of `game` other than king and pawns whose every move, from
/// every square of the empty board, keeps the square colour.
pub fn colour_bound_types<B: Bitboard>(game: &Arc<Game<B>>, types: &PieceTypes) -> Vec<usize> {
    let tables = game.tables();
    types
        .pieces()
        .into_iter()
        .filter(|&t| {
            (0..game.geometry.squares()).all(|index| {
                let from = Square::new(index as u8);
                let (quiet, capture) =
                    game.pieces[t].targets(&tables, Color::White, from, B::EMPTY, B::EMPTY);
                (quiet | capture)
                    .squares()
                    .all(|to| square_colour(game, to) == square_colour(game, from))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kurier_engine::position::any_game::AnyGame;

    #[test]
    fn colour_bound_types_are_those_that_keep_their_square_colour() {
        // Chess: only the bishop. ExCoCo: bishop (B), viscount (B3),
        // minister (ferz + alfil) and elephant (alfil + dabbaba, both
        // even leaps); not the courier or scout (their wazir step
        // changes colour).
        for (name, expected) in [("chess", vec!['B']), ("excoco", vec!['B', 'V', 'E', 'M'])] {
            let game = AnyGame::built_in(name).unwrap();
            let letters = kurier_engine::with_game!(&game, g => {
                let types = PieceTypes::of(&g.variant).unwrap();
                colour_bound_types(g, &types)
                    .into_iter()
                    .map(|t| types.letters[t])
                    .collect::<Vec<char>>()
            });
            let mut sorted = letters.clone();
            sorted.sort_unstable();
            let mut want = expected.clone();
            want.sort_unstable();
            assert_eq!(sorted, want, "{name}");
        }
    }

    #[test]
    fn features_count_men_and_pairs_white_minus_black() {
        let AnyGame::Narrow(game) = AnyGame::built_in("chess").unwrap() else {
            unreachable!("chess is narrow")
        };
        let types = PieceTypes::of(&game.variant).unwrap();
        let bishop = game.variant.type_of_letter('B').unwrap();
        let space = FeatureSpace::new(&types, vec![bishop]);
        // White: K, Q, two bishops on c1 (dark) and f1 (light), 8 pawns;
        // Black: K, two bishops on c8 and d7 (both light), 7 pawns.
        let position = Position::from_fen(
            game.clone(),
            "2b1k3/pppbpppp/8/8/8/8/PPPPPPPP/2BQKB2 w - - 0 1",
        )
        .unwrap();
        let x = space.of_position(&position);
        let at = |letter: char| {
            x[space
                .value_column(game.variant.type_of_letter(letter).unwrap())
                .unwrap()]
        };
        assert_eq!((at('Q'), at('B'), at('P'), at('R')), (1.0, 0.0, 1.0, 0.0));
        // White has the pair, Black (two light-squared bishops) not.
        assert_eq!(x[space.pair_column(bishop).unwrap()], 1.0);
    }
}
