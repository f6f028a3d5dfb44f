//! Translation between JavaScript values and the crate's [`Value`] model,
//! and between [`lians_score::Error`] and JavaScript `Error` objects: the
//! only place of the binding where JS and Rust data meet. Conversions return
//! a crate [`Error`]; [`JsErr`] is the exports' one error type (`?` turns an
//! [`Error`] into it), [`output`] an export's result.
//!
//! JS → Value walks the value with js-sys (no serde): strings, numbers,
//! booleans, `null`/`undefined`, arrays and plain objects. Every JS operation
//! that can throw (proxies, getters, revoked objects) is called through a
//! catching import, so hostile input becomes a coded [`Error`], never a trap
//! and never a JS exception unwinding through Rust frames.
//!
//! Number rule: a number that is a safe integer (|x| ≤ 2^53 − 1) becomes a
//! Python `int`, any other number a `float`; `-0` stays the float `-0.0`.
//! JavaScript cannot tell `1` from `1.0`, which is why the API also accepts
//! JSON text, and why receipts are accepted only as text.

use js_sys::{Array, JsString, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use lians_score::api::limits::{MAX_ARRAY_ITEMS, MAX_INPUT_BYTES, MAX_JS_VALUES, MAX_STRING_BYTES, MAX_TEXT_BYTES};
use lians_score::json::{Object as JsonObject, PyStr, Value, MAX_DEPTH};
use lians_score::{Error, ErrorCode};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Array, js_name = isArray, catch)]
    fn array_is_array(value: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(js_namespace = Object, js_name = keys, catch)]
    fn object_keys(value: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(js_namespace = Object, js_name = getPrototypeOf, catch)]
    fn object_get_prototype_of(value: &JsValue) -> Result<JsValue, JsValue>;
}

/// The JS `Error` thrown for a crate error: `message`, plus `code` (the
/// stable snake_case [`ErrorCode`] name) and `path` (JSON pointer or field;
/// `""` for the whole input). `name` is `"LiansScoreError"`.
pub fn js_error(error: &Error) -> JsValue {
    let js = js_sys::Error::new(&error.message);
    js.set_name("LiansScoreError");
    let _ = Reflect::set(&js, &JsValue::from_str("code"), &JsValue::from_str(error.code.as_str()));
    let _ = Reflect::set(&js, &JsValue::from_str("path"), &JsValue::from_str(&error.path));
    js.into()
}

/// Shorthand: an [`Error`] with `code`, `path` and `message`.
pub fn error(code: ErrorCode, path: &str, message: impl Into<String>) -> Error {
    Error::new(code, path.to_string(), message)
}

/// A short description of what JS threw, for messages ("TypeError: ...").
fn describe_thrown(thrown: &JsValue) -> String {
    if let Some(err) = thrown.dyn_ref::<js_sys::Error>() {
        let name = Reflect::get(err, &JsValue::from_str("name"))
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_else(|| "Error".into());
        let message =
            Reflect::get(err, &JsValue::from_str("message")).ok().and_then(|v| v.as_string()).unwrap_or_default();
        format!("{name}: {message}")
    } else if let Some(s) = thrown.as_string() {
        s
    } else {
        "a non-Error value".into()
    }
}

fn thrown(path: &str, what: &str, e: &JsValue) -> Error {
    error(ErrorCode::InvalidValue, path, format!("{what} threw {}", describe_thrown(e)))
}

/// The JS `typeof`-like name used in error messages.
fn js_type_name(v: &JsValue) -> String {
    if v.is_null() {
        return "null".into();
    }
    if v.is_bigint() {
        return "bigint".into();
    }
    if v.is_symbol() {
        return "symbol".into();
    }
    if v.is_function() {
        return "function".into();
    }
    if v.is_object() {
        // Constructor name for a helpful message ("Date", "Map"); any throw → "object".
        let name = object_get_prototype_of(v)
            .ok()
            .filter(|p| p.is_object())
            .and_then(|p| Reflect::get(&p, &JsValue::from_str("constructor")).ok())
            .filter(|c| c.is_function())
            .and_then(|c| Reflect::get(&c, &JsValue::from_str("name")).ok())
            .and_then(|n| n.as_string())
            .filter(|n| !n.is_empty());
        if array_is_array(v).unwrap_or(false) {
            return "an array".into();
        }
        return match name.as_deref() {
            None | Some("Object") => "an object".into(),
            Some(n) => format!("a {n} object"),
        };
    }
    v.js_typeof().as_string().unwrap_or_else(|| "unknown".into())
}

