/**
 * A busy week's alerts, every one of them, wherever a user reads the week back: the weekly digest, the
 * alerts export and `authwatch alerts --json`. A simulated week at 1,000 domains raises ~10,200 alerts
 * (each removal: disconnected, score drop, health regressed; each restore; each threat); every such read
 * once stopped at the newest 10,000 without a word, so the week's first alerts were missing from all three
 * (and the week bench counted their changes as told of by no alert).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/cli/run.ts';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch } from '../../../../main/core/app.ts';
import { digestContent } from '../../../../main/core/delivery/digest.ts';
import { failedSources, mirrorWithDomain, source, write } from './payloads.ts';
import { threatName, writeThreatBatches } from './threatBatches.ts';

const dir = mkdtempSync(join(tmpdir(), 'authwatch-busy-week-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BATCHES = 11;
const PER_BATCH = 1_000;
const WEEK_START = Date.parse('2025-03-01T10:00:00Z');
const WEEK_END = WEEK_START + 7 * 86_400_000;

function busyWeek() {
  const file = join(dir, 'mirror.db');
  const { mirror, account, accountId } = mirrorWithDomain(file);
  // Before the week: a threat raised and ended (not the week's), and one raised that ends in the week.
  write(mirror, accountId, 'failed_sources', failedSources(source('older', true)), '2025-02-20T10:00:00Z');
  write(mirror, accountId, 'failed_sources', failedSources(), '2025-02-21T10:00:00Z');
  write(mirror, accountId, 'failed_sources', failedSources(source('old', true)), '2025-02-27T10:00:00Z');
  // The week's threats: 11 answers of 1,000 new registered threats each, spread over the week.
  const times = Array.from({ length: BATCHES }, (_, batch) =>
    new Date(WEEK_START + 3_600_000 + batch * 14 * 3_600_000).toISOString(),
  );
  writeThreatBatches(mirror, accountId, times, PER_BATCH);
  return { file, mirror, account, accountId };
}

describe('a week with more than 10,000 alerts', () => {
  let week: ReturnType<typeof busyWeek>;
  beforeAll(() => {
    week = busyWeek();
  });
  const firstOfTheWeek = `Registered threat sending as example.com: ${threatName(0, 0)}`;

  it('the weekly digest lists every alert raised or ended in the week, the first one too', () => {
    const digest = digestContent(week.mirror, week.account, WEEK_END);
    const titles = digest.alertsOpened.map((a) => a.title);
    // 11,000 raised in the week, and the one raised before it that ended in it; not the one that ended before.
    expect(titles).toHaveLength(BATCHES * PER_BATCH + 1);
    expect(titles).toContain(firstOfTheWeek);
    expect(titles).toContain('Registered threat sending as example.com: old');
    expect(titles).not.toContain('Registered threat sending as example.com: older');
  });

  it('the alerts export holds every alert', async () => {
    const app = createAuthwatch({ mirror: week.mirror, secretStore: memorySecretStore() });
    try {
      const file = await app.exportData({ what: 'alerts', format: 'json' });
      const rows = JSON.parse(file.content) as { title: string }[];
      expect(file.rows).toBe(BATCHES * PER_BATCH + 2);
      expect(rows.map((r) => r.title)).toContain(firstOfTheWeek);
      expect(rows.at(-1)?.title).toBe('Registered threat sending as example.com: older');
    } finally {
      await app.stop();
    }
  });

  it('`authwatch alerts --json` prints every alert, and a read asked for a number gets that number', async () => {
    expect(week.mirror.listAlerts({ accountId: week.accountId, limit: 10_500 })).toHaveLength(10_500);
    week.mirror.close();
    let out = '';
    const code = await runCli(['alerts', '--json', '--db', week.file], {
      env: {},
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: () => undefined },
      interrupted: () => new Promise<void>(() => undefined),
    });
    expect(code).toBe(0);
    const rows = JSON.parse(out) as { title: string }[];
    expect(rows).toHaveLength(BATCHES * PER_BATCH + 2);
    expect(rows.map((r) => r.title)).toContain(firstOfTheWeek);
  });
});
