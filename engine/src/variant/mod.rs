//! Variants as data: the Betza notation of piece moves, the variant
//! description and its file format, the placement field of a FEN, and the
//! piece values estimated from the moves.

pub mod betza;
pub mod definition;
pub mod placement;
pub mod spec;
pub mod value_estimate;
