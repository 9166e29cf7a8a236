/**
 * A domain's health as GET /domains/{id}/health and the security score see it: the newest guard scan
 * (source guard_history) or, when the domain was never scanned, the live fallback (source live): the
 * protocols are the domain's verification flags (set by POST /verify and by provisioning hosted records),
 * and the DMARC record and mail provider are read from DNS now.
 */
import type { ServiceContext } from '../http/operation.ts';
import type { DomainRow } from '../domains/domainRow.ts';
import { isVoidAnswer } from '../../shared/email-auth/dns.ts';
import { PROTOCOLS, type Protocol } from '../../shared/email-auth/protocols.ts';
import { lookupPublishedRecord } from '../../shared/email-auth/publishedRecord.ts';
import { detectMailProvider, UNKNOWN_PROVIDER } from './mailProvider.ts';
import { resultLabel } from './resultLabel.ts';
import { latestSnapshot, passFlags, type HealthSnapshotRow } from './scanStore.ts';
import { TOTAL_PROTOCOLS } from './securityScore.ts';

/** The HealthSnapshot payload (minus domain_id/fqdn) and, for live answers, whether anything was ever verified. */
export interface DomainHealth {
  source: 'guard_history' | 'live';
  result: string;
  mail_provider: string;
  protocols: Record<Protocol, boolean>;
  protocols_passing: number;
  total_protocols: number;
  /** The DMARC record found ('' when none is published). */
  dmarc_record: string;
  scanned_at: string;
}

/** The verification flags of a domain. */
export function verificationFlags(domain: DomainRow): Record<Protocol, boolean> {
  return {
    dmarc: domain.dmarc_verified === 1,
    spf: domain.spf_verified === 1,
    mta_sts: domain.mta_sts_verified === 1,
    tls_rpt: domain.tls_rpt_verified === 1,
    bimi: domain.bimi_verified === 1,
  };
}

/** True when the live fallback has something to say: the domain was verified or a flag was set. */
export function hasLiveFlags(domain: DomainRow): boolean {
  return domain.verified_at !== null || Object.values(verificationFlags(domain)).some(Boolean);
}

/** Health of a stored scan. */
export function healthOfSnapshot(row: HealthSnapshotRow): DomainHealth {
  return {
    source: 'guard_history',
    result: row.result,
    mail_provider: row.mail_provider,
    protocols: passFlags(row),
    protocols_passing: row.protocols_passing,
    total_protocols: TOTAL_PROTOCOLS,
    dmarc_record: row.dmarc_record ?? '',
    scanned_at: row.scanned_at,
  };
}

async function liveMailProvider(ctx: Pick<ServiceContext, 'resolver'>, fqdn: string): Promise<string> {
  try {
    return detectMailProvider(await ctx.resolver(fqdn, 'MX'));
  } catch (err) {
    return isVoidAnswer(err) ? detectMailProvider([]) : UNKNOWN_PROVIDER;
  }
}

/** The live fallback: verification flags, and the DMARC record and MX read now. */
export async function liveHealth(
  ctx: Pick<ServiceContext, 'resolver' | 'clock'>,
  domain: DomainRow,
): Promise<DomainHealth> {
  const protocols = verificationFlags(domain);
  const [dmarc, mailProvider] = await Promise.all([
    lookupPublishedRecord('dmarc', domain.fqdn, ctx.resolver),
    liveMailProvider(ctx, domain.fqdn),
  ]);
  const dmarcRecord = dmarc.status === 'found' ? (dmarc.record ?? '') : '';
  return {
    source: 'live',
    result: resultLabel(protocols, dmarcRecord || null),
    mail_provider: mailProvider,
    protocols,
    protocols_passing: PROTOCOLS.filter((p) => protocols[p]).length,
    total_protocols: TOTAL_PROTOCOLS,
    dmarc_record: dmarcRecord,
    scanned_at: ctx.clock().toISOString(),
  };
}

/** The newest scan's health, or the live fallback when the domain was never scanned. */
export async function domainHealth(
  ctx: Pick<ServiceContext, 'db' | 'resolver' | 'clock'>,
  domain: DomainRow,
): Promise<DomainHealth> {
  const latest = latestSnapshot(ctx.db, domain.id);
  return latest ? healthOfSnapshot(latest) : liveHealth(ctx, domain);
}
