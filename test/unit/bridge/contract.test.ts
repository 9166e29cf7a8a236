import { describe, expect, it } from 'vitest';
import { BRIDGE_METHOD_NAMES, BridgeError, type BridgeMethods } from '../../../shared/bridge/contract.ts';
import { BRIDGE_EVENT_NAMES } from '../../../shared/bridge/events.ts';
import { EVENT_NAMES, METHOD_NAMES } from '../../../shared/bridge/methodNames.ts';
import { createBridgeClient } from '../../../shared/bridge/remote.ts';
import { createBridgeDispatcher } from '../../../shared/bridge/serve.ts';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch } from '../../../main/core/app.ts';
import { openMirror } from '../../../main/core/mirror/index.ts';

describe('the bridge contract', () => {
  it('the preload’s plain name lists are exactly the contract’s methods and events', () => {
    expect([...METHOD_NAMES].sort()).toEqual([...BRIDGE_METHOD_NAMES].sort());
    expect([...EVENT_NAMES].sort()).toEqual([...BRIDGE_EVENT_NAMES].sort());
  });

  it('the facade implements every method of the contract', () => {
    const app = createAuthwatch({ mirror: openMirror(':memory:'), secretStore: memorySecretStore() });
    for (const name of BRIDGE_METHOD_NAMES) expect(typeof app[name], name).toBe('function');
  });
});

describe('createBridgeDispatcher', () => {
  const app = createAuthwatch({ mirror: openMirror(':memory:'), secretStore: memorySecretStore() });
  const dispatch = createBridgeDispatcher(app);

  it('rejects names that are not methods, prototype names included', async () => {
    for (const name of ['nope', 'constructor', '__proto__', 'toString', 'on', 'start', 'stop', 42, null]) {
      const reply = await dispatch(name, undefined);
      expect(reply.ok, String(name)).toBe(false);
      if (!reply.ok) expect(reply.error.code).toBe('unknown_method');
    }
  });

  it('rejects malformed arguments before calling main, naming the field but never echoing the value', async () => {
    const token = 'awt_THIS-IS-A-SECRET-TOKEN-VALUE';
    const reply = await dispatch('addAccount', { label: '', baseUrl: 'x', token, extra: token });
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.code).toBe('invalid_arguments');
    expect(JSON.stringify(reply.error)).not.toContain('SECRET');
    expect(JSON.stringify(reply.error.details)).toMatch(/label/);
  });

  it('checks results too: a method answering the wrong shape is a clear internal error, not garbage on screen', async () => {
    const broken = { ...app, listAccounts: async () => [{ id: 'one' }] } as unknown as BridgeMethods;
    const problems: string[] = [];
    const reply = await createBridgeDispatcher(broken, (method) => problems.push(method))(
      'listAccounts',
      undefined,
    );
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error.code).toBe('internal_error');
    expect(problems).toEqual(['listAccounts']);
  });

  it('checks a panel’s data against its panel: a list panel answering one object is refused', async () => {
    const answer = (panel: string, data: unknown) => ({
      panel,
      data,
      pagination: null,
      fetchedAt: '2026-11-26T10:00:00.000Z',
      source: 'live',
      error: null,
    });
    const serving = (result: unknown) =>
      createBridgeDispatcher({ ...app, readPanel: async () => result } as unknown as BridgeMethods);
    const args = { panel: 'users', accountId: 1 };
    expect((await serving(answer('users', [{ id: 1, name: 'Ada' }]))('readPanel', args)).ok).toBe(true);
    expect((await serving(answer('users', null))('readPanel', args)).ok).toBe(true);
    const wrong = await serving(answer('users', { id: 1, name: 'Ada' }))('readPanel', args);
    expect(wrong).toMatchObject({ ok: false, error: { code: 'internal_error' } });
    const notObject = await serving(answer('bimi_readiness', ['ready']))('readPanel', args);
    expect(notObject.ok).toBe(false);
  });

  it('turns a facade error into plain data with its code', async () => {
    const reply = await dispatch('acknowledgeAlerts', { ids: [999] });
    expect(reply).toEqual({ ok: false, error: expect.objectContaining({ code: 'not_found' }) });
  });
});

describe('createBridgeClient', () => {
  it('exposes exactly the contract’s methods and on(), frozen, and rebuilds errors as BridgeError', async () => {
    const api = createBridgeClient({
      invoke: async (method) =>
        method === 'listAccounts'
          ? { ok: true, result: [] }
          : { ok: false, error: { code: 'not_found', message: 'gone', details: { x: 1 } } },
      subscribe: () => () => undefined,
    });
    expect(Object.keys(api).sort()).toEqual([...METHOD_NAMES, 'on'].sort());
    expect(Object.isFrozen(api)).toBe(true);
    expect(await api.listAccounts()).toEqual([]);
    const error = await api.getSettings().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: 'not_found', message: 'gone', details: { x: 1 } });
    expect(() => api.on('nope' as never, () => undefined)).toThrow(/No event/);
  });
});
