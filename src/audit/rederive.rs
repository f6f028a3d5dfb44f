//! `recall-audit.md` §3–§5 of one result: its breakdown against the audit's own scorer run.
//!
//! * exact checks: the six retrieval-independent components, the three
//!   gates, the seven component reasons and the scorer's policy fields;
//! * interval checks: relevance, quality and the hybrid score as step
//!   functions of the unknown retrieval score `b` ([`Blend`]), their level
//!   sets ([`super::interval`]), the intersection the server must have used
//!   and, when there is none, which value is to blame;
//! * then the fusion, stage and calibration checks ([`super::stages`]).

use super::interval::{self, Interval};
use super::report::{AuditCode, Check};
use super::result::Context;
use super::stages;
use super::value::{bound, number, py_eq};
use crate::contract::{COMPONENTS, N_COMPONENTS};
use crate::json::{Object, Value};
use crate::py::float::{clamp01, clamp_to, repr, round6, sum_py312};
use crate::receipt::report::pointer;
use crate::scoring::components::relevance_with_base;
use crate::scoring::metadata;
use crate::scoring::rank::RANKING_WEIGHTS;
use crate::scoring::{self, Scored, RECALL_WEIGHTS, SCORING_POLICY_VERSION};
use crate::text;

/// The components that do not depend on the retrieval score, with their
/// index in [`scoring::COMPONENTS`] order (from the contract).
fn exact_components() -> impl Iterator<Item = (usize, &'static str)> {
    COMPONENTS.iter().enumerate().filter(|(_, c)| !c.uses_retrieval).map(|(i, c)| (i, c.key))
}

/// The index of the one component that depends on the retrieval score (relevance).
const RETRIEVAL_COMPONENT: usize = {
    let mut i = 0;
    while !COMPONENTS[i].uses_retrieval {
        i += 1;
    }
    i
};

/// The exact, interval, fusion and stage checks of the breakdown `bd` (at
/// `bp`) against one scorer run (`scored`, with the query's `lexical`
/// overlap), appended to `checks`. Returns the retrieval-score interval.
pub(super) fn rederive(
    ctx: &Context,
    bd: &Object,
    bp: &str,
    scored: &Scored,
    lexical: Option<f64>,
    checks: &mut Vec<Check>,
) -> Option<Interval> {
    exact_checks(bd, bp, scored, checks);
    policy_checks(ctx, bd, bp, checks);
    let (retrieval, h) = interval_checks(bd, bp, &Blend::new(scored, lexical, number(bd.get("quality_score"))), checks);
    stages::fusion_and_stages(bd, bp, h, checks);
    retrieval
}

/// `recall-audit.md` §3: components, gates and the first seven (component) reasons.
fn exact_checks(bd: &Object, bp: &str, scored: &Scored, checks: &mut Vec<Check>) {
    let at = |key: &str| pointer(bp, key);
    for (idx, name) in exact_components() {
        let rederived = round6(scored.components[idx]);
        let ok = number(bd.get(name)) == Some(rederived);
        checks.push(
            Check::new(name, AuditCode::ComponentMismatch, ok, at(name))
                .values(bound(bd.get(name)), Value::Float(rederived)),
        );
    }
    let gates = [
        ("eligible", scored.eligible()),
        ("safety_eligible", scored.safety_eligible),
        ("temporal_eligible", scored.temporal_eligible),
    ];
    for (name, value) in gates {
        let ok = bd.get(name) == Some(&Value::Bool(value));
        checks.push(
            Check::new(name, AuditCode::GateMismatch, ok, at(name)).values(bound(bd.get(name)), Value::Bool(value)),
        );
    }
    let reasons: Vec<Value> = scored.reasons.iter().map(|r| Value::str(r.as_ref())).collect();
    let bound_reasons = match bd.get("reasons") {
        Some(Value::Array(items)) => Value::Array(items.iter().take(7).cloned().collect()),
        other => bound(other),
    };
    let reasons_ok = bound_reasons.as_array() == Some(reasons.as_slice());
    checks.push(
        Check::new("reasons", AuditCode::ReasonMismatch, reasons_ok, at("reasons"))
            .values(bound_reasons, Value::Array(reasons))
            .message("the first 7 (component) reasons"),
    );
}

