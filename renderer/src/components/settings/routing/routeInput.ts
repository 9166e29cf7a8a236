import type { RouteInput } from '../../../../../shared/bridge/routes.ts';

/** The table with the route at `index` moved one place up (-1) or down (+1); the default route stays last. */
export function moved(table: readonly RouteInput[], index: number, by: -1 | 1): RouteInput[] {
  const next = [...table];
  const to = index + by;
  if (to < 0 || to >= next.length || next[index]!.isDefault || next[to]!.isDefault) return next;
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}
