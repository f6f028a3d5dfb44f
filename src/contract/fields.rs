//! The response bodies, field by field: every member the server sends, its
//! JSON type, whether it is always sent, whether and how the receipt (or, for
//! an Evidence Pack, the signature) binds it, and how its time is spelled.
//!
//! Rows are in the server's order (its pydantic model, or the dict it
//! builds); `tests/contract.rs` compares them with the models recorded in
//! `tests/data/contract/`.

/// A member's JSON type (`null` aside: see [`FieldSpec::null`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonType {
    /// A string (a UUID and a datetime are strings on the wire).
    String,
    /// A number (Python `float`: the server may write an integer spelling).
    Number,
    /// An integer (Python `int`).
    Integer,
    /// `true` or `false`.
    Boolean,
    /// An object.
    Object,
    /// An array.
    Array,
    /// Any JSON value (`Any` in the model).
    Any,
}

impl JsonType {
    /// The JSON Schema name (`string`, `number`, ...; `any` for [`JsonType::Any`]).
    pub const fn as_str(self) -> &'static str {
        match self {
            JsonType::String => "string",
            JsonType::Number => "number",
            JsonType::Integer => "integer",
            JsonType::Boolean => "boolean",
            JsonType::Object => "object",
            JsonType::Array => "array",
            JsonType::Any => "any",
        }
    }
}

/// Whether an honest server always sends the member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sent {
    /// Every response carries the key (FastAPI serialises every field of the
    /// response model, defaults and `None` included; a dict literal has all
    /// its keys): a missing key is not what the server sent.
    Always,
    /// The key may be absent (a member of a newer server than lians-sdk 0.5.0,
    /// or one the server adds only sometimes).
    Optional,
}

/// How a time member is spelled by the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeForm {
    /// pydantic's JSON encoder of a `datetime` (`model_dump(mode="json")`,
    /// FastAPI's response encoder): `YYYY-MM-DDTHH:MM:SS`, then `.ffffff`
    /// (six digits) only when the microseconds are not zero, then `Z` for
    /// UTC, `±HH:MM` for another offset (a sub-minute part dropped:
    /// `+00:00:30` is written `+00:00`), nothing for a naive datetime
    /// (SQLite drops offsets; PostgreSQL keeps UTC). Recorded in
    /// `tests/data/contract/time.json`.
    Encoded,
    /// Python's `datetime.isoformat()` written into a dict as a string:
    /// `+00:00` for UTC (never `Z`), `.ffffff` only when not zero, nothing
    /// for a naive datetime.
    IsoFormat,
}

/// How a list's items are paired with the receipt's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Match {
    /// Item `i` with bound item `i` (and the lengths are equal).
    Index,
    /// Each item with the bound item of the same `id`.
    Id,
}

/// Which member of a neighbour position a field is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NeighbourPart {
    /// `context_<pos>`: its text, hashed to `returned_content_sha256`.
    Text,
    /// `context_<pos>_id`: equal to the bound `id`.
    Id,
    /// `context_<pos>_metadata`: PyJSON-hashed to `returned_metadata_sha256`.
    Metadata,
}

