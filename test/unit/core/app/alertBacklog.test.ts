/**
 * The app opened after a long time away (issue 21 item 4): hundreds of alerts wait for a window. They come as
 * one summary notification, not hundreds; each is marked delivered exactly once, even when the app is killed
 * half-way through marking them; and the window's first overview call is answered before the backlog is
 * worked through. A file mirror, a fake clock, a recording notifier; order of events, never timing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch, type AuthwatchEvent } from '../../../../main/core/app.ts';
import { toBridgeEvent } from '../../../../main/core/app/bridgeEvents.ts';
import {
  createDelivery,
  type AlertSummary,
  type DeliveryHooks,
  type Notifier,
} from '../../../../main/core/app/notificationDelivery.ts';
import { openMirror } from '../../../../main/core/mirror/openMirror.ts';
import { STATUS_MODEL } from '../../../../main/core/status/statusModel.ts';
import type { Alert, Mirror } from '../../../../main/core/mirror/types.ts';
import { manualScheduler } from '../../../../main/core/sync/scheduler.ts';
import { fakeClock, health } from '../mirror/payloads.ts';

const DOMAINS = 200;
let dir: string;
let file: string;

/**
 * A mirror holding `DOMAINS` domains that each lost SPF since the last scan: 3 pending alerts each. In memory
 * unless the test restarts it (a file then).
 */
function mirrorWithBacklog(at: ':memory:' | 'file' = ':memory:'): {
  mirror: Mirror;
  clock: ReturnType<typeof fakeClock>;
  accountId: number;
} {
  const clock = fakeClock('2025-03-01T09:00:00Z');
  const mirror = openMirror(at === 'file' ? file : ':memory:', { clock, status: STATUS_MODEL });
  const account = mirror.upsertAccount({ label: 'Acme MSP', baseUrl: 'https://app.example.net/api/v1' });
  const domains = Array.from({ length: DOMAINS }, (_, i) => ({
    id: i + 1,
    fqdn: `d${i + 1}.example.com`,
    status: 'active',
    group_id: null,
  }));
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: domains,
    fetchedAt: clock.now(),
  });
  for (const [at, spf] of [
    ['2025-03-01T09:00:00Z', true],
    ['2025-03-01T10:00:00Z', false],
  ] as const) {
    clock.set(at);
    for (const d of domains)
      mirror.writeSignal({
        accountId: account.id,
        domainId: d.id,
        signal: 'health',
        payload: { ...health(at, { spf }), domain_id: d.id, fqdn: d.fqdn },
        fetchedAt: at,
      });
  }
  // The user comes back a week later.
  clock.set('2025-03-08T10:00:00Z');
  return { mirror, clock, accountId: account.id };
}

/** A notifier that records what it showed, in order, with the rest of the round's events. */
function recordingNotifier(events: string[]): Notifier & { shown: Alert[]; summaries: AlertSummary[] } {
  const shown: Alert[] = [];
  const summaries: AlertSummary[] = [];
  return {
    channel: 'desktop',
    shown,
    summaries,
    notify(alert) {
      shown.push(alert);
      events.push('notification');
    },
    notifySummary(summary) {
      summaries.push(summary);
      events.push(`summary of ${summary.count}`);
    },
  };
}

const quietHooks: DeliveryHooks = {
  onDelivered: () => undefined,
  onSummarized: () => undefined,
  onFailure: () => undefined,
};

