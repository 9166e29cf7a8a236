import * as args from '../../../../shared/bridge/args.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import {
  dnsUnavailableSchema,
  updateDnsWatchArgs,
  type DnsUnavailable,
  type DnsWatchStatus,
  type DomainDnsWatch,
} from '../../../../shared/bridge/dnsWatch.ts';
import { z } from 'zod';
import { PROTOCOLS } from '../../../../shared/email-auth/protocols.ts';
import { disagreementOf } from '../../dnswatch/disagreement.ts';
import { DNS_WATCH_PACE_KEY, DNS_WATCH_TRUST_KEY } from '../../dnswatch/dnsWatchRuntime.ts';
import type { Mirror } from '../../mirror/types.ts';
import {
  DNS_WATCH_SETTINGS_KEY,
  dnsWatchSettingsSchema,
  readDnsWatchSettings,
} from '../../dnswatch/watchSettings.ts';
import { guard, parse } from '../guard.ts';
import { requireDomain } from '../requireDomain.ts';
import type { Wiring } from '../wiring.ts';

type DnsWatchMethods = Pick<BridgeMethods, 'domainDnsWatch' | 'dnsWatchStatus' | 'updateDnsWatch'>;

const paceSchema = z.object({
  servers: z.array(z.string()),
  source: z.enum(['command line', 'settings', 'system']),
  queriesPerSecond: z.number(),
  checksPerSecond: z.number(),
  roundSeconds: z.number(),
  at: z.string(),
});

function storedPace(value: unknown): z.infer<typeof paceSchema> | null {
  const parsed = paceSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Why the watch's resolver cannot be trusted, as the watching process kept it (null: it can). */
export function dnsUnavailable(mirror: Mirror): DnsUnavailable | null {
  const parsed = dnsUnavailableSchema.safeParse(mirror.getSetting(DNS_WATCH_TRUST_KEY));
  return parsed.success ? parsed.data : null;
}

/** The DNS watch's status: settings, pace (when this shell runs it) and freshness (from the mirror). */
export function dnsWatchStatus(w: Wiring): DnsWatchStatus {
  const view = w.dnsWatch?.view();
  const settings = view?.settings ?? readDnsWatchSettings(w.mirror.getSetting(DNS_WATCH_SETTINGS_KEY));
  const live = view?.stats ?? null;
  // Another process (the app, `sync --watch`) may be the one watching: its pace is kept in the mirror.
  const kept = storedPace(w.mirror.getSetting(DNS_WATCH_PACE_KEY));
  const pace =
    live && view ? { ...live, source: view.source, at: new Date(w.clock.now()).toISOString() } : kept;
  const summary = w.mirror.dnsWatchSummary();
  return {
    settings,
    running: view?.running ?? false,
    source: pace?.source ?? (settings.servers.length ? 'settings' : 'system'),
    servers: pace?.servers ?? settings.servers,
    // A watcher just rebuilt (settings saved) has not read the domains yet: the mirror knows how many.
    records: live?.records || summary.records,
    queriesPerSecond: pace?.queriesPerSecond ?? 0,
    checksPerSecond: pace?.checksPerSecond ?? 0,
    roundSeconds: pace?.roundSeconds ?? 0,
    paceAt: pace?.at ?? null,
    oldestCheckedAt: summary.oldestCheckedAt,
    newestCheckedAt: summary.newestCheckedAt,
    unknown: summary.unknown,
    unavailable: dnsUnavailable(w.mirror),
  };
}

/** The domain page's DNS tab, Settings' DNS watch section. */
export function dnsWatchMethods(w: Wiring): DnsWatchMethods {
  const { mirror } = w;
  return {
    domainDnsWatch: (a) =>
      guard((): DomainDnsWatch => {
        const { accountId, domainId } = parse(args.domainRef, a);
        requireDomain(mirror, accountId, domainId);
        const service = mirror.serviceProtocolView(accountId, domainId);
        const now = w.clock.now();
        const records = mirror.dnsWatchRecords(accountId, domainId);
        // While the resolver cannot be trusted the watch holds no view of its own to set against the service.
        const unavailable = dnsUnavailable(mirror);
        records.sort((x, y) => PROTOCOLS.indexOf(x.protocol) - PROTOCOLS.indexOf(y.protocol));
        return {
          watching: w.dnsWatch?.view().running ?? false,
          records: records.map((r) => ({
            ...r,
            serviceConnected: service?.protocols[r.protocol]?.connected ?? null,
          })),
          serviceScannedAt: service?.scannedAt ?? null,
          disagreements:
            service && !unavailable
              ? records.map((r) => disagreementOf(r, service, now)).filter((d) => d !== null)
              : [],
          unavailable,
        };
      }),

    dnsWatchStatus: () => guard(() => dnsWatchStatus(w)),

    updateDnsWatch: (a) =>
      guard(() => {
        const patch = parse(updateDnsWatchArgs, a ?? {});
        const current = readDnsWatchSettings(mirror.getSetting(DNS_WATCH_SETTINGS_KEY));
        const next = parse(dnsWatchSettingsSchema, { ...current, ...patch });
        mirror.setSetting(DNS_WATCH_SETTINGS_KEY, next);
        w.dnsWatch?.restart();
        w.emit({ type: 'settings_changed' });
        return dnsWatchStatus(w);
      }),
  };
}
