/**
 * The routing table as a file on the command line, real processes over one mirror: `routes export` writes
 * the table (stdout or --file), `routes import` replaces it from a file — channels by name, every field
 * checked — and a bad file names its field and changes nothing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCliProcess } from '../../support/cliProcess.ts';

describe('routes export and import', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const run = (args: string[]) => runCliProcess(args, { env });
  const ok = async (args: string[]) => {
    const r = await run(args);
    expect(r.code, r.stderr).toBe(0);
    return r;
  };
  const table = async () =>
    JSON.parse((await ok(['routes', 'list', '--json'])).stdout) as {
      id: number;
      name: string;
      channels: { name: string }[];
      groupWaitSeconds: number | null;
      continue: boolean;
    }[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'authwatch-routefile-'));
    env = cliEnv({ AUTHWATCH_DB: join(dir, 'mirror.db'), HOME: dir });
    for (const name of ['client-a', 'ops'])
      await ok(['channels', 'add', 'webhook', '--name', name, '--url', `http://127.0.0.1:9/${name}`]);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('imports a table written by hand, exports it back, and refuses a bad file without losing the table', async () => {
    const file = join(dir, 'routes.json');
    writeFileSync(
      file,
      JSON.stringify({
        authwatch: 'routes',
        version: 1,
        routes: [
          {
            name: 'Client A',
            matchers: { group: 'Client A' },
            channels: ['client-a'],
            continue: true,
            groupWaitSeconds: 30,
            repeatMinutes: 240,
          },
          { name: 'Default', default: true, channels: ['ops'] },
        ],
      }),
    );
    const imported = await ok(['routes', 'import', file]);
    expect(imported.stdout).toContain('Imported 2 routes');
    const before = await table();
    expect(
      before.map((r) => [r.name, r.channels.map((c) => c.name), r.groupWaitSeconds, r.continue]),
    ).toEqual([
      ['Client A', ['client-a'], 30, true],
      ['Default', ['ops'], null, false],
    ]);

    // Exported, then imported again: the same table, the same routes (ids kept: nothing escalates twice).
    const out = join(dir, 'exported.json');
    await ok(['routes', 'export', '--file', out]);
    const stdout = (await ok(['routes', 'export'])).stdout;
    expect(JSON.parse(stdout)).toEqual(JSON.parse(readFileSync(out, 'utf8')));
    expect(JSON.parse(stdout).routes[0]).toMatchObject({ name: 'Client A', channels: ['client-a'] });
    await ok(['routes', 'import', out]);
    expect(await table()).toEqual(before);

    const bad = async (routes: unknown, words: string) => {
      writeFileSync(file, JSON.stringify({ authwatch: 'routes', version: 1, routes }));
      const r = await run(['routes', 'import', file]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(words);
      expect(r.stderr).toContain('the routing table is unchanged');
      expect(await table()).toEqual(before);
    };
    const fallback = { name: 'Default', default: true, channels: null };
    await bad(
      [{ name: 'Pager', channels: ['pager'] }, fallback],
      'routes.0.channels.0: no channel named “pager”',
    );
    await bad([{ name: 'A', channels: ['ops'], repeatMinutes: 5 }, fallback], 'routes.0.repeatMinutes');
    await bad([{ name: 'A', channels: ['ops'], colour: 'red' }, fallback], 'routes.0');
    await bad([{ name: 'A', channels: ['ops'] }], 'routes: the table needs exactly one default route, last');
    writeFileSync(file, '{"authwatch": "routes", ');
    const notJson = await run(['routes', 'import', file]);
    expect(notJson.stderr).toContain('The file is not JSON');
    expect(await table()).toEqual(before);
  }, 120_000);
});
