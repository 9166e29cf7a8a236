/** Operations of this group, keyed by the document's operationId (see service/http/operation.ts). */
import { parseIpNetwork, formatNetwork } from '../../shared/email-auth/ipAddress.ts';
import { normalizeDomain } from '../../shared/email-auth/protocols.ts';
import { flattenSpf } from '../../shared/email-auth/spfFlatten.ts';
import { checkDomainSpec, type SpfAll } from '../../shared/email-auth/spfRecord.ts';
import { requireDomain, type DomainRow } from '../domains/domainRow.ts';
import type { AuthContext, OperationHandlers, ServiceContext } from '../http/operation.ts';
import { pageParams, paginated } from '../http/pagination.ts';
import { notFound, validationError } from '../http/serviceError.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import {
  buildHostedSpfValue,
  compositionOf,
  DEFAULT_SPF_ALL,
  flattenHosted,
  listIncludes,
  listIpActions,
  loadHostedSpf,
  presentHostedSpf,
  republishHostedSpf,
  type HostedSpfRow,
} from '../hosted/hostedSpfStore.ts';
import { listHistory, saveRecorded } from '../hosted/recordHistory.ts';
import { hostedRecordName, publishHostedTxt } from '../hosted/serviceDns.ts';
import { importLiveSpf } from '../hosted/spfImport.ts';

function requireHosted(ctx: ServiceContext, domain: DomainRow): HostedSpfRow {
  const row = loadHostedSpf(ctx.db, domain.id);
  if (!row) throw notFound('Hosted SPF record');
  return row;
}

async function lookupCountOf(ctx: ServiceContext, domain: DomainRow, value: string): Promise<number> {
  return (await flattenHosted(domain.fqdn, value, ctx.resolver)).lookup_count;
}

async function present(ctx: ServiceContext, domain: DomainRow, row: HostedSpfRow) {
  return presentHostedSpf(ctx.db, row, domain.fqdn, await lookupCountOf(ctx, domain, row.value));
}

/** One edit of the hosted record: its own writes (run inside the edit's transaction) and its history entry. */
interface SpfEdit<T> {
  write(): T;
  action: string;
  description: string;
  /** Where a record that would be invalid is reported (422). */
  field?: string;
}

/** The record a domain's stored composition builds (null when nothing is hosted). */
function rebuiltValue(db: ServiceDb, domainId: number, field?: string): string | null {
  const row = loadHostedSpf(db, domainId);
  return row ? buildHostedSpfValue(compositionOf(db, row), field) : null;
}

/** Thrown to roll a dry run back, carrying what it found. */
class DryRun {
  constructor(readonly value: string | null) {}
}

/** Thrown inside the edit's transaction when another edit changed the record since its lookups were counted. */
class Superseded extends Error {}

/**
 * Applies `edit` as one transaction: its writes, the record rebuilt and republished in the service's zone,
 * and the history rows — a failure at any step leaves record, zone and history as they were. The history
 * keeps the DNS lookup count of the record served, which takes DNS queries and so cannot run inside a
 * transaction: it is counted first for the record the edit will produce (a rolled-back dry run of the edit
 * finds it), and if another call changed the record in the meantime the edit starts over.
 */
async function applySpfEdit<T>(
  ctx: ServiceContext,
  auth: AuthContext | null,
  domain: DomainRow,
  edit: SpfEdit<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let expected: string | null;
    try {
      ctx.db.transaction(() => {
        edit.write();
        throw new DryRun(rebuiltValue(ctx.db, domain.id, edit.field));
      })();
      throw new Error('unreachable: the dry run always rolls back');
    } catch (err) {
      if (!(err instanceof DryRun)) throw err;
      expected = err.value;
    }
    const lookupCount = expected === null ? null : await lookupCountOf(ctx, domain, expected);
    try {
      return saveRecorded(
        ctx,
        auth,
        { domainId: domain.id, protocol: 'spf' },
        () => {
          const result = edit.write();
          const value = rebuiltValue(ctx.db, domain.id, edit.field);
          if (value !== expected) throw new Superseded();
          if (value === null)
            publishHostedTxt(ctx.db, hostedRecordName('spf', domain.fqdn), null, ctx.clock());
          else republishHostedSpf(ctx.db, domain, ctx.clock(), edit.field);
          return result;
        },
        () => ({ action: edit.action, description: edit.description, recordValue: expected, lookupCount }),
      );
    } catch (err) {
      if (err instanceof Superseded && attempt < 3) continue;
      throw err;
    }
  }
}

/** DNS lookups an include costs: itself plus what its record needs; null when it cannot be resolved. */
async function includeCost(
  ctx: ServiceContext,
  target: string,
): Promise<{ count: number | null; missing: boolean }> {
  const result = await flattenSpf(target, ctx.resolver);
  if (result.status === 'none') return { count: null, missing: true };
  if (result.status === 'temperror') return { count: null, missing: false };
  return { count: result.lookup_count + 1, missing: false };
}

