//! The generated copies of the wire contract (www/contract.js, the unions
//! block of js/index.d.ts, the tables of docs/contract.md) are what
//! `cargo run --example gen_contract` renders now from src/contract/: a stale
//! copy fails here (regenerate it). The copies are not in the published
//! crate: the test then says so and passes.

#[allow(dead_code)]
#[path = "../benches/gen_contract.rs"]
mod gen;

#[test]
fn the_generated_copies_are_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root.join("www").is_dir() {
        eprintln!("skipped: no www/ (the published crate)");
        return;
    }
    let stale = gen::run(root, true).expect("every generated copy has its markers");
    assert!(
        stale.is_empty(),
        "stale generated copies of the contract: {stale:?}: run `cargo run --example gen_contract`"
    );
}

#[test]
fn a_block_is_replaced_between_its_markers_only() {
    let out = gen::Output::Block { begin: "// B".into(), end: "// E".into(), body: "new\n".into() };
    assert_eq!(gen::render(Some("head\n// B\nold\n// E\ntail\n"), &out).unwrap(), "head\n// B\nnew\n// E\ntail\n");
    assert!(gen::render(Some("no markers"), &out).is_err());
    assert!(gen::render(None, &out).is_err());
}

#[test]
fn every_generated_copy_says_so_first() {
    for (path, out) in gen::outputs() {
        let first = match &out {
            gen::Output::Whole(text) => text.lines().next().unwrap_or("").to_string(),
            gen::Output::Block { begin, .. } => begin.clone(),
        };
        assert!(first.contains(gen::GENERATED), "{path}: {first}");
    }
}
