//! Shards: a run split into `N` slices that machines play apart and merge.

use serde::{Deserialize, Serialize};

/// A slice of the schedule for one machine: pairs `p` with
/// `p % count == index - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which slice, from 1.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl Shard {
    /// Parses `k/N` with `1 <= k <= N`.
    ///
    /// ```
    /// use kurier_tuner::util::shard::Shard;
    /// assert_eq!(Shard::parse("2/3").unwrap(), Shard { index: 2, count: 3 });
    /// assert!(Shard::parse("0/3").is_err() && Shard::parse("4/3").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Shard, String> {
        let error = || format!("--shard '{text}': use k/N with 1 <= k <= N, e.g. 1/4");
        let (index, count) = text.split_once('/').ok_or_else(error)?;
        let index: usize = index.trim().parse().map_err(|_| error())?;
        let count: usize = count.trim().parse().map_err(|_| error())?;
        if index == 0 || index > count {
            return Err(error());
        }
        Ok(Shard { index, count })
    }

    /// Whether pair `pair` belongs to this shard.
    pub fn holds(&self, pair: usize) -> bool {
        pair % self.count == self.index - 1
    }
}
