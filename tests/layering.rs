//! The crates' layer order (src/lib.rs, "Layers"; crates/core/src/lib.rs),
//! checked on the source: every `crate::…` path outside comments and
//! `#[cfg(test)]` modules in src/**/*.rs and crates/core/src/**/*.rs must name
//! a module of the same or a lower layer, and the top-level modules of each
//! crate must not form an import cycle. A cheap text scan, not a
//! compiler pass: it sees `use crate::…` lines (grouped imports included) and
//! inline `crate::x::…` paths; `super::` stays inside a module by
//! construction. Known exceptions are listed in `KNOWN` with the reason, and
//! an entry that no longer occurs fails too, so the list only shrinks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate to check: its `src/` (relative to this package), its layers, its
/// root re-exports and its known exceptions.
struct Crate {
    src: &'static str,
    layers: &'static [(&'static str, &'static [&'static str])],
    root_reexports: &'static [(&'static str, &'static str)],
    known: &'static [(&'static str, &'static str, &'static str)],
}

const CRATES: &[Crate] = &[
    Crate { src: "src", layers: LAYERS, root_reexports: ROOT_REEXPORTS, known: KNOWN },
    Crate { src: "crates/core/src", layers: CORE_LAYERS, root_reexports: CORE_ROOT_REEXPORTS, known: &[] },
];

/// lians-score-core, bottom to top: the error type depends on nothing (its
/// JSON row is printed by json/error_row.rs); Python semantics, the string
/// type (py::string) included, and SHA-256 sit under the JSON model; the text
/// signals read JSON values.
const CORE_LAYERS: &[(&str, &[&str])] = &[
    ("error type", &["error"]),
    ("python semantics", &["py", "hash", "utf8", "utf16"]),
    ("JSON model", &["json"]),
    ("text signals", &["text"]),
    ("crate root", &["lib", "serde_support"]),
];

const CORE_ROOT_REEXPORTS: &[(&str, &str)] =
    &[("Error", "error"), ("ErrorCode", "error"), ("Result", "error"), ("PyDateTime", "py")];

/// lians-score, bottom to top. A module may use its own layer and those below.
const LAYERS: &[(&str, &[&str])] = &[
    ("primitives", &["error", "json", "py", "hash", "text", "utf8", "utf16", "args", "contract"]),
    ("rules", &["scoring", "admission", "receipt", "audit"]),
    ("typed API", &["lib", "serde_support"]),
    ("JSON façade", &["api"]),
    ("commands", &["cli"]),
];

/// Items of the crate root (`crate::X`) that are re-exports, by the module
/// that defines them; any other root item belongs to the typed API (`lib`).
const ROOT_REEXPORTS: &[(&str, &str)] = &[
    ("Error", "error"),
    ("ErrorCode", "error"),
    ("Result", "error"),
    ("PyDateTime", "py"),
    ("ScoreBreakdown", "scoring"),
    ("ScoreInput", "scoring"),
    ("ScoringLimits", "scoring"),
    ("Weights", "scoring"),
    ("AdmissionAction", "admission"),
    ("AdmissionDecision", "admission"),
    ("BoundReceipt", "receipt"),
    ("Check", "receipt"),
    ("CheckStatus", "receipt"),
    ("Severity", "receipt"),
    ("VerificationReport", "receipt"),
];

/// `(from module, to module)`: upward uses that exist today, each with the
/// reason it is still there. Remove an entry when its use goes.
const KNOWN: &[(&str, &str, &str)] = &[
    ("lib", "api", "the typed verify functions apply the receipt caps (api::limits::check_receipt_input, a leaf module: the typed API refuses oversize input as it always did)"),
];

fn layer_of(c: &Crate, module: &str) -> usize {
    c.layers.iter().position(|(_, mods)| mods.contains(&module)).unwrap_or_else(|| {
        panic!("module `{module}` of {} is in no layer: add it to the layers (and to the crate's lib.rs doc)", c.src)
    })
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of src/ belongs to.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next().unwrap().as_os_str().to_str().unwrap();
    first.trim_end_matches(".rs").to_string()
}

/// The top-level names a `crate::` path at `rest` reaches: `json` for
/// `crate::json::Value`, `[scoring, json]` for `crate::{scoring::X, json}`.
fn targets(rest: &str) -> Vec<String> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let Some(group) = rest.strip_prefix('{') else { return vec![ident(rest)] };
    let (mut depth, mut names, mut start) = (0usize, Vec::new(), true);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            c if start && !c.is_whitespace() => {
                names.push(ident(&group[i..]));
                start = false;
            }
            _ => {}
        }
    }
    names
}

