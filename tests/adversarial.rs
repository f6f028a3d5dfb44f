//! Worst-case inputs: time stays linear, memory bounded, and everything over
//! a documented cap (`src/api/limits.rs`) is a typed error.
//!
//! Each `linear(...)` case runs one operation on inputs of size `n / 100`,
//! `n / 10` and `n` (best of several runs each) and asserts
//!
//! * over the top decade, `t(n) ≤ 50 · t(n/10)`: linear code gives ~10×
//!   (up to ~40× when another process thrashes the shared caches), n·log n
//!   ~12×, a quadratic path at least 100×;
//! * over two decades, `t(n) ≤ 1000 · t(n/100)`: a quadratic path gives
//!   10,000×.
//!
//! The 300× one might expect for 100× the input is too tight on this kind of
//! machine: at `n / 100` the working set sits in cache, at `n` it does not.
//! Cases that hash or sort 10^5–10^6 keys or keep 10^5 report entries
//! ([`Scaling::MemoryBound`]: the parser's duplicate-key index, candidate
//! sorting, canonical key sorting, the receipt's id and neighbour indexes;
//! their instruction counts under callgrind scale exactly linearly) measure 25–55× over the top decade and up to
//! ~1,800× over two while scaling linearly beyond (1M → 4M object members:
//! 4.6×); they get 75× and 3,000×, still below what any quadratic path
//! gives (≥ 100× and ≥ 10,000×).
//!
//! Times are this thread's CPU time (so other processes on a busy machine do
//! not count), best of several runs; both bounds allow a few milliseconds of
//! noise, and a case over its bound is measured again (twice) before failing. Run it in
//! release mode for the full sizes:
//!
//! ```text
//! cargo test --release --test adversarial      # < 30 s
//! ```
//!
//! In a debug build the sizes shrink 64× so `cargo test` stays quick; the
//! ratio assertion is the same.

use std::hint::black_box;
use std::time::Duration;

use lians_score::api::limits::{self, MAX_STRING_BYTES, MAX_TEXT_BYTES};
use lians_score::json::{self, Object, Value};
use lians_score::{admission, api, receipt, text, ErrorCode};

/// Full sizes in release, 1/64 in debug.
fn size(n: usize) -> usize {
    if cfg!(debug_assertions) {
        n / 64
    } else {
        n
    }
}

/// The tests run one at a time (the harness runs tests in parallel, which
/// would make one test's timings depend on another's work).
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// CPU time of this thread (Linux: `CLOCK_THREAD_CPUTIME_ID`), so that a
/// busy machine (other builds, fuzzers) preempting the test does not count;
/// wall time elsewhere.
#[cfg(target_os = "linux")]
fn cpu_now() -> Duration {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(not(target_os = "linux"))]
fn cpu_now() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

/// The fastest of at least `runs` runs, continuing (up to 25 runs) while
/// less than 100 ms has been spent: fast cases get enough tries to dodge
/// cache and scheduler noise.
fn best_of(runs: usize, mut f: impl FnMut()) -> Duration {
    let start = cpu_now();
    let mut best = Duration::MAX;
    for i in 0..25 {
        if i >= runs && cpu_now() - start > Duration::from_millis(100) {
            break;
        }
        let t = cpu_now();
        f();
        best = best.min(cpu_now() - t);
    }
    best
}

/// Assert `run(build(n))` grows at most ~linearly (see the module docs).
/// A failed measurement is retried twice (the machine may be busy): a
/// quadratic path fails every attempt.
fn linear<T>(name: &str, n: usize, build: impl Fn(usize) -> T, run: impl Fn(&T)) {
    scaling(Scaling::Linear, name, n, build, run)
}

#[derive(Clone, Copy)]
enum Scaling {
    /// Top decade ≤ 50×, two decades ≤ 1,000×.
    Linear,
    /// Linear or n·log n but memory-bound at `n` (see the module docs):
    /// top decade ≤ 75×, two decades ≤ 3,000×.
    MemoryBound,
}

