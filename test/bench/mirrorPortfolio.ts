/** A portfolio in an in-memory mirror, as the benches of the planner read it (the production job book's input). */
import { openMirror } from '../support/openMirror.ts';
import type { Mirror } from '../../main/core/mirror/types.ts';
import { notFoundMeaning, type SignalName } from '../../main/core/signals/catalog.ts';
import { SIGNAL_DEFINITIONS } from '../../main/core/signals/registry.ts';

const START = Date.parse('2026-06-15T00:00:00Z');

/** The cheapest payload each signal accepts (the planning does not read it). */
function payload(signal: SignalName, id: number, at: number): unknown {
  const names = { domain_id: id, fqdn: `d${id}.example` };
  const iso = new Date(at).toISOString();
  if (signal === 'health')
    return {
      ...names,
      source: 'guard_history',
      result: 'Protected',
      protocols: { dmarc: true, spf: true, mta_sts: false, tls_rpt: false, bimi: false },
      protocols_passing: 2,
      total_protocols: 5,
      scanned_at: iso,
    };
  if (signal === 'security_score') return { ...names, score: 4, max_score: 10, computed_at: iso };
  if (signal === 'failed_sources') return { ...names, failed_sources: [] };
  if (signal === 'score_history') return { ...names, history: [] };
  if (signal === 'dns_current') return { ...names, protocols: {} };
  if (signal === 'domain_status') return { ...names, verified: true, protocols: {} };
  // A signal whose 404 means "not set up" takes what the fetcher passes then: null, or each part null.
  if (notFoundMeaning(signal) === 'absent') {
    const parts = SIGNAL_DEFINITIONS[signal].fetch.parts;
    return parts ? Object.fromEntries(Object.keys(parts).map((key) => [key, null])) : null;
  }
  return [];
}

export function write(mirror: Mirror, accountId: number, signal: SignalName, id: number, at: number) {
  mirror.writeSignal({
    accountId,
    domainId: id,
    signal,
    payload: payload(signal, id, at),
    fetchedAt: at,
  } as Parameters<Mirror['writeSignal']>[0]);
}

export function portfolio(n: number, start = START) {
  let now = start;
  const mirror = openMirror(':memory:', { clock: { now: () => now } });
  const { id: accountId } = mirror.upsertAccount({ label: 'bench', baseUrl: 'http://bench/api/v1' });
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  mirror.writeSignal({
    accountId,
    domainId: null,
    signal: 'domains',
    payload: ids.map((id) => ({ id, fqdn: `d${id}.example` })),
    fetchedAt: now,
  });
  return { mirror, accountId, ids, clock: { get: () => now, set: (t: number) => (now = t) } };
}
