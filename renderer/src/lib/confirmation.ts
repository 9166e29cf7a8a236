import {
  isDmarcPolicy,
  parseDmarcRecord,
  policyStrength,
  type DmarcPolicy,
} from '../../../shared/email-auth/dmarcRecord.ts';
import type { EditOperationName } from '../../../shared/bridge/editOperationNames.ts';
import type { DmarcImpact } from './impact.ts';
import type { SpfChangeImpact } from './spfImpact.ts';
import { isDestructive } from './editForm.ts';
import { fieldsOf } from './shape.ts';

/**
 * Which changes ask "are you sure?" before they are sent, and in what words: a change that can block mail
 * (DMARC enforcement raised, an SPF change that makes reported senders stop passing) or that deletes
 * something (a domain, a hosted record, a group, a user, a token). The dialog states the impact in numbers
 * from the impact previews and names its button for the action; deleting a domain or a hosted record asks
 * for the domain's name to be typed.
 */
export interface Confirmation {
  /** The dialog's heading: "Publish p=reject on acme.example?" */
  title: string;
  /** The confirm button, named for the action: "Publish p=reject". */
  action: string;
  /** What it does, in numbers where the previews give them. */
  impact: string[];
  /** The text to type before the button is enabled (the domain's name), or null. */
  typeToConfirm: string | null;
}

export interface ConfirmationContext {
  /** What the change acts on in words: the domain, or the account. */
  target: string;
  /** The domain's name on a domain page (null for account-wide changes). */
  domain: string | null;
  /** The DMARC record in force (null: none published). */
  currentDmarc: string | null;
  /** What the chosen ids name (the include, token, member, group). */
  chosen: readonly string[];
  /** The summary of the operation ("Remove the hosted DMARC record"). */
  summary: string;
  dmarcImpact?: DmarcImpact | null;
  spfImpact?: SpfChangeImpact | null;
}

const DMARC_EDITS = new Set<EditOperationName>([
  'updateDmarcPolicy',
  'updateHostedDmarc',
  'createHostedDmarc',
]);
const SPF_EDITS = new Set<EditOperationName>([
  'updateHostedSpf',
  'deleteSpfInclude',
  'addSpfIpAction',
  'deleteSpfIpAction',
  'addSpfInclude',
]);
/** Deletions that take a domain's mail protection down with them: the domain's name must be typed. */
const TYPE_THE_NAME = new Set<EditOperationName>([
  'deleteDomain',
  'deleteHostedDmarc',
  'deleteHostedSpf',
  'deleteBimi',
  'resetMtaSts',
]);

const fmt = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

interface Enforcement {
  p: DmarcPolicy;
  sp: DmarcPolicy;
  pct: number;
}

function enforcementOf(record: string | null): Enforcement {
  const parsed = record ? parseDmarcRecord(record).value : null;
  const p = parsed?.p ?? 'none';
  return { p, sp: parsed?.sp ?? p, pct: parsed?.pct ?? 100 };
}

function proposed(current: Enforcement, body: unknown): Enforcement {
  const b = fieldsOf(body);
  const asked = b.policy ?? b.p;
  const p = isDmarcPolicy(asked) ? asked : current.p;
  const sp = isDmarcPolicy(b.sp) ? b.sp : asked !== undefined ? p : current.sp;
  return { p, sp, pct: typeof b.pct === 'number' ? b.pct : current.pct };
}

/** What the DMARC change raises, in record words ("p=reject", "sp=quarantine", "pct=100"), or [] when nothing. */
function raisedTerms(from: Enforcement, to: Enforcement): string[] {
  const terms: string[] = [];
  if (policyStrength(to.p) > policyStrength(from.p)) terms.push(`p=${to.p}`);
  if (policyStrength(to.sp) > policyStrength(from.sp) && to.sp !== to.p) terms.push(`sp=${to.sp}`);
  if (to.p !== 'none' && to.pct > from.pct) terms.push(`pct=${to.pct}`);
  return terms;
}

function dmarcLines(impact: DmarcImpact | null | undefined): string[] {
  if (!impact?.raised)
    return ['The reported mail of the last 30 days could not be weighed: no impact preview.'];
  const verb = impact.disposition === 'reject' ? 'rejected' : 'quarantined';
  const senders = impact.sources.filter((s) => s.affected > 0).length;
  const lines = [
    `It would have ${verb} about ${plural(impact.affectedMessages, 'message')} from ${plural(senders, 'sender')} in the last 30 days.`,
  ];
  if (impact.legitimateMessages > 0)
    lines.push(
      `${plural(impact.legitimateMessages, 'message')} of those come from senders that look legitimate.`,
    );
  if (impact.threatMessages > 0)
    lines.push(`${plural(impact.threatMessages, 'message')} come from registered threats (what this stops).`);
  return lines;
}

function spfLines(impact: SpfChangeImpact): string[] {
  const lines = [
    `${plural(impact.worse.length, 'reported sender')} (${plural(impact.messages.worse, 'message')} in the last 30 days) would stop passing SPF or fail harder.`,
  ];
  if (impact.unsure.length > 0)
    lines.push(`${plural(impact.unsure.length, 'more sender')} may be affected; the reports cannot tell.`);
  return lines;
}

/** The confirmation a change needs, or null when it can be sent with one click. */
export function confirmationFor(
  name: EditOperationName,
  method: string,
  body: unknown,
  ctx: ConfirmationContext,
): Confirmation | null {
  if (DMARC_EDITS.has(name)) {
    const from = enforcementOf(ctx.currentDmarc);
    const terms = raisedTerms(from, proposed(from, body));
    if (terms.length === 0) return null;
    const action = `Publish ${terms.join('; ')}`;
    return {
      title: `${action} on ${ctx.target}?`,
      action,
      impact: [
        `Receivers will ${terms.some((t) => t.includes('reject')) ? 'reject' : 'quarantine'} mail from ${ctx.target} that fails DMARC (now p=${from.p}${from.pct < 100 ? `; pct=${from.pct}` : ''}).`,
        ...dmarcLines(ctx.dmarcImpact),
      ],
      typeToConfirm: null,
    };
  }
  if (SPF_EDITS.has(name) && ctx.spfImpact && ctx.spfImpact.worse.length > 0) {
    const what = ctx.chosen.length ? ` ${ctx.chosen.join(', ')}` : '';
    const action = method === 'DELETE' ? `Remove${what}` : ctx.summary;
    return {
      title: `${action} on ${ctx.target}?`,
      action,
      impact: spfLines(ctx.spfImpact),
      typeToConfirm: null,
    };
  }
  if (isDestructive(name, method, body)) {
    const what = ctx.chosen.length ? ` (${ctx.chosen.join(', ')})` : '';
    // The domain deleted from the account's list is the one chosen; on a domain's page, that domain.
    const typed = TYPE_THE_NAME.has(name)
      ? name === 'deleteDomain'
        ? (ctx.chosen[0] ?? ctx.domain ?? ctx.target)
        : (ctx.domain ?? ctx.target)
      : null;
    return {
      title: `${ctx.summary}${what} — ${ctx.target}?`,
      action: `${ctx.summary}${what}`,
      impact: [
        name === 'deleteDomain'
          ? `${ctx.target} stops being watched; its hosted records stop being served.`
          : `This changes ${ctx.target} on the live service at once.`,
        ...(ctx.spfImpact && ctx.spfImpact.worse.length > 0 ? spfLines(ctx.spfImpact) : []),
      ],
      typeToConfirm: typed,
    };
  }
  return null;
}
