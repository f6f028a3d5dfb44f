//! Input limits: every cap the library enforces, in one place.
//!
//! The reference scorer and verifier have no caps of their own beyond the
//! scoring rules (8,192-code-point sample, 1,024 tokens, metadata budgets).
//! These caps exist so that a hostile or broken input gets a typed error
//! instead of exhausting memory (wasm32 has 4 GiB at most) or time. They are
//! set far above anything realistic: every conformance case passes (receipt
//! cases hold 20 MiB strings; admission content is at most 100,000 code
//! points in the reference API, i.e. ≤ 400 kB of UTF-8), and below each cap
//! the work is linear in the input size (see `tests/adversarial.rs`).
//!
//! | limit | value | applies to | on excess |
//! |---|---|---|---|
//! | [`MAX_TEXT_BYTES`] | 32 MiB | JSON text: an API input given as text ([`parse_input`]), a receipt / response body / Evidence Pack wire, `given.recall_wire` | `too_large` at `""` |
//! | [`MAX_STRING_BYTES`] | 8 MiB (UTF-8) | each string in an API input: `content`, `query`, `source`, metadata values, tags... | `too_large` at the string |
//! | [`MAX_ARRAY_ITEMS`] | 1,048,576 | each array in an API input: `risk_tags`, `query_tokens`, `blocked_sources`, candidates (the number of results to sort) | `too_large` at the array |
//! | [`MAX_INPUT_VALUES`] | 4,194,304 | JSON values (scalars and containers) in one API input or `given` | `too_large` at `""` |
//! | [`MAX_INPUT_BYTES`] | 32 MiB | key + string bytes in one API input or `given` | `too_large` at `""` |
//! | [`MAX_JS_VALUES`] | 1,048,576 | values in one plain-JS-data argument of the wasm API (each crosses the JS↔wasm boundary, ~3 µs; shared references count each time); larger inputs go as JSON text | `too_large` where the budget ran out |
//! | [`MAX_DEPTH`] | 512 | array/object nesting, in the parser and in values built by Rust or JS callers | `nesting_too_deep` |
//! | [`MAX_METADATA_VALUES`] | 262,144 | values in a `metadata` member | `too_large` at `/metadata` |
//! | [`MAX_METADATA_BYTES`] | 8 MiB | key + string bytes in a `metadata` member | `too_large` at `/metadata` |
//! | [`MAX_GIVEN_ENTRIES`] | 16,384 | receipt `given`: `contents` entries + `neighbor_contents` / `neighbor_metadata` (id, position) pairs | `too_large` at the member |
//! | [`MAX_GIVEN_KEY_BYTES`] | 1,024 | receipt `given`: each memory id and neighbour position | `too_large` at the key |
//! | [`EDGE_MAX_BODY_BYTES`] | 4 MiB | default body cap of the JS edge entries (workerd, edge-light; full and verify-only) | `too_large` at `""`, in JS |
//! | [`RESET_MEMORY_BYTES`] | 32 MiB | wasm memory after a call past which the JS entries start a fresh instance | a fresh instance |
//! | [`NODE_RESET_MEMORY_BYTES`] | 128 MiB | the same, in the Node entries | a fresh instance |
//! | [`BROWSER_RESET_MEMORY_BYTES`] | 128 MiB | the same, in the browser entries (web, inline, Deno, verify) | a fresh instance |
//!
//! Strings in a receipt `given` (plaintext contents, `context_text`,
//! metadata text) may each be up to [`MAX_TEXT_BYTES`]. A receipt's own
//! results have no separate cap: the text cap bounds them, and verification
//! is linear in the wire size.
//!
//! Sizes count bytes, not code points, so each check is O(1) per string;
//! lone surrogates count their 3 WTF-8 bytes.

use crate::json::{self, Value};
use crate::{Error, ErrorCode, Result};

const MIB: usize = 1 << 20;

