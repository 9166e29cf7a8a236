import { describe, expect, it } from 'vitest';
import { rulesReading } from '../../../../main/core/alerts/ruleSet.ts';
import type { MirrorDomain, SyncState } from '../../../../main/core/mirror/types.ts';
import {
  notFoundMeaning,
  SIGNAL_NAMES,
  SIGNALS,
  type SignalName,
} from '../../../../main/core/signals/catalog.ts';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  SIGNAL_DEFINITIONS,
  registeredSignal,
  signalFileName,
} from '../../../../main/core/signals/registry.ts';
import { declareSignal } from '../../../../main/core/signals/signalDeclaration.ts';
import {
  buildJobs,
  CORE_SIGNALS,
  HISTORY_SIGNALS,
  keptPeriodMs,
  ON_DEMAND_SIGNALS,
} from '../../../../main/core/sync/syncJobs.ts';
import { signalName } from '../../../../shared/bridge/results.ts';
import { decodeSignal } from '../../../../main/core/signals/decode.ts';
import { answersFile, recordedCases } from '../../../support/recordedAnswers.ts';
import { RULE_DEFINITIONS } from '../../../../main/core/livechecks/ruleRegistry.ts';

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

const DEFS_DIR = join(import.meta.dirname, '../../../../main/core/signals/defs');
const signalFiles = readdirSync(DEFS_DIR).filter((f) => f.endsWith('.ts'));

describe('the signal registry', () => {
  // The registry is the folder (main/core/signals/signalFiles.ts): a signal file is registered by existing,
  // and one that does not declare itself is refused with its file named — never a signal silently unpolled.
  it('holds exactly the files of signals/defs, each under the name its file is named for, each with its own test', () => {
    expect(SIGNAL_NAMES.map(signalFileName).sort()).toEqual([...signalFiles].sort());
    for (const file of signalFiles) {
      const test = join(import.meta.dirname, 'defs', file.replace(/\.ts$/, '.test.ts'));
      expect(existsSync(test), `signal file ${file} has no test of its own (defs/${file} → ${test})`).toBe(
        true,
      );
    }
  });

  it('refuses a signal file that does not declare its signal, or declares it wrongly, naming the file', () => {
    const health = SIGNAL_DEFINITIONS.health;
    expect(() => registeredSignal({ file: 'forgotten.ts', exports: { forgotten: health } })).toThrow(
      "signal file main/core/signals/defs/forgotten.ts does not declare its signal (`export default declareSignal('<name>', definition)`): it would never be polled",
    );
    // A plain object shaped like a declaration is not one: only declareSignal() (type-checked) makes them.
    expect(() =>
      registeredSignal({ file: 'health.ts', exports: { default: { name: 'health', definition: health } } }),
    ).toThrow('does not declare its signal');
    expect(() =>
      registeredSignal({ file: 'vitals.ts', exports: { default: declareSignal('health', health) } }),
    ).toThrow(
      'signal file main/core/signals/defs/vitals.ts declares signal health: its file must be health.ts',
    );
    const { store: _store, ...storeless } = health;
    expect(() =>
      registeredSignal({
        file: 'health.ts',
        exports: { default: declareSignal('health', storeless as typeof health) },
      }),
    ).toThrow(
      'signal file main/core/signals/defs/health.ts (health) is per domain but stores nothing (`store`)',
    );
    expect(
      registeredSignal({ file: 'health.ts', exports: { default: declareSignal('health', health) } }),
    ).toEqual(['health', health]);
  });

  it('refuses a signal that does not say what a 404 means, naming the cause where the signal is written', () => {
    const health = SIGNAL_DEFINITIONS.health;
    const { notFound: _forgotten, ...fetch } = health.fetch;
    expect(() =>
      registeredSignal({
        file: 'health.ts',
        exports: { default: declareSignal('health', { ...health, fetch } as typeof health) },
      }),
    ).toThrow(
      "signal file main/core/signals/defs/health.ts (health) does not say what a 404 from its calls means: declare `fetch.notFound`, 'absent' (the domain has not set it up: the answer is null) or 'domain_gone' (the service no longer knows the domain: the domain list is fetched again)",
    );
    // Absent is a null answer: a signal of one call must have a schema that takes it.
    expect(() =>
      registeredSignal({
        file: 'health.ts',
        exports: {
          default: declareSignal('health', { ...health, fetch: { ...fetch, notFound: 'absent' } }),
        },
      }),
    ).toThrow(
      "(health) declares a 404 absent (`fetch.notFound: 'absent'`) but its schema refuses the null that stands for it",
    );
    for (const name of SIGNAL_NAMES) {
      expect(['absent', 'domain_gone'], name).toContain(notFoundMeaning(name));
    }
  });

  // The service's answers are recorded, not written by hand (scripts/recordAnswer.ts); the fake services of
  // the sync tests answer a signal they do not model with its first case (test/support/recordedAnswers.ts).
  it.each(SIGNAL_NAMES)('%s has the reference service’s answer recorded, and it decodes', (name) => {
    const cases = recordedCases(name);
    expect(
      cases,
      `signal ${name} has no recorded answer (${answersFile(name)}): record one with \`npm run record:answer -- ${name}\``,
    ).not.toBeNull();
    expect(Object.keys(cases ?? {}).length, `${answersFile(name)} holds no case`).toBeGreaterThan(0);
    for (const [key, data] of Object.entries(cases ?? {})) {
      const decoded = decodeSignal(name, data);
      expect(decoded.ok ? null : decoded.error.message, `${answersFile(name)}, case ${key}`).toBeNull();
    }
  });

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
      for (const rule of rulesReading(name, RULE_DEFINITIONS)) {
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
