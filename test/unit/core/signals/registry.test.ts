import { describe, expect, it } from 'vitest';
import { rulesReading } from '../../../../main/core/alerts/ruleSet.ts';
import type { MirrorDomain, SyncState } from '../../../../main/core/mirror/types.ts';
import { SIGNAL_NAMES, SIGNALS, type SignalName } from '../../../../main/core/signals/catalog.ts';
import { SIGNAL_DEFINITIONS } from '../../../../main/core/signals/registry.ts';
import {
  buildJobs,
  CORE_SIGNALS,
  HISTORY_SIGNALS,
  keptPeriodMs,
  ON_DEMAND_SIGNALS,
} from '../../../../main/core/sync/syncJobs.ts';
import { signalName } from '../../../../shared/bridge/results.ts';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const domain: MirrorDomain = {
  accountId: 1,
  domainId: 7,
  fqdn: 'acme.example',
  firstSeenAt: '2026-06-01T00:00:00Z',
  lastSeenAt: '2026-06-15T11:00:00Z',
  removedAt: null,
};

/** A state that marks the signal wanted for the domain (an opened panel), read an hour ago. */
function wanted(signal: SignalName): SyncState {
  const at = new Date(NOW - 3_600_000).toISOString();
  return {
    accountId: 1,
    domainId: signal === 'domains' ? null : 7,
    fqdn: signal === 'domains' ? null : 'acme.example',
    signal,
    lastSuccessAt: at,
    lastAttemptAt: at,
    lastError: null,
    consecutiveFailures: 0,
    nextDueAt: null,
    periodSeconds: 0,
  };
}

describe('the signal registry', () => {
  it('names every signal so the bridge carries it (the registry is the only list of names)', () => {
    for (const name of SIGNAL_NAMES) expect(signalName.safeParse(name).success).toBe(true);
    expect(signalName.safeParse('Not A Signal').success).toBe(false);
  });

  it.each(SIGNAL_NAMES)('%s has every part: fetch, decode, store, plan, words, rules', (name) => {
    const d = SIGNAL_DEFINITIONS[name];
    expect(d.fetch.path).toMatch(/^\//);
    expect(typeof d.schema.safeParse).toBe('function');
    expect(d.plan.periodSeconds).toBeGreaterThan(0);
    expect(['account', 'alert', 'context', 'history']).toContain(d.plan.tier);
    // Words for people: a sentence, never the internal name.
    expect(d.words.length).toBeGreaterThan(10);
    expect(d.words).not.toContain('_');
    if (d.per === 'domain') {
      expect(typeof d.store).toBe('function');
      for (const rule of rulesReading(name)) {
        expect(d.ruleState, `rule ${rule} reads ${name}, which has no rule state`).toBeTypeOf('function');
      }
    } else {
      expect(d.plan.role).toBe('account');
    }
  });

  it('the planner builds one job per signal of a domain whose panels were opened, as the registry plans it', () => {
    const jobs = buildJobs({ domains: [domain], states: SIGNAL_NAMES.map(wanted), now: NOW });
    expect(jobs.map((j) => j.signal).sort()).toEqual([...SIGNAL_NAMES].sort());
    for (const job of jobs) {
      const plan = SIGNAL_DEFINITIONS[job.signal].plan;
      expect(job.tier).toBe(plan.tier);
      expect(job.targetPeriodMs).toBe(plan.keptPeriodMs ?? plan.periodSeconds * 1000);
      expect(job.targetPeriodMs).toBe(keptPeriodMs(job.signal));
    }
  });

  it('the job lists are the registry’s roles: core and history for every domain, the rest when opened', () => {
    const role = (name: SignalName) => SIGNAL_DEFINITIONS[name].plan.role;
    expect(CORE_SIGNALS).toEqual(SIGNAL_NAMES.filter((n) => role(n) === 'core'));
    expect(HISTORY_SIGNALS).toEqual(SIGNAL_NAMES.filter((n) => role(n) === 'history'));
    expect(ON_DEMAND_SIGNALS).toEqual(SIGNAL_NAMES.filter((n) => role(n) === 'on_demand'));
    // A domain nobody opened gets the core and history jobs only.
    const unopened = buildJobs({ domains: [domain], states: [], now: NOW });
    expect(unopened.map((j) => j.signal)).toEqual(['domains', ...CORE_SIGNALS, ...HISTORY_SIGNALS]);
    for (const name of SIGNAL_NAMES)
      expect(SIGNALS[name].periodSeconds).toBe(SIGNAL_DEFINITIONS[name].plan.periodSeconds);
  });
});
