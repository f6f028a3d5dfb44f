// Random writes that a Lians server in enforce mode holds for review (HTTP 202):
// PII (SSN, e-mail, card number), PHI (MRN, NPI) and MNPI, with and without
// a caller importance, public metadata and a metadata trust claim.
//
//   const writes = heldWrites(rng(seed), agentId);  // [{body, tags, inputs}]
//   body: the POST /v1/memories body; tags: the risk tags the server must report;
//   inputs: {importance, publicMetadata, trustClaim}: what the list route will not return.

const FIRST = ['Ana', 'Bram', 'Chloe', 'Dev', 'Emre', 'Fatou', 'Goran', 'Hana', 'Ivo', 'Jun'];
const LAST = ['Okafor', 'Lindqvist', 'Moreau', 'Sato', 'Kowalski', 'Duarte', 'Novak', 'Haddad'];
const PLACES = ['Rotterdam', 'Osaka', 'Lyon', 'Denver', 'Pune', 'Valencia', 'Gdansk', 'Porto'];
const THINGS = ['warehouse lease', 'carrier contract', 'pallet audit', 'dock redesign', 'fleet renewal'];
const CONDITIONS = ['asthma', 'type 2 diabetes', 'hypertension', 'migraine', 'a fractured wrist'];
const TICKERS = ['ACME', 'BOLT', 'CRUX', 'DYNA', 'EMBR'];
const SOURCES = [undefined, 'user_provided', 'agent_inference', 'tool_output', 'crm_import'];

const digits = (r, n) => Array.from({ length: n }, () => r.int(0, 9)).join('');

/** A 16-digit number that passes the Luhn check (the server's card detector needs it). */
function luhnCard(r) {
  const body = [4, ...Array.from({ length: 14 }, () => r.int(0, 9))];
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    let d = body[14 - i];
    if (i % 2 === 0) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return [...body, (10 - (sum % 10)) % 10].join('');
}

const CONTENT = {
  ssn: (r, n, p) => [`${n}'s SSN is ${r.int(100, 899)}-${digits(r, 2).replace(/^00/, '12')}-${digits(r, 4).replace(/^0000/, '4321')}, noted during the ${p} onboarding call`, ['pii:ssn']],
  email: (r, n, p) => [`Reach ${n} at ${n.split(' ')[0].toLowerCase()}.${r.int(1, 99)}@example-${r.int(1, 9)}.com about the ${p} ${r.pick(THINGS)}`, ['pii:email']],
  card: (r, n, p) => [`Corporate card ${luhnCard(r)} paid the ${p} ${r.pick(THINGS)} deposit for ${n}`, ['pii:credit_card']],
  mrn: (r, n, p) => [`Patient ${n}, MRN ${digits(r, 7)}, follow-up for ${r.pick(CONDITIONS)} at the ${p} clinic`, ['phi:mrn']],
  npi: (r, n, p) => [`Referring physician NPI ${r.int(1, 9)}${digits(r, 9)} signed ${n}'s ${r.pick(CONDITIONS)} referral in ${p}`, ['phi:npi']],
  mnpi_earnings: (r, n, p) => [`Embargoed earnings for ${r.pick(TICKERS)}: revenue ${r.int(3, 40)}% above guidance, per ${n} in ${p}`, ['mnpi']],
  mnpi_deal: (r, n, p) => [`${r.pick(TICKERS)} is in talks on an unannounced acquisition of a ${p} logistics firm, ${n} told the desk`, ['mnpi']],
};

// Every risk kind, with each kind of input the list route drops.
const PLAN = [
  ['ssn', {}],
  ['email', { importance: 0.8 }],
  ['card', { publicMetadata: true }],
  ['mrn', { importance: 0.3 }],
  ['npi', { importance: 0.95, publicMetadata: true }],
  ['mnpi_earnings', { trustClaim: 'trusted_source' }],
  ['mnpi_deal', { importance: 0.7, trustClaim: 'system_verified', publicMetadata: true }],
  ['ssn', { privateMetadataOnly: true }],
  ['email', { importance: 0.5, publicMetadata: true, trustClaim: 'trusted_source' }],
  ['mrn', {}],
  ['mnpi_deal', {}],
  ['npi', { importance: 0.6 }],
];

export function heldWrites(r, agentId, eventTime = () => new Date().toISOString().replace('Z', '+00:00')) {
  return PLAN.map(([kind, opts]) => {
    const name = `${r.pick(FIRST)} ${r.pick(LAST)}`;
    const [content, tags] = CONTENT[kind](r, name, r.pick(PLACES));
    const body = { agent_id: agentId, content, event_time: eventTime() };
    const source = r.pick(SOURCES);
    if (source !== undefined) body.source = source;
    if (opts.importance !== undefined) body.importance = opts.importance;
    const metadata = {};
    if (opts.publicMetadata) Object.assign(metadata, { project: r.pick(PLACES).toLowerCase(), ticket: r.int(100, 9999), weight: r.pick([1, 0.5, 2.25]) });
    if (opts.trustClaim) metadata[r.next() < 0.5 ? 'trust_level' : 'source_trust'] = opts.trustClaim;
    if (opts.privateMetadataOnly) metadata._trace = `t-${r.int(1, 1e6)}`;
    if (Object.keys(metadata).length) body.metadata = metadata;
    return {
      kind,
      body,
      tags,
      inputs: { importance: opts.importance ?? null, publicMetadata: Boolean(opts.publicMetadata), trustClaim: opts.trustClaim ?? null, privateMetadataOnly: Boolean(opts.privateMetadataOnly) },
    };
  });
}

/** Did the write carry anything the list route drops (and a re-score must infer)? */
export const hasHiddenInputs = (w) => w.body.importance !== undefined || w.body.metadata !== undefined;

/**
 * `n` held writes for a queue longer than the list route's page (500): every
 * risk kind in turn, plain bodies (no importance or metadata), each content
 * its own (a running number and a fresh name).
 */
export function manyHeldWrites(r, agentId, n, eventTime = () => new Date().toISOString().replace('Z', '+00:00')) {
  const kinds = Object.keys(CONTENT);
  return Array.from({ length: n }, (_, i) => {
    const kind = kinds[i % kinds.length];
    const [content, tags] = CONTENT[kind](r, `${r.pick(FIRST)} ${r.pick(LAST)}`, r.pick(PLACES));
    return { kind, tags, body: { agent_id: agentId, content: `Item ${i + 1}: ${content}`, event_time: eventTime() } };
  });
}
