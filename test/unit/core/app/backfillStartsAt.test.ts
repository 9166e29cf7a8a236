/**
 * The status says when a backfill that waits for the first day's alert reads starts (issue 37): the
 * sidebar and `authwatch status` read it. The day runs from when the account was added, kept in the mirror.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch } from '../../../../main/core/app.ts';
import { openMirror } from '../../../support/openMirror.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { ALERTS_FIRST_DAY_MS } from '../../../../main/core/sync/firstDay.ts';
import { manualScheduler } from '../../../../main/core/sync/scheduler.ts';

let mirror: Mirror;
afterEach(() => mirror?.close());

/** An account added `ago` ms before now whose domain list of `count` domains has arrived. */
async function backfillOf(count: number, ago: number) {
  const added = Date.now() - ago;
  mirror = openMirror(':memory:', { clock: { now: () => added } });
  const account = mirror.upsertAccount({ label: 'MSP', baseUrl: 'https://api.example.test/api/v1' });
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: Array.from({ length: count }, (_, i) => ({ id: i + 1, fqdn: `d${i + 1}.example` })),
    fetchedAt: added,
  });
  const app = createAuthwatch({ mirror, secretStore: memorySecretStore(), scheduler: manualScheduler() });
  const [status] = (await app.syncStatus()).accounts;
  return { backfill: status!.backfill, added };
}

describe('the backfill’s start in the status', () => {
  it('during the first day of 200 domains: when the day ends, a day after the account was added', async () => {
    const { backfill, added } = await backfillOf(200, 3 * 3_600_000);
    expect(backfill.complete).toBe(false);
    expect(backfill.startsAt).toBe(new Date(added + ALERTS_FIRST_DAY_MS).toISOString());
  });

  it('none for a portfolio that backfills at once, nor once the first day is over', async () => {
    expect((await backfillOf(20, 3_600_000)).backfill.startsAt).toBeNull();
    expect((await backfillOf(200, ALERTS_FIRST_DAY_MS + 60_000)).backfill.startsAt).toBeNull();
  });
});
