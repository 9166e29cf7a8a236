/**
 * The demo account: team "Acme Corp" (Suite plan, API access on), its owner and three members.
 * On an empty database the ids are fixed: team 1; users 1 (owner) … 4. Seeding a database that already
 * holds the demo team changes nothing and returns the existing ids. S3 extends this with domains and history.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { createAccount } from '../sandbox/accounts.ts';

/** Ids of what seedDemo created. */
export interface DemoSeed {
  teamId: number;
  ownerUserId: number;
  /** Members by role: admin (Admin), domainManager (Domain Manager), viewer (Viewer). */
  members: { admin: number; domainManager: number; viewer: number };
}

export const DEMO_TEAM_NAME = 'Acme Corp';
export const DEMO_OWNER_EMAIL = 'olivia.owner@acme.example';

const MEMBERS = [
  { key: 'admin', name: 'Adam Admin', email: 'adam.admin@acme.example', roleId: 2, mfa: 1 },
  { key: 'domainManager', name: 'Dana Manager', email: 'dana.manager@acme.example', roleId: 6, mfa: 0 },
  { key: 'viewer', name: 'Victor Viewer', email: 'victor.viewer@acme.example', roleId: 4, mfa: 0 },
] as const;

/** Creates the demo team and its users (idempotent). */
export function seedDemo(db: ServiceDb, options: { now: Date }): DemoSeed {
  const existing = db
    .prepare<[string], { id: number }>('SELECT id FROM teams WHERE name = ? ORDER BY id LIMIT 1')
    .get(DEMO_TEAM_NAME);
  if (existing) return readSeed(db, existing.id);
  return db.transaction(() => {
    const at = options.now.toISOString();
    const { teamId } = createAccount(db, {
      name: DEMO_TEAM_NAME,
      plan: 'suite',
      apiAccess: true,
      ownerName: 'Olivia Owner',
      ownerEmail: DEMO_OWNER_EMAIL,
      now: options.now,
    });
    const ownerId = db
      .prepare<[number], { id: number }>('SELECT id FROM users WHERE team_id = ? AND is_owner = 1')
      .get(teamId)!.id;
    db.prepare(`UPDATE users SET mfa_enabled = 1, mfa_methods = '["totp"]' WHERE id = ?`).run(ownerId);
    db.prepare('INSERT INTO user_passkeys (user_id, name, created_at) VALUES (?, ?, ?)').run(
      ownerId,
      'MacBook Touch ID',
      at,
    );
    const insert = db.prepare(
      `INSERT INTO users (team_id, name, email, role_id, status, is_owner, mfa_enabled, mfa_methods, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'enabled', 0, ?, ?, ?, ?)`,
    );
    for (const m of MEMBERS) {
      insert.run(teamId, m.name, m.email, m.roleId, m.mfa, m.mfa ? '["totp"]' : '[]', at, at);
    }
    return readSeed(db, teamId);
  })();
}

function readSeed(db: ServiceDb, teamId: number): DemoSeed {
  const idOf = (email: string) =>
    db
      .prepare<[number, string], { id: number }>('SELECT id FROM users WHERE team_id = ? AND email = ?')
      .get(teamId, email)!.id;
  return {
    teamId,
    ownerUserId: idOf(DEMO_OWNER_EMAIL),
    members: {
      admin: idOf(MEMBERS[0].email),
      domainManager: idOf(MEMBERS[1].email),
      viewer: idOf(MEMBERS[2].email),
    },
  };
}
