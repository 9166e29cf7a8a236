import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountKey } from '../../../../main/core/accounts/accountKey.ts';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import type { SecretStore } from '../../../../main/core/accounts/secretStore.ts';
import { AuthwatchError, createAuthwatch, type Authwatch } from '../../../../main/core/app.ts';
import { openMirror } from '../../../support/openMirror.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { manualScheduler } from '../../../../main/core/sync/scheduler.ts';
import { rejection } from '../../../support/rejection.ts';

const TOKEN = 'aw_test_secret_token_4242';

/** A tiny v1 look-alike: GET /auth/me accepts only TOKEN; every other call is counted and answered 500. */
let server: Server;
let baseUrl: string;
const seen: { method: string; path: string; token: string | undefined; body: string }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const token = req.headers['x-api-token'] as string | undefined;
      seen.push({ method: req.method!, path: req.url!, token, body });
      res.setHeader('content-type', 'application/json');
      if (token !== TOKEN) {
        res
          .writeHead(401)
          .end(
            JSON.stringify({ error: { code: 'invalid_api_token', message: 'bad token', request_id: 'r1' } }),
          );
      } else if (req.url === '/api/v1/auth/me') {
        res.end(
          JSON.stringify({
            data: {
              user: { name: 'Ada', email: 'ada@example.com' },
              team: { name: 'T', plan: 'suite' },
              is_team_owner: true,
              token: { name: 'ci', scopes: ['domains:read'] },
            },
          }),
        );
      } else if (req.url?.startsWith('/api/v1/domains/7/mta-sts/mode')) {
        res.end(JSON.stringify({ data: { mode: JSON.parse(body).mode } }));
      } else if (req.url?.startsWith('/api/v1/domains/8/mta-sts/mode')) {
        // A service answering a mode openapi.yaml does not list.
        res.end(JSON.stringify({ data: { mode: 'strict' } }));
      } else {
        res
          .writeHead(500)
          .end(JSON.stringify({ error: { code: 'internal_error', message: 'no', request_id: 'r2' } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}/api/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let mirror: Mirror;
let secrets: SecretStore;
let app: Authwatch;
beforeEach(() => {
  seen.length = 0;
  mirror = openMirror(':memory:');
  secrets = memorySecretStore();
  app = createAuthwatch({ mirror, secretStore: secrets, scheduler: manualScheduler() });
});
afterEach(async () => {
  await app.stop();
  mirror.close();
});

/** The rejection of a facade call. */
const failure = (call: Promise<unknown>) => rejection(call, AuthwatchError);

describe('facade arguments', () => {
  it('rejects malformed arguments with invalid_arguments naming the field, before any I/O', async () => {
    const cases: [Promise<unknown>, RegExp][] = [
      [app.domainDetail({ accountId: 'one', domainId: 2 } as never), /accountId/],
      [app.history({ kind: 'weather', accountId: 1, domainId: 1 } as never), /kind/],
      [app.listAlerts({ domainId: 3 }), /domainId needs accountId/],
      [app.listAlerts({ rule: 'score_droped' }), /rule: “score_droped” is not an alert any rule raises/],
      [app.listIncidents({ rule: 'weather' }), /rule: “weather” is not an alert any rule raises/],
      [app.snoozeAlert({ id: 1, until: 'tomorrow' }), /until/],
      [app.acknowledgeAlerts({ ids: [] }), /ids/],
      [app.addAccount({ label: '', baseUrl, token: TOKEN }), /label/],
      [app.updateSettings({}), /nothing to change/],
      [app.updateSettings({ sync: { ratePerMinute: 10, headroom: 10 } }), /headroom/],
      [app.edit({ operation: 'dropDatabase', accountId: 1 } as never), /operation/],
      [app.overview({ accountId: 1, extra: true } as never), /extra|Unrecognized/i],
    ];
    for (const [call, pattern] of cases) {
      const error = await failure(call);
      expect(error.code).toBe('invalid_arguments');
      expect(error.message).toMatch(pattern);
    }
    expect(seen).toEqual([]);
  });

  it('serves every alert the rules raise with its words, the names the alert filters accept', async () => {
    const rules = await app.alertRules();
    expect(rules.find((r) => r.name === 'dmarc_policy_weakened')).toEqual({
      name: 'dmarc_policy_weakened',
      label: 'DMARC policy weakened',
      description: expect.stringMatching(/^The live DMARC record asks for less/),
      severity: 'warning',
    });
    expect(rules.map((r) => r.name)).toEqual(
      expect.arrayContaining(['protocol_disconnected', 'token_invalid']),
    );
    for (const { name } of rules) await expect(app.listAlerts({ rule: name })).resolves.toEqual([]);
  });

  it('returns plain JSON (what crosses the bridge) from reads', async () => {
    await app.addAccount({ label: 'Acme', baseUrl, token: TOKEN });
    for (const result of [
      await app.listAccounts(),
      await app.syncStatus(),
      await app.getSettings(),
      await app.editOperations(),
    ]) {
      expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    }
  });
});

describe('facade accounts', () => {
  it('checks the token with GET /auth/me before saving it in the secret store only', async () => {
    const { account, identity } = await app.addAccount({
      label: 'Acme',
      baseUrl: `${baseUrl}/`,
      token: TOKEN,
    });
    expect(account).toMatchObject({ label: 'Acme', baseUrl, pausedReason: null });
    expect(identity).toMatchObject({
      userName: 'Ada',
      teamName: 'T',
      isTeamOwner: true,
      scopes: ['domains:read'],
    });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /api/v1/auth/me']);
    expect(await secrets.get(accountKey(account))).toBe(TOKEN);
    expect(JSON.stringify(await app.listAccounts())).not.toContain(TOKEN);
    expect(JSON.stringify(mirror.listAccounts())).not.toContain(TOKEN);
  });

  it('refuses a token the service rejects, saving nothing and never echoing it', async () => {
    const error = await failure(app.addAccount({ label: 'Acme', baseUrl, token: 'aw_wrong_token_9999' }));
    expect(error.code).toBe('api_error');
    expect(error.message).toMatch(/does not accept this token/);
    expect(JSON.stringify(error)).not.toContain('aw_wrong_token_9999');
    expect(await app.listAccounts()).toEqual([]);
  });

  it('refuses a second account with the same label', async () => {
    await app.addAccount({ label: 'Acme', baseUrl, token: TOKEN });
    expect((await failure(app.addAccount({ label: 'Acme', baseUrl, token: TOKEN }))).code).toBe('conflict');
  });

  it('removing an account deletes its token from the secret store', async () => {
    const { account } = await app.addAccount({ label: 'Acme', baseUrl, token: TOKEN });
    expect(await app.removeAccount({ accountId: account.id })).toEqual({
      removed: true,
      secretDeleted: true,
    });
    expect(await secrets.get(accountKey(account))).toBeNull();
    expect(await app.listAccounts()).toEqual([]);
  });

  it('renaming moves the token to the new key', async () => {
    const { account } = await app.addAccount({ label: 'Acme', baseUrl, token: TOKEN });
    const renamed = await app.updateAccount({ accountId: account.id, label: 'Acme EU' });
    expect(await secrets.get(accountKey(renamed))).toBe(TOKEN);
    expect(await secrets.get(accountKey(account))).toBeNull();
    expect(await app.testAccount({ accountId: account.id })).toMatchObject({ ok: true });
  });
});

describe('facade edits', () => {
  it('validates the body against the operation before sending anything', async () => {
    const { account } = await app.addAccount({ label: 'Acme', baseUrl, token: TOKEN });
    seen.length = 0;
    const bad = await failure(
      // @ts-expect-error the contract's types refuse a mode openapi.yaml does not list; main must refuse it too
      app.edit({ operation: 'setMtaStsMode', accountId: account.id, domainId: 7, body: { mode: 'strict' } }),
    );
    expect(bad.code).toBe('invalid_arguments');
    expect(bad.message).toMatch(/mode/);
    const noDomain = await failure(
      app.edit({ operation: 'setMtaStsMode', accountId: account.id, body: { mode: 'enforce' } }),
    );
    expect(noDomain.message).toMatch(/domainId/);
    const noBody = await failure(
      // @ts-expect-error the contract's types know resetMtaSts takes no body; main must refuse one too
      app.edit({ operation: 'resetMtaSts', accountId: account.id, domainId: 7, body: {} }),
    );
    expect(noBody.message).toMatch(/takes no body/);
    expect(seen).toEqual([]);
  });

  it('sends a valid edit with the token header and returns the service’s answer', async () => {
    const { account } = await app.addAccount({ label: 'Acme', baseUrl, token: TOKEN });
    seen.length = 0;
    const result = await app.edit({
      operation: 'setMtaStsMode',
      accountId: account.id,
      domainId: 7,
      body: { mode: 'enforce' },
    });
    expect(result).toMatchObject({
      operation: 'setMtaStsMode',
      status: 200,
      data: { mode: 'enforce' },
      repolled: [],
    });
    expect(seen).toEqual([
      { method: 'PATCH', path: '/api/v1/domains/7/mta-sts/mode', token: TOKEN, body: '{"mode":"enforce"}' },
    ]);
  });

  it('keeps an edit made when its answer breaks openapi.yaml, without handing the answer over', async () => {
    const { account } = await app.addAccount({ label: 'Acme', baseUrl, token: TOKEN });
    const result = await app.edit({
      operation: 'setMtaStsMode',
      accountId: account.id,
      domainId: 8,
      body: { mode: 'enforce' },
    });
    expect(result).toMatchObject({ operation: 'setMtaStsMode', status: 200, data: null });
    expect(seen.at(-1)).toMatchObject({ method: 'PATCH', path: '/api/v1/domains/8/mta-sts/mode' });
  });

  it('turns a service failure into an api_error carrying the code and request id, not the token', async () => {
    const { account } = await app.addAccount({ label: 'Acme', baseUrl, token: TOKEN });
    const error = await failure(app.edit({ operation: 'resetMtaSts', accountId: account.id, domainId: 7 }));
    expect(error.code).toBe('api_error');
    expect(error.details).toMatchObject({ status: 500, code: 'internal_error', requestId: 'r2' });
    expect(JSON.stringify(error) + String(error)).not.toContain(TOKEN);
  });
});

describe('facade settings and delivery', () => {
  it('stores quiet hours and thresholds; refuses an unknown time zone as invalid_arguments', async () => {
    const updated = await app.updateSettings({
      alerts: { quietHours: { startHour: 22, endHour: 7 }, scoreStep: 0.5 },
    });
    expect(updated.alerts).toMatchObject({ quietHours: { startHour: 22, endHour: 7 }, scoreStep: 0.5 });
    expect((await app.getSettings()).alerts.quietHours).toEqual({ startHour: 22, endHour: 7 });
    const error = await failure(app.updateSettings({ alerts: { timeZone: 'Mars/Olympus_Mons' } }));
    expect(error.code).toBe('invalid_arguments');
    expect((await app.getSettings()).alerts.timeZone).toBeNull();
  });

  it('delivers a pending alert on the next tick, retries after a notifier failure, and never twice', async () => {
    const scheduler = manualScheduler();
    const shown: string[] = [];
    let failNext = true;
    const notifying = createAuthwatch({
      mirror,
      secretStore: secrets,
      scheduler,
      notifier: {
        channel: 'desktop',
        notify(alert) {
          if (failNext) {
            failNext = false;
            throw new Error('notification daemon not running');
          }
          shown.push(alert.title);
        },
      },
    });
    const delivered: number[] = [];
    notifying.on((event) => {
      if (event.type === 'alert_delivered') delivered.push(event.alert.id);
    });
    const account = mirror.upsertAccount({ label: 'Acme', baseUrl });
    mirror.setAccountPaused(account.id, 'token_invalid'); // nothing to sync: only delivery happens
    const raised = mirror.raiseAccountAlert({ accountId: account.id, kind: 'token_invalid' }).alerts[0]!;

    notifying.start();
    await scheduler.tick();
    expect(shown).toEqual([]);
    expect(mirror.pendingDeliveries().map((a) => a.id)).toEqual([raised.id]);
    await scheduler.tick();
    expect(shown).toEqual([raised.title]);
    expect(delivered).toEqual([raised.id]);
    expect(mirror.deliveries(raised.id).map((d) => d.channel)).toEqual(['desktop']);
    await scheduler.tick();
    expect(shown).toHaveLength(1);
    await notifying.stop();
    expect(seen).toEqual([]);
  });
});

describe('facade lifecycle', () => {
  it('stop() resolves only after the scheduled tick in flight has written its result', async () => {
    const scheduler = manualScheduler();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    const gated = createAuthwatch({
      mirror,
      secretStore: secrets,
      scheduler,
      fetch: async (request) => {
        if (!new URL(request.url).pathname.endsWith('/auth/me')) {
          held += 1;
          await gate;
        }
        return fetch(request);
      },
    });
    const { account } = await gated.addAccount({ label: 'Acme', baseUrl, token: TOKEN });
    gated.start();
    const tick = scheduler.tick();
    await vi.waitFor(() => expect(held).toBeGreaterThan(0));
    let stopped = false;
    const stopping = gated.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    // The tick's fetch (answered 500) was recorded before stop() resolved, so closing the mirror is safe.
    expect(mirror.getSyncStates(account.id).some((s) => s.lastError !== null)).toBe(true);
    await tick;
  });
});
