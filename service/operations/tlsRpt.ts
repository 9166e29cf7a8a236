/**
 * Operations of this group, keyed by the document's operationId (see service/http/operation.ts).
 * The TLS report readers (listTlsRptReports, getTlsRptReport, getTlsRptBySource, getTlsRptByResult,
 * getTlsRptFailures, listTlsRptFailureDetails) live in ./tlsRptReports.ts.
 */
import { parseTlsRptRecord } from '../../shared/email-auth/tlsRptRecord.ts';
import { requireDomain, type DomainRow } from '../domains/domainRow.ts';
import type { OperationHandlers, ServiceContext } from '../http/operation.ts';
import { notFound, validationError } from '../http/serviceError.ts';
import { saveRecorded } from '../hosted/recordHistory.ts';
import {
  DEFAULT_TLS_RPT_RECORD,
  loadTlsRpt,
  presentTlsRpt,
  saveTlsRpt,
  tlsRptVerification,
  type TlsRptRow,
} from '../hosted/tlsRptStore.ts';

function requireConfig(ctx: ServiceContext, domain: DomainRow): TlsRptRow {
  const row = loadTlsRpt(ctx.db, domain.id);
  if (!row) throw notFound('Hosted TLS-RPT configuration');
  return row;
}

/** The history target of a domain's hosted TLS-RPT. */
function tlsRptOf(domain: DomainRow) {
  return { domainId: domain.id, protocol: 'tls_rpt' as const };
}

async function present(ctx: ServiceContext, domain: DomainRow, row: TlsRptRow) {
  return presentTlsRpt(
    ctx.db,
    row,
    domain.fqdn,
    await tlsRptVerification(domain.fqdn, row.value, ctx.resolver),
  );
}

export const handlers: OperationHandlers = {
  getTlsRpt: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    return { data: await present(ctx, domain, requireConfig(ctx, domain)) };
  },

  // Decision: setup is idempotent; an existing configuration (even a custom record) is kept and republished.
  setupTlsRpt: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const existing = loadTlsRpt(ctx.db, domain.id);
    const now = ctx.clock();
    const row = saveRecorded(
      ctx,
      req.auth,
      tlsRptOf(domain),
      () =>
        saveTlsRpt(ctx.db, domain, existing?.value ?? DEFAULT_TLS_RPT_RECORD, existing?.custom === 1, now),
      // Setting up again only republishes the same record: nothing to add to the history.
      (saved) =>
        existing
          ? null
          : {
              action: 'record.provisioned',
              description: "Hosted TLS-RPT provisioned with the service's reporting address.",
              recordValue: saved.value,
            },
    );
    return { data: await present(ctx, domain, row) };
  },

  // Republishes the record; a record_value (validated as a TLS-RPT record) replaces it.
  updateTlsRpt: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const current = requireConfig(ctx, domain);
    const given = (req.body as { record_value?: string } | undefined)?.record_value;
    let value = current.value;
    let custom = current.custom === 1;
    if (given !== undefined) {
      const parsed = parseTlsRptRecord(given);
      if (!parsed.ok || !parsed.value) {
        throw validationError(
          parsed.errors.map((e) => ({ field: 'body.record_value', message: `${e.field}: ${e.message}` })),
          'The TLS-RPT record is invalid.',
        );
      }
      value = given.trim();
      custom = true;
    }
    const now = ctx.clock();
    const row = saveRecorded(
      ctx,
      req.auth,
      tlsRptOf(domain),
      () => saveTlsRpt(ctx.db, domain, value, custom, now),
      (saved) => ({
        action: given === undefined ? 'record.republished' : 'record.updated',
        description:
          given === undefined ? 'Record republished.' : 'Record replaced by the given record_value.',
        recordValue: saved.value,
      }),
    );
    return { data: await present(ctx, domain, row) };
  },
};
