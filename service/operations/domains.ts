/**
 * Domains: list, create, bulk create (background job), read, edit, delete, verify, DNS check and its stored
 * result, verification status, attached sending services. Writes are owner-only (checked by the pipeline);
 * reads show a member only the domains it may see; other teams' domains answer 404.
 */
import type { OperationHandlers } from '../http/operation.ts';
import { requireAuth } from '../http/requireAuth.ts';
import { validationError } from '../http/serviceError.ts';
import { pageParams } from '../http/pagination.ts';
import { presentDomain } from '../domains/presentDomain.ts';
import { checkFqdn } from '../domainOps/fqdn.ts';
import {
  findDomainByFqdn,
  insertDomain,
  requireVisibleDomain,
  visibleDomainsPage,
} from '../domainOps/domainStore.ts';
import {
  DOMAIN_STATUSES,
  ONBOARDING_STATUSES,
  requireOneOf,
  requireParentDomain,
  requireTeamGroup,
} from '../domainOps/domainFields.ts';
import { bulkJobItems, createBulkJob, presentBulkJob, requireBulkJob } from '../domainOps/bulkJobStore.ts';
import { ensureBulkJobRunning } from '../domainOps/bulkJobRunner.ts';
import { domainStatus, verifyDomain } from '../domainOps/verification.ts';
import { runDnsFetch, storedDnsFetch } from '../domainOps/dnsFetch.ts';
import { attachedServices, replaceAttachedServices } from '../domainOps/sendingServices.ts';
import { deleteDomain } from '../domainOps/domainDeletion.ts';

interface UpdateDomainBody {
  group_id?: number | null;
  status?: string;
  onboarding_status?: string;
  parent_domain_id?: number | null;
}

export const handlers: OperationHandlers = {
  listDomains: (req, ctx) => visibleDomainsPage(ctx.db, requireAuth(req), pageParams(req.query)),

  createDomain: (req, ctx) => {
    const auth = requireAuth(req);
    const body = req.body as { fqdn: string; parent_domain_id?: number | null };
    const checked = checkFqdn(body.fqdn);
    if ('error' in checked) throw validationError([{ field: 'body.fqdn', message: checked.error }]);
    const { fqdn } = checked;
    const id = ctx.db.transaction(() => {
      if (findDomainByFqdn(ctx.db, auth.teamId, fqdn)) {
        const message = `${fqdn} is already a domain of this team`;
        throw validationError([{ field: 'body.fqdn', message }], `Invalid request: ${message}.`);
      }
      const parentId = body.parent_domain_id ?? null;
      if (parentId !== null) requireParentDomain(ctx.db, auth.teamId, fqdn, parentId);
      return insertDomain(ctx.db, { teamId: auth.teamId, fqdn, parentDomainId: parentId, now: ctx.clock() });
    })();
    return { status: 201, data: presentDomain(requireVisibleDomain(ctx.db, auth, id)) };
  },

  bulkCreateDomains: (req, ctx) => {
    const auth = requireAuth(req);
    const names = (req.body as { domains: string[] }).domains;
    const jobId = createBulkJob(ctx.db, {
      teamId: auth.teamId,
      userId: auth.userId,
      names,
      now: ctx.clock(),
    });
    const job = requireBulkJob(ctx.db, auth.teamId, jobId);
    const data = presentBulkJob(job, bulkJobItems(ctx.db, jobId));
    ensureBulkJobRunning(ctx, job);
    return { status: 202, data };
  },

  getBulkJob: (req, ctx) => {
    const auth = requireAuth(req);
    const job = requireBulkJob(ctx.db, auth.teamId, req.params.job_id as string);
    // A job left unfinished by a previous run of the service is resumed when someone asks about it.
    ensureBulkJobRunning(ctx, job);
    return { data: presentBulkJob(job, bulkJobItems(ctx.db, job.id)) };
  },

  getDomain: (req, ctx) => ({
    data: presentDomain(requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id as number)),
  }),

  updateDomain: (req, ctx) => {
    const auth = requireAuth(req);
    const domain = requireVisibleDomain(ctx.db, auth, req.params.domain_id as number);
    const body = req.body as UpdateDomainBody;
    if (body.status !== undefined) requireOneOf('body.status', body.status, DOMAIN_STATUSES);
    if (body.onboarding_status !== undefined) {
      requireOneOf('body.onboarding_status', body.onboarding_status, ONBOARDING_STATUSES);
    }
    ctx.db.transaction(() => {
      if (typeof body.group_id === 'number') requireTeamGroup(ctx.db, auth.teamId, body.group_id);
      if (typeof body.parent_domain_id === 'number') {
        requireParentDomain(ctx.db, auth.teamId, domain.fqdn, body.parent_domain_id);
      }
      ctx.db
        .prepare(
          `UPDATE domains SET group_id = ?, status = ?, onboarding_status = ?, parent_domain_id = ?, updated_at = ?
           WHERE id = ?`,
        )
        .run(
          body.group_id === undefined ? domain.group_id : body.group_id,
          body.status ?? domain.status,
          body.onboarding_status ?? domain.onboarding_status,
          body.parent_domain_id === undefined ? domain.parent_domain_id : body.parent_domain_id,
          ctx.clock().toISOString(),
          domain.id,
        );
    })();
    return { data: presentDomain(requireVisibleDomain(ctx.db, auth, domain.id)) };
  },

  deleteDomain: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id as number);
    // Hosted records, checks, grants and attached services go with it; subdomains lose the parent link.
    deleteDomain(ctx.db, domain, ctx.clock());
    return { data: { deleted: true, id: domain.id } };
  },

  verifyDomain: async (req, ctx) => {
    const auth = requireAuth(req);
    const domain = requireVisibleDomain(ctx.db, auth, req.params.domain_id as number);
    await verifyDomain(ctx, domain, (req.body ?? {}) as Record<string, string>);
    return { data: domainStatus(ctx.db, requireVisibleDomain(ctx.db, auth, domain.id)) };
  },

  checkDomainDns: async (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id as number);
    return { data: await runDnsFetch(ctx, domain) };
  },

  getDnsFetchResult: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id as number);
    return { data: storedDnsFetch(ctx.db, domain.id, ctx.clock()) };
  },

  getDomainStatus: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id as number);
    return { data: domainStatus(ctx.db, domain) };
  },

  listDomainServices: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id as number);
    return { data: attachedServices(ctx.db, domain.id) };
  },

  replaceDomainServices: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id as number);
    const { service_ids: ids } = req.body as { service_ids: number[] };
    replaceAttachedServices(ctx.db, domain.id, ids, ctx.clock());
    return { data: attachedServices(ctx.db, domain.id) };
  },
};
