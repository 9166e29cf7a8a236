// Names and every other free-text field the service stores refuse control characters with 422 naming the
// field, and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';

let svc: ServiceHarness;
let owner: { id: number; token: string };

beforeAll(async () => {
  svc = await startService();
  owner = await svc.createToken(['me:read', 'me:write', 'domains:read', 'domains:write']);
});
afterAll(async () => stopService(svc));

describe('control characters in stored text', () => {
  it('PATCH /me and POST /domain-groups refuse NUL, ESC and C1 with 422 naming the field; nothing stored', async () => {
    const before = await svc.call('GET', '/me', { token: owner.token });
    for (const bad of ['Eve\u0000', 'x\u001b[2Jy', 'a\u009bb', 'del\u007f']) {
      const me = await svc.call('PATCH', '/me', { token: owner.token, body: { name: bad } });
      expect(me.status, bad).toBe(422);
      expect(JSON.stringify(me.body)).toContain('"field":"body.name"');
      expect(JSON.stringify(me.body)).toMatch(/control characters/);
      const group = await svc.call('POST', '/domain-groups', { token: owner.token, body: { name: bad } });
      expect(group.status, bad).toBe(422);
    }
    expect((await svc.call('GET', '/me', { token: owner.token })).body).toEqual(before.body);
    const groups = await svc.call('GET', '/domain-groups', { token: owner.token });
    expect(JSON.stringify(groups.body)).not.toMatch(/\\u00(00|1b|9b|7f)/);
    // Tab and newline stay allowed where text may hold them.
    expect((await svc.call('PATCH', '/me', { token: owner.token, body: { name: 'Olivia O.' } })).status).toBe(
      200,
    );
  });
});
