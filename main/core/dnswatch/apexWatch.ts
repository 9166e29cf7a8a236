/**
 * Each watched domain's own name, confirmed like a record (confirmation.ts: three agreeing answers, spaced) —
 * the evidence of the domain_stopped_resolving rule. Fed only while the resolver is trusted (resolverTrust.ts),
 * from the SPF check, which asks the apex afresh. A domain with a record that worked starts as resolving, so
 * its NXDOMAIN is news (also right after a restart); one that never resolved is a baseline. The mirror is told
 * when the confirmed state changes, and once per run when the first answer agrees with it (so an episode open
 * from before a restart can end).
 */
import type { ApexReading } from '../alerts/rules/domainStoppedResolving.ts';
import {
  INITIAL_CONFIRM_STATE,
  observe,
  type ConfirmRules,
  type ConfirmState,
  type Evidence,
} from './confirmation.ts';
import type { ApexState } from './resolverTrust.ts';

/** What one answer changes: the readings to tell the mirror (if any), and whether to ask again soon. */
export interface ApexStep {
  tell: { before: ApexReading; after: ApexReading } | undefined;
  recheck: boolean;
}

export class ApexWatch {
  /** Per domain: its confirmation, and what the mirror was last told (null: nothing; a baseline). */
  private readonly apexes = new Map<
    string,
    { confirm: ConfirmState; told: Evidence | null; toldThisRun: boolean }
  >();

  constructor(private readonly rules: ConfirmRules) {}

  /** Forgets domains no longer watched. */
  keepOnly(fqdns: ReadonlySet<string>): void {
    for (const fqdn of this.apexes.keys()) if (!fqdns.has(fqdn)) this.apexes.delete(fqdn);
  }

  /**
   * Folds a fresh answer for `fqdn`'s apex (at epoch ms `at`, from `resolver`). A confirmed NXDOMAIN is told
   * only once `othersResolvedSince(its run's start)`: other domains resolving meanwhile show the resolver
   * still answers — a resolver turning liar reaches each domain only as its records come due.
   */
  step(
    fqdn: string,
    apex: ApexState,
    at: number,
    resolver: string,
    resolvedBefore: boolean,
    othersResolvedSince: (since: number) => boolean,
  ): ApexStep {
    const told = resolvedBefore ? ('connected' as const) : null;
    const entry = this.apexes.get(fqdn) ?? {
      confirm: told
        ? { ...INITIAL_CONFIRM_STATE, confirmed: told, confirmedSince: at }
        : INITIAL_CONFIRM_STATE,
      told,
      toldThisRun: false,
    };
    this.apexes.set(fqdn, entry);
    const evidence: Evidence = apex === 'resolves' ? 'connected' : 'disconnected';
    const step = observe(entry.confirm, evidence, at, this.rules);
    entry.confirm = step.state;
    const confirmed = step.state.confirmed!;
    const since = step.state.confirmedSince ?? at;
    const news = confirmed !== entry.told || (!entry.toldThisRun && confirmed === evidence);
    const held = confirmed === 'disconnected' && entry.told === 'connected' && !othersResolvedSince(since);
    if (!news || held) return { tell: undefined, recheck: step.recheck || held };
    const before = entry.told;
    entry.told = confirmed;
    entry.toldThisRun = true;
    const reading = (state: Evidence): ApexReading => ({
      resolves: state === 'connected',
      resolver,
      since: new Date(since).toISOString(),
    });
    // The first word on a domain never seen resolving is a baseline: nothing to tell.
    if (before === null) return { tell: undefined, recheck: step.recheck };
    return { tell: { before: reading(before), after: reading(confirmed) }, recheck: step.recheck };
  }
}
