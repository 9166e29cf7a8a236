/**
 * Shared set-up of the guard-scan suites (scan, health, score, dnsTimeline): domains registered straight in
 * the database (the domain operations are not needed to scan), records published through the sandbox DNS
 * control, scans run through POST /_sandbox/scan at the harness clock.
 */
import { insertDomain } from '../../support/ownerWorld.ts';
import type { ServiceHarness } from '../../support/serviceHarness.ts';

/** Records that pass every protocol's checks. */
export const GOOD = {
  dmarc: 'v=DMARC1; p=reject; rua=mailto:dmarc@reports.example',
  spf: 'v=spf1 ip4:192.0.2.0/24 -all',
  mta_sts: 'v=STSv1; id=20260601000000',
  tls_rpt: 'v=TLSRPTv1; rua=mailto:tlsrpt@reports.example',
  bimi: 'v=BIMI1; l=https://brand.example/logo.svg; a=https://brand.example/vmc.pem',
  mx: '10 aspmx.l.google.com, 20 alt1.aspmx.l.google.com',
} as const;

export type RecordKind = keyof typeof GOOD;

/** Registers `fqdn` in team `teamId` (default: the demo team); returns the domain id. */
export function addDomain(svc: ServiceHarness, fqdn: string, teamId = svc.seed!.teamId): number {
  return insertDomain(svc, teamId, fqdn);
}

/** Creates another account (team) through the sandbox; returns its team id. */
export async function addTeam(svc: ServiceHarness, name: string): Promise<number> {
  const res = await svc.sandbox('POST', '/accounts', { name, plan: 'suite' });
  if (res.status !== 201) throw new Error(`account creation failed: ${JSON.stringify(res.body)}`);
  return res.body.data.team_id as number;
}

/** Publishes (or with null removes) one record of `fqdn` in the sandbox zone. */
export async function publish(
  svc: ServiceHarness,
  fqdn: string,
  kind: RecordKind,
  value: string | null,
): Promise<void> {
  const res = await svc.sandbox('PUT', `/dns/${fqdn}/${kind}`, { value });
  if (res.status !== 200) throw new Error(`publishing ${kind} failed: ${JSON.stringify(res.body)}`);
}

/** Publishes every record of GOOD (overridable per kind; null leaves a kind unpublished). */
export async function publishAll(
  svc: ServiceHarness,
  fqdn: string,
  overrides: Partial<Record<RecordKind, string | null>> = {},
): Promise<void> {
  for (const kind of Object.keys(GOOD) as RecordKind[]) {
    const value = kind in overrides ? overrides[kind]! : GOOD[kind];
    if (value !== null) await publish(svc, fqdn, kind, value);
  }
}

/** What POST /_sandbox/scan reports per domain. */
export interface ScanReport {
  domain_id: number;
  fqdn: string;
  snapshot_id: number;
  result: string;
  mail_provider: string;
  protocols: Record<string, boolean>;
  protocols_passing: number;
  events: { record_type: string; action: string; record_value: string | null }[];
  record_snapshots: number;
  scanned_at: string;
}

/** Scans one domain now (at `at` when given: the harness clock is moved there first). */
export async function scan(svc: ServiceHarness, domainId: number, at?: string): Promise<ScanReport> {
  if (at) svc.clock.set(at);
  const res = await svc.sandbox('POST', '/scan', { domain_id: domainId });
  if (res.status !== 200) throw new Error(`scan failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.scans[0] as ScanReport;
}
