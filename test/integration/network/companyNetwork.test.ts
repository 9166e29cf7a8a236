/**
 * The `authwatch` command on a company network, with real components: a forward proxy counting what goes
 * through it, the reference service behind it, over HTTPS with a certificate from a private CA ("Corp
 * Inspection CA") and on IPv6's loopback. The proxies come from the environment, as admins set them.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCliProcess } from '../../support/cliProcess.ts';
import { startForwardProxy, type ForwardProxy } from '../../support/forwardProxy.ts';
import { startTinyproxy } from '../../support/tinyproxy.ts';
import { startWorld, type EngineWorld } from '../../support/engineWorld.ts';

const CA_DIR = new URL('../../fixtures/corp-ca/', import.meta.url);
const CA_FILE = new URL('corp-inspection-ca.crt', CA_DIR).pathname;

/** The service behind TLS with the private CA's certificate (a TLS-terminating front, like a load balancer). */
async function startTlsFront(origin: string): Promise<{ baseUrl: string; server: HttpsServer }> {
  const upstream = new URL(origin);
  const server = createHttpsServer(
    {
      key: readFileSync(new URL('server-test-only.key', CA_DIR)),
      cert: readFileSync(new URL('server-test-only.crt', CA_DIR)),
    },
    (req, res) => {
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.writeHead(502).end());
      req.pipe(forward);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, server };
}

// Each case runs the command several times; a child process takes seconds on a busy two-core machine.
const SLOW = { timeout: 240_000 };

