/**
 * Hosted SPF (tables hosted_spf, spf_includes, spf_ip_actions): the record is built from the IP actions
 * (Reject first as -ip4/-ip6, then Allow as ip4/ip6), the includes in the order added and the terminal all,
 * with shared/email-auth/hostedSpf.ts; it is served at `<fqdn>.spf.hosted.authwatch.example` and the customer
 * publishes `v=spf1 include:<that name> <all>` at the domain.
 */
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import { flattenSpf, type SpfFlattenResult } from '../../shared/email-auth/spfFlatten.ts';
import {
  buildHostedSpfRecord,
  hostedSpfRecordToPublish,
  type SpfComposition,
} from '../../shared/email-auth/hostedSpf.ts';
import type { SpfAll } from '../../shared/email-auth/spfRecord.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { validationError } from '../http/serviceError.ts';
import { withTxtOverride } from './overlayResolver.ts';
import { hostedRecordName, publishHostedTxt } from './serviceDns.ts';

/** A hosted_spf row. */
export interface HostedSpfRow {
  domain_id: number;
  enabled: number;
  all_qualifier: SpfAll;
  value: string;
  created_at: string;
  updated_at: string;
}

/** A spf_includes row (schema SpfInclude). */
export interface SpfIncludeRow {
  id: number;
  include_content: string;
  lookup_count: number | null;
  created_at: string;
}

/** A spf_ip_actions row (schema SpfIpAction). */
export interface SpfIpActionRow {
  id: number;
  ip: string;
  type: 'Allow' | 'Reject';
  created_at: string;
}

/** The terminal all of a newly provisioned record when neither the body nor the live record gives one. */
export const DEFAULT_SPF_ALL: SpfAll = '~all';

/** Loads the hosted SPF configuration, if provisioned. */
export function loadHostedSpf(db: ServiceDb, domainId: number): HostedSpfRow | undefined {
  return db.prepare<[number], HostedSpfRow>('SELECT * FROM hosted_spf WHERE domain_id = ?').get(domainId);
}

/** Includes in the order they were added. */
export function listIncludes(db: ServiceDb, domainId: number): SpfIncludeRow[] {
  return db
    .prepare<[number], SpfIncludeRow>(
      'SELECT id, include_content, lookup_count, created_at FROM spf_includes WHERE domain_id = ? ORDER BY id',
    )
    .all(domainId);
}

/** IP actions in the order they were added. */
export function listIpActions(db: ServiceDb, domainId: number): SpfIpActionRow[] {
  return db
    .prepare<[number], SpfIpActionRow>(
      'SELECT id, ip, type, created_at FROM spf_ip_actions WHERE domain_id = ? ORDER BY id',
    )
    .all(domainId);
}

/** What the hosted record is made of (shared/email-auth/hostedSpf.ts builds it). */
export type { SpfComposition };

/** The composition stored for a domain. */
export function compositionOf(db: ServiceDb, row: HostedSpfRow): SpfComposition {
  return {
    all: row.all_qualifier,
    includes: listIncludes(db, row.domain_id).map((i) => i.include_content),
    ipActions: listIpActions(db, row.domain_id),
  };
}

/**
 * Builds the hosted record of a composition; a composition receivers would reject (more than 10
 * DNS-querying terms in the record itself, a bad term) is a 422 on `field`.
 */
export function buildHostedSpfValue(c: SpfComposition, field = 'body'): string {
  const built = buildHostedSpfRecord(c);
  if (!built.ok || built.value === null) {
    throw validationError(
      built.errors.map((e) => ({ field, message: e.message })),
      'The hosted SPF record would be invalid.',
    );
  }
  return built.value;
}

/** Rebuilds the record from the stored composition, saves and publishes it; returns the new row. */
export function republishHostedSpf(
  db: ServiceDb,
  domain: { id: number; fqdn: string },
  now: Date,
  field = 'body',
): HostedSpfRow {
  const row = loadHostedSpf(db, domain.id)!;
  const value = buildHostedSpfValue(compositionOf(db, row), field);
  db.prepare('UPDATE hosted_spf SET value = ?, updated_at = ? WHERE domain_id = ?').run(
    value,
    now.toISOString(),
    domain.id,
  );
  publishHostedTxt(db, hostedRecordName('spf', domain.fqdn), value, now);
  return loadHostedSpf(db, domain.id)!;
}

/** Resolves the hosted record (or `draft`) recursively through `resolve`, as receivers would. */
export function flattenHosted(fqdn: string, value: string, resolve: DnsResolve): Promise<SpfFlattenResult> {
  const name = hostedRecordName('spf', fqdn);
  return flattenSpf(name, withTxtOverride(resolve, name, value));
}

/** The record the customer publishes at the domain. */
export function recordToPublish(fqdn: string, all: SpfAll): string {
  return hostedSpfRecordToPublish(hostedRecordName('spf', fqdn), all);
}

/** The HostedSpf API object; `lookupCount` comes from resolving the hosted record. */
export function presentHostedSpf(
  db: ServiceDb,
  row: HostedSpfRow,
  fqdn: string,
  lookupCount: number,
): Record<string, unknown> {
  return {
    domain_id: row.domain_id,
    enabled: row.enabled === 1,
    hosted_record_name: hostedRecordName('spf', fqdn),
    hosted_record_value: row.value,
    record_to_publish: recordToPublish(fqdn, row.all_qualifier),
    all: row.all_qualifier,
    lookup_count: lookupCount,
    lookup_limit: 10,
    includes: listIncludes(db, row.domain_id),
    ip_actions: listIpActions(db, row.domain_id),
    updated_at: row.updated_at,
  };
}
