/**
 * What the demo world publishes in the sandbox DNS zone (dns_records, through service/dns/sandboxZone.ts):
 *   - the senders' side: SPF include trees (ip4/ip6 ranges, so SPF flattening works offline) and
 *     forward-confirmed reverse DNS (PTR + A) for every sending address, each under its own narrow zone apex
 *     (`10.18.198.in-addr.arpa`, `google.example`, the PTR host name itself) so the sandbox claims no name
 *     beyond the ones it holds;
 *   - each Acme domain's own records: MX (or a null MX), A records its SPF `a` term and own MX hosts need,
 *     DKIM keys of the senders that sign for it, and the protocol records it publishes itself (the hosted ones
 *     are provisioned through the service's operations and delegated by CNAME, see ./history.ts).
 */
import { buildDmarcRecord } from '../../shared/email-auth/dmarcRecord.ts';
import { recordName } from '../../shared/email-auth/protocols.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { writeZoneRecords } from '../dns/sandboxZone.ts';
import { DMARC_REPORTING_ADDRESS, TLS_RPT_REPORTING_ADDRESS } from '../hosted/serviceDns.ts';
import type { DmarcPlan, DomainPlan, InboundMail, SpfPlan } from './portfolio.ts';
import type { Prng } from './prng.ts';
import { SENDERS, SENDER_KEYS, ptrName, reverseName, senderAddresses } from './senders.ts';

/** The registrable apex of a name under a single-label TLD (`_spf.google.example` → `google.example`). */
function apexOf(name: string): string {
  return name.split('.').slice(-2).join('.');
}

function txt(db: ServiceDb, zone: string, name: string, values: string[], now: Date): void {
  writeZoneRecords(db, { zone, name, rrtype: 'TXT', values, now });
}

/** Publishes the senders' SPF trees and the PTR names of their addresses. */
export function publishSenderWorld(db: ServiceDb, prng: Prng, now: Date): void {
  for (const key of SENDER_KEYS) {
    const sender = SENDERS[key];
    for (const [name, record] of Object.entries(sender.spfRecords))
      txt(db, apexOf(name), name, [record], now);
    const names = prng.fork(`ptr:${key}`);
    senderAddresses(sender).forEach((ip, i) => {
      const ptr = ptrName(sender, i, names);
      if (ptr === null) return;
      const reverse = reverseName(ip);
      writeZoneRecords(db, {
        zone: reverse.split('.').slice(1).join('.'),
        name: reverse,
        rrtype: 'PTR',
        values: [ptr],
        now,
      });
      // Forward-confirmed reverse DNS: ingestion trusts a PTR name only when it resolves back to the address.
      // The zone apex is the host name itself, so the sandbox claims nothing but that one name.
      writeZoneRecords(db, { zone: ptr, name: ptr, rrtype: 'A', values: [ip], now });
    });
  }
}

/** The MX records (as stored: "priority exchange") of an inbound choice. */
export function mxValues(fqdn: string, inbound: InboundMail): string[] {
  switch (inbound) {
    case 'google':
      return [
        '1 aspmx.l.google.com',
        '5 alt1.aspmx.l.google.com',
        '5 alt2.aspmx.l.google.com',
        '10 alt3.aspmx.l.google.com',
        '10 alt4.aspmx.l.google.com',
      ];
    case 'microsoft':
      return [`0 ${fqdn.replace(/\./g, '-')}.mail.protection.outlook.com`];
    case 'own':
      return [`10 mx1.${fqdn}`, `20 mx2.${fqdn}`];
    case 'null-mx':
      // RFC 7505: the domain accepts no mail.
      return ['0 .'];
    case 'none':
      return [];
  }
}

/** Publishes the domain's MX records. */
export function publishInbound(db: ServiceDb, fqdn: string, inbound: InboundMail, now: Date): void {
  writeZoneRecords(db, { zone: fqdn, name: fqdn, rrtype: 'MX', values: mxValues(fqdn, inbound), now });
  if (inbound === 'own') {
    ['mx1', 'mx2'].forEach((host, i) =>
      writeZoneRecords(db, {
        zone: fqdn,
        name: `${host}.${fqdn}`,
        rrtype: 'A',
        values: [`198.18.200.${20 + i}`],
        now,
      }),
    );
  }
}

