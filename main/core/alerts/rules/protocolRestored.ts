import { z } from 'zod';
import { PROTOCOLS } from '../../signals/primitives.ts';
import { disconnectedKey, restoredKey } from '../keys.ts';
import { newerDnsEventSays, PROTOCOL_LABELS, type ProtocolReading } from '../protocolReading.ts';
import type { AlertEvent, AlertRuleFn } from '../types.ts';
import { durationWords } from '../../../../shared/time/timeWords.ts';
import { alertRule } from '../ruleDefinition.ts';
import { protocolWrites } from '../ruleWrites.ts';
import { protocolWords } from '../protocolReading.ts';

/**
 * protocol_restored: when a signal observes a protocol connected after its open disconnected episode began
 * (a connected DNS event, or a health scan showing it passing), the episode is resolved AND an info notice
 * is raised, because whoever was told it broke wants to be told it is fixed. The notice is born resolved
 * (nothing to clear) and its key names the episode, so each repair is announced once. This is state-based,
 * not transition-based: a health flag that stayed true through a short DNS outage still closes the episode
 * once a scan newer than the outage shows it. A health reading never closes an episode when a newer DNS
 * event, or a DNS watch answer newer than the scan, says disconnected.
 */
export const protocolRestored: AlertRuleFn<ProtocolReading | null, ProtocolReading> = (
  _previous,
  next,
  ctx,
) => {
  const domain = ctx.domain;
  if (!domain) return [];
  const events: AlertEvent[] = [];
  for (const protocol of PROTOCOLS) {
    const now = next.protocols[protocol];
    if (!now || now.status !== 'connected') continue;
    const key = disconnectedKey(ctx.accountId, domain.fqdn, protocol);
    const open = ctx.openAlerts.get(key);
    if (!open) continue;
    const since =
      typeof open.details.disconnectedAt === 'string' ? open.details.disconnectedAt : open.firstSeenAt;
    if (!(Date.parse(now.at) > Date.parse(since))) continue;
    if (
      next.source === 'health' &&
      newerDnsEventSays(ctx.latestDnsEvents, protocol, now.at, 'disconnected', ctx.watchedDns)
    )
      continue;
    const label = PROTOCOL_LABELS[protocol];
    events.push(
      { type: 'resolve', dedupeKey: key },
      {
        type: 'raise',
        rule: 'protocol_restored',
        severity: 'info',
        dedupeKey: restoredKey(ctx.accountId, domain.fqdn, protocol, open.id),
        domain,
        title: `${label} record of ${domain.fqdn} connected again`,
        body: `The ${label} record of ${domain.fqdn} is connected again, after ${durationWords(Date.parse(now.at) - Date.parse(since))} disconnected.`,
        details: { protocol, restoredAt: now.at, disconnectedAt: since, episodeId: open.id },
        notice: true,
      },
    );
  }
  return events;
};

export default alertRule({
  alerts: {
    protocol_restored: {
      label: 'Protocol restored',
      description: 'A record that was disconnected is connected again (a notice: it needs nothing from you).',
      severity: 'info',
      details: z.strictObject({
        protocol: z.enum(PROTOCOLS),
        restoredAt: z.string(),
        disconnectedAt: z.string(),
        /** The protocol_disconnected alert this ends. */
        episodeId: z.number(),
      }),
      words: (details) => protocolWords(details, 'connected again'),
    },
  },
  run: protocolRestored,
  on: protocolWrites,
});