fn scaling<T>(kind: Scaling, name: &str, n: usize, build: impl Fn(usize) -> T, run: impl Fn(&T)) {
    let (top_bound, all_bound) = match kind {
        Scaling::Linear => (50, 1000),
        Scaling::MemoryBound => (75, 3000),
    };
    let inputs = [build(n / 100), build(n / 10), build(n)];
    run(&inputs[0]); // warm up
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64().max(1e-9);
    let mut t = [Duration::ZERO; 3];
    for attempt in 1..=3 {
        t = [best_of(7, || run(&inputs[0])), best_of(3, || run(&inputs[1])), best_of(2, || run(&inputs[2]))];
        eprintln!(
            "{name}: n={n} t(n/100)={:?} t(n/10)={:?} t(n)={:?} top-decade={:.1}x two-decades={:.0}x",
            t[0],
            t[1],
            t[2],
            ratio(t[2], t[1]),
            ratio(t[2], t[0])
        );
        let top_ok = t[2] <= t[1] * top_bound + Duration::from_millis(10);
        let all_ok = t[2] <= t[0] * all_bound + Duration::from_millis(30);
        if top_ok && all_ok {
            return;
        }
        eprintln!("{name}: attempt {attempt} over the bound");
    }
    panic!("{name}: not linear: {t:?} for n/100, n/10, n = {}, {}, {n}", n / 100, n / 10);
}

fn s(text: String) -> Value {
    Value::str(text)
}

fn score_input(content: String) -> Value {
    let mut o = Object::new();
    o.insert("content", s(content));
    o.insert("reference_time", Value::str("2026-08-01T00:00:00+00:00"));
    o.insert("query", Value::str("decided budget 2026 price"));
    Value::Object(o)
}

// ---------------------------------------------------------------- strings

/// Contents that stress each scan: one character, detector triggers that
/// never complete, unsegmented scripts, combining marks, digits.
fn patterns() -> Vec<(&'static str, &'static str)> {
    vec![
        ("one char", "a"),
        ("spaces", " "),
        ("at signs", "@"),
        ("local-part runs", "a-@"),
        ("dash runs before @", "-----@"),
        ("label without dot", "a@bcd"),
        ("domain dots", "a@b.-"),
        ("digits", "1"),
        ("digits with spaces", "1 "),
        ("digits with dashes", "1-"),
        ("almost ssn", "123-45-678 "),
        ("card-like", "4111 1111 1111 111 "),
        ("dollars", "$"),
        ("dollar space", "$ "),
        ("percent", "5%"),
        ("mrn labels", "mrn "),
        ("mrn digits", "mrn 123"),
        ("npi long", "npi 12345678901 "),
        ("injection prefix", "ignore previous instruction "),
        ("mnpi prefix", "material non-publi "),
        ("unsegmented", "贷"),
        ("katakana", "カー"),
        ("thai", "ทด"),
        ("combining marks", "\u{301}"),
        ("e + combining", "e\u{301}"),
        ("dotted I", "İ"),
        ("arabic digits", "٣"),
        ("astral", "𠀀"),
    ]
}

#[test]
fn tokenizer_and_detectors_are_linear() {
    let _serial = serial();
    // One character at the string cap (8 MiB), every pattern at 1 M chars.
    let build = |len: usize| "a".repeat(len);
    // Memory-bound at 8 M chars: 5 ns/char at n/10, 24 ns/char at n, flat
    // beyond (33 M: 24 ns/char); callgrind counts 9.98x the instructions for 10x.
    scaling(Scaling::MemoryBound, "detect_risk_tags / one char at the cap", size(MAX_STRING_BYTES), build, |c| {
        black_box(admission::detect_risk_tags(c));
    });
    linear("tokenize / one char at the cap", size(MAX_STRING_BYTES), build, |c| {
        black_box(text::tokenize(c));
    });
    let n = size(1 << 20); // characters
    for (name, unit) in patterns() {
        let build = |len: usize| unit.repeat((len / unit.chars().count()).max(1));
        linear(&format!("detect_risk_tags / {name}"), n, build, |c| {
            black_box(admission::detect_risk_tags(c));
        });
        if unit.chars().count() == 1 || name.contains("combining") {
            // The tokenizer sees at most the 8,192-char sample; what grows is
            // the sample's char count and the casefold of its head/tail.
            linear(&format!("tokenize / {name}"), n, build, |c| {
                black_box(text::tokenize(c));
            });
        }
    }
}

