/**
 * The page's side of the browser host's bridge (shared/bridge/wsTransport.ts), run in Node with `ws` in the
 * role of the browser's WebSocket, against the real host: a call too large for the host fails before it is
 * sent, a call whose connection drops fails at once, and the page learns why the host went and that it came
 * back.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { BridgeMethods } from '../../../shared/bridge/contract.ts';
import { bridgeProtocols, CLOSE_UNAUTHORISED } from '../../../shared/bridge/hostCredential.ts';
import { webSocketTransport, type HostLinkStatus } from '../../../shared/bridge/wsTransport.ts';
import { startHost, type RunningHost } from '../../../main/host/server.ts';

const secret = 'page-secret-'.padEnd(43, 'z');
let dir: string;
const seen: string[] = [];
/** Methods of a host whose syncNow never finishes (a call in flight when the connection drops). */
const methods = {
  listAccounts: async () => {
    seen.push('listAccounts');
    return [];
  },
  syncNow: () => {
    seen.push('syncNow');
    return new Promise(() => undefined);
  },
  edit: async () => {
    seen.push('edit');
    throw Object.assign(new Error('no such account'), { code: 'not_found' });
  },
} as unknown as BridgeMethods;

const start = (port?: number): Promise<RunningHost> =>
  startHost({
    methods,
    subscribe: () => () => undefined,
    rendererDir: dir,
    secret,
    ...(port ? { port } : {}),
  });

let host: RunningHost;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'authwatch-page-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  host = await start();
  const origin = host.origin;
  // The browser sends its page's Origin by itself.
  class PageWebSocket extends WebSocket {
    constructor(url: string, protocols: string[]) {
      super(url, protocols, { origin });
      this.on('error', () => undefined); // a browser's socket reports a refused connection by closing
    }
  }
  vi.stubGlobal('WebSocket', PageWebSocket);
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the page’s bridge transport', () => {
  it('refuses a call over the size limit before sending it, with a plain error the form shows', async () => {
    const transport = webSocketTransport(`${host.origin.replace('http', 'ws')}/bridge`, undefined, () =>
      bridgeProtocols(secret),
    );
    const reply = await transport.invoke('edit', {
      operation: 'createBimi',
      accountId: 1,
      body: { svg_content: '<svg>' + 'é'.repeat(4_500_000) + '</svg>' },
    });
    expect(reply).toMatchObject({ ok: false, error: { code: 'too_large' } });
    expect(!reply.ok && reply.error.message).toMatch(
      /This request is 8\.6 MB; Authwatch accepts up to 8\.0 MB/,
    );
    // A large write under the limit goes through (here answered by the fake facade).
    const fits = await transport.invoke('edit', {
      operation: 'createBimi',
      accountId: 1,
      body: { svg_content: '<svg>' + 'é'.repeat(400_000) + '</svg>' },
    });
    expect(fits).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(seen.filter((m) => m === 'edit')).toHaveLength(1);
  });

  it('fails a call in flight at once when the connection drops, says why, reconnects and says so', async () => {
    const statuses: HostLinkStatus[] = [];
    const transport = webSocketTransport(
      `${host.origin.replace('http', 'ws')}/bridge`,
      (s) => statuses.push(s),
      () => bridgeProtocols(secret),
    );
    expect(await transport.invoke('listAccounts', undefined)).toEqual({ ok: true, result: [] });
    const inFlight = transport.invoke('syncNow', {});
    await vi.waitFor(() => expect(seen).toContain('syncNow'));
    const port = Number(new URL(host.origin).port);
    await host.close();
    const started = Date.now();
    const reply = await inFlight;
    expect(Date.now() - started).toBeLessThan(5_000); // not the 60-s call timeout
    expect(reply).toMatchObject({ ok: false, error: { code: 'host_disconnected' } });
    expect(!reply.ok && reply.error.message).toMatch(/closed before it answered/);
    expect(statuses.at(-1)).toEqual({
      connected: false,
      reason: 'the connection to Authwatch dropped',
      code: 1006,
    });
    host = await start(port);
    await vi.waitFor(() => expect(statuses.at(-1)?.connected).toBe(true), { timeout: 10_000 });
    expect(statuses.at(-1)).toEqual({
      connected: true,
      reason: 'the connection to Authwatch dropped',
      code: 1006,
    });
    expect(await transport.invoke('listAccounts', undefined)).toEqual({ ok: true, result: [] });
  });

  it('a tab without this run’s secret is told so and stops retrying', async () => {
    const statuses: HostLinkStatus[] = [];
    const transport = webSocketTransport(
      `${host.origin.replace('http', 'ws')}/bridge`,
      (s) => statuses.push(s),
      () => bridgeProtocols(null),
    );
    const reply = await transport.invoke('listAccounts', undefined);
    expect(reply).toMatchObject({ ok: false, error: { code: 'host_disconnected' } });
    expect(statuses.at(-1)).toMatchObject({ connected: false, code: CLOSE_UNAUTHORISED });
    expect(statuses.at(-1)?.reason).toMatch(/does not hold the link Authwatch printed/);
    const count = statuses.length;
    await new Promise((r) => setTimeout(r, 600)); // longer than the first retry's 250 ms
    expect(statuses).toHaveLength(count);
  });
});