/// Whether and how a member is bound. Paths are `/`-separated keys under
/// the object the containing object is bound to (the receipt for a
/// response, `results[i]` for a memory, `open_conflicts[j]` of the receipt
/// for a conflict).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bind {
    /// Nothing binds it: listed in the report's `unbound_fields`.
    Unbound,
    /// Python `==` with the bound value at the path (numbers by value).
    Value(&'static str),
    /// A hex digest equal (case-insensitively) to the bound one at the path.
    Digest(&'static str),
    /// A time denoting the same instant as the bound one at the path.
    Instant(&'static str),
    /// A string whose SHA256-TEXT is the bound digest at the path (`null`
    /// where that digest is `null`).
    ContentHash(&'static str),
    /// A digest equal to the recomputed receipt hash.
    ReceiptHash,
    /// The receipt itself.
    Receipt,
    /// An array of `of` objects, each bound to an item of the bound array at
    /// `path`, paired `by` index or id.
    Items {
        /// The items' kind.
        of: ObjectKind,
        /// The bound array.
        path: &'static str,
        /// How items pair.
        by: Match,
    },
    /// An object whose members are bound as the `ObjectKind` says.
    Object(ObjectKind),
    /// A neighbour member of a memory, bound to
    /// `context_neighbors[pos]` of its result.
    Neighbour {
        /// The position (`before`, `before_2`, `after`, `after_2`).
        pos: &'static str,
        /// Which member.
        part: NeighbourPart,
    },
    /// An Evidence Pack manifest member: covered by the signature.
    Signed,
    /// `manifest_hash`: SHA-256 of the manifest's PyJSON (recomputed).
    ManifestHash,
    /// `pack_hash`: SHA-256 of manifest + `manifest_hash` + `signature` (recomputed).
    PackHash,
    /// `signature.value`: the Ed25519 signature over the manifest.
    Signature,
    /// A fixed value the verifier checks (`signature.status`, `algorithm`).
    Checked,
    /// Compared with what the caller pins as this `given` field; unbound
    /// when the caller pins nothing.
    Pinned(&'static str),
}

impl Bind {
    /// Whether anything binds the member (always, or when the caller pins it).
    pub const fn is_bound(self) -> bool {
        !matches!(self, Bind::Unbound)
    }
}

/// One member of a response object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldSpec {
    /// The key.
    pub name: &'static str,
    /// Whether the server always sends it.
    pub sent: Sent,
    /// Its JSON type.
    pub ty: JsonType,
    /// Whether it may be `null`.
    pub null: bool,
    /// Whether and how it is bound.
    pub bind: Bind,
    /// Its spelling, for a time.
    pub time: Option<TimeForm>,
}

/// The response objects the contract declares, in the order the body
/// binding visits nested objects (its checks and `unbound_fields` list
/// memories, then the view and its memories, then provenance, then conflicts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// `POST /v1/recall` (`RecallResult`).
    RecallResponse,
    /// `POST /v1/context` (`ContextResult`).
    ContextResponse,
    /// A memory (`MemoryOut`).
    Memory,
    /// `receipt_view` (`lians.memory-receipt-view.v1`).
    ReceiptView,
    /// `receipt_view.memories_used[j]`.
    ViewMemory,
    /// A context body's `provenance` (a dict built by `assemble_context`).
    Provenance,
    /// An open conflict (`ConflictFlagOut`).
    Conflict,
    /// An Evidence Pack v2.
    EvidencePack,
    /// An Evidence Pack's `signature` block.
    PackSignature,
}

impl ObjectKind {
    /// Every kind, in declaration order.
    pub const ALL: [ObjectKind; 9] = [
        ObjectKind::RecallResponse,
        ObjectKind::ContextResponse,
        ObjectKind::Memory,
        ObjectKind::ReceiptView,
        ObjectKind::ViewMemory,
        ObjectKind::Provenance,
        ObjectKind::Conflict,
        ObjectKind::EvidencePack,
        ObjectKind::PackSignature,
    ];

    /// The name of its recording in `tests/data/contract/models.json` (the
    /// server's model name, or the dict's).
    pub const fn model(self) -> &'static str {
        match self {
            ObjectKind::RecallResponse => "RecallResult",
            ObjectKind::ContextResponse => "ContextResult",
            ObjectKind::Memory => "MemoryOut",
            ObjectKind::Conflict => "ConflictFlagOut",
            ObjectKind::Provenance => "ContextProvenance",
            ObjectKind::ReceiptView => "MemoryReceiptView",
            ObjectKind::ViewMemory => "MemoryReceiptViewMemory",
            ObjectKind::EvidencePack => "EvidencePackV2",
            ObjectKind::PackSignature => "EvidencePackSignature",
        }
    }

    /// Its spec.
    pub const fn spec(self) -> &'static ObjectSpec {
        match self {
            ObjectKind::RecallResponse => &RECALL_RESPONSE,
            ObjectKind::ContextResponse => &CONTEXT_RESPONSE,
            ObjectKind::Memory => &MEMORY,
            ObjectKind::Conflict => &CONFLICT,
            ObjectKind::Provenance => &PROVENANCE,
            ObjectKind::ReceiptView => &RECEIPT_VIEW,
            ObjectKind::ViewMemory => &VIEW_MEMORY,
            ObjectKind::EvidencePack => &EVIDENCE_PACK,
            ObjectKind::PackSignature => &PACK_SIGNATURE,
        }
    }
}

/// One response object: its members, and what binds a member it does not list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjectSpec {
    /// Which object.
    pub kind: ObjectKind,
    /// Its members, in the server's order.
    pub fields: &'static [FieldSpec],
    /// How a member not in `fields` is bound: [`Bind::Unbound`], except in an
    /// Evidence Pack, whose signature covers every member but the three
    /// control fields.
    pub rest: Bind,
}

