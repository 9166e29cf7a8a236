import { acknowledgeAlertArgs, alertIdRef } from '../../../../shared/bridge/acknowledgements.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { AuthwatchError } from '../authwatchError.ts';
import { guard, parse } from '../guard.ts';
import { lifecycleActor } from '../lifecycleActor.ts';
import type { Wiring } from '../wiring.ts';

type AckMethods = Pick<BridgeMethods, 'acknowledgeAlert' | 'unacknowledgeAlert' | 'alertLifecycle'>;

/** Acknowledgement with a note, its withdrawal, and where an alert stands (silenced, acknowledged by whom). */
export function acknowledgementMethods(w: Wiring): AckMethods {
  const { mirror } = w;
  const known = (id: number) => {
    const alert = mirror.getAlert(id);
    if (!alert) throw new AuthwatchError('not_found', `No alert with id ${id}.`);
    return alert;
  };
  const changed = (accountId: number) => {
    w.emit({ type: 'alerts_changed', accountId });
    // The update goes to the channels now, not at the next poll.
    w.delivery.outbox.kick();
  };
  return {
    acknowledgeAlert: (a) =>
      guard(() => {
        const p = parse(acknowledgeAlertArgs, a);
        const before = known(p.id);
        const alert = mirror.acknowledge(
          p.id,
          { actor: lifecycleActor(w, [before.accountId]), note: p.note || null },
          w.clock.now(),
        );
        changed(alert.accountId);
        return alert;
      }),
    unacknowledgeAlert: (a) =>
      guard(() => {
        const { id } = parse(alertIdRef, a);
        const before = known(id);
        const alert = mirror.unacknowledge(id, lifecycleActor(w, [before.accountId]), w.clock.now());
        changed(alert.accountId);
        return alert;
      }),
    alertLifecycle: (a) =>
      guard(() => {
        const alert = known(parse(alertIdRef, a).id);
        const now = new Date(w.clock.now()).toISOString();
        const hold = alert.resolvedAt === null ? mirror.silences.silencing(alert, now) : null;
        return {
          silencedBy: hold
            ? { kind: hold.kind, id: hold.id, label: hold.label, author: hold.author, endsAt: hold.endsAt }
            : null,
          held: mirror.silences.isHeld(alert.id),
          acknowledgements: mirror.acknowledgements(alert.id),
        };
      }),
  };
}
