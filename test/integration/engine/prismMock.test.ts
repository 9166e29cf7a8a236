/**
 * The engine against Stoplight Prism's dynamic mock of our own document (issue 12, items 1 and 6): random
 * answers that the document allows, or that look allowed but are about another domain. The audit's two
 * syncs against it raised 53 alerts, 48 on "domains" such as `elit aliquip magna`. Now every domain kept is
 * a domain name with a positive id, every stored posture is within the document's bounds and about its own
 * domain, and every alert is about such a domain: no alert on a value the document does not allow.
 *
 * Prism serves the document's paths at its root (it does not mount them under the servers' /api/v1), so
 * the engine's fetch drops that prefix on the way out. Prism also numbers list pages at random (page
 * 14861647 in answer to page=1): as it is, every list is refused and the engine stops at the first page
 * instead of walking up to its 1,000-page limit. To let the random domains through, the second engine reads
 * Prism behind an adapter that only makes each list's `pagination` answer the page asked for; every `data`
 * is Prism's own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch, type Authwatch } from '../../../main/core/app.ts';
import { openMirror } from '../../../main/core/mirror/index.ts';
import { STATUS_MODEL } from '../../../main/core/status/statusModel.ts';
import type { Mirror } from '../../../main/core/mirror/types.ts';
import { manualScheduler } from '../../../main/core/sync/scheduler.ts';
import { documentRuntime } from '../../../service/openapi/documentRuntime.ts';
import { documentObjections } from '../../support/documentOracle.ts';

const DOCUMENT = fileURLToPath(new URL('../../../shared/api/openapi.yaml', import.meta.url));
const PRISM = fileURLToPath(new URL('../../../node_modules/.bin/prism', import.meta.url));
// A fixed seed makes Prism's answers the same on every run (this one lists several domains).
const SEED = '1';
const BASE = 'http://prism.mock/api/v1';

/** Starts `prism mock -d` on an OS-picked port of 127.0.0.1; resolves with its origin once it listens. */
async function startPrism(): Promise<{ origin: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(
    PRISM,
    ['mock', '-d', '--seed', SEED, '-p', '0', '-h', '127.0.0.1', DOCUMENT],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${output.slice(-2000)}`)), 50_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        // Keep draining its log so a full pipe never blocks it.
        output = '';
        resolve(listening[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited (${code}) before listening:\n${output.slice(-2000)}`));
    });
  });
  return {
    origin,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

interface Run {
  mirror: Mirror;
  app: Authwatch;
  accountId: number;
  calls: number;
}

/** An engine over a fresh mirror whose requests go to Prism (through `adapt`), after two syncs. */
async function syncAgainst(
  origin: string,
  adapt: (request: Request, response: Response) => Promise<Response> = async (_q, r) => r,
): Promise<Run> {
  const now = { ms: Date.now() };
  const clock = {
    now: () => now.ms,
    sleep: async (ms: number) => {
      now.ms += Math.max(0, ms);
    },
    random: () => 0.5,
  };
  const mirror = openMirror(':memory:', { clock, status: STATUS_MODEL });
  const run = { mirror, calls: 0 } as Run;
  run.app = createAuthwatch({
    mirror,
    secretStore: memorySecretStore(),
    clock,
    scheduler: manualScheduler(),
    notifier: { channel: 'test', notify: () => {} },
    fetch: async (request) => {
      run.calls++;
      const response = await fetch(new Request(request.url.replace(BASE, origin), request));
      return adapt(request, response);
    },
    timeoutMs: 20_000,
  });
  const added = await run.app.addAccount({
    label: 'Prism',
    baseUrl: BASE,
    token: 'awt_prism0123456789abcdefghij',
  });
  run.accountId = added.account.id;
  // The audit's two syncs, the second past every core period.
  await run.app.syncNow({ accountId: run.accountId });
  now.ms += 61 * 60_000;
  await run.app.syncNow({ accountId: run.accountId });
  return run;
}

/** Makes a list answer's pagination say what a paging server says for the request; data untouched. */
async function honestPages(request: Request, response: Response): Promise<Response> {
  const asked = new URL(request.url).searchParams;
  if (!asked.has('page') || response.status !== 200) return response;
  const body = (await response.json()) as { data?: unknown; pagination?: unknown };
  const count = Array.isArray(body.data) ? body.data.length : 0;
  const page = Number(asked.get('page'));
  const limit = Number(asked.get('limit') ?? 25);
  body.pagination = { page, limit, total: (page - 1) * limit + count, has_more: false };
  return new Response(JSON.stringify(body), { status: 200, headers: response.headers });
}

async function close(run: Run | undefined) {
  await run?.app.stop();
  run?.mirror.close();
}

describe('the engine against Prism’s random answers to our document', () => {
  let prism: Awaited<ReturnType<typeof startPrism>>;
  let asIs: Run;
  let paged: Run;

  beforeAll(async () => {
    prism = await startPrism();
    asIs = await syncAgainst(prism.origin);
    paged = await syncAgainst(prism.origin, honestPages);
  }, 180_000);
  afterAll(async () => {
    await close(asIs);
    await close(paged);
    await prism?.stop();
  });

  it('as it is: its lists answer other pages than asked, so they are refused at once and nothing is raised', async () => {
    const list = asIs.mirror.getSyncStates(asIs.accountId).find((s) => s.signal === 'domains');
    expect(list?.lastError?.code).toBe('malformed_response');
    expect(list?.lastError?.message).toMatch(/page \d+ when page 1 was asked for/);
    expect(asIs.mirror.listDomains(asIs.accountId, { includeRemoved: true })).toEqual([]);
    expect(await asIs.app.listAlerts({ accountId: asIs.accountId })).toEqual([]);
    // One identity check and one page of the list per sync, not a walk to the 1,000-page limit.
    expect(asIs.calls).toBeLessThan(10);
  });

  it('keeps only domains the document allows: a domain name and a positive id', () => {
    const fqdn = new RegExp(
      (documentRuntime().doc.components!.schemas as Record<string, { pattern: string }>).Fqdn!.pattern,
    );
    const domains = paged.mirror.listDomains(paged.accountId, { includeRemoved: true });
    const listState = paged.mirror.getSyncStates(paged.accountId).find((s) => s.signal === 'domains');
    expect(domains.length, JSON.stringify(listState?.lastError)).toBeGreaterThan(0);
    for (const d of domains) {
      expect(d.fqdn).toMatch(fqdn);
      expect(d.domainId).toBeGreaterThanOrEqual(1);
    }
  });

  it('stores a posture only when the document allows it and it is about its own domain', () => {
    const { mirror, accountId } = paged;
    const postures = [
      ['/domains/{domain_id}/health', 'health'],
      ['/domains/{domain_id}/security-score', 'score'],
    ] as const;
    for (const d of mirror.listDomains(accountId, { includeRemoved: true })) {
      const detail = mirror.domainDetail(accountId, d.domainId);
      for (const [path, key] of postures) {
        const stored = detail?.[key] as { domain_id?: number; fqdn?: string } | null | undefined;
        if (!stored) continue;
        expect(documentObjections(path, stored), `${d.fqdn} ${key}`).toEqual([]);
        expect(stored.domain_id ?? d.domainId).toBe(d.domainId);
        expect((stored.fqdn ?? d.fqdn).toLowerCase()).toBe(d.fqdn.toLowerCase());
      }
    }
    // Prism's answers name random domains: those were refused, each as a malformed_response on its signal.
    const refused = mirror
      .getSyncStates(accountId)
      .filter((s) => s.lastError?.code === 'malformed_response' && s.signal === 'health');
    expect(refused.length).toBeGreaterThan(0);
  });

  it('raises alerts only about those domains, none from a posture the document does not allow', async () => {
    const { mirror, app, accountId } = paged;
    const domains = new Set(mirror.listDomains(accountId, { includeRemoved: true }).map((d) => d.fqdn));
    const alerts = await app.listAlerts({ accountId });
    for (const alert of alerts) {
      if (alert.fqdn !== null) expect(domains, `${alert.rule}: ${alert.title}`).toContain(alert.fqdn);
    }
    // Every health and score answer named another domain (checked above): none may become an alert.
    expect(alerts.filter((a) => /score_dropped|health_regressed/.test(a.rule))).toEqual([]);
  });
});
