/**
 * A resolver the DNS watch cannot trust (NXDOMAIN for every name) is said once, in words with what to do, on
 * the sync line and on the domain's DNS tab — and nowhere while it can be trusted.
 */
import { render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api as bridgeApi } from '../../../../renderer/src/lib/bridge.svelte.ts';
import { session } from '../../../../renderer/src/lib/stores/session.svelte.ts';
import SyncSummary from '../../../../renderer/src/components/SyncSummary.svelte';
import DnsWatchPanel from '../../../../renderer/src/components/domain/DnsWatchPanel.svelte';
import type { FakeApi } from './fakeBridge.ts';

vi.mock('../../../../renderer/src/lib/bridge.svelte.ts', async () => {
  const { fakeApi } = await import('./fakeBridge.ts');
  return { api: fakeApi(), shell: 'browser', hostLink: { connected: true } };
});
const api = bridgeApi as unknown as FakeApi;

const UNAVAILABLE = {
  reason: '10.255.255.53:53 answers that the DNS root itself does not exist (NXDOMAIN)',
  resolver: '10.255.255.53:53',
  since: '2026-11-29T00:00:00Z',
};
const SAID =
  'DNS unavailable: 10.255.255.53:53 answers that the DNS root itself does not exist (NXDOMAIN). The DNS watch ignores its answers — pick a resolver in Settings → DNS watch.';

const record = {
  protocol: 'dmarc' as const,
  name: '_dmarc.a.example',
  answer: 'unknown' as const,
  value: null,
  reason: 'the resolver cannot be trusted',
  ttl: null,
  resolver: '10.255.255.53:53',
  checkedAt: '2026-11-29T00:01:00Z',
  state: 'connected' as const,
  stateSince: '2026-11-01T00:00:00Z',
  serviceConnected: true,
};

afterEach(() => {
  session.sync = null;
});

describe('DNS unavailable', () => {
  it('is said on the sync line with what to do, once for every account', () => {
    session.sync = { running: true, accounts: [], dnsUnavailable: UNAVAILABLE };
    const { container } = render(SyncSummary);
    const line = container.querySelector('[data-sync="dns-unavailable"]')!;
    expect(line.textContent).toContain(SAID);
    expect(screen.getByRole('link', { name: 'Open Settings' }).getAttribute('href')).toBe('#/settings');
    expect(container.textContent!.split('DNS unavailable').length - 1).toBe(1);
  });

  it('is not said while the resolver can be trusted', () => {
    session.sync = { running: true, accounts: [], dnsUnavailable: null };
    const { container } = render(SyncSummary);
    expect(container.textContent).not.toContain('DNS unavailable');
  });

  it('is said once at the top of the DNS tab, the records only unknown', async () => {
    api.domainDnsWatch.mockResolvedValue({
      watching: true,
      records: [record, { ...record, protocol: 'spf', name: 'a.example' }],
      serviceScannedAt: null,
      disagreements: [],
      unavailable: UNAVAILABLE,
    });
    render(DnsWatchPanel, { accountId: 1, domainId: 1 });
    const status = await screen.findByText((_, el) => el?.getAttribute('data-dns') === 'unavailable');
    expect(status.textContent).toContain(SAID);
    expect(screen.getAllByText('unknown')).toHaveLength(2);
    expect(document.body.textContent!.split('pick a resolver').length - 1).toBe(1);
  });
});
