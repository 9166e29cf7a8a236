/**
 * Settings → App checks: the live checks of no domain, one row each — whose check it is, the last look's
 * result in words, when, and when the next look is — and the states a user meets before the first look, with
 * a kind turned off, and when the checks cannot be read.
 */
import { render, screen } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppLiveCheck } from '../../../../shared/bridge/liveChecks.ts';
import { api as bridgeApi } from '../../../../renderer/src/lib/bridge.svelte.ts';
import AppChecksSection from '../../../../renderer/src/components/settings/AppChecksSection.svelte';
import type { FakeApi } from './fakeBridge.ts';

vi.mock('../../../../renderer/src/lib/bridge.svelte.ts', async () => {
  const { fakeApi } = await import('./fakeBridge.ts');
  return { api: fakeApi(), shell: 'browser', hostLink: { connected: true } };
});
const api = bridgeApi as unknown as FakeApi;

const minutesFromNow = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
const check = (over: Partial<AppLiveCheck>): AppLiveCheck => ({
  check: 'token_expiry',
  label: 'API token',
  words: 'When the API token expires',
  account: { id: 2, label: 'Client B' },
  enabled: true,
  status: 'problem',
  result: 'the API token expires in 12 days (2026-12-11)',
  checkedAt: minutesFromNow(-3),
  since: minutesFromNow(-3),
  nextAt: minutesFromNow(57),
  ...over,
});
const text = (el: HTMLElement) => el.textContent!.replace(/\s+/g, ' ').trim();

beforeEach(() => vi.clearAllMocks());

describe('Settings → App checks', () => {
  it('says each check’s result in words, whose it is, when it looked and when it looks next', async () => {
    api.appLiveChecks.mockResolvedValue({
      running: true,
      checks: [
        check({}),
        check({
          check: 'channel_failing',
          label: 'Delivery channels',
          account: null,
          status: 'ok',
          result: 'every channel delivers',
          nextAt: minutesFromNow(-0.5),
        }),
      ],
    });
    const { container } = render(AppChecksSection);
    await screen.findByText(/the API token expires in 12 days/);
    const token = container.querySelector<HTMLElement>('[data-app-check="token_expiry"]')!;
    expect(text(token)).toMatch(
      /^API token · Client B .*problem the API token expires in 12 days \(2026-12-11\) Checked 3 minutes ago · next look in 57 minutes$/,
    );
    const channels = container.querySelector<HTMLElement>('[data-app-check="channel_failing"]')!;
    expect(text(channels)).toMatch(
      /^Delivery channels · this app .*every channel delivers .* · next look due now$/,
    );
    expect(screen.queryByText(/Not running in this window/)).toBeNull();
  });

  it('before the first look, with a kind off, and when not run by this window: said in words', async () => {
    api.appLiveChecks.mockResolvedValue({
      running: false,
      checks: [
        check({ status: null, result: null, checkedAt: null, since: null, nextAt: null }),
        check({ account: { id: 3, label: 'Client C' }, enabled: false, nextAt: null }),
      ],
    });
    const { container } = render(AppChecksSection);
    await screen.findByText(/Not running in this window/);
    const [first, off] = [...container.querySelectorAll<HTMLElement>('[data-app-check]')];
    expect(text(first!)).toMatch(
      /not checked yet When the API token expires Never checked · first look when the live checks next run$/,
    );
    expect(text(off!)).toMatch(/· Client C .* · off in Settings → Live checks$/);
  });

  it('says when the checks cannot be read', async () => {
    api.appLiveChecks.mockRejectedValue(new Error('the mirror is busy'));
    render(AppChecksSection);
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /The app checks could not be read: .*mirror is busy/,
    );
  });
});
