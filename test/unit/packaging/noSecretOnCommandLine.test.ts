/**
 * No secret on a command line (every user of the machine reads command lines in `ps`): the demo hands the
 * service its token and sandbox key in the environment, and the browser host opens Chromium on a private
 * file rather than on the link that carries the run's secret.
 */
import type { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openWindow } from '../../../main/host/run.ts';
import { demoServiceCommand } from '../../../scripts/demoService.ts';

describe('secrets stay off command lines', () => {
  it('the demo starts the service with its token and sandbox key in the environment only', () => {
    const token = 'awt_-starts-with-a-dash-secret-token';
    const sandboxKey = 'sandbox-secret-key';
    const { args, env } = demoServiceCommand({ port: 8787, token, sandboxKey, env: { PATH: '/bin' } });
    expect(args.join(' ')).not.toContain(token);
    expect(args.join(' ')).not.toContain(sandboxKey);
    expect(env).toMatchObject({
      PATH: '/bin',
      AUTHWATCH_SERVICE_TOKEN: token,
      AUTHWATCH_SERVICE_SANDBOX_KEY: sandboxKey,
    });
  });
});

describe('the browser host opening its window', () => {
  it('gives Chromium a private file that forwards to the link, never the link with the secret', () => {
    const secret = 'Qk3Zs0m3-run-secret_0123456789abcdefghijklmno';
    const url = `http://127.0.0.1:41234/#k=${secret}`;
    const spawned: string[][] = [];
    const fakeSpawn = ((_command: string, args: string[]) => {
      spawned.push(args);
      return { unref: () => undefined };
    }) as unknown as typeof spawn;
    const opened = openWindow(
      url,
      () => undefined,
      { DISPLAY: ':0' },
      { browsers: [process.execPath], spawn: fakeSpawn },
    );
    expect(opened).toBe(true);
    const args = spawned[0]!;
    expect(args.join(' ')).not.toContain(secret);
    const launcher = fileURLToPath(args[0]!.replace('--app=', ''));
    expect(statSync(launcher).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(launcher)).mode & 0o777).toBe(0o700);
    expect(readFileSync(launcher, 'utf8')).toContain(`url=${url}`);
  });
});