/** Publishes what every domain has regardless of its protocols: web A record, MX, DKIM keys of its senders. */
export function publishDomainBase(db: ServiceDb, plan: DomainPlan, prng: Prng, now: Date): void {
  const { fqdn } = plan;
  writeZoneRecords(db, { zone: fqdn, name: fqdn, rrtype: 'A', values: ['198.18.200.10'], now });
  publishInbound(db, fqdn, plan.inbound, now);
  const keys = prng.fork(`dkim:${fqdn}`);
  for (const use of plan.senders) {
    if (use.dkimAligned <= 0) continue;
    const sender = SENDERS[use.sender];
    const key = Buffer.from(Array.from({ length: 270 }, () => keys.int(0, 255))).toString('base64');
    txt(db, fqdn, `${sender.dkimSelector}._domainkey.${fqdn}`, [`v=DKIM1; k=rsa; p=${key}`], now);
  }
}

/** The SPF record of a plan: own terms, the senders' includes, the terminal all. */
export function spfValue(spf: SpfPlan): string {
  const includes = spf.includes.map((k) => `include:${SENDERS[k].spfInclude}`);
  return ['v=spf1', ...(spf.extra ?? []), ...includes, spf.all].join(' ');
}

/** RFC 7208 §4.6.4: DNS-querying terms a receiver evaluates at most. */
export const SPF_LOOKUP_LIMIT = 10;

function includeCost(name: string, records: Readonly<Record<string, string>>): number {
  const nested = (records[name] ?? '').split(' ').filter((t) => t.startsWith('include:'));
  return 1 + nested.reduce((n, t) => n + includeCost(t.slice('include:'.length), records), 0);
}

/** DNS lookups a receiver spends on a plan's SPF record (its a/mx terms and every include, nested). */
export function spfLookupCount(spf: SpfPlan): number {
  const own = (spf.extra ?? []).filter((t) => /^[+~?-]?(a|mx)\b/.test(t)).length;
  return spf.includes.reduce((n, k) => {
    const sender = SENDERS[k];
    return sender.spfInclude === null ? n : n + includeCost(sender.spfInclude, sender.spfRecords);
  }, own);
}

/** The DMARC record a domain publishes itself (reports go to the service). */
export function dmarcValue(dmarc: Omit<DmarcPlan, 'hosting'>): string {
  return buildDmarcRecord({
    v: 'DMARC1',
    p: dmarc.p,
    ...(dmarc.sp === undefined ? {} : { sp: dmarc.sp }),
    ...(dmarc.pct === undefined ? {} : { pct: dmarc.pct }),
    ...(dmarc.adkim === undefined ? {} : { adkim: dmarc.adkim }),
    ...(dmarc.aspf === undefined ? {} : { aspf: dmarc.aspf }),
    rua: [`mailto:${DMARC_REPORTING_ADDRESS}`],
    ...(dmarc.fo === undefined ? {} : { fo: dmarc.fo.split(':') }),
  });
}

/** The TLS-RPT record a domain publishes itself. */
export function tlsRptValue(): string {
  return `v=TLSRPTv1; rua=mailto:${TLS_RPT_REPORTING_ADDRESS}`;
}

/** Publishes (value) or removes (null) the domain's own SPF record, leaving its other apex TXT records. */
export function publishOwnSpf(db: ServiceDb, fqdn: string, value: string | null, now: Date): void {
  writeZoneRecords(db, {
    zone: fqdn,
    name: fqdn,
    rrtype: 'TXT',
    values: value === null ? [] : [value],
    replaces: (v) => /^v=spf1(\s|$)/i.test(v),
    now,
  });
}

/** Publishes (value) or removes (null) a record the domain serves itself at the protocol's TXT name. */
export function publishOwnRecord(
  db: ServiceDb,
  fqdn: string,
  protocol: 'dmarc' | 'tls_rpt',
  value: string | null,
  now: Date,
): void {
  txt(db, fqdn, recordName(protocol, fqdn), value === null ? [] : [value], now);
}
