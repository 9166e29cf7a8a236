import type { RouteView } from '../../../../../shared/bridge/routes.ts';

/** A route as the table's input: what saveRoutes takes (channel ids, not names; the id keeps it the same route). */
export interface RouteInput {
  id?: number;
  name: string;
  matchers: RouteView['matchers'];
  channelIds: number[] | null;
  continue: boolean;
  isDefault: boolean;
  groupWaitSeconds: number | null;
  silenceEvents: boolean;
  repeatMinutes: number | null;
  escalateAfterMinutes: number | null;
  escalateTo: number[];
}

/** A listed route as input again, unchanged. */
export function inputOf(r: RouteView): RouteInput {
  return {
    id: r.id,
    name: r.name,
    matchers: r.matchers,
    channelIds: r.everyOtherChannel ? null : r.channels.map((c) => c.id),
    continue: r.continue,
    isDefault: r.isDefault,
    groupWaitSeconds: r.groupWaitSeconds,
    silenceEvents: r.silenceEvents,
    repeatMinutes: r.repeatMinutes,
    escalateAfterMinutes: r.escalateAfterMinutes,
    escalateTo: r.escalateTo.map((c) => c.id),
  };
}

/** The table with the route at `index` moved one place up (-1) or down (+1); the default route stays last. */
export function moved(table: readonly RouteInput[], index: number, by: -1 | 1): RouteInput[] {
  const next = [...table];
  const to = index + by;
  if (to < 0 || to >= next.length || next[index]!.isDefault || next[to]!.isDefault) return next;
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}
