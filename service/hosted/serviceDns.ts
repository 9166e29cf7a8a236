/**
 * Where the service serves hosted records, and how a customer's domain points at them.
 *
 * The model (as hosted-DMARC/MTA-STS providers work): the service publishes each hosted record in its OWN
 * zone, `hosted.authwatch.example`, at a name derived from the customer's domain; the customer delegates once
 * with a CNAME at the protocol's name (`_dmarc.<fqdn>` → `<fqdn>.dmarc.hosted.authwatch.example`). From then
 * on every change the owner makes through the API is what receivers (and a guard scan through the service's
 * resolver) see, because the sandbox zone follows CNAMEs like a recursive resolver. SPF cannot be delegated by
 * CNAME at the apex: the customer publishes `v=spf1 include:<hosted name> <all>` instead.
 *
 * In the sandbox the service's zone lives in the same `dns_records` table as the customers' zones; the
 * customer-side CNAME is written by the sandbox control PUT /_sandbox/delegations/{fqdn}/{protocol}
 * (service/sandbox/delegations.ts) or by a test.
 */
import type { Protocol } from '../../shared/email-auth/protocols.ts';
import { normalizeDomain, recordName } from '../../shared/email-auth/protocols.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { writeZoneRecords } from '../dns/sandboxZone.ts';

/** The service's own DNS zone holding every hosted record. */
export const HOSTED_ZONE = 'hosted.authwatch.example';

/** Host that serves every hosted MTA-STS policy file (mta-sts.<fqdn> is CNAMEd to it). */
export const MTA_STS_POLICY_HOST = `mta-sts.${HOSTED_ZONE}`;
/** Address of that host in the sandbox (TEST-NET-1, RFC 5737). */
export const MTA_STS_POLICY_HOST_ADDRESS = '192.0.2.25';

/** Host that serves hosted BIMI logos and certificates. */
export const BIMI_FILE_HOST = `bimi.${HOSTED_ZONE}`;

/** Address that receives DMARC aggregate reports for hosted records. */
export const DMARC_REPORTING_ADDRESS = 'rua@reports.authwatch.example';
/** Address that receives TLS reports for hosted records. */
export const TLS_RPT_REPORTING_ADDRESS = 'tls-rpt@reports.authwatch.example';

const LABEL: Record<Protocol, string> = {
  dmarc: 'dmarc',
  spf: 'spf',
  mta_sts: 'mta-sts',
  tls_rpt: 'tls-rpt',
  bimi: 'bimi',
};

/** The TXT name the service publishes `protocol`'s hosted record at, e.g. `example.com.dmarc.hosted.authwatch.example`. */
export function hostedRecordName(protocol: Protocol, fqdn: string, bimiSelector = 'default'): string {
  const d = normalizeDomain(fqdn);
  const base = `${d}.${LABEL[protocol]}.${HOSTED_ZONE}`;
  return protocol === 'bimi' ? `${bimiSelector.toLowerCase()}.${base}` : base;
}

/** A DNS record in the API's `DnsRecord` shape. */
export interface DnsRecordView {
  type: string;
  name: string;
  value: string;
  ttl: number | null;
}

const TTL = 3600;

/**
 * The CNAME the customer publishes so that `protocol`'s record is served by the service
 * (not for SPF, which is delegated by an include).
 */
export function delegationRecord(
  protocol: Exclude<Protocol, 'spf'>,
  fqdn: string,
  bimiSelector = 'default',
): DnsRecordView {
  return {
    type: 'CNAME',
    name: recordName(protocol, fqdn, bimiSelector),
    value: hostedRecordName(protocol, fqdn, bimiSelector),
    ttl: TTL,
  };
}

/** The hosted TXT record as the API shows it. */
export function hostedTxtView(name: string, value: string): DnsRecordView {
  return { type: 'TXT', name, value, ttl: TTL };
}

/** Publishes (value) or withdraws (null) a hosted TXT record in the service's zone. */
export function publishHostedTxt(db: ServiceDb, name: string, value: string | null, now: Date): void {
  writeZoneRecords(db, {
    zone: HOSTED_ZONE,
    name,
    rrtype: 'TXT',
    values: value === null ? [] : [value],
    now,
  });
}

/** Makes sure the MTA-STS policy host answers in the sandbox zone (idempotent). */
export function ensurePolicyHost(db: ServiceDb, now: Date): void {
  const has = db
    .prepare<[string], { one: number }>("SELECT 1 AS one FROM dns_records WHERE name = ? AND rrtype = 'A'")
    .get(MTA_STS_POLICY_HOST);
  if (!has) {
    writeZoneRecords(db, {
      zone: HOSTED_ZONE,
      name: MTA_STS_POLICY_HOST,
      rrtype: 'A',
      values: [MTA_STS_POLICY_HOST_ADDRESS],
      now,
    });
  }
}

/** The CNAME the customer publishes for the MTA-STS policy host (`mta-sts.<fqdn>` → the service's host). */
export function policyHostDelegation(fqdn: string): DnsRecordView {
  return { type: 'CNAME', name: `mta-sts.${normalizeDomain(fqdn)}`, value: MTA_STS_POLICY_HOST, ttl: TTL };
}

/**
 * Sandbox only: writes (or with `delegated` false removes) the customer-side CNAMEs that point `protocol` of
 * `fqdn` at the service, as the customer would in their own DNS. For mta_sts both `_mta-sts` and the policy
 * host `mta-sts` are delegated. For spf, the apex SPF record becomes `v=spf1 include:<hosted> <all>`.
 */
export function writeCustomerDelegation(
  db: ServiceDb,
  options: {
    fqdn: string;
    protocol: Protocol;
    delegated: boolean;
    now: Date;
    bimiSelector?: string;
    spfAll?: string;
  },
): DnsRecordView[] {
  const fqdn = normalizeDomain(options.fqdn);
  const { now } = options;
  if (options.protocol === 'spf') {
    const value = `v=spf1 include:${hostedRecordName('spf', fqdn)} ${options.spfAll ?? '~all'}`;
    writeZoneRecords(db, {
      zone: fqdn,
      name: fqdn,
      rrtype: 'TXT',
      values: options.delegated ? [value] : [],
      replaces: (v) => /^v=spf1(\s|$)/i.test(v),
      now,
    });
    return options.delegated ? [{ type: 'TXT', name: fqdn, value, ttl: TTL }] : [];
  }
  const records = [delegationRecord(options.protocol, fqdn, options.bimiSelector)];
  if (options.protocol === 'mta_sts') {
    records.push(policyHostDelegation(fqdn));
    ensurePolicyHost(db, now);
  }
  for (const r of records) {
    // A name holding a CNAME holds nothing else: the customer's own TXT there is replaced.
    writeZoneRecords(db, { zone: fqdn, name: r.name, rrtype: 'TXT', values: [], now });
    writeZoneRecords(db, {
      zone: fqdn,
      name: r.name,
      rrtype: 'CNAME',
      values: options.delegated ? [r.value] : [],
      now,
    });
  }
  return options.delegated ? records : [];
}
