// Roles over real HTTP: only assignable roles exist for the API (Owner, Admin and Editor are not).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';

let svc: ServiceHarness;
let reader: string;

beforeAll(async () => {
  svc = await startService();
  // The owner's: the team users section, roles included, is owner-only (users.test.ts checks members get 403).
  reader = (await svc.createToken(['users:read'])).token;
});

afterAll(() => stopService(svc));

describe('GET /roles', () => {
  it('lists the assignable roles only, with their permissions', async () => {
    const res = await svc.call('GET', '/roles', { token: reader });
    expect(res.status).toBe(200);
    const names = res.body.data.map((r: { name: string }) => r.name);
    expect(names).toEqual(['Viewer', 'Analyst', 'Domain Manager']);
    expect(names).not.toContain('Owner');
    const viewer = res.body.data[0];
    expect(viewer.description).toMatch(/read-only/i);
    expect(viewer.permissions.length).toBeGreaterThan(0);
  });

  it('is refused to a member, even a Viewer with users:read (403 team_owner_required)', async () => {
    const t = (await svc.createToken(['users:read'], { userId: svc.seed!.members.viewer })).token;
    for (const path of ['/roles', '/roles/4']) {
      const res = await svc.call('GET', path, { token: t });
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe('team_owner_required');
    }
  });

  it('needs users:read (403 insufficient_scope)', async () => {
    const t = (await svc.createToken(['domains:read'])).token;
    const res = await svc.call('GET', '/roles', { token: t });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('insufficient_scope');
  });
});

describe('GET /roles/{role_id}', () => {
  it('returns one assignable role', async () => {
    const list = await svc.call('GET', '/roles', { token: reader });
    const analyst = list.body.data.find((r: { name: string }) => r.name === 'Analyst');
    const res = await svc.call('GET', `/roles/${analyst.id}`, { token: reader });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(analyst);
  });

  it('answers 404 not_found for Owner, Admin and Editor, and for an unknown id', async () => {
    const ids = svc.db
      .prepare<[], { id: number }>("SELECT id FROM roles WHERE name IN ('Owner', 'Admin', 'Editor')")
      .all()
      .map((r) => r.id);
    expect(ids).toHaveLength(3);
    for (const id of [...ids, 999]) {
      const res = await svc.call('GET', `/roles/${id}`, { token: reader });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('answers 422 for a role id that is not a positive integer', async () => {
    const res = await svc.call('GET', '/roles/abc', { token: reader });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('path.role_id');
  });
});
