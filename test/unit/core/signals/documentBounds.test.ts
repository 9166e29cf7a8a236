/**
 * The decoders hold answers to the bounds of the v1 document (issue 12, item 1): a value the document does
 * not allow, or an answer about another domain, is a malformed_response naming the value, while presence
 * stays tolerant (DESIGN.md: unknown fields kept, fields the interface leaves open optional).
 */
import { describe, expect, it } from 'vitest';
import { SIGNAL_NAMES, SIGNALS, type SignalName } from '../../../../main/core/signals/catalog.ts';
import { decodeSignal, type DecodeSubject } from '../../../../main/core/signals/decode.ts';
import { RESPONSE_SCHEMAS } from '../../../../shared/api/responseSchemas.gen.ts';
import {
  DOMAIN_ID,
  FQDN,
  dnsEvent,
  domainsPayload,
  failedSources,
  health,
  score,
  source,
} from '../mirror/payloads.ts';

const AT = '2025-03-01T08:00:00Z';
const SUBJECT: DecodeSubject = { domainId: DOMAIN_ID, fqdn: FQDN };

/** Decodes and returns the issue paths, or 'ok'. */
function verdict(name: SignalName, data: unknown, subject?: DecodeSubject): string[] | 'ok' {
  const result = decodeSignal(name, data, subject);
  if (result.ok) return 'ok';
  expect(result.error.code).toBe('malformed_response');
  return result.error.issues.map((i) => i.path);
}

const scoreHistory = (derived: number, passing: number) => ({
  domain_id: DOMAIN_ID,
  fqdn: FQDN,
  max_score: 10,
  note: 'derived',
  history: [
    { derived_score: derived, protocols_passing: passing, total_protocols: 5, result: 'x', scanned_at: AT },
  ],
});

const volume = (
  totals: Record<string, number>,
  window = { start_date: '2025-02-01', end_date: '2025-03-01' },
) => ({
  domain_id: DOMAIN_ID,
  fqdn: FQDN,
  ...window,
  totals,
  timeline: [],
});
const COUNTS = { total: 4, delivered: 4, quarantined: 0, rejected: 0, dmarc_pass: 3, dmarc_fail: 1 };

describe('the decoders check the bounds of the document', () => {
  it('every signal reads an operation the document describes (else its bounds would go unchecked)', () => {
    for (const name of SIGNAL_NAMES) {
      const paths = SIGNALS[name].parts ? Object.values(SIGNALS[name].parts) : [SIGNALS[name].path];
      for (const path of paths) expect(RESPONSE_SCHEMAS.responses[path], `${name} ${path}`).toBeDefined();
    }
  });

  it.each<[string, SignalName, unknown, string]>([
    ['a negative score (the audit: −11)', 'security_score', { ...score(8, AT), score: -11 }, 'score'],
    ['a score over 10', 'security_score', { ...score(8, AT), score: 10.5 }, 'score'],
    ['a max_score other than 10', 'security_score', { ...score(8, AT), max_score: 100 }, 'max_score'],
    [
      'a negative protocols_passing (−4)',
      'health',
      { ...health(AT), protocols_passing: -4 },
      'protocols_passing',
    ],
    [
      'a total_protocols other than 5 (−6)',
      'health',
      { ...health(AT), total_protocols: -6 },
      'total_protocols',
    ],
    ['a domain_id that is no id (−4)', 'health', { ...health(AT), domain_id: -4 }, 'domain_id'],
    ['a health source the document does not name', 'health', { ...health(AT), source: 'rumour' }, 'source'],
    ['an fqdn that is no domain name', 'health', { ...health(AT), fqdn: 'elit aliquip magna' }, 'fqdn'],
    [
      'a timestamp that is no date',
      'health',
      { ...health(AT), scanned_at: '2025-02-30T08:00:00Z' },
      'scanned_at',
    ],
    ['a negative domain id in the list', 'domains', [{ id: -2, fqdn: 'acme.example' }], '0.id'],
    ['a list entry named as no domain is', 'domains', [{ id: 2, fqdn: 'ut labore' }], '0.fqdn'],
    [
      'a negative source volume',
      'failed_sources',
      failedSources({ ...source('phish.example', true), total_count: -3 }),
      'failed_sources.0.total_count',
    ],
    [
      'a compliance over 100 %',
      'failed_sources',
      failedSources({ ...source('phish.example', true), compliance: 180 }),
      'failed_sources.0.compliance',
    ],
    [
      'a source status the document does not name',
      'failed_sources',
      failedSources({ ...source('phish.example', true), status: 'awful' }),
      'failed_sources.0.status',
    ],
    ['a DNS event id of 0', 'dns_changes', [{ ...dnsEvent(1, 'spf', 'connected', AT), id: 0 }], '0.id'],
    [
      'a DNS event action the document does not name',
      'dns_changes',
      [{ ...dnsEvent(1, 'spf', 'connected', AT), action: 'flapping' }],
      '0.action',
    ],
    ['a derived score over 10', 'score_history', scoreHistory(12, 5), 'history.0.derived_score'],
    ['a negative mail count', 'mail_volume', volume({ ...COUNTS, rejected: -1 }), 'totals.rejected'],
    [
      'a date that is no date',
      'mail_volume',
      volume(COUNTS, { start_date: '2025-13-01', end_date: '2025-03-01' }),
      'start_date',
    ],
    [
      'a negative TLS session count',
      'tls_rpt',
      { config: null, failures: { total_failure_session_count: -1 } },
      'failures.total_failure_session_count',
    ],
  ])('%s is a malformed_response naming the value', (_what, name, data, path) => {
    expect(verdict(name, data)).toContain(path);
  });

  it('a value the document allows still decodes, including the edges of its ranges', () => {
    expect(verdict('security_score', { ...score(8, AT), score: 0 })).toBe('ok');
    expect(verdict('security_score', { ...score(8, AT), score: 10 })).toBe('ok');
    expect(
      verdict(
        'health',
        health(AT, { dmarc: false, spf: false, mta_sts: false, tls_rpt: false, bimi: false }),
      ),
    ).toBe('ok');
    expect(verdict('domains', domainsPayload())).toBe('ok');
    expect(verdict('domains', [{ id: 1, fqdn: 'xn--bcher-kva.example' }])).toBe('ok');
  });

  it('presence stays tolerant: fields the interface leaves open may be missing or null, unknown ones kept', () => {
    expect(verdict('health', { protocols: {}, source: null, scanned_at: null })).toBe('ok');
    expect(verdict('dashboard_cache', { cached: false, cached_at: null, data: null })).toBe('ok');
    const decoded = decodeSignal('security_score', { score: 7, x_new_field: { deep: [-1] } });
    expect(decoded).toEqual({ ok: true, value: { score: 7, x_new_field: { deep: [-1] } } });
  });
});

