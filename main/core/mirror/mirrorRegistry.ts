import type { RuleDefinition } from '../alerts/ruleDefinition.ts';
import type { SignalName, SignalRegistry } from '../signals/signalDeclaration.ts';

/**
 * What the mirror stores and which rules its writes run: the signal registry (every file of signals/defs)
 * and the rule registry, passed in by whoever opens the mirror — the runtime (runtime/registry.ts), tests
 * through test/support/openMirror.ts — so storage never loads the registries' folders itself (issue 33.6).
 */
export interface MirrorRegistry {
  signals: { readonly [S in SignalName]: SignalRegistry[S] };
  /** Every rule by id, in the order a write's events are stored (alerts/ruleSet.ts: loudest first). */
  rules: Readonly<Record<string, RuleDefinition>>;
}
