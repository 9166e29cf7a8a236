import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SIGNAL_NAMES,
  SIGNALS,
  type SignalName,
  type SignalPayloads,
} from '../../../../main/core/signals/catalog.ts';
import { decodeSignal } from '../../../../main/core/signals/decode.ts';
import { dnsEvent, domainsPayload, failedSources, health, score, source } from '../mirror/payloads.ts';

/** One realistic `data` per signal, shaped as interface-v1.md describes it. */
const SAMPLES: { [S in SignalName]: SignalPayloads[S] } = {
  domains: domainsPayload(),
  health: health('2025-03-01T08:00:00Z', { bimi: false }),
  health_history: [
    {
      id: 9,
      result: 'Protected',
      mail_provider: 'Microsoft 365',
      protocols: { dmarc: true, spf: true, mta_sts: false, tls_rpt: false, bimi: false },
      protocols_passing: 2,
      total_protocols: 5,
      scanned_at: '2025-02-28T08:00:00Z',
    },
  ],
  security_score: score(8, '2025-03-01T08:00:00Z'),
  score_history: {
    domain_id: 1,
    fqdn: 'example.com',
    max_score: 10,
    note: 'derived',
    history: [
      {
        derived_score: 8,
        protocols_passing: 4,
        total_protocols: 5,
        result: 'Protected',
        scanned_at: '2025-03-01T08:00:00Z',
      },
    ],
  },
  failed_sources: failedSources(source('phish.example', true)),
  sending_services: {
    domain_id: 1,
    fqdn: 'example.com',
    services: [
      {
        source_name: 'Google',
        total_count: 10,
        dmarc: { pass: 10, fail: 0 },
        compliance: 100,
        status: 'compliant',
        is_registered_threat: false,
      },
    ],
  },
  mail_volume: {
    domain_id: 1,
    fqdn: 'example.com',
    start_date: '2025-02-01',
    end_date: '2025-03-01',
    totals: { total: 3, delivered: 3, quarantined: 0, rejected: 0, dmarc_pass: 3, dmarc_fail: 0 },
    timeline: [
      {
        date: '2025-02-01',
        total: 3,
        delivered: 3,
        quarantined: 0,
        rejected: 0,
        dmarc_pass: 3,
        dmarc_fail: 0,
      },
    ],
  },
  dns_changes: [dnsEvent(1, 'spf', 'disconnected', '2025-03-01T08:00:00Z')],
  dns_timeline: {
    domain_id: 1,
    fqdn: 'example.com',
    summary: {
      spf: {
        current_status: 'connected',
        last_connected: '2025-03-01T08:00:00Z',
        last_disconnected: null,
        connection_count: 1,
        disconnection_count: 0,
      },
    },
    events: [dnsEvent(2, 'spf', 'connected', '2025-03-01T08:00:00Z')],
  },
  dns_current: {
    domain_id: 1,
    fqdn: 'example.com',
    protocols: {
      spf: {
        current_status: 'connected',
        verified: true,
        status: 'valid',
        last_connected: '2025-03-01T08:00:00Z',
        last_disconnected: null,
        record_value: 'v=spf1 -all',
        lookup_count: 2,
      },
    },
  },
  dns_history: [
    { record_type: 'spf', record_value: 'v=spf1 -all', occurred_at: '2025-03-01T08:00:00Z', lookup_count: 2 },
  ],
  dns_snapshots: {
    domain_id: 1,
    fqdn: 'example.com',
    dmarc: [{ id: 1, record_value: 'v=DMARC1; p=none', occurred_at: '2025-03-01T08:00:00Z' }],
    spf: [],
  },
  tls_rpt: {
    config: { record_value: 'v=TLSRPTv1; rua=mailto:x@example.com' },
    failures: { total_failure: 0 },
  },
  dashboard_cache: {
    domain_id: 1,
    fqdn: 'example.com',
    cached: false,
    cached_at: null,
    start_date: '2025-02-01',
    end_date: '2025-03-01',
    data: null,
  },
  mta_sts: { policy: { mode: 'enforce', max_age: 604800, mx: ['mx1.example.com'], status: 'active' } },
};

/** A named field of each signal set to the wrong type, and the path the error must point at. */
const WRONG: { [S in SignalName]: [unknown, string] } = {
  domains: [[{ id: '12', fqdn: 'example.com' }], '0.id'],
  health: [{ ...SAMPLES.health, protocols_passing: 'four' }, 'protocols_passing'],
  health_history: [[{ ...SAMPLES.health_history[0], protocols: { spf: 'yes' } }], '0.protocols.spf'],
  security_score: [{ ...SAMPLES.security_score, score: '8' }, 'score'],
  score_history: [
    { ...SAMPLES.score_history, history: [{ derived_score: 8, scanned_at: 'yesterday' }] },
    'history.0.scanned_at',
  ],
  failed_sources: [
    { ...SAMPLES.failed_sources, failed_sources: [{ source_name: 'x', is_registered_threat: 'true' }] },
    'failed_sources.0.is_registered_threat',
  ],
  sending_services: [
    { ...SAMPLES.sending_services, services: [{ source_name: 'x', total_count: 1.5 }] },
    'services.0.total_count',
  ],
  mail_volume: [{ ...SAMPLES.mail_volume, timeline: [{ date: '01/02/2025' }] }, 'timeline.0.date'],
  dns_changes: [[{ ...SAMPLES.dns_changes[0], id: null }], '0.id'],
  dns_timeline: [{ ...SAMPLES.dns_timeline, events: 'none' }, 'events'],
  dns_current: [
    { ...SAMPLES.dns_current, protocols: { spf: { verified: 'true' } } },
    'protocols.spf.verified',
  ],
  dns_history: [[{ record_type: 'spf', occurred_at: 12 }], '0.occurred_at'],
  dns_snapshots: [{ dmarc: [{ id: 'one', occurred_at: '2025-03-01T08:00:00Z' }] }, 'dmarc.0.id'],
  tls_rpt: [{ config: 'enabled' }, 'config'],
  dashboard_cache: [{ ...SAMPLES.dashboard_cache, cached: 'no' }, 'cached'],
  mta_sts: [{ policy: { mode: 'strict', max_age: 86400, mx: [] } }, 'policy.mode'],
};

