//! The crate's layer order (src/lib.rs, "Layers"), checked on the source:
//! every `crate::…` path outside comments and `#[cfg(test)]` modules in
//! src/**/*.rs must name a module of the same or a lower layer, and the
//! top-level modules must not form an import cycle. A cheap text scan, not a
//! compiler pass: it sees `use crate::…` lines (grouped imports included) and
//! inline `crate::x::…` paths; `super::` stays inside a module by
//! construction. Known exceptions are listed in `KNOWN` with the reason, and
//! an entry that no longer occurs fails too, so the list only shrinks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Bottom to top. A module may use its own layer and those below.
const LAYERS: &[(&str, &[&str])] = &[
    ("primitives", &["error", "json", "py", "hash", "text", "args", "contract"]),
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

fn layer_of(module: &str) -> usize {
    LAYERS
        .iter()
        .position(|(_, mods)| mods.contains(&module))
        .unwrap_or_else(|| panic!("module `{module}` is in no layer: add it to LAYERS (and to src/lib.rs's doc)"))
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
fn references() -> Vec<(String, String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
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
                    let to = match ROOT_REEXPORTS.iter().find(|(item, _)| *item == name) {
                        Some((_, module)) => module.to_string(),
                        None if LAYERS.iter().any(|(_, mods)| mods.contains(&name.as_str())) => name,
                        None => "lib".to_string(),
                    };
                    let rel = file.strip_prefix(&src).unwrap().display();
                    out.push((from.clone(), to, format!("src/{rel}:{n}")));
                }
                rest = tail;
            }
            // In the crate root, modules are named without `crate::`.
            if from == "lib" && !code.starts_with("pub mod") && !code.starts_with("mod ") {
                for (_, mods) in LAYERS {
                    for m in mods.iter() {
                        let needle = format!("{m}::");
                        let hit = code
                            .match_indices(&needle)
                            .any(|(i, _)| !code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':'));
                        if hit {
                            out.push((from.clone(), m.to_string(), format!("src/lib.rs:{n}")));
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
    let mut seen_known = BTreeSet::new();
    let mut upward = Vec::new();
    for (from, to, at) in references() {
        if layer_of(&to) <= layer_of(&from) {
            continue;
        }
        if let Some(k) = KNOWN.iter().find(|(f, t, _)| *f == from && *t == to) {
            seen_known.insert((k.0, k.1));
            continue;
        }
        upward.push(format!(
            "{at}: `{from}` ({}) uses `{to}` ({})",
            LAYERS[layer_of(&from)].0,
            LAYERS[layer_of(&to)].0
        ));
    }
    assert!(upward.is_empty(), "upward uses (see src/lib.rs, Layers):\n{}", upward.join("\n"));
    let stale: Vec<_> = KNOWN.iter().filter(|(f, t, _)| !seen_known.contains(&(*f, *t))).collect();
    assert!(stale.is_empty(), "KNOWN exceptions that no longer occur (remove them): {stale:?}");
}

#[test]
fn no_cycle_between_top_level_modules() {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to, _) in references() {
        // The root re-exports everything; its own calls are checked by layer.
        if from != to && from != "lib" && to != "lib" {
            edges.entry(from).or_default().insert(to);
        }
    }
    // Depth-first search for a back edge.
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
    let mut done = BTreeSet::new();
    for n in edges.keys() {
        if let Some(cycle) = visit(n, &edges, &mut Vec::new(), &mut done) {
            let known = cycle.windows(2).any(|w| KNOWN.iter().any(|(f, t, _)| *f == w[0] && *t == w[1]));
            assert!(known, "import cycle: {}", cycle.join(" → "));
        }
    }
}

#[test]
fn the_scan_sees_grouped_and_inline_paths() {
    assert_eq!(targets("{scoring::{self, X}, json::Value};"), ["scoring", "json"]);
    assert_eq!(targets("api::limits::check_text(x)"), ["api"]);
}
