// The DNS watch in words: a disagreement as one sentence with the clock time it began, and the Settings
// form refusing what the watch cannot take, on the field that is wrong.
import { describe, expect, it } from 'vitest';
import type { DnsWatchStatus } from '../../../shared/bridge/dnsWatch.ts';
import {
  disagreementWords,
  dnsWatchErrorsFromBridge,
  dnsWatchForm,
  dnsWatchPace,
  validateDnsWatch,
} from '../../../renderer/src/lib/dnsWatchWords.ts';

const NOW = Date.parse('2026-06-15T12:00:00Z');

describe('a disagreement in words', () => {
  it('says what DNS shows, what the service reports and since when (a time of day today)', () => {
    const words = disagreementWords(
      {
        protocol: 'dmarc',
        dns: 'present',
        reason: null,
        service: 'disconnected',
        since: '2026-06-15T10:42:00Z',
      },
      NOW,
      'UTC',
    );
    expect(words).toMatch(/^DNS shows a DMARC record; the service reports none since 10:42( AM)?\.$/);
  });

  it('gives the invalid record’s reason, and the date when it began another day', () => {
    const words = disagreementWords(
      {
        protocol: 'spf',
        dns: 'invalid',
        reason: '11 DNS lookups (receivers allow 10)',
        service: 'connected',
        since: '2026-06-14T09:05:00Z',
      },
      NOW,
      'UTC',
    );
    expect(words).toMatch(
      /^DNS shows an invalid SPF record \(11 DNS lookups \(receivers allow 10\)\); the service reports it connected since Jun 14, 0?9:05( AM)?\.$/,
    );
  });
});

const form = {
  enabled: true,
  servers: '1.1.1.1\n10.0.0.53:5353, [2606:4700::1111]:53',
  floorSeconds: '60',
  ceilingSeconds: '3600',
  ratePerSecond: '100',
};

describe('the DNS watch settings form', () => {
  it('sends the resolvers as a list and the numbers as numbers', () => {
    expect(validateDnsWatch(form)).toEqual({
      update: {
        enabled: true,
        servers: ['1.1.1.1', '10.0.0.53:5353', '[2606:4700::1111]:53'],
        floorSeconds: 60,
        ceilingSeconds: 3600,
        ratePerSecond: 100,
      },
      errors: {},
    });
  });

  it('refuses a resolver by name, a bad port, a ceiling under the floor and a rate of 0, each on its field', () => {
    const checked = validateDnsWatch({
      ...form,
      servers: 'dns.example.com',
      ceilingSeconds: '30',
      ratePerSecond: '0',
    });
    expect(checked.update).toBeNull();
    expect(checked.errors).toEqual({
      servers: expect.stringMatching(/dns\.example\.com is not an IP address/),
      ceilingSeconds: 'The longest wait must not be shorter than the shortest (60 s)',
      ratePerSecond: 'The query rate must be between 1 and 10,000',
    });
    expect(validateDnsWatch({ ...form, servers: '1.1.1.1:99999' }).errors.servers).toBe(
      '1.1.1.1:99999: the port must be 1–65535',
    );
    expect(validateDnsWatch({ ...form, floorSeconds: '1.5' }).errors.floorSeconds).toBe(
      'The shortest wait must be a whole number',
    );
  });

  it('puts the facade’s refusal on the field it names', () => {
    const errors = dnsWatchErrorsFromBridge({
      code: 'invalid_arguments',
      message: 'invalid',
      details: [{ path: 'servers.0', message: 'not an IP address with an optional :port' }],
    });
    expect(errors).toEqual({ servers: 'Not an IP address with an optional :port' });
    expect(dnsWatchErrorsFromBridge(new Error('the mirror is read-only'))).toEqual({
      form: 'Not saved: the mirror is read-only',
    });
  });

  it('says the pace now in words', () => {
    const status: DnsWatchStatus = {
      settings: { enabled: true, servers: [], floorSeconds: 60, ceilingSeconds: 3600, ratePerSecond: 100 },
      running: true,
      source: 'system',
      servers: ['127.0.0.1:53'],
      records: 25_000,
      queriesPerSecond: 99.6,
      checksPerSecond: 99.6,
      roundSeconds: 250,
      paceAt: '2026-06-15T12:00:00Z',
      oldestCheckedAt: null,
      newestCheckedAt: null,
      unknown: 0,
      unavailable: null,
    };
    expect(dnsWatchForm(status).servers).toBe('');
    expect(dnsWatchPace(status)).toBe(
      `100 queries a second now (at most 100 to each resolver), ${(25_000).toLocaleString()} records; a full round of every record takes 250 s at the cap.`,
    );
    expect(dnsWatchPace({ ...status, settings: { ...status.settings, enabled: false } })).toMatch(/^Off/);
    expect(dnsWatchPace({ ...status, running: false, paceAt: null })).toBe(
      'Not running in this window: the desktop app or “authwatch sync --watch” runs it.',
    );
  });
});