#[test]
fn score_memory_is_linear_in_content() {
    let _serial = serial();
    let n = size(MAX_STRING_BYTES / 4);
    for (name, unit) in
        [("one char", "a"), ("at signs", "@"), ("digits", "1"), ("unsegmented", "贷"), ("marks", "e\u{301}")]
    {
        let build = |len: usize| score_input(unit.repeat((len / unit.chars().count()).max(1)));
        linear(&format!("score_memory / {name}"), n, build, |input| {
            black_box(api::score_memory(input).unwrap());
        });
        let build = |len: usize| {
            let mut o = Object::new();
            o.insert("content", s(unit.repeat((len / unit.chars().count()).max(1))));
            o.insert("mode", Value::str("enforce"));
            Value::Object(o)
        };
        linear(&format!("evaluate_admission / {name}"), n, build, |input| {
            black_box(api::evaluate_admission(input).unwrap());
        });
    }
}

#[test]
fn content_over_the_cap_is_a_typed_error() {
    let _serial = serial();
    // 100 MB of one character, far over the 8 MiB string cap.
    let huge = "a".repeat(100_000_000);
    // This thread's CPU time (not wall time: a loaded machine must not trip it);
    // a guard against scanning or copying the whole text before refusing it,
    // not a benchmark.
    let t = cpu_now();
    let e = api::score_memory(&score_input(huge.clone())).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), (ErrorCode::TooLarge, "/content"));
    let e = api::detect_risk_tags(&Value::str(huge.as_str())).unwrap_err();
    assert_eq!(e.code, ErrorCode::TooLarge);
    let e = api::tokenize_for_scoring(&Value::str(huge.as_str())).unwrap_err();
    assert_eq!(e.code, ErrorCode::TooLarge);
    let mut o = Object::new();
    o.insert("content", Value::str(huge.as_str()));
    let e = api::evaluate_admission(&Value::Object(o)).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), (ErrorCode::TooLarge, "/content"));
    let spent = cpu_now() - t;
    assert!(spent < Duration::from_secs(2), "rejecting took {spent:?} of CPU");
    // Exactly at the cap is accepted.
    let at_cap = "a".repeat(MAX_STRING_BYTES);
    assert!(api::tokenize_for_scoring(&Value::str(at_cap.as_str())).is_ok());
    assert!(api::score_memory(&score_input(at_cap)).is_ok());
    // JSON text over the text cap.
    let text = format!("\"{}\"", "a".repeat(MAX_TEXT_BYTES));
    assert_eq!(limits::parse_input(&text).unwrap_err().code, ErrorCode::TooLarge);
    // Receipt wire over the text cap.
    let e = api::verify_recall_receipt(&text, &Value::Null).unwrap_err();
    assert_eq!(e.code, ErrorCode::TooLarge);
}

// ---------------------------------------------------------------- structure

