// Type-level test of `lians-score/guard` (checked by `tsc --noEmit`; never run).
import { createGuard, GUARD_DEFAULTS, HEADER_AUDIT } from "lians-score/guard";
import type { Guard, GuardExchange, GuardDecision } from "lians-score/guard";
import * as verify from "lians-score/verify";
import * as full from "lians-score";

const guard: Guard = createGuard(verify, { upstream: "https://lians.example", maxBody: GUARD_DEFAULTS.maxBody, timeoutMs: 5000 });
createGuard(full, {
  upstream: { href: "https://lians.example/api" },
  audit: true,
  onExchange: (exchange: GuardExchange, info) => {
    const body: string | null = exchange.request.body;
    const valid: boolean = info.report.valid;
    void [body, valid, info.audit?.consistent];
    return valid ? undefined : { error: "refused" };
  },
});
const endpoint: "recall" | "context" | null = guard.endpoint("POST", "/v1/recall");
const decision: Promise<GuardDecision> = guard.check({
  endpoint: "recall", method: "POST", url: "https://lians.example/v1/recall", requestBody: new Uint8Array(), status: 200,
  responseBody: new Uint8Array(), tSent: "2026-01-01T00:00:00+00:00", tRecv: "2026-01-01T00:00:01+00:00",
});
const header: "x-lians-audit" = HEADER_AUDIT;
void [endpoint, decision, header];
// @ts-expect-error upstream is required
createGuard(verify, {});
