/**
 * What one alert rule is, in one place (its file under ./rules): the alerts it raises with their words for
 * people and their severity, the function that decides, and which signals' writes it reads. Everything else —
 * the registry, the bridge's list of rule names, the renderer's labels and filter, the status model's words,
 * the order rules run in — derives from these definitions (./ruleSet.ts), so a new rule on an existing signal
 * is its file and its test.
 */
import type { SignalPayload } from '../signals/catalog.ts';
import type { RuleIo } from '../signals/definition.ts';
import type { SignalRegistry } from '../signals/signalDeclaration.ts';
import type { AlertEvent, RuleContext } from './types.ts';
import type { AlertKind, AnyRuleFn } from '../signals/ruleVocabulary.ts';

/** A rule's words and types, declared below signals/ (a signal's definition carries its rules). */
export type { AlertKind, AnyRuleFn, RuleHandler } from '../signals/ruleVocabulary.ts';

type Definitions = SignalRegistry;

/** What signal S's writes let rules compare (its definition's `ruleState`). */
export type RuleStateOf<S extends keyof Definitions> = Definitions[S] extends {
  ruleState?(io: RuleIo, phase: 'before' | 'after'): infer T;
}
  ? T
  : never;

/** The signals rules can read: those whose definition has a rule state. */
export type RuleSignal = {
  [S in keyof Definitions]: [RuleStateOf<S>] extends [never] ? never : S;
}[keyof Definitions];

/** One write of signal S, as a rule sees it. */
export interface SignalWrite<S extends RuleSignal> {
  /** The signal's rule state before the write's rows were stored. */
  before: RuleStateOf<S>;
  /** ...and after. */
  after: RuleStateOf<S>;
  /** The decoded answer just written. */
  payload: SignalPayload<S>;
  io: RuleIo;
}

/** One rule: see the module's comment. `F` is its decision function. */
export interface RuleDefinition<F extends AnyRuleFn = AnyRuleFn> {
  /** The alerts it raises, by the name they are stored and filtered under. */
  alerts: Readonly<Record<string, AlertKind>>;
  /** Decides from the previous and next reading (the rule's tests call it directly). */
  run: F;
  /**
   * The signals whose writes run it, each with how its readings come from the write. `run` is the decision
   * function the mirror was given (a test may replace it).
   */
  on?: { [S in RuleSignal]?: (write: SignalWrite<S>, ctx: RuleContext, run: F) => AlertEvent[] };
  /** Account rules run on every account-level outcome instead: a failed call, or any successful one. */
  account?: 'error' | 'success';
  /**
   * Rules the DNS watch's writes run (main/core/mirror: writeDnsWatch), from what the app's own DNS queries
   * confirmed — no signal of the service carries it.
   */
  dnsWatch?: true;
  /**
   * The live check whose results it reads (main/core/livechecks: a check's `rules`): mirror.writeLiveCheck
   * runs it with the check's reading before and after.
   */
  liveCheck?: string;
}

/** Declares a rule (the default export of its file under ./rules). */
export function alertRule<F extends AnyRuleFn>(definition: RuleDefinition<F>): RuleDefinition<F> {
  return definition;
}
