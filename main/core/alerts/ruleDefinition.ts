/**
 * What one alert rule is, in one place (its file under ./rules): the alerts it raises with their words for
 * people and their severity, the function that decides, and which signals' writes it reads. Everything else —
 * the registry, the bridge's list of rule names, the renderer's labels and filter, the status model's words,
 * the order rules run in — derives from these definitions (./ruleSet.ts), so a new rule on an existing signal
 * is its file and its test.
 */
import type { z } from 'zod';
import type { Alert } from '../../../shared/bridge/results.ts';
import type { SignalPayload } from '../signals/catalog.ts';
import type { RuleIo } from '../signals/definition.ts';
import type { SignalRegistry } from '../signals/signalDeclaration.ts';
import type { AlertEvent, AlertRuleFn, RuleContext, Severity } from './types.ts';

/** An alert's details as they cross the bridge: JSON values by name. */
export type AlertDetails = Alert['details'];

/** One alert a rule raises, in words for people. */
export interface AlertKind {
  /** Short name, for the inbox's rule filter and the alert's details ("DMARC policy weakened"). */
  label: string;
  /** One sentence: when it is raised and when it ends (the filter's hint). */
  description: string;
  /** How loud it usually is (the rule's events carry the severity each one has). */
  severity: Severity;
  /**
   * What its alerts carry (their `details`: the inbox lists them, the rule reads them back from the open
   * episode). The mirror refuses a raise whose details are not this, naming the field.
   */
  details: z.ZodType<AlertDetails>;
  /**
   * What is wrong, as the domain's verdict, the tray and the notification say it ("Threat sending as this
   * domain"); from the alert's details when it depends on them (null: keep the alert's own title). Without
   * it the alert's title is used.
   */
  words?: string | ((details: Record<string, unknown>) => string | null);
}

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

/** An alert rule's decision function, whatever it compares (the registry holds them all under one type). */
export type AnyRuleFn = AlertRuleFn<never, never>;

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

/** A rule's handler for one signal, as the mirror calls it (the types checked it against that signal). */
export type RuleHandler = (
  write: { before: unknown; after: unknown; payload: unknown; io: RuleIo },
  ctx: RuleContext,
  run: AnyRuleFn,
) => AlertEvent[];
