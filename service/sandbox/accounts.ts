/** POST /_sandbox/accounts {name, plan, api_access?, owner_name?, owner_email?} → {team_id, owner_user_id}. */
import type { ServiceDb } from '../db/openServiceDb.ts';
import type { SandboxRoute } from './sandboxRoute.ts';

/** Role id of the Owner role (001_core.sql). */
export const OWNER_ROLE_ID = 1;

/** What creating an account needs. */
export interface NewAccount {
  name: string;
  plan: 'comply' | 'trial' | 'protect' | 'suite';
  apiAccess: boolean;
  ownerName: string;
  ownerEmail: string;
  now: Date;
}

/** Creates a team and its owner user; returns their ids. */
export function createAccount(db: ServiceDb, a: NewAccount): { teamId: number; ownerUserId: number } {
  return db.transaction(() => {
    const at = a.now.toISOString();
    const teamId = Number(
      db
        .prepare('INSERT INTO teams (name, plan, api_access, created_at) VALUES (?, ?, ?, ?)')
        .run(a.name, a.plan, a.apiAccess ? 1 : 0, at).lastInsertRowid,
    );
    const ownerUserId = Number(
      db
        .prepare(
          `INSERT INTO users (team_id, name, email, role_id, status, is_owner, created_at, updated_at, last_login_at)
           VALUES (?, ?, ?, ?, 'enabled', 1, ?, ?, ?)`,
        )
        .run(teamId, a.ownerName, a.ownerEmail.toLowerCase(), OWNER_ROLE_ID, at, at, at).lastInsertRowid,
    );
    return { teamId, ownerUserId };
  })();
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'team'
  );
}

export const routes: SandboxRoute[] = [
  {
    method: 'POST',
    path: '/accounts',
    body: {
      type: 'object',
      required: ['name', 'plan'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 100 },
        plan: { enum: ['comply', 'trial', 'protect', 'suite'] },
        api_access: { type: 'boolean', default: true },
        owner_name: { type: 'string', minLength: 1, maxLength: 50 },
        owner_email: { type: 'string', format: 'email', maxLength: 254 },
      },
    },
    handler: (req, ctx) => {
      const b = req.body as {
        name: string;
        plan: NewAccount['plan'];
        api_access: boolean;
        owner_name?: string;
        owner_email?: string;
      };
      const created = createAccount(ctx.db, {
        name: b.name,
        plan: b.plan,
        apiAccess: b.api_access,
        ownerName: b.owner_name ?? `${b.name} Owner`,
        ownerEmail: b.owner_email ?? `owner@${slug(b.name)}.example`,
        now: ctx.clock(),
      });
      return { status: 201, data: { team_id: created.teamId, owner_user_id: created.ownerUserId } };
    },
  },
];
