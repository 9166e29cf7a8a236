// Authentication and authorization over real HTTP: the spec's 401/403 rows, the check order, the token
// lifecycle, and the account/profile operations of the token owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { ALL_V1_SCOPE_IDS } from '../../../service/auth/scopes.ts';

let svc: ServiceHarness;
let owner: string;

beforeAll(async () => {
  svc = await startService();
  owner = (await svc.createToken([...ALL_V1_SCOPE_IDS], { name: 'owner full' })).token;
});

afterAll(() => stopService(svc));

async function accountToken(plan: string, apiAccess: boolean, scopes = ['me:read']): Promise<string> {
  const acct = await svc.sandbox('POST', '/accounts', {
    name: `${plan} ${apiAccess} co`,
    plan,
    api_access: apiAccess,
  });
  expect(acct.status).toBe(201);
  return (await svc.createToken(scopes, { userId: acct.body.data.owner_user_id })).token;
}

describe('401 rows', () => {
  it('missing X-Api-Token → 401 missing_api_token', async () => {
    const res = await svc.call('GET', '/me');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('missing_api_token');
  });

  it('refuses Authorization: Bearer even with a valid token (401 missing_api_token)', async () => {
    const res = await svc.call('GET', '/me', { headers: { authorization: `Bearer ${owner}` } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('missing_api_token');
  });

  it('unknown token → 401 invalid_api_token, without echoing the token', async () => {
    const res = await svc.call('GET', '/me', { token: 'awt_notarealtokenatallnotarealtokenatall1234' });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_api_token');
    expect(JSON.stringify(res.body)).not.toContain('notarealtoken');
  });

  it('expired token → 401 invalid_api_token (created expired, and expiring as the clock moves)', async () => {
    const expired = (await svc.createToken(['me:read'], { expiresInDays: 0 })).token;
    expect((await svc.call('GET', '/me', { token: expired })).body.error.code).toBe('invalid_api_token');

    const oneDay = (await svc.createToken(['me:read'], { expiresInDays: 1 })).token;
    expect((await svc.call('GET', '/me', { token: oneDay })).status).toBe(200);
    svc.clock.advance(86_400_000 + 1000);
    try {
      const res = await svc.call('GET', '/me', { token: oneDay });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('invalid_api_token');
    } finally {
      svc.clock.advance(-(86_400_000 + 1000));
    }
  });
});

describe('403 rows', () => {
  it('account without API access → 403 api_access_disabled', async () => {
    const t = await accountToken('suite', false);
    const res = await svc.call('GET', '/me', { token: t });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('api_access_disabled');
  });

  it('comply and trial plans → 403 api_plan_not_eligible; protect and suite pass', async () => {
    for (const plan of ['comply', 'trial']) {
      const res = await svc.call('GET', '/me', { token: await accountToken(plan, true) });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('api_plan_not_eligible');
    }
    for (const plan of ['protect', 'suite']) {
      const res = await svc.call('GET', '/me', { token: await accountToken(plan, true) });
      expect(res.status).toBe(200);
    }
  });

  it('token without the operation scope → 403 insufficient_scope naming the scope', async () => {
    const t = (await svc.createToken(['me:read', 'email-trust:read'])).token;
    const res = await svc.call('GET', '/audit-logs', { token: t });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('insufficient_scope');
    expect(res.body.error.message).toContain('account:read');
    const write = await svc.call('PATCH', '/me', { token: t, body: { name: 'X' } });
    expect(write.body.error.message).toContain('me:write');
  });

  it('owner-only write by a team member → 403 team_owner_required', async () => {
    const member = (await svc.createToken(['domains:write'], { userId: svc.seed!.members.admin })).token;
    const res = await svc.call('POST', '/domains', { token: member, body: { fqdn: 'member.example' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('team_owner_required');
  });

  it('a disabled member’s tokens stop working (401 invalid_api_token)', async () => {
    const viewer = svc.seed!.members.viewer;
    const t = (await svc.createToken(['me:read'], { userId: viewer })).token;
    expect((await svc.call('GET', '/me', { token: t })).status).toBe(200);
    svc.db.prepare("UPDATE users SET status = 'disabled' WHERE id = ?").run(viewer);
    try {
      expect((await svc.call('GET', '/me', { token: t })).body.error.code).toBe('invalid_api_token');
    } finally {
      svc.db.prepare("UPDATE users SET status = 'enabled' WHERE id = ?").run(viewer);
    }
  });
});

describe('order of checks', () => {
  it('authentication comes before validation and scope', async () => {
    const res = await svc.call('GET', '/audit-logs', { query: { limit: 0 } });
    expect(res.body.error.code).toBe('missing_api_token');
    const bad = await svc.call('GET', '/audit-logs', { token: 'awt_wrong', query: { limit: 0 } });
    expect(bad.body.error.code).toBe('invalid_api_token');
  });

  it('account checks come before scope; scope before owner; owner before validation', async () => {
    const disabled = await accountToken('suite', false, []);
    expect((await svc.call('GET', '/audit-logs', { token: disabled })).body.error.code).toBe(
      'api_access_disabled',
    );
    const comply = await accountToken('comply', true, []);
    expect((await svc.call('GET', '/audit-logs', { token: comply })).body.error.code).toBe(
      'api_plan_not_eligible',
    );

    const memberNoScope = (await svc.createToken(['me:read'], { userId: svc.seed!.members.admin })).token;
    const a = await svc.call('POST', '/domains', { token: memberNoScope, body: { bogus: true } });
    expect(a.body.error.code).toBe('insufficient_scope');
    const member = (await svc.createToken(['domains:write'], { userId: svc.seed!.members.admin })).token;
    const b = await svc.call('POST', '/domains', { token: member, body: { bogus: true } });
    expect(b.body.error.code).toBe('team_owner_required');

    const noScope = (await svc.createToken(['me:read'])).token;
    const c = await svc.call('GET', '/audit-logs', { token: noScope, query: { limit: 0 } });
    expect(c.body.error.code).toBe('insufficient_scope');
  });
});

describe('token lifecycle', () => {
  it('creates a token whose plain text is shown once, works, is listed without secrets, and revokes', async () => {
    const created = await svc.call('POST', '/auth/tokens', {
      token: owner,
      body: { name: 'CI reader', scopes: ['me:read', 'tokens:read'], expires_in_days: 30 },
    });
    expect(created.status).toBe(201);
    const plain: string = created.body.data.plain_text;
    expect(plain).toMatch(/^awt_[A-Za-z0-9_-]{40}$/);
    expect(Date.parse(created.body.data.expires_at) - svc.clock.now().getTime()).toBe(30 * 86_400_000);

    expect((await svc.call('GET', '/me', { token: plain })).status).toBe(200);

    const list = await svc.call('GET', '/auth/tokens', { token: owner });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((t: { id: number }) => t.id === created.body.data.id);
    expect(listed.name).toBe('CI reader');
    expect(listed.scopes).toEqual(['me:read', 'tokens:read']);
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(plain);
    expect(text).not.toContain('plain_text');
    expect(text).not.toMatch(/[0-9a-f]{64}/); // no hash either

    const revoke = await svc.call('DELETE', `/auth/tokens/${created.body.data.id}`, { token: owner });
    expect(revoke.status).toBe(200);
    const after = await svc.call('GET', '/me', { token: plain });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('invalid_api_token');
    const relist = await svc.call('GET', '/auth/tokens', { token: owner });
    expect(relist.body.data.map((t: { id: number }) => t.id)).not.toContain(created.body.data.id);
    expect((await svc.call('DELETE', `/auth/tokens/${created.body.data.id}`, { token: owner })).status).toBe(
      404,
    );
  });

  it('stores no token secret anywhere in SQLite', async () => {
    const created = await svc.call('POST', '/auth/tokens', {
      token: owner,
      body: { name: 'secret check', scopes: ['me:read'] },
    });
    const plain: string = created.body.data.plain_text;
    const tables = svc.db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((t) => t.name);
    for (const table of tables) {
      const dump = JSON.stringify(svc.db.prepare(`SELECT * FROM "${table}"`).all());
      expect(dump, table).not.toContain(plain);
      expect(dump, table).not.toContain(plain.slice(4, 30));
    }
  });

  it('defaults to 90 days when expires_in_days is omitted', async () => {
    const created = await svc.call('POST', '/auth/tokens', {
      token: owner,
      body: { name: 'default', scopes: ['me:read'] },
    });
    expect(created.status).toBe(201);
    expect(Date.parse(created.body.data.expires_at) - svc.clock.now().getTime()).toBe(90 * 86_400_000);
  });

  it('rejects expires_in_days 0 and 366, unknown scopes and a missing name with 422 details', async () => {
    for (const days of [0, 366]) {
      const res = await svc.call('POST', '/auth/tokens', {
        token: owner,
        body: { name: 'x', scopes: ['me:read'], expires_in_days: days },
      });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['body.expires_in_days']);
    }
    const unknown = await svc.call('POST', '/auth/tokens', {
      token: owner,
      body: { name: 'x', scopes: ['me:read', 'root:all'] },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details.map((d: { field: string }) => d.field)).toContain('body.scopes[1]');
    const noName = await svc.call('POST', '/auth/tokens', { token: owner, body: { scopes: ['me:read'] } });
    expect(noName.status).toBe(422);
    expect(noName.body.error.details).toContainEqual({ field: 'body.name', message: 'is required' });
  });

  it('accepts legacy scopes but refuses to grant scopes the creating token lacks', async () => {
    const narrow = (await svc.createToken(['tokens:write', 'me:read', 'reports:read'])).token;
    const ok = await svc.call('POST', '/auth/tokens', {
      token: narrow,
      body: { name: 'legacy', scopes: ['reports:read'] },
    });
    expect(ok.status).toBe(201);
    const wider = await svc.call('POST', '/auth/tokens', {
      token: narrow,
      body: { name: 'wider', scopes: ['domains:write'] },
    });
    expect(wider.status).toBe(403);
    expect(wider.body.error.code).toBe('insufficient_scope');
    expect(wider.body.error.message).toContain('domains:write');
  });

  it('cannot revoke another user’s token (404 not_found)', async () => {
    const other = await svc.createToken(['me:read'], { userId: svc.seed!.members.viewer });
    const res = await svc.call('DELETE', `/auth/tokens/${other.id}`, { token: owner });
    expect(res.status).toBe(404);
    expect((await svc.call('GET', '/me', { token: other.token })).status).toBe(200);
  });
});

describe('account and profile', () => {
  it('GET /auth/me and GET /account return the account and the token used, never a secret', async () => {
    const me = await svc.call('GET', '/auth/me', { token: owner });
    const account = await svc.call('GET', '/account', { token: owner });
    expect(me.status).toBe(200);
    expect(account.body).toEqual(me.body);
    expect(me.body.data.team).toMatchObject({ name: 'Acme Corp', plan: 'suite', api_access_enabled: true });
    expect(me.body.data.team.owner_user_id).toBe(svc.seed!.ownerUserId);
    expect(me.body.data.user).toMatchObject({ email: 'olivia.owner@acme.example', is_team_owner: true });
    expect(me.body.data.is_team_owner).toBe(true);
    expect(me.body.data.token).toMatchObject({ name: 'owner full', last_four: owner.slice(-4) });
    expect(JSON.stringify(me.body)).not.toContain(owner);
  });

  it('PATCH /me updates name and language; a 51-character name → 422, 50 passes', async () => {
    const long = await svc.call('PATCH', '/me', { token: owner, body: { name: 'n'.repeat(51) } });
    expect(long.status).toBe(422);
    expect(long.body.error.details[0].field).toBe('body.name');
    const ok = await svc.call('PATCH', '/me', {
      token: owner,
      body: { name: 'o'.repeat(50), language: 'de' },
    });
    expect(ok.status).toBe(200);
    const me = await svc.call('GET', '/me', { token: owner });
    expect(me.body.data).toMatchObject({ name: 'o'.repeat(50), language: 'de' });
    await svc.call('PATCH', '/me', { token: owner, body: { name: 'Olivia Owner', language: 'en' } });
  });

  it('GET /me/permissions derives from role and account', async () => {
    const own = await svc.call('GET', '/me/permissions', { token: owner });
    expect(own.body.data).toMatchObject({ is_team_owner: true, role: 'Owner' });
    expect(own.body.data.permissions).toEqual(
      expect.arrayContaining(['billing.manage', 'tokens.manage', 'api.write']),
    );
    const viewer = (await svc.createToken(['me:read'], { userId: svc.seed!.members.viewer })).token;
    const v = await svc.call('GET', '/me/permissions', { token: viewer });
    expect(v.body.data).toMatchObject({ is_team_owner: false, role: 'Viewer' });
    expect(v.body.data.permissions).toEqual(['domains.view', 'reports.view']);
  });

  it('GET /me/security reports MFA and passkeys', async () => {
    const res = await svc.call('GET', '/me/security', { token: owner });
    expect(res.body.data).toMatchObject({ two_factor_enabled: true, two_factor_methods: ['totp'] });
    expect(res.body.data.passkeys.map((p: { name: string }) => p.name)).toEqual(['MacBook Touch ID']);
    const viewer = (await svc.createToken(['me:read'], { userId: svc.seed!.members.viewer })).token;
    const v = await svc.call('GET', '/me/security', { token: viewer });
    expect(v.body.data).toMatchObject({
      two_factor_enabled: false,
      two_factor_enforced: false,
      passkeys: [],
    });
  });

  it('GET /me/domains lists the visible domains: all for the owner, granted ones for a viewer', async () => {
    const team = svc.seed!.teamId;
    const at = svc.clock.now().toISOString();
    const insert = svc.db.prepare(
      'INSERT INTO domains (team_id, fqdn, created_at, updated_at) VALUES (?, ?, ?, ?)',
    );
    const ids = ['b.example', 'a.example', 'c.example'].map((f) =>
      Number(insert.run(team, f, at, at).lastInsertRowid),
    );
    const other = await svc.sandbox('POST', '/accounts', { name: 'Other', plan: 'suite' });
    insert.run(other.body.data.team_id, 'z-other.example', at, at);
    try {
      const all = await svc.call('GET', '/me/domains', { token: owner, query: { limit: 2 } });
      expect(all.body.data.map((d: { fqdn: string }) => d.fqdn)).toEqual(['a.example', 'b.example']);
      expect(all.body.pagination).toEqual({ page: 1, limit: 2, total: 3, has_more: true });
      const page2 = await svc.call('GET', '/me/domains', { token: owner, query: { limit: 2, page: 2 } });
      expect(page2.body.data.map((d: { fqdn: string }) => d.fqdn)).toEqual(['c.example']);
      expect(page2.body.pagination.has_more).toBe(false);

      const viewerId = svc.seed!.members.viewer;
      svc.db.prepare('INSERT INTO user_domains (user_id, domain_id) VALUES (?, ?)').run(viewerId, ids[2]);
      const viewer = (await svc.createToken(['me:read'], { userId: viewerId })).token;
      const v = await svc.call('GET', '/me/domains', { token: viewer });
      expect(v.body.data.map((d: { fqdn: string }) => d.fqdn)).toEqual(['c.example']);
      expect(v.body.pagination).toEqual({ page: 1, limit: 25, total: 1, has_more: false });
    } finally {
      svc.db.prepare('DELETE FROM domains').run();
    }
  });
});