/// Limits (`lians_score::api::limits`) checked *before* JS data is copied into wasm
/// memory: an oversized string or array, a sparse array with a huge
/// `length`, or a shared-reference "bomb" (`a = [x, x, ...]`, `x = [y, y,
/// ...]`) would otherwise exhaust the 4 GiB of wasm memory, and a failed
/// allocation aborts the instance (`RuntimeError: unreachable`).
/// A JS string's UTF-16 length is a lower bound on its UTF-8 length.
/// Returns that length (one boundary crossing; the budget reuses it).
pub fn check_js_string(v: &JsValue, cap: usize, path: &str) -> Result<usize, Error> {
    let units = v.unchecked_ref::<JsString>().length() as usize;
    if units > cap {
        return Err(error(
            ErrorCode::TooLarge,
            path,
            format!("a string of {units} UTF-16 code units; the limit is {cap} bytes of UTF-8"),
        ));
    }
    Ok(units)
}

/// What one [`from_js`] conversion may still copy: [`MAX_JS_VALUES`]
/// values and [`MAX_INPUT_BYTES`] bytes of keys and strings.
struct Budget {
    values: usize,
    bytes: usize,
}

impl Budget {
    fn take(&mut self, values: usize, bytes: usize, path: &str) -> Result<(), Error> {
        match (self.values.checked_sub(values), self.bytes.checked_sub(bytes)) {
            (Some(v), Some(b)) => {
                self.values = v;
                self.bytes = b;
                Ok(())
            }
            _ => Err(error(
                ErrorCode::TooLarge,
                path,
                format!(
                    "the input holds more than {MAX_JS_VALUES} values or {MAX_INPUT_BYTES} bytes of text (shared references count each time; pass larger inputs as JSON text)"
                ),
            )),
        }
    }
}

/// Convert a JS string to a Python string, keeping lone surrogates.
pub fn js_string_to_pystr(v: &JsValue) -> PyStr {
    let s = v.as_string().unwrap_or_default();
    // wasm-bindgen's conversion replaces lone surrogates with U+FFFD. Only
    // when a U+FFFD appears do we look at the UTF-16 code units themselves.
    if !lians_score::utf8::has_replacement_char(s.as_bytes()) {
        return PyStr::from(s);
    }
    let js: &JsString = v.unchecked_ref();
    let mut out = Vec::with_capacity(s.len());
    let mut units = js.iter().peekable();
    while let Some(u) = units.next() {
        let cp: u32 = if (0xD800..0xDC00).contains(&u) {
            match units.peek() {
                Some(&lo) if (0xDC00..0xE000).contains(&lo) => {
                    units.next();
                    0x10000 + (((u as u32) - 0xD800) << 10) + ((lo as u32) - 0xDC00)
                }
                _ => u as u32,
            }
        } else {
            u as u32
        };
        push_wtf8(&mut out, cp);
    }
    PyStr::from_wtf8(out)
}

fn push_wtf8(out: &mut Vec<u8>, cp: u32) {
    if cp < 0x80 {
        out.push(cp as u8);
    } else if cp < 0x800 {
        out.extend_from_slice(&[0xC0 | (cp >> 6) as u8, 0x80 | (cp & 0x3F) as u8]);
    } else if cp < 0x10000 {
        out.extend_from_slice(&[0xE0 | (cp >> 12) as u8, 0x80 | ((cp >> 6) & 0x3F) as u8, 0x80 | (cp & 0x3F) as u8]);
    } else {
        out.extend_from_slice(&[
            0xF0 | (cp >> 18) as u8,
            0x80 | ((cp >> 12) & 0x3F) as u8,
            0x80 | ((cp >> 6) & 0x3F) as u8,
            0x80 | (cp & 0x3F) as u8,
        ]);
    }
}

/// Convert a JS value (plain data) to a [`Value`].
pub fn from_js(v: &JsValue) -> Result<Value, Error> {
    let mut path = String::new();
    let mut ancestors: Vec<JsValue> = Vec::new();
    let mut budget = Budget { values: MAX_JS_VALUES, bytes: MAX_INPUT_BYTES };
    walk(v, &mut path, &mut ancestors, &mut budget)
}

fn walk(v: &JsValue, path: &mut String, ancestors: &mut Vec<JsValue>, budget: &mut Budget) -> Result<Value, Error> {
    budget.take(1, 0, path)?;
    // The type tests are `typeof` tests (no script runs), each a boundary
    // crossing: the common types first, and a string's length read once.
    if v.is_string() {
        let units = check_js_string(v, MAX_STRING_BYTES, path)?;
        budget.take(0, units, path)?;
        return Ok(Value::Str(js_string_to_pystr_of(v, units)));
    }
    if let Some(x) = v.as_f64() {
        if x == 0.0 && x.is_sign_negative() {
            return Ok(Value::Float(x));
        }
        // Number.isSafeInteger, without a crossing.
        if x.trunc() == x && x.abs() <= 9_007_199_254_740_991.0 {
            return Ok(Value::int(x as i64));
        }
        return Ok(Value::Float(x));
    }
    if !v.is_object() {
        // `typeof` is not "object", or the value is null.
        if v.is_null() || v.is_undefined() {
            return Ok(Value::Null);
        }
        if let Some(b) = v.as_bool() {
            return Ok(Value::Bool(b));
        }
        return Err(not_json(v, path));
    }
    walk_container(v, path, ancestors, budget)
}

