/**
 * The silence form (Silences screen, a domain's "Planned change…"): what the user typed, checked before it
 * is sent, and the silence the bridge takes; the matchers in words; where a silence came from.
 */
import type { z } from 'zod';
import type { saveSilenceArgs, SilenceView } from '../../../shared/bridge/silences.ts';
import { PROTOCOL_LABELS, type Protocol } from '../../../shared/email-auth/protocols.ts';

type Severity = 'critical' | 'warning' | 'info';

/** The form as typed. */
export interface SilenceDraft {
  /** Editing this silence; null: a new one. */
  id: number | null;
  /** '' for every account. */
  accountId: string;
  group: string;
  domain: string;
  protocol: string;
  rule: string;
  /** Any of these rules: kept as it is when an edit's own silence is edited (the form shows them in words). */
  rules: string[];
  severities: Severity[];
  reason: string;
  /** 'for' a duration from now, or 'until' a local date and time. */
  endMode: 'for' | 'until';
  forAmount: string;
  forUnit: 'minutes' | 'hours' | 'days';
  /** A datetime-local value ("2026-12-01T08:00"), read in this computer's zone. */
  until: string;
}

export type SilenceField = 'matchers' | 'reason' | 'forAmount' | 'until' | 'form';
export type SilenceErrors = Partial<Record<SilenceField, string>>;

/** What saveSilence takes. */
export interface SilenceSave {
  id?: number;
  matchers: z.input<typeof saveSilenceArgs>['matchers'];
  reason: string;
  endsAt: string;
}

const UNIT_MS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;
/** The core's cap (main/core/alerts/silences.ts): a forgotten silence must not hide a domain for good. */
const MAX_MS = 90 * 86_400_000;

const pad = (n: number) => String(n).padStart(2, '0');

/** A time as a datetime-local value in this computer's zone. */
export function localInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A new silence's form: for 2 hours, prefilled with what is known (an account, a domain). */
export function newDraft(
  prefill: { accountId?: number; domain?: string } = {},
  now = Date.now(),
): SilenceDraft {
  return {
    id: null,
    accountId: prefill.accountId === undefined ? '' : String(prefill.accountId),
    group: '',
    domain: prefill.domain ?? '',
    protocol: '',
    rule: '',
    rules: [],
    severities: [],
    reason: '',
    endMode: 'for',
    forAmount: '2',
    forUnit: 'hours',
    until: localInput(now + 2 * 3_600_000),
  };
}

/** An existing silence's form: its matchers and reason, ending when it ends. */
export function draftOf(s: SilenceView): SilenceDraft {
  const m = s.matchers;
  return {
    id: s.id,
    accountId: m.accountId === undefined ? '' : String(m.accountId),
    group: m.group ?? '',
    domain: m.domain ?? '',
    protocol: m.protocol ?? '',
    rule: m.rule ?? '',
    rules: m.rules ?? [],
    severities: m.severities ?? [],
    reason: s.reason,
    endMode: 'until',
    forAmount: '2',
    forUnit: 'hours',
    until: localInput(Date.parse(s.endsAt)),
  };
}

