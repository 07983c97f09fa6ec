//! Statistics: the match statistics of game pairs (Elo, the pentanomial
//! model, SPRT), logistic regression of results on features, and 95%
//! intervals by the bootstrap.

pub mod bootstrap;
pub mod logistic;
pub mod match_stats;
