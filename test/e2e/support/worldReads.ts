/**
 * What specs read beside the screen, the same way in every file: the mirror's rows through the facade, the
 * tray as the desktop shell derives it, and the service's own records over HTTP with the owner's token
 * (never through the app, so a screen cannot vouch for itself).
 */
import { trayStatus } from '../../../main/core/status/tray.ts';
import type { OverviewRow } from '../../../shared/bridge/results.ts';
import type { DemoWorld } from './world.ts';

/** The portfolio row of `fqdn` in an account of the app (default: the demo account); throws when absent. */
export async function overviewRow(
  world: DemoWorld,
  fqdn: string,
  accountId = world.accountId,
): Promise<OverviewRow> {
  const row = (await world.app.run.app.overview()).find((r) => r.fqdn === fqdn && r.accountId === accountId);
  if (!row) throw new Error(`${fqdn} is not in the mirror`);
  return row;
}

/** The tray's state as the desktop shell derives it: from the facade's rows and the account alerts. */
export async function trayOf(world: DemoWorld): Promise<ReturnType<typeof trayStatus>> {
  const app = world.app.run.app;
  const open = await app.listAlerts({ open: true });
  return trayStatus(
    (await app.overview()).map((r) => ({ fqdn: r.fqdn, verdict: r.posture.verdict })),
    open.filter((a) => a.domainId === null),
    { silenced: (await app.silencedCount()).silenced },
  );
}

/** The service's own answer to a GET of `path` (under /api/v1), with the owner's token. */
export async function serviceGet<T>(world: DemoWorld, path: string): Promise<{ status: number; data: T }> {
  const res = await fetch(`${world.service.baseUrl}${path}`, {
    headers: { accept: 'application/json', 'x-api-token': world.service.token },
  });
  const body = (await res.json().catch(() => ({}))) as { data?: T };
  return { status: res.status, data: body.data as T };
}

/** A request the service's audit log recorded. */
export interface AuditedRequest {
  method: string;
  path: string;
  token_id: number | null;
}

/**
 * The requests other than GET (writes and read-style POSTs) in the newest 100 of the service's audit log;
 * with `path`, only those to a path ending so.
 */
export async function serviceWrites(world: DemoWorld, path?: string): Promise<AuditedRequest[]> {
  const query = new URLSearchParams({ limit: '100', ...(path === undefined ? {} : { path }) });
  const { data } = await serviceGet<AuditedRequest[]>(world, `/audit-logs?${query}`);
  return data.filter((r) => r.method !== 'GET' && (path === undefined || r.path.endsWith(path)));
}
