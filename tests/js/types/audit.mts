// Type-level tests of the recall-audit declarations (checked by `tsc --noEmit`; never run).
import { auditRecall } from "lians-score";
import type { AuditReport, AuditFailure, AuditCheck, RetrievalInterval } from "lians-score";

declare const wire: string;
const report: AuditReport = auditRecall(wire, { query: "Acme revenue" });
auditRecall(new Uint8Array(0));
auditRecall(wire, null);
auditRecall(wire, '{"query":"q"}');
const consistent: boolean = report.consistent;
const codes: AuditFailure[] = report.failures;
const first: AuditCheck | undefined = report.results[0]?.checks[0];
const interval: RetrievalInterval | null = report.results[0]?.retrieval_score ?? null;
const variant: number | null = report.results[0]?.query_variant ?? null;
const statement: string[] = report.cannot_audit;
// @ts-expect-error a parsed object is not wire text
auditRecall({ memories: [] });
// @ts-expect-error the query is a string
auditRecall(wire, { query: 5 });
// @ts-expect-error not a failure code
const wrong: AuditFailure = "valid";
void [consistent, codes, first, interval, variant, statement, wrong];

export {};
