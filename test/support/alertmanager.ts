/**
 * Debian's real Alertmanager for tests (`/usr/bin/prometheus-alertmanager`, installed by .ci/run): started on
 * 127.0.0.1 on a free port with clustering off, a private storage folder, a short resolve_timeout, and a
 * webhook receiver (send_resolved) pointing back at the test, so the test sees what Alertmanager itself
 * concluded: firing, then resolved. Stopped by close().
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './freePort.ts';
import { startReadyDaemon } from './readyDaemon.ts';

export const ALERTMANAGER_BIN = '/usr/bin/prometheus-alertmanager';

/** One alert as Alertmanager's GET /api/v2/alerts lists it. */
export interface GettableAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  status: { state: string };
}

export interface RunningAlertmanager {
  url: string;
  /** Active alerts (resolved ones are not listed by Alertmanager). */
  alerts(): Promise<GettableAlert[]>;
  close(): Promise<void>;
}

/** Starts Alertmanager; its notifications go to `webhookUrl` (a local receiver), resolved ones too. */
export async function startAlertmanager(
  webhookUrl: string,
  options: { resolveTimeout?: string } = {},
): Promise<RunningAlertmanager> {
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-am-'));
  const config = join(dir, 'alertmanager.yml');
  writeFileSync(
    config,
    `global:
  resolve_timeout: ${options.resolveTimeout ?? '5m'}
route:
  receiver: test
  group_by: ['alertname', 'domain', 'protocol']
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: test
    webhook_configs:
      - url: '${webhookUrl}'
        send_resolved: true
`,
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { stop } = await startReadyDaemon({
    name: 'Alertmanager',
    bin: ALERTMANAGER_BIN,
    args: [
      `--config.file=${config}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=warn',
    ],
    dir,
    url,
    readyWithinMs: 20_000,
    pollMs: 200,
  });
  return {
    url,
    async alerts() {
      const res = await fetch(`${url}/api/v2/alerts`);
      return (await res.json()) as GettableAlert[];
    },
    close: stop,
  };
}