/** Checks the form as the bridge will and builds the silence; errors by field otherwise. */
export function checkDraft(
  d: SilenceDraft,
  now = Date.now(),
): { save: SilenceSave | null; errors: SilenceErrors } {
  const errors: SilenceErrors = {};
  const matchers: SilenceSave['matchers'] = {
    ...(d.accountId ? { accountId: Number(d.accountId) } : {}),
    ...(d.group.trim() ? { group: d.group.trim() } : {}),
    ...(d.domain.trim() ? { domain: d.domain.trim().toLowerCase() } : {}),
    ...(d.protocol ? { protocol: d.protocol } : {}),
    ...(d.rule ? { rule: d.rule } : {}),
    ...(d.rules.length > 0 ? { rules: d.rules } : {}),
    ...(d.severities.length > 0 && d.severities.length < 3 ? { severities: d.severities } : {}),
  };
  if (Object.keys(matchers).length === 0)
    errors.matchers =
      'Say which alerts: at least an account, a group, a domain, a protocol, a rule or a severity.';
  const reason = d.reason.trim();
  if (!reason)
    errors.reason = 'Say what is being changed and why: the people it holds alerts from will read it.';
  else if (reason.length > 500) errors.reason = 'At most 500 characters.';
  let end: number | null = null;
  if (d.endMode === 'for') {
    const amount = Number(d.forAmount.trim().replace(',', '.'));
    if (!d.forAmount.trim() || !Number.isFinite(amount) || amount <= 0)
      errors.forAmount = 'A number greater than 0, e.g. 2.';
    else end = now + amount * UNIT_MS[d.forUnit];
  } else {
    const at = Date.parse(d.until);
    if (!d.until || Number.isNaN(at)) errors.until = 'A date and time.';
    else if (at <= now) errors.until = 'A time in the future (to end it now, use “Expire now”).';
    else end = at;
  }
  if (end !== null && end - now > MAX_MS) {
    errors[d.endMode === 'for' ? 'forAmount' : 'until'] = 'A silence lasts at most 90 days.';
    end = null;
  }
  if (Object.keys(errors).length > 0 || end === null) return { save: null, errors };
  return {
    save: {
      ...(d.id === null ? {} : { id: d.id }),
      matchers,
      reason,
      endsAt: new Date(end).toISOString(),
    },
    errors,
  };
}

/** "Alerts of SPF on acme.example" — what a form's matchers will hold, in words, as it is typed. */
export function draftWords(
  d: SilenceDraft,
  accountLabel: (id: number) => string,
  ruleLabel: (rule: string) => string,
): string {
  const parts: string[] = [];
  if (d.rule) parts.push(`“${ruleLabel(d.rule)}” alerts`);
  else if (d.rules.length > 0) parts.push(`${d.rules.map((r) => `“${ruleLabel(r)}”`).join(', ')} alerts`);
  else parts.push('Alerts');
  if (d.protocol) parts.push(`of ${PROTOCOL_LABELS[d.protocol as Protocol] ?? d.protocol}`);
  if (d.severities.length > 0 && d.severities.length < 3) parts.push(`(${d.severities.join(' or ')})`);
  if (d.domain.trim()) parts.push(`on ${d.domain.trim().toLowerCase()}`);
  if (d.group.trim()) parts.push(`in group ${d.group.trim()}`);
  if (d.accountId) parts.push(`of account ${accountLabel(Number(d.accountId))}`);
  return parts.length === 1 ? 'No alerts yet: choose at least one matcher.' : parts.join(' ');
}

/** A silence's matchers in words, with the rules' and accounts' names ("“Health regressed” alerts on …"). */
export function silenceWords(
  s: SilenceView,
  accountLabel: (id: number) => string,
  ruleLabel: (rule: string) => string,
): string {
  return draftWords(draftOf(s), accountLabel, ruleLabel);
}

/**
 * For a silence an edit in the app opened: the protocol the edit changed, what it set, and the edit's time of
 * day ("Opened by your edit of DMARC at 14:02"); null for one a person made.
 */
export function originOf(
  s: Pick<SilenceView, 'origin' | 'startsAt'>,
): { label: string; summary: string; at: string } | null {
  if (!s.origin) return null;
  return {
    label: PROTOCOL_LABELS[s.origin.protocol as Protocol] ?? s.origin.protocol,
    summary: s.origin.summary,
    at: new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(
      Date.parse(s.startsAt),
    ),
  };
}

/** The silences by where they stand: active (holding now), upcoming, and over (newest first). */
export function byState(list: readonly SilenceView[]): Record<SilenceView['state'], SilenceView[]> {
  const sorted = (state: SilenceView['state'], order: 1 | -1) =>
    list
      .filter((s) => s.state === state)
      .sort((a, b) => order * (Date.parse(a.endsAt) - Date.parse(b.endsAt)) || a.id - b.id);
  return { active: sorted('active', 1), pending: sorted('pending', 1), expired: sorted('expired', -1) };
}