/// `recall-audit.md` §3: the weights, reference time, purpose, policy version and limits the
/// recall scorer binds.
fn policy_checks(ctx: &Context, bd: &Object, bp: &str, checks: &mut Vec<Check>) {
    let mut ranking_weights = Object::with_capacity(2);
    for (k, w) in RANKING_WEIGHTS {
        ranking_weights.push_unique(k, Value::Float(w));
    }
    let policy: [(&str, Value); 6] = [
        ("weights", ctx.weights_json.clone()),
        ("ranking_weights", Value::Object(ranking_weights)),
        ("reference_time", Value::str(ctx.reference_text.as_str())),
        ("purpose", Value::str("recall")),
        ("scoring_policy_version", Value::str(SCORING_POLICY_VERSION)),
        ("scoring_limits", ctx.limits_json.clone()),
    ];
    for (name, expected) in policy {
        let got = bound(bd.get(name));
        let ok = py_eq(&got, &expected) && !got.is_null();
        checks.push(Check::new(name, AuditCode::PolicyMismatch, ok, pointer(bp, name)).values(got, expected));
    }
}

/// The recall weights as the breakdown binds them.
pub(super) fn recall_weights_json() -> Value {
    let mut weights = Object::with_capacity(7);
    for (name, w) in RECALL_WEIGHTS {
        weights.push_unique(name, Value::Float(w));
    }
    Value::Object(weights)
}

/// The scorer's limits as the breakdown binds them.
pub(super) fn scoring_limits_json() -> Value {
    let mut o = Object::with_capacity(6);
    o.push_unique("text_sample_chars", Value::int(text::TEXT_SAMPLE_CHARS as i64));
    o.push_unique("token_cap", Value::int(text::TOKEN_CAP as i64));
    o.push_unique("metadata_chars", Value::int(metadata::METADATA_CHARS as i64));
    o.push_unique("metadata_items", Value::int(metadata::METADATA_ITEMS as i64));
    o.push_unique("metadata_depth", Value::int(metadata::METADATA_DEPTH as i64));
    o.push_unique("metadata_value_chars", Value::int(metadata::METADATA_VALUE_CHARS as i64));
    Value::Object(o)
}

/// Relevance, quality and the hybrid score as functions of the retrieval
/// score `b`, each with the same float operations in the same order as the
/// server: the rounded forms are what it bound, the unrounded forms are
/// what the bisection of [`interval::level_set_near`] evaluates.
struct Blend<'a> {
    scored: &'a Scored,
    lexical: Option<f64>,
    eligible: bool,
    /// `weighted_final`'s products in [`RECALL_WEIGHTS`] order, the six
    /// constant ones computed once (relevance's slot is recomputed per `b`).
    products: [f64; N_COMPONENTS],
    rel_slot: usize,
    /// The bound quality score (the hybrid score's second term; 0 when absent).
    quality: Option<f64>,
}

