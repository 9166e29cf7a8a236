import { RULE_DEFINITIONS } from '../alerts/ruleSet.ts';
import type { MirrorRegistry } from '../mirror/mirrorRegistry.ts';
import { SIGNAL_DEFINITIONS } from '../signals/registry.ts';

/** The registries the runtime opens the mirror with: every signal of signals/defs and every rule. */
export const MIRROR_REGISTRY: MirrorRegistry = { signals: SIGNAL_DEFINITIONS, rules: RULE_DEFINITIONS };
