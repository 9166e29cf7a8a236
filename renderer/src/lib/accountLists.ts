/**
 * The account's lists as the pickers and the Manage screen read them — team members, roles, tokens, domain
 * groups, scopes, a domain's SPF includes and IP rules, its sending services — from the panels' data (the
 * interface's answers, kept in the mirror). Each reader is tolerant: a row without the fields the interface
 * names is left out, and anything that is not a list gives none.
 */
import type { components } from '../../../shared/api/types.gen.ts';
import type { PickOption } from '../kit/types.ts';

type Schemas = components['schemas'];
export type TeamMember = Schemas['User'];
export type Role = Schemas['Role'];
export type ApiTokenRow = Schemas['ApiToken'];
export type DomainGroupRow = Schemas['DomainGroup'];
export type ScopeRow = Schemas['Scope'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The rows of a list answer that carry a numeric id and the given string fields. */
function rowsWith<T>(data: unknown, fields: readonly string[]): T[] {
  if (!Array.isArray(data)) return [];
  return data.filter(
    (row): row is T =>
      isObject(row) && typeof row.id === 'number' && fields.every((f) => typeof row[f] === 'string'),
  );
}

export const members = (data: unknown): TeamMember[] => rowsWith<TeamMember>(data, ['name', 'email']);
export const roles = (data: unknown): Role[] => rowsWith<Role>(data, ['name']);
export const tokens = (data: unknown): ApiTokenRow[] =>
  rowsWith<ApiTokenRow>(data, ['name']).map((t) => ({
    ...t,
    scopes: Array.isArray(t.scopes) ? t.scopes : [],
  }));
export const groups = (data: unknown): DomainGroupRow[] => rowsWith<DomainGroupRow>(data, ['name']);

/** The scopes a token can be given (GET /auth/scopes: v1 first, then legacy), with what each allows. */
export function scopes(data: unknown): ScopeRow[] {
  if (!isObject(data)) return [];
  const list = (v: unknown): ScopeRow[] =>
    Array.isArray(v)
      ? v.filter(
          (s): s is ScopeRow => isObject(s) && typeof s.id === 'string' && typeof s.description === 'string',
        )
      : [];
  return [...list(data.v1), ...list(data.legacy)];
}

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** "Expires 3 Mar 2027", "Expired 1 Jan 2026" or "Does not expire". */
export function expiryWords(expiresAt: string | null | undefined, now = Date.now()): string {
  if (!expiresAt) return 'Does not expire';
  const t = Date.parse(expiresAt);
  if (Number.isNaN(t)) return 'Does not expire';
  return `${t < now ? 'Expired' : 'Expires'} ${day.format(t)}`;
}

/** The choices of a picker, by what it picks: names only (never an id to know). */
export function pickOptions(kind: string, data: unknown): PickOption[] {
  switch (kind) {
    case 'user_id':
      return members(data).map((m) => ({ value: String(m.id), label: m.name, hint: m.email }));
    case 'role_id':
      return roles(data).map((r) => ({
        value: String(r.id),
        label: r.name,
        hint: r.description ?? undefined,
      }));
    case 'token_id':
      return tokens(data).map((t) => ({
        value: String(t.id),
        label: t.name,
        hint: `${t.last_four ? `ends …${t.last_four}, ` : ''}${expiryWords(t.expires_at).toLowerCase()}`,
      }));
    case 'group_id':
      return groups(data).map((g) => ({
        value: String(g.id),
        label: g.name,
        hint: `${g.domains_count.toLocaleString()} ${g.domains_count === 1 ? 'domain' : 'domains'}`,
      }));
    case 'scopes':
      return scopes(data).map((s) => ({ value: s.id, label: s.id, hint: s.description }));
    case 'include_id':
      return rowsWith<Schemas['SpfInclude']>(data, ['include_content']).map((i) => ({
        value: String(i.id),
        label: i.include_content,
      }));
    case 'ip_action_id':
      return rowsWith<Schemas['SpfIpAction']>(data, ['ip', 'type']).map((a) => ({
        value: String(a.id),
        label: `${a.type} ${a.ip}`,
      }));
    case 'service_ids': {
      const services = isObject(data) ? data.services : null;
      return rowsWith<Schemas['SendingService']>(services, ['name']).map((s) => ({
        value: String(s.id),
        label: s.name,
        hint: s.category ?? undefined,
      }));
    }
    default:
      return [];
  }
}
