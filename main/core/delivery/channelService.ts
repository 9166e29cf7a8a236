import { randomUUID } from 'node:crypto';
import type { Channel, ChannelConfig, DeliveryStore, SecretSource } from '../mirror/deliveryTypes.ts';
import type { ChannelSecretField, ChannelSecrets } from './channelSecrets.ts';
import { channelInput, type ChannelDraft } from './channelDraft.ts';
import { DeliveryError, errorWords } from './deliveryError.ts';
import { testMessage } from './message.ts';
import { withinDeadline } from './sendDeadline.ts';
import type { ChannelTransport } from './transport.ts';
import type { WeeklySlot } from '../alerts/weeklySlot.ts';

/** A channel saved, with what the user should know (e.g. a secret read from the environment at every run). */
export interface SavedChannel {
  channel: Channel;
  notices: string[];
}

/** A weekly digest mailed by a channel: whose, and when (in words). */
export interface ChannelDigest {
  accountId: number;
  account: string;
  slot: WeeklySlot;
  /** "Mondays at 08:00 (Europe/Berlin)". */
  when: string;
}

/** What a removal did: whether the channel was there, and whose weekly digests stopped with it. */
export interface RemovedChannel {
  removed: boolean;
  digests: ChannelDigest[];
}

/**
 * A channel that still mails weekly digests is not removed unless the caller says the digests go too: the
 * schedule would otherwise vanish with it (the mirror's schedules cascade) and the user would find out a
 * week later, by a mail that did not come.
 */
export class ChannelInUseError extends DeliveryError {
  constructor(
    readonly channel: string,
    readonly digests: ChannelDigest[],
  ) {
    super(
      `“${channel}” mails the weekly digest of ${digests.map((d) => `“${d.account}” (${d.when})`).join(', ')}; ` +
        'removing the channel would stop it. Move the digest to another email channel first, or remove both.',
    );
  }
}

/** How long a test message may take, from connecting to the receiver's last byte read. */
const TEST_DEADLINE_MS = 20_000;

/** Add, edit, list, test and remove channels — the same for the command line and Settings. */
export interface ChannelService {
  list(): Channel[];
  add(draft: ChannelDraft): Promise<SavedChannel>;
  /** Replace a channel's settings; a secret left out of the draft keeps its stored value. */
  update(id: number, draft: ChannelDraft): Promise<SavedChannel>;
  /**
   * Removes a channel and what it had queued. One that mails weekly digests is refused (ChannelInUseError)
   * unless `withDigests`: then those digests stop with it, and the result names them.
   */
  remove(id: number, options?: { withDigests?: boolean }): Promise<RemovedChannel>;
  /** Sends a test message now; the channel's state records the outcome. */
  test(id: number): Promise<{ ok: true } | { ok: false; error: string }>;
  find(name: string): Channel | null;
}

/** The channel service over the mirror's store, the secrets and a transport factory. */
export function channelService(deps: {
  store: DeliveryStore;
  secrets: ChannelSecrets;
  transportFor(channel: Channel): Promise<ChannelTransport>;
  now(): number;
  /** The weekly digests a channel mails. */
  digestsBy(channelId: number): ChannelDigest[];
}): ChannelService {
  const { store, secrets } = deps;

  /** Saves each secret value; where no store keeps it, the environment variable must stand in. */
  async function keepSecrets(
    channel: Channel,
    values: Partial<Record<ChannelSecretField, string>>,
    previous: ChannelConfig | null,
  ): Promise<SavedChannel> {
    const notices: string[] = [];
    const config = structuredClone(channel.config);
    const sources = sourcesOf(config);
    for (const field of Object.keys(sources) as ChannelSecretField[]) {
      const source = sources[field]!;
      const value = values[field];
      if (value === undefined) {
        // Not given again: keep what was stored for this field before (an edit that does not retype it).
        const before = previous ? sourcesOf(previous)[field] : undefined;
        if (before?.stored) source.stored = true;
        if (!source.stored && !source.env)
          throw new DeliveryError(`the ${field} of “${channel.name}” is missing`);
        continue;
      }
      const saved = await secrets.save(channel.id, field, value);
      source.stored = saved.stored;
      if (!saved.stored) {
        if (!source.env)
          throw new DeliveryError(
            `no secret store can keep the ${field} of “${channel.name}” (${saved.problem}); ` +
              `put it in an environment variable and name it (--${field === 'password' ? 'password' : field}-env VAR), ` +
              'so it is read from there at every run',
          );
        notices.push(
          `No keychain answered (${saved.problem}): the ${field} of “${channel.name}” is read from $${source.env} at every run.`,
        );
      }
    }
    const updated = store.updateChannel(channel.id, {
      name: channel.name,
      minSeverity: channel.minSeverity,
      accountId: channel.accountId,
      holdCriticals: channel.holdCriticals,
      config,
    });
    return { channel: updated, notices };
  }

  return {
    list: () => store.listChannels(),
    find: (name) => store.findChannel(name),

    async add(draft) {
      const { input, secrets: values } = channelInput(draft);
      if (store.findChannel(input.name))
        throw new DeliveryError(`a channel named “${input.name}” exists already`);
      const channel = store.addChannel(input);
      try {
        return await keepSecrets(channel, values, null);
      } catch (error) {
        store.removeChannel(channel.id);
        await secrets.forget(channel.id);
        throw error;
      }
    },

    async update(id, draft) {
      const existing = store.getChannel(id);
      if (!existing) throw new DeliveryError(`no channel ${id}`);
      const { input, secrets: values } = channelInput(draft, existing.config);
      const renamed = store.updateChannel(id, input);
      try {
        return await keepSecrets(renamed, values, existing.config);
      } catch (error) {
        store.updateChannel(id, existing);
        throw error;
      }
    },

    async remove(id, options = {}) {
      const channel = store.getChannel(id);
      if (!channel) return { removed: false, digests: [] };
      const digests = deps.digestsBy(id);
      if (digests.length > 0 && options.withDigests !== true)
        throw new ChannelInUseError(channel.name, digests);
      const removed = store.removeChannel(id);
      if (removed) await secrets.forget(id);
      return { removed, digests: removed ? digests : [] };
    },

    async test(id) {
      const channel = store.getChannel(id);
      if (!channel) throw new DeliveryError(`no channel ${id}`);
      const at = new Date(deps.now()).toISOString();
      let transport: ChannelTransport | undefined;
      try {
        transport = await deps.transportFor(channel);
        const sending = transport;
        await withinDeadline(TEST_DEADLINE_MS, (signal) =>
          sending.send(testMessage(randomUUID(), at), signal),
        );
      } catch (error) {
        const words = errorWords(error);
        store.noteChannelResult(id, at, words);
        return { ok: false, error: words };
      } finally {
        transport?.close?.();
      }
      store.noteChannelResult(id, at, null);
      return { ok: true };
    },
  };
}

/** The secret sources of a config, by field (mutable: they belong to the config object). */
function sourcesOf(config: ChannelConfig): Partial<Record<ChannelSecretField, SecretSource>> {
  switch (config.kind) {
    case 'email':
      return config.password ? { password: config.password } : {};
    case 'webhook':
      return {
        ...(config.url ? { url: config.url } : {}),
        ...(config.secret ? { secret: config.secret } : {}),
      };
    case 'alertmanager':
      return config.secretUrl ? { url: config.secretUrl } : {};
  }
}
