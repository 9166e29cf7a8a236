/**
 * The browser host as users start it, for the UI benchmark: the bundle `npm run build` makes (out/main/host.js,
 * built here into the bench's own folder), run by Node in a process of its own on a mirror file, without
 * opening a window (the bench's Chromium opens the link). Resolves once the host printed its link.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { buildMain } from '../../../scripts/build-main.ts';

/** A host process that printed its link. */
export interface HostProcess {
  url: string;
  /** Epoch ms: just before the process was spawned, and when its link was read. */
  spawnedAt: number;
  listeningAt: number;
  /** Stops it (SIGTERM: the host closes the mirror cleanly) and waits for its exit. */
  stop(): Promise<void>;
}

/** Builds the main bundles into `dir` and returns the host's. */
export async function buildHostBundle(dir: string): Promise<string> {
  await buildMain({ outDir: dir });
  return join(dir, 'host.js');
}

const waitExit = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((done) => child.once('exit', () => done()));

/**
 * Starts `node <bundle> --db <db> --renderer <rendererDir> --no-open --dns-server 127.0.0.1:9`. The keychain is not reachable here
 * (no D-Bus session), so the host says it keeps tokens for the session: the same start a server without a
 * desktop makes.
 */
export async function startHostProcess(
  bundle: string,
  options: { db: string; rendererDir: string; nodeArgs?: string[] },
): Promise<HostProcess> {
  const spawnedAt = Date.now();
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      bundle,
      '--db',
      options.db,
      '--renderer',
      options.rendererDir,
      '--no-open',
      // The DNS watch asks a closed port on this machine: the bench sends nothing beyond loopback.
      '--dns-server',
      '127.0.0.1:9',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const link = /running at (\S+)/.exec(out)?.[1];
      if (link) done(link);
    });
    child.once('exit', (code) => fail(new Error(`the host exited (${code}) before listening:\n${stderr}`)));
  });
  const listeningAt = Date.now();
  return {
    url,
    spawnedAt,
    listeningAt,
    async stop() {
      child.kill('SIGTERM');
      await waitExit(child);
    },
  };
}