/// A BigInt, a symbol or a function: no JSON form.
#[inline(never)]
fn not_json(v: &JsValue, path: &str) -> Error {
    if v.is_bigint() {
        return error(
            ErrorCode::WrongType,
            path,
            format!(
                "{} is a BigInt, which has no JSON form: pass a number, or pass the whole input as JSON text to keep large integers exact",
                where_(path)
            ),
        );
    }
    Error::wrong_type(path.to_string(), "JSON data", &js_type_name(v))
}

/// An array or an object (`typeof` "object", not null).
fn walk_container(
    v: &JsValue,
    path: &mut String,
    ancestors: &mut Vec<JsValue>,
    budget: &mut Budget,
) -> Result<Value, Error> {
    if ancestors.len() >= MAX_DEPTH {
        return Err(error(
            ErrorCode::NestingTooDeep,
            path,
            format!("arrays/objects are nested deeper than {MAX_DEPTH} levels"),
        ));
    }
    if ancestors.iter().any(|a| Object::is(a, v)) {
        return Err(error(
            ErrorCode::InvalidValue,
            path,
            format!("{} refers back to one of its own containers (a cycle), which has no JSON form", where_(path)),
        ));
    }
    let is_array = array_is_array(v).map_err(|e| thrown(path, "Array.isArray", &e))?;
    ancestors.push(v.clone());
    let result =
        if is_array { walk_array(v, path, ancestors, budget) } else { walk_object(v, path, ancestors, budget) };
    ancestors.pop();
    result
}

fn where_(path: &str) -> String {
    if path.is_empty() {
        "the input".into()
    } else {
        format!("`{path}`")
    }
}

fn walk_array(
    v: &JsValue,
    path: &mut String,
    ancestors: &mut Vec<JsValue>,
    budget: &mut Budget,
) -> Result<Value, Error> {
    let len = Reflect::get(v, &JsValue::from_str("length"))
        .map_err(|e| thrown(path, "reading the array length", &e))?
        .as_f64()
        .unwrap_or(0.0);
    if !(0.0..=4294967295.0).contains(&len) {
        return Err(error(ErrorCode::InvalidValue, path, "array length is not a valid length"));
    }
    if len > MAX_ARRAY_ITEMS as f64 {
        return Err(error(
            ErrorCode::TooLarge,
            path,
            format!("an array of {} items; the limit is {MAX_ARRAY_ITEMS}", lians_score::py::float::RustDisplay(len)),
        ));
    }
    let len = len as u32;
    let mut items = Vec::with_capacity(len.min(1 << 16) as usize);
    let base = path.len();
    for i in 0..len {
        path.truncate(base);
        crate::json::pointer::push_index(path, i as usize);
        let item = Reflect::get_u32(v, i).map_err(|e| thrown(path, "reading an array element", &e))?;
        // Like JSON.stringify: holes and undefined elements become null.
        items.push(walk(&item, path, ancestors, budget)?);
    }
    path.truncate(base);
    Ok(Value::Array(items))
}

fn walk_object(
    v: &JsValue,
    path: &mut String,
    ancestors: &mut Vec<JsValue>,
    budget: &mut Budget,
) -> Result<Value, Error> {
    // Only plain objects: prototype null, or a prototype that is itself a
    // root (Object.prototype of any realm). Dates, Maps, class instances,
    // typed arrays... are rejected rather than guessed at.
    let proto = object_get_prototype_of(v).map_err(|e| thrown(path, "Object.getPrototypeOf", &e))?;
    let plain = proto.is_null()
        || object_get_prototype_of(&proto).map_err(|e| thrown(path, "Object.getPrototypeOf", &e))?.is_null();
    if !plain {
        let got = js_type_name(v);
        let hint = if got == "a Date object" { " (pass date.toISOString())" } else { "" };
        return Err(error(
            ErrorCode::WrongType,
            path,
            format!("{} must be a plain object, an array or a primitive, got {got}{hint}", where_(path)),
        ));
    }
    let keys = object_keys(v).map_err(|e| thrown(path, "Object.keys", &e))?;
    budget.take(keys.length() as usize, 0, path)?;
    let mut members = JsonObject::with_capacity(keys.length() as usize);
    let base = path.len();
    for key in keys.iter() {
        let units = check_js_string(&key, MAX_STRING_BYTES, path)?;
        budget.take(0, units, path)?;
        let name = js_string_to_pystr(&key);
        path.truncate(base);
        crate::json::pointer::push(path, &name.to_str_lossy());
        let item = Reflect::get(v, &key).map_err(|e| thrown(path, "reading a property", &e))?;
        if item.is_undefined() {
            // Like JSON.stringify and optional TS fields: an undefined member is absent.
            continue;
        }
        let value = walk(&item, path, ancestors, budget)?;
        members.push_unique(name, value);
    }
    path.truncate(base);
    Ok(Value::Object(members))
}

