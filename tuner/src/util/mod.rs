//! Small helpers that every part of the tuner uses, each a concept of its
//! own and none importing the rest of the crate.

pub mod date;
pub mod files;
pub mod json_diff;
pub mod key_values;
pub mod rng;
pub mod shard;
pub mod work_progress;
