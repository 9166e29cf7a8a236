/**
 * `authwatch checks`: the checks that belong to no domain — each account's API token, the app's delivery
 * channels — in a section of their own, with what the last look said, when, and when the next is, as a
 * person at a server reads them. Looked at by the real live-check runner over a mirror file, on the wall clock
 * the command reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../main/cli/run.ts';
import { recordTokenExpiry } from '../../../main/core/accounts/tokenExpiryRecord.ts';
import { LiveCheckRunner } from '../../../main/core/livechecks/liveCheckRunner.ts';
import {
  LIVE_CHECK_SETTINGS_KEY,
  readLiveCheckSettings,
} from '../../../main/core/livechecks/liveCheckSettings.ts';
import { LIVE_CHECKS } from '../../../main/core/livechecks/registry.ts';
import { openMirror } from '../../support/openMirror.ts';

const dir = mkdtempSync(join(tmpdir(), 'authwatch-app-checks-'));
const db = join(dir, 'mirror.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function checks(...args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(['checks', ...args, '--db', db], {
    env: {},
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    interrupted: () => new Promise<void>(() => undefined),
  });
  return { code, out, err };
}

/** The section's lines, without the domains' and the summary line's. */
const section = (out: string) => out.slice(out.indexOf('App and account checks'));

beforeAll(async () => {
  const mirror = openMirror(db);
  mirror.upsertAccount({ label: 'Acme MSP', baseUrl: 'https://app.example.net/api/v1' });
  const clientB = mirror.upsertAccount({ label: 'Client B', baseUrl: 'https://app.example.net/api/v1' });
  const now = Date.now();
  recordTokenExpiry(
    mirror,
    clientB.id,
    {
      userName: 'Ops',
      userEmail: 'ops@example.com',
      teamName: 'Client B',
      plan: 'protect',
      isTeamOwner: true,
      tokenName: 'desk',
      scopes: ['domains:read'],
      // Twelve days and an hour: "expires in 12 days" whenever the test runs.
      tokenExpiresAt: new Date(now + 12 * 86_400_000 + 3_600_000).toISOString(),
    },
    now,
  );
  const runner = new LiveCheckRunner({
    mirror,
    clock: { now: () => Date.now(), sleep: async () => {}, random: () => 0.5 },
    checks: [LIVE_CHECKS.token_expiry!, LIVE_CHECKS.channel_failing!],
    settings: readLiveCheckSettings({}),
    resolver: null,
    dnsTrusted: () => true,
    ca: undefined,
    afterWrite: async () => {},
  });
  await runner.round();
  mirror.close();
});

describe('authwatch checks: the app’s and the accounts’ own checks', () => {
  it('lists each account’s API token and the app’s delivery channels: result in words, last look, next look', async () => {
    const { code, out, err } = await checks();
    expect(err).toBe('');
    expect(code).toBe(0);
    const lines = section(out).split('\n');
    expect(lines[0]).toBe('App and account checks');
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {2}✕ API token of Client B: the API token expires in 12 days \(\d{4}-\d\d-\d\d\)$/,
      ),
    );
    expect(lines).toContainEqual(
      '  – API token of Acme MSP: the token has not been checked since this version',
    );
    expect(lines).toContainEqual('  ✓ Delivery channels of this app: every channel delivers');
    // Under each: when it looked (in words and exactly) and when it looks again (hourly; every minute).
    const under = (head: RegExp) => lines[lines.findIndex((l) => head.test(l)) + 1];
    expect(under(/API token of Client B/)).toMatch(
      /^ {6}checked just now \(\d{4}-\d\d-\d\dT[\d:.]+Z\) · next look in (59 minutes|60 minutes|1 hour)$/,
    );
    expect(under(/Delivery channels/)).toMatch(/ · next look within a minute$/);
  });

  it('with --label, the other accounts’ tokens are left out; the app’s own check stays', async () => {
    const { code, out } = await checks('--label', 'Client B');
    expect(code).toBe(0);
    expect(section(out)).toMatch(/API token of Client B/);
    expect(section(out)).not.toMatch(/Acme MSP/);
    expect(section(out)).toMatch(/Delivery channels of this app/);
  });

  it('--app --json gives them under appChecks: the expiring token with its words and date, each account’s and the app’s', async () => {
    const { code, out, err } = await checks('--app', '--json');
    expect(err).toBe('');
    expect(code).toBe(0);
    const { appChecks } = JSON.parse(out) as { appChecks: Record<string, unknown>[] };
    const clientB = appChecks.find(
      (c) => c['check'] === 'token_expiry' && (c['account'] as { label: string }).label === 'Client B',
    );
    expect(clientB).toMatchObject({
      label: 'API token',
      status: 'problem',
      result: expect.stringMatching(/^the API token expires in 12 days \(\d{4}-\d\d-\d\d\)$/),
      checkedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      nextAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      enabled: true,
    });
    expect(appChecks).toContainEqual(
      expect.objectContaining({
        check: 'channel_failing',
        account: null,
        status: 'ok',
        result: 'every channel delivers',
      }),
    );
    expect(appChecks.map((c) => (c['account'] as { label: string } | null)?.label ?? 'app')).toEqual(
      expect.arrayContaining(['Acme MSP', 'Client B', 'app']),
    );
    // --app without --json: the section alone, no summary line of the domains' checks before it.
    const text = await checks('--app');
    expect(text.out.startsWith('App and account checks\n')).toBe(true);
    expect(text.out).toMatch(/API token of Client B: the API token expires in 12 days/);
    // Without --app, --json stays the per-domain array scripts already read.
    expect(Array.isArray(JSON.parse((await checks('--json')).out))).toBe(true);
  });

  it('--app with --label leaves out the other accounts’ tokens; --app with --domain is refused', async () => {
    const { out } = await checks('--app', '--json', '--label', 'Client B');
    const labels = (JSON.parse(out) as { appChecks: { account: { label: string } | null }[] }).appChecks.map(
      (c) => c.account?.label ?? 'app',
    );
    expect(labels.sort()).toEqual(['Client B', 'app']);
    const refused = await checks('--app', '--domain', 'example.com');
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/--app shows the checks of no domain; leave out --domain/);
  });

  it('a kind turned off in Settings says so instead of a next look', async () => {
    const mirror = openMirror(db);
    mirror.setSetting(LIVE_CHECK_SETTINGS_KEY, {
      ...readLiveCheckSettings(mirror.getSetting(LIVE_CHECK_SETTINGS_KEY)),
      kinds: { tokenExpiry: { enabled: false } },
    });
    mirror.close();
    const { out } = await checks();
    const lines = section(out).split('\n');
    const under = lines[lines.findIndex((l) => /API token of Client B/.test(l)) + 1];
    expect(under).toMatch(/ · off in Settings → Live checks$/);
    expect(section(out)).toMatch(/every channel delivers\n.* · next look (within a minute|due now)/);
  });
});
