import { z } from 'zod';
import type { AlertEvent, RuleContext } from '../../alerts/types.ts';
import { dnsblQueryName, readDnsblAnswer, type DnsblVerdict } from '../dnsblAnswer.ts';
import { DNSBL_ZONE_NAME, dnsblZone, MAX_DNSBL_ZONES } from '../../../../shared/email-auth/dnsblZones.ts';
import { liveCheck, type LiveReading, type ProbeContext } from '../definition.ts';

/** MX hosts looked at per domain (RFC 7208's limit for mx terms; a domain with more is unusual). */
const MAX_MX_HOSTS = 10;

const settingsSchema = z.object({
  /** The zones to ask; none by default (several refuse public resolvers and most limit free use). */
  zones: z
    .array(z.string().regex(DNSBL_ZONE_NAME, 'not a zone name (like bl.example.net)'))
    .max(MAX_DNSBL_ZONES, `at most ${MAX_DNSBL_ZONES} zones`),
});
type DnsblSettings = z.infer<typeof settingsSchema>;

const answerSchema = z.object({
  ip: z.string(),
  /** Where the address came from: "MX mx1.example.com" or "reported by the service". */
  source: z.string(),
  zone: z.string(),
  kind: z.enum(['listed', 'clear', 'error']),
  codes: z.array(z.string()).optional(),
  reason: z.string().nullable().optional(),
  why: z.string().optional(),
});
const resultSchema = z.object({ ips: z.number().int(), answers: z.array(answerSchema) });
type DnsblResult = z.infer<typeof resultSchema>;
type Answer = z.infer<typeof answerSchema>;

/** The domain's MX hosts' addresses and the sending IPs the service reports; null when DNS could not say. */
async function addressesToCheck(ctx: ProbeContext<DnsblSettings>): Promise<Map<string, string> | null> {
  const { fqdn, accountId, domainId } = ctx.target;
  const ips = new Map<string, string>();
  const mx = await ctx.lookup(fqdn!, 'MX');
  if (mx.kind === 'unknown') return null;
  const hosts = mx.kind === 'records' ? mx.values.map((v) => (v[1] ?? '').replace(/\.$/, '')) : [];
  for (const host of hosts.filter((h) => h && h !== '.').slice(0, MAX_MX_HOSTS)) {
    const found = await ctx.addresses(host);
    if (found.kind === 'unknown') return null;
    if (found.kind === 'addresses')
      for (const ip of found.values) if (!ips.has(ip)) ips.set(ip, `MX ${host}`);
  }
  for (const ip of ctx.mirror.reportedSendingIps(accountId, domainId!))
    if (!ips.has(ip)) ips.set(ip, 'reported by the service');
  return ips;
}

/** Asks one zone about one address (`unknown` when the resolver could not say). */
async function ask(ctx: ProbeContext<DnsblSettings>, ip: string, zoneName: string): Promise<DnsblVerdict> {
  const zone = dnsblZone(zoneName);
  const name = dnsblQueryName(ip, zone.zone);
  const a = await ctx.lookup(name, 'A');
  return readDnsblAnswer(zone, a, a.kind === 'records' ? await ctx.lookup(name, 'TXT') : null);
}

type Reading = LiveReading<DnsblResult> | null;
const keyOf = (ctx: RuleContext, fqdn: string, a: Pick<Answer, 'zone' | 'ip'>) =>
  `dnsbl_listed:${ctx.accountId}:${fqdn}:${a.zone}:${a.ip}`;

/** One episode per listed (address, zone); it ends when the zone no longer lists it or the address is gone. */
function listingEvents(_before: Reading, after: Reading, ctx: RuleContext): AlertEvent[] {
  const domain = ctx.domain;
  if (!domain) return [];
  const listed = (after?.result.answers ?? []).filter((a) => a.kind === 'listed');
  const keys = new Set(listed.map((a) => keyOf(ctx, domain.fqdn, a)));
  const prefix = `dnsbl_listed:${ctx.accountId}:${domain.fqdn}:`;
  // An address the zone answered an error for keeps its episode: an error is not a delisting.
  const unsure = new Set(
    (after?.result.answers ?? []).filter((a) => a.kind === 'error').map((a) => keyOf(ctx, domain.fqdn, a)),
  );
  const events: AlertEvent[] = [...ctx.openAlerts.keys()]
    .filter((k) => k.startsWith(prefix) && !keys.has(k) && !unsure.has(k))
    .map((dedupeKey) => ({ type: 'resolve', dedupeKey }));
  for (const a of listed) {
    const key = keyOf(ctx, domain.fqdn, a);
    if (ctx.openAlerts.has(key)) continue;
    const zone = dnsblZone(a.zone);
    events.push({
      type: 'raise',
      rule: 'dnsbl_listed',
      severity: 'warning',
      dedupeKey: key,
      domain,
      title: `${a.ip} (${a.source}) of ${domain.fqdn} is listed on ${zone.name}`,
      body: `${zone.name} (${a.zone}) lists ${a.ip}, ${a.source} of ${domain.fqdn} (answer ${(a.codes ?? []).join(', ')}): ${a.reason ?? 'the zone gives no reason'}. Receivers that use this list may refuse or junk its mail. Delisting is the zone operator's process; this alert ends when the zone no longer lists the address.`,
      details: { ip: a.ip, zone: a.zone, source: a.source, codes: a.codes ?? [], reason: a.reason ?? null },
    });
  }
  return events;
}