#[test]
fn big_structures_are_linear() {
    let _serial = serial();
    // Query tokens: 10^6 distinct tokens.
    let n = size(1_000_000);
    linear(
        "score_memory / query_tokens",
        n,
        |len| {
            let mut input = score_input("decided budget 2026 t1 t2 t3".into());
            let tokens = (0..len).map(|i| Value::str(format!("t{i}"))).collect();
            if let Value::Object(o) = &mut input {
                o.insert("query_tokens", Value::Array(tokens));
            }
            input
        },
        |input| {
            black_box(api::score_memory(input).unwrap());
        },
    );

    // Metadata: 10^5 members (only the first 64 are walked), and risk tags.
    let n = size(100_000);
    linear(
        "score_memory / metadata members",
        n,
        |len| {
            let mut meta = Object::new();
            for i in 0..len {
                meta.push_unique(format!("k{:07}", len - i), Value::str(format!("v{i}")));
            }
            let mut input = score_input("decided".into());
            if let Value::Object(o) = &mut input {
                o.insert("metadata", Value::Object(meta));
                o.insert("risk_tags", Value::Array((0..len).map(|i| Value::str(format!("tag{i}"))).collect()));
            }
            input
        },
        |input| {
            black_box(api::score_memory(input).unwrap());
        },
    );

    // Candidates to sort.
    scaling(
        Scaling::MemoryBound,
        "sort_candidates",
        n,
        |len| {
            Value::Array(
                (0..len)
                    .map(|i| {
                        let mut c = Object::new();
                        c.insert("id", Value::str(format!("m{}", (i * 7919) % len)));
                        c.insert("event_time", Value::str("2026-01-01T00:00:00+00:00"));
                        c.insert("created_at", Value::str("2026-01-01T00:00:00+00:00"));
                        c.insert("final_score", Value::Float(((i * 31) % 100) as f64 / 100.0));
                        Value::Object(c)
                    })
                    .collect(),
            )
        },
        |input| {
            black_box(api::sort_candidates(input).unwrap());
        },
    );

    // Blocked sources.
    linear(
        "evaluate_admission / blocked_sources",
        n,
        |len| {
            let mut o = Object::new();
            o.insert("content", Value::str("hello there general kenobi"));
            o.insert("source", Value::str("zzz"));
            o.insert("mode", Value::str("enforce"));
            o.insert("blocked_sources", Value::str((0..len).map(|i| format!("s{i}")).collect::<Vec<_>>().join(",")));
            Value::Object(o)
        },
        |input| {
            black_box(api::evaluate_admission(input).unwrap());
        },
    );
}

#[test]
fn json_text_is_linear() {
    let _serial = serial();
    let n = size(1_000_000);
    scaling(
        Scaling::MemoryBound,
        "parse / object members",
        n,
        |len| {
            let members: Vec<String> = (0..len).map(|i| format!("\"k{i}\":{i}")).collect();
            format!("{{{}}}", members.join(","))
        },
        |t| {
            black_box(json::parse(t).unwrap());
        },
    );
    linear(
        "parse / duplicate keys",
        n,
        |len| format!("{{{}\"z\":0}}", "\"k\":1,".repeat(len)),
        |t| {
            black_box(json::parse(t).unwrap());
        },
    );
    linear(
        "parse+canonical / array",
        n,
        |len| format!("[{}0]", "1.5e-7,".repeat(len)),
        |t| {
            black_box(json::canonical(&json::parse(t).unwrap()));
        },
    );
    linear(
        "parse / string escapes",
        n,
        |len| format!("\"{}\"", "\\ud800\\u00e9".repeat(len)),
        |t| {
            black_box(json::parse(t).unwrap());
        },
    );
    // 512-deep nesting, many times over.
    linear(
        "parse / 512-deep nests",
        size(20_000),
        |len| {
            let one = "[".repeat(512) + &"]".repeat(512);
            format!("[{}]", vec![&one[1..one.len() - 1]; len / 10].join(","))
        },
        |t| {
            black_box(json::parse(t).unwrap());
        },
    );
}

// ---------------------------------------------------------------- receipts

fn recall_wire(results: &[String]) -> String {
    format!("{{\"schema\":\"lians.recall-receipt.v2\",\"query_sha256\":\"00\",\"results\":[{}]}}", results.join(","))
}

