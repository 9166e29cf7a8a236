/**
 * The bridge socket under hostile input: frames the WebSocket layer refuses, messages that are not calls,
 * messages over the size limit and a few thousand random ones. Each may close its own connection (with a
 * close code the page can explain), none may end the host: it answers a fresh connection afterwards.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch } from '../../../main/core/app.ts';
import { toBridgeEvent } from '../../../main/core/app/bridgeEvents.ts';
import { openMirror } from '../../support/openMirror.ts';
import type { Mirror } from '../../../main/core/mirror/types.ts';
import { startHost, type RunningHost } from '../../../main/host/server.ts';
import { bridgeProtocols } from '../../../shared/bridge/hostCredential.ts';
import { MAX_BRIDGE_MESSAGE_BYTES } from '../../../shared/bridge/messageLimit.ts';
import { METHOD_NAMES } from '../../../shared/bridge/methodNames.ts';
import { encodeFrame, sendRaw } from '../../support/rawWebSocket.ts';

let dir: string;
let mirror: Mirror;
let host: RunningHost;
let port: number;
const secret = 'fuzz-secret-'.padEnd(43, 'y');
const logs: string[] = [];
/** What a window of the host presents (Origin and credential). */
let headers: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'authwatch-fuzz-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Authwatch</title>');
  mirror = openMirror(':memory:');
  const app = createAuthwatch({ mirror, secretStore: memorySecretStore() });
  host = await startHost({
    methods: app,
    subscribe: (listener) =>
      app.on((event) => {
        const e = toBridgeEvent(event);
        if (e) listener(e);
      }),
    rendererDir: dir,
    secret,
    log: (line) => logs.push(line),
  });
  port = Number(new URL(host.origin).port);
  headers = { Origin: host.origin, 'Sec-WebSocket-Protocol': bridgeProtocols(secret).join(', ') };
});

