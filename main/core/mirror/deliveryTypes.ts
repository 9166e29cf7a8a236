import type { Severity } from '../alerts/types.ts';
import type { Alert } from './types.ts';

/** Who acknowledged an alert, when, and their note. */
export interface Acknowledgement {
  by: string;
  at: string;
  note: string | null;
}

/** What holds an alert back, as an alert.silenced update says it: who made it, why (or the window's name), until when. */
export interface SilenceNote {
  by: string;
  reason: string;
  until: string;
}

/** What a channel is: mail over SMTP, an HTTP webhook (generic, Slack, Teams) or Alertmanager's v2 API. */
export type ChannelKind = 'email' | 'webhook' | 'alertmanager';

/** How a webhook's body is shaped. */
export type WebhookFormat = 'generic' | 'slack' | 'teams';

/** How an SMTP connection is protected: STARTTLS required, implicit TLS (smtps), or none (a local relay). */
export type SmtpTls = 'starttls' | 'implicit' | 'none';

/**
 * Where a channel's secret comes from: the secret store under the channel's key, and/or an environment
 * variable read at every run (headless machines without a keychain). Names only — never the value.
 */
export interface SecretSource {
  /** The secret was saved in the secret store when the channel was added or edited. */
  stored: boolean;
  /** Environment variable to read when the store has nothing (or cannot be reached). */
  env?: string;
}

/** Channel settings without secrets, as kept in the mirror. */
export type ChannelConfig =
  | {
      kind: 'email';
      host: string;
      port: number;
      tls: SmtpTls;
      user?: string;
      from: string;
      to: string[];
      /** The SMTP password, when the server asks for one. */
      password?: SecretSource;
    }
  | {
      kind: 'webhook';
      format: WebhookFormat;
      /** What may be shown of the URL (scheme and host). */
      urlShown: string;
      /** A generic webhook's URL (signed requests; no token in it) is kept here … */
      plainUrl?: string;
      /** … a Slack or Teams URL carries a token: it is a secret. */
      url?: SecretSource;
      /** The generic format's signing secret. */
      secret?: SecretSource;
    }
  | {
      kind: 'alertmanager';
      /**
       * Alertmanager's base URL (…/api/v2/alerts is added) — or, when `secretUrl` is set, what may be shown of
       * it (credentials and query values redacted).
       */
      url: string;
      /** A base URL with credentials or a query (`?token=`) is a secret: kept in the secret store. */
      secretUrl?: SecretSource;
      /** Seconds between re-sends of open alerts (Alertmanager expires alerts it stops hearing about). */
      resendSeconds: number;
    };

/** A channel as stored, with its delivery state. */
export interface Channel {
  id: number;
  name: string;
  kind: ChannelKind;
  minSeverity: Severity;
  /** Only this account's alerts; null: every account. */
  accountId: number | null;
  /** Quiet hours hold this channel's criticals too (the user chose so); otherwise criticals always go. */
  holdCriticals: boolean;
  config: ChannelConfig;
  createdAt: string;
  lastSuccessAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  /** Deliveries waiting (held, retrying or not yet sent). */
  queued: number;
}

/** What a new or edited channel is made of. */
export interface ChannelInput {
  name: string;
  minSeverity: Severity;
  accountId: number | null;
  holdCriticals: boolean;
  config: ChannelConfig;
}

/** An outbox event type (a test message never goes through the outbox). */
export type OutboxEventType =
  | 'alert.raised'
  | 'alert.resolved'
  | 'alert.acknowledged'
  | 'alert.unacknowledged'
  /** A critical nobody acknowledged, sent to a route's escalation channels. */
  | 'alert.escalated'
  /** A reminder of an alert still open (a route's repeat interval). */
  | 'alert.repeated'
  /** A silence (or maintenance window) now holds an alert the channel was told of; its route asked to hear so. */
  | 'alert.silenced'
  /** …and no longer does, while the alert is still open. */
  | 'alert.unsilenced';

/** One pending delivery: an alert event for a channel. */
export interface OutboxRow {
  id: number;
  eventId: string;
  channelId: number;
  type: OutboxEventType;
  createdAt: string;
  batchId: string | null;
  attempts: number;
  nextAttemptAt: string;
  /** A new alert's route's group wait (Alertmanager's group_wait); null: the sender's own gathering. */
  groupWaitSeconds: number | null;
  alert: Alert;
  accountLabel: string;
  /** For an acknowledgement update: who, when, and their note. */
  ack?: Acknowledgement;
  /** For alert.silenced: the silence or window holding it. */
  silence?: SilenceNote;
}

/** An open alert a channel was told of, to tell again (with its acknowledgement, when it has one). */
export interface OpenDelivered {
  alert: Alert;
  eventId: string;
  accountLabel: string;
  ack?: Acknowledgement;
}

/** A channel whose deliveries are failing: since when, and its last error in its own words. */
export interface FailingChannel {
  id: number;
  name: string;
  /** The channel's account; null: every account's alerts. */
  accountId: number | null;
  /** When the oldest delivery it has not managed was queued (never before its last success). */
  failingSince: string;
  lastError: string;
  lastErrorAt: string;
  /** Deliveries tried and still waiting. */
  waiting: number;
}

/** Channels and the outbox, in the mirror. Each method is one transaction. */
export interface DeliveryStore {
  listChannels(): Channel[];
  getChannel(id: number): Channel | null;
  findChannel(name: string): Channel | null;
  addChannel(input: ChannelInput): Channel;
  updateChannel(id: number, input: ChannelInput): Channel;
  removeChannel(id: number): boolean;
  /** Undelivered rows of a channel due at `now` (next attempt reached), oldest first. */
  due(channelId: number, now: string): OutboxRow[];
  /** Give rows a batch id (only rows without one): a grouped message keeps it on every retry. */
  assignBatch(rowIds: number[], batchId: string): void;
  /** The batch was delivered: its rows will never be sent again. */
  markDelivered(rowIds: number[], at: string): void;
  /** The attempt failed: try again at `nextAt`; the error is kept in words. */
  markFailed(rowIds: number[], error: string, at: string, nextAt: string): void;
  /** Record a channel's last success or error (test messages and re-sends too). */
  noteChannelResult(channelId: number, at: string, error: string | null): void;
  /** Alerts still open whose raise or escalation reached this channel (what Alertmanager must keep hearing about). */
  openDelivered(channelId: number): OpenDelivered[];
  /** The earliest next attempt of any undelivered row, or null. */
  nextAttemptAt(): string | null;
  /**
   * Channels failing now: the last attempt failed and deliveries it tried are still waiting (a failed test
   * message with nothing to deliver is not a channel failing to deliver).
   */
  failingChannels(): FailingChannel[];
}
