/** What every edit form needs besides its fields: the operations' list and who is calling. */
import type { BridgeApi } from '../../../shared/bridge/contract.ts';
import type { EditOperationInfo } from '../../../shared/bridge/results.ts';

/** Who is calling: the team-owner flag and the token's scopes (null when not known). */
export interface Caller {
  isOwner: boolean | null;
  scopes: string[] | null;
  /** When the token expires (null: never, or not known). */
  tokenExpiresAt?: string | null;
}

let operations: Promise<EditOperationInfo[]> | null = null;

/** The interface's write operations (read once per window; they follow the app's contract). */
export function editOperations(api: Pick<BridgeApi, 'editOperations'>): Promise<EditOperationInfo[]> {
  operations ??= api.editOperations().catch((error: unknown) => {
    operations = null;
    throw error;
  });
  return operations;
}

/** Who is calling, from /auth/me (the mirror's copy or live); unknown when it cannot be read. */
export async function readCaller(
  api: Pick<BridgeApi, 'readPanel'>,
  accountId: number,
  mode: 'auto' | 'cache' = 'auto',
): Promise<Caller> {
  const result = await api.readPanel({ panel: 'auth_me', accountId, mode }).catch(() => null);
  const me = result?.data;
  return {
    tokenExpiresAt: me?.token?.expires_at ?? null,
    isOwner: me?.is_team_owner ?? null,
    scopes: me?.token?.scopes ?? null,
  };
}
