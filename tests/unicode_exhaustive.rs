//! Every code point against CPython 3.12 (Unicode 15.0.0).
//!
//! The Rust side builds the canonical dump described in
//! `scripts/gen_unicode_tables.py` (one line per non-surrogate code point:
//! isalnum, decimal value, isspace, casefold, lower, and three Final_Sigma
//! probes of `str.lower()`).
//!
//! - If CPython 3.12 is available (`$LIANS_PYTHON312`, else
//!   `/root/.pyenv/versions/3.12.1/bin/python3`), the test runs
//!   `gen_unicode_tables.py --dump` and compares line by line.
//! - In every case the SHA-256 of the Rust dump must equal the digest the
//!   generator recorded in `crates/core/src/py/unicode_tables.rs`, so a table change is
//!   caught even without Python.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use lians_score::py::unicode::{
    casefold, decimal_value, is_alnum, is_decimal, is_py_space, is_py_word, lower, TABLES_DUMP_SHA256, UNIDATA_VERSION,
};
use sha2::{Digest, Sha256};

const DEFAULT_PYTHON: &str = "/root/.pyenv/versions/3.12.1/bin/python3";

fn mapping_field(out: &mut String, c: char, mapped: &str) {
    let mut it = mapped.chars();
    if it.next() == Some(c) && it.next().is_none() {
        out.push('=');
        return;
    }
    for (i, m) in mapped.chars().enumerate() {
        if i > 0 {
            out.push('.');
        }
        write!(out, "{:X}", m as u32).unwrap();
    }
}

fn dump_line(out: &mut String, c: char, buf: &mut String) {
    write!(out, "{:X};{};", c as u32, is_alnum(c) as u8).unwrap();
    match decimal_value(c) {
        Some(d) => write!(out, "{d};").unwrap(),
        None => out.push_str("-;"),
    }
    write!(out, "{};", is_py_space(c) as u8).unwrap();
    mapping_field(out, c, &casefold(c.encode_utf8(&mut [0; 4])));
    out.push(';');
    mapping_field(out, c, &lower(c.encode_utf8(&mut [0; 4])));
    out.push(';');

    buf.clear();
    buf.push(c);
    buf.push('Σ');
    let t1 = lower(buf).ends_with('ς');
    buf.clear();
    buf.push('A');
    buf.push(c);
    buf.push('Σ');
    let t2 = lower(buf).ends_with('ς');
    buf.clear();
    buf.push_str("AΣ");
    buf.push(c);
    let t3 = lower(buf).chars().nth(1) == Some('ς');
    for t in [t1, t2, t3] {
        out.push(if t { '1' } else { '0' });
    }
    out.push('\n');
}

fn rust_dump() -> String {
    let mut out = String::with_capacity(24 << 20);
    let mut buf = String::new();
    for c in (0..0x11_0000u32).filter_map(char::from_u32) {
        dump_line(&mut out, c, &mut buf);
        // Derived functions agree with the primitives.
        assert_eq!(is_decimal(c), decimal_value(c).is_some(), "U+{:04X}", c as u32);
        assert_eq!(is_py_word(c), is_alnum(c) || c == '_', "U+{:04X}", c as u32);
    }
    out
}

fn python() -> Option<PathBuf> {
    match std::env::var_os("LIANS_PYTHON312") {
        Some(p) if !p.is_empty() => {
            let p = PathBuf::from(p);
            assert!(p.exists(), "LIANS_PYTHON312={} does not exist", p.display());
            Some(p)
        }
        _ => Some(PathBuf::from(DEFAULT_PYTHON)).filter(|p| p.exists()),
    }
}

fn sha256_hex(s: &str) -> String {
    Sha256::digest(s.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn every_code_point_matches_cpython_312() {
    assert_eq!(UNIDATA_VERSION, "15.0.0");
    let rust = rust_dump();
    assert_eq!(rust.lines().count(), 0x11_0000 - 0x800);

    if let Some(py) = python() {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/gen_unicode_tables.py");
        let output = Command::new(&py).arg(&script).arg("--dump").output().expect("run Python 3.12");
        assert!(
            output.status.success(),
            "{} --dump failed: {}",
            script.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        let python = String::from_utf8(output.stdout).expect("ASCII dump");
        let mut mismatches = Vec::new();
        for (r, p) in rust.lines().zip(python.lines()) {
            if r != p {
                mismatches.push(format!("  rust   {r}\n  python {p}"));
            }
        }
        assert_eq!(rust.lines().count(), python.lines().count(), "dump line counts differ");
        assert!(
            mismatches.is_empty(),
            "{} code points differ from CPython 3.12 (first 20):\n{}",
            mismatches.len(),
            mismatches[..mismatches.len().min(20)].join("\n")
        );
        assert_eq!(
            sha256_hex(&python),
            TABLES_DUMP_SHA256,
            "Python's dump differs from the one recorded in unicode_tables.rs: regenerate the tables"
        );
    } else {
        eprintln!("CPython 3.12 not found (set LIANS_PYTHON312): checking the recorded digest only");
    }

    assert_eq!(
        sha256_hex(&rust),
        TABLES_DUMP_SHA256,
        "the Rust-side dump does not match the digest recorded by scripts/gen_unicode_tables.py"
    );
}
