/**
 * How rules that read the same thing get their readings from a signal's writes, written once for the rules
 * that share them (a rule file picks one instead of restating the handlers).
 */
import type { ProtocolReading } from './protocolReading.ts';
import type { RuleDefinition, SignalWrite } from './ruleDefinition.ts';
import type { RuleIo } from '../signals/definition.ts';
import type { AlertEvent, AlertRuleFn, RuleContext } from './types.ts';

type ProtocolRuleFn = AlertRuleFn<ProtocolReading | null, ProtocolReading>;

/**
 * Every write that tells whether a protocol is connected: a health scan (live or from its history) and a DNS
 * change (from the feed or the timeline). The disconnect and restore rules read the same four.
 */
export const protocolWrites: NonNullable<RuleDefinition<ProtocolRuleFn>['on']> = {
  health: ({ before, after }, ctx, run) =>
    after.scan ? run(before.scan?.protocols ?? null, after.scan.protocols, ctx) : [],
  health_history: ({ before, after }, ctx, run) =>
    after.scan ? run(before.scan?.protocols ?? null, after.scan.protocols, ctx) : [],
  dns_changes: ({ before, after }, ctx, run) => (after ? run(before, after, ctx) : []),
  dns_timeline: ({ before, after }, ctx, run) => (after ? run(before, after, ctx) : []),
};

/** The user's latest DMARC edit made in this app (null: none kept); the write's `io` reads it. */
export type AppEdit = ReturnType<RuleIo['appEdit']>;

/**
 * True when a record scanned at `at` shows the user's latest edit in this app, made before that scan: each
 * tag the edit wrote (of `tags`, when given) has the value the edit gave it in `shown`. A rule stays quiet
 * about such a change — the user made it themselves, knowing.
 */
export function recordShowsEdit(
  edit: AppEdit | undefined,
  at: string,
  shown: ReadonlyMap<string, string>,
  tags?: readonly string[],
): boolean {
  if (!edit || !(Date.parse(edit.changedAt) <= Date.parse(at))) return false;
  const set = Object.keys(edit.tags).filter((tag) => !tags || tags.includes(tag));
  return set.length > 0 && set.every((tag) => shown.get(tag) === edit.tags[tag]);
}

/**
 * A health write's live DMARC record, before and after, read by `read` — for rules on what the record asks
 * that must stay quiet about a change the user made themselves: their latest edit in this app is looked up
 * only when the record changed (most writes: it did not).
 */
export function onLiveDmarcRecord<R>(
  read: (record: string | null, at: string, edit?: AppEdit) => R,
): (write: SignalWrite<'health'>, ctx: RuleContext, run: AlertRuleFn<R | null, R>) => AlertEvent[] {
  return ({ before, after, io }, ctx, run) => {
    if (!after.scan) return [];
    const { dmarcRecord, health } = after.scan;
    const edit = before.scan?.dmarcRecord !== dmarcRecord ? io.appEdit('dmarc') : null;
    return run(
      before.scan ? read(before.scan.dmarcRecord, before.scan.health.at) : null,
      read(dmarcRecord, health.at, edit),
      ctx,
    );
  };
}
