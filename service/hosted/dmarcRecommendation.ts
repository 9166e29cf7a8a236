/**
 * The DMARC enforcement recommendation (POST /domains/{id}/dmarc/recommendation): from the domain's
 * aggregate-report alignment over the monitoring window, whether it is safe to move one step up
 * none → quarantine → reject.
 *
 * Thresholds (the spec leaves them open; these are the usual rollout guidance of DMARC providers):
 *   none → quarantine when ≥ 95 % of messages pass DMARC over ≥ 14 days with data;
 *   quarantine → reject when ≥ 98 % pass over ≥ 30 days with data;
 *   otherwise stay. One step at a time: p=none never jumps straight to reject.
 */
import type { DmarcPolicy } from '../../shared/email-auth/dmarcRecord.ts';

/** Messages and DMARC passes seen on one day (UTC) in the domain's aggregate reports. */
export interface DailyAlignment {
  date: string;
  messages: number;
  dmarcPass: number;
}

/** Aggregate-report numbers of a window. */
export interface AlignmentWindow {
  days: DailyAlignment[];
  /** Distinct sending sources (IPs) with DMARC-failing messages in the window. */
  failingSources: number;
}

/** A step of the ladder with what it needs. */
export interface EnforcementStep {
  from: DmarcPolicy;
  to: DmarcPolicy;
  minPassRate: number;
  minDays: number;
}

export const ENFORCEMENT_STEPS: readonly EnforcementStep[] = [
  { from: 'none', to: 'quarantine', minPassRate: 95, minDays: 14 },
  { from: 'quarantine', to: 'reject', minPassRate: 98, minDays: 30 },
];

/** The DmarcRecommendation API object (without domain_id). */
export interface Recommendation {
  current_policy: DmarcPolicy;
  recommended_policy: DmarcPolicy;
  recommended_pct: number;
  ready: boolean;
  reasons: string[];
  stats: {
    monitoring_days: number;
    total_messages: number;
    dmarc_pass_rate: number;
    failing_sources: number;
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Computes the recommendation for a domain whose effective policy is `current` (pct = `currentPct`). */
export function recommendEnforcement(
  current: DmarcPolicy,
  currentPct: number,
  window: AlignmentWindow,
  requestedDays: number,
): Recommendation {
  const withData = window.days.filter((d) => d.messages > 0);
  const total = withData.reduce((s, d) => s + d.messages, 0);
  const pass = withData.reduce((s, d) => s + d.dmarcPass, 0);
  const rate = total === 0 ? 0 : round1((pass / total) * 100);
  const stats = {
    monitoring_days: withData.length,
    total_messages: total,
    dmarc_pass_rate: rate,
    failing_sources: window.failingSources,
  };
  const stay = (reasons: string[]): Recommendation => ({
    current_policy: current,
    recommended_policy: current,
    recommended_pct: currentPct,
    ready: false,
    reasons,
    stats,
  });
  const summary = `${rate}% of ${total} messages passed DMARC over ${withData.length} day${withData.length === 1 ? '' : 's'} with report data`;

  // A partial rollout (pct < 100) is finished before the next step.
  if (current !== 'none' && currentPct < 100) {
    const step = ENFORCEMENT_STEPS.find((s) => s.to === current)!;
    if (total > 0 && rate >= step.minPassRate) {
      return {
        current_policy: current,
        recommended_policy: current,
        recommended_pct: 100,
        ready: true,
        reasons: [`${summary}; apply p=${current} to all mail (pct=100) before the next step.`],
        stats,
      };
    }
  }
  const step = ENFORCEMENT_STEPS.find((s) => s.from === current);
  if (!step) return stay([`p=reject is already the strongest policy. ${summary}.`]);
  if (total === 0) {
    return stay([
      `No DMARC aggregate reports in the last ${requestedDays} days; keep p=${current} until reports arrive.`,
    ]);
  }
  const reasons: string[] = [];
  if (withData.length < step.minDays) {
    reasons.push(
      `Only ${withData.length} day${withData.length === 1 ? '' : 's'} of report data; p=${step.to} needs at least ${step.minDays}.`,
    );
  }
  if (rate < step.minPassRate) {
    reasons.push(
      `${rate}% of messages pass DMARC; p=${step.to} needs at least ${step.minPassRate}%` +
        (window.failingSources > 0
          ? ` (fix the ${window.failingSources} failing source${window.failingSources === 1 ? '' : 's'} first).`
          : '.'),
    );
  }
  if (step.minDays > requestedDays) {
    reasons.push(`Ask for a monitoring window of at least ${step.minDays} days to judge p=${step.to}.`);
  }
  if (reasons.length > 0) return stay([...reasons, `${summary}.`]);
  return {
    current_policy: current,
    recommended_policy: step.to,
    recommended_pct: 100,
    ready: true,
    reasons: [
      `${summary} (threshold ${step.minPassRate}% over ${step.minDays} days): move from p=${current} to p=${step.to}.`,
    ],
    stats,
  };
}
