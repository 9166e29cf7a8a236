import type { MessageAlert, OutgoingMessage } from './message.ts';

/** Sends messages to one channel. A rejection (DeliveryError or any error) leaves the delivery queued. */
export interface ChannelTransport {
  send(message: OutgoingMessage, signal: AbortSignal): Promise<void>;
  /** Alertmanager only: tell it again about alerts still open, so it does not let them expire. */
  resend?(alerts: MessageAlert[], signal: AbortSignal): Promise<void>;
  /** Frees connections (SMTP pools). */
  close?(): void;
}
