/**
 * Guard scans: read what a domain publishes (the five protocol records at their DNS names and its MX),
 * judge each protocol (service/scan/protocolCheck.ts), detect the mail provider (mailProvider.ts), label the
 * result (resultLabel.ts) and store it all as one health snapshot (source guard_history).
 *
 * The scan also writes the DNS timeline:
 *   - an event for every protocol whose connection changed since the previous scan (connected ⇄
 *     disconnected); before the first scan every protocol counts as disconnected, so the first scan records a
 *     `connected` event for each record present;
 *   - a DMARC and an SPF record snapshot whenever the record's value differs from the last snapshot of that
 *     type (null when the record was removed; a domain that never published one gets none).
 * A lookup that fails (timeout, SERVFAIL) changes nothing: the protocol keeps its previous connection, pass
 * flag and value (status dns_error), so an outage never shows as a disconnection.
 *
 * DNS is read first (async); the comparison with the previous scan and every write then happen in one
 * synchronous transaction, so two overlapping scans of a domain cannot both record the same change.
 */
import type { ServiceContext } from '../http/operation.ts';
import { notFound } from '../http/serviceError.ts';
import { isVoidAnswer, type MxRecord } from '../../shared/email-auth/dns.ts';
import { PROTOCOLS, type Protocol } from '../../shared/email-auth/protocols.ts';
import { isConnected, isPassing, observeProtocol, type ProtocolObservation } from './protocolCheck.ts';
import { detectMailProvider, NO_PROVIDER, UNKNOWN_PROVIDER } from './mailProvider.ts';
import { resultLabel } from './resultLabel.ts';
import {
  insertDnsEvent,
  insertRecordSnapshot,
  insertSnapshot,
  latestRecordSnapshot,
  latestSnapshot,
  snapshotProtocols,
  type DnsEventRow,
  type ProtocolState,
  type SnapshotProtocolRow,
} from './scanStore.ts';

/** What one scan stored. */
export interface ScanOutcome {
  domain_id: number;
  fqdn: string;
  snapshot_id: number;
  result: string;
  mail_provider: string;
  protocols: Record<Protocol, boolean>;
  protocols_passing: number;
  /** Connect/disconnect events this scan recorded. */
  events: DnsEventRow[];
  /** DMARC/SPF record snapshots this scan recorded. */
  record_snapshots: number;
  scanned_at: string;
}

type ScanContext = Pick<ServiceContext, 'db' | 'resolver'>;

/** MX answer of the domain: the records, [] when it has none, null when the lookup failed. */
async function lookupMx(ctx: ScanContext, fqdn: string): Promise<MxRecord[] | null> {
  try {
    return await ctx.resolver(fqdn, 'MX');
  } catch (err) {
    return isVoidAnswer(err) ? [] : null;
  }
}

function stateOf(o: ProtocolObservation, previous: SnapshotProtocolRow | undefined): ProtocolState {
  if (o.status === 'dns_error') {
    return {
      connection: previous?.connection ?? 'disconnected',
      pass: previous?.pass === 1,
      status: 'dns_error',
      recordValue: previous?.record_value ?? null,
      lookupCount: previous?.lookup_count ?? (o.protocol === 'spf' ? 0 : null),
    };
  }
  return {
    connection: isConnected(o.status) ? 'connected' : 'disconnected',
    pass: isPassing(o.status),
    status: o.status,
    recordValue: o.recordValue,
    lookupCount: o.lookupCount,
  };
}

/** Scans domain `domainId` as of `at` and stores the outcome; 404 not_found when the domain does not exist. */
export async function scanDomain(ctx: ScanContext, domainId: number, at: Date): Promise<ScanOutcome> {
  const domain = ctx.db
    .prepare<[number], { id: number; fqdn: string }>('SELECT id, fqdn FROM domains WHERE id = ?')
    .get(domainId);
  if (!domain) throw notFound('Domain');
  const [observations, mx] = await Promise.all([
    Promise.all(PROTOCOLS.map((p) => observeProtocol(p, domain.fqdn, ctx.resolver))),
    lookupMx(ctx, domain.fqdn),
  ]);
  const scannedAt = at.toISOString();
  const { db } = ctx;

  return db.transaction((): ScanOutcome => {
    // The domain may have been deleted while DNS was being read.
    if (!db.prepare('SELECT 1 FROM domains WHERE id = ?').get(domainId)) throw notFound('Domain');
    const previous = latestSnapshot(db, domainId);
    const before = previous ? snapshotProtocols(db, previous.id) : new Map<Protocol, SnapshotProtocolRow>();
    const states = {} as Record<Protocol, ProtocolState>;
    for (const o of observations) states[o.protocol] = stateOf(o, before.get(o.protocol));
    const passing = Object.fromEntries(PROTOCOLS.map((p) => [p, states[p].pass])) as Record<
      Protocol,
      boolean
    >;
    const mailProvider =
      mx === null
        ? (previous?.mail_provider ?? UNKNOWN_PROVIDER)
        : mx.length
          ? detectMailProvider(mx)
          : NO_PROVIDER;
    const result = resultLabel(passing, states.dmarc.recordValue);
    const snapshotId = insertSnapshot(db, { domainId, result, mailProvider, protocols: states, scannedAt });

    const events: DnsEventRow[] = [];
    for (const p of PROTOCOLS) {
      const was = before.get(p)?.connection ?? 'disconnected';
      const now = states[p].connection;
      if (was === now) continue;
      events.push(
        insertDnsEvent(db, {
          domain_id: domainId,
          record_type: p,
          action: now,
          record_value: now === 'connected' ? states[p].recordValue : null,
          status_before: was,
          status_after: now,
          occurred_at: scannedAt,
        }),
      );
    }

    let recordSnapshots = 0;
    for (const type of ['dmarc', 'spf'] as const) {
      const state = states[type];
      if (state.status === 'dns_error') continue;
      const last = latestRecordSnapshot(db, domainId, type);
      if ((last?.record_value ?? null) === state.recordValue) continue;
      insertRecordSnapshot(db, {
        domain_id: domainId,
        record_type: type,
        record_value: state.recordValue,
        lookup_count: type === 'spf' ? (state.lookupCount ?? 0) : null,
        occurred_at: scannedAt,
      });
      recordSnapshots++;
    }

    return {
      domain_id: domainId,
      fqdn: domain.fqdn,
      snapshot_id: snapshotId,
      result,
      mail_provider: mailProvider,
      protocols: passing,
      protocols_passing: PROTOCOLS.filter((p) => passing[p]).length,
      events,
      record_snapshots: recordSnapshots,
      scanned_at: scannedAt,
    };
  })();
}

/**
 * Scans every domain of the service (all teams), one after the other so DNS is not flooded; domains deleted
 * while the scan runs are skipped.
 */
export async function scanAll(ctx: ScanContext, at: Date): Promise<ScanOutcome[]> {
  const ids = ctx.db
    .prepare<[], { id: number }>('SELECT id FROM domains ORDER BY id')
    .all()
    .map((r) => r.id);
  const outcomes: ScanOutcome[] = [];
  for (const id of ids) {
    try {
      outcomes.push(await scanDomain(ctx, id, at));
    } catch (err) {
      if ((err as { code?: string }).code !== 'not_found') throw err;
    }
  }
  return outcomes;
}
