/**
 * Every polled signal, by name: one file each under ./defs, and that folder is the registry (./signalFiles.ts
 * loads it; the bundles get static imports of it). A file declares its signal with `declareSignal(name, def)`
 * as its default export and adds its definition's type to `SignalRegistry` (./signalDeclaration.ts), so the
 * names and per-signal types derive from the files as the runtime list does. The planner's job lists, the
 * decoder, the mirror's writes and reads, the words for people and the rules a signal carries all derive from
 * here (./catalog.ts, alerts/ruleSet.ts).
 *
 * The order is the order jobs are built in — the domain list, the core signals, the history series, then the
 * panels a user opened; within a role, most urgent first, then by name — which the planner keeps among equals.
 */
import type { DomainSignalDefinition, SignalDefinition } from './definition.ts';
import { isNotFoundMeaning, NOT_FOUND_MEANINGS } from './notFound.ts';
import { isSignalDeclaration, type SignalName, type SignalRegistry } from './signalDeclaration.ts';
import { definitionFileName, type DefinitionFile } from './definitionFolder.ts';
import { SIGNAL_FILES } from './signalFiles.ts';

export type { SignalName, SignalRegistry } from './signalDeclaration.ts';

/** A signal's file name: its name in camelCase (`mta_sts` → mtaSts.ts). */
export const signalFileName = definitionFileName;

/**
 * The signal a file of ./defs declares. A file that does not declare one (a signal written but not
 * registered), or declares it under another name, or whose definition lacks a part, fails every start and
 * every test that reads the registry, naming the file: it would never be polled.
 */
export function registeredSignal({ file, exports }: DefinitionFile): [string, SignalDefinition] {
  const where = `signal file main/core/signals/defs/${file}`;
  const declared = exports.default;
  if (!isSignalDeclaration(declared)) {
    throw new Error(
      `${where} does not declare its signal (\`export default declareSignal('<name>', definition)\`): it would never be polled`,
    );
  }
  const { name, definition } = declared;
  if (signalFileName(name) !== file) {
    throw new Error(`${where} declares signal ${name}: its file must be ${signalFileName(name)}`);
  }
  const problem = definitionProblem(definition as Partial<SignalDefinition>, name);
  if (problem) throw new Error(`${where} (${name}) ${problem}`);
  return [name, definition as SignalDefinition];
}

/** What a declared definition lacks or gets wrong, in words; null when nothing. */
function definitionProblem(
  d: Partial<SignalDefinition> & { extra?: { name?: string } },
  name: string,
): string | null {
  if (typeof d.fetch?.path !== 'string') return 'says nothing to fetch (`fetch.path`)';
  if (typeof d.schema?.safeParse !== 'function') return 'has no schema';
  if (!d.plan) return 'has no plan';
  if (typeof d.words !== 'string') return 'has no words for people';
  if (d.per !== 'domain' && d.per !== 'account') return 'is neither per domain nor per account';
  if (d.extra && d.extra.name !== name)
    return `stores its values under ${String(d.extra.name)}, not its name`;
  if (d.per === 'account') return null;
  return domainProblem(d as Partial<DomainSignalDefinition<unknown>>);
}

/** What a per-domain definition lacks or gets wrong beyond the common parts. */
function domainProblem(d: Partial<DomainSignalDefinition<unknown>>): string | null {
  if (typeof d.store !== 'function') return 'is per domain but stores nothing (`store`)';
  const notFound: unknown = d.fetch?.notFound;
  if (!isNotFoundMeaning(notFound)) {
    const meanings = Object.entries(NOT_FOUND_MEANINGS).map(([m, words]) => `'${m}' (${words})`);
    return `does not say what a 404 from its calls means: declare \`fetch.notFound\`, ${meanings.join(' or ')}`;
  }
  if (notFound === 'absent' && !d.fetch?.parts && !d.schema?.safeParse(null).success) {
    return "declares a 404 absent (`fetch.notFound: 'absent'`) but its schema refuses the null that stands for it";
  }
  return null;
}

const ROLE_ORDER: Readonly<Record<SignalDefinition['plan']['role'], number>> = {
  account: 0,
  core: 1,
  history: 2,
  on_demand: 3,
};

function inJobOrder([a, da]: [string, SignalDefinition], [b, db]: [string, SignalDefinition]): number {
  return (
    ROLE_ORDER[da.plan.role] - ROLE_ORDER[db.plan.role] ||
    da.plan.priority - db.plan.priority ||
    (a < b ? -1 : a > b ? 1 : 0)
  );
}

/** Every signal's definition, keyed by name, in job order (see the module's comment). */
export const SIGNAL_DEFINITIONS = Object.fromEntries(
  SIGNAL_FILES.map(registeredSignal).sort(inJobOrder),
) as unknown as { readonly [S in SignalName]: SignalRegistry[S] };
