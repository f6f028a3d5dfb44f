//! SHA-256 as the reference writes it (defined in [`crate::hash`], a leaf
//! module shared with [`crate::json`]).

pub use crate::hash::{sha256_hex, sha256_text};
