//! Reserved metadata (spec `scoring-admission.md` §9.2): the safety status an action stores and
//! `attach`, which writes `_admission` and `_score` into the metadata.

use crate::json::{Object, Value};
use crate::py::time::PyDateTime;
use crate::scoring::{self, ScoreInput, Scored};

/// Map a decision action to the safety status attach uses (spec `scoring-admission.md` §9.2 step 1).
pub fn status_for_action(action: &str) -> &'static str {
    match action {
        "admit" => "safe",
        "review" => "review_needed",
        "reject" => "rejected",
        _ => "review_needed",
    }
}

/// A write as the storage boundary sees it.
#[derive(Clone, Debug)]
pub struct WriteRequest {
    /// The memory text.
    pub content: String,
    /// The write's event time (also its reference time and `valid_from`).
    pub event_time: PyDateTime,
    /// The claimed source.
    pub source: Option<String>,
    /// Caller metadata (reserved `_admission`/`_score` keys are replaced).
    pub metadata: Object,
    /// Supplied importance, any JSON value.
    pub importance: Value,
}

/// `attach` (spec `scoring-admission.md` §9.2): score for admission and return the new metadata
/// (caller keys without `_admission`/`_score`, then the engine's
/// `_admission` and `_score`) and the breakdown.
pub fn attach(
    request: &WriteRequest,
    action: &str,
    risk_tags: &[String],
    recorded_action: Option<&str>,
    safety_status: Option<&str>,
) -> (Object, Scored) {
    let status = safety_status.unwrap_or_else(|| status_for_action(action));
    let mut caller = request.metadata.clone();
    caller.remove("_admission");
    caller.remove("_score");
    let mut input = ScoreInput::new(request.content.clone(), request.event_time);
    input.event_time = Some(request.event_time);
    input.valid_from = Some(request.event_time);
    input.metadata = caller.clone();
    input.importance = request.importance.clone();
    input.source = request.source.clone();
    input.safety_status = status.to_string();
    input.risk_tags = risk_tags.to_vec();
    input.purpose = Value::str("admission");
    let breakdown = scoring::score_memory(&input);
    let mut out = caller;
    let mut admission = Object::with_capacity(2);
    admission.push_unique("action", Value::str(recorded_action.unwrap_or(action)));
    admission.push_unique("risk_tags", Value::Array(risk_tags.iter().map(|t| Value::str(t.as_str())).collect()));
    out.push_unique("_admission", Value::Object(admission));
    out.push_unique("_score", breakdown.to_json());
    (out, breakdown)
}
