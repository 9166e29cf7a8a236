import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { maintenanceRef, saveMaintenanceArgs } from '../../../../shared/bridge/maintenance.ts';
import { describeWindow, windowOpenUntil, type MaintenanceWindow } from '../../alerts/maintenanceWindows.ts';
import { holdKey } from '../../alerts/heldTally.ts';
import { describeMatchers, matchesEverything } from '../../alerts/matchers.ts';
import { isTimeZone } from '../../alerts/weeklySlot.ts';
import { AuthwatchError } from '../authwatchError.ts';
import { guard, parse } from '../guard.ts';
import { heldAlerts } from '../heldAlerts.ts';
import { accountsOfMatchers, lifecycleActor } from '../lifecycleActor.ts';
import type { Wiring } from '../wiring.ts';

type MaintenanceMethods = Pick<BridgeMethods, 'listMaintenance' | 'addMaintenance' | 'removeMaintenance'>;

/** Recurring maintenance windows: list, add, remove (audited). */
export function maintenanceMethods(w: Wiring): MaintenanceMethods {
  const { mirror } = w;
  const nowIso = () => new Date(w.clock.now()).toISOString();
  const view = (m: MaintenanceWindow, tally = heldAlerts(w)) => {
    const labels = new Map(mirror.listAccounts().map((a) => [a.id, a.label]));
    const until = windowOpenUntil(m, w.clock.now());
    return {
      ...m,
      matches: describeMatchers(m.matchers, (id) => labels.get(id) ?? String(id)),
      when: describeWindow(m),
      openUntil: until === null ? null : new Date(until).toISOString(),
      holding: until === null ? 0 : (tally.byHold.get(holdKey('maintenance', m.id)) ?? 0),
    };
  };
  const changed = () => {
    w.emit({ type: 'alerts_changed', accountId: null });
    w.delivery.outbox.kick();
  };
  return {
    listMaintenance: () =>
      guard(() => {
        const tally = heldAlerts(w);
        return mirror.maintenance.list().map((m) => view(m, tally));
      }),
    addMaintenance: (a) =>
      guard(() => {
        const p = parse(saveMaintenanceArgs, a);
        if (!isTimeZone(p.timeZone))
          throw new AuthwatchError('invalid_arguments', `timeZone: “${p.timeZone}” is not a time zone`);
        if (matchesEverything(p.matchers))
          throw new AuthwatchError(
            'invalid_arguments',
            'A maintenance window needs at least one matcher (account, group, domain, protocol, rule or severity).',
          );
        const at = nowIso();
        const actor = lifecycleActor(w, accountsOfMatchers(mirror, p.matchers));
        const saved = mirror.maintenance.add({
          ...p,
          weekdays: [...new Set(p.weekdays)].sort(),
          author: actor,
          createdAt: at,
        });
        mirror.silences.audit(at, actor, 'maintenance.created', `maintenance ${saved.id}`, { ...p });
        changed();
        return view(saved);
      }),
    removeMaintenance: (a) =>
      guard(() => {
        const { id } = parse(maintenanceRef, a);
        const at = nowIso();
        const window = mirror.maintenance.list().find((m) => m.id === id);
        if (!window || !mirror.maintenance.remove(id))
          throw new AuthwatchError('not_found', `No maintenance window ${id}.`);
        const actor = lifecycleActor(w, accountsOfMatchers(mirror, window.matchers));
        mirror.silences.audit(at, actor, 'maintenance.removed', `maintenance ${id}`, {});
        changed();
        return { removed: true };
      }),
  };
}
