/**
 * The engine's side of the week's service process (serviceProcess.ts): starts it, and gives the engine a
 * fetch and the harness the day's changes, both on the engine's virtual clock. Each request takes a fixed
 * virtual round trip, as in the simulated day (injectFetch.ts), and the clock does not move while the
 * service answers.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import type { Change } from '../day/changeStream.ts';
import type { VirtualTime } from '../day/virtualTime.ts';
import type { ServiceAnswer, ServiceMemory, ServiceMessage } from './serviceProcess.ts';

/** A message as the client asks it (the id is added). */
type Asked =
  Exclude<ServiceMessage, { kind: 'close' }> extends infer M
    ? M extends { id: number }
      ? Omit<M, 'id'>
      : never
    : never;

/** The service's script (a bundled engine passes it: its own import.meta.url is the bundle's). */
export const SERVICE_SCRIPT = fileURLToPath(new URL('./serviceProcess.ts', import.meta.url));

/** A running service process. */
export interface ServiceClient {
  /** The service's virtual now once its domains were set up (the week starts after it). */
  readyAt: number;
  /** A read token of the portfolio's owner. */
  token: string;
  fqdns: string[];
  /** Requests counted so far (and the 429s among them). */
  tally: { requests: number; status429: number };
  fetchOn(time: VirtualTime, roundTripMs: number): FetchLike;
  apply(time: VirtualTime, change: Change): Promise<void>;
  memory(): Promise<ServiceMemory>;
  close(): Promise<void>;
}

/** Forks the service (`script`, run through tsx) with `domains` domains and waits until they are set up. */
export async function startServiceProcess(domains: number, script = SERVICE_SCRIPT): Promise<ServiceClient> {
  const child: ChildProcess = fork(script, [String(domains)], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (answer: never) => void>();
  let nextId = 1;
  const ready = new Promise<{ now: number; token: string; fqdns: string[] }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`week service exited with ${code} before it was ready`)));
    child.on('message', (message: { ready?: boolean; id?: number }) => {
      if (message.ready) resolve(message as never);
      else waiting.get(message.id!)?.(message as never);
      if (message.id !== undefined) waiting.delete(message.id);
    });
  });
  const ask = <T>(message: Asked): Promise<T> =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve as (answer: never) => void);
      child.send({ ...message, id });
    });
  const { now, token, fqdns } = await ready;
  const tally = { requests: 0, status429: 0 };

  return {
    readyAt: now,
    token,
    fqdns,
    tally,
    fetchOn(time, roundTripMs) {
      return async (request) => {
        const url = new URL(request.url);
        const headers: Record<string, string> = {};
        request.headers.forEach((value, key) => (headers[key] = value));
        const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
        await time.sleep(roundTripMs / 2);
        tally.requests += 1;
        const res = await time.hold(() =>
          ask<ServiceAnswer>({
            kind: 'request',
            at: time.now(),
            method: request.method,
            url: url.pathname + url.search,
            headers,
            ...(body ? { body } : {}),
          }),
        );
        if (res.status === 429) tally.status429 += 1;
        await time.sleep(roundTripMs / 2);
        const empty = res.status === 204 || res.status === 304;
        return new Response(empty ? null : new Uint8Array(res.body), {
          status: res.status,
          headers: res.headers,
        });
      };
    },
    apply: (time, change) => time.hold(() => ask<void>({ kind: 'change', at: time.now(), change })),
    memory: () => ask<ServiceMemory>({ kind: 'memory' }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send({ kind: 'close' });
      }),
  };
}
