/**
 * Typed raises, and the transition every rule on one polled reading repeats, written once.
 *
 * `alertsOf(alerts).in(ctx)` gives a rule `raise(kind, …)` and `resolve(kind)` typed by the alerts it declares:
 * a kind it does not declare, or details not shaped as that kind's `details` schema, do not compile — the
 * mirror's refusal at run time ("no rule declares the alert …") becomes a compiler error where the rule is
 * written.
 *
 * `domainCondition({...})` is the rule most extra signals carry: one condition per domain, one episode. It
 * holds the same-read guard (two readings taken at one time compare nothing), the dedupe key
 * (`<alert>:<account>:<fqdn>`, one open episode per domain), and resolve-or-raise (an ok reading ends an open
 * episode; a bad one opens it — after an ok reading, unless the rule opens on any bad reading), so a rule says
 * only what is ok, what is bad and how the alert reads.
 */
import type { z } from 'zod';
import type { AlertKind } from './ruleDefinition.ts';
import type { AlertDomain, AlertRuleFn, RaiseEvent, ResolveEvent, RuleContext, Severity } from './types.ts';

/** The alerts a rule raises, by the name they are stored under. */
export type AlertKinds = Readonly<Record<string, AlertKind>>;

/** What alert `K` of `A` carries: the type of its declared `details` schema. */
export type DetailsOf<A extends AlertKinds, K extends keyof A> = z.output<A[K]['details']>;

/** What one raise of alert `K` says. */
export interface RaiseOf<A extends AlertKinds, K extends keyof A> {
  title: string;
  body: string;
  details: DetailsOf<A, K>;
  /** Default: the kind's declared severity. */
  severity?: Severity;
  /** Default: one episode per domain (see episodeKey). */
  dedupeKey?: string;
  /** A notice is born resolved: news to deliver, not a condition to clear. */
  notice?: boolean;
}

/** `<alert>:<account>:<fqdn>` (or `…:account` for an account's alert): one open episode per domain. */
export function episodeKey(kind: string, ctx: Pick<RuleContext, 'accountId' | 'domain'>): string {
  return `${kind}:${ctx.accountId}:${ctx.domain?.fqdn ?? 'account'}`;
}

/** A rule's raise and resolve, typed by the alerts it declares (see the module's comment). */
export function alertsOf<const A extends AlertKinds>(alerts: A) {
  return {
    alerts,
    /** Raise and resolve within one rule run (the context gives the account and the domain). */
    in(ctx: Pick<RuleContext, 'accountId' | 'domain'>) {
      return {
        raise<K extends keyof A & string>(kind: K, event: RaiseOf<A, K>): RaiseEvent {
          return {
            type: 'raise',
            rule: kind,
            severity: event.severity ?? alerts[kind]!.severity,
            dedupeKey: event.dedupeKey ?? episodeKey(kind, ctx),
            domain: ctx.domain,
            title: event.title,
            body: event.body,
            details: event.details as Record<string, unknown>,
            ...(event.notice ? { notice: true } : {}),
          };
        },
        /** Ends the domain's episode of `kind` (or the one under `dedupeKey`). */
        resolve<K extends keyof A & string>(kind: K, dedupeKey?: string): ResolveEvent {
          return { type: 'resolve', dedupeKey: dedupeKey ?? episodeKey(kind, ctx) };
        },
      };
    },
  };
}

/** What a domainCondition() rule says of one reading: ok, bad, or nothing (no answer). */
export type Verdict = 'ok' | 'bad' | null;

/** See the module's comment. `R` is one reading (never null: a null reading is "not read yet"). */
export interface DomainCondition<A extends AlertKinds, K extends keyof A & string, R> {
  alerts: A;
  /** The alert the condition raises. */
  kind: K;
  /** When the reading was taken: two readings taken at one time are the same read. */
  readAt(reading: R): string;
  judge(reading: R): Verdict;
  /**
   * `change` (default): a bad reading opens the episode only after an ok one (the first read is a baseline,
   * and what was never ok says nothing); `bad`: any bad reading does (a limit, not a change).
   */
  opensOn?: 'change' | 'bad';
  /** How the alert reads, from the bad reading and the one before it. */
  raise(now: R, before: R | null, domain: AlertDomain): Omit<RaiseOf<A, K>, 'dedupeKey' | 'notice'>;
}

/** A one-condition-per-domain rule: its alerts and its decision function over readings before and after. */
export function domainCondition<const A extends AlertKinds, K extends keyof A & string, R>(
  spec: DomainCondition<A, K, R>,
): { alerts: A; run: AlertRuleFn<R | null, R | null> } {
  const typed = alertsOf(spec.alerts);
  const run: AlertRuleFn<R | null, R | null> = (before, now, ctx) => {
    const domain = ctx.domain;
    if (!domain || now === null || (before !== null && spec.readAt(before) === spec.readAt(now))) return [];
    const { raise, resolve } = typed.in(ctx);
    const open = ctx.openAlerts.has(episodeKey(spec.kind, ctx));
    const verdict = spec.judge(now);
    if (verdict === 'ok') return open ? [resolve(spec.kind)] : [];
    if (verdict === null || open) return [];
    const wasOk = before !== null && spec.judge(before) === 'ok';
    if ((spec.opensOn ?? 'change') === 'change' && !wasOk) return [];
    return [raise(spec.kind, spec.raise(now, before, domain))];
  };
  return { alerts: spec.alerts, run };
}