impl ObjectSpec {
    /// The member named `name`.
    pub fn field(&self, name: &str) -> Option<&'static FieldSpec> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// How the member `name` is bound (`rest` for a member not listed).
    pub fn bind_of(&self, name: &str) -> Bind {
        self.field(name).map_or(self.rest, |f| f.bind)
    }

    /// [`ObjectSpec::bind_of`] for the members of one object in turn, trying
    /// the row after the last one found first: a real body lists its members
    /// in the server's order, so each lookup is one comparison.
    pub fn lookup(&self) -> Lookup {
        Lookup { spec: self.fields, rest: self.rest, next: 0 }
    }

    /// The members the server always sends, in order.
    pub fn always_sent(&self) -> impl Iterator<Item = &'static FieldSpec> {
        self.fields.iter().filter(|f| f.sent == Sent::Always)
    }

    /// The bound members, in order.
    pub fn bound(&self) -> impl Iterator<Item = &'static FieldSpec> {
        self.fields.iter().filter(|f| f.bind.is_bound())
    }
}

/// Key lookups over one object's members ([`ObjectSpec::lookup`]).
pub struct Lookup {
    spec: &'static [FieldSpec],
    rest: Bind,
    next: usize,
}

impl Lookup {
    /// How the member `name` is bound.
    pub fn bind_of(&mut self, name: &str) -> Bind {
        self.row(name).map_or(self.rest, |(_, f)| f.bind)
    }

    /// The row of the member `name` (its index in the object's members), if any.
    pub fn row(&mut self, name: &str) -> Option<(usize, &'static FieldSpec)> {
        let n = self.spec.len();
        for k in 0..n {
            let i = (self.next + k) % n;
            if self.spec[i].name == name {
                self.next = i + 1;
                return Some((i, &self.spec[i]));
            }
        }
        None
    }

    /// How a member no row names is bound (the object's `rest`).
    pub fn rest(&self) -> Bind {
        self.rest
    }
}

/// A memory's neighbour members at one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NeighbourSpec {
    /// The position: the key of `results[i].context_neighbors`.
    pub pos: &'static str,
    /// The text member (`context_<pos>`).
    pub text: &'static str,
    /// The id member (`context_<pos>_id`).
    pub id: &'static str,
    /// The metadata member (`context_<pos>_metadata`).
    pub metadata: &'static str,
}

impl NeighbourSpec {
    /// The member's key.
    pub const fn key(&self, part: NeighbourPart) -> &'static str {
        match part {
            NeighbourPart::Text => self.text,
            NeighbourPart::Id => self.id,
            NeighbourPart::Metadata => self.metadata,
        }
    }
}

/// The neighbour positions a recall can attach (`include_context`).
pub const NEIGHBOURS: [NeighbourSpec; 4] = [
    NeighbourSpec {
        pos: "before",
        text: "context_before",
        id: "context_before_id",
        metadata: "context_before_metadata",
    },
    NeighbourSpec {
        pos: "before_2",
        text: "context_before_2",
        id: "context_before_2_id",
        metadata: "context_before_2_metadata",
    },
    NeighbourSpec { pos: "after", text: "context_after", id: "context_after_id", metadata: "context_after_metadata" },
    NeighbourSpec {
        pos: "after_2",
        text: "context_after_2",
        id: "context_after_2_id",
        metadata: "context_after_2_metadata",
    },
];

/// The members of a bound `context_neighbors[pos]` entry the body binding reads.
pub const NEIGHBOUR_ENTRY: [(NeighbourPart, &str); 3] = [
    (NeighbourPart::Id, "id"),
    (NeighbourPart::Text, "returned_content_sha256"),
    (NeighbourPart::Metadata, "returned_metadata_sha256"),
];

