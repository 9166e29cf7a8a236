import type { MirrorRegistry } from '../mirror/mirrorRegistry.ts';
import { ALERT_CATALOGUE, RULE_DEFINITIONS } from '../livechecks/ruleRegistry.ts';
import { SIGNAL_DEFINITIONS } from '../signals/registry.ts';
import { statusModel } from '../status/statusModel.ts';

/**
 * What the runtime opens the mirror with: every signal of signals/defs, every rule (the live checks' too),
 * the status model, which words alerts as those rules do.
 */
export const MIRROR_REGISTRY: MirrorRegistry = {
  signals: SIGNAL_DEFINITIONS,
  rules: RULE_DEFINITIONS,
  status: statusModel(ALERT_CATALOGUE),
};
