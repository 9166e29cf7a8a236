import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/** A Prometheus-family daemon started for a test: its own folder, removed when it stops. */
export interface ReadyDaemon {
  stop(): Promise<void>;
}

/**
 * Starts `bin` with `args` and waits until `${url}/-/ready` answers (Prometheus and Alertmanager both serve it),
 * failing with the daemon's stderr if it exits or is not ready within `readyWithinMs`. Stopping sends SIGTERM,
 * SIGKILL after 5 s, and removes `dir`.
 */
export async function startReadyDaemon(o: {
  name: string;
  bin: string;
  args: string[];
  dir: string;
  url: string;
  readyWithinMs: number;
  pollMs: number;
}): Promise<ReadyDaemon> {
  let stderr = '';
  const child: ChildProcess = spawn(o.bin, o.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const ended = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([ended, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(o.dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + o.readyWithinMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`${o.name} exited at start: ${stderr}`);
    }
    try {
      if ((await fetch(`${o.url}/-/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${o.name} not ready within ${o.readyWithinMs / 1000} s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, o.pollMs));
  }
  return { stop };
}
