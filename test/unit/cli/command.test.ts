import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../support/manualClock.ts';
import { startService, type ServiceHarness } from '../../support/serviceHarness.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node bin/authwatch.mjs …` as a user would, without blocking the in-process service. */
function authwatch(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/authwatch.mjs', ...args], {
      cwd: repoRoot,
      // No D-Bus session: the keychain is unreachable unless a test provides AUTHWATCH_TOKEN.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The tests that run the command four or five times: each run is a Node process that compiles the CLI through
 * tsx (~3-8 s on a loaded 2-core machine), so vitest's 30 s per test is too short for them there.
 */
const SPAWNS_TIMEOUT_MS = 120_000;

let home: string;
let svc: ServiceHarness;
let token: string;
let db: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'authwatch-cli-'));
  db = join(home, 'mirror.db');
  // The command runs on the wall clock, so the service stands at the real "now" too.
  svc = await startService({ clock: createManualClock(new Date()) });
  token = (await svc.createToken(['account:read', 'domains:read', 'domains:write'])).token;
  for (const fqdn of ['alpha.example', 'beta.example']) {
    const res = await svc.call('POST', '/domains', { token, body: { fqdn } });
    expect(res.status).toBe(201);
    await svc.sandbox('PUT', `/dns/${fqdn}/spf`, { value: 'v=spf1 -all' });
    await svc.sandbox('PUT', `/dns/${fqdn}/dmarc`, { value: 'v=DMARC1; p=reject' });
  }
  await svc.sandbox('POST', '/scan', {});
});

