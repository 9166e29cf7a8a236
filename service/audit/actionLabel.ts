/**
 * The audit log's `action` label of an operation, derived from its path template and method by one rule
 * (so a new operation gets a label without editing a table):
 *
 *   1. Path parameters are dropped: `/domains/{domain_id}/hosted-spf` → `domains`, `hosted-spf`.
 *   2. Collection segments are singularised (COLLECTIONS below), hyphens become underscores:
 *      `domain`, `hosted_spf`.
 *   3. A POST to a command segment (COMMANDS below: verify, check-dns, reset, setup, …) ends the label with
 *      that command: `POST /domains/{id}/mta-sts/reset` → `domain.mta_sts.reset`.
 *   4. Otherwise a verb from the method is appended: GET → `list` when the path ends at a collection,
 *      else `read`; POST → `create`; PUT → `replace`; PATCH → `update`; DELETE → `delete`.
 *      `PATCH /domains/{id}/hosted-spf` → `domain.hosted_spf.update`.
 *
 * OVERRIDES names the few operations whose rule label would read wrong (e.g. a DELETE that revokes).
 */
import type { DocumentOperation } from '../openapi/document.ts';

const COLLECTIONS: Record<string, string> = {
  domains: 'domain',
  users: 'user',
  roles: 'role',
  tokens: 'token',
  scopes: 'scope',
  'domain-groups': 'domain_group',
  'audit-logs': 'audit_log',
  includes: 'include',
  'ip-actions': 'ip_action',
  reports: 'report',
  registrations: 'registration',
};

const COMMANDS: Record<string, string> = {
  verify: 'verify',
  'check-dns': 'check_dns',
  check: 'check',
  reset: 'reset',
  setup: 'setup',
  flatten: 'flatten',
  recommendation: 'recommend',
  'svg-convert': 'svg_convert',
  inspect: 'inspect',
  'reinvite-user': 'reinvite',
};

const OVERRIDES: Record<string, string> = {
  revokeToken: 'auth.token.revoke',
  inviteUser: 'user.invite',
  addDomainToGroup: 'domain_group.domain.add',
  removeDomainFromGroup: 'domain_group.domain.remove',
};

const VERBS: Record<string, string> = { POST: 'create', PUT: 'replace', PATCH: 'update', DELETE: 'delete' };

/** The action label of an operation (see the rule above). */
export function actionLabel(op: Pick<DocumentOperation, 'operationId' | 'method' | 'path'>): string {
  const override = OVERRIDES[op.operationId];
  if (override) return override;
  const segments = op.path.split('/').filter(Boolean);
  const last = segments.at(-1) ?? '';
  const statics = segments.filter((s) => !s.startsWith('{'));
  const nouns = statics.map((s) => (COLLECTIONS[s] ?? s).replace(/-/g, '_'));
  const lastStatic = statics.at(-1) ?? '';
  if (op.method === 'POST' && last === lastStatic && COMMANDS[lastStatic]) {
    return [...nouns.slice(0, -1), COMMANDS[lastStatic]].join('.');
  }
  let verb = VERBS[op.method];
  if (!verb) verb = !last.startsWith('{') && COLLECTIONS[last] ? 'list' : 'read';
  return [...nouns, verb].join('.');
}
