/**
 * Settings → Live checks' blocklist zones: none by default, the well-known ones ticked by name, other zones
 * typed; a name that is not a zone, or more than 10, is said on the field and nothing is sent.
 */
import { describe, expect, it } from 'vitest';
import {
  liveChecksErrorsFromBridge,
  liveChecksForm,
  validateLiveChecks,
} from '../../../renderer/src/lib/liveCheckWords.ts';
import { AuthwatchError } from '../../../main/core/app/authwatchError.ts';
import { DEFAULT_LIVE_CHECK_SETTINGS } from '../../../main/core/livechecks/liveCheckSettings.ts';
import type { LiveChecksStatus } from '../../../shared/bridge/liveChecks.ts';

function status(kinds: LiveChecksStatus['settings']['kinds'] = {}): LiveChecksStatus {
  return {
    settings: { ...DEFAULT_LIVE_CHECK_SETTINGS, kinds },
    running: true,
    kinds: [
      {
        check: 'dnsbl_listings',
        settingsKey: 'dnsbl',
        label: 'Blocklists',
        words: 'Blocklists',
        enabled: true,
        periodHours: 6,
        counts: { ok: 0, problem: 0, not_applicable: 0, unknown: 0 },
      },
    ],
    notices: [],
    connectionsLastMinute: 0,
    caProblem: null,
  };
}

describe('the blocklist zones of Settings → Live checks', () => {
  it('asks no zone by default', () => {
    const form = liveChecksForm(status());
    expect(Object.values(form.knownZones).every((on) => !on)).toBe(true);
    expect(form.customZones).toBe('');
    expect(validateLiveChecks(form).update?.kinds.dnsbl).toEqual({ enabled: true, zones: [] });
  });

  it('shows stored zones as ticked well-known ones and typed others, and sends them back the same', () => {
    const form = liveChecksForm(
      status({ dnsbl: { enabled: true, zones: ['bl.spamcop.net', 'bl.authwatch.test'] } }),
    );
    expect(form.knownZones['bl.spamcop.net']).toBe(true);
    expect(form.knownZones['zen.spamhaus.org']).toBe(false);
    expect(form.customZones).toBe('bl.authwatch.test');
    form.knownZones['zen.spamhaus.org'] = true;
    form.customZones = 'bl.authwatch.test, Dnsbl.Example.NET.\nbl.authwatch.test';
    expect(validateLiveChecks(form).update?.kinds.dnsbl?.zones).toEqual([
      'zen.spamhaus.org',
      'bl.spamcop.net',
      'bl.authwatch.test',
      'dnsbl.example.net',
    ]);
  });

  it('refuses what is not a zone name, in words, sending nothing', () => {
    const form = liveChecksForm(status());
    form.customZones = 'http://bl.example.net 192.0.2.1';
    const { update, errors } = validateLiveChecks(form);
    expect(update).toBeNull();
    expect(errors.dnsblZones).toBe(
      '“http://bl.example.net”, “192.0.2.1” are not zone names: give a name like bl.example.net (no address, no http://)',
    );
  });

  it('refuses more than 10 zones', () => {
    const form = liveChecksForm(status());
    form.customZones = Array.from({ length: 11 }, (_, i) => `bl${i}.example.net`).join('\n');
    expect(validateLiveChecks(form).errors.dnsblZones).toMatch(/^At most 10 zones: 11 are chosen/);
  });

  it('puts the app’s refusal of a zone on the zones field', () => {
    const refusal = new AuthwatchError('invalid_arguments', 'kinds.dnsbl.zones.0: not a zone name', [
      { path: 'kinds.dnsbl.zones.0', message: 'not a zone name (like bl.example.net)' },
    ]);
    expect(liveChecksErrorsFromBridge(refusal)).toEqual({
      dnsblZones: 'Not a zone name (like bl.example.net)',
    });
  });
});
