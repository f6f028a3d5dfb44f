//! The schema ids the verifier knows, and what each one's response is: a
//! dispatch per id (the verifier, the audit and the CLI ask here which
//! response a schema belongs to), not a boolean gate.

use super::fields::{ObjectKind, ObjectSpec};

/// What a wire text holding this schema is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire {
    /// A recall response (or a bare recall receipt).
    Recall,
    /// A context response (or a bare context receipt).
    Context,
    /// An Evidence Pack (the schema is the pack's own).
    EvidencePack,
}

/// One verified schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchemaSpec {
    /// The schema id (`lians.recall-receipt.v2`).
    pub id: &'static str,
    /// What carries it.
    pub wire: Wire,
    /// The body: its top-level object.
    pub body: ObjectKind,
    /// Every object the body nests, the top level first.
    pub objects: &'static [ObjectKind],
}

impl SchemaSpec {
    /// The body's top-level object spec.
    pub const fn body_spec(&self) -> &'static ObjectSpec {
        self.body.spec()
    }
}

/// `lians.recall-receipt.v2` (spec `ranking-receipts.md` §2): a `RecallResult`.
pub const RECALL_RECEIPT_V2: SchemaSpec = SchemaSpec {
    id: "lians.recall-receipt.v2",
    wire: Wire::Recall,
    body: ObjectKind::RecallResponse,
    objects: &[ObjectKind::RecallResponse, ObjectKind::Memory, ObjectKind::ReceiptView, ObjectKind::ViewMemory],
};

/// `lians.context-receipt.v2` (spec `ranking-receipts.md` §3): a `ContextResult`.
pub const CONTEXT_RECEIPT_V2: SchemaSpec = SchemaSpec {
    id: "lians.context-receipt.v2",
    wire: Wire::Context,
    body: ObjectKind::ContextResponse,
    objects: &[
        ObjectKind::ContextResponse,
        ObjectKind::Memory,
        ObjectKind::Conflict,
        ObjectKind::Provenance,
        ObjectKind::ReceiptView,
        ObjectKind::ViewMemory,
    ],
};

/// Evidence Pack v2.
pub const EVIDENCE_PACK_V2: SchemaSpec = SchemaSpec {
    id: "https://lians.ai/schemas/evidence-pack/v2",
    wire: Wire::EvidencePack,
    body: ObjectKind::EvidencePack,
    objects: &[ObjectKind::EvidencePack, ObjectKind::PackSignature],
};

/// Every verified schema.
pub const SCHEMAS: [SchemaSpec; 3] = [RECALL_RECEIPT_V2, CONTEXT_RECEIPT_V2, EVIDENCE_PACK_V2];

/// The schema with this id; `None` for one the verifier does not know
/// (`lians.recall-receipt.v1`: hash-only).
pub fn by_id(id: &str) -> Option<&'static SchemaSpec> {
    SCHEMAS.iter().find(|s| s.id == id)
}

/// The schema whose body is this object.
pub fn by_body(kind: ObjectKind) -> Option<&'static SchemaSpec> {
    SCHEMAS.iter().find(|s| s.body == kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schema_is_found_by_id_and_body() {
        for s in &SCHEMAS {
            assert_eq!(by_id(s.id), Some(s));
            assert_eq!(by_body(s.body), Some(s));
            assert_eq!(s.objects[0], s.body);
        }
        assert_eq!(by_id("lians.recall-receipt.v1"), None);
    }
}
