/**
 * Metrics with real components: `authwatch sync --watch --metrics-port 0` serves /metrics (OpenMetrics) on
 * 127.0.0.1 behind a bearer token (the classic text format to other scrapers); `promtool check metrics`
 * finds nothing to complain about; Debian's
 * Prometheus scrapes the running watcher and answers a PromQL query over its HTTP API.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, startCli, type RunningCli } from '../../support/cliProcess.ts';
import { promtoolCheck, startPrometheus, type RunningPrometheus } from '../../support/prometheus.ts';
import { startWorld, type EngineWorld } from '../../support/engineWorld.ts';

const TOKEN = 'metrics-bearer-5d1c0e';

describe('sync --watch --metrics-port', () => {
  let world: EngineWorld;
  let watcher: RunningCli;
  let prometheus: RunningPrometheus | undefined;
  let url: string;

  beforeAll(async () => {
    world = await startWorld(['m1.example', 'm2.example']);
    const env = cliEnv({
      AUTHWATCH_TOKEN: world.token,
      AUTHWATCH_DB: join(world.dir, 'mirror.db'),
      HOME: world.dir,
      SCRAPE_TOKEN: TOKEN,
    });
    watcher = startCli(
      [
        'sync',
        '--watch',
        '--base-url',
        world.svc.baseUrl,
        '--metrics-port',
        '0',
        '--metrics-token-env',
        'SCRAPE_TOKEN',
      ],
      { env },
    );
    await watcher.waitForStderr(/metrics at http:\/\/127\.0\.0\.1:\d+\/metrics/);
    url = /metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(watcher.stderr())![1]!;
  }, 60_000);
  afterAll(async () => {
    await prometheus?.close();
    if (watcher && watcher.child.exitCode === null) {
      watcher.child.kill('SIGTERM');
      await watcher.done;
    }
    await world?.close();
  });

  const OPENMETRICS = 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5';
  const scrape = (accept = OPENMETRICS) =>
    fetch(url, { headers: { authorization: `Bearer ${TOKEN}`, accept } });

  it('serves OpenMetrics to Prometheus and classic text that promtool accepts, only with the bearer token', async () => {
    expect((await fetch(url)).status).toBe(401);
    // The first pass fills the mirror: wait until both domains' protocols show.
    let text = '';
    const deadline = Date.now() + 60_000;
    while (!/authwatch_protocol_passing\{[^}]*domain="m2\.example"[^}]*protocol="spf"[^}]*\} 1/.test(text)) {
      if (Date.now() > deadline) throw new Error(`no protocol metrics after 60 s:\n${text}`);
      await new Promise((r) => setTimeout(r, 500));
      text = await (await scrape()).text();
    }
    const res = await scrape();
    expect(res.headers.get('content-type')).toBe(
      'application/openmetrics-text; version=1.0.0; charset=utf-8',
    );
    text = await res.text();
    expect(text.trimEnd().endsWith('# EOF')).toBe(true);
    expect(text).toMatch(
      /authwatch_protocol_passing\{account="default",domain="m1\.example",protocol="dmarc"\} 1/,
    );
    expect(text).toMatch(/authwatch_open_alerts\{account="default",severity="critical"\} 0/);
    expect(text).toMatch(
      /authwatch_signal_last_success_timestamp_seconds\{account="default",signal="health"\} \d/,
    );
    expect(text).toMatch(/authwatch_api_requests_total\{account="default"\} [1-9]/);
    expect(text).toMatch(/authwatch_rate_budget_capacity\{account="default"\} \d/);
    expect(text).not.toContain(world.token);
    // promtool reads the classic text format, which is served to scrapers that do not ask for OpenMetrics.
    const classic = await scrape('*/*');
    expect(classic.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const classicText = await classic.text();
    expect(classicText).toMatch(
      /authwatch_protocol_passing\{account="default",domain="m1\.example",protocol="dmarc"\} 1/,
    );
    expect(promtoolCheck(classicText)).toEqual({ status: 0, output: '' });
    expect(
      (await fetch(url.replace('/metrics', '/other'), { headers: { authorization: `Bearer ${TOKEN}` } }))
        .status,
    ).toBe(404);
  }, 90_000);

  it('is scraped by a real Prometheus that answers PromQL about it', async () => {
    prometheus = await startPrometheus(new URL(url).host, TOKEN);
    const deadline = Date.now() + 30_000;
    let result: Awaited<ReturnType<RunningPrometheus['query']>> = [];
    while (result.length === 0) {
      if (Date.now() > deadline)
        throw new Error(`Prometheus has no answer; target ${await prometheus.targetHealth()}`);
      await new Promise((r) => setTimeout(r, 500));
      result = await prometheus.query('sum by (domain) (authwatch_protocol_passing{protocol=~"spf|dmarc"})');
    }
    expect(await prometheus.targetHealth()).toBe('up');
    expect(Object.fromEntries(result.map((r) => [r.metric.domain, r.value[1]]))).toEqual({
      'm1.example': '2',
      'm2.example': '2',
    });
  }, 60_000);
});