#[test]
fn receipt_verification_is_linear() {
    let _serial = serial();
    let n = size(100_000);
    scaling(
        Scaling::MemoryBound,
        "recall / results and contents",
        n,
        |len| {
            let results: Vec<String> = (0..len)
                .map(|i| {
                    format!("{{\"id\":\"m{i}\",\"content_hash\":\"ab\",\"score\":{}}}", 1.0 - i as f64 / len as f64)
                })
                .collect();
            let mut contents = Object::new();
            for i in 0..len {
                contents.push_unique(format!("m{i}"), Value::str("x"));
            }
            let mut given = Object::new();
            given.insert("contents", Value::Object(contents));
            (recall_wire(&results), Value::Object(given))
        },
        |(wire, given)| {
            black_box(receipt::verify_recall_receipt(wire, given));
        },
    );

    // Body binding: a response body with a huge score_breakdown (deep-equal
    // to the receipt's) and many unbound keys (listed once each).
    let k = size(40_000);
    scaling(
        Scaling::MemoryBound,
        "recall body / breakdown keys and unbound fields",
        k,
        |len| {
            let bd: Vec<String> = (0..len).map(|i| format!("\"k{i}\":{i}")).collect();
            let bd = format!("{{{}}}", bd.join(","));
            let extra: Vec<String> = (0..len).map(|i| format!("\"u{i}\":1")).collect();
            format!(
                "{{{},\"memories\":[{{\"id\":\"a\",\"score_breakdown\":{bd}}}],\"receipt\":{{\"schema\":\"lians.recall-receipt.v2\",\"results\":[{{\"id\":\"a\",\"score_breakdown\":{bd}}}]}}}}",
                extra.join(",")
            )
        },
        |wire| {
            black_box(receipt::verify_recall_receipt(wire, &Value::Null));
        },
    );

    // One result with many neighbour positions, all of them asked about.
    let m = size(16_000);
    scaling(
        Scaling::MemoryBound,
        "recall / neighbour positions",
        m,
        |len| {
            let neighbours: Vec<String> =
                (0..len).map(|i| format!("\"p{i}\":{{\"returned_content_sha256\":null}}")).collect();
            let results = vec![format!("{{\"id\":\"m\",\"context_neighbors\":{{{}}}}}", neighbours.join(","))];
            let mut positions = Object::new();
            for i in 0..len {
                positions.push_unique(format!("p{}", len - 1 - i), Value::Null);
            }
            let mut by_id = Object::new();
            by_id.insert("m", Value::Object(positions));
            let mut given = Object::new();
            given.insert("neighbor_contents", Value::Object(by_id));
            (recall_wire(&results), Value::Object(given))
        },
        |(wire, given)| {
            black_box(receipt::verify_recall_receipt(wire, given));
        },
    );

    // A long key over many members, then a NaN at the end: the pointer to
    // the first non-finite number must not be rebuilt per member.
    let n = size(1_000_000);
    linear(
        "recall / non-finite search under a long key",
        n,
        |len| {
            let key = "k".repeat(len);
            format!(
                "{{\"schema\":\"lians.recall-receipt.v2\",\"filters\":{{\"{key}\":[{}NaN]}},\"results\":[]}}",
                "0,".repeat(len)
            )
        },
        |wire| {
            black_box(receipt::verify_recall_receipt(wire, &Value::Null));
        },
    );

    // Canonical hashing of a large, wide document.
    scaling(
        Scaling::MemoryBound,
        "canonical / wide document",
        n,
        |len| {
            let members: Vec<String> = (0..len).map(|i| format!("\"{}\":[{i},\"é\"]", len - i)).collect();
            format!("{{{}}}", members.join(","))
        },
        |wire| {
            black_box(receipt::verify_canonical(wire, &Value::Null));
        },
    );
}

// ---------------------------------------------------------------- recall audit

/// A captured adaptive recall body (five fused results) with its results
/// repeated `copies` times (memories and receipt alike).
fn audit_body(copies: usize) -> (Value, String) {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/audit");
    let wire = std::fs::read_to_string(dir.join("recall-fast-adaptive.json")).unwrap();
    let query = std::fs::read_to_string(dir.join("recall-fast-adaptive.query.txt")).unwrap();
    let mut body = json::parse(&wire).unwrap();
    let Value::Object(o) = &mut body else { panic!() };
    let mut members = std::mem::take(o).into_members();
    for (k, v) in members.iter_mut() {
        match (k.as_str(), v) {
            (Some("memories"), Value::Array(items)) => *items = repeat(items, copies),
            (Some("receipt"), Value::Object(r)) => {
                let mut rm = std::mem::take(r).into_members();
                for (rk, rv) in rm.iter_mut() {
                    if let (Some("results"), Value::Array(items)) = (rk.as_str(), rv) {
                        *items = repeat(items, copies);
                    }
                }
                *r = Object::from_unique(rm);
            }
            _ => {}
        }
    }
    *o = Object::from_unique(members);
    (body, query)
}

