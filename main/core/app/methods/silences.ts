import * as args from '../../../../shared/bridge/args.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { saveSilenceArgs, silenceRef, type SilenceView } from '../../../../shared/bridge/silences.ts';
import { holdKey, type HeldTally } from '../../alerts/heldTally.ts';
import { describeMatchers, type AlertMatchers } from '../../alerts/matchers.ts';
import { silenceState, SilenceInputError, type Silence } from '../../alerts/silences.ts';
import { AuthwatchError } from '../authwatchError.ts';
import { guard, parse } from '../guard.ts';
import { heldAlerts } from '../heldAlerts.ts';
import type { Wiring } from '../wiring.ts';
import { accountsOfMatchers, lifecycleActor } from '../lifecycleActor.ts';

type SilenceMethods = Pick<BridgeMethods, 'listSilences' | 'saveSilence' | 'expireSilence' | 'silencedCount'>;

/** Silences from every surface: list, create or edit, expire early, and how many alerts they hold. */
export function silenceMethods(w: Wiring): SilenceMethods {
  const { mirror } = w;
  const nowIso = () => new Date(w.clock.now()).toISOString();
  const changed = () => w.emit({ type: 'alerts_changed', accountId: null });
  const view = (s: Silence, tally = heldAlerts(w)): SilenceView => silenceView(w, s, nowIso(), tally);
  const actorFor = (s: { matchers: AlertMatchers }) =>
    lifecycleActor(w, accountsOfMatchers(mirror, s.matchers));
  return {
    listSilences: () =>
      guard(() => {
        const tally = heldAlerts(w);
        return mirror.silences.list().map((s) => view(s, tally));
      }),
    saveSilence: (a) =>
      guard(() => {
        const p = parse(saveSilenceArgs, a);
        const matchers = withoutEmpty(p.matchers);
        if (
          matchers.accountId !== undefined &&
          !mirror.listAccounts().some((x) => x.id === matchers.accountId)
        )
          throw new AuthwatchError('not_found', `No account ${matchers.accountId}.`);
        const at = nowIso();
        const input = { matchers, reason: p.reason, startsAt: p.startsAt ?? at, endsAt: p.endsAt };
        const saved = refusedInWords(() =>
          p.id === undefined
            ? mirror.silences.add(input, actorFor(input), at)
            : mirror.silences.edit(p.id, input, actorFor(input), at),
        );
        changed();
        w.delivery.outbox.kick();
        return view(saved);
      }),
    expireSilence: (a) =>
      guard(() => {
        const { id } = parse(silenceRef, a);
        const silence = mirror.silences.get(id);
        if (!silence) throw new AuthwatchError('not_found', `No silence ${id}.`);
        const expired = mirror.silences.expire(id, actorFor(silence), nowIso());
        changed();
        // What it held and is still open goes now, not at the next poll.
        w.delivery.outbox.kick();
        return view(expired);
      }),
    silencedCount: (a) =>
      guard(() => {
        const p = parse(args.accountScope, a);
        return { silenced: heldAlerts(w, p?.accountId).silenced };
      }),
  };
}

/** The silence as the bridge shows it, with the open alerts it holds now (from `tally`). */
function silenceView(w: Pick<Wiring, 'mirror'>, s: Silence, now: string, tally: HeldTally): SilenceView {
  const labels = new Map(w.mirror.listAccounts().map((a) => [a.id, a.label]));
  const state = silenceState(s, now);
  return {
    ...s,
    matches: describeMatchers(s.matchers, (id) => labels.get(id) ?? String(id)),
    state,
    holding: state === 'active' ? (tally.byHold.get(holdKey('silence', s.id)) ?? 0) : 0,
  };
}

/** Matchers as given, without the empty ones a form leaves (an empty group is no matcher). */
function withoutEmpty(m: AlertMatchers): AlertMatchers {
  return Object.fromEntries(
    Object.entries(m).filter(([, v]) => v !== undefined && v !== ''),
  ) as AlertMatchers;
}

function refusedInWords<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof SilenceInputError) throw new AuthwatchError('invalid_arguments', error.message);
    throw error;
  }
}
