//! Glue for the package's `lians-score` CLI (js/cli.mjs): the grammar and
//! the command logic are [`lians_score::cli`], shared with the native CLI, so given
//! the same arguments and files both print the same bytes and exit with the
//! same status. Not part of the documented JS API.

use js_sys::{Array, Function, Uint8Array};
use wasm_bindgen::prelude::*;

use super::interop::JsResult;
use lians_score::cli;

/// `cliRun(argv, read)`: run one command line; `read(path)` returns a file's
/// bytes (`Uint8Array`) or text, `-` meaning standard input, and may throw.
/// Returns `[stdout, stderr, exit status]`.
#[wasm_bindgen(js_name = cliRun, skip_typescript)]
pub fn cli_run(argv: Vec<String>, read: &Function) -> JsValue {
    let mut reader = |path: &str| -> Result<Vec<u8>, String> {
        let got = read.call1(&JsValue::NULL, &JsValue::from_str(path)).map_err(|e| describe(&e, path))?;
        if let Some(s) = got.as_string() {
            return Ok(s.into_bytes());
        }
        match got.dyn_into::<Uint8Array>() {
            Ok(bytes) => Ok(bytes.to_vec()),
            Err(_) => Err(format!("{path}: the reader returned neither bytes nor text")),
        }
    };
    let run = cli::run(&argv, &mut reader);
    let out = Array::new();
    out.push(&JsValue::from_str(&run.stdout));
    out.push(&JsValue::from_str(&run.stderr));
    out.push(&JsValue::from_f64(run.status as f64));
    out.into()
}

fn describe(thrown: &JsValue, path: &str) -> String {
    js_sys::Reflect::get(thrown, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| thrown.as_string())
        .unwrap_or_else(|| format!("{path}: could not be read"))
}

/// `score` over a whole text (benchmarks and tests): returns `[output, exit
/// status]`; a usage-level problem throws.
#[wasm_bindgen(js_name = cliScore, skip_typescript)]
pub fn cli_score(text: &str, name: &str, label: &str) -> JsResult {
    let outcome = cli::score(text, name, label)?;
    let out = Array::new();
    out.push(&JsValue::from_str(&outcome.output));
    out.push(&JsValue::from_f64(outcome.status as f64));
    Ok(out.into())
}