/** Every alert's delivery log, by id. */
function deliveryLog(mirror: Mirror, ids: number[]): Map<number, string[]> {
  return new Map(ids.map((id) => [id, mirror.deliveries(id).map((d) => d.channel)]));
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'authwatch-backlog-'));
  file = join(dir, 'mirror.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('alerts that waited for a window', () => {
  it('600 pending alerts make one summary notification, each marked delivered once, in a few transactions', async () => {
    const { mirror, clock } = mirrorWithBacklog();
    const ids = mirror.pendingDeliveries(clock.now()).map((a) => a.id);
    expect(ids).toHaveLength(600);
    const events: string[] = [];
    const notifier = recordingNotifier(events);
    const transactions: number[] = [];
    const marking = mirror.markDelivered.bind(mirror);
    mirror.markDelivered = (batch, channel, at) => {
      transactions.push(batch.length);
      marking(batch, channel, at);
    };
    const summarized: AlertSummary[] = [];
    const deliver = createDelivery(mirror, notifier, () => clock.now(), {
      ...quietHooks,
      onSummarized: (s) => summarized.push(s),
    });
    await deliver();

    expect(events).toEqual(['summary of 600']);
    expect(notifier.summaries[0]).toMatchObject({
      count: 600,
      critical: 200,
      since: '2025-03-01T10:00:00.000Z',
    });
    expect(summarized).toEqual(notifier.summaries);
    expect(transactions).toEqual([200, 200, 200]);
    expect(mirror.pendingDeliveries(clock.now())).toEqual([]);
    for (const [, channels] of deliveryLog(mirror, ids)) expect(channels).toEqual(['desktop']);
    // A second round (the next sync's write) shows nothing more.
    await deliver();
    expect(events).toEqual(['summary of 600']);
    mirror.close();
  });

  it('a kill half-way through marking loses nothing and delivers nothing twice after the restart', async () => {
    const first = mirrorWithBacklog('file');
    const ids = first.mirror.pendingDeliveries(first.clock.now()).map((a) => a.id);
    const events: string[] = [];
    const notifier = recordingNotifier(events);
    let yields = 0;
    const deliver = createDelivery(first.mirror, notifier, () => first.clock.now(), quietHooks, undefined, {
      batchSize: 100,
      yieldToLoop: async () => {
        yields++;
        // Yield 1 opens the round, 2 precedes batch 1, 3 precedes batch 2: the process dies there.
        if (yields === 4) first.mirror.close();
      },
    });
    await expect(deliver()).rejects.toThrow();
    expect(events).toEqual(['summary of 600']);

    const mirror = openMirror(file, { clock: first.clock, status: STATUS_MODEL });
    const left = mirror.pendingDeliveries(first.clock.now());
    expect(left).toHaveLength(400);
    await createDelivery(mirror, notifier, () => first.clock.now(), quietHooks)();
    // The rest come as a second, smaller summary; every alert is logged delivered exactly once.
    expect(events).toEqual(['summary of 600', 'summary of 400']);
    expect(mirror.pendingDeliveries(first.clock.now())).toEqual([]);
    for (const [, channels] of deliveryLog(mirror, ids)) expect(channels).toEqual(['desktop']);
    mirror.close();
  });

  it('a few alerts still notify one by one; a notifier without summaries notifies each, in batches', async () => {
    const { mirror, clock } = mirrorWithBacklog();
    const events: string[] = [];
    const { notify } = recordingNotifier(events);
    const transactions: number[] = [];
    const marking = mirror.markDelivered.bind(mirror);
    mirror.markDelivered = (batch, channel, at) => {
      transactions.push(batch.length);
      marking(batch, channel, at);
    };
    await createDelivery(mirror, { channel: 'terminal', notify }, () => clock.now(), quietHooks)();
    expect(events.filter((e) => e === 'notification')).toHaveLength(600);
    expect(transactions).toEqual([200, 200, 200]);
    mirror.close();
  });

  it("answers the window's first overview call before the backlog is delivered", async () => {
    const { mirror, clock, accountId } = mirrorWithBacklog();
    const events: string[] = [];
    const marking = mirror.markDelivered.bind(mirror);
    mirror.markDelivered = (batch, channel, at) => {
      events.push(`marked ${batch.length}`);
      marking(batch, channel, at);
    };
    const app = createAuthwatch({
      mirror,
      secretStore: memorySecretStore(),
      scheduler: manualScheduler(),
      clock: { now: () => clock.now() },
      notifier: recordingNotifier(events),
    });
    const summarized: AuthwatchEvent[] = [];
    app.on((event) => {
      if (event.type !== 'alerts_summarized') return;
      events.push('summarized');
      summarized.push(event);
    });
    // What a shell does when a window connects: deliver what waited; the window asks for its first screen.
    const delivered = app.deliverPending();
    const rows = await app.overview({ accountId });
    events.push(`overview answered (${rows.length} rows)`);
    await delivered;

    expect(events).toEqual([
      `overview answered (${DOMAINS} rows)`,
      'summary of 600',
      'marked 200',
      'marked 200',
      'marked 200',
      'summarized',
    ]);
    // The window hears of it once, in the words of the one notification it shows (a click opens Alerts).
    expect(summarized.map(toBridgeEvent)).toEqual([
      {
        event: 'alert-summary',
        payload: {
          count: 600,
          critical: 200,
          since: '2025-03-01T10:00:00.000Z',
          notification: {
            title: '600 alerts while you were away',
            body: '200 critical — open Alerts to see them.',
          },
        },
      },
    ]);
    mirror.close();
  });
});
