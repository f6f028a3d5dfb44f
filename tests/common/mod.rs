//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use lians_score::json::{self, Object, PyStr, Value};

/// The vendored test data (`tests/data/`: `conformance/`, `samples/`), or `LIANS_SHARED`, if it holds `probe`.
/// Missing: panics unless `LIANS_ALLOW_NO_SHARED=1` (then None: skip).
pub fn shared_dir(probe: &str) -> Option<PathBuf> {
    // An empty LIANS_SHARED is unset (as `${LIANS_SHARED:-…}` in scripts/test-all.sh).
    let dir = match std::env::var_os("LIANS_SHARED").filter(|d| !d.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data"),
    };
    if dir.join(probe).exists() {
        return Some(dir);
    }
    if std::env::var("LIANS_ALLOW_NO_SHARED").as_deref() == Ok("1") {
        eprintln!("skipping: {} has no {probe} (LIANS_ALLOW_NO_SHARED=1)", dir.display());
        return None;
    }
    panic!("{} has no {probe}: set LIANS_SHARED, or LIANS_ALLOW_NO_SHARED=1 to skip", dir.display());
}

pub fn read_sample(name: &str) -> Option<String> {
    let dir = shared_dir("samples")?;
    Some(std::fs::read_to_string(dir.join("samples").join(name)).expect("read sample"))
}

pub const RECALL_SAMPLE: &str = "recall-08-fast-filters-acme-tinyfloat.json";
pub const CONTEXT_SAMPLE: &str = "context-01-deep-acme-summary.json";
pub const PACK_SAMPLE: &str = "pack-01-v2-signed.json";
pub const PACK_KEY_ID: &str = "lians-real-test-key";

/// A `given` built from a response body's own plaintext: memory contents,
/// neighbour contents and metadata (as JSON text), and the context text.
pub fn given_from_body(body: &Value) -> Value {
    let mut contents = Object::new();
    let mut n_contents = Object::new();
    let mut n_meta = Object::new();
    for m in body.get("memories").and_then(Value::as_array).unwrap_or(&[]) {
        let Some(id) = m.get("id").and_then(Value::as_str) else { continue };
        if let Some(c @ Value::Str(_)) = m.get("content") {
            contents.insert(id, c.clone());
        }
        let mut pc = Object::new();
        let mut pm = Object::new();
        for pos in ["before", "after", "before_2", "after_2"] {
            if m.get(&format!("context_{pos}_id")).map(|v| !v.is_null()).unwrap_or(false) {
                pc.insert(pos, m.get(&format!("context_{pos}")).cloned().unwrap_or(Value::Null));
                let meta = m.get(&format!("context_{pos}_metadata")).cloned().unwrap_or(Value::Null);
                pm.insert(pos, Value::str(json::to_json_string(&meta)));
            }
        }
        if !pc.is_empty() {
            n_contents.insert(id, Value::Object(pc));
            n_meta.insert(id, Value::Object(pm));
        }
    }
    let mut g = Object::new();
    g.insert("contents", Value::Object(contents));
    g.insert("neighbor_contents", Value::Object(n_contents));
    g.insert("neighbor_metadata", Value::Object(n_meta));
    if let Some(t @ Value::Str(_)) = body.get("context_text") {
        g.insert("context_text", t.clone());
    }
    Value::Object(g)
}

/// Add or replace a member of an object value.
pub fn with(mut given: Value, key: &str, value: Value) -> Value {
    if let Value::Object(o) = &mut given {
        o.insert(key, value);
    }
    given
}

/// Pointers (as token lists) to every scalar under `v`.
pub fn scalar_paths(v: &Value, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                prefix.push(i.to_string());
                scalar_paths(item, prefix, out);
                prefix.pop();
            }
        }
        Value::Object(o) => {
            for (k, item) in o.iter() {
                prefix.push(k.to_string());
                scalar_paths(item, prefix, out);
                prefix.pop();
            }
        }
        _ => out.push(prefix.clone()),
    }
}

/// Rebuild `v` with `f` applied to the value at `path`.
pub fn edit(v: Value, path: &[String], f: &dyn Fn(Value) -> Value) -> Value {
    let Some((head, rest)) = path.split_first() else { return f(v) };
    match v {
        Value::Array(mut items) => {
            let i: usize = head.parse().expect("array index");
            let item = std::mem::replace(&mut items[i], Value::Null);
            items[i] = edit(item, rest, f);
            Value::Array(items)
        }
        Value::Object(o) => {
            let members = o
                .into_members()
                .into_iter()
                .map(|(k, item)| {
                    if k.to_string() == *head {
                        let e = edit(item, rest, f);
                        (k, e)
                    } else {
                        (k, item)
                    }
                })
                .collect();
            Value::Object(Object::from_unique(members))
        }
        other => other,
    }
}

