import type { MessageAlert, OutgoingMessage } from './message.ts';

/** A mail that is not an alert (the weekly digest): its own subject and parts, and a stable id. */
export interface PlainMail {
  /** Stable per mail (the account and week), so a re-sent digest is recognisably the same message. */
  id: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends messages to one channel. A rejection (DeliveryError or any error) leaves the delivery queued. */
export interface ChannelTransport {
  send(message: OutgoingMessage, signal: AbortSignal): Promise<void>;
  /** Alertmanager only: tell it again about alerts still open, so it does not let them expire. */
  resend?(alerts: MessageAlert[], signal: AbortSignal): Promise<void>;
  /** Email only: a mail of its own (the weekly digest). */
  sendMail?(mail: PlainMail, signal: AbortSignal): Promise<void>;
  /** Frees connections (SMTP pools). */
  close?(): void;
}
