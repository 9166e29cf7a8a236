import { describe, expect, it } from 'vitest';
import type { Settings, SyncStatus } from '../../../shared/bridge/results.ts';
import { SIGNAL_DEFINITIONS } from '../../../main/core/signals/registry.ts';
import {
  budgetWords,
  errorsFromBridge,
  formFromSettings,
  isValidTimeZone,
  validateSettings,
} from '../../../renderer/src/lib/settingsForm.ts';

const SETTINGS: Settings = {
  alerts: {
    scoreStep: 1,
    scoreFloor: null,
    quietHours: { startHour: 22, endHour: 7 },
    timeZone: null,
    quietHoldsCriticals: false,
    editSilenceMinutes: 30,
  },
  sync: { ratePerMinute: 60, headroom: 6 },
  app: { startAtLogin: false, notifications: true },
  notificationsPausedUntil: null,
};

describe('settings form', () => {
  it('round-trips the current settings into an update', () => {
    const form = formFromSettings(SETTINGS);
    expect(form.floorOn).toBe(false);
    expect(validateSettings(form)).toEqual({
      update: {
        alerts: {
          scoreStep: 1,
          scoreFloor: null,
          quietHours: { startHour: 22, endHour: 7 },
          timeZone: null,
          quietHoldsCriticals: false,
          editSilenceMinutes: 30,
        },
        sync: { ratePerMinute: 60, headroom: 6 },
      },
      errors: {},
    });
  });

  it('checks every field before sending', () => {
    const { update, errors } = validateSettings({
      ...formFromSettings(SETTINGS),
      scoreStep: '0.05',
      floorOn: true,
      scoreFloor: '11',
      startHour: '5',
      endHour: '5',
      timeZone: 'Mars/Olympus',
      editSilenceMinutes: '2000',
      ratePerMinute: '60',
      headroom: '60',
    });
    expect(update).toBeNull();
    expect(Object.keys(errors).sort()).toEqual([
      'editSilenceMinutes',
      'endHour',
      'headroom',
      'scoreFloor',
      'scoreStep',
      'timeZone',
    ]);
    expect(errors.headroom).toMatch(/smaller than the rate limit/);
  });

  it('turns the floor and quiet hours off, and accepts a decimal comma', () => {
    const { update } = validateSettings({
      ...formFromSettings(SETTINGS),
      scoreStep: '1,5',
      quietOn: false,
      timeZone: 'Europe/Berlin',
    });
    expect(update?.alerts).toEqual({
      scoreStep: 1.5,
      scoreFloor: null,
      quietHours: null,
      timeZone: 'Europe/Berlin',
      quietHoldsCriticals: false,
      editSilenceMinutes: 30,
    });
  });

  it('knows IANA time zones', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Europe/Atlantis')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });

  it('maps the bridge invalid_arguments details onto fields', () => {
    expect(
      errorsFromBridge({
        code: 'invalid_arguments',
        message: 'x',
        details: [
          { path: 'alerts.scoreStep', message: 'too big' },
          { path: '(arguments)', message: 'headroom must be smaller than the rate limit' },
          { path: 'alerts.whatever', message: 'odd' },
        ],
      }),
    ).toEqual({
      scoreStep: 'Too big',
      headroom: 'Headroom must be smaller than the rate limit',
      form: 'Not saved: odd',
    });
    expect(errorsFromBridge({ code: 'mirror_error', message: 'disk full' })).toEqual({
      form: 'Not saved: disk full',
    });
  });
});

describe('budget in words', () => {
  const account = (stretchFactor: number): SyncStatus['accounts'][number] => ({
    accountId: 1,
    label: 'Acme',
    baseUrl: 'https://x/api/v1',
    state: 'active',
    pausedReason: null,
    rateLimitedUntil: null,
    budget: { available: 10, capacity: 54, headroom: 6, ratePerMinute: 54 },
    demandPerMinute: 54 * stretchFactor,
    capacityPerMinute: 54,
    stretchFactor,
    periods: { health: { targetSeconds: 900, effectiveSeconds: 900 * stretchFactor, jobs: 200 } },
    words: { health: SIGNAL_DEFINITIONS.health.words },
    backfill: { domainsDone: 1, domainsTotal: 1, complete: true },
    requestsSpent: 0,
    lastSuccessAt: null,
    nextDueAt: null,
    errors: [],
  });

  it('says when every period is stretched and by how much', () => {
    const words = budgetWords(account(2.5));
    expect(words.summary).toMatch(/stretched ×2\.5/);
    expect(words.periods).toEqual([
      {
        signal: 'health',
        label: 'Whether each protocol passes (DMARC, SPF, MTA-STS, TLS-RPT, BIMI)',
        target: '15 min',
        effective: '38 min',
        stretched: true,
        jobs: 200,
      },
    ]);
  });

  it('says when the budget suffices', () => {
    expect(budgetWords(account(1)).summary).toMatch(/everything is checked as often as wanted/);
  });
});
