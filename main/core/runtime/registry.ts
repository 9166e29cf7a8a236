import { RULE_DEFINITIONS } from '../alerts/ruleSet.ts';
import type { MirrorRegistry } from '../mirror/mirrorRegistry.ts';
import { SIGNAL_DEFINITIONS } from '../signals/registry.ts';
import { STATUS_MODEL } from '../status/statusModel.ts';

/** What the runtime opens the mirror with: every signal of signals/defs, every rule, the status model. */
export const MIRROR_REGISTRY: MirrorRegistry = {
  signals: SIGNAL_DEFINITIONS,
  rules: RULE_DEFINITIONS,
  status: STATUS_MODEL,
};
