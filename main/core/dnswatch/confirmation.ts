/**
 * When a DNS answer becomes evidence. One odd answer is not: a resolver pool whose members disagree (a record
 * just published or removed, anycast nodes out of step) answers present, absent, present. A change is
 * confirmed when `confirmations` answers in a row agree (the watch re-asks soon, `confirmSpacingMs` apart,
 * instead of waiting for the TTL); a record whose answers have changed `flapTransitions` times within
 * `flapWindowMs` is flapping, and its change is confirmed only once it has held for that whole window.
 * The first answer ever seen is the baseline: a record that was never there is not news.
 */

/** An answer as evidence: the protocol's record works (connected) or not (absent or invalid). */
export type Evidence = 'connected' | 'disconnected';

export interface ConfirmRules {
  confirmations: number;
  confirmSpacingMs: number;
  flapWindowMs: number;
  flapTransitions: number;
}

export const DEFAULT_CONFIRM_RULES: ConfirmRules = {
  confirmations: 3,
  confirmSpacingMs: 15_000,
  flapWindowMs: 5 * 60_000,
  flapTransitions: 3,
};

/** What the watch remembers of one record between answers. */
export interface ConfirmState {
  confirmed: Evidence | null;
  /** When the confirmed state's run of answers began (epoch ms). */
  confirmedSince: number | null;
  run: { evidence: Evidence; since: number; count: number } | null;
  /** Times the answer changed, within the flap window. */
  transitions: number[];
}

export const INITIAL_CONFIRM_STATE: ConfirmState = {
  confirmed: null,
  confirmedSince: null,
  run: null,
  transitions: [],
};

export interface ConfirmStep {
  state: ConfirmState;
  /** The confirmed evidence changed with this answer (not on the baseline). */
  changed: boolean;
  /** An unconfirmed change is pending: ask again after confirmSpacingMs. */
  recheck: boolean;
  flapping: boolean;
}

/** Folds one answer (at epoch ms `at`) into the state. */
export function observe(
  state: ConfirmState,
  evidence: Evidence,
  at: number,
  rules: ConfirmRules,
): ConfirmStep {
  const transitions = state.transitions.filter((t) => at - t < rules.flapWindowMs);
  let run = state.run;
  if (run && run.evidence === evidence) run = { ...run, count: run.count + 1 };
  else {
    if (run) transitions.push(at);
    run = { evidence, since: at, count: 1 };
  }
  const flapping = transitions.length >= rules.flapTransitions;
  if (state.confirmed === null) {
    return {
      state: { confirmed: evidence, confirmedSince: at, run, transitions },
      changed: false,
      recheck: false,
      flapping,
    };
  }
  if (evidence === state.confirmed) {
    return { state: { ...state, run, transitions }, changed: false, recheck: false, flapping };
  }
  const held = flapping ? at - run.since >= rules.flapWindowMs : run.count >= rules.confirmations;
  if (held) {
    return {
      state: { confirmed: evidence, confirmedSince: run.since, run, transitions },
      changed: true,
      recheck: false,
      flapping,
    };
  }
  return { state: { ...state, run, transitions }, changed: false, recheck: true, flapping };
}
