import type {
  DomainStatusView,
  EvidenceRef,
  ProtocolState,
  ProtocolView,
  VerdictLevel,
} from '../../../shared/bridge/results.ts';
import { ago, exact } from './format.ts';

/**
 * How the one status (computed in main: main/core/status) is drawn: tones, icons and hover texts only —
 * every word about what is wrong comes from the status itself, never chosen here.
 */
export type PostureTone = 'good' | 'warn' | 'bad' | 'neutral';

/** The verdict's tone: a problem is red, a warning amber, not checked grey. */
export const VERDICT_TONE: Record<VerdictLevel, PostureTone> = {
  problem: 'bad',
  warning: 'warn',
  unknown: 'neutral',
  good: 'good',
};

/** A protocol state's icon, tone and screen-reader word (never colour alone). */
export const STATE_LOOK: Record<ProtocolState, { icon: string; tone: PostureTone; word: string }> = {
  passing: { icon: '✓', tone: 'good', word: 'passing' },
  failing: { icon: '✕', tone: 'bad', word: 'failing' },
  not_set_up: { icon: '○', tone: 'neutral', word: 'not set up' },
  unknown: { icon: '?', tone: 'neutral', word: 'not checked yet' },
};

/** "service scan, Nov 26, 2026, 7:02 AM UTC (3 minutes ago)". */
export function evidenceText(e: EvidenceRef | null, now = Date.now()): string {
  return e ? `${e.label}, ${exact(e.at)} (${ago(e.at, now)})` : 'no evidence yet';
}

/** "Changed 2 minutes ago — waiting for the next check" / "… — the service scan after the change still shows p=none". */
export function pendingText(p: NonNullable<ProtocolView['pending']>, now = Date.now()): string {
  return `Changed ${ago(p.changedAt, now)} to ${p.summary} — ${p.words}`;
}

/** A protocol's hover text: what is true, whether it is optional, where the fact came from and when. */
export function protocolTitle(p: ProtocolView, now = Date.now()): string {
  const kind = p.required ? 'required' : 'optional';
  const lines = [`${p.label} (${kind}): ${p.words}`, `From ${evidenceText(p.evidence, now)}`];
  if (p.record) lines.push(p.record);
  if (p.pending) lines.push(pendingText(p.pending, now));
  return lines.join('\n');
}

/** The verdict's hover text: every reason, worst first, and how old the newest evidence is. */
export function verdictTitle(s: DomainStatusView, now = Date.now()): string {
  const reasons = s.verdict.reasons.length > 1 ? s.verdict.reasons.join('\n') + '\n' : '';
  return `${reasons}${s.protocolsText}\nNewest evidence: ${evidenceText(s.newest, now)}`;
}
