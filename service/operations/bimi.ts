/** Operations of this group, keyed by the document's operationId (see service/http/operation.ts). */
import { parseBimiRecord } from '../../shared/email-auth/bimiRecord.ts';
import { requireDomain, type DomainRow } from '../domains/domainRow.ts';
import type { OperationHandlers, ServiceContext } from '../http/operation.ts';
import { notFound, validationError } from '../http/serviceError.ts';
import { saveRecorded } from '../hosted/recordHistory.ts';
import {
  deleteBimi,
  loadBimi,
  presentBimi,
  saveBimi,
  type BimiContent,
  type BimiRow,
} from '../bimi/bimiStore.ts';
import { bimiReadiness } from '../bimi/readiness.ts';
import { convertSvg } from '../bimi/svgResult.ts';
import {
  analyzeVmc,
  presentCertificate,
  VMC_ANALYSIS_TTL_MS,
  type VmcAnalysisBody,
} from '../bimi/vmcAnalysis.ts';
import { inspectVmc } from '../bimi/vmcInspect.ts';
import { loadVmcTrustRoots } from '../bimi/vmcTrustRoots.ts';

function requireConfig(ctx: ServiceContext, domain: DomainRow): BimiRow {
  const row = loadBimi(ctx.db, domain.id);
  if (!row) throw notFound('Hosted BIMI configuration');
  return row;
}

/** An uploaded certificate must at least be readable; its validity is reported, not enforced. */
async function checkPemReadable(pem: string | undefined, field: string, now: Date): Promise<void> {
  if (pem === undefined) return;
  const inspection = await inspectVmc(pem, { now });
  if (!inspection.ok) {
    throw validationError([{ field, message: inspection.error?.message ?? 'not a PEM certificate' }]);
  }
}

function checkOverride(value: string): string {
  const parsed = parseBimiRecord(value);
  if (!parsed.ok) {
    throw validationError(
      parsed.errors.map((e) => ({ field: 'body.record_value', message: `${e.field}: ${e.message}` })),
      'The BIMI record is invalid.',
    );
  }
  return value.trim();
}

/** The history target of a domain's hosted BIMI. */
function bimiOf(domain: DomainRow) {
  return { domainId: domain.id, protocol: 'bimi' as const };
}

