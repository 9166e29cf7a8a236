// Domains over real HTTP: visible lists with pagination, creation (name normalised, duplicates and bad
// parents refused), reading, editing each field, deletion (with what hangs off the domain), attached sending
// services — and 404 for other teams' domains, 403 for member writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { ALL_V1_SCOPE_IDS } from '../../../service/auth/scopes.ts';

let svc: ServiceHarness;
let owner: string;
let admin: string;
let otherOwner: string;
let foreignDomainId: number;

beforeAll(async () => {
  svc = await startService();
  owner = (await svc.createToken([...ALL_V1_SCOPE_IDS])).token;
  admin = (await svc.createToken([...ALL_V1_SCOPE_IDS], { userId: svc.seed!.members.admin })).token;
  const other = await svc.sandbox('POST', '/accounts', { name: 'Other Co', plan: 'protect' });
  otherOwner = (await svc.createToken([...ALL_V1_SCOPE_IDS], { userId: other.body.data.owner_user_id }))
    .token;
  const foreign = await svc.call('POST', '/domains', {
    token: otherOwner,
    body: { fqdn: 'foreign.example' },
  });
  foreignDomainId = foreign.body.data.id;
});

afterAll(() => stopService(svc));

async function create(fqdn: string, parent?: number | null) {
  return svc.call('POST', '/domains', {
    token: owner,
    body: parent === undefined ? { fqdn } : { fqdn, parent_domain_id: parent },
  });
}

