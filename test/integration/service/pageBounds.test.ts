// `page` on every paginated operation, under both base paths: a page number too large for a row offset is a
// 422 naming query.page (it was a 500 from SQLite), the largest allowed page is an empty page, not an error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentRuntime } from '../../../service/openapi/documentRuntime.ts';
import { startService, stopService } from '../../support/serviceHarness.ts';
import type { ServiceHarness } from '../../support/serviceHarness.ts';
import { insertDomain } from '../../support/ownerWorld.ts';

const PAGINATED = documentRuntime().operations.filter((op) =>
  op.parameters.some((p) => p.in === 'query' && p.name === 'page'),
);
const LARGEST_PAGE = 2147483647;

let svc: ServiceHarness;
let token: string;
let params: Record<string, number>;

beforeAll(async () => {
  svc = await startService();
  token = (await svc.createToken(['domains:read', 'tokens:read', 'me:read', 'account:read'])).token;
  const teamId = svc.seed!.teamId;
  const domainId = insertDomain(svc, teamId, 'pages.example');
  const at = svc.clock.now().toISOString();
  const groupId = Number(
    svc.db
      .prepare('INSERT INTO domain_groups (team_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)')
      .run(teamId, 'Pages', at, at).lastInsertRowid,
  );
  params = { domain_id: domainId, group_id: groupId };
});
afterAll(() => stopService(svc));

function pathOf(template: string): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => String(params[name]));
}

describe('page bounds', () => {
  it('covers the twelve paginated operations of the document', () => {
    expect(PAGINATED).toHaveLength(12);
  });

  for (const op of PAGINATED) {
    for (const base of ['primary', 'alt'] as const) {
      it(`${op.operationId} (${base}): a page past 2^31 or 2^63 is 422 query.page, never 500`, async () => {
        for (const page of ['99999999999999999999', '9223372036854775808', String(LARGEST_PAGE + 1)]) {
          const res = await svc.call(op.method, pathOf(op.path), { token, base, query: { page } });
          expect(res.status, `page=${page}`).toBe(422);
          expect(res.body.error.code).toBe('validation_error');
          expect(res.body.error.details).toEqual([{ field: 'query.page', message: expect.any(String) }]);
        }
      });

      it(`${op.operationId} (${base}): the largest page is answered, empty`, async () => {
        const res = await svc.call(op.method, pathOf(op.path), {
          token,
          base,
          query: { page: LARGEST_PAGE, limit: 100 },
        });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([]);
        expect(res.body.pagination).toMatchObject({ page: LARGEST_PAGE, limit: 100, has_more: false });
      });
    }
  }
});
