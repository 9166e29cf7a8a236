// Team users over real HTTP: invitations, edits, status/role/2FA switches, re-invites, domain access, and
// the rules that protect the team (owner cannot be deleted, disabled or re-roled; one email per team;
// other teams' users look missing; writes are the owner's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { insertDomain } from '../../../test/support/ownerWorld.ts';
import { ALL_V1_SCOPE_IDS } from '../../../service/auth/scopes.ts';

let svc: ServiceHarness;
let owner: string;
let ownerId: number;
let viewerId: number;
let adminId: number;
let otherTeamUserId: number;
let roleIds: Record<string, number>;

beforeAll(async () => {
  svc = await startService();
  owner = (await svc.createToken([...ALL_V1_SCOPE_IDS])).token;
  ownerId = svc.seed!.ownerUserId;
  viewerId = svc.seed!.members.viewer;
  adminId = svc.seed!.members.admin;
  roleIds = Object.fromEntries(
    svc.db
      .prepare<[], { id: number; name: string }>('SELECT id, name FROM roles')
      .all()
      .map((r) => [r.name, r.id]),
  );
  const other = await svc.sandbox('POST', '/accounts', { name: 'Other Co', plan: 'suite' });
  otherTeamUserId = other.body.data.owner_user_id;
});

afterAll(() => stopService(svc));

async function invite(body: Record<string, unknown>) {
  return svc.call('POST', '/users', { token: owner, body });
}

