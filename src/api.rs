//! The JSON-shaped façade over the core: every function takes and returns
//! [`Value`]s with the Lians API's snake_case field names. The CLI and the
//! wasm binding call only these, so both speak exactly the same language.
//! (Scoring functions: stubs until the scorer lands.)

use crate::json::Value;
use crate::{Error, ErrorCode, Result};

fn todo(name: &str) -> Error {
    Error::new(ErrorCode::InvalidValue, "", format!("{name} is not implemented yet"))
}

/// `score_memory(**input)`: input is an object with the reference's keyword
/// arguments (`content`, `reference_time`, optional `metadata`, `importance`,
/// `source`, `event_time`, `valid_from`, `valid_to`, `superseded`, `query`,
/// `base_relevance`, `safety_status`, `risk_tags`, `verified_trust_level`,
/// `query_tokens`, `purpose`). Returns the breakdown object (spec §5).
pub fn score_memory(_input: &Value) -> Result<Value> {
    Err(todo("score_memory"))
}

/// `tokenize_for_scoring(value)`: returns an array of strings.
pub fn tokenize_for_scoring(_value: &Value) -> Result<Value> {
    Err(todo("tokenize_for_scoring"))
}

/// `detect_risk_tags(content)`: returns an array of tag strings.
pub fn detect_risk_tags(_content: &Value) -> Result<Value> {
    Err(todo("detect_risk_tags"))
}

/// `evaluate(content, source, mode, blocked_sources)`: input object
/// `{content, source, mode?, blocked_sources?}`; returns `{action, risk_tags, reasons}`.
pub fn evaluate_admission(_input: &Value) -> Result<Value> {
    Err(todo("evaluate_admission"))
}

/// Re-score a review-queue item (`PendingAdmissionOut`, optionally with
/// `importance` and `metadata`): returns `{held, approved, trusted_review, ...}`.
pub fn rescore_review_item(_item: &Value) -> Result<Value> {
    Err(todo("rescore_review_item"))
}

/// `rank_position_score(position, total, input_score)` (rank-calibration-v1).
pub fn rank_position_score(_position: &Value, _total: &Value, _input: &Value) -> Result<Value> {
    Err(todo("rank_position_score"))
}

/// Sort candidates `[{id, event_time, created_at, final_score?}]` by the
/// stable key (final desc, event desc, created desc, id asc); returns the sorted array.
pub fn sort_candidates(_candidates: &Value) -> Result<Value> {
    Err(todo("sort_candidates"))
}