/// Largest JSON text accepted (bytes of UTF-8).
pub const MAX_TEXT_BYTES: usize = 32 * MIB;
/// Largest single string in an API input (bytes of UTF-8).
pub const MAX_STRING_BYTES: usize = 8 * MIB;
/// Most items in one array of an API input.
pub const MAX_ARRAY_ITEMS: usize = 1 << 20;
/// Most JSON values in one API input (or one receipt `given`).
pub const MAX_INPUT_VALUES: usize = 1 << 22;
/// Most key + string bytes in one API input (or one receipt `given`).
pub const MAX_INPUT_BYTES: usize = 32 * MIB;
/// Most values in one plain-JS-data argument of the wasm API. Converting JS
/// data costs a few boundary crossings per value (~3 µs), so this cap keeps
/// a hostile argument (e.g. 64 arrays of 64 arrays ... of one shared value)
/// to about 3 s; JSON text has no such cost and gets [`MAX_INPUT_VALUES`].
pub const MAX_JS_VALUES: usize = 1 << 20;
/// Deepest nesting (`[]` has depth 1), as [`crate::json::MAX_DEPTH`].
pub const MAX_DEPTH: usize = json::MAX_DEPTH;
/// Most values in a `metadata` member.
pub const MAX_METADATA_VALUES: usize = 1 << 18;
/// Most key + string bytes in a `metadata` member.
pub const MAX_METADATA_BYTES: usize = 8 * MIB;
/// Most `(id, content)` / `(id, position)` entries in a receipt `given`.
pub const MAX_GIVEN_ENTRIES: usize = 16_384;
/// Longest memory id or neighbour position in a receipt `given`.
pub const MAX_GIVEN_KEY_BYTES: usize = 1024;

// The two limits below are enforced by the JS entries, not here; they are
// declared here so that every cap has one home. scripts/gen-entries.mjs
// copies them (with MAX_TEXT_BYTES, js/limits.mjs's MAX_BODY_BYTES) into
// js/limits.mjs; `--check` fails when that copy is stale. Write each value as
// `N * MIB` or a plain integer (what the generator reads).

/// Default body cap (bytes) of the workerd and edge-light entries (full and
/// verify-only): a body over it is `too_large` before it is copied into the
/// wasm. It keeps the worst case measured (about 9 bytes of wasm memory per
/// body byte, a hostile many-member object) under 64 MB (docs/edge-memory.md);
/// `maxBodyBytes` changes it per call or per entry.
pub const EDGE_MAX_BODY_BYTES: usize = 4 * MIB;
/// Wasm memory (bytes) past which a JS entry drops its instance after a call
/// and instantiates a fresh one from the same compiled module (wasm memory
/// never shrinks; docs/edge-memory.md). `resetMemoryBytes` changes it.
pub const RESET_MEMORY_BYTES: usize = 32 * MIB;
/// [`RESET_MEMORY_BYTES`] of the Node entries, whose body cap is the whole
/// [`MAX_TEXT_BYTES`]: 4 bytes of wasm memory per body byte at that cap (issue
/// #32's bound), so only a body beyond the bound (hostile, structure-heavy)
/// leaves a fresh instance. Ordinary large calls stay below it: the
/// 1,600-candidate batch as a string peaked at 39 MiB (13 MiB since its
/// string reaches the wasm as UTF-8 bytes), and a reset after each such call
/// made it about 60 % slower (BENCHMARKS.md, round 7: tidy).
pub const NODE_RESET_MEMORY_BYTES: usize = 128 * MIB;
/// [`RESET_MEMORY_BYTES`] of the browser entries (web, inline, Deno and the
/// verify-only `lians-score/verify`; the workerd and edge-light entries keep
/// [`RESET_MEMORY_BYTES`] with their [`EDGE_MAX_BODY_BYTES`] cap): their body cap
/// is the whole [`MAX_TEXT_BYTES`] too, so the Node value. A batch near that cap
/// given as a string leaves 37 MiB, and a reset after each such call cost
/// about a quarter more CPU per call (BENCHMARKS.md, round 8: str).
pub const BROWSER_RESET_MEMORY_BYTES: usize = 128 * MIB;

