/**
 * The domain's senders table on the kit's DataTable: sorted by name, volume or compliance from the headers
 * (buttons, so the keyboard reaches them), and a sender's history opened under its row (Enter on the row, or its History button).
 */
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SenderPoll } from '../../../../shared/bridge/senders.ts';
import { api as bridgeApi } from '../../../../renderer/src/lib/bridge.svelte.ts';
import type { SenderRow } from '../../../../renderer/src/lib/senderRows.ts';
import SendersTable from '../../../../renderer/src/components/domain/SendersTable.svelte';
import type { FakeApi } from './fakeBridge.ts';

vi.mock('../../../../renderer/src/lib/bridge.svelte.ts', async () => {
  const { fakeApi } = await import('./fakeBridge.ts');
  return { api: fakeApi(), shell: 'browser', hostLink: { connected: true } };
});
const api = bridgeApi as unknown as FakeApi;

const poll = (at: string, total: number): SenderPoll => ({
  kind: 'sending',
  at,
  lastAt: at,
  windowStart: '2026-10-27',
  windowEnd: '2026-11-26',
  total,
  dmarcPass: total,
  dmarcFail: 0,
  compliance: 100,
  status: 'compliant',
  threat: false,
});
const sender = (
  name: string,
  total: number,
  compliance: number,
  extra: Partial<SenderRow> = {},
): SenderRow => ({
  name,
  failing: compliance < 98,
  threat: false,
  status: compliance >= 98 ? 'compliant' : compliance >= 90 ? 'partial' : 'failing',
  total,
  dmarcPass: Math.round((total * compliance) / 100),
  dmarcFail: total - Math.round((total * compliance) / 100),
  compliance,
  trend: null,
  ...extra,
});

// As the mirror gives them: the registered threat first, then failing senders, then the rest.
const ROWS = [
  sender('bulletproof-hosting.test', 6_761, 0, { threat: true }),
  sender('alumni-lists.test', 353, 68.6),
  sender('Amazon SES', 59_760, 100, {
    trend: [poll('2026-11-25T10:00:00Z', 59_000), poll('2026-11-26T10:00:00Z', 59_760)],
  }),
  sender('microsoft', 10_545, 99.9),
];

const table = () => screen.getByRole('table', { name: 'Every sender of acme-pay.example' });
const names = () =>
  within(table())
    .getAllByRole('row')
    .filter((r) => r.hasAttribute('data-row'))
    .map((r) => r.querySelector('strong')!.textContent);
async function sortBy(label: RegExp) {
  // A header's sort is a real button, so Tab reaches it and Enter or Space press it (the browser's part).
  const button = within(within(table()).getByRole('columnheader', { name: label })).getByRole('button');
  expect(button.tagName).toBe('BUTTON');
  await fireEvent.click(button);
}

beforeEach(() => vi.clearAllMocks());

describe('Senders table', () => {
  function show() {
    render(SendersTable, {
      rows: ROWS,
      caption: 'Every sender of acme-pay.example',
      accountId: 1,
      domainId: 2,
    });
  }

  it('keeps the given order until a header is chosen, the threat tinted', () => {
    show();
    expect(names()).toEqual(['bulletproof-hosting.test', 'alumni-lists.test', 'Amazon SES', 'microsoft']);
    expect(within(table()).getAllByRole('row')[1]!.className).toContain('threat');
  });

  it('sorts by name, by volume (largest first) and by compliance (lowest first), aria-sort saying which', async () => {
    show();
    await sortBy(/Source/);
    expect(names()).toEqual(['alumni-lists.test', 'Amazon SES', 'bulletproof-hosting.test', 'microsoft']);
    await sortBy(/Messages/);
    expect(names()).toEqual(['Amazon SES', 'microsoft', 'bulletproof-hosting.test', 'alumni-lists.test']);
    expect(
      within(table())
        .getByRole('columnheader', { name: /Messages/ })
        .getAttribute('aria-sort'),
    ).toBe('descending');
    await sortBy(/Compliance/);
    expect(names()).toEqual(['bulletproof-hosting.test', 'alumni-lists.test', 'microsoft', 'Amazon SES']);
  });

  it('opens a sender’s history under its row with Enter, and the arrows still move from row to row', async () => {
    api.senderHistory.mockResolvedValue([
      poll('2026-11-25T10:00:00Z', 59_000),
      poll('2026-11-26T10:00:00Z', 59_760),
    ]);
    show();
    const rows = within(table())
      .getAllByRole('row')
      .filter((r) => r.hasAttribute('data-row'));
    const ses = rows[2]!;
    ses.focus();
    await fireEvent.keyDown(ses, { key: 'Enter' });
    const toggle = within(ses).getByRole('button', { name: 'Hide history of Amazon SES' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const history = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(
      await within(history).findByRole('table', { name: 'Polls of Amazon SES, newest first' }),
    ).toBeTruthy();
    expect(api.senderHistory).toHaveBeenCalledWith({ accountId: 1, domainId: 2, source: 'Amazon SES' });

    await fireEvent.keyDown(ses, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rows[3]);
    await fireEvent.keyDown(rows[3]!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(ses);
    await fireEvent.keyDown(ses, { key: 'Enter' });
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)).toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });
});
