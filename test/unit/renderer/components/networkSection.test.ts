/** Settings → Network: what the way out is now, and a proxy or CA file set by hand — checked before it is sent. */
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { NetworkStatus } from '../../../../shared/bridge/network.ts';
import { api as bridgeApi } from '../../../../renderer/src/lib/bridge.svelte.ts';
import NetworkSection from '../../../../renderer/src/components/settings/NetworkSection.svelte';
import type { FakeApi } from './fakeBridge.ts';

vi.mock('../../../../renderer/src/lib/bridge.svelte.ts', async () => {
  const { fakeApi } = await import('./fakeBridge.ts');
  return { api: fakeApi(), shell: 'browser', hostLink: { connected: true } };
});
const api = bridgeApi as unknown as FakeApi;

const status = (over: Partial<NetworkStatus> = {}): NetworkStatus => ({
  settings: { proxy: 'system', proxyUrl: '', bypass: '', caFile: '' },
  system: 'environment',
  environment: { httpsProxy: 'http://proxy.corp.example:3128', httpProxy: '', noProxy: '.corp.example' },
  caFileFromStart: null,
  problem: null,
  ...over,
});

beforeEach(() => {
  vi.clearAllMocks();
  api.networkStatus.mockResolvedValue(status());
});

describe('Settings → Network', () => {
  it('says where requests go now: the environment’s proxy (never its password) and what goes direct', async () => {
    render(NetworkSection);
    expect((await screen.findByRole('status', { name: 'The way out now' })).textContent).toBe(
      'From the environment: https through http://proxy.corp.example:3128; direct to .corp.example.',
    );
  });

  it('refuses a proxy address with a password before sending it, then saves a proxy and its bypass list', async () => {
    render(NetworkSection);
    await fireEvent.change(await screen.findByLabelText('Proxy'), { target: { value: 'manual' } });
    const address = await screen.findByLabelText(/Proxy address/);
    await fireEvent.input(address, { target: { value: 'http://bob:hunter2@proxy:3128' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save network' }));
    expect(await screen.findByText(/Leave the user name and password out/)).toBeTruthy();
    expect(api.updateNetwork).not.toHaveBeenCalled();

    api.updateNetwork.mockResolvedValue(
      status({
        settings: { proxy: 'manual', proxyUrl: 'http://proxy:3128', bypass: '10.0.0.0/8', caFile: '' },
      }),
    );
    await fireEvent.input(address, { target: { value: 'http://proxy:3128' } });
    await fireEvent.input(screen.getByLabelText(/Go direct to/), { target: { value: '10.0.0.0/8' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save network' }));
    await waitFor(() =>
      expect(api.updateNetwork).toHaveBeenCalledWith({
        proxy: 'manual',
        proxyUrl: 'http://proxy:3128',
        bypass: '10.0.0.0/8',
        caFile: '',
      }),
    );
    expect((await screen.findByRole('status', { name: 'The way out now' })).textContent).toBe(
      'Requests go through the proxy at http://proxy:3128, except to 10.0.0.0/8.',
    );
  });

  it('shows the app’s refusal of a CA file on that field', async () => {
    api.updateNetwork.mockRejectedValue(
      Object.assign(new Error('caFile: …'), {
        code: 'invalid_arguments',
        details: [
          {
            path: 'caFile',
            message: 'The CA file /tmp/x.pem (Settings → Network) could not be read: there is no such file.',
          },
        ],
      }),
    );
    render(NetworkSection);
    await fireEvent.input(await screen.findByLabelText(/Extra certificate authorities/), {
      target: { value: '/tmp/x.pem' },
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Save network' }));
    expect(await screen.findByText(/could not be read: there is no such file/)).toBeTruthy();
  });
});
