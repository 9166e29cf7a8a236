/**
 * `authwatch channels test` against receivers that misbehave, as real processes: a webhook answering 600 MiB
 * (the command's peak memory read from /proc while it runs) and one dripping its answer a byte at a time (the
 * command ends at the test's 20 s deadline and says the test failed, instead of waiting for the receiver).
 */
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCliProcess, startCli } from '../../support/cliProcess.ts';
import { startHostileReceiver, type HostileReceiver } from '../../support/hostileReceiver.ts';

const MIB = 1024 * 1024;

/** The peak resident memory (VmHWM) of a running process, in bytes; 0 once it is gone. */
function peakRss(pid: number): number {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib ? Number(kib) * 1024 : 0;
  } catch {
    return 0;
  }
}

describe('authwatch channels test against a hostile receiver', () => {
  let receiver: HostileReceiver;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    receiver = await startHostileReceiver();
    const dir = mkdtempSync(join(tmpdir(), 'authwatch-bounds-'));
    env = cliEnv({ AUTHWATCH_DB: join(dir, 'mirror.db'), HOME: dir });
    const add = await runCliProcess(
      ['channels', 'add', 'webhook', '--name', 'hostile', '--url', `${receiver.url}/hook`],
      { env },
    );
    expect(add.code, add.stderr).toBe(0);
  }, 60_000);
  afterAll(() => receiver?.close());

  it('reads 64 KiB of a 600 MiB answer and stays small', async () => {
    receiver.mode = 'huge';
    receiver.bytesWritten = 0;
    const run = startCli(['channels', 'test', 'hostile'], { env });
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, peakRss(run.child.pid!))), 20);
    const done = await run.done;
    clearInterval(sampler);
    if (process.env.SHOW_MEASURES) console.log({ peak, written: receiver.bytesWritten });
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('Sent a test message to “hostile”.');
    expect(receiver.bytesWritten).toBeLessThan(64 * MIB);
    // The whole command (Node, SQLite, the app) — it reached 1.3–2.0 GiB reading the answer whole.
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(300 * MIB);
  }, 60_000);

  it('gives up on a dripping answer at the 20 s deadline and says the test failed', async () => {
    receiver.mode = 'drip';
    receiver.dripMs = 500;
    const started = Date.now();
    const done = await runCliProcess(['channels', 'test', 'hostile'], { env });
    const took = Date.now() - started;
    expect(done.code).toBe(1);
    expect(done.stderr).toMatch(/The test message to “hostile” failed: no complete answer within 20 s/);
    if (process.env.SHOW_MEASURES) console.log({ took });
    expect(took).toBeGreaterThanOrEqual(20_000);
    expect(took).toBeLessThan(30_000);
    const listed = await runCliProcess(['channels', 'list', '--json'], { env });
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { name: 'hostile', last_error: expect.stringMatching(/within 20 s/) },
    ]);
  }, 60_000);
});
