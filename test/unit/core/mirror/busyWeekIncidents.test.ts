/**
 * The Alerts page after a busy week: its incidents are grouped from the mirror's alerts, and that read once
 * stopped at the newest 10,000 (a simulated week at 1,000 domains raises ~10,200). An alert raised early in
 * the week and still open vanished from the inbox while the header still counted it open, and an incident
 * whose first alerts fell past the cut showed only its later ones: another title, a later first-seen time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch } from '../../../../main/core/app.ts';
import type { Incident } from '../../../../shared/bridge/incidents.ts';
import { DOMAIN_ID, domainsPayload, failedSources, mirrorWithDomain, source, write } from './payloads.ts';
import { writeThreatBatches } from './threatBatches.ts';

const ORG = { id: 4212, fqdn: 'example.org' };
const NET = { id: 4213, fqdn: 'example.net' };
const BATCHES = 11;
const PER_BATCH = 1_000;

/**
 * Monday: a threat found sending as example.org, still sending on Sunday. Sunday 09:58: a threat on
 * example.com; in the same sync pass 11 answers of 1,000 threats each on example.net (10:00-10:10); at
 * 10:12 example.com's answer names another threat and no longer the first: one incident of two threats,
 * whose first alert is older than the newest 10,000.
 */
function busyWeek() {
  const { mirror, accountId } = mirrorWithDomain();
  mirror.writeSignal({
    accountId,
    domainId: null,
    signal: 'domains',
    payload: [...domainsPayload(), { id: NET.id, fqdn: NET.fqdn, status: 'active', group_id: null }],
    fetchedAt: Date.parse('2025-03-01T10:00:00Z'),
  });
  mirror.writeSignal({
    accountId,
    domainId: ORG.id,
    signal: 'failed_sources',
    payload: { ...failedSources(source('early.example', true)), domain_id: ORG.id, fqdn: ORG.fqdn },
    fetchedAt: '2025-03-03T10:00:00Z',
  });
  write(
    mirror,
    accountId,
    'failed_sources',
    failedSources(source('spoofer.example', true)),
    '2025-03-09T09:58:00Z',
  );
  const times = Array.from({ length: BATCHES }, (_, b) => `2025-03-09T10:${String(b).padStart(2, '0')}:00Z`);
  writeThreatBatches(mirror, accountId, times, PER_BATCH, NET);
  write(
    mirror,
    accountId,
    'failed_sources',
    failedSources(source('relay.example', true)),
    '2025-03-09T10:12:00Z',
  );
  return { mirror, accountId, app: createAuthwatch({ mirror, secretStore: memorySecretStore() }) };
}

const on = (incidents: Incident[], domainId: number) => incidents.filter((i) => i.domainId === domainId);
const summary = (i: Incident) => ({
  open: i.open,
  title: i.title,
  firstSeenAt: i.firstSeenAt,
  alerts: i.alerts.map((a) => a.title),
});

describe('the Alerts page after a week with more than 10,000 alerts', () => {
  let week: ReturnType<typeof busyWeek>;
  beforeAll(() => {
    week = busyWeek();
  });
  afterAll(() => week.app.stop());

  it('the alerts are past the 10,000 a read once stopped at', () => {
    expect(week.mirror.listAlerts({ limit: 'all' })).toHaveLength(BATCHES * PER_BATCH + 3);
  });

  for (const state of [undefined, 'all'] as const) {
    it(`lists the threat raised on Monday and still open (${state ?? 'open, the default'})`, async () => {
      const incidents = await week.app.listIncidents(state ? { state } : undefined);
      expect(on(incidents, ORG.id).map(summary)).toEqual([
        {
          open: true,
          title: 'Registered threat sending as example.org: early.example',
          firstSeenAt: '2025-03-03T10:00:00.000Z',
          alerts: ['Registered threat sending as example.org: early.example'],
        },
      ]);
    });

    it(`shows an open incident whose first alert is older than the newest 10,000 whole (${state ?? 'open, the default'})`, async () => {
      const incidents = await week.app.listIncidents(state ? { state } : undefined);
      expect(on(incidents, DOMAIN_ID).map(summary)).toEqual([
        {
          open: true,
          title: '2 registered threats sending',
          firstSeenAt: '2025-03-09T09:58:00.000Z',
          alerts: [
            'Registered threat sending as example.com: spoofer.example',
            'Registered threat sending as example.com: relay.example',
          ],
        },
      ]);
      // The pass's 11,000 threats on example.net are one incident, every one of them inside.
      expect(on(incidents, NET.id).map((i) => [i.open, i.alerts.length])).toEqual([
        [true, BATCHES * PER_BATCH],
      ]);
    });
  }

  it('the inbox agrees with the open alerts it counts: every open alert is in an open incident', async () => {
    const incidents = await week.app.listIncidents();
    const inInbox = new Set(incidents.flatMap((i) => i.alerts.map((a) => a.id)));
    const open = week.mirror.listAlerts({ open: true, limit: 'all' });
    expect(open.length).toBe(PER_BATCH + 2);
    expect(open.filter((a) => !inInbox.has(a.id)).map((a) => a.title)).toEqual([]);
  });
});
