/**
 * The settings sections that act through the bridge (notification channels, the weekly digest): what a user
 * notices — the second step before a removal, errors in words and announced, buttons disabled while busy.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import type { ChannelView } from '../../../../shared/bridge/channels.ts';
import { api as bridgeApi } from '../../../../renderer/src/lib/bridge.svelte.ts';
import NotificationChannels from '../../../../renderer/src/components/NotificationChannels.svelte';
import WeeklyDigestSection from '../../../../renderer/src/components/settings/WeeklyDigestSection.svelte';
import type { FakeApi } from './fakeBridge.ts';

vi.mock('../../../../renderer/src/lib/bridge.svelte.ts', async () => {
  const { fakeApi } = await import('./fakeBridge.ts');
  return { api: fakeApi(), shell: 'browser', hostLink: { connected: true } };
});
const api = bridgeApi as unknown as FakeApi;

const channel = (id: number, name: string, kind: ChannelView['kind'], queued = 0): ChannelView => ({
  id,
  name,
  kind,
  target: kind === 'email' ? 'email via 127.0.0.1:2525 to ops@example.net' : 'http://127.0.0.1:9093',
  minSeverity: 'warning',
  accountId: null,
  holdCriticals: false,
  queued,
  lastSuccessAt: null,
  lastError: null,
  lastErrorAt: null,
  form: { hasSecret: false },
});

beforeEach(() => {
  vi.clearAllMocks();
  api.listChannels.mockResolvedValue([channel(1, 'ops-mail', 'email'), channel(2, 'am', 'alertmanager', 3)]);
  api.getMetricsSetting.mockResolvedValue({ enabled: false, port: 9464, url: null, error: null });
  api.listAccounts.mockResolvedValue([
    {
      id: 7,
      label: 'Acme Corp',
      baseUrl: 'https://x/api/v1',
      createdAt: '2026-11-01T00:00:00Z',
      pausedReason: null,
    },
  ]);
  api.listDigests.mockResolvedValue([]);
});

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;

describe('Notification channels', () => {
  it('removes a channel only after the second step, which names it and its queued deliveries', async () => {
    api.removeChannel.mockResolvedValue({ removed: true, digestsStopped: [] });
    render(NotificationChannels);
    await fireEvent.click(within(await rowOf('am')).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the channel “am”?' });
    expect(dialog.textContent).toContain('the 3 deliveries it still has queued are dropped');

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.removeChannel).not.toHaveBeenCalled();
    expect(dialog.hasAttribute('open')).toBe(false);

    await fireEvent.click(within(await rowOf('am')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(dialog.hasAttribute('open')).toBe(true));
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Remove am' }));
    expect(api.removeChannel).toHaveBeenCalledWith({ id: 2, withDigests: false });
    expect((await screen.findByRole('status')).textContent).toBe('Removed “am”.');
  });

  it('the second step names the weekly digest the channel mails, which stops with it', async () => {
    api.listDigests.mockResolvedValue([
      {
        accountId: 7,
        account: 'Acme Corp',
        channelId: 1,
        channel: 'ops-mail',
        when: 'Mondays at 08:00 (UTC)',
      },
    ]);
    api.removeChannel.mockResolvedValue({ removed: true, digestsStopped: ['Acme Corp'] });
    render(NotificationChannels);
    await fireEvent.click(within(await rowOf('ops-mail')).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the channel “ops-mail”?' });
    expect(dialog.textContent).toContain(
      '“ops-mail” mails the weekly digest of “Acme Corp” (Mondays at 08:00 (UTC)). Removing the channel stops that digest too',
    );
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Remove ops-mail' }));
    expect(api.removeChannel).toHaveBeenCalledWith({ id: 1, withDigests: true });
    expect((await screen.findByRole('status')).textContent).toBe(
      'Removed “ops-mail”; the weekly digest of “Acme Corp” is no longer mailed.',
    );
  });

  it('a failure is said in its words and announced, whatever shape it crossed the bridge in', async () => {
    api.testChannel.mockRejectedValue('the outbox is held by another process');
    render(NotificationChannels);
    await fireEvent.click(within(await rowOf('ops-mail')).getByRole('button', { name: 'Send a test' }));
    expect((await screen.findByRole('alert')).textContent).toBe('the outbox is held by another process');
  });

  it('the buttons wait while an action runs', async () => {
    let finish: (value: unknown) => void = () => undefined;
    api.testChannel.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    render(NotificationChannels);
    const row = await rowOf('ops-mail');
    await fireEvent.click(within(row).getByRole('button', { name: 'Send a test' }));
    expect(within(row).getByRole('button', { name: 'Send a test' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Apply' })).toHaveProperty('disabled', true);
    finish({ ok: true });
    await screen.findByText('Test message sent to “ops-mail”.');
    await waitFor(() =>
      expect(within(row).getByRole('button', { name: 'Send a test' })).toHaveProperty('disabled', false),
    );
  });

  it('the metrics port says why it could not be served, tied to the field', async () => {
    api.getMetricsSetting.mockResolvedValue({
      enabled: true,
      port: 80,
      url: null,
      error: 'port 80 is in use',
    });
    render(NotificationChannels);
    const port = await screen.findByLabelText('Metrics port');
    await waitFor(() => expect(port.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(port.getAttribute('aria-describedby')!)?.textContent).toContain(
      'port 80 is in use',
    );
  });
});

describe('Weekly digest', () => {
  async function openForm() {
    render(WeeklyDigestSection);
    const mailIt = await screen.findByRole('button', { name: 'Mail it weekly' });
    // It waits for the email channels the digest can go by.
    await waitFor(() => expect(mailIt).toHaveProperty('disabled', false));
    await fireEvent.click(mailIt);
    return screen.getByRole('form', { name: 'Weekly digest of Acme Corp' });
  }

  it('a time that is not HH:MM is marked on the field, announced, and nothing is sent', async () => {
    const form = await openForm();
    const time = within(form).getByLabelText('Time');
    await fireEvent.input(time, { target: { value: '' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Save schedule' }));
    expect(api.saveDigest).not.toHaveBeenCalled();
    expect(time.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(time.getAttribute('aria-describedby')!)?.textContent).toContain(
      'Give the time as HH:MM.',
    );
    expect(within(form).getByRole('alert').textContent).toContain('Give the time as HH:MM.');
  });

  it('saves the schedule and says when it goes; a refusal is said in its words', async () => {
    api.saveDigest.mockRejectedValueOnce('“Mars/Olympus” is not a time zone');
    const form = await openForm();
    await fireEvent.input(within(form).getByLabelText('Time zone'), { target: { value: 'Mars/Olympus' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Save schedule' }));
    expect((await screen.findByRole('alert')).textContent).toBe('“Mars/Olympus” is not a time zone');

    api.saveDigest.mockResolvedValueOnce({
      account: 'Acme Corp',
      when: 'Mondays at 08:00 (UTC)',
      channel: 'ops-mail',
    });
    await fireEvent.input(within(form).getByLabelText('Time zone'), { target: { value: 'UTC' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Save schedule' }));
    expect(api.saveDigest).toHaveBeenLastCalledWith({
      accountId: 7,
      channelId: 1,
      weekday: 1,
      hour: 8,
      minute: 0,
      timeZone: 'UTC',
    });
    expect((await screen.findByRole('status')).textContent).toContain(
      'The weekly digest of “Acme Corp” goes Mondays at 08:00 (UTC) to “ops-mail”.',
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
