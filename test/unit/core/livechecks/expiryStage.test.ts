import { describe, expect, it } from 'vitest';
import { expiryStage, expiryWords, stageKey } from '../../../../main/core/livechecks/expiryStage.ts';

const now = Date.parse('2026-01-01T00:00:00Z');
const inDays = (d: number) => new Date(now + d * 86_400_000).toISOString();

describe('expiryStage', () => {
  it('a token warns 14 and 3 days before and is critical when expired', () => {
    const token = [14, 3];
    expect(expiryStage(inDays(20), now, token)).toBeNull();
    expect(expiryStage(inDays(14), now, token)).toEqual({ stage: 'soon', thresholdDays: 14 });
    expect(expiryStage(inDays(4), now, token)).toEqual({ stage: 'soon', thresholdDays: 14 });
    expect(expiryStage(inDays(2.5), now, token)).toEqual({ stage: 'soon', thresholdDays: 3 });
    expect(expiryStage(inDays(0), now, token)).toEqual({ stage: 'expired' });
    expect(expiryStage(inDays(-1), now, token)).toEqual({ stage: 'expired' });
  });

  it('a VMC warns 30, 14 and 3 days before; no date or an unreadable one is no stage', () => {
    const vmc = [30, 14, 3];
    expect(stageKey(expiryStage(inDays(29), now, vmc)!)).toBe('30d');
    expect(stageKey(expiryStage(inDays(13), now, vmc)!)).toBe('14d');
    expect(stageKey(expiryStage(inDays(-3), now, vmc)!)).toBe('expired');
    expect(expiryStage(null, now, vmc)).toBeNull();
    expect(expiryStage('soon', now, vmc)).toBeNull();
  });

  it('says the date relative to now', () => {
    expect(expiryWords(inDays(6.5), now)).toBe('expires in 6 days');
    expect(expiryWords(inDays(0.5), now)).toBe('expires within a day');
    expect(expiryWords(inDays(-2), now)).toBe('expired 2 days ago');
  });
});