const EXTRA_KEY = fc.string({ minLength: 1, maxLength: 12 }).map((k) => `x_${k}`);
const EXTRA_FIELDS = fc.dictionary(EXTRA_KEY, fc.jsonValue(), { minKeys: 1, maxKeys: 4 });

/** Add extra fields at the root (objects) or to every item (arrays): where a newer server would add them. */
function withExtras(sample: unknown, extra: Record<string, unknown>): unknown {
  if (Array.isArray(sample)) return sample.map((item) => ({ ...(item as object), ...extra }));
  return { ...(sample as object), ...extra };
}

describe('decodeSignal', () => {
  it.each(SIGNAL_NAMES)('%s: a payload shaped as the interface describes decodes to itself', (name) => {
    const result = decodeSignal(name, SAMPLES[name]);
    expect(result).toEqual({ ok: true, value: SAMPLES[name] });
  });

  it.each(SIGNAL_NAMES)('%s: fields the interface does not name are kept, whatever they hold', (name) => {
    fc.assert(
      fc.property(EXTRA_FIELDS, (extra) => {
        const payload = withExtras(SAMPLES[name], extra);
        const result = decodeSignal(name, payload);
        expect(result.ok).toBe(true);
        if (result.ok) expect(result.value).toEqual(payload);
      }),
      { numRuns: 40 },
    );
  });

  it.each(SIGNAL_NAMES)(
    '%s: a named field of the wrong type is a typed decode error pointing at it',
    (name) => {
      const [payload, path] = WRONG[name];
      const result = decodeSignal(name, payload);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('malformed_response');
        expect(result.error.issues.map((i) => i.path)).toContain(path);
        expect(result.error.message).toContain(`${name}: ${path}`);
      }
    },
  );

  it('fields the interface leaves open may be missing or null', () => {
    expect(decodeSignal('health', { protocols: {} }).ok).toBe(true);
    expect(
      decodeSignal('health', {
        protocols: { spf: true },
        result: null,
        scanned_at: null,
        mail_provider: null,
      }).ok,
    ).toBe(true);
    expect(decodeSignal('security_score', { score: 0 }).ok).toBe(true);
    expect(
      decodeSignal('failed_sources', {
        failed_sources: [{ source_name: 'x', dmarc: null, compliance: null }],
      }).ok,
    ).toBe(true);
    expect(decodeSignal('tls_rpt', {}).ok).toBe(true);
    expect(decodeSignal('dashboard_cache', { cached: false, data: null }).ok).toBe(true);
    expect(decodeSignal('dns_current', { protocols: { dkim: {} } }).ok).toBe(true);
  });

  it('never throws, whatever it is given: it returns a value or a typed error', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SIGNAL_NAMES), fc.anything(), (name, data) => {
        const result = decodeSignal(name, data);
        if (!result.ok) {
          expect(result.error.code).toBe('malformed_response');
          expect(Array.isArray(result.error.issues)).toBe(true);
          expect(result.error.issues.length).toBeLessThanOrEqual(20);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('does not throw on hostile objects or unknown signal names either', () => {
    const hostile = Object.defineProperty({}, 'protocols', {
      enumerable: true,
      get() {
        throw new Error('gotcha');
      },
    });
    expect(decodeSignal('health', hostile)).toMatchObject({
      ok: false,
      error: { code: 'malformed_response' },
    });
    expect(decodeSignal('nonsense' as SignalName, {})).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('unknown signal') },
    });
  });

  it('an own __proto__ key in the JSON pollutes nothing', () => {
    const result = decodeSignal('health', JSON.parse('{"__proto__": {"polluted": true}, "protocols": {}}'));
    expect(result.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a thousand bad rows give a short message, not a thousand lines', () => {
    const rows = Array.from({ length: 1000 }, () => ({ id: 'x' }));
    const result = decodeSignal('dns_changes', rows);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.issues).toHaveLength(20);
      expect(result.error.message.length).toBeLessThan(200);
      expect(result.error.message).toMatch(/\(\+\d+ more\)/);
    }
  });
});

describe('SIGNALS', () => {
  it('carries the target periods the planner uses', () => {
    const minutes = (name: SignalName) => SIGNALS[name].periodSeconds / 60;
    expect(minutes('dns_changes')).toBe(5);
    expect(minutes('health')).toBe(15);
    expect(minutes('failed_sources')).toBe(60);
    expect(minutes('security_score')).toBe(60);
    expect(minutes('domains')).toBe(60);
    for (const name of SIGNAL_NAMES) {
      const meta = SIGNALS[name];
      expect(meta.name).toBe(name);
      if (meta.onDemand) expect(meta.periodSeconds).toBeGreaterThanOrEqual(6 * 3600);
      // Every path is relative to the base URL; per-domain ones name the domain.
      expect(meta.path.startsWith('/')).toBe(true);
      expect(meta.path.includes('{domain_id}')).toBe(meta.per === 'domain');
    }
    expect(SIGNALS.domains.per).toBe('account');
    expect(SIGNALS.tls_rpt.parts).toEqual({
      config: '/domains/{domain_id}/tls-rpt',
      failures: '/domains/{domain_id}/tls-rpt/failures',
    });
  });
});
