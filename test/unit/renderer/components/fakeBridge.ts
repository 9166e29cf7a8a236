/**
 * A stand-in for window.authwatch in component tests: every method a vi.fn the test answers, `on` a
 * subscription that hands back its unsubscribe. Used through vi.mock of the renderer's bridge module.
 */
import { vi } from 'vitest';
import type { BridgeApi } from '../../../../shared/bridge/contract.ts';

export type FakeApi = { [K in keyof BridgeApi]: ReturnType<typeof vi.fn> };

/** An api whose methods refuse (as an unreachable main would) until a test tells them what to answer. */
export function fakeApi(): FakeApi {
  return new Proxy({} as FakeApi, {
    get(target, name: string) {
      target[name as keyof FakeApi] ??=
        name === 'on'
          ? vi.fn(() => () => undefined)
          : vi.fn(() => Promise.reject(new Error(`${name}: not answered in this test`)));
      return target[name as keyof FakeApi];
    },
  });
}
