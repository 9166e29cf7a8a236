/**
 * The shape most live-check rules share: a condition is either present (raise, or refresh the open episode)
 * or absent (resolve it). A condition that can grow louder (21 → 7 days) is keyed by its stage, so moving to
 * the next stage ends the quieter episode and opens the louder one (an open episode keeps its severity).
 */
import type { AlertRuleName, AlertEvent, RuleContext, Severity } from '../alerts/types.ts';

/** A condition found now. */
export interface Condition {
  /** The part of the dedupe key after the alert's name and the account (the domain, a host, a stage). */
  key: string;
  severity: Severity;
  title: string;
  body: string;
  details: Record<string, unknown>;
}

/**
 * The events that make the open episodes of `rule` whose keys start with `prefix` match `found`: each found
 * condition raised (or refreshed), each other open one under the prefix resolved.
 */
export function conditionEvents(
  rule: AlertRuleName,
  prefix: string,
  found: readonly Condition[],
  ctx: RuleContext,
): AlertEvent[] {
  const start = `${rule}:${ctx.accountId}:${prefix}`;
  const keys = new Set(found.map((c) => `${rule}:${ctx.accountId}:${c.key}`));
  const events: AlertEvent[] = [];
  for (const open of ctx.openAlerts.keys()) {
    if (open.startsWith(start) && !keys.has(open)) events.push({ type: 'resolve', dedupeKey: open });
  }
  for (const c of found) {
    events.push({
      type: 'raise',
      rule,
      severity: c.severity,
      dedupeKey: `${rule}:${ctx.accountId}:${c.key}`,
      domain: ctx.domain,
      title: c.title,
      body: c.body,
      details: c.details,
    });
  }
  return events;
}