/// Convert a [`Value`] to a JS value: objects become plain objects (JS
/// reorders integer-like keys), ints become numbers (exact up to 2^53,
/// beyond it the nearest double), strings keep lone surrogates.
///
/// An array or object is built by one `JSON.parse` of its JSON text
/// ([`lians_score::json::to_json_string`]) instead of a boundary crossing per
/// value, when that builds the same JS value as [`to_js_values`], i.e. when
/// every number of the tree is [`json_exact`]:
/// - a finite float is printed as Python's `repr`, the shortest text that
///   reads back as the same double (at most 17 significant digits); `-0.0`
///   parses to `-0`; JSON.parse reads up to 20 significant digits correctly
///   rounded (ECMA-262 `StringToNumber`), so it gives the double itself, as
///   `JsValue::from_f64` does;
/// - an int of at most 20 digits is printed as its digits, which JSON.parse
///   rounds correctly to the double nearest to them, as Rust's `f64` parse
///   does for `to_js_values` (beyond 20 digits ECMA-262 lets an engine round
///   differently, so those trees take `to_js_values`);
/// - NaN and ±infinity have no JSON form: `to_js_values`;
/// - strings and keys: the printer writes valid UTF-8 with lone surrogates
///   as `\udXXX` escapes, which JSON.parse turns into the same lone UTF-16
///   units as [`pystr_to_js`];
/// - JSON.parse defines every member and element as an own data property
///   (`__proto__` included, as `to_js_values` defines it; a repeated key
///   keeps its first position and takes the last value, as `Reflect.set`
///   does), in the same order.
///
/// (Unlike `Reflect.set`, JSON.parse never calls a setter that a script
/// put on `Object.prototype` or `Array.prototype`.) Scalars take
/// `to_js_values` (one crossing either way).
pub fn to_js(v: &Value) -> JsValue {
    if matches!(v, Value::Array(_) | Value::Object(_)) && json_exact(v) {
        if let Ok(js) = js_sys::JSON::parse(&lians_score::json::to_json_string(v)) {
            return js;
        }
    }
    to_js_values(v)
}

/// An export's result: [`to_js`] of the value, or the thrown error. One
/// shared function (not a conversion and a drop in every export: 0.9 KB
/// gzip of the `.wasm`).
#[inline(never)]
pub fn output(result: Result<Value, Error>) -> JsResult {
    Ok(to_js(&result?))
}

/// A `scoreMemory` result: the breakdown's JSON text, printed without
/// building its [`Value`] ([`Scored::write_json`](lians_score::scoring::Scored::write_json),
/// the same text [`to_js`] would parse), through one `JSON.parse`, when every
/// number of it is [`json_exact`] (the weights and limits always are; the
/// components and the final score when finite; the echoed purpose when
/// [`json_exact`]); otherwise [`to_js`] of the object.
#[cfg(not(feature = "verify-only"))]
pub fn scored_to_js(scored: &lians_score::scoring::Scored) -> JsValue {
    let finite = scored.components.iter().all(|x| x.is_finite()) && scored.final_score.is_finite();
    if finite && json_exact(&scored.purpose) {
        let mut out = Vec::with_capacity(2048);
        scored.write_json(&mut out);
        // (core's check: the SIMD128 one would be a second copy of it in the wasm, +0.4 KB gzip.)
        if let Ok(text) = String::from_utf8(out) {
            if let Ok(js) = js_sys::JSON::parse(&text) {
                return js;
            }
        }
    }
    to_js(&scored.to_json())
}

/// True when every number in `v` reads back from its JSON text through
/// `JSON.parse` as [`to_js_values`] converts it (see [`to_js`]).
pub fn json_exact(v: &Value) -> bool {
    match v {
        Value::Float(x) => x.is_finite(),
        Value::Int(digits) => digits.trim_start_matches('-').len() <= 20,
        Value::Array(items) => items.iter().all(json_exact),
        Value::Object(o) => o.iter().all(|(_, v)| json_exact(v)),
        _ => true,
    }
}

