// A hosted-SPF edit is one transaction — the edit, the record republished in the service's zone, the history
// entry: when its history cannot be written (a full disk, simulated by a trigger), the call fails and the record,
// what the zone serves and the history are as before; nothing is half-applied.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxZoneResolver } from '../../../service/dns/sandboxZone.ts';
import { hostedRecordName } from '../../../service/hosted/serviceDns.ts';
import { stopService } from '../../support/serviceHarness.ts';
import type { ServiceHarness } from '../../support/serviceHarness.ts';
import { startOwnerWorld } from '../../support/ownerWorld.ts';

const FQDN = 'atomic-spf.example';
let svc: ServiceHarness;
let owner: string;
let domainId: number;

beforeAll(async () => {
  const world = await startOwnerWorld('other-atomic.example');
  ({ svc, owner } = world);
  domainId = world.addDomain(svc.seed!.teamId, FQDN);
  const created = await svc.call('POST', `/domains/${domainId}/hosted-spf`, {
    token: owner,
    body: { all: '~all', import_existing: false },
  });
  expect(created.status).toBe(201);
  const ip = await svc.call('POST', `/domains/${domainId}/spf/ip-actions`, {
    token: owner,
    body: { ip: '192.0.2.0/24', type: 'Allow' },
  });
  expect(ip.status).toBe(201);
});
afterAll(() => stopService(svc));

/** Everything a user could see of the hosted record. */
async function observed() {
  const served = await createSandboxZoneResolver(svc.db)(hostedRecordName('spf', FQDN), 'TXT').catch(
    (err: { code?: string }) => err.code,
  );
  const hosted = await svc.call('GET', `/domains/${domainId}/hosted-spf`, { token: owner });
  const ipActions = await svc.call('GET', `/domains/${domainId}/spf/ip-actions`, { token: owner });
  const history = await svc.call('GET', `/domains/${domainId}/spf/history`, { token: owner });
  return {
    served,
    hosted: hosted.body.data,
    ipActions: ipActions.body.data,
    history: history.body.pagination.total,
  };
}

describe('a hosted-SPF edit whose history cannot be written', () => {
  it('fails as a whole: record, served TXT and history unchanged', async () => {
    const before = await observed();
    expect(before.served).toEqual([[expect.stringContaining('ip4:192.0.2.0/24')]]);
    svc.db.exec(`CREATE TRIGGER history_full BEFORE INSERT ON hosted_record_history
                 BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
    try {
      const calls = [
        svc.call('PATCH', `/domains/${domainId}/hosted-spf`, { token: owner, body: { all: '-all' } }),
        svc.call('POST', `/domains/${domainId}/spf/ip-actions`, {
          token: owner,
          body: { ip: '198.51.100.7', type: 'Reject' },
        }),
        svc.call('DELETE', `/domains/${domainId}/spf/ip-actions/${before.ipActions[0].id}`, { token: owner }),
        svc.call('DELETE', `/domains/${domainId}/hosted-spf`, { token: owner }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(500);
        expect(res.body.error.code).toBe('internal_error');
      }
      expect(await observed()).toEqual(before);
    } finally {
      svc.db.exec('DROP TRIGGER history_full');
    }

    const ok = await svc.call('PATCH', `/domains/${domainId}/hosted-spf`, {
      token: owner,
      body: { all: '-all' },
    });
    expect(ok.status).toBe(200);
    const after = await observed();
    expect(after.served).toEqual([[expect.stringMatching(/ip4:192\.0\.2\.0\/24 -all$/)]]);
    expect(after.history).toBe(before.history + 2); // activity and snapshot
  });
});