/// A different value of the same kind (or a related kind) that any hash must notice.
pub fn mutate_scalar(v: Value) -> Value {
    match v {
        Value::Null => Value::int(0),
        Value::Bool(b) => Value::Bool(!b),
        Value::Int(d) if &*d == "0" => Value::int(1),
        Value::Int(d) => Value::Int(format!("{d}1").into()),
        // (Finite: a server never sends an infinity, and the verifier rejects one anywhere.)
        Value::Float(f) => Value::Float(if f == 0.0 {
            1.0
        } else if (f * 1.5).is_finite() {
            f * 1.5
        } else {
            f / 1.5
        }),
        Value::Str(s) => {
            let mut b = s.as_bytes().to_vec();
            b.push(b'x');
            Value::Str(PyStr::from_wtf8(b))
        }
        other => other,
    }
}

/// Re-serialise with reversed key order, odd whitespace, `\uXXXX` (upper
/// hex) for every non-ASCII char, `\/`, and floats spelled `{:e}` (`1e-7`,
/// `9.45155e-1`): value-preserving, so hashes must not change.
pub fn respell(v: &Value) -> String {
    let mut out = String::new();
    respell_into(v, &mut out, 0);
    out
}

fn respell_str(s: &PyStr, out: &mut String) {
    out.push('"');
    for cp in s.code_points() {
        match cp {
            0x22 => out.push_str("\\\""),
            0x5C => out.push_str("\\\\"),
            0x2F => out.push_str("\\/"),
            0x20..=0x7E => out.push(cp as u8 as char),
            c @ 0x10000.. => {
                let v = c - 0x10000;
                out.push_str(&format!("\\u{:04X}\\u{:04X}", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF)));
            }
            c => out.push_str(&format!("\\u{:04X}", c)),
        }
    }
    out.push('"');
}

fn respell_into(v: &Value, out: &mut String, depth: usize) {
    let ws = ["", " ", "\n  ", "\t", "\r\n"][depth % 5];
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(d) => out.push_str(d),
        Value::Float(f) if f.is_nan() => out.push_str("NaN"),
        Value::Float(f) if f.is_infinite() => out.push_str(if *f > 0.0 { "Infinity" } else { "-Infinity" }),
        Value::Float(f) => out.push_str(&format!("{:e}", f)),
        Value::Str(s) => respell_str(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(ws);
                respell_into(item, out, depth + 1);
            }
            out.push_str(ws);
            out.push(']');
        }
        Value::Object(o) => {
            out.push('{');
            for (i, (k, item)) in o.members().iter().rev().enumerate() {
                if i > 0 {
                    out.push_str(" ,");
                }
                out.push_str(ws);
                respell_str(k, out);
                out.push_str(ws);
                out.push(':');
                respell_into(item, out, depth + 1);
            }
            out.push_str(ws);
            out.push('}');
        }
    }
}

/// The native conformance run: the CLI's `verb` (`replay` or `verify-replay`, through `cli::run`, the
/// function the binary calls) over `files`, its stdout written to `test-output/<out>` (`<out>.debug` in a
/// debug build), then judged by the reference's own checker `checker` (vendored, never restated here) on
/// `corpus`. The file is what `scripts/test-all.sh` byte-compares the wasm replay with. Returns the number
/// of lines replayed. Needs `python3` (or `$PYTHON`).
pub fn replay_and_check(
    verb: &str,
    files: &[PathBuf],
    checker: &std::path::Path,
    corpus: &std::path::Path,
    out: &str,
) -> usize {
    let mut argv = vec![verb.to_string()];
    argv.extend(files.iter().map(|f| f.display().to_string()));
    let mut read = |p: &str| std::fs::read(p).map_err(|e| format!("{p}: {e}"));
    let run = lians_score::cli::run(&argv, &mut read);
    assert_eq!(run.status, 0, "{verb} failed: {}", run.stderr);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test-output");
    std::fs::create_dir_all(&dir).expect("create test-output");
    let path = dir.join(if cfg!(debug_assertions) { format!("{out}.debug") } else { out.to_string() });
    std::fs::write(&path, &run.stdout).expect("write the replay output");
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let judged = std::process::Command::new(&python).arg(checker).arg(corpus).arg(&path).output().unwrap_or_else(|e| {
        panic!("cannot run {python} {} ({e}): the conformance checkers need Python 3", checker.display())
    });
    assert!(
        judged.status.success(),
        "{} rejects {}:\n{}{}",
        checker.display(),
        path.display(),
        String::from_utf8_lossy(&judged.stdout),
        String::from_utf8_lossy(&judged.stderr)
    );
    run.stdout.lines().count()
}