async function idOf(fqdn: string): Promise<number> {
  const res = await create(fqdn);
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('POST /domains', () => {
  it('creates a domain in lower case, active, onboarding pending, nothing verified', async () => {
    const res = await create('Example-Shop.COM');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      fqdn: 'example-shop.com',
      parent_domain_id: null,
      group_id: null,
      group_name: null,
      status: 'active',
      onboarding_status: 'pending',
      verified: false,
      protocols: { dmarc: false, spf: false, mta_sts: false, tls_rpt: false, bimi: false },
      dns_checked_at: null,
      created_at: svc.clock.now().toISOString(),
    });
    const read = await svc.call('GET', `/domains/${res.body.data.id}`, { token: owner });
    expect(read.body.data).toEqual(res.body.data);
  });

  it('refuses a name already in the team (any case) with 422 on body.fqdn', async () => {
    await idOf('dup.example');
    const res = await create('DUP.example');
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: 'body.fqdn', message: 'dup.example is already a domain of this team' },
    ]);
  });

  it('accepts a name another team already has', async () => {
    const res = await create('foreign.example');
    expect(res.status).toBe(201);
  });

  it('refuses names that are not domains with 422 on body.fqdn', async () => {
    for (const fqdn of [
      'localhost',
      'exa mple.com',
      '-bad.example',
      'example.123',
      'a'.repeat(64) + '.com',
      '',
    ]) {
      const res = await create(fqdn);
      expect(res.status, fqdn).toBe(422);
      expect(res.body.error.details[0].field).toBe('body.fqdn');
    }
  });

  it('links a subdomain to its parent', async () => {
    const parent = await idOf('brand.example');
    const res = await create('mail.brand.example', parent);
    expect(res.status).toBe(201);
    expect(res.body.data.parent_domain_id).toBe(parent);
  });

  it('refuses a parent of another team, an unknown parent, and a parent that is not above the name (422)', async () => {
    const unrelated = await idOf('unrelated.example');
    for (const [parent, text] of [
      [foreignDomainId, 'no domain of this team'],
      [99999, 'no domain of this team'],
      [unrelated, 'is not a subdomain of unrelated.example'],
    ] as const) {
      const res = await create('shop.brand2.example', parent);
      expect(res.status).toBe(422);
      expect(res.body.error.details[0]).toEqual({
        field: 'body.parent_domain_id',
        message: expect.stringContaining(text),
      });
    }
    const list = await svc.call('GET', '/domains', { token: owner, query: { limit: 100 } });
    expect(list.body.data.map((d: { fqdn: string }) => d.fqdn)).not.toContain('shop.brand2.example');
  });

  it('refuses unknown fields and a missing fqdn (422)', async () => {
    const extra = await svc.call('POST', '/domains', { token: owner, body: { fqdn: 'x.example', owner: 1 } });
    expect(extra.status).toBe(422);
    const missing = await svc.call('POST', '/domains', { token: owner, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details[0]).toEqual({ field: 'body.fqdn', message: 'is required' });
  });

  it('is the owner’s: a member → 403 team_owner_required; domains:read only → 403 insufficient_scope', async () => {
    const res = await svc.call('POST', '/domains', { token: admin, body: { fqdn: 'admin-made.example' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('team_owner_required');
    const reader = (await svc.createToken(['domains:read'])).token;
    const res2 = await svc.call('POST', '/domains', { token: reader, body: { fqdn: 'reader-made.example' } });
    expect(res2.status).toBe(403);
    expect(res2.body.error.code).toBe('insufficient_scope');
  });
});

describe('GET /domains', () => {
  it('pages through the team’s domains by name, 25 by default', async () => {
    const svc2 = await startService();
    try {
      const t = (await svc2.createToken([...ALL_V1_SCOPE_IDS])).token;
      for (let i = 0; i < 27; i++) {
        const fqdn = `d${String(i).padStart(2, '0')}.example`;
        expect((await svc2.call('POST', '/domains', { token: t, body: { fqdn } })).status).toBe(201);
      }
      const first = await svc2.call('GET', '/domains', { token: t });
      expect(first.body.pagination).toEqual({ page: 1, limit: 25, total: 27, has_more: true });
      expect(first.body.data).toHaveLength(25);
      expect(first.body.data[0].fqdn).toBe('d00.example');
      const second = await svc2.call('GET', '/domains', { token: t, query: { page: 2 } });
      expect(second.body.data.map((d: { fqdn: string }) => d.fqdn)).toEqual(['d25.example', 'd26.example']);
      expect(second.body.pagination.has_more).toBe(false);
      const small = await svc2.call('GET', '/domains', { token: t, query: { limit: 10, page: 3 } });
      expect(small.body.data).toHaveLength(7);
      const bad = await svc2.call('GET', '/domains', { token: t, query: { limit: 101 } });
      expect(bad.status).toBe(422);
      expect(bad.body.error.details[0].field).toBe('query.limit');
      svc2.expectNoContractViolations();
    } finally {
      await svc2.close();
    }
  });

  it('never lists another team’s domains', async () => {
    const res = await svc.call('GET', '/domains', { token: otherOwner, query: { limit: 100 } });
    expect(res.body.data.map((d: { fqdn: string }) => d.fqdn)).toEqual(['foreign.example']);
    expect(res.body.pagination.total).toBe(1);
  });

  it('shows a member with an assignable role only the domains granted to it', async () => {
    const granted = await idOf('granted.example');
    svc.db
      .prepare('INSERT INTO user_domains (user_id, domain_id) VALUES (?, ?)')
      .run(svc.seed!.members.viewer, granted);
    const viewer = (await svc.createToken(['domains:read'], { userId: svc.seed!.members.viewer })).token;
    const res = await svc.call('GET', '/domains', { token: viewer });
    expect(res.body.data.map((d: { id: number }) => d.id)).toEqual([granted]);
  });
});

describe('GET /domains/{domain_id}', () => {
  it('answers 404 for another team’s domain, an unknown id, and a domain not granted to a member', async () => {
    expect((await svc.call('GET', `/domains/${foreignDomainId}`, { token: owner })).status).toBe(404);
    const res = await svc.call('GET', '/domains/99999', { token: owner });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    const hidden = await idOf('hidden-from-viewer.example');
    const viewer = (await svc.createToken(['domains:read'], { userId: svc.seed!.members.viewer })).token;
    expect((await svc.call('GET', `/domains/${hidden}`, { token: viewer })).status).toBe(404);
    // The Admin role sees every domain of the team.
    expect((await svc.call('GET', `/domains/${hidden}`, { token: admin })).status).toBe(200);
  });

  it('answers 422 for a non-numeric id', async () => {
    const res = await svc.call('GET', '/domains/abc', { token: owner });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('path.domain_id');
  });
});

describe('PATCH /domains/{domain_id}', () => {
  it('edits status, onboarding status, group and parent', async () => {
    const parent = await idOf('patch-parent.example');
    const id = await idOf('www.patch-parent.example');
    const group = await svc.call('POST', '/domain-groups', { token: owner, body: { name: 'Patch group' } });
    svc.clock.advance(5000);
    const res = await svc.call('PATCH', `/domains/${id}`, {
      token: owner,
      body: {
        status: 'inactive',
        onboarding_status: 'completed',
        group_id: group.body.data.id,
        parent_domain_id: parent,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'inactive',
      onboarding_status: 'completed',
      group_id: group.body.data.id,
      group_name: 'Patch group',
      parent_domain_id: parent,
      updated_at: svc.clock.now().toISOString(),
    });
    const cleared = await svc.call('PATCH', `/domains/${id}`, {
      token: owner,
      body: { group_id: null, parent_domain_id: null },
    });
    expect(cleared.body.data).toMatchObject({
      group_id: null,
      group_name: null,
      parent_domain_id: null,
      status: 'inactive',
    });
  });

  it('refuses each invalid field with 422 naming it, and changes nothing', async () => {
    const id = await idOf('patch-bad.example');
    const foreignGroup = await svc.call('POST', '/domain-groups', {
      token: otherOwner,
      body: { name: 'Theirs' },
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ status: 'deleted' }, 'body.status'],
      [{ onboarding_status: 'done' }, 'body.onboarding_status'],
      [{ group_id: foreignGroup.body.data.id }, 'body.group_id'],
      [{ group_id: 99999 }, 'body.group_id'],
      [{ parent_domain_id: id }, 'body.parent_domain_id'],
      [{ parent_domain_id: foreignDomainId }, 'body.parent_domain_id'],
      [{ status: '' }, 'body.status'],
      [{ fqdn: 'renamed.example' }, 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await svc.call('PATCH', `/domains/${id}`, { token: owner, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.details[0].field).toContain(field);
    }
    const empty = await svc.call('PATCH', `/domains/${id}`, { token: owner, body: {} });
    expect(empty.status).toBe(422);
    const after = await svc.call('GET', `/domains/${id}`, { token: owner });
    expect(after.body.data).toMatchObject({
      status: 'active',
      onboarding_status: 'pending',
      group_id: null,
      parent_domain_id: null,
    });
  });

  it('answers 404 for another team’s domain and 403 for a member', async () => {
    const res = await svc.call('PATCH', `/domains/${foreignDomainId}`, {
      token: owner,
      body: { status: 'inactive' },
    });
    expect(res.status).toBe(404);
    const id = await idOf('patch-member.example');
    const member = await svc.call('PATCH', `/domains/${id}`, { token: admin, body: { status: 'inactive' } });
    expect(member.status).toBe(403);
  });
});

describe('DELETE /domains/{domain_id}', () => {
  it('deletes the domain and what hangs off it; subdomains lose the parent link', async () => {
    const id = await idOf('doomed.example');
    const child = (await create('sub.doomed.example', id)).body.data.id;
    await svc.call('PATCH', `/domains/${id}/services`, { token: owner, body: { service_ids: [1, 2] } });
    await svc.sandbox('PUT', '/dns/doomed.example/dmarc', { value: 'v=DMARC1; p=reject' });
    await svc.call('POST', `/domains/${id}/check-dns`, { token: owner });
    await svc.call('POST', `/domains/${id}/verify`, { token: owner });
    svc.db
      .prepare('INSERT INTO user_domains (user_id, domain_id) VALUES (?, ?)')
      .run(svc.seed!.members.viewer, id);

    const res = await svc.call('DELETE', `/domains/${id}`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deleted: true, id });
    expect((await svc.call('GET', `/domains/${id}`, { token: owner })).status).toBe(404);
    expect((await svc.call('GET', `/domains/${id}/services`, { token: owner })).status).toBe(404);
    expect((await svc.call('GET', `/domains/${id}/dns-fetch-result`, { token: owner })).status).toBe(404);
    const sub = await svc.call('GET', `/domains/${child}`, { token: owner });
    expect(sub.body.data.parent_domain_id).toBeNull();
    for (const table of ['domain_services', 'dns_fetch_results', 'domain_protocol_checks', 'user_domains']) {
      const n = svc.db
        .prepare<[number], { n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE domain_id = ?`)
        .get(id)!.n;
      expect(n, table).toBe(0);
    }
    // The name can be added again.
    expect((await create('doomed.example')).status).toBe(201);
  });

  it('withdraws the hosted records the service published for the domain from its DNS zone', async () => {
    const id = await idOf('hosted-gone.example');
    const hosted = 'hosted-gone.example.dmarc.hosted.authwatch.example';
    const provisioned = await svc.call('POST', `/domains/${id}/hosted-dmarc`, {
      token: owner,
      body: { p: 'reject' },
    });
    expect(provisioned.status).toBe(201);
    const txt = () =>
      svc.db
        .prepare<[string], { value: string }>(
          "SELECT value FROM dns_records WHERE name = ? AND rrtype = 'TXT'",
        )
        .all(hosted)
        .map((r) => r.value);
    expect(txt()).toHaveLength(1);
    expect(txt()[0]).toContain('p=reject');
    expect((await svc.call('DELETE', `/domains/${id}`, { token: owner })).status).toBe(200);
    expect(txt()).toEqual([]);
    expect((await svc.call('GET', `/domains/${id}/hosted-dmarc`, { token: owner })).status).toBe(404);
  });

  it('every table that refers to a domain lets it go (ON DELETE CASCADE or SET NULL)', () => {
    const tables = svc.db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((t) => t.name);
    const refs = tables.flatMap((table) =>
      svc.db
        .prepare<[], { table: string; on_delete: string }>(
          `SELECT "table", on_delete FROM pragma_foreign_key_list('${table}')`,
        )
        .all()
        .filter((fk) => fk.table === 'domains')
        .map((fk) => `${table}: ${fk.on_delete}`),
    );
    expect(refs.length).toBeGreaterThan(3);
    for (const ref of refs) expect(ref).toMatch(/: (CASCADE|SET NULL)$/);
  });

  it('answers 404 for another team’s domain (which stays) and 403 for a member', async () => {
    expect((await svc.call('DELETE', `/domains/${foreignDomainId}`, { token: owner })).status).toBe(404);
    expect((await svc.call('GET', `/domains/${foreignDomainId}`, { token: otherOwner })).status).toBe(200);
    const id = await idOf('kept.example');
    const res = await svc.call('DELETE', `/domains/${id}`, { token: admin });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('team_owner_required');
  });
});

describe('GET/PATCH /domains/{domain_id}/services', () => {
  it('starts empty, is replaced by PATCH, and an empty list detaches all', async () => {
    const id = await idOf('services.example');
    const empty = await svc.call('GET', `/domains/${id}/services`, { token: owner });
    expect(empty.body.data).toEqual({ domain_id: id, service_ids: [], services: [] });
    const set = await svc.call('PATCH', `/domains/${id}/services`, {
      token: owner,
      body: { service_ids: [5, 1] },
    });
    expect(set.status).toBe(200);
    expect(set.body.data.services).toEqual([
      { id: 1, name: 'Google Workspace', category: 'mailbox_provider' },
      { id: 5, name: 'SendGrid', category: 'transactional' },
    ]);
    const replaced = await svc.call('PATCH', `/domains/${id}/services`, {
      token: owner,
      body: { service_ids: [9] },
    });
    expect(replaced.body.data.service_ids).toEqual([9]);
    expect(replaced.body.data.services[0].name).toBe('Mailchimp');
    const read = await svc.call('GET', `/domains/${id}/services`, { token: owner });
    expect(read.body.data.service_ids).toEqual([9]);
    const cleared = await svc.call('PATCH', `/domains/${id}/services`, {
      token: owner,
      body: { service_ids: [] },
    });
    expect(cleared.body.data.service_ids).toEqual([]);
  });

  it('refuses unknown service ids (422, nothing changed), duplicates (422) and member writes (403)', async () => {
    const id = await idOf('services-bad.example');
    await svc.call('PATCH', `/domains/${id}/services`, { token: owner, body: { service_ids: [2] } });
    const res = await svc.call('PATCH', `/domains/${id}/services`, {
      token: owner,
      body: { service_ids: [2, 777] },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: 'body.service_ids', message: 'unknown sending service id 777' },
    ]);
    const dup = await svc.call('PATCH', `/domains/${id}/services`, {
      token: owner,
      body: { service_ids: [2, 2] },
    });
    expect(dup.status).toBe(422);
    const read = await svc.call('GET', `/domains/${id}/services`, { token: owner });
    expect(read.body.data.service_ids).toEqual([2]);
    expect(
      (await svc.call('PATCH', `/domains/${id}/services`, { token: admin, body: { service_ids: [] } }))
        .status,
    ).toBe(403);
  });

  it('answers 404 for another team’s domain', async () => {
    expect((await svc.call('GET', `/domains/${foreignDomainId}/services`, { token: owner })).status).toBe(
      404,
    );
    const res = await svc.call('PATCH', `/domains/${foreignDomainId}/services`, {
      token: owner,
      body: { service_ids: [1] },
    });
    expect(res.status).toBe(404);
  });
});