/// [`to_js`] value by value: a property set per member and element.
fn to_js_values(v: &Value) -> JsValue {
    match v {
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::Int(digits) => JsValue::from_f64(lians_score::py::float::parse_f64(digits).unwrap_or(f64::NAN)),
        Value::Float(x) => JsValue::from_f64(*x),
        Value::Str(s) => pystr_to_js(s),
        Value::Array(items) => {
            let arr = Array::new_with_length(items.len() as u32);
            for (i, item) in items.iter().enumerate() {
                arr.set(i as u32, to_js_values(item));
            }
            arr.into()
        }
        Value::Object(o) => {
            let obj = Object::new();
            for (k, item) in o.iter() {
                let key = pystr_to_js(k);
                let value = to_js_values(item);
                if k.as_bytes() == b"__proto__" {
                    // A plain assignment would set the prototype instead.
                    let desc = Object::new();
                    let _ = Reflect::set(&desc, &JsValue::from_str("value"), &value);
                    for flag in ["writable", "enumerable", "configurable"] {
                        let _ = Reflect::set(&desc, &JsValue::from_str(flag), &JsValue::TRUE);
                    }
                    Object::define_property(&obj, &key, &desc);
                } else {
                    let _ = Reflect::set(&obj, &key, &value);
                }
            }
            obj.into()
        }
    }
}

/// A JS string from a Python string; lone surrogates become lone UTF-16 units.
pub fn pystr_to_js(s: &PyStr) -> JsValue {
    if let Some(text) = s.as_str() {
        return JsValue::from_str(text);
    }
    let mut units: Vec<u16> = Vec::new();
    for cp in s.code_points() {
        if cp >= 0x10000 {
            let c = cp - 0x10000;
            units.push(0xD800 + (c >> 10) as u16);
            units.push(0xDC00 + (c & 0x3FF) as u16);
        } else {
            units.push(cp as u16);
        }
    }
    // fromCharCode is variadic: build in chunks to stay under argument limits.
    let mut out = JsString::from("");
    for chunk in units.chunks(4096) {
        out = out.concat(&JsString::from_char_code(chunk));
    }
    out.into()
}

/// JSON text given as a JS string, as CPython's `json.loads(str)` reads it:
/// a lone surrogate inside a string literal is a code point of that string
/// (here spelled as its `\uXXXX` escape, which the parser reads as exactly
/// that code point), and anywhere else a syntax error (here U+FFFD, which is
/// one there too: outside a string, or after a backslash).
///
/// wasm-bindgen's own conversion replaces every lone surrogate by U+FFFD, so
/// `"z\ud834x"` (a raw U+D834) would read as `"z\ufffdx"`, and a body whose
/// content holds U+D800 would hash as one holding U+FFFD. Only a text in which
/// that conversion produced a U+FFFD is looked at unit by unit.
pub fn js_json_text(v: &JsValue) -> String {
    let js: &JsString = v.unchecked_ref();
    let s = v.as_string().unwrap_or_default();
    if !lians_score::utf8::has_replacement_char(s.as_bytes()) {
        return s;
    }
    let mut out = String::with_capacity(s.len() + 16);
    let (mut in_string, mut escaped) = (false, false);
    let mut units = js.iter().peekable();
    while let Some(u) = units.next() {
        let c = if (0xD800..0xDC00).contains(&u) && units.peek().is_some_and(|lo| (0xDC00..0xE000).contains(lo)) {
            let lo = units.next().unwrap_or(0xDC00);
            char::from_u32(0x10000 + (((u as u32) - 0xD800) << 10) + ((lo as u32) - 0xDC00))
        } else {
            char::from_u32(u as u32)
        };
        let Some(c) = c else {
            // A lone surrogate.
            if in_string && !escaped {
                out.push_str(&format!("\\u{u:04x}"));
            } else {
                out.push('\u{FFFD}');
                escaped = false;
            }
            continue;
        };
        out.push(c);
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
        }
    }
    out
}

/// A scoring input: JSON text (exact: key order, `1` vs `1.0`) or plain JS data.
pub fn input_value(v: &JsValue) -> Result<Value, Error> {
    if v.is_string() {
        check_js_string(v, MAX_TEXT_BYTES, "")?;
        let text = js_json_text(v);
        return lians_score::api::limits::parse_input(&text);
    }
    from_js(v)
}

