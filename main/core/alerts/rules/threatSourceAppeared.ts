import { z } from 'zod';
import type { FailedSourcesPayload } from '../../signals/sendingSources.ts';
import { threatKey } from '../keys.ts';
import type { AlertEvent, AlertRuleFn } from '../types.ts';
import { alertRule } from '../ruleDefinition.ts';

/** What the mirror remembers before a failed-sources write: every registered threat ever seen on the domain. */
export interface KnownThreats {
  known: ReadonlySet<string>;
}

/**
 * threat_source_appeared: a failed source flagged is_registered_threat that was never seen before for this
 * domain, whatever the window. Each source is announced once, ever (the mirror remembers seen threats even
 * after the alert resolves). Unlike the transition rules this also fires on the first fetch: a registered
 * threat sending as the domain right now is worth knowing the day the account is added. The episode
 * resolves when a later failed-sources answer no longer lists the source as a threat.
 */
export const threatSourceAppeared: AlertRuleFn<KnownThreats, FailedSourcesPayload> = (
  previous,
  next,
  ctx,
) => {
  const domain = ctx.domain;
  if (!domain) return [];
  const events: AlertEvent[] = [];
  const threatsNow = new Set<string>();
  for (const source of next.failed_sources) {
    if (source.is_registered_threat !== true || threatsNow.has(source.source_name)) continue;
    threatsNow.add(source.source_name);
    if (previous.known.has(source.source_name)) continue;
    const volume = source.total_count ?? source.dmarc?.fail;
    const volumeText =
      volume === undefined || volume === null
        ? 'mail'
        : `${volume.toLocaleString('en-US')} ${volume === 1 ? 'message' : 'messages'}`;
    events.push({
      type: 'raise',
      rule: 'threat_source_appeared',
      severity: 'critical',
      dedupeKey: threatKey(ctx.accountId, domain.fqdn, source.source_name),
      domain,
      title: `Registered threat sending as ${domain.fqdn}: ${source.source_name}`,
      body: `${source.source_name}, a source known to be malicious, sent ${volumeText} as ${domain.fqdn} that failed DMARC.`,
      details: { sourceName: source.source_name, totalCount: source.total_count ?? null },
    });
  }
  for (const open of ctx.openAlerts.values()) {
    const name = open.details.sourceName;
    if (open.rule === 'threat_source_appeared' && typeof name === 'string' && !threatsNow.has(name)) {
      events.push({ type: 'resolve', dedupeKey: open.dedupeKey });
    }
  }
  return events;
};

export default alertRule({
  alerts: {
    threat_source_appeared: {
      label: 'Threat source sending',
      description:
        'A source known to be malicious sent mail as the domain that failed DMARC; ends when it is no longer listed.',
      severity: 'critical',
      details: z.strictObject({ sourceName: z.string(), totalCount: z.number().nullable() }),
      words: 'Threat sending as this domain',
    },
  },
  run: threatSourceAppeared,
  on: {
    // Compared with every threat ever seen on the domain (the payload is the answer just written).
    failed_sources: ({ before, payload }, ctx, run) => run(before, payload, ctx),
  },
});
