/** The preload exposes exactly the bridge: window.authwatch with the contract's methods and on(). */
import { describe, expect, it, vi } from 'vitest';
import { CALL_CHANNEL, EVENT_CHANNEL, METHOD_NAMES } from '../../../shared/bridge/methodNames.ts';
import { createFakeElectron } from '../../support/fakeElectron.ts';

const fake = vi.hoisted(() => ({ current: null as ReturnType<typeof createFakeElectron> | null }));
vi.mock('electron', () => fake.current!.module);

describe('preload', () => {
  it('exposes only window.authwatch, calling main over the bridge channel', async () => {
    const e = createFakeElectron({ userData: '/nonexistent' });
    fake.current = e;
    await import('../../../main/electron/preload.ts');
    expect(e.calls.filter((c) => c.method === 'contextBridge.exposeInMainWorld')).toEqual([
      { method: 'contextBridge.exposeInMainWorld', args: ['authwatch'] },
    ]);
    const api = e.exposed.authwatch as Record<string, (...a: unknown[]) => unknown>;
    expect(Object.keys(api).sort()).toEqual([...METHOD_NAMES, 'on'].sort());
    expect(Object.isFrozen(api)).toBe(true);

    e.module.ipcRenderer.reply = { ok: true, result: [] };
    expect(await api.listAlerts!({ open: true })).toEqual([]);
    expect(e.module.ipcRenderer.invocations).toEqual([[CALL_CHANNEL, 'listAlerts', { open: true }]]);

    e.module.ipcRenderer.reply = { ok: false, error: { code: 'invalid_arguments', message: 'bad' } };
    await expect(api.overview!({ accountId: -1 })).rejects.toMatchObject({
      name: 'BridgeError',
      code: 'invalid_arguments',
    });

    const seen: unknown[] = [];
    const off = (api.on as (e: string, l: (p: unknown) => void) => () => void)('navigate', (p) =>
      seen.push(p),
    );
    const sender = { sender: 'not for the page' };
    e.module.ipcRenderer.emit(EVENT_CHANNEL, sender, { event: 'navigate', payload: { route: '#/alerts' } });
    e.module.ipcRenderer.emit(EVENT_CHANNEL, sender, { event: 'changed', payload: {} });
    off();
    e.module.ipcRenderer.emit(EVENT_CHANNEL, sender, { event: 'navigate', payload: { route: '#/x' } });
    expect(seen).toEqual([{ route: '#/alerts' }]);
  });
});
