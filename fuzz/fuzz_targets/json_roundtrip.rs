//! cargo fuzz target `json_roundtrip`: the harness and its invariants live in
//! `tests/fuzz_checks/mod.rs` (shared with `tests/fuzz_regressions.rs`).
#![no_main]

#[path = "../../tests/fuzz_checks/mod.rs"]
mod fuzz_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_checks::json_roundtrip(data));