// Row builders (const: the tables are data).
const fn f(name: &'static str, ty: JsonType, null: bool, bind: Bind) -> FieldSpec {
    FieldSpec { name, sent: Sent::Always, ty, null, bind, time: None }
}
const fn t(name: &'static str, null: bool, form: TimeForm, bind: Bind) -> FieldSpec {
    FieldSpec { name, sent: Sent::Always, ty: JsonType::String, null, bind, time: Some(form) }
}
const fn optional(row: FieldSpec) -> FieldSpec {
    FieldSpec { sent: Sent::Optional, ..row }
}
const fn nb(i: usize, part: NeighbourPart) -> FieldSpec {
    let n = NEIGHBOURS[i];
    let ty = match part {
        NeighbourPart::Metadata => JsonType::Object,
        _ => JsonType::String,
    };
    FieldSpec {
        name: n.key(part),
        sent: Sent::Always,
        ty,
        null: true,
        bind: Bind::Neighbour { pos: n.pos, part },
        time: None,
    }
}

use Bind::Unbound;
use JsonType::{Array, Boolean, Integer, Number, Object, String as Str};
use TimeForm::{Encoded, IsoFormat};

const MEMORIES: Bind = Bind::Items { of: ObjectKind::Memory, path: "results", by: Match::Index };
const VIEW: Bind = Bind::Object(ObjectKind::ReceiptView);

/// `RecallResult` (`POST /v1/recall`), bound to a `lians.recall-receipt.v2`.
pub const RECALL_RESPONSE: ObjectSpec = ObjectSpec {
    kind: ObjectKind::RecallResponse,
    rest: Unbound,
    fields: &[
        f("memories", Array, false, MEMORIES),
        t("as_of", true, Encoded, Bind::Instant("as_of")),
        f("total_candidates", Integer, false, Unbound),
        f("retrieval_degraded", Boolean, false, Bind::Value("retrieval_degraded")),
        f("token_estimate", Integer, false, Unbound),
        f("strategy", Str, false, Bind::Value("policy/strategy")),
        f("query_variants", Array, false, Unbound),
        f("retrieval_confidence", Number, false, Unbound),
        f("latency_ms", Number, false, Unbound),
        f("mode", Str, false, Bind::Value("policy/mode")),
        f("latency_budget_ms", Number, false, Unbound),
        f("deadline_exceeded", Boolean, false, Unbound),
        f("receipt_sha256", Str, false, Bind::ReceiptHash),
        f("receipt", Object, false, Bind::Receipt),
        f("provenance_coverage", Number, false, Unbound),
        optional(f("receipt_view", Object, true, VIEW)),
    ],
};

/// `ContextResult` (`POST /v1/context`), bound to a `lians.context-receipt.v2`.
pub const CONTEXT_RESPONSE: ObjectSpec = ObjectSpec {
    kind: ObjectKind::ContextResponse,
    rest: Unbound,
    fields: &[
        f("context", Str, false, Bind::ContentHash("context_sha256")),
        f("context_text", Str, false, Bind::ContentHash("context_sha256")),
        f("memories", Array, false, MEMORIES),
        f("token_estimate", Integer, false, Unbound),
        f("truncated", Boolean, false, Unbound),
        f("retrieval_degraded", Boolean, false, Bind::Value("retrieval_degraded")),
        f("strategy", Str, false, Bind::Value("retrieval_policy/strategy")),
        f("query_variants", Array, false, Unbound),
        f("retrieval_confidence", Number, false, Unbound),
        f("recall_latency_ms", Number, false, Unbound),
        f("mode", Str, false, Bind::Value("retrieval_policy/mode")),
        f("receipt_sha256", Str, false, Bind::ReceiptHash),
        f("receipt", Object, false, Bind::Receipt),
        f("provenance_coverage", Number, false, Unbound),
        f("deadline_exceeded", Boolean, false, Unbound),
        f(
            "open_conflicts",
            Array,
            false,
            Bind::Items { of: ObjectKind::Conflict, path: "open_conflicts", by: Match::Index },
        ),
        f("open_conflicts_total", Integer, false, Unbound),
        f("excluded", Array, false, Bind::Value("excluded")),
        f("budget", Object, false, Bind::Value("budget")),
        f("provenance", Object, false, Bind::Object(ObjectKind::Provenance)),
        f("learning_applied", Boolean, false, Unbound),
        f("ranking_policy", Str, false, Bind::Value("ranking_policy")),
        optional(f("receipt_view", Object, true, VIEW)),
    ],
};

