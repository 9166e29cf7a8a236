import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch, type Authwatch } from '../../../main/core/app.ts';
import { toBridgeEvent } from '../../../main/core/app/bridgeEvents.ts';
import { openMirror } from '../../../main/core/mirror/index.ts';
import { STATUS_MODEL } from '../../../main/core/status/statusModel.ts';
import type { Mirror } from '../../../main/core/mirror/types.ts';
import { startHost, type RunningHost } from '../../../main/host/server.ts';
import { BRIDGE_PROTOCOL, bridgeProtocols } from '../../../shared/bridge/hostCredential.ts';
import { DEFAULT_FILTER } from '../../../shared/bridge/overviewFilter.ts';

let dir: string;
let mirror: Mirror;
let app: Authwatch;
let host: RunningHost;
const secret = 'test-secret-'.padEnd(43, 'x');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'authwatch-host-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Authwatch</title>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(tmpdir(), 'authwatch-outside.txt'), 'outside');
  mirror = openMirror(':memory:', { status: STATUS_MODEL });
  app = createAuthwatch({ mirror, secretStore: memorySecretStore() });
  host = await startHost({
    methods: app,
    subscribe: (listener) =>
      app.on((event) => {
        const e = toBridgeEvent(event);
        if (e) listener(e);
      }),
    rendererDir: dir,
    secret,
  });
});

afterAll(async () => {
  await host.close();
  mirror.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A WebSocket to the bridge offering `protocols`, with the given headers; resolves when it is open and
 * stays open, rejects with the HTTP refusal or the close code the host answered with.
 */
function connect(headers: Record<string, string>, protocols = bridgeProtocols(secret)): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/bridge`, protocols, { headers });
    ws.once('open', () => setTimeout(() => ws.readyState === ws.OPEN && resolve(ws), 50));
    ws.once('close', (code) => reject(new Error(`closed ${code}`)));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function call(
  ws: WebSocket,
  id: number,
  method: string,
  args?: unknown,
): Promise<{ ok: boolean; result?: unknown; error?: { code: string; message: string } }> {
  return new Promise((resolve) => {
    const onMessage = (raw: WebSocket.RawData) => {
      const message = JSON.parse(String(raw)) as { id?: number; reply?: never };
      if (message.id === id) {
        ws.off('message', onMessage);
        resolve(message.reply!);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, args }));
  });
}

describe('browser host', () => {
  it('carries the secret in the link’s fragment only: no cookie, and the page itself holds no secret', async () => {
    expect(host.url).toBe(`${host.origin}/#k=${secret}`);
    const res = await fetch(`${host.origin}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.text()).not.toContain(secret);
  });

  it('serves the page with a strict Content-Security-Policy once the cookie is held', async () => {
    const res = await fetch(`${host.origin}/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses another Host header (DNS rebinding) and paths that climb out of the renderer folder', async () => {
    const http = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      const u = new URL(host.origin);
      http
        .get(
          { host: u.hostname, port: u.port, path: '/', headers: { host: `evil.example:${u.port}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
        .end();
    });
    expect(status).toBe(421);
    for (const path of [
      '/../authwatch-outside.txt',
      '/%2e%2e/authwatch-outside.txt',
      '/assets/..%2f..%2fauthwatch-outside.txt',
    ]) {
      const res = await fetch(`${host.origin}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain('outside');
    }
  });

  it('refuses a bridge connection without the secret, with a wrong one, or from another Origin', async () => {
    // Our origin without the secret (a tab opened without the link): told why, by close code 4401.
    await expect(connect({ origin: host.origin }, bridgeProtocols(null))).rejects.toThrow(/closed 4401/);
    await expect(connect({ origin: host.origin }, bridgeProtocols('guess'.padEnd(43, 'g')))).rejects.toThrow(
      /closed 4401/,
    );
    // The credential of before (a cookie every local port receives) opens nothing any more.
    await expect(
      connect({ origin: host.origin, cookie: `authwatch_session=${secret}` }, bridgeProtocols(null)),
    ).rejects.toThrow(/closed 4401/);
    await expect(connect({ origin: 'http://127.0.0.1:1' })).rejects.toThrow(/refused 403/);
    await expect(connect({ origin: 'http://evil.example' })).rejects.toThrow(/refused 403/);
    await expect(connect({})).rejects.toThrow(/refused 403/);
  });

  it('selects the bridge’s subprotocol, never echoing the one that carries the secret', async () => {
    const ws = await connect({ origin: host.origin });
    expect(ws.protocol).toBe(BRIDGE_PROTOCOL);
    ws.close();
  });

  it('answers contract calls, rejects unknown methods and malformed arguments, and pushes events', async () => {
    const ws = await connect({ origin: host.origin });
    try {
      expect(await call(ws, 1, 'listAccounts')).toEqual({ ok: true, result: [] });
      const unknown = await call(ws, 2, 'constructor');
      expect(unknown.ok).toBe(false);
      expect(unknown.error?.code).toBe('unknown_method');
      const bad = await call(ws, 3, 'snoozeAlert', { id: -1, until: 'tomorrow' });
      expect(bad.ok).toBe(false);
      expect(bad.error?.code).toBe('invalid_arguments');
      const event = new Promise<unknown>((resolve) =>
        ws.on('message', (raw) => {
          const m = JSON.parse(String(raw)) as { event?: string; payload?: unknown };
          if (m.event === 'changed') resolve(m.payload);
        }),
      );
      const saved = await call(ws, 4, 'updateSettings', { alerts: { scoreStep: 2 } });
      expect(saved.ok).toBe(true);
      expect(await event).toEqual({ accountId: null, domainId: null, what: 'settings' });
      expect(host.windows()).toBe(1);
    } finally {
      ws.close();
    }
  });
});

describe('the work that waits for a window’s first screen', () => {
  /** A host on the same app that records each window's readiness. */
  async function readyHost(readyFallbackMs: number) {
    let readyCalls = 0;
    let markReady = () => undefined as void;
    const firstReady = new Promise<void>((resolve) => (markReady = resolve));
    const started = await startHost({
      methods: app,
      subscribe: () => () => undefined,
      rendererDir: dir,
      secret,
      readyFallbackMs,
      onWindowReady: () => {
        readyCalls++;
        markReady();
      },
    });
    return { started, firstReady, readyCalls: () => readyCalls };
  }

  const open = (origin: string) =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`${origin.replace('http', 'ws')}/bridge`, bridgeProtocols(secret), {
        headers: { origin },
      });
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });

  it('is released once the window’s first rows are answered, not when it connects', async () => {
    const { started, firstReady, readyCalls } = await readyHost(60_000);
    const ws = await open(started.origin);
    try {
      expect((await call(ws, 1, 'listAccounts')).ok).toBe(true);
      expect(readyCalls()).toBe(0);
      const firstScreen = { ...DEFAULT_FILTER, groupByGroup: false, offset: 0, limit: 27 };
      expect((await call(ws, 2, 'overviewPage', firstScreen)).ok).toBe(true);
      await firstReady;
      expect((await call(ws, 3, 'overviewPage', { ...firstScreen, offset: 27, limit: 60 })).ok).toBe(true);
      expect(readyCalls()).toBe(1);
    } finally {
      ws.close();
      await started.close();
    }
  });

  it('is released after a while for a window that never asks for its first screen', async () => {
    const { started, firstReady, readyCalls } = await readyHost(50);
    const ws = await open(started.origin);
    try {
      await firstReady;
      expect(readyCalls()).toBe(1);
    } finally {
      ws.close();
      await started.close();
    }
  });
});
