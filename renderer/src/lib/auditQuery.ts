/** The audit log's filters as typed in the form (strings), and their check before a request is made. */
export interface AuditForm {
  method: '' | 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  action: string;
  path: string;
  status_code: string;
  status_class: '' | '2xx' | '3xx' | '4xx' | '5xx';
  ip_address: string;
  token_id: string;
  /** A domain of the account (its id): the entries whose path is that domain's. */
  domain_id: string;
  /** A member (user id): kept on this computer, the interface has no such filter. */
  user_id: string;
  q: string;
  start_date: string;
  end_date: string;
  page: string;
  limit: string;
}

export const EMPTY_AUDIT_FORM: AuditForm = {
  method: '',
  action: '',
  path: '',
  status_code: '',
  status_class: '',
  ip_address: '',
  token_id: '',
  domain_id: '',
  user_id: '',
  q: '',
  start_date: '',
  end_date: '',
  page: '1',
  limit: '25',
};

export type AuditQuery = Record<string, string | number>;
export type AuditErrors = Partial<Record<keyof AuditForm, string>>;

const MAX_LENGTH: Partial<Record<keyof AuditForm, number>> = {
  action: 200,
  path: 500,
  ip_address: 45,
  q: 200,
};

function integer(text: string, min: number, max: number): number | string {
  if (!/^\d+$/.test(text)) return `a whole number from ${min} to ${max}`;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min || n > max) return `a whole number from ${min} to ${max}`;
  return n;
}

/** True for a real calendar day written YYYY-MM-DD. */
export function isIsoDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const t = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === text;
}

/**
 * Checks the form as the interface would (types, bounds, formats) and builds the panel query with only the
 * filters that are set. Errors are per field, in words.
 */
export function auditQuery(form: AuditForm): { query: AuditQuery; errors: AuditErrors } {
  const query: AuditQuery = {};
  const errors: AuditErrors = {};
  const text = (key: keyof AuditForm) => form[key].trim();

  if (form.method) query.method = form.method;
  if (form.status_class) query.status_class = form.status_class;
  for (const key of ['action', 'path', 'ip_address', 'q'] as const) {
    const value = text(key);
    if (!value) continue;
    const max = MAX_LENGTH[key]!;
    if (value.length > max) errors[key] = `At most ${max} characters.`;
    else query[key] = value;
  }
  if (text('ip_address') && !errors.ip_address && !/^[0-9A-Fa-f:.]+$/.test(text('ip_address')))
    errors.ip_address = 'An IP address, e.g. 203.0.113.7 or 2001:db8::1.';

  if (text('status_code')) {
    const n = integer(text('status_code'), 100, 599);
    if (typeof n === 'number') query.status_code = n;
    else errors.status_code = `The status code must be ${n}.`;
  }
  if (text('token_id')) {
    const n = integer(text('token_id'), 1, 2_147_483_647);
    if (typeof n === 'number') query.token_id = n;
    else errors.token_id = 'A token id is a whole number from 1 (see the tokens list).';
  }
  // The interface filters by path: a domain's entries are those under /domains/<id> (the page keeps only
  // those of exactly that domain, /domains/12 being under /domains/1 as text).
  if (/^\d+$/.test(text('domain_id')) && !query.path) query.path = `/domains/${text('domain_id')}`;
  for (const key of ['start_date', 'end_date'] as const) {
    const value = text(key);
    if (!value) continue;
    if (isIsoDay(value)) query[key] = value;
    else errors[key] = 'A day written YYYY-MM-DD, e.g. 2026-11-24.';
  }
  if (query.start_date && query.end_date && String(query.start_date) > String(query.end_date))
    errors.end_date = 'The last day comes before the first day.';

  const page = integer(text('page') || '1', 1, 2_147_483_647);
  if (typeof page === 'number') query.page = page;
  else errors.page = `The page must be ${page}.`;
  const limit = integer(text('limit') || '25', 1, 100);
  if (typeof limit === 'number') query.limit = limit;
  else errors.limit = `Rows per page must be ${limit}.`;
  return { query, errors };
}

/** One row of GET /audit-logs, as far as the screen reads it (the answer is checked field by field). */
export interface AuditRow {
  id: number | null;
  requestId: string;
  action: string;
  method: string;
  path: string;
  statusCode: number | null;
  ipAddress: string;
  tokenId: number | null;
  tokenName: string;
  /** The member whose token made the call. */
  userId: number | null;
  createdAt: string | null;
}

/** Reads the panel's data tolerantly: anything that is not a list of objects gives no rows. */
export function auditRows(data: unknown): AuditRow[] {
  if (!Array.isArray(data)) return [];
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return data
    .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null)
    .map((r) => ({
      id: int(r.id),
      requestId: str(r.request_id),
      action: str(r.action),
      method: str(r.method),
      path: str(r.path),
      statusCode: int(r.status_code),
      ipAddress: str(r.ip_address),
      tokenId: int(r.token_id),
      tokenName: str(r.token_name),
      userId: int(r.user_id),
      createdAt: typeof r.created_at === 'string' ? r.created_at : null,
    }));
}
