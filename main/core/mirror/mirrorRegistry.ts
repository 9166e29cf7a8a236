import type { RuleDefinition } from '../alerts/ruleDefinition.ts';
import type { SignalName, SignalRegistry } from '../signals/signalDeclaration.ts';
import type { StatusModel } from './statusSummary.ts';

/**
 * What the mirror stores, which rules its writes run and how it derives each domain's status: the signal
 * registry (every file of signals/defs), the rule registry and the status model, passed in by whoever opens the mirror — the runtime (runtime/registry.ts), tests
 * through test/support/openMirror.ts — so storage never loads the registries' folders itself (issue 33.6).
 */
export interface MirrorRegistry {
  signals: { readonly [S in SignalName]: SignalRegistry[S] };
  /** Every rule by id, in the order a write's events are stored (livechecks/ruleRegistry.ts: loudest first). */
  rules: Readonly<Record<string, RuleDefinition>>;
  /**
   * The status model (status/statusModel.ts's STATUS_MODEL) the mirror keeps each domain's status by: storage
   * stores the statuses and reads the rows, deriving them is status/'s, above the mirror in core's order.
   */
  status: StatusModel;
}
