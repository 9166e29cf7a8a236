/**
 * Each watched domain's own name, confirmed like a record (confirmation.ts: three agreeing answers, spaced) —
 * the evidence of the domain_stopped_resolving rule. Fed only while the resolver is trusted (resolverTrust.ts),
 * from the SPF check, which asks the apex afresh. A domain with a record that worked starts as resolving, so
 * its NXDOMAIN is news (also right after a restart); one that never resolved is a baseline. The mirror is told
 * when the confirmed state changes, and once per run when the first answer agrees with it (so an episode open
 * from before a restart can end).
 */
import type { ApexReading } from '../alerts/rules/domainStoppedResolving.ts';
import { INITIAL_CONFIRM_STATE, observe, type ConfirmRules, type ConfirmState } from './confirmation.ts';
import type { ApexState } from './resolverTrust.ts';

/** What one answer changes: the readings to tell the mirror (if any), and whether to ask again soon. */
export interface ApexStep {
  tell: { before: ApexReading; after: ApexReading } | undefined;
  recheck: boolean;
}

export class ApexWatch {
  private readonly apexes = new Map<string, { confirm: ConfirmState; told: boolean }>();

  constructor(private readonly rules: ConfirmRules) {}

  /** Forgets domains no longer watched. */
  keepOnly(fqdns: ReadonlySet<string>): void {
    for (const fqdn of this.apexes.keys()) if (!fqdns.has(fqdn)) this.apexes.delete(fqdn);
  }

  /** Folds a fresh answer for `fqdn`'s apex (at epoch ms `at`, from `resolver`). */
  step(fqdn: string, apex: ApexState, at: number, resolver: string, resolvedBefore: boolean): ApexStep {
    const entry = this.apexes.get(fqdn) ?? {
      confirm: resolvedBefore
        ? { ...INITIAL_CONFIRM_STATE, confirmed: 'connected' as const, confirmedSince: at }
        : INITIAL_CONFIRM_STATE,
      told: false,
    };
    this.apexes.set(fqdn, entry);
    const before = entry.confirm.confirmed;
    const evidence = apex === 'resolves' ? 'connected' : 'disconnected';
    const step = observe(entry.confirm, evidence, at, this.rules);
    entry.confirm = step.state;
    const tell = step.changed || (!entry.told && step.state.confirmed === evidence);
    if (!tell || before === null) return { tell: undefined, recheck: step.recheck };
    entry.told = true;
    const reading = (resolves: boolean): ApexReading => ({
      resolves,
      resolver,
      since: new Date(step.state.confirmedSince ?? at).toISOString(),
    });
    return {
      tell: { before: reading(before === 'connected'), after: reading(step.state.confirmed === 'connected') },
      recheck: step.recheck,
    };
  }
}
