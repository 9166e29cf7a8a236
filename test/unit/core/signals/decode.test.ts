import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIGNAL_NAMES, SIGNALS, type SignalName } from '../../../../main/core/signals/catalog.ts';
import { decodeSignal } from '../../../../main/core/signals/decode.ts';

// Each signal's own cases (its answer decodes to itself, unnamed fields are kept, a wrong type is pointed at)
// are in its own test, beside its definition's: test/unit/core/signals/defs/<signal>.test.ts (decodeCases.ts).
describe('decodeSignal', () => {
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
