// The ledger's fixtures (tests/data/ledger/, recorded by scripts/ledger/record.mjs)
// as exchange lists, for every runtime that replays them (Node, Chromium, workerd):
// no imports, text in, exchanges out.

/** The exchanges of a JSONL text. */
export function parseLines(text) {
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}

/** honest.jsonl with a lie file applied: `"replaces": N` stands for line N; the rest follows. */
export function assemble(honest, lie) {
  const out = honest.map((e) => e);
  for (const e of lie) {
    if (e.replaces !== undefined) {
      const { replaces, ...exchange } = e;
      out[replaces - 1] = exchange;
    } else out.push(e);
  }
  return out;
}

/** Replay exchanges into a ledger: { alarms: [{invariant, memory_id, line}], invalid, recorded }. */
export async function replay(ledger, exchanges) {
  const alarms = [];
  let invalid = 0;
  let recorded = 0;
  for (const [i, e] of exchanges.entries()) {
    const r = await ledger.record(e);
    if (r.recorded) recorded++;
    if (r.verification && !r.verification.valid) invalid++;
    for (const a of r.alarms) alarms.push({ invariant: a.invariant, memory_id: a.memory_id, line: i + 1 });
  }
  return { alarms, invalid, recorded };
}

/** The sorted distinct invariants of a replay's alarms. */
export const invariantsOf = (alarms) => [...new Set(alarms.map((a) => a.invariant))].sort();
