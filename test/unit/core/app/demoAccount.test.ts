import { describe, expect, it } from 'vitest';
import { addDemoAccount, DEMO_ACCOUNT_ENV } from '../../../../main/core/app/demoAccount.ts';

function fakeApp() {
  const added: { label: string; baseUrl: string; token: string }[] = [];
  const liveChecks: unknown[] = [];
  return {
    added,
    liveChecks,
    updateLiveChecks: async (settings: unknown) => {
      liveChecks.push(settings);
      return {} as never;
    },
    listAccounts: async () =>
      added.map((a, i) => ({
        id: i + 1,
        label: a.label,
        baseUrl: a.baseUrl,
        createdAt: '',
        pausedReason: null,
      })),
    addAccount: async (a: { label: string; baseUrl: string; token: string }) => {
      added.push(a);
      return {} as never;
    },
  };
}

describe('addDemoAccount (npm run demo → the desktop app)', () => {
  const account = {
    label: 'Acme Corp (demo)',
    baseUrl: 'http://127.0.0.1:8787/api/v1',
    token: 'awt_demo-token-value',
  };

  it('adds the account through the facade once and removes the variable so nothing inherits the token', async () => {
    const app = fakeApp();
    const env: NodeJS.ProcessEnv = { [DEMO_ACCOUNT_ENV]: JSON.stringify(account) };
    expect(await addDemoAccount(app, env)).toBe(account.label);
    expect(app.added).toEqual([account]);
    expect(env[DEMO_ACCOUNT_ENV]).toBeUndefined();
    await addDemoAccount(app, { [DEMO_ACCOUNT_ENV]: JSON.stringify(account) });
    expect(app.added).toHaveLength(1);
  });

  it('does nothing without the variable, and refuses a malformed one without echoing it', async () => {
    const app = fakeApp();
    expect(await addDemoAccount(app, {})).toBeNull();
    const error = await addDemoAccount(app, { [DEMO_ACCOUNT_ENV]: '{"token":"awt_secret-value"}' }).catch(
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain('secret-value');
    expect(app.added).toEqual([]);
  });

  it('points the live checks at the demo’s reference world when it says where that is', async () => {
    const app = fakeApp();
    const liveChecks = {
      httpsPort: 40443,
      smtpPort: 40025,
      extraCaFile: '/tmp/demo/reference-ca.pem',
      kinds: { dnsbl: { enabled: true, zones: ['bl.authwatch.test'] } },
    };
    await addDemoAccount(app, { [DEMO_ACCOUNT_ENV]: JSON.stringify({ ...account, liveChecks }) });
    expect(app.liveChecks).toEqual([liveChecks]);
    expect(app.added).toEqual([account]);
  });
});
