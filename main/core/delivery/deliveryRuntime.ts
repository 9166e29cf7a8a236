import type { AlertCatalogue } from '../alerts/ruleSet.ts';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { SecretStore } from '../accounts/secretStore.ts';
import type { Channel } from '../mirror/deliveryTypes.ts';
import type { Mirror } from '../mirror/types.ts';
import { channelSecrets } from './channelSecrets.ts';
import { channelService, type ChannelService } from './channelService.ts';
import { cronScheduler, type TickScheduler } from '../sync/scheduler.ts';
import { DigestRunner, type DigestRunnerOptions } from './digestRunner.ts';
import { OutboxSender, type OutboxSenderOptions } from './outboxSender.ts';
import { moveUrlSecret } from './storedUrlSecret.ts';
import { transportFor } from './transportFactory.ts';
import { describeSlot } from '../alerts/weeklySlot.ts';
import { lifecycleSweep } from './lifecycleRound.ts';

/** How a shell configures delivery beyond the window. */
export interface DeliveryOptions {
  /**
   * Where channel secrets live. Default: the facade's secret store. The command line passes the keychain
   * itself: its token store may be AUTHWATCH_TOKEN, which answers every key with the API token.
   */
  secretStore?: SecretStore;
  /** The environment channel secrets may be named in (default process.env). */
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  /** Extra SMTP TLS options (tests: a local server's CA). */
  smtpTls?: SMTPTransport.Options['tls'];
  /** Sender tuning (tests: short retry delays). */
  sender?: Partial<Omit<OutboxSenderOptions, 'store' | 'transportFor' | 'now' | 'alertSettings'>>;
  /** Ticks of the weekly digest's check (default: node-cron at the start of every minute; tests: by hand). */
  digestScheduler?: TickScheduler;
  /** Digest tuning (tests: short retry delays). */
  digest?: Partial<
    Pick<DigestRunnerOptions, 'retryBaseMs' | 'retryMaxMs' | 'sendTimeoutMs' | 'onFailed' | 'onSent'>
  >;
}

/** Every minute, at second 0: a digest set for 08:00 goes at 08:00. */
const DIGEST_CHECK_CRON = '0 * * * * *';

/** The delivery parts of a facade. */
export interface DeliveryRuntime {
  channels: ChannelService;
  outbox: OutboxSender;
  /** Mails the weekly digests on their schedules. */
  digests: DigestRunner;
}

/** Wires channels, secrets, transports and the outbox sender over a mirror. */
export function createDeliveryRuntime(
  mirror: Mirror,
  fallbackStore: SecretStore,
  now: () => number,
  /** Every alert's words (the whole rule registry's catalogue, livechecks/ruleRegistry.ts), for the messages. */
  catalogue: AlertCatalogue,
  options: DeliveryOptions = {},
): DeliveryRuntime {
  const secrets = channelSecrets(options.secretStore ?? fallbackStore, options.env ?? process.env);
  const deps = {
    secrets,
    fetch: options.fetch ?? fetch,
    nowMs: now,
    timeZone: () => mirror.getAlertSettings().timeZone,
    catalogue,
    ...(options.smtpTls ? { smtpTls: options.smtpTls } : {}),
  };
  const build = async (channel: Channel) =>
    transportFor(await moveUrlSecret(channel, mirror.delivery, secrets), deps);
  return {
    channels: channelService({
      store: mirror.delivery,
      secrets,
      transportFor: build,
      now,
      digestsBy: (channelId) => {
        const labels = new Map(mirror.listAccounts().map((a) => [a.id, a.label]));
        return mirror.digests
          .list()
          .filter((d) => d.channelId === channelId)
          .map((d) => ({
            accountId: d.accountId,
            account: labels.get(d.accountId) ?? String(d.accountId),
            slot: { weekday: d.weekday, hour: d.hour, minute: d.minute, timeZone: d.timeZone },
            when: describeSlot(d),
          }));
      },
    }),
    outbox: new OutboxSender({
      store: mirror.delivery,
      transportFor: build,
      now,
      alertSettings: () => mirror.getAlertSettings(),
      beforeRound: lifecycleSweep(mirror, now),
      ...options.sender,
    }),
    digests: new DigestRunner({
      mirror,
      transportFor: build,
      now,
      scheduler: options.digestScheduler ?? cronScheduler(DIGEST_CHECK_CRON),
      ...options.digest,
    }),
  };
}
