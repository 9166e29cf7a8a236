import { extraValues, storeExtraValue } from './extraSignalStore.ts';
import type {
  DomainSignalDefinition,
  ExtraReading,
  ExtraSignalDefinition,
  ExtraSignalShown,
  SignalRule,
} from '../signals/definition.ts';

/** A per-domain signal stored in the generic store: what the Summary tab's extra section lists. */
export type StoredExtraSignal<P, V> = DomainSignalDefinition<P, ExtraReading<V>> & {
  /** The name its values are stored under (the registry checks it is the signal's name) and what it shows. */
  extra: { name: string; shown: ExtraSignalShown<V> };
};

/**
 * A signal whose answer is one small value: it is stored in the mirror's generic table under its own name
 * (mirror/extraSignalStore.ts), its rules read that value before and after a write, and the domain's Summary
 * tab shows it with `shown`, and the rules it carries (`rules`) compare its value before and after each read —
 * so the definition file is all a new signal of this kind and its rules need.
 */
export function extraSignal<P, V>(
  name: string,
  definition: ExtraSignalDefinition<P, V>,
): StoredExtraSignal<P, V> {
  const { value, shown, rules, ...rest } = definition;
  return {
    per: 'domain',
    ...rest,
    ...(rules ? { rules: signalRules(rules) } : {}),
    extra: { name, shown },
    store(db, payload, target) {
      storeExtraValue(db, target.domainPk, name, target.fetchedAt, value(payload));
    },
    ruleState(io) {
      const [newest] = extraValues(io.db, io.domainPk, name);
      return newest ? { value: newest.value as V, fetchedAt: newest.fetchedAt } : null;
    },
  };
}

/** An extra signal's rules as the registry holds them: each one runs on the readings before and after. */
function signalRules<V>(
  rules: NonNullable<ExtraSignalDefinition<unknown, V>['rules']>,
): Record<string, SignalRule> {
  return Object.fromEntries(
    Object.entries(rules).map(([id, rule]) => [
      id,
      { ...rule, on: ({ before, after }, ctx, run) => run(before as never, after as never, ctx) },
    ]),
  );
}
