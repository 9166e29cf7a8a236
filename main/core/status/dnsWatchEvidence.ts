import type { WatchedRow } from '../mirror/statusRows.ts';
import type { ProtocolEvidence } from './evidence.ts';

/** What the status reads of one record of the DNS watch (the mirror's row of its dns_watch table). */
export type WatchedRecord = WatchedRow;

/**
 * The DNS watch's answer as evidence, or null when it holds none. Only the confirmed state counts (one odd
 * answer from a resolver pool is not a fact, and the disconnect alert is raised on the same confirmation, so
 * the status and the alert change together), observed at the latest answer that agreed with it. An answer
 * the resolver could not give (SERVFAIL, a timeout: `unknown`) confirms nothing and moves no time, so it is
 * never evidence — let alone a failure: the previous confirmed answer keeps its age, and a newer scan wins.
 * The latest answer, when it agrees, tells which kind of "disconnected" it is (absent or invalid) and
 * carries the record's text.
 */
export function dnsWatchEvidence(r: WatchedRecord): ProtocolEvidence | null {
  if (r.state === null || r.stateCheckedAt === null) return null;
  const base = { protocol: r.protocol, source: 'dns_watch' as const, at: r.stateCheckedAt, via: r.resolver };
  if (r.state === 'connected') {
    return r.answer === 'present'
      ? { ...base, finding: 'valid', record: r.value }
      : { ...base, finding: 'valid' };
  }
  if (r.answer === 'absent') return { ...base, finding: 'absent', record: null };
  if (r.answer === 'invalid') return { ...base, finding: 'invalid', record: r.value };
  return { ...base, finding: 'not_passing' };
}