fn too_large(path: &str, message: String) -> Error {
    Error::new(ErrorCode::TooLarge, path, message)
}

/// Check the length of a text (JSON text, wire) against [`MAX_TEXT_BYTES`].
pub fn check_text(text: &str, what: &str) -> Result<()> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(too_large(
            "",
            format!("{what} is {} bytes; the limit is {MAX_TEXT_BYTES} bytes (32 MiB)", text.len()),
        ));
    }
    Ok(())
}

/// The receipt verifiers' input caps: the wire text ([`check_text`], `what`
/// names it in the message) and the `given` / `options` object
/// ([`check_given`], errors under `/given`). The typed API
/// (`lians_score::verify_*`) applies this once per call; the JSON façade
/// and the bindings call the typed API.
pub fn check_receipt_input(wire: &str, given: &Value, what: &str) -> Result<()> {
    check_text(wire, what)?;
    check_given(given).map_err(|e| e.under("/given"))
}

/// Parse an API input given as JSON text: [`check_text`], then
/// [`crate::json::parse`]. Bindings that accept JSON text use this.
pub fn parse_input(text: &str) -> Result<Value> {
    check_text(text, "the JSON text")?;
    json::parse(text)
}

/// Caps for one walk of a value.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// Values (nodes) a walk may visit.
    pub values: usize,
    /// Bytes of keys and strings in total.
    pub bytes: usize,
    /// Bytes of one string.
    pub string_bytes: usize,
    /// Items of one array.
    pub array_items: usize,
}

impl Caps {
    /// The caps for a whole API input.
    pub const INPUT: Caps = Caps {
        values: MAX_INPUT_VALUES,
        bytes: MAX_INPUT_BYTES,
        string_bytes: MAX_STRING_BYTES,
        array_items: MAX_ARRAY_ITEMS,
    };
    /// The caps for a `metadata` member.
    pub const METADATA: Caps = Caps {
        values: MAX_METADATA_VALUES,
        bytes: MAX_METADATA_BYTES,
        string_bytes: MAX_STRING_BYTES,
        array_items: MAX_ARRAY_ITEMS,
    };
    /// The caps for a receipt `given` (its strings may be whole texts).
    pub const GIVEN: Caps = Caps {
        values: MAX_INPUT_VALUES,
        bytes: MAX_INPUT_BYTES,
        string_bytes: MAX_TEXT_BYTES,
        array_items: MAX_ARRAY_ITEMS,
    };
}

/// Walk `value` iteratively (no recursion, however deep) and check it
/// against `caps` and [`MAX_DEPTH`]. `base` is the JSON pointer of `value`
/// in the caller's input, `what` names it in messages. Stops at the first
/// excess; the offending pointer is built only then, so the walk is linear.
pub fn check_value(value: &Value, base: &str, what: &str, caps: &Caps) -> Result<()> {
    let mut values = 0usize;
    let mut bytes = 0usize;
    // Frames: (container, index of the next child). Depth = frames.len().
    let mut frames: Vec<(&Value, usize)> = Vec::new();
    let mut next: Option<&Value> = Some(value);
    loop {
        if let Some(v) = next.take() {
            values += 1;
            if values > caps.values {
                return Err(too_large(base, format!("{what} holds more than {} JSON values", caps.values)));
            }
            match v {
                Value::Str(s) => {
                    let n = s.as_bytes().len();
                    if n > caps.string_bytes {
                        return Err(too_large(
                            &pointer_of(base, &frames),
                            format!("a string of {n} bytes; the limit is {} bytes", caps.string_bytes),
                        ));
                    }
                    bytes += n;
                }
                Value::Array(items) => {
                    if items.len() > caps.array_items {
                        return Err(too_large(
                            &pointer_of(base, &frames),
                            format!("an array of {} items; the limit is {}", items.len(), caps.array_items),
                        ));
                    }
                    frames.push((v, 0));
                }
                Value::Object(_) => frames.push((v, 0)),
                _ => {}
            }
            if frames.len() > MAX_DEPTH {
                return Err(Error::new(
                    ErrorCode::NestingTooDeep,
                    pointer_of(base, &frames[..frames.len() - 1]),
                    format!("{what} nests arrays/objects deeper than {MAX_DEPTH} levels"),
                ));
            }
            if bytes > caps.bytes {
                return Err(too_large(base, format!("{what} holds more than {} bytes of text", caps.bytes)));
            }
        }
        let Some((container, index)) = frames.last_mut() else { break };
        match container {
            Value::Array(items) if *index < items.len() => {
                next = Some(&items[*index]);
                *index += 1;
            }
            Value::Object(o) if *index < o.len() => {
                let (key, item) = &o.members()[*index];
                bytes += key.as_bytes().len();
                next = Some(item);
                *index += 1;
            }
            _ => {
                frames.pop();
            }
        }
    }
    Ok(())
}

