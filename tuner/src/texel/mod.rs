//! Texel tuning: every weight of a variant's evaluation fitted to the
//! results of recorded games ([`tune`], by [`fit`]), or to a stronger
//! engine's scores of their positions ([`label`] writes them as
//! [`scored_positions`]).

pub mod fit;
pub mod scored_positions;
pub mod tune;