/// `MemoryOut`: `memories[i]`, bound to the receipt's `results[i]`.
pub const MEMORY: ObjectSpec = ObjectSpec {
    kind: ObjectKind::Memory,
    rest: Unbound,
    fields: &[
        f("id", Str, false, Bind::Value("id")),
        f("namespace", Str, false, Unbound),
        f("agent_id", Str, false, Unbound),
        f("content", Str, true, Bind::ContentHash("content_hash")),
        f("subject_id", Str, true, Unbound),
        t("event_time", false, Encoded, Bind::Instant("event_time")),
        t("ingestion_time", false, Encoded, Unbound),
        t("valid_from", false, Encoded, Unbound),
        t("valid_to", true, Encoded, Unbound),
        f("superseded_by", Str, true, Unbound),
        f("supersession_confidence", Number, true, Unbound),
        f("barrier_group", Str, true, Unbound),
        f("importance", Number, false, Unbound),
        f("source", Str, true, Bind::Value("source")),
        f("content_hash", Str, false, Bind::Digest("content_hash")),
        t("erased_at", true, Encoded, Unbound),
        f("metadata", Object, false, Unbound),
        f("score", Number, true, Bind::Value("score")),
        f("score_breakdown", Object, true, Bind::Value("score_breakdown")),
        nb(0, NeighbourPart::Text),
        nb(2, NeighbourPart::Text),
        nb(0, NeighbourPart::Id),
        nb(2, NeighbourPart::Id),
        nb(0, NeighbourPart::Metadata),
        nb(2, NeighbourPart::Metadata),
        nb(1, NeighbourPart::Text),
        nb(3, NeighbourPart::Text),
        nb(1, NeighbourPart::Id),
        nb(3, NeighbourPart::Id),
        nb(1, NeighbourPart::Metadata),
        nb(3, NeighbourPart::Metadata),
    ],
};

/// `ConflictFlagOut`: `open_conflicts[j]` of a context body, bound to the
/// receipt's `open_conflicts[j]`.
pub const CONFLICT: ObjectSpec = ObjectSpec {
    kind: ObjectKind::Conflict,
    rest: Unbound,
    fields: &[
        f("id", Str, false, Bind::Value("id")),
        f("namespace", Str, false, Unbound),
        f("agent_id", Str, false, Unbound),
        f("memory_a_id", Str, false, Bind::Value("memory_a_id")),
        f("memory_b_id", Str, false, Bind::Value("memory_b_id")),
        f("memory_a_content", Str, true, Bind::ContentHash("memory_a_content_sha256")),
        f("memory_b_content", Str, true, Bind::ContentHash("memory_b_content_sha256")),
        f("memory_a_source", Str, true, Unbound),
        f("memory_b_source", Str, true, Unbound),
        t("memory_a_event_time", false, Encoded, Unbound),
        t("memory_b_event_time", false, Encoded, Unbound),
        f("confidence", Number, false, Unbound),
        t("detected_at", false, Encoded, Unbound),
        f("status", Str, false, Unbound),
        t("resolved_at", true, Encoded, Unbound),
        f("resolver_note", Str, true, Unbound),
    ],
};

/// A context body's `provenance` (a dict literal of `assemble_context`).
/// lians-sdk 0.5.0 writes all seven members; the receipt corpus's context
/// bodies (another real server) only the two hashes: the five unbound ones
/// are optional.
pub const PROVENANCE: ObjectSpec = ObjectSpec {
    kind: ObjectKind::Provenance,
    rest: Unbound,
    fields: &[
        optional(t("as_of", true, IsoFormat, Unbound)),
        optional(f("total_candidates", Integer, false, Unbound)),
        optional(f("query_variants", Array, false, Unbound)),
        f("recall_receipt_sha256", Str, false, Bind::Digest("retrieval_receipt_sha256")),
        f("context_receipt_sha256", Str, false, Bind::ReceiptHash),
        optional(f("provenance_coverage", Number, false, Unbound)),
        optional(f("mode", Str, false, Unbound)),
    ],
};

/// `receipt_view` (`lians.memory-receipt-view.v1`, spec `ranking-receipts.md` §5): a projection
/// outside every hash, of which the receipt binds its hash pin and the
/// memories it names. Not in lians-sdk 0.5.0's models (its server does not
/// send it); recorded from the real samples of a later server.
pub const RECEIPT_VIEW: ObjectSpec = ObjectSpec {
    kind: ObjectKind::ReceiptView,
    rest: Unbound,
    fields: &[
        f("schema_version", Str, false, Unbound),
        f("receipt_sha256", Str, false, Bind::ReceiptHash),
        f("receipt_kind", Str, false, Unbound),
        f("integrity_status", Str, false, Unbound),
        f("retrieval_status", Str, false, Unbound),
        f("headline", Str, false, Unbound),
        t("reference_time", true, Encoded, Unbound),
        t("as_of", true, Encoded, Unbound),
        f("memories_used", Array, false, Bind::Items { of: ObjectKind::ViewMemory, path: "results", by: Match::Index }),
        f("memories_excluded", Array, false, Unbound),
        f("exclusion_scope", Str, false, Unbound),
        f("open_conflicts", Integer, false, Unbound),
        f("token_estimate", Integer, false, Unbound),
        f("provenance_coverage", Number, false, Unbound),
    ],
};

