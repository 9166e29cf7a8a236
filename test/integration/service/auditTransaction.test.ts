// Every change the service keeps has its audit entry, written in the same transaction: also when the client
// hangs up before the answer, and a call whose entry cannot be written changes nothing.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';

let svc: ServiceHarness;
let user: { id: number; token: string };

beforeAll(async () => {
  svc = await startService();
  user = await svc.createToken(['me:read', 'me:write', 'account:read']);
});
afterAll(async () => stopService(svc));

const nameOf = () =>
  (
    svc.db
      .prepare('SELECT name FROM users WHERE id = (SELECT user_id FROM api_tokens WHERE id = ?)')
      .get(user.id) as {
      name: string;
    }
  ).name;
const entriesOf = (requestId: string) =>
  svc.db.prepare('SELECT * FROM audit_logs WHERE request_id = ?').all(requestId) as { ip_address: string }[];

describe('audit entries in the transaction of the change', () => {
  it('records the change of a client that hung up before the answer (20 of 20)', async () => {
    const { port, hostname } = new URL(svc.origin);
    for (let n = 0; n < 20; n++) {
      const requestId = `bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`;
      const body = JSON.stringify({ name: `Hung up ${n}` });
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(
            `PATCH /api/v1/me HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-Api-Token: ${user.token}\r\n` +
              `X-Request-Id: ${requestId}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
          );
          socket.destroy(); // gone before the answer
          resolve();
        });
        socket.on('error', () => resolve());
      });
      await expect.poll(() => nameOf(), { timeout: 5_000 }).toBe(`Hung up ${n}`);
      await expect.poll(() => entriesOf(requestId).length, { timeout: 5_000 }).toBe(1);
    }
  });

  it('a call whose audit entry cannot be written changes nothing', async () => {
    const before = nameOf();
    svc.db.exec('ALTER TABLE audit_logs RENAME TO audit_logs_away');
    try {
      const res = await svc.call('PATCH', '/me', { token: user.token, body: { name: 'Unrecorded' } });
      expect(res.status).toBe(500);
      expect(JSON.stringify(res.body)).toMatch(/nothing was changed/);
    } finally {
      svc.db.exec('ALTER TABLE audit_logs_away RENAME TO audit_logs');
    }
    expect(nameOf()).toBe(before);
  });
});
