import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { openEngine, startWorld, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

const MIN = 60_000;

/** A fetch that records the paths it was asked for. */
function recordingFetch(paths: string[]): FetchLike {
  return async (request) => {
    paths.push(new URL(request.url).pathname);
    return fetch(request);
  };
}

describe('account-level failures', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  let paths: string[];

  beforeEach(async () => {
    await engine?.close();
    await world?.close();
    world = await startWorld(['acct.example']);
    paths = [];
    engine = openEngine(world, { fetch: recordingFetch(paths) });
  });
  afterAll(async () => {
    await engine?.close();
    await world?.close();
  });

  it('401 invalid_api_token pauses the account and raises ONE token_invalid alert; a new token resumes it', async () => {
    const own = await world.svc.createToken(['account:read', 'domains:read', 'tokens:write']);
    const { account } = await engine.app.addAccount({
      label: 'Acme',
      baseUrl: world.svc.baseUrl,
      token: own.token,
    });
    await engine.app.syncNow({ accountId: account.id });
    const revoke = await world.svc.call('DELETE', `/auth/tokens/${own.id}`, { token: own.token });
    expect(revoke.status).toBeLessThan(300);

    world.svc.clock.advance(6 * MIN);
    const [result] = await engine.app.syncNow({ accountId: account.id });
    expect(result!.paused).toBe('token_invalid');
    const tokenAlerts = () => engine.app.listAlerts({ accountId: account.id, rule: 'token_invalid' });
    expect(await tokenAlerts()).toHaveLength(1);
    expect((await engine.app.listAccounts())[0]!.pausedReason).toBe('token_invalid');
    expect(engine.notifier.notified.filter((a) => a.rule === 'token_invalid')).toHaveLength(1);

    // Paused: ticks make no requests; a manual retry fails again but adds no second alert.
    const before = paths.length;
    for (let i = 0; i < 5; i++) {
      world.svc.clock.advance(10 * MIN);
      await engine.scheduler.tick();
    }
    expect(paths.length).toBe(before);
    await engine.app.syncNow({ accountId: account.id });
    expect(await tokenAlerts()).toHaveLength(1);
    expect((await engine.app.syncStatus()).accounts[0]!.state).toBe('paused');

    // A new token is checked, stored and resumes syncing; success resolves the alert.
    const fresh = await world.svc.createToken(['account:read', 'domains:read']);
    await engine.app.updateAccount({ accountId: account.id, token: fresh.token });
    expect((await engine.app.listAccounts())[0]!.pausedReason).toBeNull();
    const [again] = await engine.app.syncNow({ accountId: account.id });
    expect(again!.paused).toBeNull();
    const alerts = await tokenAlerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.resolvedAt).not.toBeNull();
  });

  it('403 insufficient_scope stops that signal, records the missing scope, and keeps the account running', async () => {
    const narrow = await world.svc.createToken(['account:read']);
    const { account } = await engine.app.addAccount({
      label: 'Narrow',
      baseUrl: world.svc.baseUrl,
      token: narrow.token,
    });
    const [result] = await engine.app.syncNow({ accountId: account.id });
    expect(result!.paused).toBeNull();
    expect(result!.errors).toEqual([
      expect.objectContaining({
        signal: 'domains',
        code: 'insufficient_scope',
        missingScope: 'domains:read',
      }),
    ]);
    const state = engine.mirror.getSyncStates(account.id).find((s) => s.signal === 'domains')!;
    expect(state.lastError).toMatchObject({ code: 'insufficient_scope', missingScope: 'domains:read' });
    const status = (await engine.app.syncStatus()).accounts[0]!;
    expect(status.state).toBe('active');
    expect(status.errors[0]).toMatchObject({ signal: 'domains', missingScope: 'domains:read' });

    // Stopped: hours of ticks do not ask for it again (re-checked once a day or on a new token).
    const before = paths.filter((p) => p.endsWith('/domains')).length;
    for (let i = 0; i < 12; i++) {
      world.svc.clock.advance(60 * MIN);
      await engine.scheduler.tick();
    }
    expect(paths.filter((p) => p.endsWith('/domains')).length).toBe(before);
  });

  it.each([
    [
      'plan',
      `UPDATE teams SET plan = 'trial'`,
      `UPDATE teams SET plan = 'suite'`,
      'api_plan_not_eligible',
      'plan_not_eligible',
    ],
    [
      'access',
      'UPDATE teams SET api_access = 0',
      'UPDATE teams SET api_access = 1',
      'api_access_disabled',
      'api_access_disabled',
    ],
  ] as const)(
    '403 %s: pauses with one plain-words alert, re-checks hourly and resumes when fixed',
    async (_name, breakSql, fixSql, reason, rule) => {
      const { account } = await engine.app.addAccount({
        label: 'Team',
        baseUrl: world.svc.baseUrl,
        token: world.token,
      });
      await engine.app.syncNow({ accountId: account.id });
      world.svc.db.prepare(breakSql).run();
      world.svc.clock.advance(6 * MIN);
      await engine.scheduler.tick();
      expect((await engine.app.listAccounts())[0]!.pausedReason).toBe(reason);
      const alerts = await engine.app.listAlerts({ accountId: account.id, rule });
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.body).toMatch(/plan|API access/);
      expect(alerts[0]!.severity).toBe('critical');

      // Within the hour: nothing is asked. After it: one GET /auth/me, still blocked, still one alert.
      let before = paths.length;
      world.svc.clock.advance(30 * MIN);
      await engine.scheduler.tick();
      expect(paths.length).toBe(before);
      world.svc.clock.advance(31 * MIN);
      await engine.scheduler.tick();
      expect(paths.slice(before)).toEqual(['/api/v1/auth/me']);
      expect(await engine.app.listAlerts({ accountId: account.id, rule })).toHaveLength(1);

      world.svc.db.prepare(fixSql).run();
      world.svc.clock.advance(61 * MIN);
      before = paths.length;
      await engine.scheduler.tick();
      expect((await engine.app.listAccounts())[0]!.pausedReason).toBeNull();
      await engine.scheduler.tick();
      expect(paths.length).toBeGreaterThan(before + 1);
      const after = await engine.app.listAlerts({ accountId: account.id, rule });
      expect(after).toHaveLength(1);
      expect(after[0]!.resolvedAt).not.toBeNull();
    },
  );
});
