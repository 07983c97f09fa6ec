//! The schedule: which game pairs a run plays, in order. One list of
//! (pair, opening, first player, second player) serves every format, so
//! shards, resume and merge work the same for matches, gauntlets and
//! round robins. Pair `p` is games `2p` (the first player has white) and
//! `2p + 1` (colours swapped), from the same opening.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::util::rng::{shuffled, Rng};
use crate::util::shard::Shard;

/// Who meets whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Two players.
    Match,
    /// The first player against each of the others.
    Gauntlet,
    /// Every player against every other.
    Roundrobin,
}

impl Format {
    /// The encounters (first, second) of `players` players, in the order
    /// a round plays them; an error if the format needs more or fewer.
    pub fn encounters(self, players: usize) -> Result<Vec<(usize, usize)>, String> {
        match self {
            Format::Match if players != 2 => {
                Err(format!("a match is between two players; {players} given"))
            }
            Format::Match => Ok(vec![(0, 1)]),
            _ if players < 2 => Err(format!("{self} needs two players or more; {players} given")),
            Format::Gauntlet => Ok((1..players).map(|other| (0, other)).collect()),
            Format::Roundrobin => Ok((0..players)
                .flat_map(|a| (a + 1..players).map(move |b| (a, b)))
                .collect()),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Match => "match",
            Format::Gauntlet => "gauntlet",
            Format::Roundrobin => "roundrobin",
        })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// One game pair of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairSlot {
    /// Its index in the whole schedule.
    pub pair: usize,
    /// Index into the run's list of openings.
    pub opening: usize,
    /// Has white in the pair's first game.
    pub first: usize,
    /// Has white in the pair's second game.
    pub second: usize,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSlot {
    /// `2 * pair` or `2 * pair + 1`.
    pub id: u64,
    /// The pair it belongs to.
    pub pair: usize,
    /// Index into the run's list of openings.
    pub opening: usize,
    /// The player with white.
    pub white: usize,
    /// The player with black.
    pub black: usize,
}

/// Every game pair of a run, in playing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The pairs.
    pub pairs: Vec<PairSlot>,
}

impl Schedule {
    /// `rounds` rounds in which every encounter of `format` plays one game
    /// pair; all pairs of round `r` start from the same opening, the
    /// `r`-th of a seeded shuffle of the `openings` available (cycling
    /// through them again when there are more rounds than openings).
    pub fn new(
        format: Format,
        players: usize,
        rounds: usize,
        openings: usize,
        seed: u64,
    ) -> Result<Schedule, String> {
        let encounters = format.encounters(players)?;
        if openings == 0 {
            return Err("no openings to play".to_string());
        }
        let order = shuffled(openings, &mut Rng::new(seed));
        let pairs = (0..rounds)
            .flat_map(|round| {
                let opening = order[round % openings];
                let encounters = &encounters;
                (0..encounters.len()).map(move |e| PairSlot {
                    pair: round * encounters.len() + e,
                    opening,
                    first: encounters[e].0,
                    second: encounters[e].1,
                })
            })
            .collect();
        Ok(Schedule { pairs })
    }

    /// The pairs in `shard` (all of them without one).
    pub fn shard(&self, shard: Option<Shard>) -> Schedule {
        Schedule {
            pairs: self
                .pairs
                .iter()
                .filter(|slot| shard.is_none_or(|s| s.holds(slot.pair)))
                .copied()
                .collect(),
        }
    }

    /// The games, two per pair, in order.
    pub fn games(&self) -> Vec<GameSlot> {
        self.pairs
            .iter()
            .flat_map(|slot| {
                [(slot.first, slot.second), (slot.second, slot.first)]
                    .into_iter()
                    .enumerate()
                    .map(move |(half, (white, black))| GameSlot {
                        id: 2 * slot.pair as u64 + half as u64,
                        pair: slot.pair,
                        opening: slot.opening,
                        white,
                        black,
                    })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_list_their_encounters() {
        assert_eq!(Format::Match.encounters(2).unwrap(), vec![(0, 1)]);
        assert!(Format::Match.encounters(3).is_err());
        assert_eq!(
            Format::Gauntlet.encounters(4).unwrap(),
            vec![(0, 1), (0, 2), (0, 3)]
        );
        // n (n - 1) / 2 = 6 encounters for 4 players.
        assert_eq!(
            Format::Roundrobin.encounters(4).unwrap(),
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert!(Format::Roundrobin.encounters(1).is_err());
    }

    #[test]
    fn games_come_in_pairs_with_colours_swapped() {
        let schedule = Schedule::new(Format::Gauntlet, 3, 2, 5, 1).unwrap();
        let games = schedule.games();
        assert_eq!(games.len(), 2 * 2 * 2);
        for (index, game) in games.iter().enumerate() {
            assert_eq!(game.id, index as u64);
            assert_eq!(game.pair, index / 2);
        }
        assert_eq!((games[0].white, games[0].black), (0, 1));
        assert_eq!((games[1].white, games[1].black), (1, 0));
        assert_eq!((games[2].white, games[2].black), (0, 2));
        // A round shares its opening; the next round takes another.
        assert_eq!(games[0].opening, games[3].opening);
        assert_ne!(games[0].opening, games[4].opening);
    }

    #[test]
    fn openings_cycle_through_a_seeded_order() {
        let schedule = Schedule::new(Format::Match, 2, 7, 3, 9).unwrap();
        let openings: Vec<usize> = schedule.pairs.iter().map(|p| p.opening).collect();
        let mut first_three = openings[..3].to_vec();
        first_three.sort_unstable();
        assert_eq!(first_three, vec![0, 1, 2]);
        assert_eq!(openings[3..6], openings[..3]);
        assert_eq!(openings[6], openings[0]);
        assert_eq!(schedule, Schedule::new(Format::Match, 2, 7, 3, 9).unwrap());
    }

    #[test]
    fn shards_split_the_pairs_without_overlap() {
        let schedule = Schedule::new(Format::Roundrobin, 3, 4, 10, 2).unwrap();
        let mut seen: Vec<usize> = Vec::new();
        for index in 1..=3 {
            let shard = schedule.shard(Some(Shard { index, count: 3 }));
            for slot in &shard.pairs {
                assert_eq!(slot.pair % 3, index - 1);
                seen.push(slot.pair);
            }
        }
        seen.sort_unstable();
        assert_eq!(seen, (0..12).collect::<Vec<_>>());
        assert_eq!(schedule.shard(None), schedule);
    }
}
