/**
 * Durable delivery with real processes: a generic signed webhook added with `authwatch channels add`, a
 * domain's SPF removed in the sandbox, `authwatch sync --once` killed with SIGKILL while its POST is in
 * flight — the next run sends the same event (same id, valid signature) and, once acknowledged, never
 * again. The SPF returning sends one signed "resolved".
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCliProcess, startCli } from '../../support/cliProcess.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.ts';
import { publish, scan, startWorld, type EngineWorld } from '../../support/engineWorld.ts';

const SECRET = 'whsec-test-0123456789';
const SPF = 'v=spf1 ip4:192.0.2.0/24 -all';

/** The alerts of a generic webhook body: `alert` alone, or a pass's `alerts`. */
function alertsOf(json: Record<string, unknown>): Record<string, unknown>[] {
  return (json.alerts as Record<string, unknown>[] | undefined) ?? [json.alert as Record<string, unknown>];
}

describe('a signed webhook through the outbox, across kill -9', () => {
  let world: EngineWorld;
  let hook: WebhookReceiver;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    world = await startWorld(['spf.example']);
    hook = await startWebhookReceiver(SECRET);
    env = cliEnv({
      AUTHWATCH_TOKEN: world.token,
      AUTHWATCH_DB: join(world.dir, 'mirror.db'),
      HOME: world.dir,
      HOOK_SECRET: SECRET,
    });
  });
  afterAll(async () => {
    await hook?.close();
    await world?.close();
  });

  it('delivers after a restart exactly once by event id, then one resolved', async () => {
    const add = await runCliProcess(
      [
        'channels',
        'add',
        'webhook',
        '--name',
        'hook',
        '--url',
        hook.url,
        '--secret-env',
        'HOOK_SECRET',
        '--min-severity',
        'critical',
      ],
      { env },
    );
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('Added channel “hook” (generic webhook http://127.0.0.1:');
    expect(add.stdout + add.stderr).not.toContain(SECRET);

    const first = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(hook.received).toHaveLength(0);

    world.svc.clock.advance(60_000);
    await publish(world.svc, 'spf.example', 'spf', null);
    await scan(world.svc);
    hook.mode = 'hang';
    const doomed = startCli(['sync', '--once'], { env });
    await hook.waitFor(1);
    doomed.child.kill('SIGKILL');
    expect((await doomed.done).signal).toBe('SIGKILL');
    const inFlight = hook.received[0]!;
    expect(inFlight.signed).toBe(true);
    // One message for the pass: the SPF alert (with the score drop it caused, when the scan shows one).
    expect(inFlight.json.type).toBe('alert.raised');
    expect(alertsOf(inFlight.json)).toContainEqual(
      expect.objectContaining({
        rule: 'protocol_disconnected',
        severity: 'critical',
        domain: 'spf.example',
        protocol: 'spf',
      }),
    );
    const id = inFlight.json.id as string;
    expect(inFlight.headers['x-authwatch-event-id']).toBe(id);

    hook.mode = 'ok';
    const again = await runCliProcess(['sync', '--once'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1]).toMatchObject({ signed: true, acknowledged: true, json: { id } });

    // Acknowledged once: never again.
    const quiet = await runCliProcess(['sync', '--once'], { env });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(hook.received).toHaveLength(2);
    const listed = await runCliProcess(['channels', 'list', '--json'], { env });
    expect(JSON.parse(listed.stdout)).toMatchObject([{ name: 'hook', queued: 0, last_error: null }]);

    // The repair is seen by a scan after the removal's (the service runs on its own manual clock).
    world.svc.clock.advance(60_000);
    await publish(world.svc, 'spf.example', 'spf', SPF);
    await scan(world.svc);
    const back = await runCliProcess(['sync', '--once'], { env });
    expect(back.code, back.stderr).toBe(0);
    expect(hook.received).toHaveLength(3);
    expect(hook.received[2]).toMatchObject({ signed: true, json: { type: 'alert.resolved' } });
    expect(alertsOf(hook.received[2]!.json)).toContainEqual(
      expect.objectContaining({
        rule: 'protocol_disconnected',
        domain: 'spf.example',
        resolved_at: expect.any(String),
      }),
    );
    expect(hook.received[2]!.json.id).not.toBe(id);
  }, 180_000);
});
