import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BridgeEvent } from '../../../shared/bridge/events.ts';
import { fallbackSecretStore } from '../accounts/fallbackSecretStore.ts';
import { headlessSecretStore } from '../accounts/headlessSecretStore.ts';
import { keytarSecretStore } from '../accounts/keytarSecretStore.ts';
import type { SecretStore } from '../accounts/secretStore.ts';
import { sessionSecretStore } from '../accounts/sessionSecretStore.ts';
import { createAuthwatch, type Authwatch, type AuthwatchOptions, type Notifier } from '../app.ts';
import { toBridgeEvent } from '../app/bridgeEvents.ts';
import { appPreferences } from '../app/preferences.ts';
import { openMirror } from '../mirror/openMirror.ts';
import type { Mirror } from '../mirror/types.ts';
import { createNetworkLayer, type NetworkLayer } from '../network/networkLayer.ts';
import { readNetworkSettings } from '../network/networkSettings.ts';
import { STATUS_MODEL } from '../status/statusModel.ts';
import { limitHeapGrowth } from './heapGrowth.ts';
import { claimWriterRole, type WriterClaim, type WriterRole } from './writerRole.ts';

/**
 * Where a runtime keeps API tokens. 'keychain': the OS keychain, else this session only (said once).
 * 'headless': AUTHWATCH_TOKEN when set, else as 'keychain'; channel secrets then come from the keychain
 * itself and the variables the channels name (the token store would answer every key with the token).
 * Or a chain the shell builds itself (Electron: the keychain, else a safeStorage file).
 */
export type SecretsChoice = 'keychain' | 'headless' | SecretStore;

/** What a shell tells openRuntime; everything the facade takes besides the mirror and the secret store. */
export interface RuntimeOptions extends Omit<AuthwatchOptions, 'mirror' | 'secretStore'> {
  /** The mirror file (its folder is created, private to the user), or ':memory:'. */
  db: string;
  /** Whether this process syncs the mirror; see WriterRole. */
  role: WriterRole;
  /** Names this process in the writer lock, for the one that finds it held ("authwatch sync --watch"). */
  purpose: string;
  /** Default 'keychain'. */
  secrets?: SecretsChoice;
  /** For 'headless' secrets and channel secrets (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** One line for the person running the app (the keychain fallback, the writer lock changing hands). */
  say?: (line: string) => void;
  /**
   * The network layer's parts only a shell knows: the extra CA file of `--ca-file` (default
   * AUTHWATCH_EXTRA_CA) and Electron's `net.fetch` (the system's proxy and trust store).
   */
  networkShell?: { caFile?: string; systemFetch?: typeof fetch };
}

/** The environment variable naming an extra CA file (as `--ca-file` does). */
export const EXTRA_CA_ENV = 'AUTHWATCH_EXTRA_CA';

/** The app assembled for a shell: engine, mirror, secret store, scheduler, delivery and the writer lock. */
export interface Runtime {
  app: Authwatch;
  mirror: Mirror;
  /** The token store (the CLI reads a new account's token through it before the account exists). */
  secrets: SecretStore;
  /** Every outgoing HTTP(S) request of this process goes through it (the CLI's first GET /auth/me too). */
  network: NetworkLayer;
  /** Whether this process holds the mirror's writer lock (syncs and notifies). */
  readonly writer: boolean;
  /** While standing by: the process that syncs instead, in words; else null. */
  readonly syncedBy: string | null;
  /** The facade's events as the bridge sends them to a renderer. */
  onBridgeEvent(listener: (event: BridgeEvent) => void): () => void;
  /** Applies the stored app preferences to the shell (start at login). */
  applyPreferences(): Promise<void>;
  /** Starts the scheduled sync when this process is the writer (a standby starts when it takes over). */
  start(): void;
  /** Stops the sync and the delivery, closes the mirror and frees the writer lock. */
  close(): Promise<void>;
}