/// `receipt_view.memories_used[j]`, bound to the receipt's `results[j]` (the same count, order and ids).
pub const VIEW_MEMORY: ObjectSpec = ObjectSpec {
    kind: ObjectKind::ViewMemory,
    rest: Unbound,
    fields: &[
        f("id", Str, false, Bind::Value("id")),
        f("content", Str, true, Bind::ContentHash("content_hash")),
        f("source", Str, true, Bind::Value("source")),
        t("event_time", false, Encoded, Bind::Instant("event_time")),
        t("valid_from", false, Encoded, Unbound),
        t("valid_to", true, Encoded, Unbound),
        f("score", Number, true, Bind::Value("score")),
        f("reasons", Array, false, Unbound),
    ],
};

/// An Evidence Pack v2 (`GET /v1/decisions/{id}/evidence-pack?version=v2`):
/// the manifest (every member but the three control fields) is signed.
pub const EVIDENCE_PACK: ObjectSpec = ObjectSpec {
    kind: ObjectKind::EvidencePack,
    rest: Bind::Signed,
    fields: &[
        f("schema", Str, false, Bind::Signed),
        t("generated_at", false, IsoFormat, Bind::Signed),
        f("decision", Object, false, Bind::Signed),
        f("envelope", Object, false, Bind::Signed),
        f("completeness", Object, false, Bind::Signed),
        f("knowledge_snapshot", Array, false, Bind::Signed),
        f("cited_evidence", Array, false, Bind::Signed),
        f("evidence_graph", Array, false, Bind::Signed),
        f("audit_chain", Object, false, Bind::Signed),
        f("retention", Object, true, Bind::Signed),
        f("verification_policy", Object, false, Bind::Signed),
        f("manifest_hash", Str, false, Bind::ManifestHash),
        f("signature", Object, false, Bind::Object(ObjectKind::PackSignature)),
        f("pack_hash", Str, false, Bind::PackHash),
    ],
};

/// An Evidence Pack's `signature` block (`sign_evidence_manifest`): outside
/// the signed manifest; `pack_hash` covers it, but anyone can recompute that.
pub const PACK_SIGNATURE: ObjectSpec = ObjectSpec {
    kind: ObjectKind::PackSignature,
    rest: Unbound,
    fields: &[
        f("status", Str, false, Bind::Checked),
        f("algorithm", Str, true, Bind::Checked),
        f("key_id", Str, true, Bind::Pinned("expected_key_id")),
        f("public_key", Str, true, Bind::Pinned("trusted_public_key")),
        f("value", Str, true, Bind::Signature),
        f("identity_note", Str, false, Unbound),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_object_has_distinct_members_and_its_own_kind() {
        for kind in ObjectKind::ALL {
            let spec = kind.spec();
            assert_eq!(spec.kind, kind);
            for (i, row) in spec.fields.iter().enumerate() {
                assert!(spec.fields[..i].iter().all(|r| r.name != row.name), "{kind:?}.{}", row.name);
                assert_eq!(row.time.is_some(), row.time.is_some() && row.ty == JsonType::String);
            }
        }
        assert_eq!(MEMORY.bind_of("importance"), Bind::Unbound);
        assert_eq!(MEMORY.bind_of("nope"), Bind::Unbound);
        assert_eq!(EVIDENCE_PACK.bind_of("extra"), Bind::Signed);
        assert_eq!(MEMORY.fields.iter().filter(|r| matches!(r.bind, Bind::Neighbour { .. })).count(), 12);
    }

    #[test]
    fn the_lookup_finds_members_in_any_order() {
        let mut l = MEMORY.lookup();
        for name in ["id", "namespace", "score", "id", "context_after_2_metadata", "zzz", "content"] {
            assert_eq!(l.bind_of(name), MEMORY.bind_of(name), "{name}");
        }
    }
}
