import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStaticResolver } from '../../../../shared/email-auth/dns.ts';
import { openServiceDb, type ServiceDb } from '../../../../service/db/openServiceDb.ts';
import { createAccount } from '../../../../service/sandbox/accounts.ts';
import { startScanTimer } from '../../../../service/scan/scanTimer.ts';
import { buildService } from '../../../../service/app.ts';

let db: ServiceDb;
const start = new Date('2026-06-15T12:00:00.000Z');

beforeEach(() => {
  vi.useFakeTimers({ now: start });
  db = openServiceDb(':memory:');
  const { teamId } = createAccount(db, {
    name: 'Timer Team',
    plan: 'suite',
    apiAccess: true,
    ownerName: 'Owner',
    ownerEmail: 'owner@timer.example',
    now: start,
  });
  db.prepare(
    "INSERT INTO domains (team_id, fqdn, created_at, updated_at) VALUES (?, 'timer.example', ?, ?)",
  ).run(teamId, start.toISOString(), start.toISOString());
});

afterEach(() => {
  vi.useRealTimers();
  db.close();
});

const resolver = createStaticResolver({ 'timer.example': { TXT: ['v=spf1 -all'] } });
const snapshots = () => (db.prepare('SELECT count(*) AS n FROM health_snapshots').get() as { n: number }).n;

describe('startScanTimer', () => {
  it('scans every domain once per interval, as of the clock, until stopped', async () => {
    const runs: string[] = [];
    const timer = startScanTimer({ db, resolver, clock: () => new Date() }, 60_000, {
      onRun: (outcomes) => runs.push(...outcomes.map((o) => o.scanned_at)),
    });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(snapshots()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(snapshots()).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toEqual(['2026-06-15T12:01:00.000Z', '2026-06-15T12:02:00.000Z']);
    await timer.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(snapshots()).toBe(2);
  });

  it('reports a failing run to onError and keeps scanning', async () => {
    const errors: unknown[] = [];
    let clockCalls = 0;
    const clock = () => {
      clockCalls++;
      if (clockCalls === 1) throw new Error('clock broken once');
      return new Date();
    };
    const timer = startScanTimer({ db, resolver, clock }, 1_000, { onError: (e) => errors.push(e) });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(errors).toEqual([new Error('clock broken once')]);
    expect(snapshots()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(snapshots()).toBe(1);
    await timer.stop();
  });

  it('refuses a non-positive interval', () => {
    expect(() => startScanTimer({ db, resolver, clock: () => new Date() }, 0)).toThrow(RangeError);
  });
});

describe('buildService({scanIntervalMs})', () => {
  it('scans while the service runs and stops when it closes', async () => {
    vi.useRealTimers();
    const app = buildService({ db, resolver, clock: () => new Date(), scanIntervalMs: 20 });
    await app.ready();
    try {
      for (let waited = 0; snapshots() < 2 && waited < 5_000; waited += 20) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(snapshots()).toBeGreaterThanOrEqual(2);
    } finally {
      await app.close();
    }
    const after = snapshots();
    await new Promise((r) => setTimeout(r, 100));
    expect(snapshots()).toBe(after);
  });
});
