/**
 * The audit log as a history of changes: each entry told as who did what to which domain or object, from
 * the interface's row (method, path, action, token, user) and what the app knows — the write operations'
 * summaries, the account's domains, members, groups and tokens by id. The HTTP request stays a detail.
 */
import type { AuditFieldChange } from '../../../shared/bridge/auditChanges.ts';
import type { EditOperationInfo } from '../../../shared/bridge/results.ts';
import type { AuditRow } from './auditQuery.ts';

/** Names the app knows, by the interface's ids. */
export interface AuditNames {
  operations: readonly EditOperationInfo[];
  domains: ReadonlyMap<number, string>;
  members: ReadonlyMap<number, string>;
  groups: ReadonlyMap<number, string>;
  tokens: ReadonlyMap<number, string>;
}

/** One entry in words. */
export interface AuditChange {
  row: AuditRow;
  /** What was done: the operation's summary ("Set the DMARC enforcement policy"). */
  what: string;
  /** The domain it acted on, when the path names one. */
  domain: { id: number; fqdn: string | null } | null;
  /** The other thing it acted on, named ("group Brands", "member Adam Admin", "token Backup"). */
  object: string | null;
  /** Who: the member, and the token they used. */
  who: string;
  /** Done, refused (4xx) or failed (5xx). */
  outcome: 'done' | 'refused' | 'failed' | 'unknown';
  /** Before → after in words ("Policy: quarantine → reject"), where the mirror knows it. */
  changes: string[];
}

/** The journal's fields (request fields and record tags) in words. */
const FIELD_WORDS: Record<string, string> = {
  p: 'Policy',
  policy: 'Policy',
  sp: 'Subdomain policy',
  pct: 'Percentage of mail the policy applies to',
  adkim: 'DKIM alignment',
  aspf: 'SPF alignment',
  rua: 'Aggregate report addresses',
  ruf: 'Failure report addresses',
  fo: 'Failure reporting options',
  ri: 'Report interval (seconds)',
  np: 'Non-existent subdomain policy',
  record: 'Record',
  role: 'Role',
  name: 'Name',
  description: 'Description',
  status: 'Status',
  enabled: 'Enabled',
  mode: 'Mode',
  max_age: 'Policy lifetime (seconds)',
  mx: 'Mail servers',
  l: 'Logo address',
  a: 'Certificate address',
  all_domains: 'Every domain',
  member: 'Member',
  group: 'Group',
  token: 'Token',
  domain: 'Domain',
};

/** A field's label in words (an unknown one with its underscores as spaces). */
function fieldLabel(field: string): string {
  const known = FIELD_WORDS[field];
  if (known) return known;
  const spaced = field.replace(/_/g, ' ');
  return `${spaced.charAt(0).toUpperCase()}${spaced.slice(1)}`;
}

/** One change in words: "Policy: quarantine → reject", "Record removed — it was v=spf1 …", "Role set to Admin". */
export function changeWords(change: AuditFieldChange): string {
  const label = fieldLabel(change.field);
  const { before, after } = change;
  if (before !== null && after !== null) return `${label}: ${before} → ${after}`;
  if (change.field === 'record')
    return after === null ? `Record removed — it was ${before ?? 'unknown'}` : `Record published: ${after}`;
  if (after === null)
    return ['member', 'group', 'token', 'domain'].includes(change.field)
      ? `${label} ${before ?? ''} removed`.replace('  ', ' ')
      : `${label} removed (it was ${before ?? 'unknown'})`;
  return `${label} set to ${after}`;
}

const NOUNS: Record<string, string> = {
  audit_log: 'the audit log',
  hosted_spf: 'hosted SPF',
  hosted_dmarc: 'hosted DMARC',
  dmarc_policy: 'DMARC policy',
  mta_sts: 'MTA-STS',
  tls_rpt: 'TLS-RPT',
  bimi: 'BIMI',
  domain_group: 'domain group',
  ip_action: 'SPF IP rule',
  include: 'SPF include',
  token: 'API token',
  user: 'team member',
  dmarc: 'DMARC',
  spf: 'SPF',
  vmc: 'the BIMI certificate',
  svg: 'the BIMI logo',
  me: 'own profile',
  permissions: 'permissions',
  security: 'security settings',
};
const VERBS: Record<string, string> = {
  list: 'Listed',
  read: 'Read',
  create: 'Created',
  update: 'Changed',
  replace: 'Replaced',
  delete: 'Deleted',
  revoke: 'Revoked',
  invite: 'Invited',
  recommend: 'Asked for a recommendation on',
  verify: 'Checked the records of',
  check: 'Checked',
  check_dns: 'Checked the DNS of',
  flatten: 'Previewed the flattened',
  setup: 'Set up',
  reset: 'Reset',
  svg_convert: 'Converted the logo of',
  inspect: 'Inspected',
  reinvite: 'Invited again',
};

/** An action label (domain.hosted_spf.update) in words, for calls no form of the app makes. */
export function actionWords(action: string): string {
  const parts = action.split('.').filter(Boolean);
  const verb = parts.at(-1) ?? '';
  const noun = parts.at(-2);
  const word = noun ? (NOUNS[noun] ?? noun.replace(/_/g, ' ')) : '';
  // A list is of many: "Listed API tokens".
  const thing =
    verb === 'list' && word && !word.startsWith('the ') && !word.endsWith('s') ? `${word}s` : word;
  const done = VERBS[verb] ?? verb.replace(/_/g, ' ');
  return `${done.charAt(0).toUpperCase()}${done.slice(1)}${thing ? ` ${thing}` : ''}`;
}

/** Matches a concrete path (with or without the /api/v1 base) against an operation's template. */
function match(template: string, path: string): Record<string, string> | null {
  const pattern = template
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{([a-z_]+)\\?\}/g, '(?<$1>[^/]+)');
  const found = new RegExp(`(?:^|/v1)${pattern}/?$`).exec(path.split('?')[0] ?? '');
  return found ? { ...found.groups } : null;
}

/** The entry told in words. */
export function describeAudit(
  row: AuditRow,
  names: AuditNames,
  changes: readonly AuditFieldChange[] = [],
): AuditChange {
  const op = names.operations.find((o) => o.method === row.method && match(o.path, row.path));
  const ids = (op && match(op.path, row.path)) ?? {};
  const domainMatch = /\/domains\/(\d+)(?:\/|$)/.exec(row.path);
  const domainId = ids.domain_id ? Number(ids.domain_id) : domainMatch ? Number(domainMatch[1]) : null;
  const named = (map: ReadonlyMap<number, string>, id: string | undefined, what: string) =>
    id === undefined ? null : `${what} ${map.get(Number(id)) ?? `number ${id}`}`;
  const object =
    named(names.groups, ids.group_id, 'group') ??
    named(names.members, ids.user_id, 'member') ??
    named(names.tokens, ids.token_id, 'token') ??
    null;
  const member = row.userId !== null ? names.members.get(row.userId) : undefined;
  const token = row.tokenName ? `token “${row.tokenName}”` : null;
  const code = row.statusCode;
  return {
    row,
    what: op?.summary ?? actionWords(row.action),
    domain: domainId === null ? null : { id: domainId, fqdn: names.domains.get(domainId) ?? null },
    object,
    who: member ? `${member}${token ? ` · ${token}` : ''}` : (token ?? 'someone'),
    outcome: code === null ? 'unknown' : code >= 500 ? 'failed' : code >= 400 ? 'refused' : 'done',
    changes: changes.map(changeWords),
  };
}