/// The JSON pointer of the child most recently entered in each frame.
fn pointer_of(base: &str, frames: &[(&Value, usize)]) -> String {
    let mut p = base.to_string();
    for (container, index) in frames {
        let Some(i) = index.checked_sub(1) else { continue };
        match container {
            Value::Array(_) => json::pointer::push_index(&mut p, i),
            Value::Object(o) => json::pointer::push(&mut p, &o.members()[i].0.to_str_lossy()),
            _ => continue,
        }
    }
    p
}

/// A JSON text of at most this many bytes cannot break any cap of
/// [`check_api_input`]: every value takes at least one byte of text, a
/// decoded string (or key) is never longer than its text, and the parser
/// already refuses nesting deeper than [`MAX_DEPTH`]. (The smallest of the
/// caps; the batch skips the walk for such JSON Lines records.)
pub const WITHIN_CAPS_TEXT_BYTES: usize = {
    let caps = [MAX_METADATA_VALUES, MAX_INPUT_VALUES, MAX_ARRAY_ITEMS, MAX_STRING_BYTES, MAX_METADATA_BYTES];
    let (mut min, mut i) = (MAX_INPUT_BYTES, 0);
    while i < caps.len() {
        if caps[i] < min {
            min = caps[i];
        }
        i += 1;
    }
    min
};

/// The caps of an API input: the whole value against [`Caps::INPUT`], and a
/// top-level `metadata` object against [`Caps::METADATA`].
pub fn check_api_input(input: &Value) -> Result<()> {
    check_value(input, "", "the input", &Caps::INPUT)?;
    if let Some(metadata @ Value::Object(_)) = input.get("metadata") {
        check_value(metadata, "/metadata", "metadata", &Caps::METADATA)?;
    }
    Ok(())
}

