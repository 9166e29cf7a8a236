import { z } from 'zod';
import { healthRegressedKey } from '../keys.ts';
import type { AlertEvent, AlertRuleFn } from '../types.ts';
import { alertRule } from '../ruleDefinition.ts';

/** One health snapshot, reduced to what regression is judged on. */
export interface HealthReading {
  passing: number | null;
  total: number | null;
  result: string | null;
  /** scanned_at. */
  at: string;
}

/**
 * Health result labels from worst (0) to best. The interface shows only "Protected" and does not enumerate
 * the others; these are the words such services use. Synonyms share a rank so no order is invented between
 * them, and a label not listed here never triggers (nor blocks) anything.
 */
export const RESULT_LABEL_RANKS: Readonly<Record<string, number>> = {
  unprotected: 0,
  critical: 0,
  'at risk': 1,
  vulnerable: 1,
  poor: 1,
  'needs attention': 2,
  'partially protected': 2,
  partial: 2,
  fair: 2,
  protected: 3,
  good: 3,
  excellent: 3,
};

/** The rank of a result label (case and spacing insensitive), or null when unknown. */
export function resultRank(label: string | null): number | null {
  if (label === null) return null;
  return (
    RESULT_LABEL_RANKS[
      label
        .trim()
        .toLowerCase()
        .replace(/[\s_-]+/g, ' ')
    ] ?? null
  );
}

function worse(a: number | null, b: number | null): boolean {
  return a !== null && b !== null && a < b;
}

/**
 * health_regressed: the latest scan passes fewer protocols than the one before, or its result label is
 * worse (by RESULT_LABEL_RANKS). One episode per domain; a further regression while open refreshes it; it
 * resolves when a scan is back to the pre-regression count and label. The first scan is a baseline.
 */
export const healthRegressed: AlertRuleFn<HealthReading | null, HealthReading> = (previous, next, ctx) => {
  const domain = ctx.domain;
  if (!previous || !domain || previous.at === next.at) return [];
  const key = healthRegressedKey(ctx.accountId, domain.fqdn);
  const open = ctx.openAlerts.get(key);
  const regressed =
    worse(next.passing, previous.passing) || worse(resultRank(next.result), resultRank(previous.result));

  if (open) {
    const basePassing = typeof open.details.passingBefore === 'number' ? open.details.passingBefore : null;
    const baseResult = typeof open.details.resultBefore === 'string' ? open.details.resultBefore : null;
    const recovered =
      !worse(next.passing, basePassing) && !worse(resultRank(next.result), resultRank(baseResult));
    if (recovered) return [{ type: 'resolve', dedupeKey: key }];
    return regressed ? [raise({ passing: basePassing, result: baseResult })] : [];
  }
  return regressed ? [raise(previous)] : [];

  function raise(before: { passing: number | null; result: string | null }): AlertEvent {
    const total = next.total ?? 5;
    const parts: string[] = [];
    if (worse(next.passing, before.passing)) {
      parts.push(`${next.passing} of ${total} protocols pass, down from ${before.passing}`);
    }
    if (worse(resultRank(next.result), resultRank(before.result))) {
      parts.push(`the result went from ${before.result} to ${next.result}`);
    }
    return {
      type: 'raise',
      rule: 'health_regressed',
      severity: 'warning',
      dedupeKey: key,
      domain: domain!,
      title: `Health of ${domain!.fqdn} got worse`,
      // The scan's time is in the details (scannedAt), shown in the one time format; the text keeps none.
      body: `In the latest scan of ${domain!.fqdn}, ${parts.join(' and ') || 'health got worse'}.`,
      details: {
        passingBefore: before.passing,
        resultBefore: before.result,
        passingNow: next.passing,
        resultNow: next.result,
        scannedAt: next.at,
      },
    };
  }
};

export default alertRule({
  alerts: {
    health_regressed: {
      label: 'Health regressed',
      description:
        'Fewer protocols pass, or the health result got worse, between two scans; ends when it is back.',
      severity: 'warning',
      details: z.strictObject({
        passingBefore: z.number().nullable(),
        resultBefore: z.string().nullable(),
        passingNow: z.number().nullable(),
        resultNow: z.string().nullable(),
        scannedAt: z.string(),
      }),
      words: 'Health got worse',
    },
  },
  run: healthRegressed,
  on: {
    health: ({ before, after }, ctx, run) =>
      after.scan ? run(before.scan?.health ?? null, after.scan.health, ctx) : [],
    health_history: ({ before, after }, ctx, run) =>
      after.scan ? run(before.scan?.health ?? null, after.scan.health, ctx) : [],
  },
});
