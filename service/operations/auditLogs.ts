/**
 * GET /audit-logs (filters, newest first, paginated) and GET /audit-logs/{log_id}; both limited to the
 * caller's team (another team's entry → 404 not_found).
 */
import type { components } from '../../shared/api/types.gen.ts';
import type { OperationHandlers } from '../http/operation.ts';
import { notFound } from '../http/serviceError.ts';
import { requireAuth } from '../http/requireAuth.ts';
import { pageParams, paginated } from '../http/pagination.ts';
import { optionalDateWindow } from '../http/dateWindow.ts';

/** A stored row has exactly the columns of the document's audit log object. */
type AuditRow = components['schemas']['AuditLog'];

/** The audit log object (every stored column). */
function presentAudit(row: AuditRow): AuditRow {
  return { ...row };
}

/** Escapes LIKE wildcards so `path` and `q` match literally. */
function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export const handlers: OperationHandlers = {
  listAuditLogs: (req, ctx) => {
    const auth = requireAuth(req);
    const q = req.query as Record<string, string | number | undefined>;
    const page = pageParams(q);
    const window = optionalDateWindow(q);
    const where: string[] = ['team_id = @teamId'];
    const args: Record<string, string | number> = { teamId: auth.teamId };
    const add = (clause: string, name: string, value: string | number | undefined | null) => {
      if (value === undefined || value === null) return;
      where.push(clause);
      args[name] = value;
    };
    add('method = @method', 'method', q.method);
    add('action = @action', 'action', q.action);
    add(
      "path LIKE @path ESCAPE '\\'",
      'path',
      q.path === undefined ? undefined : likeContains(String(q.path)),
    );
    add('status_code = @statusCode', 'statusCode', q.status_code);
    if (typeof q.status_class === 'string') {
      const low = Number(q.status_class[0]) * 100;
      where.push('status_code >= @classLow AND status_code < @classHigh');
      args.classLow = low;
      args.classHigh = low + 100;
    }
    add('ip_address = @ip', 'ip', q.ip_address);
    add('token_id = @tokenId', 'tokenId', q.token_id);
    if (q.q !== undefined) {
      where.push(
        "(action LIKE @q ESCAPE '\\' OR path LIKE @q ESCAPE '\\' OR ip_address LIKE @q ESCAPE '\\')",
      );
      args.q = likeContains(String(q.q));
    }
    add('created_at >= @from', 'from', window.fromTimestamp);
    add('created_at < @to', 'to', window.toTimestamp);
    const condition = where.join(' AND ');
    const total = ctx.db
      .prepare<[typeof args], { n: number }>(`SELECT COUNT(*) AS n FROM audit_logs WHERE ${condition}`)
      .get(args)!.n;
    const rows = ctx.db
      .prepare<[typeof args], AuditRow>(
        `SELECT * FROM audit_logs WHERE ${condition} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
      )
      .all({ ...args, limit: page.limit, offset: page.offset });
    return paginated(total, rows.map(presentAudit), page);
  },

  getAuditLog: (req, ctx) => {
    const auth = requireAuth(req);
    const row = ctx.db
      .prepare<[number, number], AuditRow>('SELECT * FROM audit_logs WHERE id = ? AND team_id = ?')
      .get(req.params.log_id as number, auth.teamId);
    if (!row) throw notFound('Audit log entry');
    return { data: presentAudit(row) };
  },
};
