/**
 * Receivers that misbehave, against the real webhook and Alertmanager transports and the outbox sender: a
 * 600 MiB answer is read to 64 KiB and hung up on (memory bounded), a dripping answer ends the send at its
 * deadline and is not counted delivered, and a redirect is refused rather than followed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { alertmanagerTransport } from '../../../../main/core/delivery/alertmanagerTransport.ts';
import { createDeliveryRuntime } from '../../../../main/core/delivery/deliveryRuntime.ts';
import { testMessage } from '../../../../main/core/delivery/message.ts';
import { withinDeadline } from '../../../../main/core/delivery/sendDeadline.ts';
import type { ChannelTransport } from '../../../../main/core/delivery/transport.ts';
import { webhookTransport } from '../../../../main/core/delivery/webhookTransport.ts';
import type { ChannelDraft } from '../../../../main/core/delivery/channelDraft.ts';
import { startHostileReceiver, type HostileReceiver } from '../../../support/hostileReceiver.ts';
import { DOMAIN_ID, FQDN, health, mirrorWithDomain } from '../mirror/payloads.ts';
import { ALERT_CATALOGUE } from '../../../../main/core/livechecks/ruleRegistry.ts';

const MIB = 1024 * 1024;
const MESSAGE = testMessage('test-1', '2026-11-29T00:00:00.000Z');

function transport(kind: 'webhook' | 'alertmanager', url: string): ChannelTransport {
  return kind === 'webhook'
    ? webhookTransport({
        format: 'generic',
        catalogue: ALERT_CATALOGUE,
        url: `${url}/hook`,
        urlShown: url,
        secret: null,
        fetch,
        nowMs: Date.now,
        timeZone: () => null,
      })
    : alertmanagerTransport({ url, urlShown: url, fetch });
}

/** Runs `work` sampling this process's resident memory; resolves with its growth at the peak (bytes). */
async function peakGrowth(work: () => Promise<unknown>): Promise<number> {
  const base = process.memoryUsage.rss();
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage.rss()) - base;
}

/** A mirror with one alert raised (example.com's SPF disconnected) and delivery wired to `draft`'s channel. */
async function oneAlertFor(draft: ChannelDraft, sendTimeoutMs: number) {
  const { mirror, accountId, clock } = mirrorWithDomain();
  const delivery = createDeliveryRuntime(mirror, memorySecretStore(), clock.now, ALERT_CATALOGUE, {
    sender: { sendTimeoutMs, random: () => 0.5 },
  });
  const { channel } = await delivery.channels.add(draft);
  for (const [at, spf] of [
    ['2025-03-01T09:00:00Z', true],
    ['2025-03-01T10:00:00Z', false],
  ] as const)
    mirror.writeSignal({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'health',
      payload: { ...health(at, { spf }), domain_id: DOMAIN_ID, fqdn: FQDN },
      fetchedAt: at,
    });
  return { mirror, delivery, channelId: channel.id };
}

let receiver: HostileReceiver;
let elsewhere: HostileReceiver;
beforeAll(async () => {
  receiver = await startHostileReceiver();
  elsewhere = await startHostileReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await elsewhere?.close();
});

describe('a receiver answering 600 MiB', () => {
  it.each(['webhook', 'alertmanager'] as const)(
    '%s: 64 KiB of the answer is read, the rest cancelled; memory stays bounded',
    async (kind) => {
      receiver.mode = 'huge';
      receiver.bytesWritten = 0;
      const started = Date.now();
      const growth = await peakGrowth(() =>
        withinDeadline(20_000, (signal) => transport(kind, receiver.url).send(MESSAGE, signal)),
      );
      await receiver.settled();
      // The sender hung up: the receiver got out what the sockets buffer, not 600 MiB.
      expect(receiver.bytesWritten).toBeLessThan(64 * MIB);
      expect(growth).toBeLessThan(100 * MIB);
      expect(Date.now() - started).toBeLessThan(5_000);
    },
    30_000,
  );
});

describe('a receiver dripping its answer', () => {
  it.each([
    ['webhook', (url: string): ChannelDraft => ({ kind: 'webhook', name: 'drip', url: `${url}/hook` })],
    ['alertmanager', (url: string): ChannelDraft => ({ kind: 'alertmanager', name: 'drip', url })],
  ] as const)(
    '%s: the send ends at its 1 s deadline, is not counted delivered and stays queued',
    async (_kind, draftFor) => {
      receiver.mode = 'drip';
      receiver.dripMs = 100;
      receiver.bytesWritten = 0;
      const { mirror, delivery, channelId } = await oneAlertFor(
        { ...draftFor(receiver.url), minSeverity: 'critical' },
        1_000,
      );
      const started = Date.now();
      const result = await delivery.outbox.round({ ignoreGather: true });
      const took = Date.now() - started;
      expect(result).toMatchObject({ sent: 0, failed: 1 });
      expect(took).toBeLessThan(4_000);
      const channel = mirror.delivery.getChannel(channelId)!;
      expect(channel).toMatchObject({ queued: 1, lastSuccessAt: null });
      expect(channel.lastError).toMatch(/within 1 s/);
      // The answer was cancelled, not left dripping into a connection nobody reads.
      await receiver.settled();
      expect(receiver.bytesWritten).toBeLessThan(30);
    },
    20_000,
  );
});

describe('a receiver answering with a redirect', () => {
  it.each(['webhook', 'alertmanager'] as const)(
    '%s: the redirect is refused in words and nothing reaches where it points',
    async (kind) => {
      receiver.mode = 'redirect';
      receiver.redirectTo = `${elsewhere.url}/api/v2/alerts`;
      elsewhere.mode = 'huge';
      elsewhere.hugeBytes = 2;
      const before = elsewhere.requests;
      await expect(
        withinDeadline(5_000, (signal) => transport(kind, receiver.url).send(MESSAGE, signal)),
      ).rejects.toThrow(/redirect \(HTTP 307\); redirects are not followed/);
      expect(elsewhere.requests).toBe(before);
    },
  );
});