/// The caps of a receipt `given` / pack `options` object: the value against
/// [`Caps::GIVEN`], `recall_wire` text against [`MAX_TEXT_BYTES`], and the
/// entry and key caps of `contents`, `neighbor_contents`, `neighbor_metadata`.
pub fn check_given(given: &Value) -> Result<()> {
    check_value(given, "", "given", &Caps::GIVEN)?;
    let mut entries = 0usize;
    let key = |path: String, k: &[u8]| -> Result<()> {
        if k.len() > MAX_GIVEN_KEY_BYTES {
            return Err(too_large(
                &path,
                format!("a memory id or position of {} bytes; the limit is {MAX_GIVEN_KEY_BYTES}", k.len()),
            ));
        }
        Ok(())
    };
    let mut count = |path: &str, n: usize| -> Result<()> {
        entries += n;
        if entries > MAX_GIVEN_ENTRIES {
            return Err(too_large(
                path,
                format!("given holds more than {MAX_GIVEN_ENTRIES} content/neighbour entries"),
            ));
        }
        Ok(())
    };
    if let Some(Value::Object(contents)) = given.get("contents") {
        count("/contents", contents.len())?;
        for (id, _) in contents.iter() {
            key("/contents".to_string(), id.as_bytes())?;
        }
    }
    for member in ["neighbor_contents", "neighbor_metadata"] {
        if let Some(Value::Object(by_id)) = given.get(member) {
            for (id, positions) in by_id.iter() {
                key(format!("/{member}"), id.as_bytes())?;
                if let Value::Object(positions) = positions {
                    count(&format!("/{member}"), positions.len().max(1))?;
                    for (pos, _) in positions.iter() {
                        key(format!("/{member}"), pos.as_bytes())?;
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(r: Result<()>) -> Option<(ErrorCode, String)> {
        r.err().map(|e| (e.code, e.path))
    }

    #[test]
    fn strings_arrays_and_depth() {
        let caps = Caps { values: 100, bytes: 50, string_bytes: 10, array_items: 3 };
        let v = json::parse(r#"{"a":["x",{"b/c":"01234567890"}]}"#).unwrap();
        assert_eq!(code(check_value(&v, "", "t", &caps)), Some((ErrorCode::TooLarge, "/a/1/b~1c".into())));
        let v = json::parse(r#"{"a":[1,2,3,4]}"#).unwrap();
        assert_eq!(code(check_value(&v, "/x", "t", &caps)), Some((ErrorCode::TooLarge, "/x/a".into())));
        let v = json::parse(r#"{"a":[1,2,3],"b":"0123456789"}"#).unwrap();
        assert_eq!(code(check_value(&v, "", "t", &caps)), None);
        let deep = format!("{}{}", "[".repeat(512), "]".repeat(512));
        let v = json::parse(&deep).unwrap();
        assert_eq!(code(check_value(&v, "", "t", &Caps::INPUT)), None);
        // 513 levels can only be built in code (the parser stops at 512).
        let v = Value::Array(vec![v]);
        assert_eq!(code(check_value(&v, "", "t", &Caps::INPUT)).map(|c| c.0), Some(ErrorCode::NestingTooDeep));
    }

    #[test]
    fn totals() {
        let caps = Caps { values: 4, bytes: 5, string_bytes: 10, array_items: 10 };
        let v = json::parse("[1,2,3,4]").unwrap();
        assert_eq!(code(check_value(&v, "", "t", &caps)), Some((ErrorCode::TooLarge, "".into())));
        let v = json::parse(r#"{"abc":"def"}"#).unwrap();
        assert_eq!(code(check_value(&v, "", "t", &caps)), Some((ErrorCode::TooLarge, "".into())));
    }

    #[test]
    fn given_caps() {
        let ok = json::parse(r#"{"contents":{"m1":"x"},"neighbor_contents":{"m1":{"before":null}}}"#).unwrap();
        assert!(check_given(&ok).is_ok());
        let long_id = format!(r#"{{"contents":{{"{}":"x"}}}}"#, "i".repeat(MAX_GIVEN_KEY_BYTES + 1));
        assert_eq!(code(check_given(&json::parse(&long_id).unwrap())).map(|c| c.0), Some(ErrorCode::TooLarge));
        let many: String = (0..MAX_GIVEN_ENTRIES + 1).map(|i| format!("\"p{i}\":null")).collect::<Vec<_>>().join(",");
        let many = format!(r#"{{"neighbor_contents":{{"m":{{{many}}}}}}}"#);
        assert_eq!(code(check_given(&json::parse(&many).unwrap())).map(|c| c.0), Some(ErrorCode::TooLarge));
    }

    #[test]
    fn text_cap() {
        let big = " ".repeat(MAX_TEXT_BYTES + 1);
        assert_eq!(parse_input(&big).unwrap_err().code, ErrorCode::TooLarge);
        assert_eq!(parse_input("[1]").unwrap(), json::parse("[1]").unwrap());
    }
}
