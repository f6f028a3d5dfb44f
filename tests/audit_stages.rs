//! The audit's stage replays (`src/audit/replay.rs`) against the reference's
//! own stage functions (lians-sdk 0.5.0): a cases file written by
//! `scripts/audit/stages_cases.py` from `_fuse_recall_rankings`,
//! `mmr_rerank`, `_mmr_select`, `rerank_cross_encoder` (a stand-in model)
//! and `_rerank_by_proximity` (BFS over a random graph) on random inputs.
//! Every replay must accept what the reference wrote, and the fusion replay
//! must compute the reference's `normalized_rrf_score` from the true ranks
//! and find the true rank tuple. Run by `scripts/audit/stages-diff.sh`
//! (`LIANS_STAGE_CASES=FILE`); without the variable the test has nothing to read and passes.

use lians_score::audit::{self, fused_rrf, rank_tuples};
use lians_score::json::{self, Value};

fn num(v: Option<&Value>) -> f64 {
    match v {
        Some(Value::Float(x)) => *x,
        Some(Value::Int(d)) => d.parse().unwrap(),
        other => panic!("not a number: {other:?}"),
    }
}

#[test]
fn stage_replays_accept_what_the_reference_writes() {
    let Ok(path) = std::env::var("LIANS_STAGE_CASES") else {
        eprintln!("LIANS_STAGE_CASES not set: run scripts/audit/stages-diff.sh");
        return;
    };
    let text = std::fs::read_to_string(&path).expect("cases file");
    let (mut cases, mut records, mut tuples_found, mut overflowed) = (0usize, 0usize, 0usize, 0usize);
    let mut per_kind: std::collections::BTreeMap<String, usize> = Default::default();
    for (n, line) in text.lines().enumerate() {
        let case = json::parse(line).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let kind = case.get("kind").and_then(Value::as_str).unwrap().to_string();
        let scopes: Vec<&str> =
            case.get("scopes").and_then(Value::as_array).unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        let floor = num(case.get("floor")) as i64;
        let memories = case.get("memories").and_then(Value::as_array).unwrap();
        let metadatas: Vec<Value> =
            memories.iter().map(|m| m.get("metadata").cloned().unwrap_or(Value::Null)).collect();
        let checks = audit::replay_checks(memories, &metadatas, &scopes, floor);
        let failed: Vec<_> = checks
            .iter()
            .filter(|c| c.failed())
            .map(|c| format!("{} at {}: {}", c.name, c.pointer, c.message))
            .collect();
        assert!(
            failed.is_empty(),
            "line {} ({kind}): the replay rejects the reference's output: {failed:?}\n{line}",
            n + 1
        );
        if kind == "fusion" {
            let weights: Vec<f64> = (0..scopes.len()).map(|i| if i == 0 { 1.25 } else { 1.0 }).collect();
            let ceiling = weights.iter().sum::<f64>() / 61.0;
            let truth = case.get("truth").unwrap();
            for m in memories {
                let id = m.get("id").and_then(Value::as_str).unwrap();
                let ranks = truth.get(id).and_then(Value::as_object).unwrap();
                let f = m.get("score_breakdown").and_then(|b| b.get("fusion")).unwrap();
                let mut w = Vec::new();
                let mut r = Vec::new();
                for (i, s) in scopes.iter().enumerate() {
                    if let Some(rank) = ranks.get(s) {
                        w.push(weights[i]);
                        r.push(num(Some(rank)) as u32);
                    }
                }
                let bound = num(f.get("normalized_rrf_score"));
                assert_eq!(fused_rrf(&w, &r, ceiling), bound, "line {}: {id}", n + 1);
                match rank_tuples(&w, floor as u32, ceiling, bound) {
                    (Some(found), true) => {
                        assert!(found.contains(&r), "line {}: {id}: true ranks {r:?} not among {found:?}", n + 1);
                        tuples_found += 1;
                    }
                    (None, true) => overflowed += 1,
                    other => panic!("line {}: {id}: no tuple found ({other:?})", n + 1),
                }
                records += 1;
            }
        } else {
            records += memories.len();
        }
        *per_kind.entry(kind).or_default() += 1;
        cases += 1;
    }
    eprintln!(
        "stage replays: {cases} cases ({per_kind:?}), {records} records: all accepted; fusion: {tuples_found} true rank tuples found, {overflowed} past the search budget (not constraining)"
    );
}
