// Bulk domain creation over real HTTP: 202 with a queued job, the job runs in the background, and
// GET /domains/bulk/{job_id} reports progress and one result per submitted name (created, exists, invalid).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { ALL_V1_SCOPE_IDS } from '../../../service/auth/scopes.ts';

let svc: ServiceHarness;
let owner: string;
let otherOwner: string;

beforeAll(async () => {
  svc = await startService();
  owner = (await svc.createToken([...ALL_V1_SCOPE_IDS])).token;
  const other = await svc.sandbox('POST', '/accounts', { name: 'Other Co', plan: 'suite' });
  otherOwner = (await svc.createToken([...ALL_V1_SCOPE_IDS], { userId: other.body.data.owner_user_id }))
    .token;
});

afterAll(() => stopService(svc));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function waitForJob(jobId: string, token = owner): Promise<{ final: any; seen: any[] }> {
  const seen = [];
  for (let i = 0; i < 500; i++) {
    const res = await svc.call('GET', `/domains/bulk/${jobId}`, { token });
    expect(res.status).toBe(200);
    seen.push(res.body.data);
    if (res.body.data.status === 'completed' || res.body.data.status === 'failed')
      return { final: res.body.data, seen };
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`job ${jobId} did not finish`);
}

describe('POST /domains/bulk', () => {
  it('answers 202 with a queued job, then reports one result per name in submission order', async () => {
    const existing = await svc.call('POST', '/domains', { token: owner, body: { fqdn: 'already.example' } });
    const names = [
      'alpha.example',
      'Beta.Example.',
      'alpha.example',
      'not a domain',
      'already.example',
      'localhost',
    ];
    const res = await svc.call('POST', '/domains/bulk', { token: owner, body: { domains: names } });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      status: 'queued',
      total: 6,
      processed: 0,
      succeeded: 0,
      failed: 0,
      results: [],
      created_at: svc.clock.now().toISOString(),
      completed_at: null,
    });
    expect(res.body.data.job_id).toMatch(/^[0-9a-f-]{36}$/);

    const { final } = await waitForJob(res.body.data.job_id);
    expect(final).toMatchObject({ status: 'completed', total: 6, processed: 6, succeeded: 2, failed: 4 });
    expect(final.completed_at).toBe(svc.clock.now().toISOString());
    const r = final.results;
    expect(r.map((x: { fqdn: string; status: string }) => [x.fqdn, x.status])).toEqual([
      ['alpha.example', 'created'],
      ['Beta.Example.', 'created'],
      ['alpha.example', 'exists'],
      ['not a domain', 'invalid'],
      ['already.example', 'exists'],
      ['localhost', 'invalid'],
    ]);
    expect(r[3].error).toContain('is not a domain name');
    expect(r[3].domain_id).toBeNull();
    expect(r[4].domain_id).toBe(existing.body.data.id);
    expect(r[2].domain_id).toBe(r[0].domain_id);

    const beta = await svc.call('GET', `/domains/${r[1].domain_id}`, { token: owner });
    expect(beta.body.data.fqdn).toBe('beta.example');
    const list = await svc.call('GET', '/domains', { token: owner, query: { limit: 100 } });
    const fqdns = list.body.data.map((d: { fqdn: string }) => d.fqdn);
    expect(fqdns.filter((f: string) => f === 'alpha.example')).toHaveLength(1);
    expect(fqdns).not.toContain('not a domain');
  });

  it('handles a 500-name job in slices, with progress that only grows', async () => {
    const names = Array.from({ length: 500 }, (_, i) => `n${i}.bulk.example`);
    const res = await svc.call('POST', '/domains/bulk', { token: owner, body: { domains: names } });
    expect(res.status).toBe(202);
    const { final, seen } = await waitForJob(res.body.data.job_id);
    expect(final).toMatchObject({
      status: 'completed',
      total: 500,
      processed: 500,
      succeeded: 500,
      failed: 0,
    });
    const processed = seen.map((s) => s.processed);
    expect(processed).toEqual([...processed].sort((a, b) => a - b));
    const statuses = seen.map((s) => s.status);
    for (const s of statuses) expect(['queued', 'running', 'completed']).toContain(s);
    const count = svc.db
      .prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM domains WHERE fqdn LIKE '%.bulk.example'")
      .get()!.n;
    expect(count).toBe(500);
  });

  it('refuses an empty list, more than 500 names and non-string names (422)', async () => {
    for (const domains of [[], Array.from({ length: 501 }, (_, i) => `x${i}.example`), ['ok.example', 42]]) {
      const res = await svc.call('POST', '/domains/bulk', { token: owner, body: { domains } });
      expect(res.status).toBe(422);
      expect(res.body.error.details[0].field).toMatch(/^body\.domains/);
    }
    const missing = await svc.call('POST', '/domains/bulk', { token: owner, body: {} });
    expect(missing.status).toBe(422);
  });

  it('is the owner’s (403 for a member token)', async () => {
    const admin = (await svc.createToken(['domains:write'], { userId: svc.seed!.members.admin })).token;
    const res = await svc.call('POST', '/domains/bulk', { token: admin, body: { domains: ['m.example'] } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('team_owner_required');
  });
});

describe('GET /domains/bulk/{job_id}', () => {
  it('shows a job running and finishes a job left unfinished by a previous run of the service', async () => {
    // As if the service stopped mid-job: one name done, one pending, status running.
    const at = svc.clock.now().toISOString();
    svc.db
      .prepare(
        "INSERT INTO bulk_jobs (id, team_id, user_id, status, created_at, started_at) VALUES (?, ?, ?, 'running', ?, ?)",
      )
      .run('00000000-0000-4000-8000-000000000001', svc.seed!.teamId, svc.seed!.ownerUserId, at, at);
    svc.db
      .prepare(
        "INSERT INTO bulk_job_items (job_id, position, fqdn, status, error) VALUES (?, 0, 'done.example', 'invalid', 'x')",
      )
      .run('00000000-0000-4000-8000-000000000001');
    svc.db
      .prepare(
        "INSERT INTO bulk_job_items (job_id, position, fqdn, status) VALUES (?, 1, 'resumed.example', 'pending')",
      )
      .run('00000000-0000-4000-8000-000000000001');
    const first = await svc.call('GET', '/domains/bulk/00000000-0000-4000-8000-000000000001', {
      token: owner,
    });
    expect(first.body.data).toMatchObject({ status: 'running', total: 2, processed: 1 });
    const { final } = await waitForJob('00000000-0000-4000-8000-000000000001');
    expect(final.results[1]).toMatchObject({ fqdn: 'resumed.example', status: 'created' });
  });

  it('is readable with domains:read by a member of the team', async () => {
    const res = await svc.call('POST', '/domains/bulk', {
      token: owner,
      body: { domains: ['member-read.example'] },
    });
    await waitForJob(res.body.data.job_id);
    const viewer = (await svc.createToken(['domains:read'], { userId: svc.seed!.members.viewer })).token;
    const read = await svc.call('GET', `/domains/bulk/${res.body.data.job_id}`, { token: viewer });
    expect(read.status).toBe(200);
    expect(read.body.data.status).toBe('completed');
  });

  it('answers 404 for another team’s job and an unknown id', async () => {
    const res = await svc.call('POST', '/domains/bulk', {
      token: owner,
      body: { domains: ['secret.example'] },
    });
    const theirs = await svc.call('GET', `/domains/bulk/${res.body.data.job_id}`, { token: otherOwner });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('not_found');
    expect((await svc.call('GET', '/domains/bulk/no-such-job', { token: owner })).status).toBe(404);
  });
});
