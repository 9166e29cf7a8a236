/** Operations of this group, keyed by the document's operationId (see service/http/operation.ts). */
import { parseDmarcRecord, type DmarcPolicy, type DmarcRecord } from '../../shared/email-auth/dmarcRecord.ts';
import { lookupPublishedRecord } from '../../shared/email-auth/publishedRecord.ts';
import { requireDomain, type DomainRow } from '../domains/domainRow.ts';
import type { AuthContext, OperationHandlers, ServiceContext } from '../http/operation.ts';
import { isoDate } from '../http/dateWindow.ts';
import { pageParams, paginated } from '../http/pagination.ts';
import { notFound, ServiceError, validationError } from '../http/serviceError.ts';
import { dbAlignmentSource } from '../hosted/alignmentSource.ts';
import { recommendEnforcement } from '../hosted/dmarcRecommendation.ts';
import {
  DEFAULT_DMARC_TAGS,
  deleteHostedDmarc,
  loadHostedDmarc,
  presentDmarcTags,
  presentHostedDmarc,
  recordOfRow,
  saveHostedDmarc,
  tagsOfRow,
  validateTags,
  type DmarcTagValues,
  type HostedDmarcRow,
} from '../hosted/hostedDmarcStore.ts';
import { actorOf, listHistory, recordChange } from '../hosted/recordHistory.ts';

function requireHosted(ctx: ServiceContext, domain: DomainRow): HostedDmarcRow {
  const row = loadHostedDmarc(ctx.db, domain.id);
  if (!row) throw notFound('Hosted DMARC record');
  return row;
}

/** Saves and publishes the hosted record and records the change, in one transaction; returns the row. */
function save(
  ctx: ServiceContext,
  auth: AuthContext | null,
  domain: DomainRow,
  record: DmarcRecord,
  action: string,
  description: string,
): HostedDmarcRow {
  const now = ctx.clock();
  return ctx.db.transaction(() => {
    const row = saveHostedDmarc(ctx.db, domain, record, now);
    recordChange(ctx.db, {
      domainId: domain.id,
      protocol: 'dmarc',
      action,
      description,
      recordValue: row.value,
      actor: actorOf(ctx.db, auth),
      now,
    });
    return row;
  })();
}

