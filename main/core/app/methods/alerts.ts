import * as args from '../../../../shared/bridge/args.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { listIncidentsArgs } from '../../../../shared/bridge/incidents.ts';
import { filterIncidents, groupIncidents } from '../../alerts/incidents.ts';
import { ALERT_CATALOGUE, isAlertName } from '../../alerts/ruleSet.ts';
import { withRecordChanges } from '../../alerts/recordChange.ts';
import { AuthwatchError } from '../authwatchError.ts';
import { guard, parse } from '../guard.ts';
import { requireDomain } from '../requireDomain.ts';
import type { Wiring } from '../wiring.ts';

type AlertMethods = Pick<
  BridgeMethods,
  | 'listAlerts'
  | 'listIncidents'
  | 'alertRules'
  | 'acknowledgeAlerts'
  | 'snoozeAlert'
  | 'muteDomain'
  | 'unmuteDomain'
>;

/** The alert inbox: list, acknowledge, snooze, mute a domain. */
export function alertMethods(w: Wiring): AlertMethods {
  const { mirror, clock } = w;
  return {
    listAlerts: (a) =>
      guard(() => {
        const p = parse(args.listAlertsArgs, a) ?? {};
        knownRule(p.rule);
        return mirror.listAlerts(p);
      }),

    listIncidents: (a) =>
      guard(() => {
        const p = parse(listIncidentsArgs, a) ?? {};
        knownRule(p.rule);
        // Grouping looks at every alert of the scope (a filter keeps or drops whole incidents).
        const alerts = mirror.listAlerts({
          ...(p.accountId !== undefined ? { accountId: p.accountId } : {}),
          ...(p.domainId !== undefined ? { domainId: p.domainId } : {}),
          limit: 10_000,
        });
        const incidents = filterIncidents(groupIncidents(alerts), p).slice(0, p.limit ?? 10_000);
        return withRecordChanges(incidents, (alert, protocol) =>
          alert.domainId === null ? [] : mirror.recordObservations(alert.accountId, alert.domainId, protocol),
        );
      }),

    alertRules: () =>
      guard(() =>
        [...ALERT_CATALOGUE.values()].map(({ name, label, description, severity }) => ({
          name,
          label,
          description,
          severity,
        })),
      ),

    acknowledgeAlerts: (a) =>
      guard(() => {
        const p = parse(args.acknowledgeArgs, a);
        for (const id of p.ids) {
          if (!mirror.getAlert(id)) throw new AuthwatchError('not_found', `No alert with id ${id}.`);
        }
        mirror.acknowledgeAlerts(p.ids, clock.now());
        w.emit({ type: 'alerts_changed', accountId: null });
        return { acknowledged: p.ids.length };
      }),

    snoozeAlert: (a) =>
      guard(() => {
        const p = parse(args.snoozeArgs, a);
        if (!mirror.getAlert(p.id)) throw new AuthwatchError('not_found', `No alert with id ${p.id}.`);
        mirror.snoozeAlert(p.id, p.until);
        w.emit({ type: 'alerts_changed', accountId: null });
        return mirror.getAlert(p.id)!;
      }),

    muteDomain: (a) =>
      guard(() => {
        const p = parse(args.muteArgs, a);
        requireDomain(mirror, p.accountId, p.domainId);
        mirror.muteDomain(p);
        w.emit({ type: 'alerts_changed', accountId: p.accountId });
        return { muted: true as const };
      }),

    unmuteDomain: (a) =>
      guard(() => {
        const p = parse(args.domainRef, a);
        requireDomain(mirror, p.accountId, p.domainId);
        mirror.unmuteDomain(p.accountId, p.domainId);
        w.emit({ type: 'alerts_changed', accountId: p.accountId });
        return { muted: false as const };
      }),
  };
}

/** A rule filter must name an alert some rule raises (a typo would otherwise list nothing, silently). */
function knownRule(rule: string | undefined): void {
  if (rule !== undefined && !isAlertName(rule)) {
    throw new AuthwatchError('invalid_arguments', `rule: “${rule}” is not an alert any rule raises`, [
      { path: 'rule', message: 'not an alert any rule raises' },
    ]);
  }
}
