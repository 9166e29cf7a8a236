/**
 * A local HTTP receiver for webhook tests (127.0.0.1, a port it picks): keeps every request with its raw
 * body, checks the Authwatch signature with the channel's secret, and answers 200 — or, in 'hang' mode,
 * never answers (the sender's process can then be killed with the request in flight), or fails with 503.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../main/core/delivery/signature.ts';
import { webhookSchemaErrors } from './webhookSchema.ts';

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
  /** A generic webhook's body checked against the documented JSON Schema (null: not a generic webhook). */
  schemaErrors: string[] | null;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  mode: 'ok' | 'hang' | 'fail';
  /** Generic bodies that broke the documented schema (close() fails the suite when there are any). */
  invalid(): ReceivedHook[];
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
    invalid: () => received.filter((r) => (r.schemaErrors?.length ?? 0) > 0),
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        // Every generic body any test sent here must be the documented contract.
        const invalid = receiver.invalid();
        server.close(() =>
          invalid.length === 0
            ? resolve()
            : reject(
                new Error(
                  `webhook bodies broke shared/webhook/webhook-v1.schema.json: ${JSON.stringify(invalid.map((r) => r.schemaErrors))}`,
                ),
              ),
        );
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
        schemaErrors: null,
      };
      // Only a generic webhook names its event in a header (Slack, Teams and Alertmanager bodies are theirs).
      if (req.headers['x-authwatch-event-id']) hook.schemaErrors = webhookSchemaErrors(hook.json);
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

/** A generic-format webhook channel to `url` (as the mirror adds it): warnings and above, every account. */
export function webhookChannel(name: string, url: string) {
  return {
    name,
    minSeverity: 'warning' as const,
    accountId: null,
    holdCriticals: false,
    config: { kind: 'webhook' as const, format: 'generic' as const, urlShown: url, plainUrl: url },
  };
}