/**
 * Blocklists (DNSBL, RFC 5782): the MX hosts' addresses and the sending IPs the service reports, against the
 * zones the user chose (none by default), every 6 hours (lists add and drop addresses within hours; more
 * often would spend the free query allowances several zones grant). A resolver failure is no evidence.
 */
export default liveCheck<DnsblResult, DnsblSettings>('dnsbl_listings', {
  words: 'Blocklists (DNSBL) for the MX hosts’ and reported sending addresses',
  per: 'domain',
  cadence: { periodSeconds: 6 * 3600, retrySeconds: 900 },
  caps: { concurrency: 32, perTick: 100 },
  settingsKey: 'dnsbl',
  settings: { schema: settingsSchema, defaults: { zones: [] } },
  uses: ['dns'],
  result: resultSchema,
  async probe(ctx) {
    const zones = ctx.settings.zones.map((z) => dnsblZone(z).zone);
    if (!ctx.target.fqdn || ctx.target.domainId === null)
      return { status: 'not_applicable', words: 'not a domain' };
    if (zones.length === 0)
      return { status: 'not_applicable', words: 'no blocklist zones chosen (Settings → Live checks)' };
    const ips = await addressesToCheck(ctx);
    if (!ips)
      return { status: 'unknown', words: 'the resolver could not say which addresses the MX hosts have' };
    const answers: Answer[] = [];
    for (const [ip, source] of ips) {
      for (const zone of zones) {
        const verdict = await ask(ctx, ip, zone);
        if (verdict.kind === 'unknown') return { status: 'unknown', words: `${zone}: ${verdict.why}` };
        answers.push({ ip, source, zone, ...verdict });
      }
    }
    return { status: 'checked', result: { ips: ips.size, answers } };
  },
  rules: {
    dnsblListed: {
      alerts: {
        dnsbl_listed: {
          label: 'Listed on a blocklist',
          description:
            'An MX host’s address or a sending address is listed on a DNSBL zone you chose; ends when the zone no longer lists it.',
          severity: 'warning',
          details: z.strictObject({
            ip: z.string(),
            zone: z.string(),
            source: z.string(),
            codes: z.array(z.string()),
            reason: z.string().nullable(),
          }),
          words: 'Listed on a blocklist',
        },
      },
      run: listingEvents,
    },
  },
  shown: {
    label: 'Blocklists',
    text: (r) => {
      const listed = r.answers.filter((a) => a.kind === 'listed').length;
      const zones = new Set(r.answers.map((a) => a.zone)).size;
      return `${r.ips} address${r.ips === 1 ? '' : 'es'} against ${zones} zone${zones === 1 ? '' : 's'}: ${listed === 0 ? 'none listed' : `${listed} listing${listed === 1 ? '' : 's'}`}`;
    },
    problems: (r) =>
      r.answers.flatMap((a) =>
        a.kind === 'listed'
          ? [`${a.ip} (${a.source}) is listed on ${a.zone}: ${a.reason ?? 'no reason given'}`]
          : a.kind === 'error'
            ? [`${a.ip} on ${a.zone}: ${a.why ?? 'an error'}`]
            : [],
      ),
    details: (r) =>
      r.answers.map((a) => ({
        label: `${a.ip} on ${a.zone}`,
        text:
          a.kind === 'listed'
            ? `listed (${(a.codes ?? []).join(', ')}): ${a.reason ?? 'no reason given'}`
            : a.kind === 'error'
              ? `error: ${a.why ?? ''}`
              : `not listed (${a.source})`,
      })),
  },
});