function describeTags(tags: DmarcTagValues): string {
  return Object.entries(tags)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** The policy receivers apply: the hosted record when provisioned, else the record published in DNS. */
async function effectivePolicy(
  ctx: ServiceContext,
  domain: DomainRow,
): Promise<{ source: 'hosted' | 'dns'; record: DmarcRecord; value: string }> {
  const hosted = loadHostedDmarc(ctx.db, domain.id);
  if (hosted) return { source: 'hosted', record: recordOfRow(hosted), value: hosted.value };
  const published = await lookupPublishedRecord('dmarc', domain.fqdn, ctx.resolver);
  const parsed = published.record === null ? null : parseDmarcRecord(published.record);
  if (!parsed?.value || published.record === null) {
    throw notFound(
      published.status === 'dns_error'
        ? `DMARC record (DNS lookup failed: ${published.error_code})`
        : published.status === 'multiple'
          ? 'A single DMARC record (several are published)'
          : published.status === 'found'
            ? 'A valid DMARC record'
            : 'DMARC record',
    );
  }
  return { source: 'dns', record: parsed.value, value: published.record };
}

function presentPolicy(
  domain: DomainRow,
  p: { source: string; record: DmarcRecord; value: string },
): Record<string, unknown> {
  return {
    domain_id: domain.id,
    fqdn: domain.fqdn,
    policy: p.record.p,
    source: p.source,
    record_value: p.value,
    tags: presentDmarcTags(p.record),
  };
}

function dayOffset(date: Date, days: number): string {
  return isoDate(new Date(date.getTime() + days * 86_400_000));
}

export const handlers: OperationHandlers = {
  getHostedDmarc: (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    return { data: presentHostedDmarc(requireHosted(ctx, domain), domain.fqdn) };
  },

  // Decision: provisioning twice is a 422 (the body's tags would otherwise silently overwrite the record);
  // PATCH changes a provisioned record.
  createHostedDmarc: (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    if (loadHostedDmarc(ctx.db, domain.id)) {
      throw validationError(
        [{ field: 'path.domain_id', message: 'hosted DMARC is already provisioned; change it with PATCH' }],
        'Hosted DMARC is already provisioned for this domain.',
      );
    }
    const input = (req.body ?? {}) as DmarcTagValues;
    const record = validateTags({ ...DEFAULT_DMARC_TAGS, ...input });
    const row = save(
      ctx,
      req.auth,
      domain,
      record,
      'record.provisioned',
      `Hosted DMARC provisioned with p=${record.p}.`,
    );
    return { status: 201, data: presentHostedDmarc(row, domain.fqdn) };
  },

  updateHostedDmarc: (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const current = requireHosted(ctx, domain);
    const changes = req.body as DmarcTagValues;
    const record = validateTags({ ...tagsOfRow(current), ...changes });
    const row = save(
      ctx,
      req.auth,
      domain,
      record,
      changes.p !== undefined && changes.p !== current.p ? 'policy.updated' : 'tags.updated',
      `Tags changed: ${describeTags(changes)}.`,
    );
    return { data: presentHostedDmarc(row, domain.fqdn) };
  },

  deleteHostedDmarc: (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    requireHosted(ctx, domain);
    const now = ctx.clock();
    ctx.db.transaction(() => {
      deleteHostedDmarc(ctx.db, domain, now);
      recordChange(ctx.db, {
        domainId: domain.id,
        protocol: 'dmarc',
        action: 'record.removed',
        description: "Hosted DMARC removed from the service's DNS.",
        recordValue: null,
        actor: actorOf(ctx.db, req.auth),
        now,
      });
    })();
    return { data: { deleted: true, id: domain.id } };
  },

  getDmarcPolicy: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    return { data: presentPolicy(domain, await effectivePolicy(ctx, domain)) };
  },

  // Enforcement only, and only on the hosted record: the service cannot edit a record it does not serve.
  updateDmarcPolicy: (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const current = requireHosted(ctx, domain);
    const body = req.body as { policy?: DmarcPolicy; p?: DmarcPolicy };
    const policy = (body.policy ?? body.p) as DmarcPolicy;
    const record = validateTags({ ...tagsOfRow(current), p: policy });
    const row = save(
      ctx,
      req.auth,
      domain,
      record,
      'policy.updated',
      `Policy changed from p=${current.p} to p=${policy}.`,
    );
    return { data: presentPolicy(domain, { source: 'hosted', record: recordOfRow(row), value: row.value }) };
  },

  listDmarcHistory: (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const page = pageParams(req.query);
    const { total, rows } = listHistory(ctx.db, domain.id, 'dmarc', page);
    return paginated(total, rows, page);
  },

  getDmarcRecommendation: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const days = (req.body as { monitoring_days?: number } | undefined)?.monitoring_days ?? 30;
    const now = ctx.clock();
    let current: DmarcPolicy = 'none';
    let pct = 100;
    try {
      const effective = await effectivePolicy(ctx, domain);
      current = effective.record.p;
      pct = effective.record.pct ?? 100;
    } catch (err) {
      // No DMARC record at all: the starting point is p=none.
      if (!(err instanceof ServiceError && err.status === 404)) throw err;
    }
    // The window ends today (UTC) and covers `days` days.
    const window = dbAlignmentSource(ctx.db)(domain, dayOffset(now, -(days - 1)), dayOffset(now, 0));
    const recommendation = recommendEnforcement(current, pct, window, days);
    return { data: { domain_id: domain.id, ...recommendation, generated_at: now.toISOString() } };
  },
};
