//! `recall-audit.md` §5 of the re-derivation: the fusion record, the stage chain and every
//! `rank-calibration-v1` record of one breakdown, against the hybrid score
//! `H` the interval checks fixed (the rules a server must follow in writing
//! them are in [`super::rules`]).

use super::report::{AuditCode, Check};
use super::rules;
use super::value::{bound, number, py_eq};
use crate::json::{Object, Value};
use crate::py::float::{clamp01, round6};
use crate::receipt::report::pointer;
use crate::scoring::rank::{self, RANK_CALIBRATION};

/// The adaptive-fusion weights (`ranking-receipts.md` §9.6): rrf, strongest input, support.
const FUSION_WEIGHTS: (f64, f64, f64) = (0.72, 0.18, 0.10);

/// The fusion, stage-chain and calibration checks of the breakdown `bd` at
/// `bp`, whose hybrid score is `h`.
pub(super) fn fusion_and_stages(bd: &Object, bp: &str, h: Option<f64>, checks: &mut Vec<Check>) {
    let sp = pointer(bp, "ranking_stages");
    let stages = ranking_stages(bd, &sp, checks);
    fusion(bd, bp, &sp, stages, h, checks);
    if !stages.is_empty() || bd.contains_key("pre_fusion_score") {
        checks.push(stage_chain(bd, bp, &sp, stages, h));
    }
    calibrations(&sp, stages, checks);
}

/// `ranking_stages` (none when absent; a failed chain check when it is not an array).
fn ranking_stages<'a>(bd: &'a Object, sp: &str, checks: &mut Vec<Check>) -> &'a [Value] {
    match bd.get("ranking_stages") {
        Some(Value::Array(items)) => items,
        Some(other) => {
            checks.push(
                Check::new("stage_chain", AuditCode::StageChainBroken, false, sp)
                    .values(other.clone(), Value::Null)
                    .message("ranking_stages is not an array"),
            );
            &[]
        }
        None => &[],
    }
}

/// The fusion record: `strongest_input_score == H`, and the adaptive-fusion
/// stage's output within 1e-6 of the fused formula, repeating the record.
fn fusion(bd: &Object, bp: &str, sp: &str, stages: &[Value], h: Option<f64>, checks: &mut Vec<Check>) {
    let fusion_stage = stages.iter().position(|s| s.get("stage").and_then(Value::as_str) == Some("adaptive-fusion"));
    match bd.get("fusion") {
        Some(Value::Object(fusion)) => {
            let fp = pointer(bp, "fusion");
            let strongest = number(fusion.get("strongest_input_score"));
            checks.push(
                Check::new(
                    "fusion_strongest_input",
                    AuditCode::FusionInconsistent,
                    strongest.is_some() && strongest == h,
                    pointer(&fp, "strongest_input_score"),
                )
                .values(bound(fusion.get("strongest_input_score")), h.map(Value::Float).unwrap_or(Value::Null))
                .message("fusion.strongest_input_score equals the hybrid score (pre_fusion_score)"),
            );
            checks.push(fused_output(fusion, sp, stages, fusion_stage, strongest));
        }
        Some(other) => checks.push(
            Check::new("fusion", AuditCode::FusionInconsistent, false, pointer(bp, "fusion"))
                .values(other.clone(), Value::Null)
                .message("fusion is not an object"),
        ),
        None => {
            if let Some(j) = fusion_stage {
                checks.push(
                    Check::new("fusion", AuditCode::FusionInconsistent, false, pointer(sp, &j.to_string()))
                        .message("an adaptive-fusion stage without a fusion record"),
                );
            }
        }
    }
}

/// The `fusion` check: the adaptive-fusion stage (index `fusion_stage`)
/// outputs the fused score of the record and repeats its fields.
fn fused_output(
    fusion: &Object,
    sp: &str,
    stages: &[Value],
    fusion_stage: Option<usize>,
    strongest: Option<f64>,
) -> Check {
    let rrf = number(fusion.get("normalized_rrf_score"));
    let support = number(fusion.get("facet_support"));
    let count = number(fusion.get("facet_count")).filter(|c| *c > 0.0);
    let expected = match (rrf, strongest, support, count) {
        (Some(rrf), Some(s), Some(sup), Some(n)) => {
            Some(round6(FUSION_WEIGHTS.0 * rrf + FUSION_WEIGHTS.1 * s + FUSION_WEIGHTS.2 * (sup / n)))
        }
        _ => None,
    };
    let (ptr, got, fields_ok) = match fusion_stage.and_then(|j| stages.get(j).map(|s| (j, s))) {
        Some((j, stage)) => {
            let stp = pointer(sp, &j.to_string());
            // The record's own keys are checked by `rules`; the
            // stage repeats each of them (bounded: 7 look-ups).
            let fields_ok = rules::FUSION_KEYS
                .iter()
                .all(|k| matches!((fusion.get(k), stage.get(k)), (Some(v), Some(w)) if py_eq(v, w)));
            (pointer(&stp, "output_score"), stage.get("output_score"), fields_ok)
        }
        None => (sp.to_string(), None, false),
    };
    let out = number(got);
    let close = matches!((out, expected), (Some(o), Some(e)) if (o - e).abs() <= 1e-6 + 1e-12);
    Check::new("fusion", AuditCode::FusionInconsistent, close && fields_ok, ptr)
        .values(bound(got), expected.map(Value::Float).unwrap_or(Value::Null))
        .message(if fields_ok || fusion_stage.is_none() {
            "round6(0.72·normalized_rrf_score + 0.18·strongest_input_score + 0.10·facet_support/facet_count), within 1e-6 (the bound rrf is rounded)"
        } else {
            "the adaptive-fusion stage does not repeat the fusion fields"
        })
}

