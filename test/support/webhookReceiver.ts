/**
 * A local HTTP receiver for webhook tests (127.0.0.1, a port it picks): keeps every request with its raw
 * body, checks the Authwatch signature with the channel's secret, and answers 200 — or, in 'hang' mode,
 * never answers (the sender's process can then be killed with the request in flight), or fails with 503.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../main/core/delivery/signature.ts';

/** One received request. */
export interface ReceivedHook {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  json: Record<string, unknown>;
  /** The signature matched the secret and the timestamp is recent. */
  signed: boolean;
  /** The receiver acknowledged it with 2xx. */
  acknowledged: boolean;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  mode: 'ok' | 'hang' | 'fail';
  /** Resolves when `count` requests have arrived (rejects after timeoutMs). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver; `secret` is what the channel signs with (null: no signature expected). */
export async function startWebhookReceiver(secret: string | null): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const hanging = new Set<ServerResponse>();
  const waiters = new Set<() => void>();
  const receiver: WebhookReceiver = {
    url: '',
    received,
    mode: 'ok',
    waitFor(count, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`waited for ${count} webhook requests, got ${received.length}`));
        }, timeoutMs);
        const check = () => {
          if (received.length >= count) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const hook: ReceivedHook = {
        path: req.url ?? '',
        headers: req.headers,
        raw,
        json: JSON.parse(raw) as Record<string, unknown>,
        signed:
          secret !== null &&
          verifyWebhook(
            secret,
            {
              timestamp: req.headers['x-authwatch-timestamp'] as string | undefined,
              signature: req.headers['x-authwatch-signature'] as string | undefined,
            },
            raw,
            Math.floor(Date.now() / 1000),
          ),
        acknowledged: false,
      };
      received.push(hook);
      for (const w of [...waiters]) w();
      if (receiver.mode === 'hang') {
        hanging.add(res);
        return;
      }
      if (receiver.mode === 'fail') {
        res.writeHead(503).end('unavailable');
        return;
      }
      hook.acknowledged = true;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
