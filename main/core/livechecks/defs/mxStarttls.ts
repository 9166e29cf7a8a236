/**
 * MX STARTTLS, live: each MX host of the domain (the DNS watch's client) is dialled on the SMTP port of the
 * settings (25), greeted with a polite EHLO, asked for STARTTLS, its certificate read and judged for the MX
 * name, then QUIT (./starttlsProbe.ts) — never MAIL. Every connection takes a slot of the global cap, and a
 * host that many domains name is dialled once a round (ctx.shared), each domain getting its answer. When no
 * host of the domain can be reached at all, the check has no evidence (`blocked`): a network that stops port
 * 25 everywhere becomes one setting-level notice, never an alert per domain.
 */
import { hostname } from 'node:os';
import { z } from 'zod';
import { conditionEvents, type Condition } from '../conditionAlert.ts';
import { liveCheck, type LiveReading } from '../definition.ts';
import { expiryStage } from '../peerCertificate.ts';
import { mxHostSeenSchema, probeStarttls, type MxHostSeen } from '../starttlsProbe.ts';

const resultSchema = z.object({ hosts: z.array(mxHostSeenSchema) });
type MxStarttls = z.infer<typeof resultSchema>;
type Reading = LiveReading<MxStarttls> | null;

/** MX hosts looked at per domain (the rest are named in the result as not looked at). */
const MAX_HOSTS = 10;

const settingsSchema = z.object({
  /** The name given in EHLO: this machine's, so an MX operator can tell who asked. */
  ehloName: z.string().regex(/^[A-Za-z0-9.-]{1,253}$/),
});

/** Conditions of every host looked at, by the rule's test `of`. */
function hostConditions(after: Reading, fqdn: string, of: (h: MxHostSeen) => Omit<Condition, 'key'> | null) {
  return (after?.result.hosts ?? []).flatMap((h) => {
    const c = of(h);
    return c ? [{ ...c, key: `${fqdn}:${h.host}:${String(c.details.stage ?? '')}` }] : [];
  });
}

