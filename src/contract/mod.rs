//! The wire contract, declared once, as data: what an honest Lians server
//! (PyPI `lians-sdk==0.5.0`) sends, and what of it the receipt binds.
//!
//! | table | what |
//! |---|---|
//! | [`COMPONENTS`] | the seven score components: key, label, admission and recall weights (with the reference's summation order), whether it depends on the retrieval score |
//! | [`RISK_TAGS`] | the admission risk tags: tag, reviewer phrase, severity, class, action |
//! | [`fields`] | every member of each response object ([`ObjectKind`]): always sent or not, JSON type, nullable, how it is bound ([`Bind`]), its time spelling ([`TimeForm`]) |
//! | [`SCHEMAS`] | the schema ids the verifier knows and the objects each one's body nests |
//!
//! # Where it comes from
//!
//! The reference's own models: `scripts/contract/record.py` (run with the
//! venv of `scripts/lians/venv.sh`) writes, from lians-sdk 0.5.0,
//! `tests/data/contract/`: the pydantic `model_json_schema()` of each
//! response model, which members its JSON encoder emits (serialising real
//! instances), the time spellings it writes, the scorer's weights and the
//! admission tags. `tests/contract.rs` fails when these tables and that
//! recording disagree. `receipt_view` is not in 0.5.0's models (a later
//! server sends it): it is recorded from the real samples.
//!
//! # What derives from it
//!
//! The scorer's weight tables and component order ([`crate::scoring`]), the
//! risk tag names ([`crate::admission`]), the body binding's bound members
//! and `unbound_fields` ([`crate::receipt`]), the schema dispatch, the
//! recall audit's exact components; and, through the generator
//! (`cargo run --example gen_contract`, checked by `tests/contract_generated.rs`),
//! `www/contract.js`, the unions of `js/index.d.ts` and the tables of
//! `docs/contract.md`.
//!
//! # Adding a row
//!
//! A component, a risk tag or a body member is one row here (then
//! `cargo run --example gen_contract` rewrites the generated copies, and the
//! recording, if the server changed, `scripts/contract/record.py`). A new
//! bound member also needs its comparison if its [`Bind`] is one the binder
//! does not apply yet; a new [`Bind::Value`], [`Bind::Digest`] or
//! [`Bind::Instant`] member of a memory, a view memory or a conflict is
//! compared with no further code.

pub mod components;
pub mod fields;
pub mod risk;
pub mod schemas;

pub use components::{ComponentSpec, Weight, COMPONENTS, N_COMPONENTS};
pub use fields::{
    Bind, FieldSpec, JsonType, Match, NeighbourPart, NeighbourSpec, ObjectKind, ObjectSpec, Sent, TimeForm, CONFLICT,
    CONTEXT_RESPONSE, EVIDENCE_PACK, MEMORY, NEIGHBOURS, PACK_SIGNATURE, PROVENANCE, RECALL_RESPONSE, RECEIPT_VIEW,
    VIEW_MEMORY,
};
pub use risk::{RiskAction, RiskClass, RiskTagSpec, RISK_TAGS};
pub use schemas::{SchemaSpec, Wire, SCHEMAS};

/// The object spec of a kind.
pub const fn object(kind: ObjectKind) -> &'static ObjectSpec {
    kind.spec()
}

/// A set of object specs the body binding reads: [`Contract::LIANS`], the
/// server's, or a variant (a test's contract with one more bound member).
#[derive(Clone, Copy, Debug)]
pub struct Contract {
    /// One spec per [`ObjectKind`] (the first of a kind wins).
    pub objects: &'static [ObjectSpec],
}

impl Contract {
    /// The contract of lians-sdk 0.5.0's server.
    pub const LIANS: Contract = Contract {
        objects: &[
            RECALL_RESPONSE,
            CONTEXT_RESPONSE,
            MEMORY,
            CONFLICT,
            PROVENANCE,
            RECEIPT_VIEW,
            VIEW_MEMORY,
            EVIDENCE_PACK,
            PACK_SIGNATURE,
        ],
    };

    /// The spec of `kind` (the server's when this contract has none).
    pub fn object(&self, kind: ObjectKind) -> &'static ObjectSpec {
        self.objects.iter().find(|o| o.kind == kind).unwrap_or(kind.spec())
    }
}

impl Default for Contract {
    fn default() -> Contract {
        Contract::LIANS
    }
}

/// The schema with this id (see [`schemas::by_id`]).
pub fn schema(id: &str) -> Option<&'static SchemaSpec> {
    schemas::by_id(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lians_contract_has_every_object() {
        for kind in ObjectKind::ALL {
            assert_eq!(Contract::LIANS.object(kind), kind.spec());
            assert!(Contract::LIANS.objects.iter().any(|o| o.kind == kind));
        }
    }

    /// Every object a schema's body nests is in its `objects`, and every
    /// object listed is reached.
    #[test]
    fn schemas_list_the_objects_their_bodies_nest() {
        for s in &SCHEMAS {
            let mut reached = vec![s.body];
            let mut i = 0;
            while i < reached.len() {
                for row in reached[i].spec().fields {
                    let inner = match row.bind {
                        Bind::Items { of, .. } => Some(of),
                        Bind::Object(of) => Some(of),
                        _ => None,
                    };
                    if let Some(of) = inner.filter(|of| !reached.contains(of)) {
                        reached.push(of);
                    }
                }
                i += 1;
            }
            let mut listed = s.objects.to_vec();
            listed.sort_by_key(|k| format!("{k:?}"));
            reached.sort_by_key(|k| format!("{k:?}"));
            assert_eq!(listed, reached, "{}", s.id);
        }
    }
}
