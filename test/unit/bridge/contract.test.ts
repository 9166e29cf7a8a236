import { describe, expect, it } from 'vitest';
import { BRIDGE_METHOD_NAMES, BridgeError, type BridgeMethods } from '../../../shared/bridge/contract.ts';
import { BRIDGE_EVENT_NAMES } from '../../../shared/bridge/events.ts';
import { EVENT_NAMES, METHOD_NAMES } from '../../../shared/bridge/methodNames.ts';
import { createBridgeClient } from '../../../shared/bridge/remote.ts';
import { createBridgeDispatcher } from '../../../shared/bridge/serve.ts';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch } from '../../../main/core/app.ts';
import { openMirror } from '../../support/openMirror.ts';

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

  it('refuses an edit body openapi.yaml does not allow before main sends it, naming the field', async () => {
    let called = false;
    const watching = createBridgeDispatcher({
      ...app,
      edit: async () => {
        called = true;
        throw new Error('not reached');
      },
    } as unknown as BridgeMethods);
    const bad = await watching('edit', {
      operation: 'setMtaStsMode',
      accountId: 1,
      domainId: 7,
      body: { mode: 'strict' },
    });
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', message: 'edit: body.mode: must be one of none, testing, enforce' },
    });
    const badLine = await watching('edit', {
      operation: 'updateMtaStsPolicy',
      accountId: 1,
      domainId: 7,
      body: { mode: 'enforce', mx: ['mx.example.com', 'bad..name'], max_age: 86400 },
    });
    if (badLine.ok) throw new Error('accepted');
    expect(badLine.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'body.mx[1]' })]),
    );
    const noBody = await watching('edit', { operation: 'resetMtaSts', accountId: 1, domainId: 7, body: {} });
    expect(noBody).toMatchObject({ ok: false, error: { message: 'edit: body: resetMtaSts takes no body' } });
    expect(called).toBe(false);
  });

  it('checks an edit’s answer data: the answer of a write is one object or nothing', async () => {
    const answer = (data: unknown) => ({
      operation: 'setMtaStsMode',
      status: 200,
      requestId: 'r1',
      data,
      repolled: [],
    });
    const serving = (result: unknown) =>
      createBridgeDispatcher({ ...app, edit: async () => result } as unknown as BridgeMethods);
    const args = { operation: 'setMtaStsMode', accountId: 1, domainId: 7, body: { mode: 'enforce' } };
    expect(await serving(answer({ mode: 'enforce' }))('edit', args)).toMatchObject({ ok: true });
    expect(await serving(answer(null))('edit', args)).toMatchObject({ ok: true });
    const list = await serving(answer([{ mode: 'enforce' }]))('edit', args);
    expect(list).toMatchObject({ ok: false, error: { code: 'internal_error' } });
    if (!list.ok) expect(JSON.stringify(list.error.details)).toMatch(/data/);
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
