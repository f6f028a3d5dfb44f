//! Receipt and Evidence Pack verification.

pub mod hash;
