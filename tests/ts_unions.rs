//! The TypeScript code unions of js/index.d.ts against the Rust enums
//! themselves: `VerificationFailure` = the failure codes of
//! [`CheckCode::ALL`], `VerificationInfoCode` = its informational codes,
//! `ErrorCode` = [`ErrorCode::ALL`] plus the two JS-only codes. (The npm
//! declarations are not in the published crate: the test then says so and
//! passes.)

use lians_score::{CheckCode, ErrorCode};

fn declarations() -> Option<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("js/index.d.ts");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            eprintln!("skipped: {}: {e}", path.display());
            None
        }
    }
}

/// The string literals of `export type NAME = | "a" | "b" ...;` (comments
/// removed), sorted.
fn union(dts: &str, name: &str) -> Vec<String> {
    let head = format!("export type {name} =");
    let start = dts.find(&head).unwrap_or_else(|| panic!("index.d.ts declares no {name}")) + head.len();
    let end = start + dts[start..].find(';').expect("the union ends with ;");
    let mut body = dts[start..end].to_string();
    while let Some(open) = body.find("/*") {
        let close = open + body[open..].find("*/").expect("comment closed") + 2;
        body.replace_range(open..close, "");
    }
    let mut out: Vec<String> = body.split('"').skip(1).step_by(2).map(str::to_string).collect();
    assert!(
        body.split('"').step_by(2).all(|between| between.chars().all(|c| c.is_whitespace() || c == '|')),
        "{name}: only string literals expected: {body}"
    );
    out.sort();
    out
}

fn sorted(names: impl IntoIterator<Item = &'static str>) -> Vec<String> {
    let mut out: Vec<String> = names.into_iter().map(str::to_string).collect();
    out.sort();
    out
}

#[test]
fn verification_unions_are_the_check_codes() {
    let Some(dts) = declarations() else { return };
    let failures = CheckCode::ALL.iter().filter(|c| !c.is_informational()).map(|c| c.as_str());
    let info = CheckCode::ALL.iter().filter(|c| c.is_informational()).map(|c| c.as_str());
    assert_eq!(union(&dts, "VerificationFailure"), sorted(failures));
    assert_eq!(union(&dts, "VerificationInfoCode"), sorted(info));
}

#[test]
fn error_code_union_is_the_error_codes_and_the_js_only_ones() {
    let Some(dts) = declarations() else { return };
    let codes = ErrorCode::ALL.iter().map(|c| c.as_str()).chain(["not_initialized", "verification_failed"]);
    assert_eq!(union(&dts, "ErrorCode"), sorted(codes));
}

#[test]
fn the_union_reader_sees_a_missing_or_extra_code() {
    let dts = r#"export type X =
  | "a"
  /** a comment with "quotes" */
  | "b";"#;
    assert_eq!(union(dts, "X"), ["a", "b"]);
    assert_ne!(union(dts, "X"), sorted(["a"]));
}
