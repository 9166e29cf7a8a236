import { z } from 'zod';
import { scoreDroppedKey } from '../keys.ts';
import type { AlertEvent, AlertRuleFn } from '../types.ts';
import { alertRule } from '../ruleDefinition.ts';

/** One security score reading. */
export interface ScoreReading {
  score: number;
  /** computed_at (or the fetch time when the answer had none). */
  at: string;
}

// Scores are decimals; a drop of exactly the step must count despite float noise (8.2 - 7.2 = 0.999…).
const EPSILON = 1e-9;

function fmt(score: number): string {
  return score.toFixed(1);
}

/**
 * score_dropped: between two readings the score fell by at least settings.scoreStep, or crossed below
 * settings.scoreFloor. One episode per domain: while it is open a further fall refreshes its text without
 * notifying again; it resolves when the score is back to at least where it was before the drop. The first
 * reading is a baseline.
 */
export const scoreDropped: AlertRuleFn<ScoreReading | null, ScoreReading> = (previous, next, ctx) => {
  const domain = ctx.domain;
  if (!previous || !domain || previous.at === next.at) return [];
  const key = scoreDroppedKey(ctx.accountId, domain.fqdn);
  const open = ctx.openAlerts.get(key);
  const floor = ctx.settings.scoreFloor;
  const belowFloor = floor !== null && next.score < floor;

  if (open) {
    const before = typeof open.details.scoreBefore === 'number' ? open.details.scoreBefore : previous.score;
    // Back where it was resolves, also under the floor: a domain that was already under it before the drop
    // would otherwise keep one episode forever, and its next drop would only refresh that old alert instead
    // of telling the user (a score that crossed the floor is above it again once back where it was).
    if (next.score >= before - EPSILON) return [{ type: 'resolve', dedupeKey: key }];
    if (next.score >= previous.score) return [];
    return [raise(before, next.score)];
  }
  const fellByStep = previous.score - next.score >= ctx.settings.scoreStep - EPSILON;
  const crossedFloor = belowFloor && floor !== null && previous.score >= floor;
  if (!fellByStep && !crossedFloor) return [];
  return [raise(previous.score, next.score)];

  function raise(before: number, now: number): AlertEvent {
    const under = floor !== null && now < floor;
    return {
      type: 'raise',
      rule: 'score_dropped',
      severity: under ? 'critical' : 'warning',
      dedupeKey: key,
      domain: domain!,
      title: `Security score of ${domain!.fqdn} dropped from ${fmt(before)} to ${fmt(now)}`,
      body:
        `The email security score of ${domain!.fqdn} is ${fmt(now)} out of 10, down from ${fmt(before)}` +
        (under && floor !== null ? `, below your floor of ${fmt(floor)}.` : '.'),
      details: { scoreBefore: before, scoreNow: now, floor },
    };
  }
};

export default alertRule({
  alerts: {
    score_dropped: {
      label: 'Score dropped',
      description:
        'The security score fell by your step or below your floor (critical below the floor); ends when it is back.',
      severity: 'warning',
      details: z.strictObject({
        scoreBefore: z.number(),
        scoreNow: z.number(),
        floor: z.number().nullable(),
      }),
      words: 'Security score dropped',
    },
  },
  run: scoreDropped,
  on: {
    // The score the health polls imply, derived reading against derived reading...
    health: ({ before, after }, ctx, run) => (after.score ? run(before.score, after.score, ctx) : []),
    // ...and the service's own score, read weekly, against its own previous answer.
    security_score: ({ before, after }, ctx, run) => (after ? run(before, after, ctx) : []),
  },
});
