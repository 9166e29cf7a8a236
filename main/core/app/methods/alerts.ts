import * as args from '../../../../shared/bridge/args.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { listIncidentsArgs } from '../../../../shared/bridge/incidents.ts';
import { filterIncidents, groupIncidents } from '../../alerts/incidents.ts';
import { ALERT_CATALOGUE, isAlertName } from '../../livechecks/ruleRegistry.ts';
import { withRecordChanges } from '../../alerts/recordChange.ts';
import { AuthwatchError } from '../authwatchError.ts';
import { guard, parse } from '../guard.ts';
import { requireDomain } from '../requireDomain.ts';
import { lifecycleActor } from '../lifecycleActor.ts';
import type { Alert } from '../../mirror/types.ts';
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
        const scope = {
          ...(p.accountId !== undefined ? { accountId: p.accountId } : {}),
          ...(p.domainId !== undefined ? { domainId: p.domainId } : {}),
        };
        // Incidents group within a scope (a domain, or an fqdn for account-level alerts), and an alert only
        // joins its scope's latest incident (or the outage a repair ends): so every alert of each scope that
        // has an unresolved alert is every alert of every open incident, read whole however long the history
        // (the newest 10,000 of a busy week left out an alert still open and cut the start off incidents).
        // Resolved history beyond those scopes is bounded to the newest 10,000 alerts; an incident of theirs
        // whose first alerts are older may show partial under 'resolved' or 'all'. A filter then keeps or
        // drops whole incidents.
        const ofOpenScopes = mirror.listAlertsOfOpenScopes(scope);
        const alerts =
          (p.state ?? 'open') === 'open'
            ? ofOpenScopes
            : withoutDuplicates([...ofOpenScopes, ...mirror.listAlerts({ ...scope, limit: 10_000 })]);
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
        const alerts = p.ids.map((id) => {
          const alert = mirror.getAlert(id);
          if (!alert) throw new AuthwatchError('not_found', `No alert with id ${id}.`);
          return alert;
        });
        // One by one, so each is in its history and channels told of it hear so.
        for (const alert of alerts)
          mirror.acknowledge(
            alert.id,
            { actor: lifecycleActor(w, [alert.accountId]), note: null },
            clock.now(),
          );
        w.delivery.outbox.kick();
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

/** Each alert once (the two reads overlap where an open scope's alerts are among the newest). */
function withoutDuplicates(alerts: readonly Alert[]): Alert[] {
  return [...new Map(alerts.map((a) => [a.id, a])).values()];
}

/** A rule filter must name an alert some rule raises (a typo would otherwise list nothing, silently). */
function knownRule(rule: string | undefined): void {
  if (rule !== undefined && !isAlertName(rule)) {
    throw new AuthwatchError('invalid_arguments', `rule: “${rule}” is not an alert any rule raises`, [
      { path: 'rule', message: 'not an alert any rule raises' },
    ]);
  }
}
