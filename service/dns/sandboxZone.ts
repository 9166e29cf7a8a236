/**
 * The sandbox DNS zone: the `dns_records` table served as a `DnsResolve`.
 *
 * Names are compared lower-cased without a trailing dot. TXT values are stored as one string and answered
 * as one record split into 255-character strings ([[value]] when short); MX values are stored as
 * "priority exchange". A name with no records of the asked type answers ENODATA when it exists in the zone
 * (it holds other records, has records below it, or is a zone apex / registered domain), ENOTFOUND otherwise.
 * A name holding a CNAME answers other types from the CNAME's target (up to 8 hops), as a recursive resolver does.
 */
import type { DnsRecordType, DnsResolve, MxRecord } from '../../shared/email-auth/dns.ts';
import { DnsError } from '../../shared/email-auth/dns.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';

/** Lower-case, trimmed, without trailing dot. */
export function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

/** Splits a TXT value into DNS character-strings of at most 255 characters. */
export function txtStrings(value: string): string[] {
  if (value.length <= 255) return [value];
  const chunks: string[] = [];
  for (let i = 0; i < value.length; i += 255) chunks.push(value.slice(i, i + 255));
  return chunks;
}

/** Parses a stored MX value "10 mx1.example.com". */
export function parseMx(value: string): MxRecord {
  const [priority, exchange] = value.trim().split(/\s+/);
  return { priority: Number(priority), exchange: normalizeName(exchange ?? '') };
}

/** `name` and each name above it, longest first ("a.b.c", "b.c", "c"): every apex that could hold it. */
function nameAndAbove(name: string): string[] {
  const out = [name];
  for (let i = name.indexOf('.'); i !== -1; i = name.indexOf('.', i + 1)) out.push(name.slice(i + 1));
  return out;
}

/**
 * The longest zone apex (a sandbox zone or a domain registered in the service) at or above `name`, or null.
 * One indexed equality lookup per label of the name: a question never scans the zone, which at 5,000
 * domains made the reference world's DNS server, not the app, what limited a live-check round.
 */
export function zoneApexOf(db: ServiceDb, rawName: string): string | null {
  const isApex = db.prepare<{ name: string }, { one: number }>(
    `SELECT 1 AS one FROM dns_records WHERE zone = @name
     UNION ALL SELECT 1 FROM domains WHERE fqdn = @name
     LIMIT 1`,
  );
  for (const name of nameAndAbove(normalizeName(rawName))) if (isApex.get({ name })) return name;
  return null;
}

/**
 * True when the zone is authoritative for `name`: records at it, or it is at/under a zone apex used by the
 * sandbox, or at/under a domain registered in the service (of any team).
 */
export function zoneOwns(db: ServiceDb, rawName: string): boolean {
  const name = normalizeName(rawName);
  const atName = db
    .prepare<[string], { one: number }>('SELECT 1 AS one FROM dns_records WHERE name = ? LIMIT 1')
    .get(name);
  return atName !== undefined || zoneApexOf(db, name) !== null;
}

/** Per database: every name that has records below it, and the zone's version it was read at. */
const namesWithRecordsBelow = new WeakMap<ServiceDb, { version: number; names: Set<string> }>();

/**
 * Whether some record is named below `name`. A suffix match has no index, so the names above every record
 * are kept in memory and read again whenever the zone changed since (`dns_records_version`, bumped by
 * triggers on every write, from any process): what a query sees is still the table as it is now.
 */
function recordsBelow(db: ServiceDb, name: string): boolean {
  const version = db
    .prepare<[], { version: number }>('SELECT version FROM dns_records_version WHERE id = 1')
    .get()!.version;
  let known = namesWithRecordsBelow.get(db);
  if (known?.version !== version) {
    const names = new Set<string>();
    for (const row of db.prepare<[], { name: string }>('SELECT DISTINCT name FROM dns_records').all())
      for (const above of nameAndAbove(row.name).slice(1)) names.add(above);
    namesWithRecordsBelow.set(db, (known = { version, names }));
  }
  return known.names.has(name);
}

/** True when `name` exists in the zone (records at or below it, a zone apex or a registered domain). */
export function nameExists(db: ServiceDb, name: string): boolean {
  const hit = db
    .prepare<{ name: string }, { one: number }>(
      `SELECT 1 AS one FROM dns_records WHERE name = @name
       UNION ALL SELECT 1 FROM dns_records WHERE zone = @name
       UNION ALL SELECT 1 FROM domains WHERE fqdn = @name
       LIMIT 1`,
    )
    .get({ name });
  return hit !== undefined || recordsBelow(db, name);
}

const MAX_CNAME_HOPS = 8;

/** A resolver answering from `dns_records`; CNAMEs are followed for other types, as resolvers do. */
export function createSandboxZoneResolver(db: ServiceDb): DnsResolve {
  const select = db.prepare<[string, string], { value: string }>(
    'SELECT value FROM dns_records WHERE name = ? AND rrtype = ? ORDER BY id',
  );
  const resolve = async (rawName: string, rrtype: DnsRecordType) => {
    let name = normalizeName(rawName);
    let values = select.all(name, rrtype).map((r) => r.value);
    // Like a recursive resolver, follow CNAMEs (a few hops): customers delegate _dmarc, _mta-sts, _smtp._tls
    // and <selector>._bimi to the service's hosted names this way (service/hosted/serviceDns.ts).
    for (let hop = 0; values.length === 0 && rrtype !== 'CNAME' && hop < MAX_CNAME_HOPS; hop++) {
      const target = select.all(name, 'CNAME')[0]?.value;
      if (target === undefined) break;
      name = normalizeName(target);
      values = select.all(name, rrtype).map((r) => r.value);
    }
    if (values.length === 0) {
      throw new DnsError(nameExists(db, name) ? 'ENODATA' : 'ENOTFOUND', rawName, rrtype);
    }
    if (rrtype === 'TXT') return values.map(txtStrings);
    if (rrtype === 'MX') return values.map(parseMx);
    return values;
  };
  return resolve as DnsResolve;
}

/** One stored record set change: replaces the records of (name, rrtype) that `replaces` selects. */
export interface ZoneWrite {
  /** Apex the records are published under (the zone is authoritative at and below it). */
  zone: string;
  name: string;
  rrtype: DnsRecordType;
  /** New values (empty: only delete). */
  values: string[];
  /** Which existing values of (name, rrtype) are replaced; default all. */
  replaces?: (value: string) => boolean;
  now: Date;
}

/** Writes a record set into the sandbox zone (one transaction). */
export function writeZoneRecords(db: ServiceDb, w: ZoneWrite): void {
  const name = normalizeName(w.name);
  const zone = normalizeName(w.zone);
  const existing = db
    .prepare<[string, string], { id: number; value: string }>(
      'SELECT id, value FROM dns_records WHERE name = ? AND rrtype = ?',
    )
    .all(name, w.rrtype);
  db.transaction(() => {
    const del = db.prepare('DELETE FROM dns_records WHERE id = ?');
    for (const row of existing) if (!w.replaces || w.replaces(row.value)) del.run(row.id);
    const insert = db.prepare(
      'INSERT INTO dns_records (zone, name, rrtype, value, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    for (const value of w.values) insert.run(zone, name, w.rrtype, value, w.now.toISOString());
  })();
}
