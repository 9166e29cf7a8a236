// Domain groups over real HTTP: counts, create/edit with unique names, the spec's rules (deleting a group
// ungroups its members without deleting them; removing a member ungroups it), paginated member lists,
// moving a domain between groups — and 404 for other teams' groups and domains, 403 for member writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { ALL_V1_SCOPE_IDS } from '../../../service/auth/scopes.ts';

let svc: ServiceHarness;
let owner: string;
let admin: string;
let otherOwner: string;
let foreignGroupId: number;
let foreignDomainId: number;

beforeAll(async () => {
  svc = await startService();
  owner = (await svc.createToken([...ALL_V1_SCOPE_IDS])).token;
  admin = (await svc.createToken([...ALL_V1_SCOPE_IDS], { userId: svc.seed!.members.admin })).token;
  const other = await svc.sandbox('POST', '/accounts', { name: 'Other Co', plan: 'suite' });
  otherOwner = (await svc.createToken([...ALL_V1_SCOPE_IDS], { userId: other.body.data.owner_user_id }))
    .token;
  foreignGroupId = (await svc.call('POST', '/domain-groups', { token: otherOwner, body: { name: 'Theirs' } }))
    .body.data.id;
  foreignDomainId = (
    await svc.call('POST', '/domains', { token: otherOwner, body: { fqdn: 'theirs.example' } })
  ).body.data.id;
});

afterAll(() => stopService(svc));