impl<'a> Blend<'a> {
    fn new(scored: &'a Scored, lexical: Option<f64>, quality: Option<f64>) -> Blend<'a> {
        let mut products = [0.0f64; N_COMPONENTS];
        for (slot, (name, w)) in products.iter_mut().zip(RECALL_WEIGHTS) {
            let idx = scoring::COMPONENTS.iter().position(|c| *c == name).unwrap_or(0);
            *slot = scored.components[idx] * w;
        }
        let rel_slot = RECALL_WEIGHTS.iter().position(|(n, _)| *n == COMPONENTS[RETRIEVAL_COMPONENT].key).unwrap_or(0);
        Blend { scored, lexical, eligible: scored.eligible(), products, rel_slot, quality }
    }

    /// The relevance component before rounding.
    fn relevance_unrounded(&self, b: f64) -> f64 {
        match self.lexical {
            Some(lex) => relevance_with_base(b, lex),
            None => self.scored.components[RETRIEVAL_COMPONENT],
        }
    }

    /// `relevance_score`.
    fn relevance(&self, b: f64) -> f64 {
        round6(self.relevance_unrounded(b))
    }

    /// `quality_score`: the scorer's gated, weighted final score.
    fn quality(&self, b: f64) -> f64 {
        let mut values = self.scored.components;
        values[RETRIEVAL_COMPONENT] = self.relevance_unrounded(b);
        scoring::weighted_final(&values, &RECALL_WEIGHTS, self.eligible)
    }

    /// [`Blend::quality`] before rounding.
    fn quality_unrounded(&self, b: f64) -> f64 {
        if !self.eligible {
            return 0.0;
        }
        let mut p = self.products;
        p[self.rel_slot] = self.relevance_unrounded(b) * RECALL_WEIGHTS[self.rel_slot].1;
        clamp01(sum_py312(&p))
    }

    /// The hybrid rank score before rounding: `0.8·b + 0.2·quality_score`.
    fn hybrid_unrounded(&self, b: f64) -> f64 {
        RANKING_WEIGHTS[0].1 * clamp01(b) + RANKING_WEIGHTS[1].1 * clamp01(self.quality.unwrap_or(0.0))
    }

    /// The hybrid rank score `H`.
    fn hybrid(&self, b: f64) -> f64 {
        round6(self.hybrid_unrounded(b))
    }

    /// The retrieval scores that reproduce the bound relevance `r`, quality
    /// and hybrid `h` (each `None` when the value is absent or no `b` gives
    /// it; the hybrid score needs the bound quality).
    fn level_sets(&self, r: Option<f64>, h: Option<f64>) -> [Option<Interval>; 3] {
        // Guesses from the formulas without rounding (±half a unit in the 6th
        // place, widened a little): they only shorten the bisection.
        const HALF: f64 = 5e-7 + 2e-8;
        let rest: f64 = self.products.iter().enumerate().filter(|(i, _)| *i != self.rel_slot).map(|(_, p)| p).sum();
        let w_rel = RECALL_WEIGHTS[self.rel_slot].1;
        let guess = |center: f64, slope: f64| Some((center - HALF / slope, center + HALF / slope));
        let rel_guess = |t: f64| self.lexical.and_then(|lex| guess((t - 0.3 * lex) / 0.7, 0.7));
        let q_guess = |t: f64| self.lexical.and_then(|lex| guess(((t - rest) / w_rel - 0.3 * lex) / 0.7, w_rel * 0.7));
        let h_guess = |t: f64| {
            let q = clamp01(self.quality.unwrap_or(0.0));
            guess((t - RANKING_WEIGHTS[1].1 * q) / RANKING_WEIGHTS[0].1, RANKING_WEIGHTS[0].1)
        };
        let i_rel = r.and_then(|r| interval::level_set_near(|b| self.relevance_unrounded(b), r, rel_guess(r)));
        let i_q = self.quality.and_then(|q| interval::level_set_near(|b| self.quality_unrounded(b), q, q_guess(q)));
        let i_h = match self.quality {
            Some(_) => h.and_then(|h| interval::level_set_near(|b| self.hybrid_unrounded(b), h, h_guess(h))),
            None => None,
        };
        [i_rel, i_q, i_h]
    }
}

/// The intersection of two optional intervals.
fn both(a: Option<Interval>, b: Option<Interval>) -> Option<Interval> {
    a.and_then(|a| b.and_then(|b| a.intersect(b)))
}

/// The hybrid score's field: `pre_fusion_score`, else the first stage's
/// input, else `final_score`. Returns its pointer and bound value.
fn hybrid_field<'a>(bd: &'a Object, bp: &str) -> (String, Option<&'a Value>) {
    let stages: &[Value] = bd.get("ranking_stages").and_then(Value::as_array).unwrap_or(&[]);
    if bd.contains_key("pre_fusion_score") {
        (pointer(bp, "pre_fusion_score"), bd.get("pre_fusion_score"))
    } else if let Some(first) = stages.first() {
        (pointer(&pointer(&pointer(bp, "ranking_stages"), "0"), "input_score"), first.get("input_score"))
    } else {
        (pointer(bp, "final_score"), bd.get("final_score"))
    }
}

