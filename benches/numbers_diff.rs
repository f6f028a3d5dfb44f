//! The Rust side of the number differentials against CPython
//! (`tests/numbers/numbers_diff.py`, which drives it): one answer line per
//! input line, batched through stdin/stdout (no process per number).
//!
//!   numbers_diff float   each line a string: Python `float(s)` as the bits
//!                        of the double in hex, or `ValueError`
//!                        (`py::float::parse_py_float`)
//!   numbers_diff json    each line a JSON text: `json.dumps(json.loads(t))`
//!                        as the crate's canonical JSON (of the owned tree and
//!                        of the borrowed `Doc`, which must agree), or `error`
//!   numbers_diff repr    each line the bits of a double in hex: its `repr`
//!   numbers_diff exp     each line the bits of x in hex: the bits of
//!                        `py::exp::exp(x)` (CPython's `math.exp`)
//!   numbers_diff stdexp  the same with Rust's `f64::exp` (what the scorer
//!                        used before: the platform's libm natively)
//!   numbers_diff cost-parse_f64 | cost-core | cost-none   read every line
//!                        with `py::float::parse_f64`, Rust's `str::parse::<f64>`
//!                        or not at all (the baseline: reading and splitting),
//!                        and print only a checksum (for instruction counts:
//!                        `valgrind --tool=callgrind`, BENCHMARKS.md)
use std::io::{BufWriter, Read, Write};

use lians_score::json;
use lians_score::py::{exp, float};

fn hex(line: &[u8]) -> u64 {
    let s = std::str::from_utf8(line).expect("hex bits");
    u64::from_str_radix(s.trim(), 16).expect("hex bits")
}

fn main() {
    let mode = std::env::args().nth(1).expect("usage: numbers_diff float|json|repr|exp|stdexp < lines");
    let mut input = Vec::new();
    std::io::stdin().lock().read_to_end(&mut input).expect("read stdin");
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    // Every line ends with a newline (an empty line is an input too).
    let n = input.iter().filter(|&&b| b == b'\n').count();
    let mut checksum = 0u64;
    for line in input.split(|&b| b == b'\n').take(n) {
        match mode.as_str() {
            "float" => {
                let s = std::str::from_utf8(line).expect("UTF-8 lines");
                match float::parse_py_float(s) {
                    Some(f) => writeln!(out, "{:x}", f.to_bits()),
                    None => writeln!(out, "ValueError"),
                }
            }
            "json" => {
                let s = std::str::from_utf8(line).expect("UTF-8 lines");
                // The owned tree and the borrowed `Doc` (which copies float
                // lexemes that already are repr) must print the same.
                match (json::parse(s), json::parse_doc(s)) {
                    (Ok(v), Ok(d)) => {
                        let (a, b) = (json::canonical(&v), json::canonical_bytes(d.root()));
                        if a.as_bytes() == b {
                            writeln!(out, "{a}")
                        } else {
                            writeln!(out, "tree {a} but doc {}", String::from_utf8_lossy(&b))
                        }
                    }
                    (Err(_), Err(_)) => writeln!(out, "error"),
                    (v, d) => writeln!(out, "tree {} but doc {}", v.is_ok(), d.is_ok()),
                }
            }
            "repr" => writeln!(out, "{}", float::repr(f64::from_bits(hex(line)))),
            "exp" => writeln!(out, "{:x}", exp::exp(f64::from_bits(hex(line))).to_bits()),
            "stdexp" => writeln!(out, "{:x}", f64::from_bits(hex(line)).exp().to_bits()),
            "cost-parse_f64" | "cost-core" | "cost-none" => {
                let s = std::str::from_utf8(line).expect("UTF-8 lines");
                let f = match mode.as_str() {
                    "cost-core" => s.parse::<f64>().ok(),
                    "cost-parse_f64" => float::parse_f64(s),
                    _ => Some(s.len() as f64),
                };
                checksum ^= f.map_or(0, f64::to_bits);
                continue;
            }
            other => panic!("unknown mode {other}"),
        }
        .expect("write stdout");
    }
    if mode.starts_with("cost-") {
        writeln!(out, "{checksum:x}").expect("write stdout");
    }
    out.flush().expect("flush stdout");
}