/// `(from, to, file:line)` for every `crate::` reference outside comments and tests.
fn references(c: &Crate) -> Vec<(String, String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(c.src);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let from = module_of(&src, &file);
        let text = std::fs::read_to_string(&file).unwrap();
        // Join each `use` statement onto one line so grouped imports are seen whole.
        let mut joined: Vec<(usize, String)> = Vec::new();
        let mut open: Option<(usize, String)> = None;
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or("").trim();
            // A `#[cfg(test)] mod …` ends the scan (test modules close the file).
            let next = lines.get(n + 1).map(|l| l.trim_start()).unwrap_or("");
            if code.starts_with("#[cfg(test)]") && next.starts_with("mod ") {
                break;
            }
            if let Some((start, mut acc)) = open.take() {
                acc.push_str(code);
                if code.contains(';') {
                    joined.push((start, acc));
                } else {
                    open = Some((start, acc));
                }
            } else if code.starts_with("use ") || code.starts_with("pub use ") || code.starts_with("pub(crate) use ") {
                if code.contains(';') {
                    joined.push((n + 1, code.to_string()));
                } else {
                    open = Some((n + 1, code.to_string()));
                }
            } else {
                joined.push((n + 1, code.to_string()));
            }
        }
        for (n, code) in joined {
            let mut rest = code.as_str();
            while let Some(at) = rest.find("crate::") {
                let tail = &rest[at + "crate::".len()..];
                for name in targets(tail) {
                    let to = match c.root_reexports.iter().find(|(item, _)| *item == name) {
                        Some((_, module)) => module.to_string(),
                        None if c.layers.iter().any(|(_, mods)| mods.contains(&name.as_str())) => name,
                        None => "lib".to_string(),
                    };
                    let rel = file.strip_prefix(&src).unwrap().display();
                    out.push((from.clone(), to, format!("{}/{rel}:{n}", c.src)));
                }
                rest = tail;
            }
            // In the crate root, modules are named without `crate::`.
            if from == "lib" && !code.starts_with("pub mod") && !code.starts_with("mod ") {
                for (_, mods) in c.layers {
                    for m in mods.iter() {
                        let needle = format!("{m}::");
                        let hit = code
                            .match_indices(&needle)
                            .any(|(i, _)| !code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':'));
                        if hit {
                            out.push((from.clone(), m.to_string(), format!("{}/lib.rs:{n}", c.src)));
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn no_module_uses_a_higher_layer() {
    for c in CRATES {
        let mut seen_known = BTreeSet::new();
        let mut upward = Vec::new();
        for (from, to, at) in references(c) {
            if layer_of(c, &to) <= layer_of(c, &from) {
                continue;
            }
            if let Some(k) = c.known.iter().find(|(f, t, _)| *f == from && *t == to) {
                seen_known.insert((k.0, k.1));
                continue;
            }
            upward.push(format!(
                "{at}: `{from}` ({}) uses `{to}` ({})",
                c.layers[layer_of(c, &from)].0,
                c.layers[layer_of(c, &to)].0
            ));
        }
        assert!(upward.is_empty(), "upward uses (see {}/lib.rs):\n{}", c.src, upward.join("\n"));
        let stale: Vec<_> = c.known.iter().filter(|(f, t, _)| !seen_known.contains(&(*f, *t))).collect();
        assert!(stale.is_empty(), "known exceptions that no longer occur (remove them): {stale:?}");
    }
}

#[test]
fn no_cycle_between_top_level_modules() {
    for c in CRATES {
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, to, _) in references(c) {
            // The root re-exports everything; its own calls are checked by layer.
            if from != to && from != "lib" && to != "lib" {
                edges.entry(from).or_default().insert(to);
            }
        }
        let mut done = BTreeSet::new();
        for n in edges.keys() {
            if let Some(cycle) = visit(n, &edges, &mut Vec::new(), &mut done) {
                let known = cycle.windows(2).any(|w| c.known.iter().any(|(f, t, _)| *f == w[0] && *t == w[1]));
                assert!(known, "import cycle in {}: {}", c.src, cycle.join(" → "));
            }
        }
    }
}

/// Depth-first search for a back edge: the cycle through `n`, if any.
fn visit<'a>(
    n: &'a str,
    edges: &'a BTreeMap<String, BTreeSet<String>>,
    path: &mut Vec<&'a str>,
    done: &mut BTreeSet<&'a str>,
) -> Option<Vec<String>> {
    if let Some(i) = path.iter().position(|p| *p == n) {
        let mut cycle: Vec<String> = path[i..].iter().map(|s| s.to_string()).collect();
        cycle.push(n.to_string());
        return Some(cycle);
    }
    if !done.insert(n) {
        return None;
    }
    path.push(n);
    for m in edges.get(n).into_iter().flatten() {
        if let Some(c) = visit(m, edges, path, done) {
            return Some(c);
        }
    }
    path.pop();
    None
}

/// The module-level edges of lians-score-core, as the scan sees them: the
/// test above would miss a cycle if the scan saw no edges at all.
#[test]
fn the_core_scan_sees_its_edges() {
    let core = &CRATES[1];
    let edges: BTreeSet<(String, String)> =
        references(core).into_iter().filter(|(f, t, _)| f != t).map(|(f, t, _)| (f, t)).collect();
    for (f, t) in [("json", "py"), ("json", "error"), ("py", "error"), ("text", "json")] {
        assert!(edges.contains(&(f.to_string(), t.to_string())), "no {f} → {t} edge seen: {edges:?}");
    }
    // The two edges that made the cycle are gone.
    assert!(!edges.contains(&("py".to_string(), "json".to_string())));
    assert!(!edges.contains(&("error".to_string(), "json".to_string())));
}

#[test]
fn the_scan_sees_grouped_and_inline_paths() {
    assert_eq!(targets("{scoring::{self, X}, json::Value};"), ["scoring", "json"]);
    assert_eq!(targets("api::limits::check_text(x)"), ["api"]);
}