export default liveCheck('mx_starttls', {
  words: 'MX STARTTLS',
  per: 'domain',
  cadence: { periodSeconds: 24 * 3600, retrySeconds: 60 * 60 },
  caps: { concurrency: 4, perTick: 4 },
  settingsKey: 'mxStarttls',
  settings: {
    schema: settingsSchema,
    defaults: { ehloName: /\./.test(hostname()) ? hostname() : `${hostname() || 'authwatch'}.localdomain` },
  },
  uses: ['dns', 'connections'],
  result: resultSchema,
  async probe(ctx) {
    const fqdn = ctx.target.fqdn!;
    const mx = await ctx.lookup(fqdn, 'MX');
    if (mx.kind === 'unknown') return { status: 'unknown', words: `DNS could not say (${mx.reason})` };
    const names = [...new Set(mx.kind === 'records' ? mx.values.map((v) => (v[1] ?? '').toLowerCase()) : [])];
    // A null MX (RFC 7505: "0 .") says the domain takes no mail.
    const hosts = names.filter((n) => n !== '' && n !== '.').slice(0, MAX_HOSTS);
    if (hosts.length === 0)
      return { status: 'not_applicable', words: 'no MX records: the domain takes no mail' };
    const seen: MxHostSeen[] = [];
    for (const host of hosts) {
      const found = await ctx.addresses(host);
      if (found.kind === 'unknown')
        return { status: 'unknown', words: `DNS could not say (${found.reason})` };
      if (found.kind === 'absent') {
        seen.push({
          host,
          address: null,
          reachable: false,
          error: `${host} has no address`,
          starttls: null,
          certificate: null,
        });
        continue;
      }
      // One dial per MX host and port a round, whatever number of domains name it: the certificate is
      // judged against the host's name, so what it answered holds for each of them.
      const address = found.values[0]!;
      seen.push(
        await ctx.shared(`${host}:${ctx.ports.smtp}`, async () => {
          await ctx.connection();
          return probeStarttls({
            host,
            address,
            port: ctx.ports.smtp,
            ehloName: (ctx.settings as z.infer<typeof settingsSchema>).ehloName,
            ca: ctx.ca,
            timeoutMs: ctx.timeoutMs,
            now: ctx.now,
          });
        }),
      );
    }
    const dialled = seen.filter((h) => h.address !== null);
    if (dialled.length > 0 && dialled.every((h) => !h.reachable)) {
      return {
        status: 'unknown',
        blocked: true,
        words: `port ${ctx.ports.smtp} could not be reached for any MX host (${dialled[0]!.error})`,
      };
    }
    return { status: 'checked', result: { hosts: seen } };
  },
  shown: {
    label: 'MX STARTTLS',
    text: (r) =>
      r.hosts
        .map(
          (h) =>
            `${h.host}: ${h.certificate ? `TLS, certificate until ${h.certificate.notAfter.slice(0, 10)}` : (h.error ?? 'no TLS')}`,
        )
        .join('; '),
    problems: (r) =>
      r.hosts.flatMap((h) => [
        ...(h.starttls === false ? [`${h.host} does not offer STARTTLS`] : []),
        ...(h.certificate && !h.certificate.valid ? [`${h.host}: ${h.certificate.problem}`] : []),
        ...(h.certificate?.valid && h.certificate.daysLeft <= 21
          ? [`${h.host}: certificate expires in ${h.certificate.daysLeft} days`]
          : []),
      ]),
    expiries: (r) =>
      r.hosts.flatMap((h) => (h.certificate ? [{ name: h.host, notAfter: h.certificate.notAfter }] : [])),
    details: (r) =>
      r.hosts.map((h) => ({
        label: h.host,
        text: [
          `${h.address ?? 'no address'}${h.reachable ? '' : ` — ${h.error}`}`,
          ...(h.starttls === null ? [] : [`STARTTLS ${h.starttls ? 'offered' : 'not offered'}`]),
          ...(h.certificate?.chain.map(
            (c) => `${c.subject} ← ${c.issuer} (until ${c.notAfter.slice(0, 10)})`,
          ) ?? []),
        ].join('\n'),
      })),
  },
  rules: {
    mxStarttlsMissing: {
      alerts: {
        mx_starttls_missing: {
          label: 'MX offers no STARTTLS',
          description:
            'An MX host answered EHLO without STARTTLS: mail to it travels unencrypted; ends when offered.',
          severity: 'warning',
          details: z.strictObject({ host: z.string(), stage: z.string() }),
        },
      },
      run: (_before: Reading, after: Reading, ctx) => {
        const d = ctx.domain;
        if (!d) return [];
        const found = hostConditions(after, d.fqdn, (h) =>
          h.starttls === false
            ? {
                severity: 'warning',
                title: `${h.host} (MX of ${d.fqdn}) offers no STARTTLS`,
                body: `The MX host ${h.host} of ${d.fqdn} answered EHLO without STARTTLS: mail to it travels unencrypted, and under MTA-STS enforce senders refuse it.`,
                details: { host: h.host, stage: '' },
              }
            : null,
        );
        return conditionEvents('mx_starttls_missing', `${d.fqdn}:`, found, ctx);
      },
    },
    mxCertificate: {
      alerts: {
        mx_certificate_invalid: {
          label: 'MX certificate not valid',
          description:
            'An MX host’s STARTTLS certificate does not validate for the MX name (MTA-STS enforce requires it); ends when it does.',
          severity: 'warning',
          details: z.strictObject({ host: z.string(), problem: z.string().nullable(), stage: z.string() }),
        },
        mx_certificate_expiring: {
          label: 'MX certificate expiring',
          description:
            'An MX host’s STARTTLS certificate expires within 21 days (within 7: critical); ends when renewed.',
          severity: 'warning',
          details: z.strictObject({
            host: z.string(),
            notAfter: z.string(),
            daysLeft: z.number(),
            stage: z.number(),
          }),
        },
      },
      run: (_before: Reading, after: Reading, ctx) => {
        const d = ctx.domain;
        if (!d) return [];
        const invalid = hostConditions(after, d.fqdn, (h) =>
          h.certificate && !h.certificate.valid
            ? {
                severity: 'warning',
                title: `Certificate of ${h.host} (MX of ${d.fqdn}) not valid`,
                body: `The STARTTLS certificate of ${h.host}: ${h.certificate.problem}. Senders that verify it (MTA-STS enforce, DANE) refuse to deliver there.`,
                details: { host: h.host, problem: h.certificate.problem, stage: '' },
              }
            : null,
        );
        const expiring = hostConditions(after, d.fqdn, (h) => {
          const stage = h.certificate?.valid ? expiryStage(h.certificate.daysLeft, [21, 7]) : null;
          return h.certificate && stage !== null
            ? {
                severity: stage === 7 ? 'critical' : 'warning',
                title: `Certificate of ${h.host} (MX of ${d.fqdn}) expires in ${h.certificate.daysLeft} days`,
                body: `The STARTTLS certificate of ${h.host} expires on ${h.certificate.notAfter.slice(0, 10)}.`,
                details: {
                  host: h.host,
                  notAfter: h.certificate.notAfter,
                  daysLeft: h.certificate.daysLeft,
                  stage,
                },
              }
            : null;
        });
        return [
          ...conditionEvents('mx_certificate_invalid', `${d.fqdn}:`, invalid, ctx),
          ...conditionEvents('mx_certificate_expiring', `${d.fqdn}:`, expiring, ctx),
        ];
      },
    },
  },
});