/// `recall-audit.md` §4: the relevance, quality and blend checks. Returns the retrieval
/// scores that reproduce all three, and the bound hybrid score.
fn interval_checks(bd: &Object, bp: &str, blend: &Blend, checks: &mut Vec<Check>) -> (Option<Interval>, Option<f64>) {
    let (h_key, h_value) = hybrid_field(bd, bp);
    let r = number(bd.get("relevance_score"));
    let q = blend.quality;
    let h = number(h_value);
    let sets = blend.level_sets(r, h);
    let mut retrieval = both(both(sets[0], sets[1]), sets[2]);
    // Verify the chosen retrieval score explicitly (the functions are
    // monotone, so this holds; it guards the reasoning, not the arithmetic).
    if let Some(i) = retrieval {
        let holds = |b: f64| Some(blend.relevance(b)) == r && Some(blend.quality(b)) == q && Some(blend.hybrid(b)) == h;
        retrieval = [i.lo, i.mid(), i.hi].into_iter().find(|b| holds(*b)).map(|_| i);
    }
    let blamed = if retrieval.is_none() { blame(&sets) } else { [false; 3] };
    // Re-derived values at the retrieval score the *other* two imply: the
    // one nearest to the checked value's own interval, if it has one.
    let implied = |own: usize, a: usize, b: usize| {
        let i = retrieval.or_else(|| both(sets[a], sets[b]))?;
        Some(match sets[own] {
            Some(o) => clamp_to(o.mid(), i.lo, i.hi),
            None => i.mid(),
        })
    };
    let num_or_null = |v: Option<f64>| v.map(Value::Float).unwrap_or(Value::Null);
    checks.push(
        Check::new("relevance_score", AuditCode::RelevanceInconsistent, !blamed[0], pointer(bp, "relevance_score"))
            .values(bound(bd.get("relevance_score")), num_or_null(implied(0, 1, 2).map(|b| blend.relevance(b))))
            .interval(sets[0])
            .note(match blend.lexical {
                Some(lex) => {
                    // Python's repr (the crate's own printer, not Rust's Display).
                    let lex = repr(lex);
                    format!("round6(0.7·b + 0.3·{lex}) (lexical overlap {lex})")
                }
                None => "no query: neutral relevance".to_string(),
            }),
    );
    checks.push(
        Check::new("quality_score", AuditCode::QualityInconsistent, !blamed[1], pointer(bp, "quality_score"))
            .values(bound(bd.get("quality_score")), num_or_null(implied(1, 0, 2).map(|b| blend.quality(b))))
            .interval(sets[1])
            .message("the scorer's gated, weighted final score"),
    );
    checks.push(
        Check::new("blend", AuditCode::BlendInconsistent, !blamed[2], h_key)
            .values(
                bound(h_value),
                num_or_null(if q.is_some() { implied(2, 0, 1).map(|b| blend.hybrid(b)) } else { None }),
            )
            .interval(sets[2])
            .message("the hybrid rank score round6(0.8·b + 0.2·quality_score)"),
    );
    (retrieval, h)
}

/// When the three level sets have no common point: blame an empty one, or
/// one disjoint from both others; failing that, both members of a
/// disjoint pair.
fn blame(sets: &[Option<Interval>; 3]) -> [bool; 3] {
    let mut blamed = [false; 3];
    for k in 0..3 {
        let others = (0..3).filter(|&j| j != k);
        blamed[k] = match sets[k] {
            None => true,
            Some(s) => {
                others.clone().any(|j| sets[j].is_some())
                    && others.filter_map(|j| sets[j]).all(|o| s.intersect(o).is_none())
            }
        };
    }
    if !blamed.iter().any(|b| *b) {
        for k in 0..3 {
            blamed[k] = (0..3).any(|j| j != k && both(sets[k], sets[j]).is_none());
        }
    }
    blamed
}