describe('the decoders check what a schema cannot', () => {
  it('a per-domain answer about another domain is malformed (by id or by name)', () => {
    expect(verdict('health', health(AT), SUBJECT)).toBe('ok');
    expect(verdict('health', health(AT), { domainId: DOMAIN_ID + 1, fqdn: FQDN })).toEqual(['domain_id']);
    expect(verdict('security_score', score(8, AT), { domainId: DOMAIN_ID, fqdn: 'other.example' })).toEqual([
      'fqdn',
    ]);
    // Case and a final dot do not make another domain.
    expect(verdict('health', health(AT), { domainId: DOMAIN_ID, fqdn: 'EXAMPLE.com.' })).toBe('ok');
    expect(verdict('tls_rpt', { config: { domain_id: 9 }, failures: null }, SUBJECT)).toEqual([
      'config.domain_id',
    ]);
  });

  it('protocols_passing is the count of true protocols', () => {
    expect(verdict('health', { ...health(AT, { bimi: false }), protocols_passing: 5 })).toEqual([
      'protocols_passing',
    ]);
    expect(
      verdict('health_history', [{ ...health(AT, { spf: false }), id: 3, protocols_passing: 2 }]),
    ).toEqual(['0.protocols_passing']);
  });

  it('a derived score follows the interface rule (passing / 5 × 10)', () => {
    expect(verdict('score_history', scoreHistory(8, 4))).toBe('ok');
    expect(verdict('score_history', scoreHistory(9, 2))).toEqual(['history.0.derived_score']);
  });

  it('parts do not exceed their total', () => {
    const src = { ...source('phish.example', true), total_count: 5, dmarc: { pass: 7, fail: 0 } };
    expect(verdict('failed_sources', failedSources(src))).toEqual(['failed_sources.0.dmarc.pass']);
    expect(verdict('mail_volume', volume({ ...COUNTS, dmarc_fail: 9 }))).toEqual(['totals.dmarc_fail']);
  });

  it('a window ends after it starts, and a domain list names each id once', () => {
    expect(
      verdict('mail_volume', volume(COUNTS, { start_date: '2025-03-02', end_date: '2025-03-01' })),
    ).toEqual(['start_date']);
    const twice = [...domainsPayload(), { ...domainsPayload()[0]!, fqdn: 'copy.example' }];
    expect(verdict('domains', twice)).toEqual(['2.id']);
  });
});
