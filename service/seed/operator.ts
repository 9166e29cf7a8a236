/**
 * The demo's owner at work: calls the service's own operation handlers in-process, as the team owner, at a
 * simulated instant. The demo is built through the same code an API client reaches (domain creation, hosted
 * records, group membership, …), so what the seed leaves behind is exactly what those operations would
 * have stored — never rows written by hand. No token exists for these calls and no audit entry is written:
 * the demo's audit log stays the user's own.
 *
 * DNS goes to the sandbox zone only: seeding never touches the network.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import type { DnsRecordType, DnsResolve } from '../../shared/email-auth/dns.ts';
import { createSandboxZoneResolver, normalizeName } from '../dns/sandboxZone.ts';
import type { AuthContext, OperationHandlers, ServiceContext } from '../http/operation.ts';
import { allHandlers } from '../operations/index.ts';
import { ALL_V1_SCOPE_IDS } from '../auth/scopes.ts';

/** A service context whose clock the seed moves through the simulated history. */
export interface SeedContext extends ServiceContext {
  /** Moves the clock to `at`. */
  setNow(at: Date): void;
  /** Forgets cached DNS answers: call after anything that may have written the zone. */
  dnsChanged(): void;
}

function copyAnswer(answer: unknown): unknown {
  if (!Array.isArray(answer)) return answer;
  return answer.map((a: unknown) => (Array.isArray(a) ? [...a] : typeof a === 'object' && a ? { ...a } : a));
}

/**
 * The sandbox zone behind a cache, as a recursive resolver with a long TTL: between two changes of the zone
 * the seed asks the same names thousands of times (every scan, every report's sources). Failures are cached
 * too (negative caching). Callers get copies, so one caller's edit cannot leak into another's answer.
 */
function cachedZoneResolver(db: ServiceDb): { resolver: DnsResolve; clear(): void } {
  const zone = createSandboxZoneResolver(db);
  const cache = new Map<string, Promise<unknown>>();
  const resolver = (name: string, rrtype: DnsRecordType) => {
    const key = `${rrtype} ${normalizeName(name)}`;
    let answer = cache.get(key);
    if (!answer) {
      answer = (zone as (n: string, t: DnsRecordType) => Promise<unknown>)(name, rrtype);
      cache.set(key, answer);
    }
    return answer.then(copyAnswer);
  };
  return { resolver: resolver as DnsResolve, clear: () => cache.clear() };
}

/** A context over `db` standing at `start`, resolving from the sandbox zone only. */
export function createSeedContext(db: ServiceDb, start: Date): SeedContext {
  let current = start;
  const dns = cachedZoneResolver(db);
  return {
    db,
    clock: () => current,
    setNow: (at) => {
      current = at;
    },
    dnsChanged: () => dns.clear(),
    resolver: dns.resolver,
    config: { version: 'v1', rateLimitPerMinute: 60, defaultTokenExpiryDays: 90, sandboxKey: null },
  };
}

/** Arguments of one call. */
export interface CallInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** Calls operations as one user of one team. */
export interface Operator {
  call<T = Record<string, unknown>>(operationId: string, input?: CallInput): Promise<T>;
}

/** An operator acting as `userId` (the owner) of `teamId` through `handlers` (default: all of the service's). */
export function createOperator(
  ctx: SeedContext,
  who: { teamId: number; userId: number },
  handlers: OperationHandlers = allHandlers,
): Operator {
  const auth: AuthContext = {
    tokenId: 0,
    tokenName: 'demo seed',
    userId: who.userId,
    teamId: who.teamId,
    isOwner: true,
    scopes: ALL_V1_SCOPE_IDS,
  };
  let sequence = 0;
  return {
    async call<T>(operationId: string, input: CallInput = {}): Promise<T> {
      const handler = handlers[operationId];
      if (!handler) throw new Error(`demo seed: the service has no handler for ${operationId}`);
      sequence += 1;
      const result = await handler(
        {
          operationId,
          method: 'SEED',
          path: `/seed/${operationId}`,
          params: input.params ?? {},
          query: input.query ?? {},
          body: input.body,
          auth,
          requestId: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
          ip: '127.0.0.1',
        },
        ctx,
      );
      // Hosted-record operations publish in the service's zone.
      ctx.dnsChanged();
      return result.data as T;
    },
  };
}