/// Raw JSON text for a receipt, response body or pack: a string, or the
/// UTF-8 bytes (`Uint8Array`/`ArrayBuffer`). Parsed objects are refused.
pub fn wire_text(v: &JsValue, what: &str) -> Result<String, Error> {
    if v.is_string() {
        check_js_string(v, MAX_TEXT_BYTES, "")?;
        return Ok(js_json_text(v));
    }
    let view = if let Some(u8s) = v.dyn_ref::<Uint8Array>() {
        Some(u8s.clone())
    } else if v.is_instance_of::<js_sys::ArrayBuffer>() {
        Some(Uint8Array::new(v))
    } else {
        None
    };
    if let Some(view) = &view {
        check_bytes(view, what)?;
    }
    let bytes = view.map(|u8s| u8s.to_vec());
    if let Some(bytes) = bytes {
        // One SIMD128 pass validates (issue #32), then the bytes become the String as they are.
        return lians_score::utf8::string_from_utf8(bytes).map_err(|e| {
            error(
                ErrorCode::MalformedJson,
                "",
                format!("{what} is not valid UTF-8 (invalid byte at offset {})", e.valid_up_to),
            )
        });
    }
    Err(error(
        ErrorCode::WrongType,
        "",
        format!(
            "{what} must be the raw JSON text (a string, e.g. `await response.text()`, or its UTF-8 bytes), got {}: \
             JSON.parse and response.json() lose the difference between 1 and 1.0 and other number spellings, \
             so the hash cannot be recomputed from a parsed object",
            js_type_name(v)
        ),
    ))
}

/// Refuse raw bytes over [`MAX_TEXT_BYTES`] before copying them.
pub fn check_bytes(bytes: &Uint8Array, what: &str) -> Result<(), Error> {
    let n = bytes.length() as usize;
    if n > MAX_TEXT_BYTES {
        return Err(error(ErrorCode::TooLarge, "", format!("{what} is {n} bytes; the limit is {MAX_TEXT_BYTES}")));
    }
    Ok(())
}

/// An optional `given`/`options` argument: `undefined`/`null` → `null`
/// (nothing pinned), JSON text, or plain JS data. A non-object is left to the
/// verifier, which reports it as an `invalid_given` finding.
#[inline(never)]
pub fn options_value(v: &JsValue) -> Result<Value, Error> {
    if v.is_undefined() || v.is_null() {
        return Ok(Value::Null);
    }
    input_value(v)
}

/// The one error type of the exports: a crate [`Error`] on its way to
/// JavaScript, already converted to the `LiansScoreError` that
/// [`js_error`] builds (so an export's `Result` stays one word wide and
/// the conversion is one function, not one copy per `?`). Every conversion
/// here returns an [`Error`], so an export is `?` all the way down.
pub struct JsErr(JsValue);

impl From<Error> for JsErr {
    #[inline(never)]
    fn from(error: Error) -> JsErr {
        JsErr(js_error(&error))
    }
}

impl From<JsErr> for JsValue {
    fn from(error: JsErr) -> JsValue {
        error.0
    }
}

/// What an export returns (wasm-bindgen throws the `Err`).
pub type JsResult<T = JsValue> = Result<T, JsErr>;

/// JSON text given as a JS string, at most [`MAX_TEXT_BYTES`] (`path` names
/// the argument in the error), read as [`js_json_text`] reads it.
#[cfg(not(feature = "verify-only"))]
pub fn json_text(v: &JsValue, path: &str) -> Result<String, Error> {
    let units = check_js_string(v, MAX_TEXT_BYTES, path)?;
    Ok(staged_json_text(v, units).unwrap_or_else(|| js_json_text(v)))
}

/// A value argument (`tokenizeForScoring`, the content of `detectRiskTags`
/// ...): a bare string is the value itself, not JSON text; anything else is
/// read as [`input_value`] reads it.
#[cfg(not(feature = "verify-only"))]
pub fn value_arg(v: &JsValue) -> Result<Value, Error> {
    if v.is_string() {
        check_js_string(v, MAX_STRING_BYTES, "")?;
        return Ok(Value::Str(js_string_to_pystr(v)));
    }
    input_value(v)
}

/// The candidates of `scoreCandidates` given as a JS array: at most
/// [`MAX_ARRAY_ITEMS`], each converted (when the batch reaches it) as
/// [`from_js`] converts a `scoreMemory` argument.
#[cfg(not(feature = "verify-only"))]
pub fn candidate_items(items: &Array) -> Result<impl Iterator<Item = Result<Value, Error>> + '_, Error> {
    if items.length() as usize > MAX_ARRAY_ITEMS {
        return Err(error(ErrorCode::TooLarge, "/candidates", "too many candidates"));
    }
    Ok(items.iter().map(|item| from_js(&item)))
}

