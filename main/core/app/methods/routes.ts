import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { importRoutesArgs } from '../../../../shared/bridge/routeFile.ts';
import { routeTestArgs, saveRoutesArgs } from '../../../../shared/bridge/routes.ts';
import { routeFileOf, routesFromFile } from '../routeFile.ts';
import { describeMatchers } from '../../alerts/matchers.ts';
import { routeAlert, type Route, type RouteInput } from '../../mirror/routing.ts';
import type { Channel } from '../../mirror/deliveryTypes.ts';
import { AuthwatchError } from '../authwatchError.ts';
import { guard, parse } from '../guard.ts';
import { lifecycleActor } from '../lifecycleActor.ts';
import type { Wiring } from '../wiring.ts';

type RouteMethods = Pick<
  BridgeMethods,
  'listRoutes' | 'saveRoutes' | 'routeTest' | 'exportRoutes' | 'importRoutes'
>;

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
  /** Checks the channels a table names and replaces the stored table with it, audited. */
  const store = (routes: RouteInput[], action: string) => {
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
    mirror.silences.audit(new Date(w.clock.now()).toISOString(), lifecycleActor(w), action, 'routing table', {
      routes: routes.map((r) => r.name),
    });
    w.emit({ type: 'settings_changed' });
    return view(saved);
  };
  return {
    listRoutes: () => guard(() => view(mirror.routes.list())),
    saveRoutes: (a) => guard(() => store(parse(saveRoutesArgs, a).routes, 'routes.saved')),
    exportRoutes: () =>
      guard(() => {
        const file = routeFileOf(mirror.routes.list(), mirror.delivery.listChannels(), mirror.listAccounts());
        return {
          filename: 'authwatch-routes.json',
          mimeType: 'application/json',
          content: JSON.stringify(file, null, 2) + '\n',
        };
      }),
    importRoutes: (a) =>
      guard(() => {
        const { text } = parse(importRoutesArgs, a);
        const routes = routesFromFile(
          text,
          mirror.delivery.listChannels(),
          mirror.listAccounts(),
          mirror.routes.list(),
        );
        return store(routes, 'routes.imported');
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
