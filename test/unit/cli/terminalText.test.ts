/**
 * Escape sequences from the service never reach the terminal raw: what the `authwatch` command prints for
 * people has every control character shown as \xNN, and its JSON stays exact JSON.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../main/cli/run.ts';
import { jsonTerminalSafe, safeStream, terminalSafe } from '../../../main/cli/terminalText.ts';

const HOSTILE = '\u001b[2J\u001b]0;pwned\u0007\rALERT [info] all clear\u009b31m\u007f\u0000';
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('terminal text', () => {
  it('shows every control character (C0 but tab and newline, DEL, C1) as \\xNN', () => {
    expect(terminalSafe(HOSTILE)).toBe(
      '\\x1b[2J\\x1b]0;pwned\\x07\\x0dALERT [info] all clear\\x9b31m\\x7f\\x00',
    );
    expect(terminalSafe('tab\there\nnext line, é ü 中')).toBe('tab\there\nnext line, é ü 中');
  });

  it('keeps JSON the same value while nothing raw reaches the terminal', () => {
    const json = JSON.stringify({ source: HOSTILE });
    const safe = jsonTerminalSafe(json);
    expect(safe).not.toMatch(CONTROL);
    expect(JSON.parse(safe)).toEqual({ source: HOSTILE });
  });

  it('export data stays exact when piped, filtered on a terminal', () => {
    const out: string[] = [];
    safeStream({ write: (t: string) => out.push(t), isTTY: false }, 'data').write(HOSTILE);
    safeStream({ write: (t: string) => out.push(t), isTTY: true }, 'data').write(HOSTILE);
    expect(out[0]).toBe(HOSTILE);
    expect(out[1]).not.toMatch(CONTROL);
  });
});

describe('authwatch against a service answering with escape sequences', () => {
  let server: Server;
  let baseUrl: string;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'authwatch-esc-'));
    server = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'unauthorized', message: HOSTILE } }));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the service’s error with its control characters made visible', async () => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['sync', '--once', '--base-url', baseUrl, '--db', join(dir, 'm.db')], {
      env: { AUTHWATCH_TOKEN: 'tok_escape_test_123', HOME: dir },
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
      interrupted: () => new Promise(() => undefined),
    });
    expect(code).toBe(1);
    expect(stderr).toContain('\\x1b[2J\\x1b]0;pwned\\x07');
    expect(stderr + stdout).not.toMatch(CONTROL);
  });
});
