//! The seven score components (spec `scoring-admission.md` §4–§5; the reference's `scoring.py`,
//! recorded in `tests/data/contract/scoring.json`).

/// A component's weight under one purpose, and where it stands in that
/// purpose's weight table: the reference sums `Σ w·c` and prints `weights`
/// in its dict order (`RECALL_WEIGHTS`, `ADMISSION_WEIGHTS`), which is not the
/// component order, and float addition is not associative.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weight {
    /// The weight.
    pub value: f64,
    /// Position in the purpose's weight table (summation and output order).
    pub rank: u8,
}

/// One score component.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ComponentSpec {
    /// The breakdown key (`importance_score`).
    pub key: &'static str,
    /// The label a reviewer reads (`Importance`).
    pub label: &'static str,
    /// Its admission weight; `None`: admission scoring does not weigh it.
    pub admission_weight: Option<Weight>,
    /// Its recall weight.
    pub recall_weight: Weight,
    /// Whether it depends on the retrieval score the receipt does not carry
    /// (the recall audit re-derives the others exactly, this one as an interval).
    pub uses_retrieval: bool,
}

const fn w(value: f64, rank: u8) -> Weight {
    Weight { value, rank }
}

/// How many components a breakdown has.
pub const N_COMPONENTS: usize = 7;

/// The components in the reference's breakdown order (`importance_score`
/// first, the order of `reasons` too).
pub const COMPONENTS: [ComponentSpec; N_COMPONENTS] = [
    ComponentSpec {
        key: "importance_score",
        label: "Importance",
        admission_weight: Some(w(0.25, 0)),
        recall_weight: w(0.15, 2),
        uses_retrieval: false,
    },
    ComponentSpec {
        key: "confidence_score",
        label: "Confidence",
        admission_weight: Some(w(0.20, 2)),
        recall_weight: w(0.15, 1),
        uses_retrieval: false,
    },
    ComponentSpec {
        key: "trust_score",
        label: "Trust",
        admission_weight: Some(w(0.15, 3)),
        recall_weight: w(0.10, 3),
        uses_retrieval: false,
    },
    ComponentSpec {
        key: "freshness_score",
        label: "Freshness",
        admission_weight: Some(w(0.05, 5)),
        recall_weight: w(0.10, 4),
        uses_retrieval: false,
    },
    ComponentSpec {
        key: "relevance_score",
        label: "Relevance",
        admission_weight: None,
        recall_weight: w(0.35, 0),
        uses_retrieval: true,
    },
    ComponentSpec {
        key: "stability_score",
        label: "Stability",
        admission_weight: Some(w(0.20, 1)),
        recall_weight: w(0.10, 5),
        uses_retrieval: false,
    },
    ComponentSpec {
        key: "safety_score",
        label: "Safety",
        admission_weight: Some(w(0.15, 4)),
        recall_weight: w(0.05, 6),
        uses_retrieval: false,
    },
];

/// The index of a component key in [`COMPONENTS`].
pub fn index_of(key: &str) -> Option<usize> {
    COMPONENTS.iter().position(|c| c.key == key)
}

/// The component keys in breakdown order.
pub const fn keys() -> [&'static str; N_COMPONENTS] {
    let mut out = [""; N_COMPONENTS];
    let mut i = 0;
    while i < N_COMPONENTS {
        out[i] = COMPONENTS[i].key;
        i += 1;
    }
    out
}

/// How many components the admission weights weigh.
pub const N_ADMISSION: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < N_COMPONENTS {
        if COMPONENTS[i].admission_weight.is_some() {
            n += 1;
        }
        i += 1;
    }
    n
};

/// `(key, weight)` in the recall weight table's order.
pub const fn recall_weights() -> [(&'static str, f64); N_COMPONENTS] {
    let mut out = [("", 0.0); N_COMPONENTS];
    let mut filled = 0;
    let mut i = 0;
    while i < N_COMPONENTS {
        let w = COMPONENTS[i].recall_weight;
        assert!((w.rank as usize) < N_COMPONENTS, "a recall rank past the table");
        assert!(out[w.rank as usize].0.is_empty(), "two components share a recall rank");
        out[w.rank as usize] = (COMPONENTS[i].key, w.value);
        filled += 1;
        i += 1;
    }
    assert!(filled == N_COMPONENTS);
    out
}

/// `(key, weight)` in the admission weight table's order.
pub const fn admission_weights() -> [(&'static str, f64); N_ADMISSION] {
    let mut out = [("", 0.0); N_ADMISSION];
    let mut i = 0;
    while i < N_COMPONENTS {
        if let Some(w) = COMPONENTS[i].admission_weight {
            assert!((w.rank as usize) < N_ADMISSION, "an admission rank past the table");
            assert!(out[w.rank as usize].0.is_empty(), "two components share an admission rank");
            out[w.rank as usize] = (COMPONENTS[i].key, w.value);
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_tables_are_complete_and_in_rank_order() {
        let r = recall_weights();
        assert_eq!(r[0], ("relevance_score", 0.35));
        assert!(r.iter().all(|(k, _)| index_of(k).is_some()));
        let a = admission_weights();
        assert_eq!(a.len(), 6);
        assert_eq!(a[0], ("importance_score", 0.25));
        assert!(a.iter().all(|(k, _)| !k.is_empty() && *k != "relevance_score"));
        assert_eq!(index_of("safety_score"), Some(6));
        assert_eq!(index_of("nope"), None);
        assert_eq!(COMPONENTS.iter().filter(|c| c.uses_retrieval).count(), 1);
    }
}
