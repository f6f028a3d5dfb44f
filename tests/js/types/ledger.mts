// Type-level tests of the consistency ledger's declarations (checked by `tsc --noEmit`; never run).
import { createLedger, compareLedgers, createVerifyingFetch, LiansVerificationError } from "lians-score";
import type { Ledger, LedgerAlarm, LedgerInvariant, Exchange, LedgerRecordResult } from "lians-score";

interface MyResponse { ok: boolean; status: number; json(): Promise<unknown>; text(): Promise<string>; arrayBuffer(): Promise<ArrayBuffer> }
declare function myFetch(input: string | { href: string }, init?: { method?: string; body?: string }): Promise<MyResponse>;

export async function ledgerTypes(exchange: Exchange): Promise<string[]> {
  const ledger: Ledger = await createLedger({ path: "ledger.db", skewMs: 5_000 });
  const result: LedgerRecordResult = await ledger.record(exchange);
  const invariants: LedgerInvariant[] = result.alarms.map((a: LedgerAlarm) => a.invariant);
  const receipt: string | null = result.alarms[0]?.current.receipt_sha256 ?? null;
  void receipt;
  const other = await createLedger({ name: "browser-ledger" });
  const { differ } = await compareLedgers(ledger, await other.fingerprints());
  const f = createVerifyingFetch(myFetch, { baseUrl: "https://lians.example", ledger, onInvalid: "report" });
  const res = await f("https://lians.example/v1/recall", { method: "POST", body: "{}" });
  const alarms: LedgerAlarm[] | undefined = res.liansLedger?.alarms;
  void alarms;
  try {
    await f("https://lians.example/v1/recall");
  } catch (e) {
    if (e instanceof LiansVerificationError && e.alarms) return e.alarms.map((a) => a.memory_id ?? "");
  }
  // @ts-expect-error: not an invariant the ledger has
  const wrong: LedgerInvariant = "I11";
  void wrong;
  return [...invariants, ...differ];
}
