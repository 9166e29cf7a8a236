// Hosted SPF over real HTTP: provisioning (with import of the live record), the terminal all, includes and IP
// actions reflected in the hosted record and its lookup count, removal, history, and real recursive
// flattening through the service's resolver over a seeded sandbox zone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsRecordType } from '../../../shared/email-auth/dns.ts';
import { createSandboxZoneResolver, writeZoneRecords } from '../../../service/dns/sandboxZone.ts';
import { stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { startOwnerWorld, type OwnerWorld } from '../../../test/support/ownerWorld.ts';

let svc: ServiceHarness;
let owner: string;
let member: string;
let reader: string;
let otherTeamDomain: number;
let addDomain: OwnerWorld['addDomain'];

const ZONE = 'spfzone.example';

function put(name: string, rrtype: DnsRecordType, ...values: string[]): void {
  writeZoneRecords(svc.db, { zone: ZONE, name, rrtype, values, now: svc.clock.now() });
}

// A small world of sending services with nested includes.
function seedZone(): void {
  put(`_spf.alpha.${ZONE}`, 'TXT', `v=spf1 ip4:198.51.100.0/24 include:_spf.beta.${ZONE} ~all`);
  put(`_spf.beta.${ZONE}`, 'TXT', `v=spf1 ip6:2001:db8:1::/48 a:mail.beta.${ZONE} -all`);
  put(`mail.beta.${ZONE}`, 'A', '203.0.113.5');
  put(`_spf.gamma.${ZONE}`, 'TXT', 'v=spf1 mx ip4:192.0.2.128/25 ~all');
  put(`_spf.gamma.${ZONE}`, 'MX', `10 mx1.gamma.${ZONE}`);
  put(`mx1.gamma.${ZONE}`, 'A', '192.0.2.200');
  // One include that costs 11 lookups: itself and ten nested includes.
  const nested = Array.from({ length: 10 }, (_, i) => `include:_spf.d${i + 1}.${ZONE}`).join(' ');
  put(`_spf.deep.${ZONE}`, 'TXT', `v=spf1 ${nested} -all`);
  for (let i = 1; i <= 10; i++) put(`_spf.d${i}.${ZONE}`, 'TXT', `v=spf1 ip4:10.0.${i}.0/24 -all`);
  put(`nospf.${ZONE}`, 'TXT', 'google-site-verification=abc');
}

beforeAll(async () => {
  ({ svc, owner, member, reader, otherTeamDomain, addDomain } = await startOwnerWorld('other-spf.example'));
  seedZone();
});

afterAll(() => stopService(svc));

async function provision(fqdn: string, body?: unknown): Promise<number> {
  const id = addDomain(svc.seed!.teamId, fqdn);
  const res = await svc.call('POST', `/domains/${id}/hosted-spf`, { token: owner, body });
  expect(res.status).toBe(201);
  return id;
}

describe('provisioning', () => {
  it('404 before provisioning; provisions ~all with nothing else and serves it', async () => {
    const id = addDomain(svc.seed!.teamId, 'spf-one.example');
    expect((await svc.call('GET', `/domains/${id}/hosted-spf`, { token: reader })).status).toBe(404);
    expect((await svc.call('GET', `/domains/${id}/spf/includes`, { token: reader })).status).toBe(404);
    const res = await svc.call('POST', `/domains/${id}/hosted-spf`, { token: owner });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      domain_id: id,
      enabled: true,
      hosted_record_name: 'spf-one.example.spf.hosted.authwatch.example',
      hosted_record_value: 'v=spf1 ~all',
      record_to_publish: 'v=spf1 include:spf-one.example.spf.hosted.authwatch.example ~all',
      all: '~all',
      lookup_count: 0,
      lookup_limit: 10,
      includes: [],
      ip_actions: [],
    });
    const zone = createSandboxZoneResolver(svc.db);
    expect(await zone('spf-one.example.spf.hosted.authwatch.example', 'TXT')).toEqual([['v=spf1 ~all']]);
    const again = await svc.call('POST', `/domains/${id}/hosted-spf`, { token: owner });
    expect(again.status).toBe(422);
  });

  it('imports what the live record can express and skips the rest', async () => {
    const fqdn = 'spf-import.example';
    await svc.sandbox('PUT', `/dns/${fqdn}/spf`, {
      value: `v=spf1 mx ip4:198.51.100.10 -ip4:198.51.100.99 include:_spf.alpha.${ZONE} ~ip4:192.0.2.1 -all`,
    });
    const id = await provision(fqdn);
    const res = await svc.call('GET', `/domains/${id}/hosted-spf`, { token: reader });
    expect(res.body.data.all).toBe('-all');
    expect(res.body.data.hosted_record_value).toBe(
      `v=spf1 -ip4:198.51.100.99 ip4:198.51.100.10 include:_spf.alpha.${ZONE} -all`,
    );
    expect(res.body.data.includes.map((i: { include_content: string }) => i.include_content)).toEqual([
      `_spf.alpha.${ZONE}`,
    ]);
    // alpha → beta → a: three lookups.
    expect(res.body.data.includes[0].lookup_count).toBe(3);
    expect(res.body.data.lookup_count).toBe(3);
    expect(res.body.data.ip_actions.map((a: { ip: string; type: string }) => `${a.type} ${a.ip}`)).toEqual([
      'Allow 198.51.100.10',
      'Reject 198.51.100.99',
    ]);
    const history = await svc.call('GET', `/domains/${id}/spf/history`, { token: reader });
    const activity = history.body.data.find((r: { kind: string }) => r.kind === 'activity');
    expect(activity.description).toContain('skipped: mx ~ip4:192.0.2.1');
  });

  it('takes all from the body and does not import when import_existing is false', async () => {
    const fqdn = 'spf-noimport.example';
    await svc.sandbox('PUT', `/dns/${fqdn}/spf`, { value: 'v=spf1 ip4:198.51.100.10 -all' });
    const id = await provision(fqdn, { all: '?all', import_existing: false });
    const res = await svc.call('GET', `/domains/${id}/hosted-spf`, { token: reader });
    expect(res.body.data.hosted_record_value).toBe('v=spf1 ?all');
  });

  it('404 for another team, 403 for a member, 422 for an unknown all', async () => {
    expect((await svc.call('GET', `/domains/${otherTeamDomain}/hosted-spf`, { token: owner })).status).toBe(
      404,
    );
    expect((await svc.call('POST', `/domains/${otherTeamDomain}/hosted-spf`, { token: owner })).status).toBe(
      404,
    );
    const id = addDomain(svc.seed!.teamId, 'spf-denied.example');
    const denied = await svc.call('POST', `/domains/${id}/hosted-spf`, { token: member });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('team_owner_required');
    const bad = await svc.call('POST', `/domains/${id}/hosted-spf`, { token: owner, body: { all: '-ALL' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe('body.all');
  });
});

describe('terminal all', () => {
  it('PATCH all changes the hosted record and the record to publish', async () => {
    const id = await provision('spf-all.example');
    for (const all of ['-all', '?all', '+all', '~all']) {
      const res = await svc.call('PATCH', `/domains/${id}/hosted-spf`, { token: owner, body: { all } });
      expect(res.status).toBe(200);
      expect(res.body.data.all).toBe(all);
      expect(res.body.data.hosted_record_value).toBe(`v=spf1 ${all}`);
      expect(res.body.data.record_to_publish).toMatch(
        new RegExp(`include:spf-all\\.example\\.spf\\.hosted\\.authwatch\\.example \\${all}$`),
      );
    }
  });

  it.each([[{ all: 'all' }], [{ all: '-all', extra: 1 }], [{}]])('422 for %j', async (body) => {
    const id = await provision(`spf-all-${Math.random().toString(36).slice(2, 8)}.example`);
    const res = await svc.call('PATCH', `/domains/${id}/hosted-spf`, { token: owner, body });
    expect(res.status).toBe(422);
  });

  it('PATCH and member rules: 404 unprovisioned, 403 member', async () => {
    const bare = addDomain(svc.seed!.teamId, 'spf-bare.example');
    expect(
      (await svc.call('PATCH', `/domains/${bare}/hosted-spf`, { token: owner, body: { all: '-all' } }))
        .status,
    ).toBe(404);
    const id = await provision('spf-all-member.example');
    const res = await svc.call('PATCH', `/domains/${id}/hosted-spf`, {
      token: member,
      body: { all: '-all' },
    });
    expect(res.status).toBe(403);
  });
});

describe('includes and IP actions', () => {
  let id: number;
  beforeAll(async () => {
    id = await provision('spf-parts.example', { all: '-all' });
  });

  it('adds includes in order, with their lookup cost, and reflects them in the record and lookup_count', async () => {
    const a = await svc.call('POST', `/domains/${id}/spf/includes`, {
      token: owner,
      body: { include_content: `_SPF.Alpha.${ZONE}` },
    });
    expect(a.status).toBe(201);
    expect(a.body.data).toMatchObject({ include_content: `_spf.alpha.${ZONE}`, lookup_count: 3 });
    const g = await svc.call('POST', `/domains/${id}/spf/includes`, {
      token: owner,
      body: { include_content: `_spf.gamma.${ZONE}` },
    });
    expect(g.body.data.lookup_count).toBe(2);
    const list = await svc.call('GET', `/domains/${id}/spf/includes`, { token: reader });
    expect(list.body.data.map((i: { id: number }) => i.id)).toEqual([a.body.data.id, g.body.data.id]);
    const spf = await svc.call('GET', `/domains/${id}/hosted-spf`, { token: reader });
    expect(spf.body.data.hosted_record_value).toBe(
      `v=spf1 include:_spf.alpha.${ZONE} include:_spf.gamma.${ZONE} -all`,
    );
    expect(spf.body.data.lookup_count).toBe(5);
  });

  it.each([
    [`_spf.alpha.${ZONE}`, /already included/],
    [`nospf.${ZONE}`, /publishes no SPF record/],
    ['spf-parts.example', /include itself/],
    ['spf-parts.example.spf.hosted.authwatch.example', /include itself/],
    ['not a domain', /pattern|domain/],
    ['localhost', /pattern|domain/],
  ])('422 for include %s', async (include_content, message) => {
    const res = await svc.call('POST', `/domains/${id}/spf/includes`, {
      token: owner,
      body: { include_content },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('body.include_content');
    expect(res.body.error.details[0].message).toMatch(message);
  });

  it('adds IP actions (canonical networks), Reject written first, and refuses bad or duplicate addresses', async () => {
    const allow = await svc.call('POST', `/domains/${id}/spf/ip-actions`, {
      token: owner,
      body: { ip: '203.0.113.77', type: 'Allow' },
    });
    expect(allow.status).toBe(201);
    expect(allow.body.data).toMatchObject({ ip: '203.0.113.77', type: 'Allow' });
    const net = await svc.call('POST', `/domains/${id}/spf/ip-actions`, {
      token: owner,
      body: { ip: '198.51.100.7/24', type: 'Allow' },
    });
    expect(net.body.data.ip).toBe('198.51.100.0/24');
    const v6 = await svc.call('POST', `/domains/${id}/spf/ip-actions`, {
      token: owner,
      body: { ip: '2001:DB8:0:0::1/64', type: 'Allow' },
    });
    expect(v6.body.data.ip).toBe('2001:db8::/64');
    const reject = await svc.call('POST', `/domains/${id}/spf/ip-actions`, {
      token: owner,
      body: { ip: '192.0.2.66', type: 'Reject' },
    });
    expect(reject.status).toBe(201);
    for (const [ip, type] of [
      ['192.0.2.300', 'Allow'],
      ['192.0.2.0/33', 'Allow'],
      ['2001:db8::/129', 'Reject'],
      ['abc', 'Allow'],
      ['203.0.113.77/32', 'Reject'],
      ['192.0.2.1', 'Deny'],
    ]) {
      const res = await svc.call('POST', `/domains/${id}/spf/ip-actions`, {
        token: owner,
        body: { ip, type },
      });
      expect(res.status, `${ip} ${type}`).toBe(422);
      expect(res.body.error.details[0].field).toMatch(/^body\.(ip|type)$/);
    }
    const spf = await svc.call('GET', `/domains/${id}/hosted-spf`, { token: reader });
    expect(spf.body.data.hosted_record_value).toBe(
      `v=spf1 -ip4:192.0.2.66 ip4:203.0.113.77 ip4:198.51.100.0/24 ip6:2001:db8::/64 include:_spf.alpha.${ZONE} include:_spf.gamma.${ZONE} -all`,
    );
    expect(spf.body.data.ip_actions).toHaveLength(4);
    const list = await svc.call('GET', `/domains/${id}/spf/ip-actions`, { token: reader });
    expect(list.body.data.map((a: { ip: string }) => a.ip)).toEqual([
      '203.0.113.77',
      '198.51.100.0/24',
      '2001:db8::/64',
      '192.0.2.66',
    ]);
  });

  it('flattens the hosted record through real recursive resolution', async () => {
    const res = await svc.call('POST', `/domains/${id}/spf/flatten`, { token: reader });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      domain_id: id,
      source: 'hosted',
      status: 'ok',
      lookup_count: 5,
      lookup_limit: 10,
      void_lookup_count: 0,
      void_lookup_limit: 2,
      within_limit: true,
      errors: [],
    });
    expect(res.body.data.ipv4).toEqual([
      '203.0.113.77',
      '198.51.100.0/24',
      '203.0.113.5',
      '192.0.2.200',
      '192.0.2.128/25',
    ]);
    expect(res.body.data.ipv6).toEqual(['2001:db8::/64', '2001:db8:1::/48']);
    expect(res.body.data.flattened_record).toBe(
      'v=spf1 -ip4:192.0.2.66 ip4:203.0.113.77 ip4:198.51.100.0/24 ip4:203.0.113.5 ip4:192.0.2.200 ' +
        'ip4:192.0.2.128/25 ip6:2001:db8::/64 ip6:2001:db8:1::/48 -all',
    );
  });

  it('deletes an include and an IP action by id; unknown ids are 404', async () => {
    const includes = (await svc.call('GET', `/domains/${id}/spf/includes`, { token: reader })).body.data;
    const del = await svc.call('DELETE', `/domains/${id}/spf/includes/${includes[1].id}`, { token: owner });
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ deleted: true, id: includes[1].id });
    const actions = (await svc.call('GET', `/domains/${id}/spf/ip-actions`, { token: reader })).body.data;
    const delIp = await svc.call('DELETE', `/domains/${id}/spf/ip-actions/${actions[3].id}`, {
      token: owner,
    });
    expect(delIp.body.data).toEqual({ deleted: true, id: actions[3].id });
    const spf = await svc.call('GET', `/domains/${id}/hosted-spf`, { token: reader });
    expect(spf.body.data.hosted_record_value).toBe(
      `v=spf1 ip4:203.0.113.77 ip4:198.51.100.0/24 ip6:2001:db8::/64 include:_spf.alpha.${ZONE} -all`,
    );
    expect(spf.body.data.lookup_count).toBe(3);
    expect(
      (await svc.call('DELETE', `/domains/${id}/spf/includes/${includes[1].id}`, { token: owner })).status,
    ).toBe(404);
    expect((await svc.call('DELETE', `/domains/${id}/spf/ip-actions/999999`, { token: owner })).status).toBe(
      404,
    );
    // Another team's domain hides its parts, and members may not delete.
    expect(
      (await svc.call('GET', `/domains/${otherTeamDomain}/spf/ip-actions`, { token: owner })).status,
    ).toBe(404);
    const denied = await svc.call('DELETE', `/domains/${id}/spf/includes/${includes[0].id}`, {
      token: member,
    });
    expect(denied.status).toBe(403);
    const deniedIp = await svc.call('POST', `/domains/${id}/spf/ip-actions`, {
      token: member,
      body: { ip: '192.0.2.9', type: 'Allow' },
    });
    expect(deniedIp.status).toBe(403);
  });
});