async function createDomain(fqdn: string): Promise<number> {
  const res = await svc.call('POST', '/domains', { token: owner, body: { fqdn } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('GET /users', () => {
  it('lists the team, owner first, with role and state', async () => {
    const res = await svc.call('GET', '/users', { token: owner });
    expect(res.status).toBe(200);
    const first = res.body.data[0];
    expect(first).toMatchObject({
      id: ownerId,
      is_team_owner: true,
      role: { name: 'Owner' },
      enabled: true,
      status: 'enabled',
      all_domains: true,
      invitation_status: 'accepted',
    });
    const emails = res.body.data.map((u: { email: string }) => u.email);
    expect(emails).toEqual(expect.arrayContaining(['adam.admin@acme.example', 'victor.viewer@acme.example']));
    expect(res.body.data.find((u: { id: number }) => u.id === otherTeamUserId)).toBeUndefined();
  });

  it('is the owner’s alone: a member with users:read gets 403 team_owner_required', async () => {
    const t = (await svc.createToken(['users:read'], { userId: viewerId })).token;
    const res = await svc.call('GET', '/users', { token: t });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('team_owner_required');
    expect(JSON.stringify(res.body)).not.toContain('@acme.example');
  });
});

describe('team users section: owner only, reads included (spec: "Team users (team owner required)")', () => {
  it('answers 403 team_owner_required to every member role on all five reads, 200 to the owner', async () => {
    const reads = ['/roles', '/roles/4', '/users', `/users/${ownerId}`, `/users/${ownerId}/domains`];
    const ownerReader = (await svc.createToken(['users:read'])).token;
    for (const path of reads)
      expect((await svc.call('GET', path, { token: ownerReader })).status, path).toBe(200);
    for (const memberId of Object.values(svc.seed!.members)) {
      const t = (await svc.createToken(['users:read'], { userId: memberId })).token;
      for (const path of [...reads, `/users/${memberId}`, `/users/${memberId}/domains`]) {
        const res = await svc.call('GET', path, { token: t });
        expect(res.status, `${memberId} ${path}`).toBe(403);
        expect(res.body.error.code).toBe('team_owner_required');
      }
    }
  });
});

describe('POST /users (invitation)', () => {
  it('creates an invited user with the email sent now by default', async () => {
    const res = await invite({ email: 'New.Person@Acme.example', role_id: roleIds.Viewer });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      email: 'new.person@acme.example',
      name: 'new.person',
      role: { id: roleIds.Viewer, name: 'Viewer' },
      status: 'invited',
      invitation_status: 'pending',
      enabled: true,
      is_team_owner: false,
      all_domains: false,
      invite_sent_at: svc.clock.now().toISOString(),
    });
    const list = await svc.call('GET', '/users', { token: owner });
    expect(list.body.data.map((u: { email: string }) => u.email)).toContain('new.person@acme.example');
  });

  it('with send_invite false records no email until a re-invite sends one', async () => {
    const res = await invite({
      email: 'quiet@acme.example',
      name: 'Quiet Person',
      role_id: roleIds.Analyst,
      send_invite: false,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Quiet Person', invite_sent_at: null, status: 'invited' });
    svc.clock.advance(60_000);
    const again = await svc.call('POST', `/users/${res.body.data.id}/reinvite-user`, { token: owner });
    expect(again.status).toBe(200);
    expect(again.body.data.success).toBe(true);
    expect(again.body.data.message).toContain('quiet@acme.example');
    const after = await svc.call('GET', `/users/${res.body.data.id}`, { token: owner });
    expect(after.body.data.invite_sent_at).toBe(svc.clock.now().toISOString());
  });

  it('grants the listed domains, or all of them', async () => {
    const a = await createDomain('granted-a.example');
    await createDomain('not-granted.example');
    const listed = await invite({ email: 'limited@acme.example', role_id: roleIds.Viewer, domain_ids: [a] });
    expect(listed.status).toBe(201);
    const access = await svc.call('GET', `/users/${listed.body.data.id}/domains`, { token: owner });
    expect(access.body.data).toEqual({
      user_id: listed.body.data.id,
      all_domains: false,
      domains: [{ id: a, fqdn: 'granted-a.example' }],
    });
    const all = await invite({
      email: 'everything@acme.example',
      role_id: roleIds.Viewer,
      all_domains: true,
    });
    expect(all.body.data.all_domains).toBe(true);
    const allAccess = await svc.call('GET', `/users/${all.body.data.id}/domains`, { token: owner });
    expect(allAccess.body.data.domains.map((d: { fqdn: string }) => d.fqdn)).toEqual(
      expect.arrayContaining(['granted-a.example', 'not-granted.example']),
    );
  });

  it('refuses a duplicate email of the team (any case) with 422 on body.email', async () => {
    const res = await invite({ email: 'ADAM.ADMIN@acme.example', role_id: roleIds.Viewer });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toEqual([
      { field: 'body.email', message: expect.stringContaining('already exists') },
    ]);
  });

  it('accepts an email used in another team', async () => {
    const res = await invite({ email: 'owner@other-co.example', role_id: roleIds.Viewer });
    expect(res.status).toBe(201);
  });

  it('refuses a malformed email with 422 on body.email', async () => {
    for (const email of ['not-an-email', 'someone@localhost']) {
      const res = await invite({ email, role_id: roleIds.Viewer });
      expect(res.status).toBe(422);
      expect(res.body.error.details[0].field).toBe('body.email');
    }
  });

  it('refuses Owner, Admin, Editor and unknown roles with 422 on body.role_id', async () => {
    for (const roleId of [roleIds.Owner, roleIds.Admin, roleIds.Editor, 999]) {
      const res = await invite({ email: `r${roleId}@acme.example`, role_id: roleId });
      expect(res.status).toBe(422);
      expect(res.body.error.details[0].field).toBe('body.role_id');
      expect(res.body.error.details[0].message).toContain('Viewer');
    }
  });

  it('refuses domain ids that are not the team’s, and all_domains together with a list', async () => {
    const other = svc.db
      .prepare<[string], { id: number }>('SELECT id FROM teams WHERE name = ?')
      .get('Other Co')!.id;
    const foreign = insertDomain(svc, other, 'foreign.example');
    const res = await invite({ email: 'x1@acme.example', role_id: roleIds.Viewer, domain_ids: [foreign] });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0]).toEqual({
      field: 'body.domain_ids',
      message: expect.stringContaining(String(foreign)),
    });
    const a = await createDomain('both.example');
    const both = await invite({
      email: 'x2@acme.example',
      role_id: roleIds.Viewer,
      all_domains: true,
      domain_ids: [a],
    });
    expect(both.status).toBe(422);
    const users = await svc.call('GET', '/users', { token: owner });
    expect(users.body.data.map((u: { email: string }) => u.email)).not.toContain('x1@acme.example');
  });

  it('refuses unknown body fields and a missing role_id (422)', async () => {
    const extra = await invite({ email: 'y@acme.example', role_id: roleIds.Viewer, admin: true });
    expect(extra.status).toBe(422);
    const missing = await invite({ email: 'y@acme.example' });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details.map((d: { field: string }) => d.field).join(' ')).toContain('role_id');
  });

  it('is the owner’s: a member token → 403 team_owner_required; without users:write → 403 insufficient_scope', async () => {
    const admin = (await svc.createToken(['users:write', 'users:read'], { userId: adminId })).token;
    const res = await svc.call('POST', '/users', {
      token: admin,
      body: { email: 'z@acme.example', role_id: roleIds.Viewer },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('team_owner_required');
    const readOnly = (await svc.createToken(['users:read'])).token;
    const res2 = await svc.call('POST', '/users', {
      token: readOnly,
      body: { email: 'z@acme.example', role_id: roleIds.Viewer },
    });
    expect(res2.status).toBe(403);
    expect(res2.body.error.code).toBe('insufficient_scope');
  });
});

describe('GET /users/{user_id}', () => {
  it('returns a member of the team', async () => {
    const res = await svc.call('GET', `/users/${viewerId}`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: viewerId, name: 'Victor Viewer', role: { name: 'Viewer' } });
  });

  it('answers 404 for a user of another team and for an unknown id', async () => {
    for (const id of [otherTeamUserId, 99999]) {
      const res = await svc.call('GET', `/users/${id}`, { token: owner });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});

describe('PATCH /users/{user_id}', () => {
  it('updates name and email', async () => {
    const created = await invite({ email: 'rename.me@acme.example', role_id: roleIds.Viewer });
    const id = created.body.data.id;
    svc.clock.advance(1000);
    const res = await svc.call('PATCH', `/users/${id}`, {
      token: owner,
      body: { name: 'Renamed Person', email: 'Renamed@Acme.example' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Renamed Person', email: 'renamed@acme.example' });
    expect(res.body.data.updated_at).toBe(svc.clock.now().toISOString());
    const again = await svc.call('GET', `/users/${id}`, { token: owner });
    expect(again.body.data.name).toBe('Renamed Person');
  });

  it('replaces the domain grants, which the member then sees in /me/domains', async () => {
    const a = await createDomain('viewer-a.example');
    const b = await createDomain('viewer-b.example');
    const res = await svc.call('PATCH', `/users/${viewerId}`, { token: owner, body: { domain_ids: [b] } });
    expect(res.status).toBe(200);
    const viewer = (await svc.createToken(['me:read', 'domains:read'], { userId: viewerId })).token;
    const mine = await svc.call('GET', '/me/domains', { token: viewer });
    expect(mine.body.data.map((d: { id: number }) => d.id)).toEqual([b]);
    const listed = await svc.call('GET', '/domains', { token: viewer });
    expect(listed.body.data.map((d: { id: number }) => d.id)).toEqual([b]);
    const hidden = await svc.call('GET', `/domains/${a}`, { token: viewer });
    expect(hidden.status).toBe(404);
    const all = await svc.call('PATCH', `/users/${viewerId}`, { token: owner, body: { all_domains: true } });
    expect(all.body.data.all_domains).toBe(true);
    const now = await svc.call('GET', `/domains/${a}`, { token: viewer });
    expect(now.status).toBe(200);
    await svc.call('PATCH', `/users/${viewerId}`, {
      token: owner,
      body: { all_domains: false, domain_ids: [] },
    });
    const none = await svc.call('GET', '/me/domains', { token: viewer });
    expect(none.body.data).toEqual([]);
  });

  it('refuses another user’s email (422) and domain access for users who see every domain (422)', async () => {
    const dup = await svc.call('PATCH', `/users/${viewerId}`, {
      token: owner,
      body: { email: 'adam.admin@acme.example' },
    });
    expect(dup.status).toBe(422);
    expect(dup.body.error.details[0].field).toBe('body.email');
    const ownerAccess = await svc.call('PATCH', `/users/${ownerId}`, {
      token: owner,
      body: { domain_ids: [] },
    });
    expect(ownerAccess.status).toBe(422);
    expect(ownerAccess.body.error.message).toContain('team owner');
    const adminAccess = await svc.call('PATCH', `/users/${adminId}`, {
      token: owner,
      body: { all_domains: false },
    });
    expect(adminAccess.status).toBe(422);
    expect(adminAccess.body.error.message).toContain('Admin');
  });

  it('refuses an empty body, a 51-character name and a blank name (422)', async () => {
    for (const body of [{}, { name: 'n'.repeat(51) }, { name: '   ' }]) {
      const res = await svc.call('PATCH', `/users/${viewerId}`, { token: owner, body });
      expect(res.status).toBe(422);
    }
  });

  it('lets the owner rename the owner, answers 404 for another team’s user and 403 for a member', async () => {
    const ok = await svc.call('PATCH', `/users/${ownerId}`, { token: owner, body: { name: 'Olivia O.' } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.name).toBe('Olivia O.');
    const foreign = await svc.call('PATCH', `/users/${otherTeamUserId}`, {
      token: owner,
      body: { name: 'x' },
    });
    expect(foreign.status).toBe(404);
    const admin = (await svc.createToken(['users:write'], { userId: adminId })).token;
    const member = await svc.call('PATCH', `/users/${viewerId}`, { token: admin, body: { name: 'x' } });
    expect(member.status).toBe(403);
    expect(member.body.error.code).toBe('team_owner_required');
  });
});

describe('DELETE /users/{user_id}', () => {
  it('removes a member; their tokens stop working', async () => {
    const created = await invite({ email: 'leaving@acme.example', role_id: roleIds.Viewer });
    const id = created.body.data.id;
    svc.db.prepare("UPDATE users SET status = 'enabled' WHERE id = ?").run(id); // accepted the invitation
    const theirs = (await svc.createToken(['me:read'], { userId: id })).token;
    expect((await svc.call('GET', '/me', { token: theirs })).status).toBe(200);
    const res = await svc.call('DELETE', `/users/${id}`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deleted: true, id });
    expect((await svc.call('GET', `/users/${id}`, { token: owner })).status).toBe(404);
    const after = await svc.call('GET', '/me', { token: theirs });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('invalid_api_token');
  });

  it('refuses to delete the owner with 422 and a clear message', async () => {
    const res = await svc.call('DELETE', `/users/${ownerId}`, { token: owner });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe('The team owner cannot be deleted.');
    expect((await svc.call('GET', `/users/${ownerId}`, { token: owner })).status).toBe(200);
  });

  it('answers 404 for another team’s user and 403 for a member token', async () => {
    expect((await svc.call('DELETE', `/users/${otherTeamUserId}`, { token: owner })).status).toBe(404);
    const admin = (await svc.createToken(['users:write'], { userId: adminId })).token;
    const res = await svc.call('DELETE', `/users/${viewerId}`, { token: admin });
    expect(res.status).toBe(403);
  });
});

describe('PATCH /users/{user_id}/status', () => {
  it('disables a member (their token stops working) and enables them again', async () => {
    const theirs = (await svc.createToken(['me:read'], { userId: viewerId })).token;
    const off = await svc.call('PATCH', `/users/${viewerId}/status`, {
      token: owner,
      body: { enabled: false },
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ enabled: false, status: 'disabled' });
    expect((await svc.call('GET', '/me', { token: theirs })).status).toBe(401);
    const on = await svc.call('PATCH', `/users/${viewerId}/status`, {
      token: owner,
      body: { enabled: true },
    });
    expect(on.body.data).toMatchObject({ enabled: true, status: 'enabled' });
    expect((await svc.call('GET', '/me', { token: theirs })).status).toBe(200);
  });

  it('re-enabling a user whose invitation is pending makes it invited again', async () => {
    const created = await invite({ email: 'pending.switch@acme.example', role_id: roleIds.Viewer });
    const id = created.body.data.id;
    const off = await svc.call('PATCH', `/users/${id}/status`, { token: owner, body: { enabled: false } });
    expect(off.body.data.status).toBe('disabled');
    const reinvite = await svc.call('POST', `/users/${id}/reinvite-user`, { token: owner });
    expect(reinvite.status).toBe(422);
    expect(reinvite.body.error.message).toContain('disabled');
    const on = await svc.call('PATCH', `/users/${id}/status`, { token: owner, body: { enabled: true } });
    expect(on.body.data).toMatchObject({ status: 'invited', invitation_status: 'pending' });
  });

  it('refuses to disable the owner (422) and a non-boolean (422)', async () => {
    const res = await svc.call('PATCH', `/users/${ownerId}/status`, {
      token: owner,
      body: { enabled: false },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe('The team owner cannot be disabled.');
    const bad = await svc.call('PATCH', `/users/${viewerId}/status`, {
      token: owner,
      body: { enabled: 'no' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe('body.enabled');
  });

  it('answers 404 for another team’s user and 403 for a member', async () => {
    const res = await svc.call('PATCH', `/users/${otherTeamUserId}/status`, {
      token: owner,
      body: { enabled: false },
    });
    expect(res.status).toBe(404);
    const admin = (await svc.createToken(['users:write'], { userId: adminId })).token;
    expect(
      (await svc.call('PATCH', `/users/${viewerId}/status`, { token: admin, body: { enabled: false } }))
        .status,
    ).toBe(403);
  });
});

describe('PATCH /users/{user_id}/role', () => {
  it('gives a member another assignable role', async () => {
    const res = await svc.call('PATCH', `/users/${viewerId}/role`, {
      token: owner,
      body: { role_id: roleIds.Analyst },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.role).toEqual({ id: roleIds.Analyst, name: 'Analyst' });
    const back = await svc.call('PATCH', `/users/${viewerId}/role`, {
      token: owner,
      body: { role_id: roleIds.Viewer },
    });
    expect(back.body.data.role.name).toBe('Viewer');
  });

  it('refuses non-assignable roles (422 body.role_id) and re-roling the owner (422)', async () => {
    const admin = await svc.call('PATCH', `/users/${viewerId}/role`, {
      token: owner,
      body: { role_id: roleIds.Admin },
    });
    expect(admin.status).toBe(422);
    expect(admin.body.error.details[0]).toEqual({
      field: 'body.role_id',
      message: expect.stringContaining('Admin cannot be assigned'),
    });
    const own = await svc.call('PATCH', `/users/${ownerId}/role`, {
      token: owner,
      body: { role_id: roleIds.Viewer },
    });
    expect(own.status).toBe(422);
    expect(own.body.error.message).toBe('The team owner cannot be given another role.');
    const me = await svc.call('GET', `/users/${ownerId}`, { token: owner });
    expect(me.body.data.role.name).toBe('Owner');
  });

  it('answers 404 for another team’s user', async () => {
    const res = await svc.call('PATCH', `/users/${otherTeamUserId}/role`, {
      token: owner,
      body: { role_id: roleIds.Viewer },
    });
    expect(res.status).toBe(404);
  });
});

describe('PATCH /users/{user_id}/enforce-2fa', () => {
  it('switches the enforcement, which the member sees in /me/security', async () => {
    const res = await svc.call('PATCH', `/users/${viewerId}/enforce-2fa`, {
      token: owner,
      body: { enabled: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.enforce_2fa).toBe(true);
    const viewer = (await svc.createToken(['me:read'], { userId: viewerId })).token;
    const sec = await svc.call('GET', '/me/security', { token: viewer });
    expect(sec.body.data.two_factor_enforced).toBe(true);
    const off = await svc.call('PATCH', `/users/${viewerId}/enforce-2fa`, {
      token: owner,
      body: { enabled: false },
    });
    expect(off.body.data.enforce_2fa).toBe(false);
  });

  it('answers 422 without enabled, 404 for another team’s user, 403 for a member', async () => {
    expect(
      (await svc.call('PATCH', `/users/${viewerId}/enforce-2fa`, { token: owner, body: {} })).status,
    ).toBe(422);
    expect(
      (
        await svc.call('PATCH', `/users/${otherTeamUserId}/enforce-2fa`, {
          token: owner,
          body: { enabled: true },
        })
      ).status,
    ).toBe(404);
    const admin = (await svc.createToken(['users:write'], { userId: adminId })).token;
    expect(
      (await svc.call('PATCH', `/users/${viewerId}/enforce-2fa`, { token: admin, body: { enabled: true } }))
        .status,
    ).toBe(403);
  });
});

describe('POST /users/{user_id}/reinvite-user', () => {
  it('sends the invitation again to an invited user', async () => {
    const created = await invite({ email: 'again@acme.example', role_id: roleIds.Viewer });
    const first = created.body.data.invite_sent_at;
    svc.clock.advance(3_600_000);
    const res = await svc.call('POST', `/users/${created.body.data.id}/reinvite-user`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ success: true, message: 'Invitation sent again to again@acme.example.' });
    const after = await svc.call('GET', `/users/${created.body.data.id}`, { token: owner });
    expect(after.body.data.invite_sent_at).not.toBe(first);
    expect(after.body.data.invite_sent_at).toBe(svc.clock.now().toISOString());
  });

  it('refuses users who already joined (422), other teams’ users (404) and member tokens (403)', async () => {
    const joined = await svc.call('POST', `/users/${viewerId}/reinvite-user`, { token: owner });
    expect(joined.status).toBe(422);
    expect(joined.body.error.message).toContain('no pending invitation');
    expect((await svc.call('POST', `/users/${ownerId}/reinvite-user`, { token: owner })).status).toBe(422);
    expect((await svc.call('POST', `/users/${otherTeamUserId}/reinvite-user`, { token: owner })).status).toBe(
      404,
    );
    const admin = (await svc.createToken(['users:write'], { userId: adminId })).token;
    expect((await svc.call('POST', `/users/${viewerId}/reinvite-user`, { token: admin })).status).toBe(403);
  });
});

describe('GET /users/{user_id}/domains', () => {
  it('shows every team domain for the owner and Admin role', async () => {
    const total = svc.db
      .prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM domains WHERE team_id = ?')
      .get(svc.seed!.teamId)!.n;
    for (const id of [ownerId, adminId]) {
      const res = await svc.call('GET', `/users/${id}/domains`, { token: owner });
      expect(res.status).toBe(200);
      expect(res.body.data.all_domains).toBe(true);
      expect(res.body.data.domains).toHaveLength(total);
    }
  });

  it('answers 404 for another team’s user; needs users:read', async () => {
    expect((await svc.call('GET', `/users/${otherTeamUserId}/domains`, { token: owner })).status).toBe(404);
    const t = (await svc.createToken(['domains:read'])).token;
    const res = await svc.call('GET', `/users/${viewerId}/domains`, { token: t });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('insufficient_scope');
  });
});