describe('authwatch on a company network', () => {
  let world: EngineWorld;
  let proxy: ForwardProxy;
  let guarded: ForwardProxy;
  let tls: { baseUrl: string; server: HttpsServer };
  let db = 0;
  /** A fresh mirror per run, so each one adds its account (GET /auth/me) and syncs everything. */
  const env = (extra: Record<string, string> = {}) =>
    cliEnv({
      AUTHWATCH_TOKEN: world.token,
      AUTHWATCH_DB: join(world.dir, `mirror-${++db}.db`),
      HOME: world.dir,
      ...extra,
    });

  beforeAll(async () => {
    world = await startWorld(['proxied.example']);
    proxy = await startForwardProxy();
    guarded = await startForwardProxy({ login: 'alice:s3cret-proxy-pass' });
    tls = await startTlsFront(world.svc.origin);
  });
  afterAll(async () => {
    await proxy?.close();
    await guarded?.close();
    await new Promise((resolve) => tls?.server.close(resolve));
    await world?.close();
  });

  it(
    'sends every request of a sync through HTTP_PROXY, and none when NO_PROXY names the service',
    SLOW,
    async () => {
      const service = new URL(world.svc.origin).host;
      const through = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], {
        env: env({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url }),
      });
      expect(through.code, through.stderr).toBe(0);
      const requests = Number(/(\d+) requests/.exec(through.stdout)?.[1]);
      // Every request of the pass, and the first GET /auth/me that added the account.
      expect(proxy.seen.length).toBe(requests + 1);
      expect(new Set(proxy.seen)).toEqual(new Set([service]));

      const before = proxy.seen.length;
      for (const noProxy of ['127.0.0.1', '127.0.0.0/8', `127.0.0.1:${new URL(world.svc.origin).port}`]) {
        const around = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], {
          env: env({ http_proxy: proxy.url, no_proxy: noProxy }),
        });
        expect(around.code, around.stderr).toBe(0);
      }
      expect(proxy.seen.length).toBe(before);
    },
  );

  it(
    'says the proxy asks for a login (407), then works with http://user:pass@ — never printing the password',
    SLOW,
    async () => {
      const refused = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], {
        env: env({ HTTP_PROXY: guarded.url }),
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('The proxy asks for a login (407)');
      expect(refused.stderr).not.toContain('fetch failed');

      const login = guarded.url.replace('http://', 'http://alice:s3cret-proxy-pass@');
      const ok = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], {
        env: env({ HTTP_PROXY: login }),
      });
      expect(ok.code, ok.stderr).toBe(0);
      expect(guarded.seen.length).toBeGreaterThan(1);

      const wrong = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], {
        env: env({ HTTP_PROXY: guarded.url.replace('http://', 'http://alice:wrong-pass@') }),
      });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain(
        `The proxy at ${new URL(guarded.url).host} did not accept the user name and password it was given (407)`,
      );
      for (const run of [refused, ok, wrong])
        expect(run.stdout + run.stderr).not.toMatch(/s3cret|wrong-pass/);
    },
  );

  it(
    'names a proxy that refuses the connection, in the sync line and in authwatch status',
    SLOW,
    async () => {
      const dead = await startForwardProxy();
      const deadUrl = dead.url;
      await dead.close();
      const runEnv = env();
      const first = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], { env: runEnv });
      expect(first.code, first.stderr).toBe(0);

      const failed = await runCliProcess(['sync', '--once'], {
        env: { ...runEnv, HTTPS_PROXY: deadUrl, HTTP_PROXY: deadUrl },
      });
      expect(failed.code).toBe(1);
      const words = `The proxy at ${new URL(deadUrl).host} refused the connection`;
      expect(failed.stderr).toContain(words);
      expect(failed.stderr).not.toContain('fetch failed');

      // status also says which proxy this environment names, without its password.
      const status = await runCliProcess(['status'], {
        env: { ...runEnv, HTTPS_PROXY: 'http://ops:pw-not-shown@proxy.corp.test:3128' },
      });
      expect(status.stdout).toContain(words);
      expect(status.stdout).toContain(
        'Network    From the environment: https through http://proxy.corp.test:3128.',
      );
      expect(status.stdout).not.toContain('pw-not-shown');
    },
  );

  it(
    'refuses a service whose certificate comes from a private CA, naming it; trusts it with --ca-file or AUTHWATCH_EXTRA_CA',
    SLOW,
    async () => {
      const refused = await runCliProcess(['sync', '--once', '--base-url', tls.baseUrl], { env: env() });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        'The certificate of 127.0.0.1 is issued by Corp Inspection CA, which this computer does not trust — add it in Settings → Network',
      );

      const flag = await runCliProcess(['sync', '--once', '--base-url', tls.baseUrl, '--ca-file', CA_FILE], {
        env: env(),
      });
      expect(flag.code, flag.stderr).toBe(0);
      expect(flag.stdout).toMatch(/Synced “default”: [1-9]\d* fetched, 0 failed/);

      const variable = await runCliProcess(['sync', '--once', '--base-url', tls.baseUrl], {
        env: env({ AUTHWATCH_EXTRA_CA: CA_FILE }),
      });
      expect(variable.code, variable.stderr).toBe(0);

      const missing = await runCliProcess(
        ['sync', '--once', '--base-url', tls.baseUrl, '--ca-file', '/nonexistent/ca.pem'],
        {
          env: env(),
        },
      );
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(
        'The CA file /nonexistent/ca.pem (--ca-file) could not be read: there is no such file',
      );
    },
  );

  it(
    'tunnels https through HTTPS_PROXY, naming the untrusted issuer seen through the tunnel too',
    SLOW,
    async () => {
      const before = proxy.seen.length;
      const refused = await runCliProcess(['sync', '--once', '--base-url', tls.baseUrl], {
        env: env({ HTTPS_PROXY: proxy.url }),
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('is issued by Corp Inspection CA, which this computer does not trust');

      const ok = await runCliProcess(['sync', '--once', '--base-url', tls.baseUrl, '--ca-file', CA_FILE], {
        env: env({ HTTPS_PROXY: proxy.url }),
      });
      expect(ok.code, ok.stderr).toBe(0);
      expect(proxy.seen.length).toBeGreaterThan(before + 1);
      expect(proxy.seen.slice(before)).toContain(new URL(tls.baseUrl).host);
    },
  );

  it('syncs a service listening on IPv6 loopback, its base URL an IPv6 literal', SLOW, async () => {
    const v6 = await startWorld(['six.example'], { host: '::1' });
    try {
      expect(v6.svc.baseUrl).toMatch(/^http:\/\/\[::1\]:\d+\/api\/v1$/);
      const run = await runCliProcess(['sync', '--once', '--base-url', v6.svc.baseUrl], {
        env: cliEnv({ AUTHWATCH_TOKEN: v6.token, AUTHWATCH_DB: join(v6.dir, 'mirror.db'), HOME: v6.dir }),
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/Synced “default”: [1-9]\d* fetched, 0 failed/);
      const exported = await runCliProcess(['export', '--format', 'csv'], {
        env: cliEnv({ AUTHWATCH_DB: join(v6.dir, 'mirror.db'), HOME: v6.dir }),
      });
      expect(exported.stdout).toContain('six.example');
    } finally {
      await v6.close();
    }
  });

  it(
    'works through Debian’s tinyproxy: every request counted in its log, and its 407 in words',
    SLOW,
    async () => {
      const open = await startTinyproxy();
      const guardedReal = await startTinyproxy({ login: 'carol:tiny-pass-42' });
      try {
        const run = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], {
          env: env({ HTTP_PROXY: open.url }),
        });
        expect(run.code, run.stderr).toBe(0);
        const requests = Number(/(\d+) requests/.exec(run.stdout)?.[1]);
        expect(open.seen()).toHaveLength(requests + 1);
        expect(new Set(open.seen())).toEqual(new Set([new URL(world.svc.origin).host]));

        const refused = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], {
          env: env({ HTTP_PROXY: guardedReal.url }),
        });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('The proxy asks for a login (407)');
        const ok = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], {
          env: env({ HTTP_PROXY: guardedReal.url.replace('http://', 'http://carol:tiny-pass-42@') }),
        });
        expect(ok.code, ok.stderr).toBe(0);
        expect(ok.stdout + ok.stderr + refused.stderr).not.toContain('tiny-pass-42');
      } finally {
        await open.close();
        await guardedReal.close();
      }
    },
  );
});
