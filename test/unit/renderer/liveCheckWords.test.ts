import { describe, expect, it } from 'vitest';
import {
  cadenceWords,
  liveChecksForm,
  validateLiveChecks,
} from '../../../renderer/src/lib/liveCheckWords.ts';
import type { LiveChecksStatus } from '../../../shared/bridge/liveChecks.ts';

const status = (kinds: Record<string, Record<string, unknown>> = {}): LiveChecksStatus => ({
  settings: {
    enabled: true,
    smtpPort: 25,
    httpsPort: 443,
    connectionsPerMinute: 30,
    timeoutMs: 10_000,
    extraCaFile: '',
    kinds,
  },
  running: true,
  kinds: [
    {
      check: 'channel_failing',
      settingsKey: 'channelFailing',
      label: 'Delivery channels',
      words: 'A channel that has failed for longer than the limit below',
      enabled: true,
      periodHours: 1 / 60,
      counts: { ok: 1, problem: 0, not_applicable: 0, unknown: 0 },
    },
  ],
  notices: [],
  connectionsLastMinute: 0,
  caProblem: null,
});

describe('Settings → Live checks: the delivery-channel limit', () => {
  it('shows the stored limit (60 minutes unless changed) and sends the new one beside the kind’s switch', () => {
    expect(liveChecksForm(status()).channelLimitMinutes).toBe('60');
    const form = liveChecksForm(status({ channelFailing: { enabled: true, limitMinutes: 120 } }));
    expect(form.channelLimitMinutes).toBe('120');
    form.channelLimitMinutes = '90';
    expect(validateLiveChecks(form).update?.kinds.channelFailing).toEqual({
      enabled: true,
      limitMinutes: 90,
    });
  });

  it('refuses a limit under 5 minutes or over a week, naming the field, and sends nothing', () => {
    for (const bad of ['2', '10081', 'soon']) {
      const form = { ...liveChecksForm(status()), channelLimitMinutes: bad };
      const { update, errors } = validateLiveChecks(form);
      expect(update).toBeNull();
      expect(errors.channelLimitMinutes).toMatch(/The limit must be/);
    }
  });

  it('says a cadence under an hour in minutes', () => {
    expect(cadenceWords(1 / 60)).toBe('every minute');
    expect(cadenceWords(0.25)).toBe('every 15 minutes');
    expect(cadenceWords(24)).toBe('every 24 h');
  });
});
