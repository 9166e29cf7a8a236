/** The scope catalogue served by GET /auth/scopes and accepted by POST /auth/tokens. */

/** One scope of the catalogue. */
export interface ScopeEntry {
  id: string;
  description: string;
  group: 'v1' | 'legacy';
}

/** The v1 scopes (spec "Scopes" table). */
export const V1_SCOPES: readonly ScopeEntry[] = [
  { id: 'account:read', description: 'Read account and token metadata; audit logs; BIMI registrations.' },
  { id: 'me:read', description: 'Read current user profile, permissions, domains, security.' },
  { id: 'me:write', description: 'Update current user profile.' },
  { id: 'users:read', description: 'List account users and domain access; roles.' },
  { id: 'users:write', description: 'Create, update, delete account users.' },
  { id: 'tokens:read', description: 'List active API tokens.' },
  { id: 'tokens:write', description: 'Create and revoke API tokens.' },
  { id: 'domains:read', description: 'List and read domains (and all read-style domain endpoints).' },
  { id: 'domains:write', description: 'Create, update and delete domains and their hosted records.' },
].map((s) => ({ ...s, group: 'v1' as const }));

/** Legacy scopes: valid on tokens for older integrations, required by no v1 endpoint. */
export const LEGACY_SCOPES: readonly ScopeEntry[] = [
  { id: 'email-trust:read', description: 'DMARC/SPF/BIMI trust data.' },
  { id: 'reports:read', description: 'Aggregate and compliance reports.' },
  { id: 'integrations:read', description: 'Integration settings.' },
  { id: 'integrations:write', description: 'Manage integrations.' },
].map((s) => ({ ...s, group: 'legacy' as const }));

/** Every v1 scope id (what `--token` and the demo owner's token carry). */
export const ALL_V1_SCOPE_IDS: readonly string[] = V1_SCOPES.map((s) => s.id);

const KNOWN = new Set([...V1_SCOPES, ...LEGACY_SCOPES].map((s) => s.id));

/** True for a v1 or legacy scope id. */
export function isKnownScope(id: string): boolean {
  return KNOWN.has(id);
}