function secretStoreOf(choice: SecretsChoice, env: NodeJS.ProcessEnv, say: (line: string) => void) {
  if (choice === 'headless') return headlessSecretStore(env, say);
  if (choice === 'keychain') return fallbackSecretStore(keytarSecretStore(), () => sessionSecretStore(), say);
  return choice;
}

/** Only the writer lock's holder notifies: its sync raised the alert; until then alerts stay pending. */
function writerOnly(notifier: Notifier, lock: WriterClaim): Notifier {
  return {
    channel: notifier.channel,
    notify(alert) {
      if (!lock.writer) throw new Error('another process notifies while it syncs this mirror');
      return notifier.notify(alert);
    },
  };
}

/**
 * Opens everything a shell runs: takes the mirror's writer lock as the role asks (throws MirrorBusyError
 * when a writer finds it held), opens the mirror, picks the secret store and builds the facade. Only the
 * lock's holder notifies; a notification meanwhile stays pending. Nothing syncs until start().
 */
export function openRuntime(options: RuntimeOptions): Runtime {
  const {
    db,
    role,
    purpose,
    secrets: choice = 'keychain',
    env = process.env,
    say: given,
    networkShell,
    ...engine
  } = options;
  const say = given ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Every shell runs the engine for hours: keep its garbage near its live set (heapGrowth.ts).
  limitHeapGrowth();
  if (db !== ':memory:') mkdirSync(dirname(db), { recursive: true, mode: 0o700 });
  let startRequested = false;
  const lock = claimWriterRole(db, role, purpose, say, () => {
    if (startRequested) app.start();
  });
  // What was opened is closed again when a later step fails (a mirror it cannot read or migrate).
  let mirror: Mirror | undefined;
  let app: Authwatch;
  let secrets: SecretStore;
  let network: NetworkLayer | undefined;
  try {
    // The mirror stamps its rows on the engine's clock (the same instant the engine acts on).
    const { clock } = engine;
    mirror = openMirror(db, {
      status: STATUS_MODEL,
      ...(clock?.now ? { clock: { now: () => clock.now!() } } : {}),
    });
    secrets = secretStoreOf(choice, env, say);
    const caPath = networkShell?.caFile ?? env[EXTRA_CA_ENV];
    const settingsMirror = mirror;
    network = createNetworkLayer({
      env,
      ...(caPath
        ? { caFile: { path: caPath, from: networkShell?.caFile ? '--ca-file' : EXTRA_CA_ENV } }
        : {}),
      settings: () => readNetworkSettings(settingsMirror),
      ...(networkShell?.systemFetch ? { systemFetch: networkShell.systemFetch } : {}),
    });
    app = createAuthwatch({
      ...engine,
      mirror,
      secretStore: secrets,
      network,
      ...(engine.notifier ? { notifier: writerOnly(engine.notifier, lock) } : {}),
      delivery: {
        fetch: network.fetch,
        smtpTls: network.smtpTls,
        ...(choice === 'headless' ? { secretStore: keytarSecretStore(), env } : {}),
        ...engine.delivery,
      },
    });
  } catch (error) {
    void network?.close();
    mirror?.close();
    lock.close();
    throw error;
  }
  const opened = mirror;
  const layer = network;

  return {
    app,
    mirror: opened,
    secrets,
    network: layer,
    get writer() {
      return lock.writer;
    },
    get syncedBy() {
      return lock.syncedBy;
    },
    onBridgeEvent: (listener) =>
      app.on((event) => {
        const bridgeEvent = toBridgeEvent(event);
        if (bridgeEvent) listener(bridgeEvent);
      }),
    async applyPreferences() {
      await options.shell?.setStartAtLogin?.(appPreferences(opened).startAtLogin);
    },
    start() {
      startRequested = true;
      if (lock.writer) app.start();
    },
    async close() {
      lock.stopWaiting();
      try {
        await app.stop();
      } finally {
        await layer.close();
        opened.close();
        lock.close();
      }
    },
  };
}