describe('lookup limits', () => {
  it('reports the 11th DNS lookup of a nested include tree', async () => {
    const id = await provision('spf-deep.example', { all: '-all' });
    const inc = await svc.call('POST', `/domains/${id}/spf/includes`, {
      token: owner,
      body: { include_content: `_spf.deep.${ZONE}` },
    });
    expect(inc.status).toBe(201);
    expect(inc.body.data.lookup_count).toBe(11);
    const spf = await svc.call('GET', `/domains/${id}/hosted-spf`, { token: reader });
    expect(spf.body.data.lookup_count).toBe(11);
    const res = await svc.call('POST', `/domains/${id}/spf/flatten`, { token: reader });
    expect(res.body.data).toMatchObject({ lookup_count: 11, within_limit: false, status: 'permerror' });
    expect(res.body.data.errors).toEqual([
      `_spf.deep.${ZONE}: more than 10 DNS lookups; receivers return permerror`,
    ]);
    // Flattening cures it: ten /24s and no lookups left.
    expect(res.body.data.ipv4).toHaveLength(10);
    expect(res.body.data.flattened_record).toMatch(
      /^v=spf1 ip4:10\.0\.1\.0\/24 .* ip4:10\.0\.10\.0\/24 -all$/,
    );
  });

  it('refuses an include that would give the record itself more than 10 DNS-querying terms', async () => {
    const id = await provision('spf-many.example');
    for (let i = 1; i <= 10; i++) {
      const res = await svc.call('POST', `/domains/${id}/spf/includes`, {
        token: owner,
        body: { include_content: `_spf.d${i}.${ZONE}` },
      });
      expect(res.status).toBe(201);
    }
    const eleventh = await svc.call('POST', `/domains/${id}/spf/includes`, {
      token: owner,
      body: { include_content: `_spf.alpha.${ZONE}` },
    });
    expect(eleventh.status).toBe(422);
    expect(eleventh.body.error.details[0].message).toMatch(/exceed the limit of 10/);
    expect((await svc.call('GET', `/domains/${id}/spf/includes`, { token: reader })).body.data).toHaveLength(
      10,
    );
  });

  it('flattens a draft and counts void lookups', async () => {
    const id = await provision('spf-draft.example');
    const res = await svc.call('POST', `/domains/${id}/spf/flatten`, {
      token: reader,
      body: { record_value: `v=spf1 a:void1.${ZONE} a:void2.${ZONE} a:void3.${ZONE} ip4:192.0.2.10 -all` },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      source: 'draft',
      lookup_count: 3,
      void_lookup_count: 3,
      within_limit: false,
      status: 'permerror',
      ipv4: ['192.0.2.10'],
    });
    expect(res.body.data.errors.join('\n')).toMatch(/more than 2 void lookups/);
    const bad = await svc.call('POST', `/domains/${id}/spf/flatten`, {
      token: reader,
      body: { record_value: 'v=spf2 -all' },
    });
    expect(bad.status).toBe(422);
  });

  it('flattens the live record when nothing is hosted; 404 when there is none', async () => {
    const fqdn = 'spf-live.example';
    const id = addDomain(svc.seed!.teamId, fqdn);
    expect((await svc.call('POST', `/domains/${id}/spf/flatten`, { token: reader })).status).toBe(404);
    await svc.sandbox('PUT', `/dns/${fqdn}/spf`, { value: `v=spf1 include:_spf.gamma.${ZONE} ~all` });
    const res = await svc.call('POST', `/domains/${id}/spf/flatten`, { token: reader });
    expect(res.body.data).toMatchObject({
      source: 'dns',
      record: `v=spf1 include:_spf.gamma.${ZONE} ~all`,
      lookup_count: 2,
      ipv4: ['192.0.2.200', '192.0.2.128/25'],
      flattened_record: 'v=spf1 ip4:192.0.2.200 ip4:192.0.2.128/25 ~all',
    });
  });
});