afterAll(async () => {
  await host.close();
  mirror.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge`, bridgeProtocols(secret), {
      origin: host.origin,
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Sends one text message; resolves with the answer under `id`, or with the close code and reason. */
function exchange(
  ws: WebSocket,
  text: string,
  id: unknown,
): Promise<{ reply?: { ok: boolean; error?: { code: string } }; closed?: { code: number; reason: string } }> {
  return new Promise((resolve) => {
    const onMessage = (raw: WebSocket.RawData) => {
      const m = JSON.parse(String(raw)) as { id?: unknown; reply?: { ok: boolean } };
      if (m.reply && m.id === id) {
        ws.off('message', onMessage);
        resolve({ reply: m.reply });
      }
    };
    ws.on('message', onMessage);
    ws.once('close', (code, reason) => resolve({ closed: { code, reason: reason.toString() } }));
    ws.send(text);
  });
}

async function hostAnswers(): Promise<void> {
  const ws = await open();
  try {
    const { reply } = await exchange(ws, JSON.stringify({ id: 1, method: 'listAccounts' }), 1);
    expect(reply).toEqual({ ok: true, result: [] });
  } finally {
    ws.close();
  }
}

const text = (s: string | Buffer) => Buffer.from(s);

describe('bridge socket fuzz', () => {
  it('a frame the WebSocket layer refuses closes that connection with its code; the host keeps answering', async () => {
    const cases: { name: string; bytes: Buffer; code: number }[] = [
      { name: 'RSV1 set', bytes: encodeFrame({ opcode: 1, rsv: 4, payload: text('{}') }), code: 1002 },
      { name: 'RSV2 set', bytes: encodeFrame({ opcode: 1, rsv: 2, payload: text('{}') }), code: 1002 },
      { name: 'RSV3 set', bytes: encodeFrame({ opcode: 1, rsv: 1, payload: text('{}') }), code: 1002 },
      { name: 'opcode 3', bytes: encodeFrame({ opcode: 3, payload: text('x') }), code: 1002 },
      { name: 'opcode 0xB', bytes: encodeFrame({ opcode: 0xb }), code: 1002 },
      { name: 'unmasked', bytes: encodeFrame({ opcode: 1, mask: false, payload: text('{}') }), code: 1002 },
      {
        name: 'invalid UTF-8',
        bytes: encodeFrame({ opcode: 1, payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }),
        code: 1007,
      },
      {
        name: 'overlong UTF-8 across fragments',
        bytes: Buffer.concat([
          encodeFrame({ opcode: 1, fin: false, payload: Buffer.from([0x22, 0xc0]) }),
          encodeFrame({ opcode: 0, payload: Buffer.from([0xaf, 0x22]) }),
        ]),
        code: 1007,
      },
      { name: 'length 2^62', bytes: encodeFrame({ opcode: 1, declaredLength: 1n << 62n }), code: 1009 },
      {
        name: 'length over the limit',
        bytes: encodeFrame({ opcode: 1, declaredLength: BigInt(MAX_BRIDGE_MESSAGE_BYTES + 1) }),
        code: 1009,
      },
      {
        name: 'ping of 126 bytes',
        bytes: encodeFrame({ opcode: 9, payload: Buffer.alloc(126) }),
        code: 1002,
      },
      { name: 'fragmented ping', bytes: encodeFrame({ opcode: 9, fin: false }), code: 1002 },
      { name: 'continuation first', bytes: encodeFrame({ opcode: 0, payload: text('x') }), code: 1002 },
      {
        name: 'close code 999',
        bytes: encodeFrame({ opcode: 8, payload: Buffer.from([0x03, 0xe7]) }),
        code: 1002,
      },
      { name: 'close of 1 byte', bytes: encodeFrame({ opcode: 8, payload: Buffer.from([1]) }), code: 1002 },
    ];
    for (const c of cases) {
      const outcome = await sendRaw(port, headers, c.bytes);
      expect(outcome.statusLine, c.name).toMatch(/ 101 /);
      expect(outcome.closeCode, c.name).toBe(c.code);
    }
    await hostAnswers();
  });

  it('survives random bytes after the handshake', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), async (bytes) => {
        await sendRaw(port, headers, Buffer.from(bytes), 100);
      }),
      { numRuns: 150 },
    );
    await hostAnswers();
  });

  it('a message without a numeric id, not JSON or binary closes with a reason; the page never waits', async () => {
    for (const [message, reason] of [
      ['{"method":"listAccounts"}', 'a bridge call needs a numeric id'],
      ['{"id":"1","method":"listAccounts"}', 'a bridge call needs a numeric id'],
      ['{"id":1.5,"method":"listAccounts"}', 'a bridge call needs a numeric id'],
      ['[1,"listAccounts"]', 'a bridge call needs a numeric id'],
      ['null', 'a bridge call needs a numeric id'],
      ['not json', 'a bridge message must be JSON'],
    ] as const) {
      const ws = await open();
      const { closed } = await exchange(ws, message, Symbol('no id'));
      expect(closed, message).toEqual({ code: 1008, reason });
    }
    const ws = await open();
    const closed = await new Promise<number>((resolve) => {
      ws.once('close', (code) => resolve(code));
      ws.send(Buffer.from('{"id":1,"method":"listAccounts"}'), { binary: true });
    });
    expect(closed).toBe(1003);
    await hostAnswers();
  });

  it('the largest write the contract allows gets its answer; a message over the limit closes with 1009', async () => {
    // BIMI upload at its limits, in the characters JSON spends the most bytes on (6 for \u0001).
    const worst = (n: number) => '\u0001'.repeat(n);
    const largest = JSON.stringify({
      id: 7,
      method: 'edit',
      args: {
        operation: 'createBimi',
        accountId: 999,
        domainId: 1,
        body: { selector: 'default', svg_content: worst(524_288), vmc_pem: worst(65_536) },
      },
    });
    expect(Buffer.byteLength(largest)).toBeGreaterThan(3_500_000);
    const ws = await open();
    const { reply } = await exchange(ws, largest, 7);
    expect(reply?.ok).toBe(false); // no account 999: answered by the facade, not refused by the socket
    const { closed } = await exchange(ws, `{"id":8,"pad":"${'x'.repeat(MAX_BRIDGE_MESSAGE_BYTES)}"}`, 8);
    expect(closed?.code).toBe(1009);
    await hostAnswers();
  });

  it('answers thousands of random messages under their ids, closing only on those that are not calls', async () => {
    const methods = METHOD_NAMES.filter((m) => !['addAccount', 'testAccount', 'openExternal'].includes(m));
    const message = fc.oneof(
      fc.record({
        id: fc.integer({ min: 0, max: 2 ** 40 }),
        method: fc.oneof(fc.constantFrom(...methods), fc.string(), fc.jsonValue()),
        args: fc.jsonValue({ maxDepth: 4 }),
      }),
      fc.jsonValue({ maxDepth: 3 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
    );
    const samples = fc.sample(message, { numRuns: 3000, seed: 18 });
    let ws = await open();
    let answered = 0;
    let closed = 0;
    for (const [n, sample] of samples.entries()) {
      const isCall =
        typeof sample === 'object' &&
        sample !== null &&
        !Array.isArray(sample) &&
        Number.isSafeInteger((sample as { id?: unknown }).id);
      const outcome = await exchange(
        ws,
        typeof sample === 'string' ? sample : JSON.stringify(sample),
        isCall ? (sample as { id: number }).id : Symbol(String(n)),
      );
      if (isCall) {
        expect(outcome.reply, JSON.stringify(sample).slice(0, 200)).toBeDefined();
        answered++;
      } else {
        expect(outcome.closed?.code, String(sample).slice(0, 200)).toBe(1008);
        closed++;
        ws = await open();
      }
      ws.removeAllListeners('close');
    }
    ws.close();
    expect(answered + closed).toBe(3000);
    expect(answered).toBeGreaterThan(500);
    await hostAnswers();
  }, 60_000);
});
