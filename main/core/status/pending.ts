import type { Protocol } from '../signals/primitives.ts';
import { splitTagList } from '../../../shared/email-auth/tagList.ts';
import type { ProtocolView } from '../../../shared/bridge/results.ts';
import { byObservation, evidenceRef, type ProtocolEvidence } from './evidence.ts';
import type { Expectation } from '../mirror/types.ts';

// What an edit expects is stored with the edit by the mirror, which declares its shape; status judges it.
export type { Expectation };

/** A successful write whose effect the evidence has not shown yet. */
export interface PendingChange {
  protocol: Protocol;
  /** What the edit set, in words: "p=reject", "record removed". */
  summary: string;
  /** When the write succeeded (ISO). */
  changedAt: string;
  /**
   * The newest evidence time of the protocol when the write succeeded (ISO, the service's clock) or null:
   * only evidence observed after it can confirm or contradict the change.
   */
  baselineAt: string | null;
  expect: Expectation;
}

/** A pending change as the protocol shows it (a confirmed change is no longer pending and shows nothing). */
export type PendingView = NonNullable<ProtocolView['pending']>;

type Outcome = 'confirms' | 'contradicts' | 'silent';

function tagsOf(record: string): Map<string, string> {
  return new Map(splitTagList(record).tags.map((t) => [t.name.toLowerCase(), t.value.trim().toLowerCase()]));
}

function judge(expect: Expectation, e: ProtocolEvidence): Outcome {
  const outcome = judgeRecord(expect, e);
  // Resolvers may serve the old record until its TTL runs out: DNS showing the change confirms it, DNS still
  // showing the old record says nothing yet (the service's next scan settles it).
  return e.source === 'dns_watch' && outcome === 'contradicts' ? 'silent' : outcome;
}

function judgeRecord(expect: Expectation, e: ProtocolEvidence): Outcome {
  const present =
    e.finding === 'absent' ? false : e.finding === 'not_passing' ? null : (true as boolean | null);
  switch (expect.kind) {
    case 'checked':
      return e.source === 'service_scan' ? 'confirms' : 'silent';
    case 'absent':
      return present === false ? 'confirms' : present === true ? 'contradicts' : 'silent';
    case 'present': {
      if (present === false || e.record === null) return 'contradicts';
      if (!expect.tags) return present === true ? 'confirms' : 'silent';
      if (e.record === undefined) return 'silent';
      const seen = tagsOf(e.record);
      return Object.entries(expect.tags).every(([k, v]) => seen.get(k) === v.toLowerCase())
        ? 'confirms'
        : 'contradicts';
    }
  }
}

/** What the record shows instead, in a few words (for "still shows …"). */
function shownInstead(expect: Expectation, e: ProtocolEvidence): string {
  if (expect.kind === 'absent') return 'the record';
  if (e.finding === 'absent' || e.record === null) return 'no record';
  if (expect.kind === 'present' && expect.tags && e.record) {
    const seen = tagsOf(e.record);
    const differing = Object.keys(expect.tags).map((k) => `${k}=${seen.get(k) ?? '(unset)'}`);
    return differing.join('; ');
  }
  return 'the old record';
}

/**
 * The newest evidence after the change's baseline decides: it confirms the change (no longer pending, null),
 * contradicts it (said plainly), or says nothing yet (waiting for the next check).
 */
export function pendingView(
  change: PendingChange,
  evidence: readonly ProtocolEvidence[],
): PendingView | null {
  const after = evidence
    .filter(
      (e) =>
        e.protocol === change.protocol &&
        // Observed after the write, on both clocks: the service's (the baseline) and ours (the change).
        (change.baselineAt === null || Date.parse(e.at) > Date.parse(change.baselineAt)) &&
        Date.parse(e.at) >= Date.parse(change.changedAt),
    )
    .sort(byObservation);
  for (let i = after.length - 1; i >= 0; i--) {
    const e = after[i]!;
    const outcome = judge(change.expect, e);
    if (outcome === 'confirms') return null;
    if (outcome === 'contradicts') {
      return {
        summary: change.summary,
        changedAt: change.changedAt,
        state: 'contradicted',
        words: `the ${evidenceRef(e).label} after the change still shows ${shownInstead(change.expect, e)}`,
        evidence: evidenceRef(e),
      };
    }
  }
  return {
    summary: change.summary,
    changedAt: change.changedAt,
    state: 'waiting',
    words: 'waiting for the next check',
    evidence: null,
  };
}
