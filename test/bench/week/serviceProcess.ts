/**
 * The reference service of the simulated week, in a process of its own so the engine's process holds the
 * engine alone (its heap and RSS are measured apart from the service's). It is passive: every message from
 * the engine's process carries the virtual instant it happens at, and the service's clock jumps there
 * before answering. Started by serviceClient.ts over an IPC channel (fork, structured-clone serialization).
 *
 * Messages in: { id, at, kind: 'request', method, url, headers, body? } | { id, at, kind: 'change', change }
 * | { id, kind: 'memory' } | { kind: 'close' }. Out: { ready, now, token, domains } once set up, then
 * { id, ... } per message.
 */
import { startDayService, RECORDS } from '../day/dayService.ts';
import type { Change } from '../day/changeStream.ts';
import { VirtualTime } from '../day/virtualTime.ts';

/** What the engine's process asks. */
export type ServiceMessage =
  | {
      id: number;
      at: number;
      kind: 'request';
      method: string;
      url: string;
      headers: Record<string, string>;
      body?: Uint8Array;
    }
  | { id: number; at: number; kind: 'change'; change: Change }
  | { id: number; kind: 'memory' }
  | { kind: 'close' };

/** The service's answer to a request. */
export interface ServiceAnswer {
  id: number;
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** The service process's memory (after a full GC when the process exposes one). */
export interface ServiceMemory {
  id: number;
  rssMiB: number;
  heapUsedMiB: number;
  /** The most RSS the process held so far. */
  maxRssMiB: number;
  /** CPU seconds the process spent so far (user + system). */
  cpuS: number;
}

const send = (message: unknown) => process.send!(message);
const START = Date.parse('2026-06-15T00:00:00Z');

const domainCount = Number(process.argv[2]);
const time = new VirtualTime(START);
const svc = await startDayService(domainCount, time);
const token = await svc.newToken();

/** Moves the service's clock to the engine's instant (never back: the engine's clock only moves forward). */
const at = (instant: number) => (instant > time.now() ? time.runUntil(instant) : Promise.resolve());

process.on('message', (message: ServiceMessage) => {
  void (async () => {
    switch (message.kind) {
      case 'request': {
        await at(message.at);
        const res = await svc.app.inject({
          method: message.method as 'GET',
          url: message.url,
          headers: message.headers,
          ...(message.body ? { payload: Buffer.from(message.body) } : {}),
        });
        const headers: Record<string, string> = {};
        for (const [key, value] of Object.entries(res.headers))
          if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : String(value);
        send({
          id: message.id,
          status: res.statusCode,
          headers,
          body: res.rawPayload,
        } satisfies ServiceAnswer);
        return;
      }
      case 'change': {
        await at(message.at);
        const change = message.change;
        const domain = svc.domains[change.domainIndex]!;
        if (change.kind === 'threat') await svc.threatSends(domain, change.ip, `bench-${change.at}`);
        else
          await svc.setRecord(
            domain,
            change.record,
            change.kind === 'removed' ? null : RECORDS[change.record],
          );
        send({ id: message.id });
        return;
      }
      case 'memory': {
        (globalThis as { gc?: () => void }).gc?.();
        const memory = process.memoryUsage();
        const usage = process.resourceUsage();
        send({
          id: message.id,
          rssMiB: memory.rss / 1024 / 1024,
          heapUsedMiB: memory.heapUsed / 1024 / 1024,
          maxRssMiB: usage.maxRSS / 1024,
          cpuS: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
        } satisfies ServiceMemory);
        return;
      }
      case 'close':
        await svc.close();
        process.disconnect();
        return;
    }
  })().catch((error: unknown) => {
    process.stderr.write(`week service: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
});

send({ ready: true, now: time.now(), token, fqdns: svc.domains.map((d) => d.fqdn) });