/// The stage chain: each input is the previous output, rounded and
/// clamped; the first previous is the hybrid score; final is the last output.
fn stage_chain(bd: &Object, bp: &str, sp: &str, stages: &[Value], h: Option<f64>) -> Check {
    let mut prev = h;
    let mut broken: Option<(String, Value, Value, String)> = None;
    for (j, stage) in stages.iter().enumerate() {
        let stp = pointer(sp, &j.to_string());
        let input = number(stage.get("input_score"));
        let expected = prev.map(|p| round6(clamp01(p)));
        if broken.is_none() && (input.is_none() || input != expected) {
            broken = Some((
                pointer(&stp, "input_score"),
                bound(stage.get("input_score")),
                expected.map(Value::Float).unwrap_or(Value::Null),
                format!("stage {j} input is not the previous output"),
            ));
        }
        prev = number(stage.get("output_score"));
    }
    let fin = number(bd.get("final_score"));
    if broken.is_none() && (fin.is_none() || fin != prev) {
        broken = Some((
            pointer(bp, "final_score"),
            bound(bd.get("final_score")),
            prev.map(Value::Float).unwrap_or(Value::Null),
            "final_score is not the last stage's output".to_string(),
        ));
    }
    match broken {
        None => Check::new("stage_chain", AuditCode::StageChainBroken, true, sp)
            .values(bound(bd.get("final_score")), prev.map(Value::Float).unwrap_or(Value::Null))
            .message(format!("{} stage(s) chained from the hybrid score to final_score", stages.len())),
        Some((p, b, r, m)) => Check::new("stage_chain", AuditCode::StageChainBroken, false, p).values(b, r).message(m),
    }
}

/// Every `rank-calibration-v1` record's output, and a `calibration_position`
/// placeholder for the last one (completed by [`finish_positions`]).
fn calibrations(sp: &str, stages: &[Value], checks: &mut Vec<Check>) {
    let last_calibration =
        stages.iter().rposition(|s| s.get("method").and_then(Value::as_str) == Some(RANK_CALIBRATION));
    for (j, stage) in stages.iter().enumerate() {
        if stage.get("method").and_then(Value::as_str) != Some(RANK_CALIBRATION) {
            continue;
        }
        let stp = pointer(sp, &j.to_string());
        let name = format!("calibration:{}", stage.get("stage").and_then(Value::as_str).unwrap_or("?"));
        let input = stage.get("input_score");
        let expected = calibrated(stage.get("position"), stage.get("candidate_count"), input);
        let got = number(stage.get("output_score"));
        checks.push(
            Check::new(name.as_str(), AuditCode::CalibrationMismatch, got.is_some() && got == expected, pointer(&stp, "output_score"))
                .values(bound(stage.get("output_score")), expected.map(Value::Float).unwrap_or(Value::Null))
                .message("rank_position_score(position − 1, candidate_count, input_score); the input itself when candidate_count is 1"),
        );
        if Some(j) == last_calibration {
            // Filled in by the caller, who knows the result's place.
            checks.push(
                Check::new("calibration_position", AuditCode::CalibrationMismatch, true, pointer(&stp, "position"))
                    .values(bound(stage.get("position")), Value::Null),
            );
        }
    }
}

/// The calibrated output a `rank-calibration-v1` record must carry.
fn calibrated(position: Option<&Value>, count: Option<&Value>, input: Option<&Value>) -> Option<f64> {
    let (Some(Value::Int(p)), Some(Value::Int(n)), Some(input)) = (position, count, input) else { return None };
    let (p, n) = (p.parse::<i64>().ok()?, n.parse::<i64>().ok()?);
    number(Some(input))?;
    if n == 1 {
        return number(Some(input));
    }
    rank::rank_position_score(&Value::int(p.checked_sub(1)?), &Value::int(n), input).ok()
}

/// Complete the `calibration_position` checks with each result's place
/// (a context body's results are the included subset of the recall's,
/// re-sorted after learning: there the range check of `rules` applies).
pub(super) fn finish_positions(checks: &mut [Check], rank: usize, context: bool) {
    let rank = rank as i64;
    for c in checks.iter_mut().filter(|c| c.name == "calibration_position") {
        let ok = context || matches!(&c.bound, Value::Int(d) if d.parse::<i64>().ok() == Some(rank));
        c.status = if ok { crate::receipt::CheckStatus::Passed } else { crate::receipt::CheckStatus::Failed };
        c.rederived = Value::int(rank);
        c.message = "the last rank-calibration stage's position is the result's place in the response".to_string();
    }
}
