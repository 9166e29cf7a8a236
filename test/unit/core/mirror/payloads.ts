// Realistic v1 payloads (shapes of interface-v1.md) for the mirror and alert tests.
import type { Protocol } from '../../../../main/core/signals/primitives.ts';
import type { SignalPayloads } from '../../../../main/core/signals/catalog.ts';
import { openMirror } from '../../../../main/core/mirror/openMirror.ts';
import type { OpenMirrorOptions } from '../../../../main/core/mirror/openMirror.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { STATUS_MODEL } from '../../../../main/core/status/statusModel.ts';

export const DOMAIN_ID = 4211;
export const FQDN = 'example.com';

/** A settable clock. */
export function fakeClock(start = '2025-03-01T10:00:00Z') {
  let now = Date.parse(start);
  return {
    now: () => now,
    set: (iso: string) => {
      now = Date.parse(iso);
    },
  };
}

/** A mirror with one account and its domain list stored. */
export function mirrorWithDomain(file = ':memory:', options: OpenMirrorOptions = {}) {
  const clock = fakeClock();
  const mirror = openMirror(file, { clock, status: STATUS_MODEL, ...options });
  const account = mirror.upsertAccount({ label: 'Acme MSP', baseUrl: 'https://app.example.net/api/v1' });
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: domainsPayload(),
    fetchedAt: clock.now(),
  });
  return { mirror, account, accountId: account.id, clock };
}

export function domainsPayload(): SignalPayloads['domains'] {
  return [
    { id: DOMAIN_ID, fqdn: FQDN, status: 'active', group_id: null },
    { id: 4212, fqdn: 'example.org', status: 'active', group_id: 3 },
  ];
}

type Flags = Record<Protocol, boolean>;
export const ALL_PASSING: Flags = { dmarc: true, spf: true, mta_sts: true, tls_rpt: true, bimi: true };

export function health(
  scannedAt: string,
  flags: Partial<Flags> = {},
  result = 'Protected',
): SignalPayloads['health'] {
  const protocols = { ...ALL_PASSING, ...flags };
  return {
    domain_id: DOMAIN_ID,
    fqdn: FQDN,
    source: 'guard_history',
    result,
    mail_provider: 'Google Workspace',
    protocols,
    protocols_passing: Object.values(protocols).filter(Boolean).length,
    total_protocols: 5,
    dmarc_record: 'v=DMARC1; p=reject; rua=mailto:dmarc@example.com',
    scanned_at: scannedAt,
  };
}

export function dnsEvent(
  id: number,
  recordType: Protocol,
  action: 'connected' | 'disconnected',
  occurredAt: string,
): SignalPayloads['dns_changes'][number] {
  return {
    id,
    record_type: recordType,
    action,
    record_value: action === 'connected' ? 'v=spf1 include:_spf.google.com -all' : null,
    status_before: action === 'connected' ? 'disconnected' : 'connected',
    status_after: action,
    occurred_at: occurredAt,
  };
}

export function score(value: number, computedAt: string): SignalPayloads['security_score'] {
  return {
    domain_id: DOMAIN_ID,
    fqdn: FQDN,
    score: value,
    max_score: 10,
    interpretation: value >= 8 ? 'excellent' : 'fair',
    message: 'Computed from the latest scan',
    computed_at: computedAt,
  };
}

export function source(
  name: string,
  threat: boolean,
  total = 120,
): SignalPayloads['failed_sources']['failed_sources'][number] {
  return {
    source_name: name,
    total_count: total,
    dmarc: { pass: 0, fail: total },
    compliance: 0,
    status: 'failing',
    is_registered_threat: threat,
  };
}

export function failedSources(...sources: ReturnType<typeof source>[]): SignalPayloads['failed_sources'] {
  return { domain_id: DOMAIN_ID, fqdn: FQDN, failed_sources: sources };
}

/** Write a per-domain signal of example.com at a time. */
export function write<S extends keyof SignalPayloads>(
  mirror: Mirror,
  accountId: number,
  signal: S,
  payload: SignalPayloads[S],
  fetchedAt: string,
) {
  return mirror.writeSignal({ accountId, domainId: DOMAIN_ID, signal, payload, fetchedAt });
}

/**
 * example.com with a baseline: DNS feed fetched once (SPF connected long ago), one scan, all passing — the
 * starting point of the status tests.
 */
export function passingBaseline(file = ':memory:') {
  const m = mirrorWithDomain(file);
  write(
    m.mirror,
    m.accountId,
    'dns_changes',
    [dnsEvent(100, 'spf', 'connected', '2025-02-01T00:00:00Z')],
    '2025-03-01T08:00:00Z',
  );
  write(m.mirror, m.accountId, 'health', health('2025-03-01T08:00:00Z'), '2025-03-01T08:01:00Z');
  return m;
}