/// The compact batch result as a JS object: `{count, errors, final_score,
/// eligible, safety_eligible, temporal_eligible, components: {...}}`, the
/// columns as `Float64Array`/`Uint8Array`s.
#[cfg(not(feature = "verify-only"))]
pub fn columns_to_js(columns: &lians_score::scoring::batch::Columns<'_>) -> JsValue {
    use js_sys::Float64Array;
    use lians_score::scoring::{batch::FLAGS, COMPONENTS};
    let set = |o: &Object, k: &str, v: &JsValue| {
        let _ = Reflect::set(o, &JsValue::from_str(k), v);
    };
    let result = Object::new();
    set(&result, "count", &JsValue::from_f64(columns.count() as f64));
    set(&result, "errors", &to_js(&columns.errors_json()));
    set(&result, "final_score", &Float64Array::from(&columns.final_score[..]));
    for (name, f) in FLAGS.iter().zip(&columns.flags) {
        set(&result, name, &Uint8Array::from(&f[..]));
    }
    let components = Object::new();
    for (name, c) in COMPONENTS.iter().zip(&columns.components) {
        set(&components, name, &Float64Array::from(&c[..]));
    }
    set(&result, "components", &components);
    result.into()
}

/// The bytes `sha256Hex` hashes: a `Uint8Array` as is, or a string's UTF-8.
pub enum HashInput {
    /// Raw bytes.
    Bytes(Vec<u8>),
    /// A string without lone surrogates.
    Text(PyStr),
}

impl HashInput {
    /// The bytes to hash.
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            HashInput::Bytes(b) => b,
            HashInput::Text(s) => s.as_bytes(),
        }
    }
}

/// A `sha256Hex` argument: a `Uint8Array`, or a string (one holding a lone
/// surrogate has no UTF-8 and is refused).
pub fn hash_input(v: &JsValue) -> Result<HashInput, Error> {
    if let Some(bytes) = v.dyn_ref::<Uint8Array>() {
        check_bytes(bytes, "the input")?;
        return Ok(HashInput::Bytes(bytes.to_vec()));
    }
    if !v.is_string() {
        return Err(Error::wrong_type("", "a string or Uint8Array", "another type"));
    }
    check_js_string(v, MAX_TEXT_BYTES, "")?;
    let s = js_string_to_pystr(v);
    if s.has_lone_surrogates() {
        return Err(error(
            ErrorCode::InvalidValue,
            "",
            "the string holds a lone surrogate, which has no UTF-8 encoding (the server cannot hash it either)",
        ));
    }
    Ok(HashInput::Text(s))
}

// Issue #32 round 10 (u16n), at the end of the file so that the lean build's panic locations
// (line numbers) stay as they were.

/// [`js_string_to_pystr`] of a string of `units` UTF-16 code units: in Node,
/// a long one is copied in by its units and transcoded in the wasm
/// ([`staging`]), which reads it the same.
pub fn js_string_to_pystr_of(v: &JsValue, units: usize) -> PyStr {
    #[cfg(not(any(feature = "lean", feature = "verify-only")))]
    if let Some(s) = staging::pystr(v, units) {
        return s;
    }
    let _ = units;
    js_string_to_pystr(v)
}

/// JS strings copied into wasm memory by their UTF-16 code units and
/// transcoded here (issue #32; the full build only: the Node entry,
/// js/node.cjs, registers the writer, `Buffer.prototype.ucs2Write`; browsers
/// have no native UTF-16 copy and keep wasm-bindgen's conversion). V8's own
/// UTF-8 encoding of a two-byte string (wasm-bindgen's `passStringToWasm0`,
/// `encodeInto`) costs ~14 instructions a unit; the copy is ~0 and
/// [`lians_score::utf16`] a few. A string with a lone surrogate is left to the
/// caller, which reads the string itself as before.
#[cfg(not(any(feature = "lean", feature = "verify-only")))]
pub mod staging {
    use super::*;

    /// The writer: a JS object (js/node.cjs) whose `set` trap writes the string given as the value
    /// at the wasm memory address given as the key, by its UTF-16 units, and answers whether it
    /// wrote all of them. Called through `Reflect.set`, an import every build has (so the lean
    /// glue still instantiates the full `.wasm`: js/core.mjs).
    struct Slot(std::cell::Cell<Option<JsValue>>);
    // SAFETY: the module is single-threaded (no `atomics`).
    unsafe impl Sync for Slot {}
    static WRITER: Slot = Slot(std::cell::Cell::new(None));

    /// String values shorter than this (UTF-16 units) keep wasm-bindgen's
    /// conversion: below it the writer's call costs more than it saves
    /// (BENCHMARKS.md, "Round 10: u16n").
    pub const MIN_UNITS: usize = 128;

    /// Register the writer (js/node.cjs, once per instance); `null` unregisters it.
    pub fn set_writer(f: JsValue) {
        WRITER.0.set(if f.is_object() { Some(f) } else { None });
    }

