/**
 * The demo account: team "Acme Corp" (Suite plan, API access on), its owner and three members.
 * On an empty database the ids are fixed: team 1; users 1 (owner) … 4. Seeding a database that already
 * holds the demo team changes nothing and returns the existing ids.
 *
 * `seedDemo` creates the account only (what most test suites start from); `seedDemoData` adds the portfolio
 * and its 90 days of history (./portfolio.ts, ./history.ts): what a new user sees first.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { createAccount } from '../sandbox/accounts.ts';
import { setDomainAccess } from '../team/domainAccess.ts';
import { playHistory, type HistoryStats } from './history.ts';
import { createOperator, createSeedContext } from './operator.ts';
import { PORTFOLIO, type GroupName } from './portfolio.ts';
import { createPrng } from './prng.ts';
import type { SeedWorld } from './setup.ts';

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

/** What seedDemoData created (or found). */
export interface DemoDataSeed extends DemoSeed {
  /** Domain ids by fqdn. */
  domainIds: Record<string, number>;
  /** Group ids by name. */
  groupIds: Record<string, number>;
  /** What the history produced; null when the portfolio was already there. */
  stats: HistoryStats | null;
}

/** Default seed of the demo generator. */
export const DEMO_SEED = 'acme-demo-v1';

function readPortfolio(db: ServiceDb, teamId: number): Pick<DemoDataSeed, 'domainIds' | 'groupIds'> {
  const domains = db
    .prepare<[number], { id: number; fqdn: string }>(
      'SELECT id, fqdn FROM domains WHERE team_id = ? ORDER BY id',
    )
    .all(teamId);
  const groups = db
    .prepare<[number], { id: number; name: string }>(
      'SELECT id, name FROM domain_groups WHERE team_id = ? ORDER BY id',
    )
    .all(teamId);
  return {
    domainIds: Object.fromEntries(domains.map((d) => [d.fqdn, d.id])),
    groupIds: Object.fromEntries(groups.map((g) => [g.name, g.id])),
  };
}

/**
 * Creates the demo account with its portfolio and 90 days of history ending at `now`, all in one transaction
 * (a failure leaves the database as it was). Deterministic: the same `now` and `seed` give the same data.
 * Idempotent: when the demo team already holds domains nothing changes.
 */
export async function seedDemoData(
  db: ServiceDb,
  options: { now: Date; seed?: number | string },
): Promise<DemoDataSeed> {
  const account = seedDemo(db, { now: options.now });
  const existing = readPortfolio(db, account.teamId);
  if (Object.keys(existing.domainIds).length > 0) return { ...account, ...existing, stats: null };

  const ctx = createSeedContext(db, options.now);
  const world: SeedWorld = {
    ctx,
    owner: createOperator(ctx, { teamId: account.teamId, userId: account.ownerUserId }),
    prng: createPrng(options.seed ?? DEMO_SEED),
    now: options.now,
    groupIds: new Map(),
    domainIds: new Map(),
  };
  db.exec('BEGIN IMMEDIATE');
  try {
    const stats = await playHistory(world);
    ctx.setNow(options.now);
    // Today's verification and MTA-STS check, as the owner's last visit left them.
    for (const plan of PORTFOLIO) {
      const params = { domain_id: world.domainIds.get(plan.fqdn)! };
      await world.owner.call('verifyDomain', { params });
      if (plan.mtaSts) await world.owner.call('checkMtaSts', { params, body: { verify_dns: true } });
    }
    const idsIn = (group: GroupName) =>
      PORTFOLIO.filter((p) => p.group === group).map((p) => world.domainIds.get(p.fqdn)!);
    // The domain manager looks after transactional mail, the viewer follows the regional domains.
    setDomainAccess(
      db,
      account.members.domainManager,
      { allDomains: false, domainIds: idsIn('Transactional') },
      options.now,
    );
    setDomainAccess(
      db,
      account.members.viewer,
      { allDomains: false, domainIds: idsIn('Regional') },
      options.now,
    );
    db.exec('COMMIT');
    return { ...account, ...readPortfolio(db, account.teamId), stats };
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}
