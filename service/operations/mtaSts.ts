/** Operations of this group, keyed by the document's operationId (see service/http/operation.ts). */
import type { MtaStsMode, MtaStsPolicy } from '../../shared/email-auth/mtaStsPolicy.ts';
import {
  mtaStsPolicyWithMode,
  updatedMtaStsPolicy,
  type MtaStsPolicyUpdate,
} from '../../shared/email-auth/hostedMtaSts.ts';
import type { ParseResult } from '../../shared/email-auth/issues.ts';
import { mtaStsPolicyUrl } from '../../shared/email-auth/protocols.ts';
import { requireDomain, type DomainRow } from '../domains/domainRow.ts';
import type { AuthContext, OperationHandlers, ServiceContext } from '../http/operation.ts';
import { notFound, validationError } from '../http/serviceError.ts';
import { actorOf, recordChange } from '../hosted/recordHistory.ts';
import { DEFAULT_TLS_RPT_RECORD, loadTlsRpt, saveTlsRpt } from '../hosted/tlsRptStore.ts';
import { checkMtaSts, type MtaStsCheckOptions } from '../mtaSts/checker.ts';
import { requireLiveMx } from '../mtaSts/liveMx.ts';
import {
  defaultPolicy,
  loadMtaSts,
  policyOf,
  presentMtaSts,
  publishPolicy,
  savePolicy,
  webFile,
  type MtaStsRow,
} from '../mtaSts/policyStore.ts';

function requirePolicy(ctx: ServiceContext, domain: DomainRow): MtaStsRow {
  const row = loadMtaSts(ctx.db, domain.id);
  if (!row) throw notFound('Hosted MTA-STS policy');
  return row;
}

/** Stores the policy and records the change (one transaction); returns the API object. */
function apply(
  ctx: ServiceContext,
  auth: AuthContext | null,
  domain: DomainRow,
  policy: MtaStsPolicy,
  action: string,
  description: string,
): Record<string, unknown> {
  const now = ctx.clock();
  const row = ctx.db.transaction(() => {
    const saved = savePolicy(ctx.db, domain, policy, now);
    recordChange(ctx.db, {
      domainId: domain.id,
      protocol: 'mta_sts',
      action,
      description: `${description} Policy id ${saved.policy_id}.`,
      recordValue: webFile(saved),
      actor: actorOf(ctx.db, auth),
      now,
    });
    return saved;
  })();
  return presentMtaSts(row, domain.fqdn);
}

/** A validated policy or a 422 whose details name body fields (`body.mode`, `body.mx[0]`, `body.policy_text`). */
function validPolicy(result: ParseResult<MtaStsPolicy>, textField?: string): MtaStsPolicy {
  if (result.ok && result.value) return result.value;
  throw validationError(
    result.errors.map((e) =>
      textField
        ? { field: textField, message: `${e.field}: ${e.message}` }
        : { field: `body.${e.field}`, message: e.message },
    ),
    'The MTA-STS policy is invalid.',
  );
}

export const handlers: OperationHandlers = {
  getMtaSts: (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    return { data: presentMtaSts(requirePolicy(ctx, domain), domain.fqdn) };
  },

  getMtaStsWebFile: (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const row = requirePolicy(ctx, domain);
    return { data: { domain_id: domain.id, url: mtaStsPolicyUrl(domain.fqdn), content: webFile(row) } };
  },

  // Decision: setup is idempotent. Without a policy it creates the default one (mode none, live MX); with
  // one it keeps it and re-publishes the records. TLS-RPT is provisioned with it unless already there.
  setupMtaSts: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const now = ctx.clock();
    let row = loadMtaSts(ctx.db, domain.id);
    if (row) {
      publishPolicy(ctx.db, domain.fqdn, row.policy_id, now);
    } else {
      const mx = await requireLiveMx(domain.fqdn, ctx.resolver);
      apply(
        ctx,
        req.auth,
        domain,
        defaultPolicy(mx),
        'policy.provisioned',
        `Hosted MTA-STS set up in mode none with ${mx.length} MX host(s).`,
      );
      row = loadMtaSts(ctx.db, domain.id)!;
    }
    if (!loadTlsRpt(ctx.db, domain.id)) {
      const tls = saveTlsRpt(ctx.db, domain, DEFAULT_TLS_RPT_RECORD, false, now);
      recordChange(ctx.db, {
        domainId: domain.id,
        protocol: 'tls_rpt',
        action: 'record.provisioned',
        description: 'Hosted TLS-RPT provisioned with MTA-STS.',
        recordValue: tls.value,
        actor: actorOf(ctx.db, req.auth),
        now,
      });
    }
    return { data: presentMtaSts(row, domain.fqdn) };
  },

  updateMtaStsPolicy: (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const current = requirePolicy(ctx, domain);
    // The file as given, or mode and max_age (mx omitted: the policy keeps its mx lines).
    const { result, fromText } = updatedMtaStsPolicy(policyOf(current), req.body as MtaStsPolicyUpdate);
    const policy = validPolicy(result, fromText ? 'body.policy_text' : undefined);
    return {
      data: apply(
        ctx,
        req.auth,
        domain,
        policy,
        'policy.updated',
        `Policy set to mode ${policy.mode}, max_age ${policy.max_age}.`,
      ),
    };
  },

  // Spec rule: the mode is set and the mx lines are refreshed from live DNS.
  setMtaStsMode: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const current = requirePolicy(ctx, domain);
    const mode = (req.body as { mode: MtaStsMode }).mode;
    const mx = await requireLiveMx(domain.fqdn, ctx.resolver);
    const policy = validPolicy(mtaStsPolicyWithMode(policyOf(current), mode, mx));
    return {
      data: apply(
        ctx,
        req.auth,
        domain,
        policy,
        'mode.updated',
        `Mode set to ${mode}; mx refreshed from DNS (${mx.join(', ') || 'none'}).`,
      ),
    };
  },

  // Spec rule: mode none, the current MX records, max_age 604800.
  resetMtaSts: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    requirePolicy(ctx, domain);
    const mx = await requireLiveMx(domain.fqdn, ctx.resolver);
    return {
      data: apply(ctx, req.auth, domain, defaultPolicy(mx), 'policy.reset', 'Policy reset to defaults.'),
    };
  },

  checkMtaSts: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const row = requirePolicy(ctx, domain);
    const options = (req.body ?? {}) as MtaStsCheckOptions;
    const now = ctx.clock();
    const outcome = await checkMtaSts(
      {
        fqdn: domain.fqdn,
        policyId: row.policy_id,
        webFile: webFile(row),
        deploy: () => publishPolicy(ctx.db, domain.fqdn, row.policy_id, now),
      },
      options,
      ctx.resolver,
    );
    const result = {
      domain_id: domain.id,
      valid: outcome.valid,
      mode: row.mode,
      policy_id: row.policy_id,
      checks: outcome.checks,
      errors: outcome.errors,
      warnings: outcome.warnings,
      checked_at: now.toISOString(),
    };
    ctx.db
      .prepare(
        'UPDATE mta_sts_policies SET last_check = ?, last_checked_at = ?, in_sync = COALESCE(?, in_sync) WHERE domain_id = ?',
      )
      .run(
        JSON.stringify(result),
        result.checked_at,
        outcome.inSync === null ? null : outcome.inSync ? 1 : 0,
        domain.id,
      );
    return { data: result };
  },
};
