/**
 * Silences from the command line, end to end with real processes, the reference service and the signing
 * webhook receiver: a silence for one domain → its SPF removal is raised and listed as silenced, and no
 * message goes; the other domain's still does. The silence expires while the alert is open → one message;
 * a kill -9 in the middle of that send → the next run sends the same event, and nothing more after. An
 * acknowledgement with a note reaches the same channel as an update and stays in the alert's listing.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCliProcess, startCli } from '../../support/cliProcess.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.ts';
import { publish, scan, startWorld, type EngineWorld } from '../../support/engineWorld.ts';

const SECRET = 'whsec-test-silences-0123';

/** Each body's alerts as "type domain rule" (a pass's group or a single alert alike). */
function lines(hook: WebhookReceiver): string[] {
  return hook.received.flatMap((r) => {
    const json = r.json as {
      type: string;
      alerts?: { domain: string; rule: string }[];
      alert?: { domain: string; rule: string };
    };
    const alerts = json.alerts ?? (json.alert ? [json.alert] : []);
    return alerts.filter((a) => a.rule === 'protocol_disconnected').map((a) => `${json.type} ${a.domain}`);
  });
}

describe('silences on the command line', () => {
  let world: EngineWorld;
  let hook: WebhookReceiver;
  let env: NodeJS.ProcessEnv;
  const cli = async (args: string[]) => {
    const run = await runCliProcess(args, { env });
    expect(run.code, run.stderr).toBe(0);
    return run;
  };

  beforeAll(async () => {
    world = await startWorld(['planned.example', 'other.example']);
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

  it('holds the silenced domain back, then notifies it once when the silence ends — across kill -9', async () => {
    await cli([
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
    ]);
    await cli(['sync', '--once', '--base-url', world.svc.baseUrl]);

    const bad = await runCliProcess(
      ['silences', 'add', '--domain', 'planned.example', '--for', 'soon', '--reason', 'x'],
      { env },
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--for takes a duration');
    const noReason = await runCliProcess(['silences', 'add', '--domain', 'planned.example', '--for', '2h'], {
      env,
    });
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason');

    const added = await cli([
      'silences',
      'add',
      '--domain',
      'planned.example',
      '--for',
      '2h',
      '--reason',
      'moving DNS to the new provider',
    ]);
    expect(added.stdout).toMatch(/^Added silence 1: domain planned\.example, until /);
    const listed = JSON.parse((await cli(['silences', 'list', '--json'])).stdout) as Record<
      string,
      unknown
    >[];
    expect(listed).toMatchObject([
      {
        id: 1,
        state: 'active',
        reason: 'moving DNS to the new provider',
        matchers: { domain: 'planned.example' },
      },
    ]);
    // The OS user made it (the command line has no token user).
    expect(listed[0]!.author).toBeTruthy();

    world.svc.clock.advance(60_000);
    await publish(world.svc, 'planned.example', 'spf', null);
    await publish(world.svc, 'other.example', 'spf', null);
    await scan(world.svc);
    await cli(['sync', '--once']);
    expect(lines(hook)).toEqual(['alert.raised other.example']);
    const open = (await cli(['alerts', '--open'])).stdout;
    expect(open).toMatch(/planned\.example — .*silenced by .*“moving DNS to the new provider”/);

    await cli(['silences', 'expire', '1']);
    hook.mode = 'hang';
    const doomed = startCli(['sync', '--once'], { env });
    await hook.waitFor(2);
    doomed.child.kill('SIGKILL');
    expect((await doomed.done).signal).toBe('SIGKILL');
    const inFlight = hook.received[1]!;
    expect(lines(hook)).toEqual(['alert.raised other.example', 'alert.raised planned.example']);

    hook.mode = 'ok';
    await cli(['sync', '--once']);
    await cli(['sync', '--once']);
    // The same event again after the kill (a receiver drops it by id), and never a third time.
    expect(hook.received.map((r) => r.json.id)).toEqual([
      hook.received[0]!.json.id,
      inFlight.json.id,
      inFlight.json.id,
    ]);
    expect((await cli(['silences', 'list'])).stdout).toMatch(
      /#1 \[expired\] domain planned\.example .* expired early by /,
    );
  }, 180_000);

  it('sends an acknowledgement with its note to the channel that heard of the alert', async () => {
    const alerts = JSON.parse((await cli(['alerts', '--json', '--open'])).stdout) as {
      id: number;
      domain: string;
      rule: string;
    }[];
    const target = alerts.find((a) => a.domain === 'other.example' && a.rule === 'protocol_disconnected')!;
    const before = hook.received.length;
    const acked = await cli(['ack', String(target.id), '--note', 'provider ticket #4411']);
    expect(acked.stdout).toContain('“provider ticket #4411”');
    await cli(['sync', '--once']);
    const update = hook.received.slice(before).map((r) => r.json as Record<string, unknown>);
    expect(update).toHaveLength(1);
    expect(JSON.stringify(update[0])).toContain('provider ticket #4411');
    expect(update[0]!.type).toBe('alert.acknowledged');
    expect((await cli(['alerts', '--open'])).stdout).toMatch(/acknowledged by \S+: “provider ticket #4411”/);
  }, 120_000);
});
