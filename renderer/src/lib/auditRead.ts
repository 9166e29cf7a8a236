/**
 * One read of the audit page: the page of entries the filters ask for (from the mirror first, then live),
 * or — when a domain or a person is picked — a search over the whole log (auditSearch.ts) paged here; then
 * the before → after the mirror knows for the entries shown.
 */
import type { AuditFieldChange } from '../../../shared/bridge/auditChanges.ts';
import type { BridgeApi } from '../../../shared/bridge/contract.ts';
import type { PanelResult } from '../../../shared/bridge/panelData.ts';
import { auditRows, type AuditForm, type AuditQuery } from './auditQuery.ts';
import { auditMatcher, searchAudit, SEARCH_PAGE_SIZE, type AuditSearch } from './auditSearch.ts';

/** What the page shows after a read (reported more than once: the kept copy first, then the live one). */
export interface AuditRead {
  result: PanelResult<'audit_logs'> | null;
  searched: AuditSearch | null;
  /** Before → after by request id; undefined until asked for the entries shown. */
  diffs?: Map<string, AuditFieldChange[]>;
}

type Api = Pick<BridgeApi, 'readPanel' | 'auditChanges'>;

/** Reads what the filters ask for and reports each state to `show`. */
export async function readAudit(
  api: Api,
  input: { accountId: number; form: AuditForm; query: AuditQuery; mode: 'auto' | 'refresh' },
  show: (read: AuditRead) => void,
): Promise<void> {
  const { accountId, form, query, mode } = input;
  const domain = /^\d+$/.test(form.domain_id) ? Number(form.domain_id) : null;
  const person = /^\d+$/.test(form.user_id) ? Number(form.user_id) : null;
  let result: PanelResult<'audit_logs'>;
  let searched: AuditSearch | null = null;
  if (domain !== null || person !== null) {
    // The interface has no person filter and matches paths as text: read the whole log (newest first,
    // bounded), keep the matches, and page them here.
    const { page: wanted, limit, ...filters } = query;
    searched = await searchAudit(
      (page) =>
        api.readPanel({
          panel: 'audit_logs',
          accountId,
          query: { ...filters, page, limit: SEARCH_PAGE_SIZE },
          mode,
        }),
      auditMatcher(domain, person),
    );
    const size = Number(limit);
    const first = (Number(wanted) - 1) * size;
    result = {
      panel: 'audit_logs',
      data: searched.matches.slice(first, first + size),
      pagination: {
        page: Number(wanted),
        limit: size,
        total: searched.matches.length,
        has_more: first + size < searched.matches.length,
      },
      fetchedAt: searched.fetchedAt,
      source: searched.source,
      error: searched.error,
    };
  } else {
    const request = { panel: 'audit_logs' as const, accountId, query };
    const cached = await api.readPanel({ ...request, mode: 'cache' });
    if (cached.fetchedAt) show({ result: cached, searched: null });
    result = await api.readPanel({ ...request, mode });
  }
  show({ result, searched });
  const found = await api.auditChanges({
    accountId,
    entries: auditRows(result.data).map((r) => ({
      requestId: r.requestId,
      method: r.method,
      path: r.path,
      statusCode: r.statusCode,
      at: r.createdAt,
    })),
  });
  show({ result, searched, diffs: new Map(found.map((f) => [f.requestId, f.changes])) });
}
