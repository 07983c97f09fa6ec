//! The static evaluation: its terms, its parameters and their files, the
//! static exchange evaluation, and the evaluation cache.

pub(crate) mod eval_cache;
pub mod evaluate;
pub mod params;
pub mod see;
