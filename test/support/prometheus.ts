/**
 * Debian's real Prometheus for tests (`/usr/bin/prometheus`, installed by .ci/run): scrapes one target every
 * second, listens on 127.0.0.1 on a free port with a private TSDB folder, answers PromQL over its HTTP API.
 * Also `promtool check metrics` on a scrape. Stopped by close().
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './freePort.ts';
import { startReadyDaemon } from './readyDaemon.ts';

export const PROMETHEUS_BIN = '/usr/bin/prometheus';
export const PROMTOOL_BIN = '/usr/bin/promtool';

/** `promtool check metrics` on a scrape's text: its exit status and what it complained about. */
export function promtoolCheck(text: string): { status: number | null; output: string } {
  const run = spawnSync(PROMTOOL_BIN, ['check', 'metrics'], {
    input: text,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}

export interface RunningPrometheus {
  url: string;
  /** An instant PromQL query's result vector. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** The scrape target's health as Prometheus sees it ("up", "down", "unknown"). */
  targetHealth(): Promise<string | null>;
  close(): Promise<void>;
}

/** Starts Prometheus scraping `target` (host:port) at /metrics every second, with an optional bearer token. */
export async function startPrometheus(target: string, bearerToken?: string): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-prom-'));
  const config = join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    `global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: authwatch
    static_configs:
      - targets: ['${target}']
${bearerToken ? `    authorization:\n      credentials: '${bearerToken}'\n` : ''}`,
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { stop } = await startReadyDaemon({
    name: 'Prometheus',
    bin: PROMETHEUS_BIN,
    args: [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    dir,
    url,
    readyWithinMs: 30_000,
    pollMs: 250,
  });
  return {
    url,
    async query(promql) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await res.json()) as { status: string; data: { result: never[] } };
      if (body.status !== 'success') throw new Error(`PromQL failed: ${JSON.stringify(body)}`);
      return body.data.result;
    },
    async targetHealth() {
      const res = await fetch(`${url}/api/v1/targets`);
      const body = (await res.json()) as { data: { activeTargets: { health: string }[] } };
      return body.data.activeTargets[0]?.health ?? null;
    },
    close: stop,
  };
}
