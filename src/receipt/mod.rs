//! Receipt and Evidence Pack verification (to be implemented).
