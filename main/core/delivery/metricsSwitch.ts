import type { Mirror } from '../mirror/types.ts';
import type { AuthwatchMetrics } from './metrics.ts';
import { startMetricsServer, type MetricsServer } from './metricsServer.ts';

const KEY = 'metrics';
const DEFAULT_PORT = 9464;

/** The desktop app's metrics switch, as stored and as running. */
export interface MetricsState {
  enabled: boolean;
  port: number;
  url: string | null;
  error: string | null;
}

/** The settings' metrics switch: serves /metrics on 127.0.0.1:port while it is on and the engine runs. */
export interface MetricsSwitch {
  state(): MetricsState;
  /** Stores the switch and applies it now (when the engine runs). */
  set(enabled: boolean, port: number): Promise<MetricsState>;
  /** Applies the stored switch (the engine starts). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Creates the switch over the mirror's settings. */
export function metricsSwitch(mirror: Mirror, metrics: AuthwatchMetrics): MetricsSwitch {
  let server: MetricsServer | null = null;
  let error: string | null = null;
  let running = false;
  const stored = (): { enabled: boolean; port: number } => {
    const v = mirror.getSetting(KEY) as { enabled?: unknown; port?: unknown } | undefined;
    return {
      enabled: v?.enabled === true,
      port: typeof v?.port === 'number' ? v.port : DEFAULT_PORT,
    };
  };
  const apply = async () => {
    await server?.close();
    server = null;
    error = null;
    const { enabled, port } = stored();
    if (!enabled || !running) return;
    try {
      server = await startMetricsServer({
        registry: metrics.registry,
        textRegistry: metrics.textRegistry,
        port,
      });
    } catch (e) {
      error = `cannot serve metrics on 127.0.0.1:${port}: ${e instanceof Error ? e.message : String(e)}`;
    }
  };
  return {
    state: () => ({ ...stored(), url: server?.url ?? null, error }),
    async set(enabled, port) {
      mirror.setSetting(KEY, { enabled, port });
      await apply();
      return this.state();
    },
    async start() {
      running = true;
      await apply();
    },
    async stop() {
      running = false;
      await apply();
    },
  };
}
