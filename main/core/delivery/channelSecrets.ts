import { type SecretStore, SecretStoreError } from '../accounts/secretStore.ts';
import type { SecretSource } from '../mirror/deliveryTypes.ts';
import { DeliveryError } from './deliveryError.ts';

/** Which secret of a channel: the SMTP password, a webhook's URL, a webhook's signing secret. */
export type ChannelSecretField = 'password' | 'url' | 'secret';

const FIELD_WORDS: Record<ChannelSecretField, string> = {
  password: 'SMTP password',
  url: 'URL',
  secret: 'signing secret',
};

/** The key a channel's secret is filed under in the secret store (next to the accounts' tokens). */
export function channelSecretKey(channelId: number, field: ChannelSecretField): string {
  return `channel-${channelId}-${field}@authwatch`;
}

/** Channel secrets: the secret store first, then the named environment variable (headless servers). */
export interface ChannelSecrets {
  /** The secret, or a DeliveryError naming where it was looked for. */
  read(
    channelId: number,
    channelName: string,
    field: ChannelSecretField,
    source: SecretSource,
  ): Promise<string>;
  /**
   * Keep a secret in the store. Resolves false (and says why in `problem`) when no store can keep it:
   * the caller then relies on the environment variable at every run.
   */
  save(
    channelId: number,
    field: ChannelSecretField,
    value: string,
  ): Promise<{ stored: boolean; problem?: string }>;
  /** Forget a channel's secrets (the channel was removed). */
  forget(channelId: number): Promise<void>;
  /** Where secrets are kept, for messages. */
  readonly kind: string;
}

/** Channel secrets over a SecretStore and the process environment. */
export function channelSecrets(store: SecretStore, env: NodeJS.ProcessEnv): ChannelSecrets {
  return {
    get kind() {
      return store.kind;
    },
    async read(channelId, channelName, field, source) {
      if (source.stored) {
        try {
          const value = await store.get(channelSecretKey(channelId, field));
          if (value) return value;
        } catch (error) {
          if (!(error instanceof SecretStoreError)) throw error;
        }
      }
      const fromEnv = source.env ? env[source.env] : undefined;
      if (fromEnv) return fromEnv;
      const where = [source.stored ? store.kind : null, source.env ? `$${source.env}` : null].filter(Boolean);
      throw new DeliveryError(
        `the ${FIELD_WORDS[field]} of “${channelName}” was not found (looked in ${where.join(' and ') || 'nothing: none was given'})`,
      );
    },
    async save(channelId, field, value) {
      try {
        await store.set(channelSecretKey(channelId, field), value);
        return { stored: true };
      } catch (error) {
        if (error instanceof SecretStoreError) return { stored: false, problem: error.summary };
        throw error;
      }
    },
    async forget(channelId) {
      for (const field of ['password', 'url', 'secret'] as const) {
        try {
          await store.delete(channelSecretKey(channelId, field));
        } catch {
          // Nothing stored, or no store reachable: nothing to forget there.
        }
      }
    },
  };
}
