/**
 * Hosted MTA-STS policy (table mta_sts_policies): stored as mode/max_age/mx, served as the RFC 8461 policy
 * file (CRLF lines) by the service's policy host, and announced by `v=STSv1; id=<policy id>` at
 * `<fqdn>.mta-sts.hosted.authwatch.example` (the customer CNAMEs `_mta-sts.<fqdn>` there and
 * `mta-sts.<fqdn>` to the policy host). The policy id changes whenever the policy text changes.
 */
import {
  buildMtaStsRecord,
  formatMtaStsPolicy,
  type MtaStsMode,
  type MtaStsPolicy,
} from '../../shared/email-auth/mtaStsPolicy.ts';
import { defaultMtaStsPolicy, mtaStsPolicyIdAfter } from '../../shared/email-auth/hostedMtaSts.ts';
import { mtaStsPolicyUrl } from '../../shared/email-auth/protocols.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import {
  delegationRecord,
  ensurePolicyHost,
  hostedRecordName,
  hostedTxtView,
  MTA_STS_POLICY_HOST,
  MTA_STS_POLICY_HOST_ADDRESS,
  policyHostDelegation,
  publishHostedTxt,
} from '../hosted/serviceDns.ts';

/** A mta_sts_policies row. */
export interface MtaStsRow {
  domain_id: number;
  enabled: number;
  mode: MtaStsMode;
  max_age: number;
  mx: string;
  policy_id: string;
  last_check: string | null;
  last_checked_at: string | null;
  in_sync: number | null;
  created_at: string;
  updated_at: string;
}

/** Loads the domain's policy, if MTA-STS is provisioned. */
export function loadMtaSts(db: ServiceDb, domainId: number): MtaStsRow | undefined {
  return db.prepare<[number], MtaStsRow>('SELECT * FROM mta_sts_policies WHERE domain_id = ?').get(domainId);
}

/** The stored policy. */
export function policyOf(row: MtaStsRow): MtaStsPolicy {
  return { version: 'STSv1', mode: row.mode, max_age: row.max_age, mx: JSON.parse(row.mx) as string[] };
}

/** The default policy of setup and reset: mode none, the given MX hosts, max_age one week. */
export const defaultPolicy = defaultMtaStsPolicy;

/**
 * Stores `policy` (creating the row when needed) and publishes it. The id changes only when the served
 * file changes. Returns the stored row.
 */
export function savePolicy(
  db: ServiceDb,
  domain: { id: number; fqdn: string },
  policy: MtaStsPolicy,
  now: Date,
): MtaStsRow {
  const current = loadMtaSts(db, domain.id);
  const id = mtaStsPolicyIdAfter(
    current ? { policy: policyOf(current), id: current.policy_id } : null,
    policy,
    now,
  );
  const at = now.toISOString();
  db.prepare(
    `INSERT INTO mta_sts_policies (domain_id, enabled, mode, max_age, mx, policy_id, created_at, updated_at)
     VALUES (@domain_id, 1, @mode, @max_age, @mx, @id, @at, @at)
     ON CONFLICT (domain_id) DO UPDATE SET enabled = 1, mode = @mode, max_age = @max_age, mx = @mx,
       policy_id = @id, updated_at = @at`,
  ).run({
    domain_id: domain.id,
    mode: policy.mode,
    max_age: policy.max_age,
    mx: JSON.stringify(policy.mx),
    id,
    at,
  });
  publishPolicy(db, domain.fqdn, id, now);
  return loadMtaSts(db, domain.id)!;
}

/** (Re)publishes the `_mta-sts` TXT record in the service's zone and makes sure the policy host answers. */
export function publishPolicy(db: ServiceDb, fqdn: string, policyId: string, now: Date): void {
  publishHostedTxt(db, hostedRecordName('mta_sts', fqdn), buildMtaStsRecord(policyId), now);
  ensurePolicyHost(db, now);
}

/** The policy file as served at https://mta-sts.<fqdn>/.well-known/mta-sts.txt. */
export function webFile(row: MtaStsRow): string {
  return formatMtaStsPolicy(policyOf(row));
}

/**
 * Status from the last check: pending_dns until a check with verify_dns has seen the `_mta-sts` record,
 * then active (every check passed) or error.
 */
function statusOf(row: MtaStsRow): string {
  if (!row.last_check) return 'pending_dns';
  const check = JSON.parse(row.last_check) as { valid: boolean; checks?: { id: string; passed: boolean }[] };
  const txt = check.checks?.find((c) => c.id === 'txt_record');
  if (!txt || !txt.passed) return 'pending_dns';
  return check.valid ? 'active' : 'error';
}

/** The MtaSts API object. */
export function presentMtaSts(row: MtaStsRow, fqdn: string): Record<string, unknown> {
  const policy = policyOf(row);
  return {
    domain_id: row.domain_id,
    enabled: row.enabled === 1,
    status: statusOf(row),
    mode: policy.mode,
    max_age: policy.max_age,
    mx: policy.mx,
    policy_id: row.policy_id,
    policy_url: mtaStsPolicyUrl(fqdn),
    cname_targets: [delegationRecord('mta_sts', fqdn), policyHostDelegation(fqdn)],
    hosted_dns_records: [
      hostedTxtView(hostedRecordName('mta_sts', fqdn), buildMtaStsRecord(row.policy_id)),
      { type: 'A', name: MTA_STS_POLICY_HOST, value: MTA_STS_POLICY_HOST_ADDRESS, ttl: 3600 },
    ],
    in_sync: row.in_sync === null ? null : row.in_sync === 1,
    last_checked_at: row.last_checked_at,
    updated_at: row.updated_at,
  };
}