    /// The UTF-8 of the string `v` (`len` > 0 UTF-16 units), copied in by the
    /// writer into room reserved here (not zeroed) and transcoded; `None`
    /// without a writer or if it holds a lone surrogate.
    pub fn json_text(v: &JsValue, len: usize) -> Option<String> {
        let writer = WRITER.0.take()?;
        let mut units: Vec<u16> = Vec::with_capacity(len);
        // The address as a number (the key reaches the writer as its decimal text).
        let at = JsValue::from_f64(units.as_mut_ptr() as usize as f64);
        // The writer makes its view of the memory after this allocation (the last before it writes).
        let written = Reflect::set(&writer, &at, v);
        WRITER.0.set(Some(writer));
        if written != Ok(true) {
            return None;
        }
        // SAFETY: the writer wrote the string's `len` units at the start of the reserved capacity.
        unsafe { units.set_len(len) };
        lians_score::utf16::to_utf8(&units)
    }

    /// [`js_string_to_pystr`] of a string of `len` units, at least
    /// [`MIN_UNITS`], if it holds no lone surrogate (else `None`: the caller
    /// reads the string itself, keeping them).
    pub fn pystr(v: &JsValue, len: usize) -> Option<PyStr> {
        if len < MIN_UNITS {
            return None;
        }
        json_text(v, len).map(PyStr::from)
    }
}

/// The text of [`json_text`] when the string was copied in by its UTF-16
/// units ([`staging`], Node; `None` elsewhere, or for a lone surrogate: the
/// caller then reads it as [`js_json_text`] does).
#[cfg(not(feature = "verify-only"))]
fn staged_json_text(v: &JsValue, units: usize) -> Option<String> {
    #[cfg(not(feature = "lean"))]
    return staging::json_text(v, units);
    #[cfg(feature = "lean")]
    {
        let _ = (v, units);
        None
    }
}

/// `scoreMemory`'s result for the Node entry (js/node.cjs, issue #32 round 12): the breakdown as
/// numbers in wasm memory, from which the JS builds the object with a literal of fixed shape
/// (no JSON text printed and parsed: `JSON.parse` of the 17-key object was ~9 % of a call).
/// The full build only (the other builds keep [`scored_to_js`]).
#[cfg(not(any(feature = "lean", feature = "verify-only")))]
pub mod packed {
    use super::*;
    use lians_score::scoring::Scored;
    use std::borrow::Cow;
    use std::cell::Cell;

    /// How many numbers [`scored`] writes.
    const N: usize = 35;
    struct Slot(Cell<Option<Scored>>, Cell<[f64; N]>);
    // SAFETY: the module is single-threaded (no `atomics`).
    unsafe impl Sync for Slot {}
    /// The last result and its numbers, kept until the next call: the JS reads them after the export returns.
    static LAST: Slot = Slot(Cell::new(None), Cell::new([0.0; N]));

    /// The address of `scored`'s numbers (a number), or the object [`scored_to_js`] builds when
    /// the echoed purpose is not a well-formed string. Every value is an `f64` (addresses and
    /// lengths exactly): the seven rounded components and the final score; the gates
    /// (`safety_eligible | temporal_eligible << 1`); `purpose` and `reference_time` as
    /// (address, length) of their UTF-8; the seven reasons as (address, length, static: a static
    /// reason's address names the same text for the life of the instance); the weight table's
    /// address (the same for the same table: the policy version, the limits and the table's weights
    /// are the same in every result with it, and the JS copies them from an object it had before).
    pub fn scored(scored: Scored) -> JsValue {
        let Some(purpose) = scored.purpose.as_str() else {
            return scored_to_js(&scored);
        };
        let mut w = [0.0; N];
        let text = |w: &mut [f64; N], at: usize, s: &str| {
            w[at] = s.as_ptr() as usize as f64;
            w[at + 1] = s.len() as f64;
        };
        text(&mut w, 9, purpose);
        text(&mut w, 11, &scored.reference_time);
        for (i, r) in scored.reasons.iter().enumerate() {
            text(&mut w, 13 + 3 * i, r);
            w[15 + 3 * i] = matches!(r, Cow::Borrowed(_)) as u8 as f64;
        }
        w[..7].copy_from_slice(&scored.components.map(lians_score::py::float::round6));
        w[7] = scored.final_score;
        w[8] = (scored.safety_eligible as u8 | (scored.temporal_eligible as u8) << 1) as f64;
        w[34] = scored.weights().as_ptr() as usize as f64;
        LAST.1.set(w);
        LAST.0.set(Some(scored));
        JsValue::from_f64(LAST.1.as_ptr() as usize as f64)
    }
}
