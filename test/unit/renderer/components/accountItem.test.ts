/**
 * One account's card: renaming marks its field when the label is empty, and removing it needs the second
 * step (the kit's Dialog) that says what goes and what stays.
 */
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OverviewPage } from '../../../../shared/bridge/overviewPage.ts';
import { DMARC_STATES } from '../../../../shared/bridge/overviewFilter.ts';
import type { AccountView } from '../../../../shared/bridge/results.ts';
import { VERDICT_LEVELS } from '../../../../shared/bridge/statusLevels.ts';
import { api as bridgeApi } from '../../../../renderer/src/lib/bridge.svelte.ts';
import AccountItem from '../../../../renderer/src/components/AccountItem.svelte';
import type { FakeApi } from './fakeBridge.ts';

vi.mock('../../../../renderer/src/lib/bridge.svelte.ts', async () => {
  const { fakeApi } = await import('./fakeBridge.ts');
  return { api: fakeApi(), shell: 'browser', hostLink: { connected: true } };
});
const api = bridgeApi as unknown as FakeApi;

const account: AccountView = {
  id: 7,
  label: 'Acme Corp',
  baseUrl: 'https://dmarc.example/api/v1',
  createdAt: '2026-11-01T00:00:00Z',
  pausedReason: null,
};

// The window's first screen of rows when no account is left.
const noRows: OverviewPage = {
  scope: { domains: 0, parked: 0, openAlerts: 0 },
  headline: {
    total: 0,
    byPolicy: Object.fromEntries(DMARC_STATES.map((s) => [s, 0])) as OverviewPage['headline']['byPolicy'],
    byVerdict: Object.fromEntries(VERDICT_LEVELS.map((v) => [v, 0])) as OverviewPage['headline']['byVerdict'],
    averageScore: null,
    alerts: 0,
    failingAny: 0,
    optionalNotSetUp: 0,
  },
  shown: 0,
  groups: null,
  offset: 0,
  rows: [],
};

beforeEach(() => {
  vi.clearAllMocks();
  // After a removal the list and the window's rows are read again: the account is gone.
  api.listAccounts.mockResolvedValue([]);
  api.overview.mockResolvedValue([]);
  api.overviewPage.mockResolvedValue(noRows);
});

describe('An account card', () => {
  it('an empty label is marked on the rename field and nothing is sent', async () => {
    render(AccountItem, { account });
    await fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    const field = screen.getByLabelText('New label for Acme Corp');
    await fireEvent.input(field, { target: { value: '   ' } });
    await fireEvent.submit(field.closest('form')!);
    expect(api.updateAccount).not.toHaveBeenCalled();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toContain(
      'The label must not be empty.',
    );
    // The note under the card says what to do, without saying the error a second time.
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent?.trim());
    expect(alerts).toEqual(['The label must not be empty.', 'Type a name.']);
  });

  it('removing asks first; Cancel keeps the account, the named button removes it', async () => {
    api.removeAccount.mockResolvedValue({ secretDeleted: true });
    render(AccountItem, { account });
    const remove = screen.getByRole('button', { name: 'Remove…' });
    remove.focus();
    await fireEvent.click(remove);
    const dialog = screen.getByRole('dialog', { name: 'Remove “Acme Corp”?' });
    expect(dialog.textContent).toContain('Nothing changes on the service');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.removeAccount).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(remove);

    await fireEvent.click(remove);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Acme Corp' }));
    expect(api.removeAccount).toHaveBeenCalledWith({ accountId: 7 });
    expect(
      (await screen.findByText(/Removed, and its token deleted/)).closest('[role=status]'),
    ).not.toBeNull();
    expect(dialog.hasAttribute('open')).toBe(false);
  });
});
