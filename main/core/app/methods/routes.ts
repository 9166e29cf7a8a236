import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { routeTestArgs, saveRoutesArgs } from '../../../../shared/bridge/routes.ts';
import { describeMatchers } from '../../alerts/matchers.ts';
import { routeAlert, type Route } from '../../delivery/routing.ts';
import type { Channel } from '../../mirror/deliveryTypes.ts';
import { AuthwatchError } from '../authwatchError.ts';
import { guard, parse } from '../guard.ts';
import { lifecycleActor } from '../lifecycleActor.ts';
import type { Wiring } from '../wiring.ts';

type RouteMethods = Pick<BridgeMethods, 'listRoutes' | 'saveRoutes' | 'routeTest'>;

/** The routing table (Settings → Notifications, `authwatch routes`): list, replace, and "which route?". */
export function routeMethods(w: Wiring): RouteMethods {
  const { mirror } = w;
  const view = (routes: Route[]) => {
    const channels = mirror.delivery.listChannels();
    const labels = new Map(mirror.listAccounts().map((a) => [a.id, a.label]));
    const named = new Set(routes.filter((r) => !r.isDefault).flatMap((r) => r.channelIds ?? []));
    const pick = (ids: number[]) =>
      channels.filter((c) => ids.includes(c.id)).map((c) => ({ id: c.id, name: c.name }));
    return routes.map((r) => ({
      id: r.id,
      name: r.name,
      matchers: r.matchers,
      matches: describeMatchers(r.matchers, (id) => labels.get(id) ?? String(id)),
      channels: pick(r.channelIds ?? channels.filter((c) => !named.has(c.id)).map((c) => c.id)),
      everyOtherChannel: r.channelIds === null,
      continue: r.continue,
      isDefault: r.isDefault,
      groupWaitSeconds: r.groupWaitSeconds,
      silenceEvents: r.silenceEvents,
      repeatMinutes: r.repeatMinutes,
      escalateAfterMinutes: r.escalateAfterMinutes,
      escalateTo: pick(r.escalateTo),
    }));
  };
  return {
    listRoutes: () => guard(() => view(mirror.routes.list())),
    saveRoutes: (a) =>
      guard(() => {
        const { routes } = parse(saveRoutesArgs, a);
        const known = new Set(mirror.delivery.listChannels().map((c: Channel) => c.id));
        routes.forEach((r, i) => {
          for (const id of [...(r.channelIds ?? []), ...r.escalateTo])
            if (!known.has(id))
              throw new AuthwatchError('invalid_arguments', `routes.${i}: no channel ${id}`, [
                { path: `routes.${i}.channelIds`, message: `no channel ${id}` },
              ]);
          if (!r.isDefault && r.channelIds === null)
            throw new AuthwatchError(
              'invalid_arguments',
              `routes.${i}: only the default route sends to every other channel`,
            );
        });
        const saved = mirror.routes.replace(routes);
        mirror.silences.audit(
          new Date(w.clock.now()).toISOString(),
          lifecycleActor(w),
          'routes.saved',
          'routing table',
          {
            routes: routes.map((r) => r.name),
          },
        );
        w.emit({ type: 'settings_changed' });
        return view(saved);
      }),
    routeTest: (a) =>
      guard(() => {
        const { alertId } = parse(routeTestArgs, a);
        const alert = mirror.getAlert(alertId);
        if (!alert) throw new AuthwatchError('not_found', `No alert with id ${alertId}.`);
        const choice = routeAlert(
          mirror.routes.list(),
          mirror.silences.factsOf(alert),
          mirror.delivery.listChannels(),
        );
        const hold =
          alert.resolvedAt === null
            ? mirror.silences.silencing(alert, new Date(w.clock.now()).toISOString())
            : null;
        return {
          routes: choice.routes.map((r) => ({ id: r.id, name: r.name })),
          channels: choice.channels.map((c) => c.name),
          silencedBy: hold
            ? { kind: hold.kind, id: hold.id, label: hold.label, author: hold.author, endsAt: hold.endsAt }
            : null,
        };
      }),
  };
}
