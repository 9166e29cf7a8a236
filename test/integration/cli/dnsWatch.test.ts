/**
 * `authwatch sync --dns-server`: a one-shot sync with resolvers listed asks DNS for every record once, against
 * the service's DNS port, and raises the disconnect of a record DNS no longer holds; `status` then shows the
 * DNS watch's resolvers and freshness.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZoneDnsServer, type ZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';
import { cliEnv, runCliProcess } from '../../support/cliProcess.ts';
import { nxdomainForEverything, startForgingDnsServer } from '../../support/forgingDnsServer.ts';
import { startWorld, type EngineWorld } from '../../support/engineWorld.ts';

describe('authwatch sync --dns-server', () => {
  let world: EngineWorld;
  let dns: ZoneDnsServer;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    world = await startWorld(['cli-dns.example', 'cli-other.example']);
    dns = await startZoneDnsServer({ db: world.svc.db, port: 0 });
    env = cliEnv({
      AUTHWATCH_TOKEN: world.token,
      AUTHWATCH_DB: join(world.dir, 'mirror.db'),
      HOME: world.dir,
    });
  });
  afterAll(async () => {
    await dns.close();
    await world.close();
  });

  it('checks every record once, and status shows the watch', async () => {
    const server = `127.0.0.1:${dns.port}`;
    const first = await runCliProcess(
      ['sync', '--once', '--base-url', world.svc.baseUrl, '--dns-server', server],
      {
        env,
      },
    );
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('DNS: 10 records checked, 0 new alerts.');

    const status = await runCliProcess(['status'], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(
      new RegExp(`DNS watch  ${server} \\(command line\\); 10 records; newest answer`),
    );
    expect(status.stdout).toMatch(/at most 100 queries\/s per resolver/);
    const json = JSON.parse((await runCliProcess(['status', '--json'], { env })).stdout) as {
      dnsWatch: { records: number; servers: string[] };
    }[];
    expect(json[0]!.dnsWatch).toMatchObject({ records: 10, servers: [server] });
  }, 120_000);

  it('says a resolver lying NXDOMAIN for every name is not to be trusted, raises nothing, and status says it too', async () => {
    const liar = await startForgingDnsServer(nxdomainForEverything);
    liar.forgeries = [];
    try {
      const server = `127.0.0.1:${liar.port}`;
      const run = await runCliProcess(['sync', '--once', '--dns-server', server], { env });
      expect(run.code, run.stderr).toBe(0);
      const said = `DNS unavailable: ${server} answers that the DNS root itself does not exist (NXDOMAIN). The watch ignores its answers — pick a resolver (Settings → DNS watch, or --dns-server HOST[:PORT]).`;
      expect(run.stdout).toContain('DNS: 10 records checked, 0 new alerts.');
      expect(run.stdout).toContain(said);
      const status = await runCliProcess(['status'], { env });
      expect(status.stdout).toContain(said);
    } finally {
      await liar.close();
    }
  }, 120_000);

  it('refuses a resolver that is not an IP address', async () => {
    const run = await runCliProcess(['sync', '--once', '--dns-server', 'dns.example.com'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--dns-server dns.example.com: give a resolver's IP address");
  });
});
