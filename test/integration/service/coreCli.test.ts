// `npm run service`: starts, prints its base URL, serves the seeded demo with the given token and sandbox
// key, and exits cleanly on SIGTERM.
import { spawn } from 'node:child_process';
import { Resolver } from 'node:dns/promises';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const TOKEN = 'awt_cliTestTokenValue0123456789abcdefghijklmn';
let child: ChildProcess | null = null;

afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

function waitForLine(proc: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`no line matching ${pattern} in ${timeoutMs} ms: ${out} ${err}`)),
      timeoutMs,
    );
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        resolve(line.trim());
      }
    });
    proc.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${err}`));
    });
  });
}

describe('service cli', () => {
  it('serves the demo with --token and --sandbox-key (and its zone on --dns-port) and stops on SIGTERM', async () => {
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'service/cli.ts',
        '--port',
        '0',
        '--seed',
        'demo',
        '--token',
        TOKEN,
        '--sandbox-key',
        'k1',
        '--dns-port',
        '0',
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const dnsLine = waitForLine(child, /^dns:\/\/127\.0\.0\.1:\d+$/, 60_000);
    const baseUrl = await waitForLine(child, /^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/, 60_000);

    // --dns-port: the demo zone over real DNS, on the port it prints.
    const resolver = new Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([(await dnsLine).replace('dns://', '')]);
    const dmarc = (await resolver.resolveTxt('_dmarc.acme.example')).map((s) => s.join(''));
    expect(dmarc).toHaveLength(1);
    expect(dmarc[0]).toMatch(/^v=DMARC1;/);

    const me = await fetch(`${baseUrl}/auth/me`, { headers: { 'x-api-token': TOKEN } });
    expect(me.status).toBe(200);
    const body = await me.json();
    expect(body.data.user.email).toBe('olivia.owner@acme.example');
    expect(body.data.token.scopes).toEqual(
      expect.arrayContaining(['domains:write', 'users:write', 'tokens:write']),
    );

    const sandbox = await fetch(baseUrl.replace('/api/v1', '/_sandbox/threats'), {
      method: 'POST',
      headers: { 'x-sandbox-key': 'k1', 'content-type': 'application/json' },
      body: JSON.stringify({ source_name: 'bad.example' }),
    });
    expect(sandbox.status).toBe(201);

    const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 90_000);

  it('starts empty without --seed and refuses --token then', async () => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', 'service/cli.ts', '--port', '0', '--token', TOKEN],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain('--seed demo');
  }, 90_000);

  it('takes its token and sandbox key from the environment, off the command line', async () => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'service/cli.ts', '--port', '0'], {
      cwd: root,
      env: { ...process.env, AUTHWATCH_SERVICE_SANDBOX_KEY: 'env-key-1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    try {
      const baseUrl = await waitForLine(proc, /^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/, 60_000);
      const threats = baseUrl.replace('/api/v1', '/_sandbox/threats');
      const post = (key: string) =>
        fetch(threats, {
          method: 'POST',
          headers: { 'x-sandbox-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ source_name: 'bad.example' }),
        });
      expect((await post('wrong')).status).toBe(401);
      expect((await post('env-key-1')).status).not.toBe(401);
      expect(err).not.toMatch(/visible to every user/);
    } finally {
      proc.kill('SIGTERM');
    }
    // The token too: without --seed it has no account to belong to, and says so.
    const withToken = spawn(process.execPath, ['--import', 'tsx', 'service/cli.ts', '--port', '0'], {
      cwd: root,
      env: { ...process.env, AUTHWATCH_SERVICE_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tokenErr = '';
    withToken.stderr!.on('data', (c: Buffer) => (tokenErr += c.toString()));
    expect(await new Promise((resolve) => withToken.on('exit', resolve))).toBe(1);
    expect(tokenErr).toContain('--seed demo');
  }, 90_000);
});