afterAll(async () => {
  await svc?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('authwatch command', () => {
  it('refuses a --token flag with an explanation and exit status 2, never echoing the token', async () => {
    const run = await authwatch(['sync', '--once', '--token', 'tok_should_not_echo']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/AUTHWATCH_TOKEN/);
    expect(run.stderr + run.stdout).not.toContain('tok_should_not_echo');
  });

  it('exits 2 with usage for a wrong command line', async () => {
    const run = await authwatch(['sync']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/exactly one of --once or --watch/);
    expect(run.stderr).toMatch(/Usage: authwatch/);
  });

  it('fails clearly (exit 1) when no token is available: no AUTHWATCH_TOKEN and no keychain', async () => {
    const run = await authwatch([
      'sync',
      '--once',
      '--db',
      db,
      '--base-url',
      svc.baseUrl,
      '--label',
      'Nokey',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/keychain/i);
    expect(run.stderr).toMatch(/AUTHWATCH_TOKEN/);
  });

  it('fails with exit 1 when the service rejects the token', async () => {
    const run = await authwatch(['sync', '--once', '--db', db, '--base-url', svc.baseUrl, '--label', 'Bad'], {
      AUTHWATCH_TOKEN: 'aw_definitely_not_a_token_0000',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/did not accept the token/);
    expect(run.stderr).not.toContain('aw_definitely_not_a_token_0000');
  });

  it(
    'syncs once with AUTHWATCH_TOKEN, printing progress on stderr, then reports status, alerts and exports',
    async () => {
      const sync = await authwatch(
        ['sync', '--once', '--db', db, '--base-url', svc.baseUrl, '--label', 'Acme'],
        {
          AUTHWATCH_TOKEN: token,
        },
      );
      expect(sync.stderr).toMatch(/Acme: pass \d+\/2 domains, \d+ requests/);
      expect(sync.stdout).toMatch(/Synced “Acme”: \d+ fetched, 0 failed/);
      expect(sync.code).toBe(0);

      const status = await authwatch(['status', '--json', '--db', db]);
      expect(status.code).toBe(0);
      const accounts = JSON.parse(status.stdout) as {
        label: string;
        backfill: { complete: boolean };
        state: string;
      }[];
      expect(accounts).toHaveLength(1);
      expect(accounts[0]).toMatchObject({ label: 'Acme', state: 'active', backfill: { complete: true } });

      const csv = await authwatch(['export', '--format', 'csv', '--db', db]);
      expect(csv.code).toBe(0);
      const lines = csv.stdout.trim().split('\r\n');
      expect(lines[0]).toMatch(/^account,domain_id,fqdn,status,status_words,/);
      expect(
        lines
          .slice(1)
          .map((l) => l.split(',')[2])
          .sort(),
      ).toEqual(['alpha.example', 'beta.example']);

      const out = join(home, 'export.json');
      const json = await authwatch(['export', '--format', 'json', '--out', out, '--db', db]);
      expect(json.code).toBe(0);
      const rows = JSON.parse(readFileSync(out, 'utf8')) as { fqdn: string; spf: string }[];
      expect(rows.map((r) => [r.fqdn, r.spf]).sort()).toEqual([
        ['alpha.example', 'passing'],
        ['beta.example', 'passing'],
      ]);
    },
    SPAWNS_TIMEOUT_MS,
  );

  it(
    'lists a protocol_disconnected alert after SPF disappears, as JSON with the documented fields',
    async () => {
      await svc.sandbox('PUT', '/dns/beta.example/spf', { value: null });
      svc.clock.advance(6 * 60_000);
      await svc.sandbox('POST', '/scan', {});
      const sync = await authwatch(['sync', '--once', '--db', db, '--label', 'Acme'], {
        AUTHWATCH_TOKEN: token,
      });
      expect(sync.stderr).toMatch(/ALERT \[critical\] beta\.example/);

      const run = await authwatch(['alerts', '--json', '--db', db]);
      expect(run.code).toBe(0);
      const alerts = JSON.parse(run.stdout) as Record<string, unknown>[];
      const disconnected = alerts.filter((a) => a.rule === 'protocol_disconnected');
      expect(disconnected).toHaveLength(1);
      for (const key of ['id', 'rule', 'severity', 'domain', 'title', 'first_seen', 'resolved_at']) {
        expect(disconnected[0]).toHaveProperty(key);
      }
      expect(disconnected[0]).toMatchObject({ domain: 'beta.example', resolved_at: null });

      const text = await authwatch(['alerts', '--open', '--db', db]);
      expect(text.stdout).toMatch(/beta\.example .*protocol_disconnected/);

      // status says the same as the alert, in the status model's words, with counts that add up.
      const status = await authwatch(['status', '--db', db]);
      expect(status.stdout).toMatch(/ 2 domains: 1 with problems, \d with warnings, \d no problems found/);
      expect(status.stdout).toContain('✕ beta.example: SPF disconnected');
      const json = JSON.parse((await authwatch(['status', '--json', '--db', db])).stdout) as {
        domains: {
          counts: { domains: number; byVerdict: Record<string, number> };
          notClear: { fqdn: string; words: string }[];
        };
      }[];
      const counts = json[0]!.domains.counts;
      expect(Object.values(counts.byVerdict).reduce((a, b) => a + b, 0)).toBe(counts.domains);
      expect(json[0]!.domains.notClear).toContainEqual(
        expect.objectContaining({ fqdn: 'beta.example', words: 'SPF disconnected' }),
      );
    },
    SPAWNS_TIMEOUT_MS,
  );

  it('sync --watch keeps running until Ctrl-C, then stops cleanly with exit 0', async () => {
    const child = spawn(
      process.execPath,
      // --dns-server keeps the DNS watch's queries on this machine (nothing answers there: it only waits).
      ['bin/authwatch.mjs', 'sync', '--watch', '--db', db, '--label', 'Acme', '--dns-server', '127.0.0.1:9'],
      {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', HOME: home, AUTHWATCH_TOKEN: token },
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const deadline = Date.now() + 30_000;
    while (!stderr.includes('watching') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(stderr).toMatch(/watching “Acme”/);
    await new Promise((r) => setTimeout(r, 500));
    expect(child.exitCode).toBeNull(); // still running
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/stopping/);
  });
});
