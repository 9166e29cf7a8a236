// Leniencies removed (issue 12 item 11): ids are decimal integers — /audit-logs/0x10 is not entry 16 — and a
// token name with control characters or invalid Unicode is refused, not stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../support/serviceHarness.ts';
import type { ServiceHarness } from '../../support/serviceHarness.ts';

let svc: ServiceHarness;
let token: string;

beforeAll(async () => {
  svc = await startService();
  token = (await svc.createToken(['tokens:write', 'tokens:read', 'account:read', 'me:read'])).token;
});
afterAll(() => stopService(svc));

describe('ids are decimal integers', () => {
  it('answers entry 16 at /audit-logs/16 and 422 path.log_id spelled 0x10, 16.0, +16, 16e0 or past 2^53', async () => {
    // Token creations are audited: 16 of them give the team at least 16 entries.
    for (let i = 0; i < 16; i++) {
      const res = await svc.call('POST', '/auth/tokens', {
        token,
        body: { name: `t${i}`, scopes: ['me:read'] },
      });
      expect(res.status).toBe(201);
    }
    const entry = svc.db
      .prepare<[number], { id: number }>(
        'SELECT id FROM audit_logs WHERE team_id = ? ORDER BY id LIMIT 1 OFFSET 15',
      )
      .get(svc.seed!.teamId)!;
    const id = entry.id;
    expect((await svc.call('GET', `/audit-logs/${id}`, { token })).body.data.id).toBe(id);

    for (const spelled of [`0x${id.toString(16)}`, `${id}.0`, `+${id}`, `${id}e0`, '9007199254740993']) {
      const res = await svc.call('GET', `/audit-logs/${spelled}`, { token });
      expect(res.status, spelled).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details).toEqual([{ field: 'path.log_id', message: expect.any(String) }]);
    }
  });

  it('reads integer query parameters the same way (page=0x2 is not page 2)', async () => {
    const res = await svc.call('GET', '/auth/tokens', { token, query: { page: '0x2' } });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'query.page', message: 'must be a decimal integer' }]);
  });
});

describe('token names', () => {
  const create = (rawBody: string) => svc.call('POST', '/auth/tokens', { token, rawBody });

  it('refuses control characters in the name with 422 body.name', async () => {
    for (const name of ['a\u0000b', 'tab\there', 'line\nbreak', 'del\u007f', 'c1\u0085']) {
      const res = await create(JSON.stringify({ name, scopes: ['me:read'] }));
      expect(res.status, JSON.stringify(name)).toBe(422);
      expect(res.body.error.details).toEqual([{ field: 'body.name', message: expect.any(String) }]);
    }
  });

  it('refuses a lone surrogate (escaped in the JSON) and bytes that are not UTF-8', async () => {
    for (const escaped of ['a\\ud800b', '\\udc00', 'x\\ude00\\ud83d']) {
      const res = await create(`{"name":"${escaped}","scopes":["me:read"]}`);
      expect(res.status, escaped).toBe(422);
      expect(res.body.error.details).toEqual([
        { field: 'body.name', message: expect.stringContaining('Unicode') },
      ]);
    }
    const latin1 = Buffer.concat([
      Buffer.from('{"name":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('","scopes":["me:read"]}'),
    ]);
    const res = await fetch(`${svc.baseUrl}/auth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': token },
      body: latin1,
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { details: unknown } }).error.details).toEqual([
      { field: 'body', message: 'is not valid JSON' },
    ]);
    const stored = svc.db
      .prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM api_tokens WHERE name LIKE '%\uFFFD%'")
      .get()!;
    expect(stored.n).toBe(0);
  });

  it('still accepts any printable Unicode, paired surrogates included', async () => {
    const res = await create(JSON.stringify({ name: 'déploiement 🔑 ключ', scopes: ['me:read'] }));
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('déploiement 🔑 ключ');
  });
});