async function group(name: string, status?: string): Promise<number> {
  const res = await svc.call('POST', '/domain-groups', {
    token: owner,
    body: status ? { name, status } : { name },
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function domain(fqdn: string): Promise<number> {
  const res = await svc.call('POST', '/domains', { token: owner, body: { fqdn } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function add(groupId: number, domainId: number) {
  return svc.call('POST', `/domain-groups/${groupId}/domains`, {
    token: owner,
    body: { domain_id: domainId },
  });
}

describe('POST /domain-groups and GET /domain-groups', () => {
  it('creates an active group with no domains, listed by name with its count', async () => {
    const res = await svc.call('POST', '/domain-groups', {
      token: owner,
      body: { name: '  Retail brands ' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Retail brands',
      status: 'active',
      domains_count: 0,
      created_at: svc.clock.now().toISOString(),
    });
    const gid = res.body.data.id;
    await add(gid, await domain('shop-a.example'));
    await add(gid, await domain('shop-b.example'));
    const list = await svc.call('GET', '/domain-groups', { token: owner });
    expect(list.status).toBe(200);
    expect(list.body.data.find((g: { id: number }) => g.id === gid)).toMatchObject({
      name: 'Retail brands',
      domains_count: 2,
    });
    expect(list.body.data.map((g: { name: string }) => g.name)).not.toContain('Theirs');
  });

  it('takes a status, and refuses an unknown one (422 body.status)', async () => {
    const id = await group('Archive', 'archived');
    expect((await svc.call('GET', `/domain-groups/${id}`, { token: owner })).body.data.status).toBe(
      'archived',
    );
    const bad = await svc.call('POST', '/domain-groups', {
      token: owner,
      body: { name: 'Bad', status: 'gone' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0]).toEqual({
      field: 'body.status',
      message: 'must be one of active, inactive, archived',
    });
  });

  it('refuses a name the team already uses (any case), a blank or missing name, a 101-character name (422)', async () => {
    await group('Finance');
    const dup = await svc.call('POST', '/domain-groups', { token: owner, body: { name: 'FINANCE' } });
    expect(dup.status).toBe(422);
    expect(dup.body.error.details[0]).toEqual({
      field: 'body.name',
      message: 'a group named FINANCE already exists in this team',
    });
    for (const body of [{ name: '   ' }, {}, { name: 'g'.repeat(101) }, { name: 'ok', color: 'red' }]) {
      const res = await svc.call('POST', '/domain-groups', { token: owner, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    // Another team may use the same name.
    expect(
      (await svc.call('POST', '/domain-groups', { token: otherOwner, body: { name: 'Finance' } })).status,
    ).toBe(201);
  });

  it('is the owner’s to create (403 team_owner_required); members read the list', async () => {
    const res = await svc.call('POST', '/domain-groups', { token: admin, body: { name: 'Admin group' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('team_owner_required');
    const read = await svc.call('GET', '/domain-groups', { token: admin });
    expect(read.status).toBe(200);
  });

  it('counts only the domains a member can see', async () => {
    const gid = await group('Counted');
    const seen = await domain('counted-seen.example');
    await add(gid, seen);
    await add(gid, await domain('counted-hidden.example'));
    svc.db
      .prepare('INSERT INTO user_domains (user_id, domain_id) VALUES (?, ?)')
      .run(svc.seed!.members.viewer, seen);
    const viewer = (await svc.createToken(['domains:read'], { userId: svc.seed!.members.viewer })).token;
    const g = await svc.call('GET', `/domain-groups/${gid}`, { token: viewer });
    expect(g.body.data.domains_count).toBe(1);
    const members = await svc.call('GET', `/domain-groups/${gid}/domains`, { token: viewer });
    expect(members.body.data.map((d: { id: number }) => d.id)).toEqual([seen]);
    expect((await svc.call('GET', `/domain-groups/${gid}`, { token: owner })).body.data.domains_count).toBe(
      2,
    );
  });
});

describe('GET/PATCH /domain-groups/{group_id}', () => {
  it('reads one group; 404 for another team’s group and an unknown id', async () => {
    const id = await group('Readable');
    const res = await svc.call('GET', `/domain-groups/${id}`, { token: owner });
    expect(res.body.data).toMatchObject({ id, name: 'Readable', status: 'active', domains_count: 0 });
    for (const gid of [foreignGroupId, 99999]) {
      const r = await svc.call('GET', `/domain-groups/${gid}`, { token: owner });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
  });

  it('renames and changes status; keeping its own name is fine', async () => {
    const id = await group('Old name');
    svc.clock.advance(1000);
    const res = await svc.call('PATCH', `/domain-groups/${id}`, {
      token: owner,
      body: { name: 'New name', status: 'inactive' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'New name',
      status: 'inactive',
      updated_at: svc.clock.now().toISOString(),
    });
    const same = await svc.call('PATCH', `/domain-groups/${id}`, {
      token: owner,
      body: { name: 'new NAME' },
    });
    expect(same.status).toBe(200);
    expect(same.body.data.name).toBe('new NAME');
  });

  it('refuses another group’s name, a bad status and an empty body (422); 404 foreign; 403 member', async () => {
    await group('Taken');
    const id = await group('Mine');
    const cases = [{ name: 'taken' }, { status: 'x' }, {}, { name: '' }];
    for (const body of cases) {
      expect(
        (await svc.call('PATCH', `/domain-groups/${id}`, { token: owner, body })).status,
        JSON.stringify(body),
      ).toBe(422);
    }
    expect((await svc.call('GET', `/domain-groups/${id}`, { token: owner })).body.data.name).toBe('Mine');
    expect(
      (
        await svc.call('PATCH', `/domain-groups/${foreignGroupId}`, {
          token: owner,
          body: { name: 'Hijack' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await svc.call('PATCH', `/domain-groups/${id}`, { token: admin, body: { name: 'By admin' } })).status,
    ).toBe(403);
  });
});

describe('DELETE /domain-groups/{group_id}', () => {
  it('removes the group; its member domains become ungrouped, not deleted', async () => {
    const gid = await group('Short-lived');
    const a = await domain('member-a.example');
    const b = await domain('member-b.example');
    await add(gid, a);
    await add(gid, b);
    svc.clock.advance(1000);
    const res = await svc.call('DELETE', `/domain-groups/${gid}`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deleted: true, id: gid });
    expect((await svc.call('GET', `/domain-groups/${gid}`, { token: owner })).status).toBe(404);
    for (const id of [a, b]) {
      const d = await svc.call('GET', `/domains/${id}`, { token: owner });
      expect(d.status).toBe(200);
      expect(d.body.data).toMatchObject({
        group_id: null,
        group_name: null,
        updated_at: svc.clock.now().toISOString(),
      });
    }
    const groups = await svc.call('GET', '/domain-groups', { token: owner });
    expect(groups.body.data.map((g: { id: number }) => g.id)).not.toContain(gid);
  });

  it('answers 404 for another team’s group (which stays) and 403 for a member', async () => {
    expect((await svc.call('DELETE', `/domain-groups/${foreignGroupId}`, { token: owner })).status).toBe(404);
    expect((await svc.call('GET', `/domain-groups/${foreignGroupId}`, { token: otherOwner })).status).toBe(
      200,
    );
    const id = await group('Kept');
    expect((await svc.call('DELETE', `/domain-groups/${id}`, { token: admin })).status).toBe(403);
  });
});

describe('group members', () => {
  it('lists members by name, paginated (25 by default)', async () => {
    const gid = await group('Big');
    for (let i = 0; i < 27; i++) await add(gid, await domain(`big${String(i).padStart(2, '0')}.example`));
    const first = await svc.call('GET', `/domain-groups/${gid}/domains`, { token: owner });
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ page: 1, limit: 25, total: 27, has_more: true });
    expect(first.body.data[0]).toMatchObject({ fqdn: 'big00.example', group_id: gid, group_name: 'Big' });
    const last = await svc.call('GET', `/domain-groups/${gid}/domains`, { token: owner, query: { page: 2 } });
    expect(last.body.data.map((d: { fqdn: string }) => d.fqdn)).toEqual(['big25.example', 'big26.example']);
    const bad = await svc.call('GET', `/domain-groups/${gid}/domains`, { token: owner, query: { page: 0 } });
    expect(bad.status).toBe(422);
    expect((await svc.call('GET', `/domain-groups/${foreignGroupId}/domains`, { token: owner })).status).toBe(
      404,
    );
  });

  it('adding a domain returns it grouped; adding it to another group moves it', async () => {
    const g1 = await group('First');
    const g2 = await group('Second');
    const d = await domain('mover.example');
    const res = await add(g1, d);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: d, group_id: g1, group_name: 'First' });
    expect((await add(g1, d)).status).toBe(200); // again: no change, no error
    const moved = await add(g2, d);
    expect(moved.body.data.group_id).toBe(g2);
    expect((await svc.call('GET', `/domain-groups/${g1}`, { token: owner })).body.data.domains_count).toBe(0);
    expect((await svc.call('GET', `/domain-groups/${g2}`, { token: owner })).body.data.domains_count).toBe(1);
  });

  it('adding another team’s domain answers 404 not_found and changes nothing', async () => {
    const gid = await group('Guarded');
    const res = await add(gid, foreignDomainId);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    const theirs = await svc.call('GET', `/domains/${foreignDomainId}`, { token: otherOwner });
    expect(theirs.body.data.group_id).toBeNull();
    expect((await add(foreignGroupId, await domain('mine-to-theirs.example'))).status).toBe(404);
  });

  it('refuses a missing or bad domain_id (422) and member writes (403)', async () => {
    const gid = await group('Strict');
    for (const body of [{}, { domain_id: 'x' }, { domain_id: 0 }]) {
      expect((await svc.call('POST', `/domain-groups/${gid}/domains`, { token: owner, body })).status).toBe(
        422,
      );
    }
    const d = await domain('strict.example');
    const res = await svc.call('POST', `/domain-groups/${gid}/domains`, {
      token: admin,
      body: { domain_id: d },
    });
    expect(res.status).toBe(403);
  });

  it('removing a member ungroups the domain; removing a non-member answers 404', async () => {
    const gid = await group('Leaving');
    const d = await domain('leaver.example');
    await add(gid, d);
    const res = await svc.call('DELETE', `/domain-groups/${gid}/domains/${d}`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: d, group_id: null, group_name: null });
    expect((await svc.call('GET', `/domains/${d}`, { token: owner })).body.data.group_id).toBeNull();
    expect((await svc.call('GET', `/domain-groups/${gid}`, { token: owner })).body.data.domains_count).toBe(
      0,
    );
    const again = await svc.call('DELETE', `/domain-groups/${gid}/domains/${d}`, { token: owner });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toContain('not a member');
    expect(
      (await svc.call('DELETE', `/domain-groups/${gid}/domains/${foreignDomainId}`, { token: owner })).status,
    ).toBe(404);
    expect(
      (await svc.call('DELETE', `/domain-groups/${foreignGroupId}/domains/${d}`, { token: owner })).status,
    ).toBe(404);
    await add(gid, d);
    expect((await svc.call('DELETE', `/domain-groups/${gid}/domains/${d}`, { token: admin })).status).toBe(
      403,
    );
  });
});