fn repeat(items: &[Value], copies: usize) -> Vec<Value> {
    (0..copies).flat_map(|_| items.iter().cloned()).collect()
}

/// Set the top-level `key` of the body.
fn set_top(body: &mut Value, key: &str, v: Value) {
    if let Value::Object(o) = body {
        o.insert(key, v);
    }
}

#[test]
fn recall_audit_is_linear() {
    let _serial = serial();
    // Former hot spot 1: results × query variants (the audit re-scored a
    // fused result once per response variant until one fitted: quadratic
    // when both grow). One fused result repeated `10·len/n` times (10 at the
    // top, 1 below) with `len` variants, a relevance no variant reproduces.
    // Variants are now compared with the audit's own plan, never scored.
    let n = size(10_000).max(100);
    linear(
        "audit / results × query variants",
        n,
        |len| {
            let (mut body, query) = audit_body(1);
            let copies = (10 * len / n).max(1);
            if let Value::Object(o) = &mut body {
                let mut members = std::mem::take(o).into_members();
                for (k, v) in members.iter_mut() {
                    match (k.as_str(), v) {
                        (Some("memories"), Value::Array(items)) => *items = repeat(&items[..1], copies),
                        (Some("receipt"), Value::Object(r)) => {
                            let mut rm = std::mem::take(r).into_members();
                            for (rk, rv) in rm.iter_mut() {
                                if let (Some("results"), Value::Array(items)) = (rk.as_str(), rv) {
                                    *items = repeat(&items[..1], copies);
                                }
                            }
                            *r = Object::from_unique(rm);
                        }
                        _ => {}
                    }
                }
                *o = Object::from_unique(members);
            }
            let lying = json::to_json_string(&body).replace("\"relevance_score\":0.", "\"relevance_score\":0.9");
            let mut body = json::parse(&lying).unwrap();
            let variants: Vec<Value> =
                (0..len).map(|i| Value::str(format!("acme first sign churn risk low {i}"))).collect();
            set_top(&mut body, "query_variants", Value::Array(variants));
            (json::to_json_string(&body), query)
        },
        |(wire, query)| {
            black_box(lians_score::audit::audit_recall(wire, Some(query)).unwrap());
        },
    );

    // Former hot spot 2: n extra keys in one breakdown, in the memory and
    // the receipt in opposite orders (deep equality by linear key lookup).
    let k = size(40_000).max(100);
    linear(
        "audit / extra keys in a breakdown",
        k,
        |len| {
            let (body, query) = audit_body(1);
            let mut wire = json::to_json_string(&body);
            let extra: String = (0..len).map(|i| format!("\"x{i}\":{i},")).collect();
            let reversed: String = (0..len).rev().map(|i| format!("\"x{i}\":{i},")).collect();
            // The first breakdown of the memories, then the first of the receipt.
            let at = wire.find("\"score_breakdown\":{").unwrap() + "\"score_breakdown\":{".len();
            wire.insert_str(at, &extra);
            let r = wire.find("\"results\":[").unwrap();
            let at = r + wire[r..].find("\"score_breakdown\":{").unwrap() + "\"score_breakdown\":{".len();
            wire.insert_str(at, &reversed);
            (wire, query)
        },
        |(wire, query)| {
            let report = lians_score::audit::audit_recall(wire, Some(query)).unwrap();
            assert!(
                report.failures().is_empty()
                    || !report.failures().contains(&lians_score::audit::AuditCode::PairingMismatch)
            );
            black_box(report);
        },
    );
}
