//! Recall audit vs receipt verification, natively, on every real recall body
//! (`tests/data/audit`, the vendored recall and context samples):
//! `cargo run --release --example audit_bench [-- --quick]`. For each body, the
//! median time of `api::verify_recall_receipt(wire, {query})` and of
//! `api::audit_recall(wire, {query})` (both parse the raw text and build the
//! report value), and their ratio. The Node side is `bench/audit-bench.mjs`.

use std::hint::black_box;
use std::time::Instant;

use lians_score::api;
use lians_score::json::{Object, Value};

/// This thread's CPU time in ms (Linux `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`,
/// as `benches/native.rs`), or wall time elsewhere.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn cpu_ms() -> f64 {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid pointer to a properly laid out timespec.
    unsafe { clock_gettime(3, &mut ts) };
    ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6
}
#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn cpu_ms() -> f64 {
    use std::sync::OnceLock;
    static T0: OnceLock<Instant> = OnceLock::new();
    T0.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

/// Median CPU ms per call of `a` and of `b`, sampled **interleaved** (a, b,
/// a, b, ...) so that load from other processes hits both alike. A sample
/// repeats a call until it lasts >= 2 ms; >= 31 samples each (11 with --quick).
fn interleaved_medians(quick: bool, mut a: impl FnMut(), mut b: impl FnMut()) -> (f64, f64) {
    let reps = |f: &mut dyn FnMut()| {
        let mut n = 1usize;
        loop {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            if t.elapsed().as_secs_f64() >= 0.002 || n >= 1 << 20 {
                return n;
            }
            n *= 2;
        }
    };
    let (ra, rb) = (reps(&mut a), reps(&mut b));
    let samples = if quick { 11 } else { 31 };
    let (mut sa, mut sb) = (Vec::new(), Vec::new());
    for _ in 0..samples {
        let t = cpu_ms();
        for _ in 0..ra {
            a();
        }
        sa.push((cpu_ms() - t) / ra as f64);
        let t = cpu_ms();
        for _ in 0..rb {
            b();
        }
        sb.push((cpu_ms() - t) / rb as f64);
    }
    sa.sort_by(|x, y| x.total_cmp(y));
    sb.sort_by(|x, y| x.total_cmp(y));
    (sa[sa.len() / 2], sb[sb.len() / 2])
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    if let Ok(p) = std::env::var("AUDIT_PROFILE") {
        let q = std::fs::read_to_string(p.replace(".json", ".query.txt")).unwrap();
        return profile_one(&p, &q, std::env::var("AUDIT_N").ok().and_then(|n| n.parse().ok()).unwrap_or(2000));
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut bodies: Vec<(String, String, String)> = Vec::new();
    let dir = root.join("tests/data/audit");
    let mut names: Vec<_> = std::fs::read_dir(&dir).expect("tests/data/audit").flatten().map(|e| e.path()).collect();
    names.sort();
    for p in names.iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
        let q = p.with_extension("query.txt");
        bodies.push((
            p.file_stem().unwrap().to_string_lossy().into(),
            std::fs::read_to_string(p).unwrap(),
            std::fs::read_to_string(q).unwrap(),
        ));
    }
    let sample = root.join("tests/data/samples/recall-08-fast-filters-acme-tinyfloat.json");
    bodies.push(("recall-08 (sample)".into(), std::fs::read_to_string(sample).unwrap(), "Acme revenue".into()));
    println!("| body | bytes | results | verify ms (CPU) | audit ms (CPU) | audit / verify |");
    println!("|---|---:|---:|---:|---:|---:|");
    let (mut tv, mut ta, mut worst) = (0.0, 0.0, 0.0f64);
    for (name, wire, query) in &bodies {
        let mut o = Object::new();
        o.insert("query", Value::str(query.as_str()));
        let given = Value::Object(o);
        let results =
            api::audit_recall(wire, &given).unwrap().get("results").and_then(Value::as_array).map_or(0, |r| r.len());
        let (v, a) = interleaved_medians(
            quick,
            || {
                black_box(api::verify_recall_receipt(black_box(wire), &given).unwrap());
            },
            || {
                black_box(api::audit_recall(black_box(wire), &given).unwrap());
            },
        );
        tv += v;
        ta += a;
        worst = worst.max(a / v);
        println!("| {name} | {} | {results} | {v:.3} | {a:.3} | {:.2} |", wire.len(), a / v);
    }
    println!("| **all {} bodies** | | | {tv:.3} | {ta:.3} | {:.2} (worst {worst:.2}) |", bodies.len(), ta / tv);
}

#[allow(dead_code)]
fn profile_one(path: &str, query: &str, n: usize) {
    let wire = std::fs::read_to_string(path).unwrap();
    let mut o = Object::new();
    o.insert("query", Value::str(query));
    let given = Value::Object(o);
    for _ in 0..n {
        black_box(api::audit_recall(&wire, &given).unwrap());
    }
}