export const handlers: OperationHandlers = {
  listBimiRegistrations: (req, ctx) => {
    const rows = ctx.db
      .prepare<[number], Record<string, unknown>>(
        `SELECT id, domain_id, fqdn, partner, status, created_at, updated_at FROM bimi_registrations
          WHERE team_id = ? ORDER BY created_at DESC, id DESC`,
      )
      .all(req.auth!.teamId);
    return { data: rows };
  },

  getBimi: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const config = requireConfig(ctx, domain);
    return { data: await presentBimi(config, domain.fqdn, ctx.clock(), loadVmcTrustRoots(ctx.db)) };
  },

  // Decision: provisioning twice is a 422 (as for DMARC and SPF); PATCH uploads new files or overrides.
  createBimi: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    if (loadBimi(ctx.db, domain.id)) {
      throw validationError(
        [{ field: 'path.domain_id', message: 'hosted BIMI is already provisioned; change it with PATCH' }],
        'Hosted BIMI is already provisioned for this domain.',
      );
    }
    const body = (req.body ?? {}) as { selector?: string; svg_content?: string; vmc_pem?: string };
    const now = ctx.clock();
    await checkPemReadable(body.vmc_pem, 'body.vmc_pem', now);
    const content: BimiContent = {
      selector: body.selector ?? 'default',
      svg: body.svg_content ?? null,
      pem: body.vmc_pem ?? null,
      override: null,
    };
    const row = saveRecorded(
      ctx,
      req.auth,
      bimiOf(domain),
      () => saveBimi(ctx.db, domain, content, now),
      (saved) => ({
        action: 'record.provisioned',
        description: 'Hosted BIMI provisioned.',
        recordValue: saved.value,
      }),
    );
    return { status: 201, data: await presentBimi(row, domain.fqdn, now, loadVmcTrustRoots(ctx.db)) };
  },

  // Empty body: re-sync the record from the uploaded files (dropping an override). svg_content / vmc_pem:
  // replace the hosted files, then re-sync. record_value: manual override.
  updateBimi: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const current = requireConfig(ctx, domain);
    const body = (req.body ?? {}) as { record_value?: string; svg_content?: string; vmc_pem?: string };
    const now = ctx.clock();
    await checkPemReadable(body.vmc_pem, 'body.vmc_pem', now);
    const content: BimiContent = {
      selector: current.selector,
      svg: body.svg_content ?? current.svg_content,
      pem: body.vmc_pem ?? current.vmc_pem,
      override: body.record_value === undefined ? null : checkOverride(body.record_value),
    };
    const what = [
      body.svg_content !== undefined ? 'new logo uploaded' : null,
      body.vmc_pem !== undefined ? 'new certificate uploaded' : null,
      body.record_value !== undefined ? 'record overridden' : 'record re-synced from the uploaded files',
    ].filter(Boolean);
    const row = saveRecorded(
      ctx,
      req.auth,
      bimiOf(domain),
      () => saveBimi(ctx.db, domain, content, now),
      (saved) => ({
        action: body.record_value !== undefined ? 'record.overridden' : 'record.synced',
        description: `${what.join('; ')}.`,
        recordValue: saved.value,
      }),
    );
    return { data: await presentBimi(row, domain.fqdn, now, loadVmcTrustRoots(ctx.db)) };
  },

  deleteBimi: (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const row = requireConfig(ctx, domain);
    saveRecorded(
      ctx,
      req.auth,
      bimiOf(domain),
      () => deleteBimi(ctx.db, domain, row, ctx.clock()),
      () => ({
        action: 'record.removed',
        description: 'Hosted BIMI, its files and its record removed.',
        recordValue: null,
      }),
    );
    return { data: { deleted: true, id: domain.id } };
  },

  convertBimiSvg: (req, ctx) => {
    requireDomain(ctx, req.auth, req.params.domain_id);
    return { data: convertSvg((req.body as { svg_content: string }).svg_content) };
  },

  getBimiVmc: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const config = loadBimi(ctx.db, domain.id);
    const now = ctx.clock();
    const fresh =
      config?.vmc_analysis &&
      config.vmc_analyzed_at &&
      now.getTime() - Date.parse(config.vmc_analyzed_at) < VMC_ANALYSIS_TTL_MS;
    if (fresh && req.query.refresh !== true) {
      const body = JSON.parse(config.vmc_analysis!) as VmcAnalysisBody;
      return { data: { domain_id: domain.id, ...body, cached: true, analyzed_at: config.vmc_analyzed_at } };
    }
    const body = await analyzeVmc(domain.fqdn, config, ctx.resolver, now, loadVmcTrustRoots(ctx.db));
    if (config) {
      ctx.db
        .prepare('UPDATE bimi_configs SET vmc_analysis = ?, vmc_analyzed_at = ? WHERE domain_id = ?')
        .run(JSON.stringify(body), now.toISOString(), domain.id);
    }
    return { data: { domain_id: domain.id, ...body, cached: false, analyzed_at: now.toISOString() } };
  },

  inspectBimiVmc: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const inspection = await inspectVmc((req.body as { pem: string }).pem, {
      now: ctx.clock(),
      domain: domain.fqdn,
      extraRoots: loadVmcTrustRoots(ctx.db),
    });
    if (!inspection.ok) {
      throw validationError([
        { field: 'body.pem', message: inspection.error?.message ?? 'not a certificate' },
      ]);
    }
    return { data: presentCertificate(inspection) };
  },

  getBimiReadiness: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const readiness = await bimiReadiness(
      domain.fqdn,
      loadBimi(ctx.db, domain.id),
      ctx.resolver,
      ctx.clock(),
      loadVmcTrustRoots(ctx.db),
    );
    return { data: { domain_id: domain.id, ...readiness } };
  },
};
