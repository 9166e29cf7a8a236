/**
 * Debian's tinyproxy as the company proxy, on a loopback port: a real forward proxy, started per test with
 * its own configuration (optionally basic auth) and stopped with it. What went through it is read back
 * from its log, one "Request" line per proxied request or tunnel.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './freePort.ts';

/** Debian's package, installed by .ci/run. */
const TINYPROXY_BIN = '/usr/bin/tinyproxy';

export interface Tinyproxy {
  url: string;
  /** The targets (`host:port`) of the requests and tunnels it served so far. */
  seen(): string[];
  close(): Promise<void>;
}

/** Starts tinyproxy; `login` ("user:password") makes it ask every client for basic auth (407). */
export async function startTinyproxy(options: { login?: string } = {}): Promise<Tinyproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-tinyproxy-'));
  const log = join(dir, 'tinyproxy.log');
  const port = await freePort();
  const [user, password] = (options.login ?? '').split(':');
  writeFileSync(
    join(dir, 'tinyproxy.conf'),
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 30',
      `LogFile "${log}"`,
      'LogLevel Connect',
      'MaxClients 50',
      'Allow 127.0.0.1',
      'DisableViaHeader Yes',
      ...(options.login ? [`BasicAuth ${user} ${password}`] : []),
    ].join('\n') + '\n',
  );
  const child = spawn(TINYPROXY_BIN, ['-d', '-c', join(dir, 'tinyproxy.conf')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Ready once it accepts connections.
  for (let i = 0; ; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (up) break;
    if (i > 100) throw new Error('tinyproxy did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    seen() {
      let text = '';
      try {
        text = readFileSync(log, 'utf8');
      } catch {
        return [];
      }
      return [
        ...text.matchAll(/Request \(file descriptor \d+\): (?:CONNECT (\S+)|\S+ http:\/\/([^/\s]+))/g),
      ].map((m) => (m[1] ?? m[2])!);
    },
    async close() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
