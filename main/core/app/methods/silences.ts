import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { saveSilenceArgs, silenceRef, type SilenceView } from '../../../../shared/bridge/silences.ts';
import { describeMatchers, type AlertMatchers } from '../../alerts/matchers.ts';
import { silenceState, SilenceInputError, type Silence } from '../../alerts/silences.ts';
import { AuthwatchError } from '../authwatchError.ts';
import { guard, parse } from '../guard.ts';
import type { Wiring } from '../wiring.ts';
import { lifecycleActor } from '../lifecycleActor.ts';

type SilenceMethods = Pick<BridgeMethods, 'listSilences' | 'saveSilence' | 'expireSilence'>;

/** Silences from every surface: list, create or edit, expire early. */
export function silenceMethods(w: Wiring): SilenceMethods {
  const { mirror } = w;
  const nowIso = () => new Date(w.clock.now()).toISOString();
  const changed = () => w.emit({ type: 'alerts_changed', accountId: null });
  const view = (s: Silence): SilenceView => silenceView(w, s, nowIso());
  return {
    listSilences: () => guard(() => mirror.silences.list().map(view)),
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
            ? mirror.silences.add(input, lifecycleActor(w), at)
            : mirror.silences.edit(p.id, input, lifecycleActor(w), at),
        );
        changed();
        w.delivery.outbox.kick();
        return view(saved);
      }),
    expireSilence: (a) =>
      guard(() => {
        const { id } = parse(silenceRef, a);
        if (!mirror.silences.get(id)) throw new AuthwatchError('not_found', `No silence ${id}.`);
        const expired = mirror.silences.expire(id, lifecycleActor(w), nowIso());
        changed();
        // What it held and is still open goes now, not at the next poll.
        w.delivery.outbox.kick();
        return view(expired);
      }),
  };
}

/** The silence as the bridge shows it. */
export function silenceView(w: Wiring, s: Silence, now: string): SilenceView {
  const labels = new Map(w.mirror.listAccounts().map((a) => [a.id, a.label]));
  return {
    ...s,
    matches: describeMatchers(s.matchers, (id) => labels.get(id) ?? String(id)),
    state: silenceState(s, now),
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
