//! Replays every saved fuzz input (`fuzz/regressions/<target>/*`: crashes
//! found by `cargo fuzz` and hand-picked worst cases) through the same
//! harnesses the fuzz targets run (`tests/fuzz_checks/mod.rs`), plus a few
//! thousand pseudo-random inputs per harness, so the invariants are checked
//! in every `cargo test` without the fuzzer.

mod fuzz_checks;

use std::path::Path;

/// Replay every file of `fuzz/regressions/<target>/`; returns how many ran.
/// A missing or unreadable folder is a failure, not an empty replay.
fn replay_dir(target: &str, harness: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions").join(target);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
    paths.sort();
    for path in &paths {
        let data = std::fs::read(path).unwrap();
        let name = path.display().to_string();
        let result = std::panic::catch_unwind(|| harness(&data));
        assert!(result.is_ok(), "regression input {name} fails its harness");
    }
    paths.len()
}

/// Each target's saved inputs (at least the ones committed with FUZZING.md).
fn replay_all(target: &str, harness: fn(&[u8]), at_least: usize) {
    let n = replay_dir(target, harness);
    assert!(n >= at_least, "fuzz/regressions/{target} has {n} inputs, expected at least {at_least}");
}

/// xorshift64*: a fixed stream of pseudo-random bytes.
fn random_inputs(seed: u64, count: usize, max_len: usize, harness: fn(&[u8])) {
    let mut state = seed;
    let mut next = || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    for _ in 0..count {
        let len = (next() as usize) % max_len;
        let data: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        harness(&data);
    }
}

#[test]
fn json_roundtrip_regressions() {
    replay_all("json_roundtrip", fuzz_checks::json_roundtrip, 6);
    random_inputs(1, 2000, 64, fuzz_checks::json_roundtrip);
}

#[test]
fn receipt_verify_regressions() {
    replay_all("receipt_verify", fuzz_checks::receipt_verify, 4);
    random_inputs(2, 2000, 64, fuzz_checks::receipt_verify);
}

#[test]
fn api_call_regressions() {
    replay_all("api_call", fuzz_checks::api_call, 2);
    // Structure-aware selectors (bit 3 set) get most of the random inputs.
    random_inputs(3, 300, 96, |d| {
        let mut d = d.to_vec();
        if let Some(b) = d.first_mut() {
            *b |= 8;
        }
        fuzz_checks::api_call(&d)
    });
}

#[test]
fn text_detectors_regressions() {
    replay_all("text_detectors", fuzz_checks::text_detectors, 3);
    random_inputs(4, 500, 256, fuzz_checks::text_detectors);
    random_inputs(5, 60, 64, |d| fuzz_checks::text_detectors(&[&[0xFE][..], d].concat()));
}
