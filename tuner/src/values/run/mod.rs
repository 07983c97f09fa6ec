//! A whole `kurier-tune values` run: for every search budget, the
//! observational games and the batches of the designed experiment, all
//! played by one engine that keeps its values for the whole run,
//! recorded so that a killed run resumes, a run splits into shards, and
//! shards merge into exactly what one machine plays.
//!
//! The run folder holds `journal.jsonl` (a first line with the run's
//! header, then one line per finished design game, written to disk as
//! the game ends) and `observational-<nodes>.kdat` per budget (the
//! positions dataset, appended block by block). Running the same command
//! again resumes; other settings for the same folder are refused, and so
//! is a build that searches differently (its games would not be those of
//! the run).
//!
//! Shards (`--shard k/N`) play the pairs `p` of each batch with `p % N ==
//! k - 1`, and the observational games `g` with `g % N == k - 1`. Batch
//! `b + 1` is planned from all the games of batches `1 ..= b`, so a shard
//! stops after its share of each batch; `kurier-tune merge` joins the
//! shards' folders, and the shards go on with `--base MERGED` (see
//! `reports/README.md`). The result depends only on the games, so the
//! merged run fits exactly what one machine fits.
//!
//! The files: [`settings`] (what a run is), [`runner`] (playing it),
//! [`resume`] (going on from a journal), [`results`] (fitting it) and
//! [`merge`] (joining shards).

pub mod merge;
pub mod results;
pub mod resume;
pub mod runner;
pub mod settings;