export const handlers: OperationHandlers = {
  getHostedSpf: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    return { data: await present(ctx, domain, requireHosted(ctx, domain)) };
  },

  // Decision: provisioning twice is a 422 (as for DMARC); PATCH/includes/ip-actions edit a provisioned record.
  createHostedSpf: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    if (loadHostedSpf(ctx.db, domain.id)) {
      throw validationError(
        [{ field: 'path.domain_id', message: 'hosted SPF is already provisioned; change it with PATCH' }],
        'Hosted SPF is already provisioned for this domain.',
      );
    }
    const body = (req.body ?? {}) as { all?: SpfAll; import_existing?: boolean };
    const imported = body.import_existing === false ? null : await importLiveSpf(domain.fqdn, ctx.resolver);
    const all = body.all ?? imported?.all ?? DEFAULT_SPF_ALL;
    const includes = imported?.includes ?? [];
    const ipActions = imported?.ipActions ?? [];
    const value = buildHostedSpfValue({ all, includes, ipActions });
    const at = ctx.clock().toISOString();
    const costs = await Promise.all(includes.map((i) => includeCost(ctx, i)));
    const from = imported?.record
      ? ` Imported from the live record "${imported.record}": ${includes.length} include(s), ${ipActions.length} IP action(s)` +
        (imported.skipped.length > 0 ? `; not expressible and skipped: ${imported.skipped.join(' ')}.` : '.')
      : '';
    await applySpfEdit(ctx, req.auth, domain, {
      action: 'record.provisioned',
      description: `Hosted SPF provisioned with ${all}.${from}`,
      write: () => {
        ctx.db
          .prepare(
            'INSERT INTO hosted_spf (domain_id, enabled, all_qualifier, value, created_at, updated_at) VALUES (?, 1, ?, ?, ?, ?)',
          )
          .run(domain.id, all, value, at, at);
        const addInclude = ctx.db.prepare(
          'INSERT INTO spf_includes (domain_id, include_content, lookup_count, created_at) VALUES (?, ?, ?, ?)',
        );
        includes.forEach((inc, i) => addInclude.run(domain.id, inc, costs[i]?.count ?? null, at));
        const addIp = ctx.db.prepare(
          'INSERT INTO spf_ip_actions (domain_id, ip, type, created_at) VALUES (?, ?, ?, ?)',
        );
        for (const a of ipActions) addIp.run(domain.id, a.ip, a.type, at);
      },
    });
    const row = loadHostedSpf(ctx.db, domain.id)!;
    return { status: 201, data: await present(ctx, domain, row) };
  },

  updateHostedSpf: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const current = requireHosted(ctx, domain);
    const all = (req.body as { all: SpfAll }).all;
    await applySpfEdit(ctx, req.auth, domain, {
      action: 'all.updated',
      description: `Terminal qualifier changed from ${current.all_qualifier} to ${all}.`,
      field: 'body.all',
      write: () =>
        ctx.db.prepare('UPDATE hosted_spf SET all_qualifier = ? WHERE domain_id = ?').run(all, domain.id),
    });
    const row = requireHosted(ctx, domain);
    return { data: await present(ctx, domain, row) };
  },

  deleteHostedSpf: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    requireHosted(ctx, domain);
    await applySpfEdit(ctx, req.auth, domain, {
      action: 'record.removed',
      description: 'Hosted SPF disabled and its record removed.',
      write: () => {
        for (const table of ['spf_includes', 'spf_ip_actions', 'hosted_spf']) {
          ctx.db.prepare(`DELETE FROM ${table} WHERE domain_id = ?`).run(domain.id);
        }
      },
    });
    return { data: { deleted: true, id: domain.id } };
  },

  listSpfHistory: (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const page = pageParams(req.query);
    const { total, rows } = listHistory(ctx.db, domain.id, 'spf', page);
    return paginated(total, rows, page);
  },

  listSpfIncludes: (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    requireHosted(ctx, domain);
    return { data: listIncludes(ctx.db, domain.id) };
  },

  addSpfInclude: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    requireHosted(ctx, domain);
    const raw = (req.body as { include_content: string }).include_content;
    const target = normalizeDomain(raw);
    const field = 'body.include_content';
    const problem = checkDomainSpec(target);
    if (problem) throw validationError([{ field, message: problem }]);
    const includes = listIncludes(ctx.db, domain.id);
    if (includes.some((i) => i.include_content === target)) {
      throw validationError([{ field, message: `${target} is already included` }]);
    }
    if (target === hostedRecordName('spf', domain.fqdn) || target === domain.fqdn) {
      throw validationError([{ field, message: `including ${target} would make the record include itself` }]);
    }
    const cost = await includeCost(ctx, target);
    // An include whose target publishes no SPF record is a permerror for every receiver (RFC 7208 §5.2).
    if (cost.missing) {
      throw validationError([
        { field, message: `${target} publishes no SPF record; receivers would fail it` },
      ]);
    }
    // The record must still be valid with it (at most 10 DNS-querying terms of its own).
    buildHostedSpfValue(
      {
        all: loadHostedSpf(ctx.db, domain.id)!.all_qualifier,
        includes: [...includes.map((i) => i.include_content), target],
        ipActions: listIpActions(ctx.db, domain.id),
      },
      field,
    );
    const id = await applySpfEdit(ctx, req.auth, domain, {
      action: 'include.added',
      description: `Include ${target} added.`,
      field,
      write: () =>
        Number(
          ctx.db
            .prepare(
              'INSERT INTO spf_includes (domain_id, include_content, lookup_count, created_at) VALUES (?, ?, ?, ?)',
            )
            .run(domain.id, target, cost.count, ctx.clock().toISOString()).lastInsertRowid,
        ),
    });
    return { status: 201, data: listIncludes(ctx.db, domain.id).find((i) => i.id === id) };
  },

  deleteSpfInclude: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    requireHosted(ctx, domain);
    const include = listIncludes(ctx.db, domain.id).find((i) => i.id === req.params.include_id);
    if (!include) throw notFound('SPF include');
    await applySpfEdit(ctx, req.auth, domain, {
      action: 'include.removed',
      description: `Include ${include.include_content} removed.`,
      write: () => ctx.db.prepare('DELETE FROM spf_includes WHERE id = ?').run(include.id),
    });
    return { data: { deleted: true, id: include.id } };
  },

  listSpfIpActions: (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    requireHosted(ctx, domain);
    return { data: listIpActions(ctx.db, domain.id) };
  },

  addSpfIpAction: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    requireHosted(ctx, domain);
    const body = req.body as { ip: string; type: 'Allow' | 'Reject' };
    const parsed = parseIpNetwork(body.ip.trim());
    if ('error' in parsed) throw validationError([{ field: 'body.ip', message: parsed.error }]);
    const ip = formatNetwork(parsed.network);
    const existing = listIpActions(ctx.db, domain.id).find((a) => a.ip === ip);
    if (existing) {
      throw validationError([{ field: 'body.ip', message: `${ip} already has the action ${existing.type}` }]);
    }
    const id = await applySpfEdit(ctx, req.auth, domain, {
      action: 'ip_action.added',
      description: `${body.type} ${ip} added.`,
      field: 'body.ip',
      write: () =>
        Number(
          ctx.db
            .prepare('INSERT INTO spf_ip_actions (domain_id, ip, type, created_at) VALUES (?, ?, ?, ?)')
            .run(domain.id, ip, body.type, ctx.clock().toISOString()).lastInsertRowid,
        ),
    });
    return { status: 201, data: listIpActions(ctx.db, domain.id).find((a) => a.id === id) };
  },

  deleteSpfIpAction: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    requireHosted(ctx, domain);
    const action = listIpActions(ctx.db, domain.id).find((a) => a.id === req.params.ip_action_id);
    if (!action) throw notFound('SPF IP action');
    await applySpfEdit(ctx, req.auth, domain, {
      action: 'ip_action.removed',
      description: `${action.type} ${action.ip} removed.`,
      write: () => ctx.db.prepare('DELETE FROM spf_ip_actions WHERE id = ?').run(action.id),
    });
    return { data: { deleted: true, id: action.id } };
  },

  // Flattens the hosted record (or a draft record_value); without hosted SPF, the domain's live record.
  flattenSpf: async (req, ctx) => {
    const domain = requireDomain(ctx, req.auth, req.params.domain_id);
    const draft = (req.body as { record_value?: string } | undefined)?.record_value;
    const hosted = loadHostedSpf(ctx.db, domain.id);
    const result =
      draft !== undefined
        ? await flattenHosted(domain.fqdn, draft, ctx.resolver)
        : hosted
          ? await flattenHosted(domain.fqdn, hosted.value, ctx.resolver)
          : await flattenSpf(domain.fqdn, ctx.resolver);
    if (result.status === 'none' && !hosted && draft === undefined) {
      throw notFound('SPF record (nothing is hosted and the domain publishes none)');
    }
    return {
      data: {
        domain_id: domain.id,
        source: draft !== undefined ? 'draft' : hosted ? 'hosted' : 'dns',
        record: result.record,
        flattened_record: result.flattened_record,
        ipv4: result.ipv4,
        ipv6: result.ipv6,
        lookup_count: result.lookup_count,
        lookup_limit: result.lookup_limit,
        void_lookup_count: result.void_lookup_count,
        void_lookup_limit: result.void_lookup_limit,
        within_limit: result.within_limit,
        status: result.status,
        errors: result.errors.map((e) => `${e.domain}: ${e.message}`),
        warnings: result.warnings.map((w) => `${w.domain}: ${w.message}`),
      },
    };
  },
};
