import { z } from 'zod';
import { PROTOCOLS, type Protocol } from '../../signals/primitives.ts';
import { disconnectedKey } from '../keys.ts';
import { newerDnsEventSays, PROTOCOL_LABELS, type ProtocolReading } from '../protocolReading.ts';
import type { AlertEvent, AlertRuleFn, Severity } from '../types.ts';
import { alertRule } from '../ruleDefinition.ts';
import { protocolWrites } from '../ruleWrites.ts';
import { protocolWords } from '../protocolReading.ts';

// Losing DMARC or SPF exposes the domain to spoofing at once; the other three weaken it.
const SEVERITY: Record<Protocol, Severity> = {
  dmarc: 'critical',
  spf: 'critical',
  mta_sts: 'warning',
  tls_rpt: 'warning',
  bimi: 'warning',
};

const SEEN_BY: Record<ProtocolReading['source'], string> = {
  dns: 'a DNS change event',
  health: 'the health scan',
  dns_watch: "Authwatch's own DNS watch",
};

/**
 * protocol_disconnected: a new DNS event with action disconnected, or a health flag going true → false.
 * Both paths share one dedupe key per (account, domain, protocol), so whichever signal sees it first opens
 * the episode and the other only refreshes it. The DNS watch (source dns_watch) is a third path with the same
 * key: its readings change only once an answer is confirmed (main/core/dnswatch/confirmation.ts). The first reading of a signal is a baseline (previous null)
 * and raises nothing: a protocol that was never set up is not news. A health flip is ignored when a DNS
 * event or watch answer newer than the scan says the protocol is connected (the scan is stale).
 */
export const protocolDisconnected: AlertRuleFn<ProtocolReading | null, ProtocolReading> = (
  previous,
  next,
  ctx,
) => {
  const domain = ctx.domain;
  if (!previous || !domain) return [];
  const events: AlertEvent[] = [];
  for (const protocol of PROTOCOLS) {
    const now = next.protocols[protocol];
    if (!now || now.status !== 'disconnected') continue;
    const before = previous.protocols[protocol];
    const isNew = next.source === 'dns' ? before?.eventId !== now.eventId : before?.status === 'connected';
    if (!isNew) continue;
    if (
      next.source === 'health' &&
      newerDnsEventSays(ctx.latestDnsEvents, protocol, now.at, 'connected', ctx.watchedDns)
    )
      continue;
    const key = disconnectedKey(ctx.accountId, domain.fqdn, protocol);
    const open = ctx.openAlerts.get(key);
    const label = PROTOCOL_LABELS[protocol];
    const seenBy = SEEN_BY[next.source];
    events.push({
      type: 'raise',
      rule: 'protocol_disconnected',
      severity: SEVERITY[protocol],
      dedupeKey: key,
      domain,
      title: `${label} record of ${domain.fqdn} disconnected`,
      // No clock time in the text: it is stored, and every surface shows the alert's times in the one format.
      body: `The ${label} record of ${domain.fqdn} is no longer connected (reported by ${seenBy}).`,
      // An open episode keeps the time it started and who saw it first; the restore rule compares against it.
      // (An episode stored before its details were kept started when the alert was first seen.)
      details: open
        ? {
            protocol,
            disconnectedAt:
              typeof open.details.disconnectedAt === 'string'
                ? open.details.disconnectedAt
                : open.firstSeenAt,
            source: typeof open.details.source === 'string' ? open.details.source : next.source,
          }
        : { protocol, disconnectedAt: now.at, source: next.source },
    });
  }
  return events;
};

export default alertRule({
  alerts: {
    protocol_disconnected: {
      label: 'Protocol disconnected',
      description:
        'A DMARC, SPF, MTA-STS, TLS-RPT or BIMI record stopped being connected (DNS change, health scan or DNS watch); ends when it is connected again.',
      severity: 'critical',
      details: z.strictObject({
        protocol: z.enum(PROTOCOLS),
        disconnectedAt: z.string(),
        /** Which reading saw it: health, dns or dns_watch. */
        source: z.string(),
      }),
      words: (details) => protocolWords(details, 'disconnected'),
    },
  },
  run: protocolDisconnected,
  on: protocolWrites,
});
