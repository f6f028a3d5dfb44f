//! The admission risk tags (spec `scoring-admission.md` §8.2, §9.1; the reference's `admission.py`,
//! recorded in `tests/data/contract/admission.json`).

/// What a tag makes the admission decision do in `enforce` mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RiskAction {
    /// The write is held for a reviewer (PII, PHI, MNPI).
    Review,
    /// The write is refused (injection, a blocked source, vague content).
    Reject,
}

impl RiskAction {
    /// The reference's name (`review`, `reject`).
    pub const fn as_str(self) -> &'static str {
        match self {
            RiskAction::Review => "review",
            RiskAction::Reject => "reject",
        }
    }
}

/// The family a tag belongs to (the dashboard's chip class).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RiskClass {
    /// Personal data (`pii:…`).
    Pii,
    /// Health data (`phi:…`).
    Phi,
    /// Material non-public information.
    Mnpi,
    /// Prompt injection / instruction override.
    Injection,
    /// A source on the block list.
    Blocked,
    /// Too vague to be a durable memory.
    Vague,
}

impl RiskClass {
    /// The class name (`pii`, `phi`, `mnpi`, `injection`, `blocked`, `vague`).
    pub const fn as_str(self) -> &'static str {
        match self {
            RiskClass::Pii => "pii",
            RiskClass::Phi => "phi",
            RiskClass::Mnpi => "mnpi",
            RiskClass::Injection => "injection",
            RiskClass::Blocked => "blocked",
            RiskClass::Vague => "vague",
        }
    }
}

/// One admission risk tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RiskTagSpec {
    /// The tag as the server writes it (`pii:email`).
    pub tag: &'static str,
    /// What it names, as a reviewer reads it ("an email address").
    pub phrase: &'static str,
    /// Severity rank: 0 is the most severe (the review queue sorts by it).
    pub severity: u8,
    /// Its family.
    pub class: RiskClass,
    /// What it makes admission do in `enforce` mode.
    pub action: RiskAction,
    /// Whether a detector finds it in the content (`riskSpans` has spans for
    /// it); `vague` is a property of the whole text, `source:blocked` of the source.
    pub spans: bool,
    /// Whether the scorer's safety gate closes on it whatever the safety
    /// status (`scoring.py`: `tag in {"injection", "source:blocked"}`).
    pub gates_safety: bool,
}

/// The tags in the reference's order: the detectors' order
/// (`detect_risk_tags`), then `source:blocked`, which `evaluate` appends.
pub const RISK_TAGS: &[RiskTagSpec] = &[
    RiskTagSpec {
        tag: "pii:ssn",
        phrase: "an SSN",
        severity: 4,
        class: RiskClass::Pii,
        action: RiskAction::Review,
        spans: true,
        gates_safety: false,
    },
    RiskTagSpec {
        tag: "pii:email",
        phrase: "an email address",
        severity: 4,
        class: RiskClass::Pii,
        action: RiskAction::Review,
        spans: true,
        gates_safety: false,
    },
    RiskTagSpec {
        tag: "phi:mrn",
        phrase: "a medical record number",
        severity: 3,
        class: RiskClass::Phi,
        action: RiskAction::Review,
        spans: true,
        gates_safety: false,
    },
    RiskTagSpec {
        tag: "phi:npi",
        phrase: "a provider NPI",
        severity: 3,
        class: RiskClass::Phi,
        action: RiskAction::Review,
        spans: true,
        gates_safety: false,
    },
    RiskTagSpec {
        tag: "pii:credit_card",
        phrase: "a card number",
        severity: 4,
        class: RiskClass::Pii,
        action: RiskAction::Review,
        spans: true,
        gates_safety: false,
    },
    RiskTagSpec {
        tag: "mnpi",
        phrase: "material non-public information",
        severity: 2,
        class: RiskClass::Mnpi,
        action: RiskAction::Review,
        spans: true,
        gates_safety: false,
    },
    RiskTagSpec {
        tag: "injection",
        phrase: "a prompt-injection phrase",
        severity: 0,
        class: RiskClass::Injection,
        action: RiskAction::Reject,
        spans: true,
        gates_safety: true,
    },
    RiskTagSpec {
        tag: "vague",
        phrase: "vague content",
        severity: 5,
        class: RiskClass::Vague,
        action: RiskAction::Reject,
        spans: false,
        gates_safety: false,
    },
    RiskTagSpec {
        tag: "source:blocked",
        phrase: "a blocked source",
        severity: 1,
        class: RiskClass::Blocked,
        action: RiskAction::Reject,
        spans: false,
        gates_safety: true,
    },
];

/// How many tags close the scorer's safety gate.
pub const N_GATING: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < RISK_TAGS.len() {
        if RISK_TAGS[i].gates_safety {
            n += 1;
        }
        i += 1;
    }
    n
};

/// The tags that close the scorer's safety gate, in [`RISK_TAGS`] order.
pub const fn gating_tags() -> [&'static str; N_GATING] {
    let mut out = [""; N_GATING];
    let (mut i, mut n) = (0, 0);
    while i < RISK_TAGS.len() {
        if RISK_TAGS[i].gates_safety {
            out[n] = RISK_TAGS[i].tag;
            n += 1;
        }
        i += 1;
    }
    out
}

/// The spec of a tag.
pub fn risk_tag(tag: &str) -> Option<&'static RiskTagSpec> {
    RISK_TAGS.iter().find(|t| t.tag == tag)
}

/// `tag`, checked at compile time to be a row of [`RISK_TAGS`] (for the
/// detectors' tag constants: a tag the contract does not declare does not build).
pub const fn declared(tag: &'static str) -> &'static str {
    let mut i = 0;
    while i < RISK_TAGS.len() {
        if eq(RISK_TAGS[i].tag.as_bytes(), tag.as_bytes()) {
            return tag;
        }
        i += 1;
    }
    panic!("a risk tag the contract does not declare")
}

const fn eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_distinct_and_classes_match_their_prefix() {
        for (i, t) in RISK_TAGS.iter().enumerate() {
            assert!(RISK_TAGS[..i].iter().all(|u| u.tag != t.tag), "{}", t.tag);
            match t.class {
                RiskClass::Pii => assert!(t.tag.starts_with("pii:")),
                RiskClass::Phi => assert!(t.tag.starts_with("phi:")),
                _ => assert!(!t.tag.starts_with("pii:") && !t.tag.starts_with("phi:")),
            }
        }
        assert_eq!(risk_tag("mnpi").map(|t| t.action), Some(RiskAction::Review));
        assert!(risk_tag("pii:nope").is_none());
    }
}