describe('removal and history', () => {
  it('DELETE disables hosted SPF, withdraws the record and keeps the history with lookup counts', async () => {
    const fqdn = 'spf-gone.example';
    const id = await provision(fqdn);
    svc.clock.advance(1000);
    await svc.call('POST', `/domains/${id}/spf/includes`, {
      token: owner,
      body: { include_content: `_spf.alpha.${ZONE}` },
    });
    svc.clock.advance(1000);
    // The customer publishes the include of the hosted record: the domain's SPF now resolves through it.
    await svc.sandbox('PUT', `/delegations/${fqdn}/spf`, { delegated: true, all: '-all' });
    let flat = await svc.call('POST', `/domains/${id}/spf/flatten`, { token: reader });
    expect(flat.body.data.ipv4).toEqual(['198.51.100.0/24', '203.0.113.5']);

    const del = await svc.call('DELETE', `/domains/${id}/hosted-spf`, { token: owner });
    expect(del.body.data).toEqual({ deleted: true, id });
    expect((await svc.call('GET', `/domains/${id}/hosted-spf`, { token: reader })).status).toBe(404);
    expect((await svc.call('GET', `/domains/${id}/spf/ip-actions`, { token: reader })).status).toBe(404);
    // The domain's record still includes the hosted name, which now has no record: receivers fail it.
    flat = await svc.call('POST', `/domains/${id}/spf/flatten`, { token: reader });
    expect(flat.body.data.source).toBe('dns');
    expect(flat.body.data.status).toBe('permerror');
    expect(flat.body.data.flattened_record).toBeNull();

    const history = await svc.call('GET', `/domains/${id}/spf/history`, {
      token: reader,
      query: { limit: 10 },
    });
    expect(history.body.pagination.total).toBe(6);
    const rows = history.body.data as {
      kind: string;
      action: string;
      lookup_count: number | null;
      record_value: string | null;
    }[];
    expect(rows.map((r) => `${r.kind}:${r.action}:${r.lookup_count}`)).toEqual([
      'snapshot:record.removed:null',
      'activity:record.removed:null',
      'snapshot:include.added:3',
      'activity:include.added:3',
      'snapshot:record.provisioned:0',
      'activity:record.provisioned:0',
    ]);
    expect(rows[2]!.record_value).toBe(`v=spf1 include:_spf.alpha.${ZONE} ~all`);
    expect((await svc.call('DELETE', `/domains/${id}/hosted-spf`, { token: owner })).status).toBe(404);
    expect((await svc.call('GET', `/domains/${otherTeamDomain}/spf/history`, { token: owner })).status).toBe(
      404,
    );
  });
});
